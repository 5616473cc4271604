// An iWARP capture opened in the window reads as rdmascope-cli decode reads it: the packet
// list's protocol and info per frame, the detail tree's MPA/DDP/RDMAP layers with the CRC
// check, the hex highlight of those fields, the iWARP layer stack, and display filters on
// iWARP fields, also when segments were lost and resent.
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QTreeView>
#include <cstdio>
#include <sstream>

#include "rdmascope/ui/data_path_pane.h"
#include "rdmascope/ui/detail_tree_model.h"
#include "rdmascope/ui/filter_bar.h"
#include "rdmascope/ui/frame_store.h"
#include "rdmascope/ui/hex_view.h"
#include "rdmascope/ui/layer_stacks_view.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/packet_pane.h"
#include "test_frames.h"

namespace rdmascope::ui {
namespace {

struct Row {
  std::uint64_t number = 0;
  std::string protocol;
  std::string info;
};

// The summary lines of `rdmascope-cli decode FILE [-Y FILTER]`: number, time, source, arrow,
// destination, protocol, length, info.
std::vector<Row> cliDecode(const std::string& path, const std::string& filter = {}) {
  std::string cmd =
      std::string(RDMASCOPE_BINARY_DIR) + "/app/cli/rdmascope-cli decode '" + path + "'";
  if (!filter.empty()) cmd += " -Y '" + filter + "'";
  std::vector<Row> rows;
  FILE* p = ::popen(cmd.c_str(), "r");
  EXPECT_TRUE(p) << cmd;
  if (!p) return rows;
  std::string out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p))
    out.append(buf, n);
  EXPECT_EQ(::pclose(p), 0) << cmd;
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream in(line);
    Row r;
    std::string time, src, arrow, dst, length;
    in >> r.number >> time >> src >> arrow >> dst >> r.protocol >> length;
    std::getline(in, r.info);
    if (!r.info.empty() && r.info.front() == ' ') r.info.erase(0, 1);
    rows.push_back(r);
  }
  return rows;
}

std::string cell(const PacketListModel* m, int row, int column) {
  return m->data(m->index(row, column)).toString().toStdString();
}

// Opens the capture in a window and compares every row with the CLI's decode of the file.
void expectListMatchesDecode(const char* scenario, double loss, std::uint64_t seed) {
  SCOPED_TRACE(std::string(scenario) + " loss " + std::to_string(loss));
  const std::string path = test::iwarpCapture(scenario, loss, seed);
  const std::vector<Row> cli = cliDecode(path);
  MainWindow w(nullptr, QString());
  ASSERT_TRUE(w.openCapture(QString::fromStdString(path))) << w.lastError().toStdString();
  std::remove(path.c_str());
  const PacketListModel* m = w.packetPane()->packetModel();
  ASSERT_EQ(static_cast<std::size_t>(m->rowCount()), cli.size());
  std::size_t ddp = 0, mpa = 0;
  // Rows asked for from the end backwards first: the stream pass must not depend on order.
  for (int row = m->rowCount() - 1; row >= 0; row -= 7)
    (void)cell(m, row, PacketListModel::Info);
  for (int row = 0; row < m->rowCount(); ++row) {
    const Row& c = cli[static_cast<std::size_t>(row)];
    EXPECT_EQ(cell(m, row, PacketListModel::Number), std::to_string(c.number));
    EXPECT_EQ(cell(m, row, PacketListModel::Protocol), c.protocol) << "frame " << c.number;
    EXPECT_EQ(cell(m, row, PacketListModel::Info), c.info) << "frame " << c.number;
    ddp += c.protocol == "DDP/RDMA";
    mpa += c.protocol == "MPA";
  }
  // Both the MPA negotiation and the transfer are there (not everything shown as TCP).
  EXPECT_EQ(mpa, 2u);
  EXPECT_GT(ddp, 0u);
}

TEST(IwarpPacketList, RowsMatchTheCliDecode) {
  expectListMatchesDecode("iwarp-write", 0.0, 1);
  expectListMatchesDecode("iwarp-read", 0.0, 1);
  expectListMatchesDecode("iwarp-send-recv", 0.0, 1);
}

