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
