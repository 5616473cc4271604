#include "rdmascope/ui/main_window.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QMessageBox>
#include <QTest>

#include "rdmascope/ui/packet_pane.h"
#include "rdmascope/ui/scenario_controller.h"
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

namespace rdmascope::ui {
namespace {

// A capture has no events to step: the toolbar says which capture is shown instead of offering
// the stepping controls, the step keys do nothing, and running a scenario brings them back.
TEST(MainWindow, CaptureModeHidesTheStepControlsAndAScenarioBringsThemBack) {
  MainWindow w;
  w.show();
  auto* steps = w.findChild<QWidget*>(QStringLiteral("stepControls"));
  auto* mode = w.findChild<QLabel*>(QStringLiteral("modeLabel"));
  auto* box = w.findChild<QComboBox*>(QStringLiteral("scenarioBox"));
  ASSERT_TRUE(steps && mode && box);
  EXPECT_TRUE(steps->isVisible());
  EXPECT_FALSE(mode->isVisible());
  EXPECT_EQ(box->currentData().toString(), QStringLiteral("tour"));

  ASSERT_TRUE(
      w.openCapture(QStringLiteral(RDMASCOPE_SOURCE_DIR "/tests/golden/rocev2-mixed.pcap")));
  EXPECT_FALSE(steps->isVisible());
  EXPECT_TRUE(mode->isVisible());
  EXPECT_TRUE(mode->text().contains(QStringLiteral("rocev2-mixed.pcap")))
      << mode->text().toStdString();
  EXPECT_EQ(box->currentIndex(), -1);  // shows "Run a scenario..."
  for (QAction* a : w.actions())
    EXPECT_FALSE(a->isEnabled()) << a->text().toStdString();
  const std::size_t frames = w.frameStore().size();
  QTest::keyClick(&w, Qt::Key_Right);
  EXPECT_FALSE(w.scenario()->loaded());
  EXPECT_EQ(w.frameStore().size(), frames);

  // Choosing a scenario in the box runs it: the controls are back.
  box->setCurrentIndex(box->findData(QStringLiteral("tour")));
  Q_EMIT box->activated(box->currentIndex());
  EXPECT_TRUE(w.scenario()->loaded());
  EXPECT_TRUE(steps->isVisible());
  EXPECT_FALSE(mode->isVisible());
  for (QAction* a : w.actions())
    EXPECT_TRUE(a->isEnabled()) << a->text().toStdString();
  const int before = w.scenario()->current();
  QTest::keyClick(&w, Qt::Key_Right);
  EXPECT_EQ(w.scenario()->current(), before + 1);
}

}  // namespace
}  // namespace rdmascope::ui
