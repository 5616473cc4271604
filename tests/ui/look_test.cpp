#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QImage>

#include "rdmascope/ui/data_path_pane.h"
#include "rdmascope/ui/layer_stacks_view.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/packet_pane.h"
#include "test_frames.h"

namespace rdmascope::ui {
namespace {

TEST(Look, CaptureAndDataPath) {
  MainWindow w;
  w.resize(1600, 1000);
  w.show();
  for (std::uint32_t i = 0; i < 30; ++i)
    w.frameStore().append(i % 5 == 4 ? test::tcpFrame(40000, 80) : test::roceFrame(100 + i, 64),
                          static_cast<std::int64_t>(i) * 1000);
  w.packetPane()->storeReset();
  w.packetPane()->selectFrame(2);
  w.packetPane()->selectField("udp.dstport");
  w.dataPathPane()->stepForward();
  w.dataPathPane()->stepForward();
  QCoreApplication::processEvents();
  const QImage img = w.grab().toImage();
  EXPECT_TRUE(img.save(QStringLiteral(RDMASCOPE_BINARY_DIR "/tests/ui/look_capture.png")));
}

}  // namespace
}  // namespace rdmascope::ui
