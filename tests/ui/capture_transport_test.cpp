#include "rdmascope/ui/capture_transport.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFileDialog>
#include <QMessageBox>
#include <QTimer>

#include "rdmascope/ui/capture_loader.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/packet_pane.h"
#include "rdmascope/ui/transport_choice.h"
#include "test_frames.h"

namespace rdmascope::ui {
namespace {

// Each wire format the simulator writes: run a scenario on it, save its frames, open them with
// the Transport box on another format, and the box follows the capture.
TEST(CaptureTransport, TheTransportBoxFollowsAnOpenedCapture) {
  MainWindow w;
  auto* box = w.findChild<QComboBox*>(QStringLiteral("wireBox"));
  ASSERT_NE(box, nullptr);
  // The wire formats first (the items before iWARP and TCP sockets), then iWARP's transfer.
  const int wires = box->findData(kTransportIwarp);
  ASSERT_GT(wires, 0);
  for (int i = 0; i <= wires; ++i) {
    box->setCurrentIndex(i);
    const QString scenario = i < wires ? QStringLiteral("rc-write") : QStringLiteral("iwarp-write");
    ASSERT_TRUE(w.openScenario(scenario)) << w.lastError().toStdString();
    EXPECT_EQ(box->currentIndex(), i);
    const std::string path = test::writeFile("transport-" + std::to_string(i) + ".pcap", {});
    ASSERT_TRUE(w.saveFrames(QString::fromStdString(path)));
    box->setCurrentIndex((i + 1) % wires);
    ASSERT_TRUE(w.openCapture(QString::fromStdString(path))) << w.lastError().toStdString();
    EXPECT_EQ(box->currentIndex(), i) << box->itemText(i).toStdString();
  }
}

TEST(CaptureTransport, DetectsIwarpAndPicksAnIwarpItem) {
  FrameStore store;
  const auto outcome = loadCaptureFile(test::iwarpCapture("iwarp-write", 0.0, 1), store);
  ASSERT_TRUE(outcome.ok()) << outcome.error;
  EXPECT_EQ(detectCaptureTransport(store), CaptureTransport::Iwarp);
  QComboBox box;
  box.addItem(QStringLiteral("RoCEv2 (IPv4)"), 0);
  EXPECT_FALSE(selectCaptureTransport(box, CaptureTransport::Iwarp));
  box.addItem(QStringLiteral("iWARP (TCP)"), 9);
  EXPECT_TRUE(selectCaptureTransport(box, CaptureTransport::Iwarp));
  EXPECT_EQ(box.currentIndex(), 1);
  FrameStore none;
  const auto tcp = test::tcpFrame(1000, 2000);
  none.append(tcp, 0);
  EXPECT_EQ(detectCaptureTransport(none), CaptureTransport::Unknown);
  EXPECT_FALSE(selectCaptureTransport(box, CaptureTransport::Unknown));
}

TEST(CaptureTransport, TheOpenDialogListsErf) {
  MainWindow w(nullptr, QString());
  w.show();
  QStringList filters;
  QTimer::singleShot(0, &w, [&] {
    for (QWidget* top : QApplication::topLevelWidgets())
      if (auto* d = qobject_cast<QFileDialog*>(top); d && d->isVisible()) {
        filters = d->nameFilters();
        d->reject();
      }
  });
  for (QAction* a : w.findChildren<QAction*>())
    if (a->shortcut() == QKeySequence(QKeySequence::Open)) a->trigger();
  ASSERT_FALSE(filters.isEmpty());
  EXPECT_TRUE(filters.front().contains(QStringLiteral("*.erf"))) << filters.front().toStdString();
  EXPECT_TRUE(filters.front().contains(QStringLiteral("*.pcapng")));
}

}  // namespace
}  // namespace rdmascope::ui
