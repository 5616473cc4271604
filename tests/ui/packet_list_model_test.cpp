#include "rdmascope/ui/packet_list_model.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QBrush>
#include <random>

#include "rdmascope/ui/frame_store.h"
#include "test_frames.h"

namespace rdmascope::ui {
namespace {

FrameStore mixedStore() {
  FrameStore store;
  store.append(test::roceFrame(100), 0);
  store.append(test::tcpFrame(40000, 80), 1'000);
  store.append(test::roceFrame(101), 2'000);
  auto cut = test::roceFrame(102);
  cut.resize(30);  // inside the IPv4 header
  store.append(cut, 3'000, 62);
  store.append(test::roceFrame(103, 16, 0x04, true), 4'000);
  return store;
}

TEST(PacketListModel, PassesTheModelTesterAndShowsTheColumns) {
  FrameStore store = mixedStore();
  PacketListModel model(&store);
  test::ModelTestWarnings warnings;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Warning);
  EXPECT_TRUE(test::ModelTestWarnings::messages().empty());
  ASSERT_EQ(model.rowCount(), 5);
  ASSERT_EQ(model.columnCount(), 7);
  EXPECT_EQ(model.headerData(0, Qt::Horizontal).toString(), "No.");
  EXPECT_EQ(model.headerData(6, Qt::Horizontal).toString(), "Info");
  EXPECT_EQ(model.index(1, PacketListModel::Number).data().toULongLong(), 2u);
  EXPECT_EQ(model.index(1, PacketListModel::Time).data().toString(), "0.000001000");
  EXPECT_EQ(model.index(0, PacketListModel::Source).data().toString(), "10.9.0.1");
  EXPECT_EQ(model.index(0, PacketListModel::Destination).data().toString(), "10.9.0.2");
  EXPECT_EQ(model.index(1, PacketListModel::Protocol).data().toString(), "TCP");
  EXPECT_EQ(model.index(3, PacketListModel::Length).data().toUInt(), 62u);
  EXPECT_FALSE(model.index(1, PacketListModel::Info).data().toString().isEmpty());
  // The truncated frame is an error row: red background and the diagnostic as tooltip.
  const QBrush bad = model.index(3, 0).data(Qt::BackgroundRole).value<QBrush>();
  EXPECT_EQ(bad.color(), QColor(0xa4, 0x00, 0x00));
  EXPECT_FALSE(model.index(3, 0).data(Qt::ToolTipRole).toString().isEmpty());
  EXPECT_NE(model.index(0, 0).data(Qt::BackgroundRole).value<QBrush>().color(), bad.color());
  EXPECT_EQ(model.index(0, 0).data(PacketListModel::CrcRole).toInt(),
            static_cast<int>(packets::CrcStatus::Good));
  // A bad ICRC: red row, and the tooltip says so.
  EXPECT_EQ(model.index(4, 0).data(PacketListModel::CrcRole).toInt(),
            static_cast<int>(packets::CrcStatus::Bad));
  EXPECT_EQ(model.index(4, 0).data(Qt::BackgroundRole).value<QBrush>().color(), bad.color());
  EXPECT_TRUE(model.index(4, 0).data(Qt::ToolTipRole).toString().contains("Bad integrity"));
  EXPECT_TRUE(test::ModelTestWarnings::messages().empty());
}

TEST(PacketListModel, FilterAndAppendKeepTheModelConsistent) {
  FrameStore store = mixedStore();
  PacketListModel model(&store);
  test::ModelTestWarnings warnings;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Warning);
  ASSERT_TRUE(
      model.applyFilter([](const packets::Dissection& d) { return d.summary.protocol != "TCP"; }));
  EXPECT_EQ(model.rowCount(), 4);
  EXPECT_EQ(model.frameAt(1), 2u);
  EXPECT_EQ(model.rowOfFrame(1), -1);
  EXPECT_EQ(model.rowOfFrame(2), 1);
  store.append(test::tcpFrame(1, 2), 4'000);
  store.append(test::roceFrame(103), 5'000);
  model.storeAppended();
  EXPECT_EQ(model.rowCount(), 5);
  EXPECT_EQ(model.frameAt(4), 6u);
  model.clearFilter();
  EXPECT_EQ(model.rowCount(), 7);
  store.append(test::roceFrame(104), 6'000);
  model.storeAppended();
  EXPECT_EQ(model.rowCount(), 8);
  // A cancelled filter changes nothing.
  EXPECT_FALSE(model.applyFilter([](const packets::Dissection&) { return false; },
                                 [](std::size_t, std::size_t) { return false; }));
  EXPECT_EQ(model.rowCount(), 8);
  EXPECT_TRUE(test::ModelTestWarnings::messages().empty());
}

// A large capture: the index stays compact and rows anywhere are served fast, decoding only
// what is shown.
TEST(PacketListModel, ScrollsALargeCaptureLazily) {
  constexpr std::size_t kFrames = 300'000;
  FrameStore store;
  const auto frame = test::roceFrame(0, 64);
  store.reserve(kFrames, kFrames * frame.size());
  for (std::size_t i = 0; i < kFrames; ++i)
    store.append(frame, static_cast<std::int64_t>(i));
  EXPECT_EQ(store.indexBytes() / kFrames, 24u);
  PacketListModel model(&store);
  EXPECT_EQ(model.rowCount(), static_cast<int>(kFrames));
  std::mt19937 rng(1);
  // Scrolling speed is measured in bench/gui_open, not asserted here: what this checks is that
  // scrolling decodes only the rows shown and the cache stays bounded.
  constexpr int kScreens = 200;
  for (int s = 0; s < kScreens; ++s) {
    const int top = static_cast<int>(rng() % (kFrames - 40));
    for (int r = top; r < top + 40; ++r)
      for (int c = 0; c < PacketListModel::ColumnCount; ++c) {
        model.index(r, c).data();
        model.index(r, c).data(Qt::BackgroundRole);
      }
  }
  EXPECT_LE(model.cache().size(), model.cache().capacity());
  EXPECT_LE(model.cache().decodes(), static_cast<std::size_t>(kScreens * 40));
}

}  // namespace
}  // namespace rdmascope::ui
