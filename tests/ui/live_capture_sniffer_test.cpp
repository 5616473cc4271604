// The GUI's live capture on an RDMA device: run by run_gui_sniffer_test.sh as a sniffer of a
// simulated host (`rdmascope-cli exec --sniff`) while ibv_rc_pingpong runs on the fabric; the
// dialog lists rdmascope0 as an RDMA device, captures the port's frames through the sniffer flow
// into the packet list, and its status shows the device's drop count and the timestamp source.
// Skipped outside that driver (no simulated device to sniff).
#include <gtest/gtest.h>

#include <QElapsedTimer>
#include <QLabel>
#include <QListWidget>
#include <QTest>
#include <cstdlib>

#include "rdmascope/ui/live_capture_dialog.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/packet_pane.h"

namespace rdmascope::ui {
namespace {

TEST(LiveCaptureSniffer, CapturesASimulatedPortThroughTheSnifferFlow) {
  const char* sniff = std::getenv("RDMASCOPE_SNIFF");
  if (!sniff || std::string(sniff) != "1") GTEST_SKIP() << "run by run_gui_sniffer_test.sh";
  MainWindow w;
  w.show();
  LiveCaptureDialog* dialog = w.liveCaptureDialog();
  int row = -1;
  for (int i = 0; i < dialog->interfaceList()->count(); ++i) {
    if (dialog->interfaceList()->item(i)->data(Qt::UserRole).toString() == "rdmascope0") row = i;
  }
  ASSERT_GE(row, 0) << "rdmascope0 is not listed";
  EXPECT_TRUE(dialog->interfaceList()->item(row)->text().contains("RDMA device"))
      << dialog->interfaceList()->item(row)->text().toStdString();
  ASSERT_TRUE(dialog->start("rdmascope0", &w.frameStore())) << dialog->lastError().toStdString();
  // The driver starts the pingpong once it sees this line.
  std::fprintf(stderr, "GUI capture started\n");
  QElapsedTimer timer;
  timer.start();
  while (w.packetPane()->packetModel()->rowCount() < 20 && timer.elapsed() < 60000)
    QTest::qWait(100);
  EXPECT_TRUE(dialog->statusLabel()->text().contains("dropped by the device"))
      << dialog->statusLabel()->text().toStdString();
  dialog->stop();
  ASSERT_GE(w.packetPane()->packetModel()->rowCount(), 20);
  const auto d = w.packetPane()->packetModel()->dissection(0);
  EXPECT_NE(d->find("infiniband.bth.opcode"), nullptr);
  const QString status = dialog->statusLabel()->text();
  EXPECT_TRUE(status.contains("frames captured, 0 dropped by the device")) << status.toStdString();
  EXPECT_TRUE(status.contains("hardware timestamps")) << status.toStdString();
}

}  // namespace
}  // namespace rdmascope::ui
