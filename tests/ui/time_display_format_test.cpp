#include "rdmascope/ui/time_display_format.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QMenu>
#include <QTableView>

#include "rdmascope/ui/frame_store.h"
#include "rdmascope/ui/packet_pane.h"
#include "test_frames.h"

namespace rdmascope::ui {
namespace {

// 2024-03-01 12:34:56.000000123 UTC and 1.5 ms and 2 ms later.
constexpr std::int64_t kT0 = 1709296496'000000123;

TEST(TimeDisplayFormat, FormatsEachChoice) {
  EXPECT_EQ(formatFrameTime(kT0 + 1'500'000, kT0, kT0, TimeFormat::SinceCaptureStart),
            QStringLiteral("0.001500000"));
  EXPECT_EQ(
      formatFrameTime(kT0 + 2'000'000, kT0, kT0 + 1'500'000, TimeFormat::SincePreviousDisplayed),
      QStringLiteral("0.000500000"));
  EXPECT_EQ(formatFrameTime(kT0, kT0, kT0, TimeFormat::UtcDateTime),
            QStringLiteral("2024-03-01 12:34:56.000000123"));
  const QString local = formatFrameTime(kT0, kT0, kT0, TimeFormat::TimeOfDay);
  EXPECT_TRUE(local.endsWith(QStringLiteral(":56.000000123"))) << local.toStdString();
  EXPECT_EQ(local.size(), widestFrameTime(TimeFormat::TimeOfDay).size());
}

TEST(TimeDisplayFormat, TheMenuSwitchesThePacketListTimeColumn) {
  FrameStore store;
  for (int i = 0; i < 3; ++i) {
    const auto f = test::roceFrame(static_cast<std::uint32_t>(i));
    store.append(f, kT0 + i * 1'500'000, static_cast<std::uint32_t>(f.size()));
  }
  PacketPane pane(&store);
  pane.storeReset();
  QMenu view;
  QMenu* menu = addTimeDisplayFormatMenu(view, pane);
  auto text = [&](int row) {
    return pane.packetModel()->index(row, PacketListModel::Time).data().toString();
  };
  EXPECT_EQ(text(2), QStringLiteral("0.003000000"));
  for (QAction* a : menu->actions())
    if (a->objectName() == QLatin1String("timeSincePrevious")) a->trigger();
  EXPECT_EQ(text(0), QStringLiteral("0.000000000"));
  EXPECT_EQ(text(2), QStringLiteral("0.001500000"));
  // Since the previous *displayed* packet: with frame 2 hidden, frame 3 follows frame 1.
  pane.filterBar()->setText(QStringLiteral("infiniband.bth.psn != 1"));
  pane.filterBar()->apply();
  ASSERT_EQ(pane.packetModel()->rowCount(), 2);
  EXPECT_EQ(text(1), QStringLiteral("0.003000000"));
  for (QAction* a : menu->actions())
    if (a->objectName() == QLatin1String("timeUtc")) a->trigger();
  EXPECT_EQ(text(0), QStringLiteral("2024-03-01 12:34:56.000000123"));
  EXPECT_GE(pane.packetList()->columnWidth(PacketListModel::Time),
            pane.packetList()->fontMetrics().horizontalAdvance(text(0)));
}

}  // namespace
}  // namespace rdmascope::ui
