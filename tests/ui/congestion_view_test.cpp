// The Congestion page: a capture's PFC pauses on a timeline and in a table per port and
// priority, and its CNPs with the marked packets they answer; clicking asks for the frame.
#include "rdmascope/ui/congestion_view.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QTest>

#include "rdmascope/packets/ib_builder.h"
#include "rdmascope/packets/mac_control.h"
#include "rdmascope/ui/capture_analysis.h"
#include "rdmascope/ui/frame_store.h"

namespace rdmascope::ui {
namespace {

std::vector<std::uint8_t> write(std::uint32_t psn, std::uint8_t ecn) {
  packets::IbPacket p;
  p.bth.opcode = 0x0a;
  p.bth.destQp = 0x22;
  p.bth.psn = psn;
  p.reth = packets::Reth{0x1000, 0x42, 64};
  p.payload.assign(64, 1);
  packets::RoceAddressing a;
  a.dscp = 26;
  a.ecn = ecn;
  return packets::buildRoceV2(a, p);
}

std::vector<std::uint8_t> fromB(std::uint8_t opcode) {
  packets::IbPacket p;
  p.bth.opcode = opcode;
  p.bth.destQp = 0x11;
  if (opcode == 0x11) p.aeth = packets::Aeth::ack(0);
  packets::RoceAddressing a;
  std::swap(a.srcIp, a.dstIp);
  std::swap(a.srcMac, a.dstMac);
  return packets::buildRoceV2(a, p);
}

// Writes from A to B, two marked, B's ACK and CNP; a switch port pauses priority 3 from
// 10 us to 30 us and priority 5 from 40 us until its quanta run out.
std::shared_ptr<const CaptureAnalysis> analysed() {
  FrameStore store;
  const std::array<std::uint8_t, 6> port = {0x02, 0x5e, 0, 0, 1, 3};
  auto pfc = [&](int prio, std::uint16_t quanta, std::int64_t ns) {
    packets::PfcPause p;
    p.enableVector = static_cast<std::uint8_t>(1u << prio);
    p.quanta[static_cast<std::size_t>(prio)] = quanta;
    store.append(packets::buildPfcFrame(port, p), ns);
  };
  store.append(write(0, 2), 0);       // 1
  store.append(fromB(0x11), 1'000);   // 2 ACK
  pfc(3, 0xffff, 10'000);             // 3
  store.append(write(1, 3), 20'000);  // 4 CE
  pfc(3, 0, 30'000);                  // 5
  store.append(write(2, 3), 35'000);  // 6 CE
  store.append(fromB(0x81), 38'000);  // 7 CNP
  pfc(5, 1000, 40'000);               // 8
  store.append(write(3, 2), 60'000);  // 9
  auto outcome = analyzeFrameStore(store);
  return std::make_shared<CaptureAnalysis>(std::move(outcome.analysis));
}

TEST(CongestionView, TablesShowEachPausingPortAndPriorityAndEachCnp) {
  CongestionView view;
  QAbstractItemModelTester pauseTester(view.pauseModel());
  QAbstractItemModelTester cnpTester(view.cnpModel());
  EXPECT_EQ(view.pauseModel()->rowCount(), 0);
  view.setAnalysis(analysed());
  auto* pm = view.pauseModel();
  ASSERT_EQ(pm->rowCount(), 2);
  EXPECT_EQ(pm->index(0, PauseStatsModel::Port).data().toString(), "02:5e:00:00:01:03");
  EXPECT_EQ(pm->index(0, PauseStatsModel::Priority).data().toString(), "3");
  EXPECT_EQ(pm->index(0, PauseStatsModel::Xoff).data().toULongLong(), 1u);
  EXPECT_EQ(pm->index(0, PauseStatsModel::Xon).data().toULongLong(), 1u);
  EXPECT_EQ(pm->index(0, PauseStatsModel::Paused).data().toString(), "20.0 us");
  EXPECT_EQ(pm->index(1, PauseStatsModel::Priority).data().toString(), "5");
  EXPECT_EQ(pm->frameAt(1), 8);
  auto* cm = view.cnpModel();
  ASSERT_EQ(cm->rowCount(), 1);
  EXPECT_EQ(cm->index(0, CnpMatchModel::Frame).data().toULongLong(), 7u);
  EXPECT_EQ(cm->index(0, CnpMatchModel::Marked).data().toULongLong(), 2u);
  EXPECT_EQ(cm->index(0, CnpMatchModel::MarkedFrames).data().toString(), "4\u20136");
  EXPECT_EQ(cm->index(0, CnpMatchModel::Reaction).data().toString(), "3.00 us");
  EXPECT_EQ(cm->index(0, CnpMatchModel::DestQp).data().toString(), "0x000011");
  const QString summary = view.summaryText();
  EXPECT_TRUE(summary.startsWith("3 pause frames from 2 port/priority pairs"))
      << summary.toStdString();
  EXPECT_TRUE(summary.contains("1 CNPs (0 with no marked packet")) << summary.toStdString();
}

TEST(CongestionView, ClickingAPauseBarAsksForTheFrameThatStartedIt) {
  CongestionView view;
  view.resize(800, 400);
  view.setAnalysis(analysed());
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  PauseTimeline* t = view.timeline();
  QSignalSpy spy(&view, &CongestionView::frameActivated);
  // Scan the first row for a bar: its pixels are priority 3's colour.
  const QImage img = t->grab().toImage();
  int hit = -1;
  const int y = [&] {
    for (int yy = 0; yy < img.height(); ++yy)
      for (int x = 0; x < img.width(); ++x)
        if (img.pixelColor(x, yy) == QColor(0xe5, 0x39, 0x35)) {
          hit = x;
          return yy;
        }
    return -1;
  }();
  ASSERT_GE(y, 0) << "no priority-3 bar painted";
  EXPECT_EQ(t->frameAt(QPoint(hit, y)), 3);
  QTest::mouseClick(t, Qt::LeftButton, {}, QPoint(hit + 1, y + 1));
  ASSERT_EQ(spy.count(), 1);
  EXPECT_EQ(spy.at(0).at(0).toLongLong(), 3);
  EXPECT_EQ(t->frameAt(QPoint(1, 1)), -1);
}

TEST(CongestionView, ACaptureWithoutPausesSaysSo) {
  FrameStore store;
  store.append(write(0, 2), 0);
  auto outcome = analyzeFrameStore(store);
  CongestionView view;
  view.setAnalysis(std::make_shared<CaptureAnalysis>(std::move(outcome.analysis)));
  EXPECT_EQ(view.pauseModel()->rowCount(), 0);
  EXPECT_TRUE(view.summaryText().startsWith("0 pause frames")) << view.summaryText().toStdString();
}

}  // namespace
}  // namespace rdmascope::ui
