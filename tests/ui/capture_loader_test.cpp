#include "rdmascope/ui/capture_loader.h"

#include <gtest/gtest.h>

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMimeData>
#include <QTest>
#include <QUrl>

#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/packet_pane.h"
#include "test_frames.h"

namespace rdmascope::ui {
namespace {

std::string bigCapture() {
  std::vector<test::Bytes> frames;
  for (std::uint32_t i = 0; i < 20000; ++i)
    frames.push_back(test::roceFrame(i, 16));
  return test::writeFile("big.pcap", test::pcapFile(frames));
}

TEST(CaptureLoader, ReadsEveryFrameAndReportsProgress) {
  FrameStore store;
  std::uint64_t lastDone = 0, lastTotal = 0;
  int calls = 0;
  const auto out =
      loadCaptureFile(bigCapture(), store, nullptr, [&](std::uint64_t d, std::uint64_t t) {
        EXPECT_GE(d, lastDone);
        lastDone = d;
        lastTotal = t;
        ++calls;
      });
  EXPECT_TRUE(out.ok()) << out.error;
  EXPECT_EQ(out.frames, 20000u);
  EXPECT_EQ(store.size(), 20000u);
  EXPECT_GT(calls, 2);
  EXPECT_EQ(lastDone, lastTotal);
  EXPECT_EQ(store.decode(19999).find("infiniband.bth.psn")->number, 19999u);
}

TEST(CaptureLoader, CancelStopsEarly) {
  FrameStore store;
  std::atomic<bool> cancel{true};
  const auto out = loadCaptureFile(bigCapture(), store, &cancel);
  EXPECT_TRUE(out.cancelled);
  EXPECT_FALSE(out.ok());
  EXPECT_LT(out.frames, 20000u);
}

TEST(MainWindow, OpensADroppedFile) {
  MainWindow w;
  w.show();
  QMimeData mime;
  mime.setUrls(
      {QUrl::fromLocalFile(QStringLiteral(RDMASCOPE_SOURCE_DIR "/tests/golden/net-mixed.pcap"))});
  QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(&w, &enter);
  EXPECT_TRUE(enter.isAccepted());
  QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(&w, &drop);
  QTest::qWait(200);
  EXPECT_TRUE(w.windowTitle().startsWith("net-mixed.pcap")) << w.windowTitle().toStdString();
  EXPECT_GT(w.packetPane()->packetModel()->rowCount(), 0);
}

}  // namespace
}  // namespace rdmascope::ui
