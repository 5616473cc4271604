// Renders the main window at a few moments for a human to look at (see screenshot_test.cpp for
// the checked screenshots).
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QImage>

#include "rdmascope/ui/data_path_pane.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/packet_pane.h"
#include "rdmascope/ui/scenario_controller.h"

namespace rdmascope::ui {
namespace {

TEST(Look, CaptureFile) {
  MainWindow w(nullptr, {});
  w.resize(1600, 1000);
  w.show();
  ASSERT_TRUE(
      w.openCapture(QStringLiteral(RDMASCOPE_SOURCE_DIR "/tests/golden/rocev2-mixed.pcap")));
  w.packetPane()->selectFrame(2);
  w.packetPane()->selectField("infiniband.bth.psn");
  w.dataPathPane()->stepForward();
  w.dataPathPane()->stepForward();
  QCoreApplication::processEvents();
  EXPECT_TRUE(
      w.grab().toImage().save(QStringLiteral(RDMASCOPE_BINARY_DIR "/tests/ui/look_capture.png")));
}

}  // namespace
}  // namespace rdmascope::ui
