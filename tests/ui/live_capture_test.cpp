// Live capture on the loopback interface: frames decode in the packet list as they arrive.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QElapsedTimer>
#include <QLabel>
#include <QListWidget>
#include <QTest>

#include "../support/oracle.h"
#include "rdmascope/ui/live_capture_dialog.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/packet_pane.h"
#include "rdmascope/ui/scenario_controller.h"
#include "test_frames.h"

namespace rdmascope::ui {
namespace {

void sendUdp(std::uint16_t port, const std::vector<std::uint8_t>& payload) {
  const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(port);
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::sendto(fd, payload.data(), payload.size(), 0, reinterpret_cast<sockaddr*>(&to), sizeof to);
  ::close(fd);
}

TEST(LiveCapture, ListsInterfacesAndDecodesFramesAsTheyArrive) {
  MainWindow w;
  w.show();
  LiveCaptureDialog* dialog = w.liveCaptureDialog();
  ASSERT_GT(dialog->interfaceList()->count(), 0) << dialog->lastError().toStdString();
  bool haveLo = false;
  for (int i = 0; i < dialog->interfaceList()->count(); ++i)
    haveLo |= dialog->interfaceList()->item(i)->data(Qt::UserRole).toString() == "lo";
  ASSERT_TRUE(haveLo);
  if (!dialog->start("lo", &w.frameStore())) {
    // Without CAP_NET_RAW the dialog must say so plainly.
    EXPECT_TRUE(dialog->statusLabel()->text().contains("permission"))
        << dialog->statusLabel()->text().toStdString();
    return rdmascope::testing::reportMissingOracle("live capture permission (" +
                                                   dialog->lastError().toStdString() + ")");
  }
  EXPECT_FALSE(w.scenario()->loaded());
  // A BTH inside UDP to 4791: what RoCEv2 looks like to the capture filter.
  const auto roce = test::roceFrame(0x42, 32);
  const std::vector<std::uint8_t> udpPayload(roce.begin() + 42, roce.end());
  QElapsedTimer timer;
  timer.start();
  while (w.packetPane()->packetModel()->rowCount() < 2 && timer.elapsed() < 5000) {
    sendUdp(4791, udpPayload);
    QTest::qWait(150);
  }
  dialog->stop();
  ASSERT_GE(w.packetPane()->packetModel()->rowCount(), 2);
  const auto d = w.packetPane()->packetModel()->dissection(0);
  ASSERT_NE(d->find("infiniband.bth.psn"), nullptr);
  EXPECT_EQ(d->find("infiniband.bth.psn")->number, 0x42u);
  EXPECT_TRUE(dialog->statusLabel()->text().contains("frames captured"));
}

TEST(LiveCapture, AnUnknownInterfaceIsReportedPlainly) {
  LiveCaptureDialog dialog;
  FrameStore store;
  EXPECT_FALSE(dialog.start("nosuchif0", &store));
  EXPECT_FALSE(dialog.lastError().isEmpty());
  EXPECT_TRUE(dialog.lastError().contains("nosuchif0")) << dialog.lastError().toStdString();
  EXPECT_FALSE(dialog.capturing());
}

}  // namespace
}  // namespace rdmascope::ui