TEST(IwarpPacketList, LossyRunsMatchTheCliDecode) {
  expectListMatchesDecode("iwarp-write", 0.1, 3);
  expectListMatchesDecode("iwarp-read", 0.1, 2);
  expectListMatchesDecode("iwarp-send-recv", 0.15, 5);
}

TEST(IwarpPacketList, DetailTreeHexAndLayerStackShowTheIwarpLayers) {
  const std::string path = test::iwarpCapture("iwarp-write", 0.0, 1);
  const std::vector<Row> cli = cliDecode(path);
  MainWindow w(nullptr, QString());
  w.resize(1600, 1000);
  w.show();
  ASSERT_TRUE(w.openCapture(QString::fromStdString(path))) << w.lastError().toStdString();
  std::remove(path.c_str());
  PacketPane* pane = w.packetPane();
  std::size_t frame = cli.size();
  for (const Row& r : cli)
    if (r.protocol == "DDP/RDMA") {
      frame = r.number - 1;
      break;
    }
  ASSERT_LT(frame, cli.size());
  ASSERT_TRUE(pane->selectFrame(frame));
  QCoreApplication::processEvents();
  const auto d = pane->packetModel()->dissection(frame);
  for (const char* key :
       {"iwarp_mpa", "iwarp_ddp_rdmap", "iwarp_rdma.opcode", "iwarp_mpa.crc_check"})
    EXPECT_TRUE(d->find(key)) << key;
  // The CRC32c of the FPDU is checked and shown.
  EXPECT_EQ(d->crc, packets::CrcStatus::Good);
  EXPECT_EQ(
      pane->packetModel()
          ->data(pane->packetModel()->index(static_cast<int>(frame), 0), PacketListModel::CrcRole)
          .toInt(),
      static_cast<int>(packets::CrcStatus::Good));
  // The detail tree has the layers and selecting a field highlights its bytes.
  ASSERT_TRUE(pane->selectField(QStringLiteral("iwarp_rdma.opcode")));
  EXPECT_EQ(pane->detailTree()->currentIndex().data(DetailTreeModel::KeyRole).toString(),
            QStringLiteral("iwarp_rdma.opcode"));
  const packets::Node* op = d->find("iwarp_rdma.opcode");
  EXPECT_EQ(pane->hexView()->highlightOffset(), op->offset);
  EXPECT_EQ(pane->hexView()->highlightLength(), std::max<std::size_t>(op->length, 1));
  EXPECT_GT(op->offset, 54u);  // beyond the Ethernet, IPv4 and TCP headers
  EXPECT_TRUE(pane->selectField(QStringLiteral("iwarp_ddp_rdmap")));
  // The layer stacks light the iWARP stack.
  EXPECT_EQ(w.dataPathPane()->view()->frameStack(), static_cast<int>(Stack::Iwarp));
  EXPECT_NE(w.dataPathPane()->view()->frameLayers(), 0u);
}

TEST(IwarpPacketList, FilterOnIwarpFieldsSelectsTheFramesDecodeSelects) {
  const std::string path = test::iwarpCapture("iwarp-read", 0.1, 2);
  MainWindow w(nullptr, QString());
  ASSERT_TRUE(w.openCapture(QString::fromStdString(path))) << w.lastError().toStdString();
  PacketPane* pane = w.packetPane();
  for (const std::string filter :
       {"iwarp_rdma.opcode == 1", "iwarp_ddp.tagged", "iwarp_mpa", "iwarp_mpa.crc_check"}) {
    SCOPED_TRACE(filter);
    const std::vector<Row> cli = cliDecode(path, filter);
    EXPECT_FALSE(cli.empty());
    pane->filterBar()->setText(QString::fromStdString(filter));
    pane->filterBar()->apply();
    QCoreApplication::processEvents();
    const PacketListModel* m = pane->packetModel();
    ASSERT_TRUE(m->filtered());
    ASSERT_EQ(static_cast<std::size_t>(m->rowCount()), cli.size());
    for (int row = 0; row < m->rowCount(); ++row)
      EXPECT_EQ(m->frameAt(row) + 1, cli[static_cast<std::size_t>(row)].number);
  }
  std::remove(path.c_str());
}

}  // namespace
}  // namespace rdmascope::ui
