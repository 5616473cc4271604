// Screenshots of iWARP, TCP, CM, UD and Ceph messenger scenarios at 1280x720 and 1600x1000, in
// English and Chinese (issue 15): each is written to the build folder and checked for what it
// must show whole: the right host panes (socket buffers for TCP, rdma_cm/MPA steps for iWARP,
// QPs for verbs, chunk pool, SRQ and counters for Ceph), the ladder with frames, the current
// event's title, and every lower tab.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QImage>
#include <QListWidget>
#include <QProgressBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <set>

#include "rdmascope/ui/event_explanation.h"
#include "rdmascope/ui/host_pane.h"
#include "rdmascope/ui/ladder_view.h"
#include "rdmascope/ui/language.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/scenario_controller.h"
#include "rdmascope/ui/transport_host_pane.h"

namespace rdmascope::ui {
namespace {

struct Shot {
  const char* scenario;
  bool cm;
  QSize size;
  const char* language;
};

std::string nameOf(const Shot& s) {
  std::string n = std::string(s.scenario) + (s.cm ? "_cm" : "") + "_" +
                  std::to_string(s.size.width()) + "x" + std::to_string(s.size.height()) + "_" +
                  (std::string(s.language) == "en" ? "en" : "zh");
  for (char& c : n)
    if (c == '-') c = '_';
  return n;
}

// The widget lies whole inside the window and has room.
void expectWhole(QWidget* w, QWidget* window, const char* what) {
  ASSERT_NE(w, nullptr) << what;
  EXPECT_TRUE(w->isVisible()) << what;
  const QRect r(w->mapTo(window, QPoint(0, 0)), w->size());
  EXPECT_TRUE(window->rect().contains(r)) << what;
  EXPECT_GT(r.width(), 80) << what;
  EXPECT_GT(r.height(), 8) << what;
}

// The event a student would stop at: a DDP placement, a socket-buffer change in the middle of
// the transfer, the CM's REP, the UD SEND.
int eventToShow(const ScenarioRecording& rec, const Shot& s) {
  for (std::size_t i = 0; i < rec.events.size(); ++i) {
    const auto& e = rec.events[i].trace;
    const std::string sc = s.scenario;
    if (sc == "tcp-stream" && rec.hostStates[i][0].socket.sendQueued > 0 &&
        rec.hostStates[i][1].socket.recvQueued > 0)
      return static_cast<int>(i);
    if (sc.rfind("iwarp", 0) == 0 && e.what == sim::Narrative::DdpSegmentPlaced)
      return static_cast<int>(i);
    if (s.cm && e.kind == sim::TraceKind::FrameSent && e.args.text.rfind("CM REP", 0) == 0)
      return static_cast<int>(i);
    if (!s.cm && sc == "ud-send" && e.kind == sim::TraceKind::FrameSent) return static_cast<int>(i);
    // Ceph: the OSD's first copy out of a chunk (RDMA) or of the socket (TCP).
    const auto* c = rec.events[i].ceph ? &*rec.events[i].ceph : nullptr;
    if (c && c->host == 1 &&
        (c->kind == sim::CephStepKind::CopyOut || c->kind == sim::CephStepKind::SocketCopyOut))
      return static_cast<int>(i);
  }
  return -1;
}

class TransportScreenshot : public ::testing::TestWithParam<Shot> {
 protected:
  void TearDown() override { installLanguage(QStringLiteral("en")); }
};

TEST_P(TransportScreenshot, ShowsTheRightPanesWhole) {
  const Shot s = GetParam();
  ASSERT_TRUE(installLanguage(QString::fromLatin1(s.language)));
  MainWindow w(nullptr, QString());
  w.resize(s.size);
  w.show();
  if (s.cm) w.cmAction()->setChecked(true);
  ASSERT_TRUE(w.openScenario(QString::fromLatin1(s.scenario)));
  const ScenarioRecording& rec = *w.scenario()->recording();
  const int at = eventToShow(rec, s);
  ASSERT_GE(at, 0);
  w.scenario()->goTo(at);
  QApplication::processEvents();
  ASSERT_EQ(w.size(), s.size);

  const QImage img = w.grab().toImage().convertToFormat(QImage::Format_RGB32);
  const QString path = QStringLiteral(RDMASCOPE_BINARY_DIR "/tests/ui/shot_%1.png")
                           .arg(QString::fromStdString(nameOf(s)));
  EXPECT_TRUE(img.save(path)) << path.toStdString();
  std::set<QRgb> colours;
  for (int y = 0; y < img.height(); y += 3)
    for (int x = 0; x < img.width(); x += 3)
      colours.insert(img.pixel(x, y));
  EXPECT_GT(colours.size(), 40u) << "blank";

  const bool transport = rec.transport != RecordingTransport::Verbs;
  for (int h = 0; h < 2; ++h) {
    EXPECT_EQ(w.transportPane(h)->isVisible(), transport) << h;
    EXPECT_EQ(w.hostPane(h)->isVisible(), !transport) << h;
  }
  if (rec.transport == RecordingTransport::TcpSockets) {
    for (int h = 0; h < 2; ++h) {
      expectWhole(w.transportPane(h)->sendBuffer(), &w, "send buffer");
      expectWhole(w.transportPane(h)->receiveBuffer(), &w, "receive buffer");
    }
    EXPECT_GT(w.transportPane(0)->sendBuffer()->value(), 0);
    EXPECT_GT(w.transportPane(1)->receiveBuffer()->value(), 0);
  } else if (rec.transport == RecordingTransport::Iwarp) {
    for (int h = 0; h < 2; ++h) {
      QListWidget* steps = w.transportPane(h)->connectionSteps();
      expectWhole(steps, &w, "connection steps");
      EXPECT_GE(steps->count(), 6) << h;
      EXPECT_GE(steps->viewport()->height(), steps->sizeHintForRow(0) * 3) << h;
    }
  } else if (isCeph(rec.transport)) {
    const bool rdma = rec.transport == RecordingTransport::CephRdma;
    for (int h = 0; h < 2; ++h) {
      TransportHostPane* pane = w.transportPane(h);
      EXPECT_EQ(pane->sendBuffer()->isVisible(), rdma) << h;
      EXPECT_EQ(pane->receiveBuffer()->isVisible(), rdma) << h;
      if (rdma) {
        expectWhole(pane->sendBuffer(), &w, "send pool");
        expectWhole(pane->receiveBuffer(), &w, "shared receive queue");
        EXPECT_EQ(pane->receiveBuffer()->maximum(), 64) << h;
      }
      // Every counter row of the table shows whole: copies, system calls, CPU time.
      auto* table = pane->findChild<QTableView*>(QStringLiteral("transportState"));
      expectWhole(table, &w, "counters");
      const int last = table->model()->rowCount() - 1;
      ASSERT_GE(last, 3);
      EXPECT_LE(table->rowViewportPosition(last) + table->rowHeight(last),
                table->viewport()->height())
          << "counter rows cut on host " << h;
    }
    // The OSD is copying out: on the RDMA stack its SRQ lacks the chunk being copied.
    if (rdma) {
      EXPECT_GT(rec.hostStates[static_cast<std::size_t>(at)][1].ceph.chunksHeld, 0u);
    }
  } else {
    EXPECT_EQ(rec.cm, s.cm);
  }
  expectWhole(w.ladder(), &w, "ladder");
  EXPECT_GT(w.scenario()->framesShown(), 0u);
  // The explanation names the current event's kind and host.
  const EventExplanation x = EventExplainer::explain(rec, static_cast<std::size_t>(at));
  EXPECT_TRUE(w.explanation()->toPlainText().contains(x.kind)) << x.title.toStdString();
  expectWhole(w.explanation(), &w, "explanation");
  // Every lower tab whole.
  QTabBar* tabs = w.lowerTabs()->tabBar();
  for (int i = 0; i < tabs->count(); ++i)
    EXPECT_TRUE(tabs->rect().contains(tabs->tabRect(i))) << tabs->tabText(i).toStdString();
}

std::vector<Shot> shots() {
  std::vector<Shot> v;
  const struct {
    const char* id;
    bool cm;
  } scenarios[] = {{"iwarp-write", false},    {"tcp-stream", false},
                   {"rc-write", true},        {"ud-send", false},
                   {"ceph-messenger", false}, {"ceph-messenger-tcp", false}};
  for (const auto& sc : scenarios)
    for (QSize size : {QSize(1280, 720), QSize(1600, 1000)})
      for (const char* lang : {"en", "zh_CN"})
        v.push_back({sc.id, sc.cm, size, lang});
  return v;
}

INSTANTIATE_TEST_SUITE_P(Scenarios, TransportScreenshot, ::testing::ValuesIn(shots()),
                         [](const ::testing::TestParamInfo<Shot>& p) { return nameOf(p.param); });

}  // namespace
}  // namespace rdmascope::ui
