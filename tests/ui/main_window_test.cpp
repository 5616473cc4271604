#include "rdmascope/ui/main_window.h"

#include <gtest/gtest.h>

#include <QMessageBox>
#include <QTest>

#include "rdmascope/ui/packet_pane.h"
#include "test_frames.h"

namespace rdmascope::ui {
namespace {

void closeErrorBoxes(MainWindow& w) {
  for (auto* box : w.findChildren<QMessageBox*>())
    box->close();
  QCoreApplication::processEvents();
}

TEST(MainWindow, MalformedCaptureShowsAnErrorAndKeepsRunning) {
  MainWindow w;
  w.show();
  const std::string path = test::writeFile("garbage.pcap", test::Bytes(100, 0x5a));
  EXPECT_FALSE(w.openCapture(QString::fromStdString(path)));
  EXPECT_FALSE(w.lastError().isEmpty());
  EXPECT_TRUE(w.lastError().contains("garbage.pcap"));
  ASSERT_FALSE(w.findChildren<QMessageBox*>().isEmpty());
  closeErrorBoxes(w);
  EXPECT_TRUE(w.isVisible());
  EXPECT_FALSE(w.openCapture(QStringLiteral("/nonexistent/none.pcap")));
  EXPECT_TRUE(w.lastError().contains("none.pcap"));
  closeErrorBoxes(w);
}

}  // namespace
}  // namespace rdmascope::ui

namespace rdmascope::ui {
namespace {

TEST(MainWindow, OpensAGoldenCapture) {
  MainWindow w;
  w.show();
  ASSERT_TRUE(w.openCapture(QStringLiteral(RDMASCOPE_SOURCE_DIR "/tests/golden/rocev2-mixed.pcap")))
      << w.lastError().toStdString();
  EXPECT_GT(w.frameStore().size(), 0u);
  EXPECT_EQ(w.packetPane()->packetModel()->rowCount(), static_cast<int>(w.frameStore().size()));
  EXPECT_EQ(w.packetPane()->currentFrame(), 0);
  EXPECT_TRUE(w.lastError().isEmpty());
}

TEST(MainWindow, TruncatedCaptureKeepsTheFramesBeforeTheDamage) {
  auto file = test::pcapFile({test::roceFrame(1), test::roceFrame(2), test::roceFrame(3)});
  file.resize(file.size() - 20);  // cut the last record short
  const std::string path = test::writeFile("truncated.pcap", file);
  MainWindow w;
  w.show();
  EXPECT_FALSE(w.openCapture(QString::fromStdString(path)));
  EXPECT_TRUE(w.lastError().contains("truncated")) << w.lastError().toStdString();
  EXPECT_EQ(w.frameStore().size(), 2u);
  EXPECT_EQ(w.packetPane()->packetModel()->rowCount(), 2);
  closeErrorBoxes(w);
  // Still usable: a good capture opens afterwards.
  EXPECT_TRUE(w.openCapture(QStringLiteral(RDMASCOPE_SOURCE_DIR "/tests/golden/net-mixed.pcap")));
}

}  // namespace
}  // namespace rdmascope::ui
