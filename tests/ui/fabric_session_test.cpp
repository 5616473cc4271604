// The GUI attached to a real fabric (simdev::Fabric in this process) while two spawned
// processes (fabric_test_program) attach to it with their simulated NICs and do a 64 KiB RDMA
// WRITE: the host panes show the programs, their MRs and their QPs reaching RTS, the packet list
// and the ladder get the frames, the timeline shows the verbs call before the frames it produced,
// pausing holds the frames at the switch, Step call lets one verbs call through, Step frame one
// frame, a program that leaves stays visible, greyed, and a GUI that attaches late shows the
// programs already attached and a pause already in force at once.
#include "rdmascope/ui/fabric_session.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QApplication>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <algorithm>
#include <chrono>
#include <thread>

#include "../support/scratch_folder.h"
#include "rdmascope/simdev/fabric.h"
#include "rdmascope/simdev/fabric_observer.h"
#include "rdmascope/simdev/nic.h"
#include "rdmascope/ui/fabric_host_pane.h"
#include "rdmascope/ui/fabric_models.h"
#include "rdmascope/ui/fabric_view.h"
#include "rdmascope/ui/ladder_view.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/packet_pane.h"

namespace rdmascope::ui {
namespace {

using sim::QpState;

struct RunningFabric {
  explicit RunningFabric(simdev::FabricConfig config) {
    std::string error;
    fabric = simdev::Fabric::open(config, error);
    EXPECT_TRUE(fabric) << error;
    if (fabric) thread = std::thread([this] { fabric->run([](const std::string&) {}); });
  }
  ~RunningFabric() {
    if (fabric) fabric->stop();
    if (thread.joinable()) thread.join();
  }
  std::unique_ptr<simdev::Fabric> fabric;
  std::thread thread;
};

/// Runs the event loop until `done` holds or `ms` pass; returns `done()`.
template <typename F>
bool waitFor(F done, int ms = 20000) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (!done() && std::chrono::steady_clock::now() < end) {
    QApplication::processEvents(QEventLoop::AllEvents, 20);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return done();
}

int exitStatus(pid_t pid) {
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/// The two programs (fabric_test_program), spawned; `go` starts the WRITE, `quit` lets host 1
/// leave.
struct Programs {
  explicit Programs(const std::string& socket) {
    int where[2], goPipe[2], quitPipe[2];
    EXPECT_EQ(::pipe(where), 0);
    EXPECT_EQ(::pipe(goPipe), 0);
    EXPECT_EQ(::pipe(quitPipe), 0);
    target = spawn(socket, 1, "target", where[1], quitPipe[0]);
    writer = spawn(socket, 2, "writer", where[0], goPipe[0]);
    for (int fd : {where[0], where[1], goPipe[0], quitPipe[0]})
      ::close(fd);
    go = goPipe[1];
    quit = quitPipe[1];
    ::fcntl(go, F_SETFD, FD_CLOEXEC);
    ::fcntl(quit, F_SETFD, FD_CLOEXEC);
  }
  static pid_t spawn(const std::string& socket, int host, const char* role, int a, int b) {
    std::vector<std::string> env = {std::string(simdev::kFabricEnv) + "=" + socket,
                                    std::string(simdev::kHostEnv) + "=" + std::to_string(host)};
    std::vector<std::string> args = {RDMASCOPE_FABRIC_TEST_PROGRAM, role, std::to_string(a),
                                     std::to_string(b)};
    std::vector<char*> envp, argv;
    for (auto& e : env)
      envp.push_back(e.data());
    envp.push_back(nullptr);
    for (auto& x : args)
      argv.push_back(x.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    EXPECT_EQ(::posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), envp.data()), 0);
    return pid;
  }
  void start() const { EXPECT_EQ(::write(go, "g", 1), 1); }
  void letTargetLeave() const { EXPECT_EQ(::write(quit, "q", 1), 1); }
  ~Programs() {
    ::close(go);
    ::close(quit);
    for (pid_t pid : {writer, target}) {
      if (pid <= 0) continue;
      ::kill(pid, SIGKILL);
      exitStatus(pid);
    }
  }
  int waitWriter() { return exitStatus(std::exchange(writer, -1)); }
  int waitTarget() { return exitStatus(std::exchange(target, -1)); }
  pid_t target = -1, writer = -1;
  int go = -1, quit = -1;
};

/// One fabric_test_program target alone on host `host` (it attaches and waits), killed at the
/// end of the test.
struct LoneTarget {
  LoneTarget(const std::string& socket, int host) {
    EXPECT_EQ(::pipe(where), 0);
    EXPECT_EQ(::pipe(quit), 0);
    pid = Programs::spawn(socket, host, "target", where[1], quit[0]);
  }
  ~LoneTarget() {
    if (pid > 0) {
      ::kill(pid, SIGKILL);
      exitStatus(pid);
    }
    for (int fd : {where[0], where[1], quit[0], quit[1]})
      ::close(fd);
  }
  LoneTarget(const LoneTarget&) = delete;
  LoneTarget& operator=(const LoneTarget&) = delete;
  int where[2] = {-1, -1};
  int quit[2] = {-1, -1};
  pid_t pid = -1;
};

constexpr std::size_t kBytes = 16384;  // fabric_test_program's WRITE: 16 packets of 1024 bytes

bool qpInRts(const FabricSession& s, int host) {
  const auto& h = s.hosts().at(static_cast<std::size_t>(host - 1));
  return h.hasState && !h.state.qps.empty() && h.state.qps.front().state == QpState::Rts;
}

int rowOf(const FabricTimelineModel& m, const QString& kind, const QString& startsWith,
          int from = 0) {
  for (int r = from; r < m.rowCount(); ++r)
    if (m.data(m.index(r, FabricTimelineModel::Kind)).toString() == kind &&
        m.data(m.index(r, FabricTimelineModel::What)).toString().startsWith(startsWith))
      return r;
  return -1;
}

TEST(FabricSession, ShowsTwoProgramsTheirQpsAndFramesAndKeepsAProgramThatLeft) {
  testing::ScratchFolder dir("fgui");
  simdev::FabricConfig config;
  config.socketPath = dir / "f.sock";
  RunningFabric fabric(config);
  ASSERT_TRUE(fabric.fabric);
  MainWindow window(nullptr, QString());
  window.resize(1280, 720);
  window.show();
  ASSERT_TRUE(window.attachFabric(QString::fromStdString(config.socketPath)))
      << window.lastError().toStdString();
  FabricSession* s = window.fabricSession();
  FabricView* v = window.fabricView();
  EXPECT_TRUE(v->isVisible());
  EXPECT_EQ(s->hosts().size(), 2u);
  EXPECT_FALSE(v->hostPane(1));

  Programs p(config.socketPath);
  ASSERT_TRUE(waitFor([&] { return qpInRts(*s, 1) && qpInRts(*s, 2); }));
  FabricHostPane* one = v->hostPane(1);
  FabricHostPane* two = v->hostPane(2);
  ASSERT_TRUE(one && two);
  EXPECT_TRUE(one->titleLabel()->text().contains(QStringLiteral("(pid %1)").arg(p.target)))
      << one->titleLabel()->text().toStdString();
  EXPECT_TRUE(two->titleLabel()->text().contains(QStringLiteral("(pid %1)").arg(p.writer)));
  const auto* qps = one->qpModel();
  EXPECT_EQ(qps->data(qps->index(0, 0)).toString(), "0x11");
  EXPECT_EQ(qps->data(qps->index(0, 1)).toString(), "RC");
  EXPECT_EQ(qps->data(qps->index(0, 2)).toString(), "RTS");
  EXPECT_EQ(qps->data(qps->index(0, 3)).toString(), "0x11");  // the peer's QP
  EXPECT_EQ(qps->data(qps->index(0, 4)).toString(), "0x64");  // SQ PSN 100
  ASSERT_TRUE(waitFor([&] { return one->mrModel()->rowCount() == 1; }));
  EXPECT_EQ(one->mrModel()->data(one->mrModel()->index(0, 3)).toString(),
            "LOCAL_WRITE | REMOTE_WRITE");
  EXPECT_EQ(one->pdModel()->rowCount(), 1);
  // ibv_create_cq(64) gets 127 entries: rxe rounds a queue up to 2^n - 1
  EXPECT_EQ(one->cqModel()->data(one->cqModel()->index(0, 1)).toInt(), 127);

  p.start();
  EXPECT_EQ(p.waitWriter(), 0);
  FrameStore& store = window.frameStore();
  ASSERT_TRUE(waitFor([&] { return store.size() >= kBytes / 1024 + 1; }));
  ASSERT_TRUE(waitFor([&] {
    return window.packetPane()->packetModel()->rowCount() == static_cast<int>(store.size()) &&
           v->ladder()->visibleCount() == static_cast<int>(store.size());
  }));
  EXPECT_EQ(s->frameSource(0), 2);
  EXPECT_EQ(s->frameDestination(0), 1);
  EXPECT_EQ(window.packetPane()
                ->packetModel()
                ->data(window.packetPane()->packetModel()->index(0, PacketListModel::Info))
                .toString()
                .contains(QStringLiteral("RDMA WRITE")),
            true);
  // The timeline: the post_send from host 2, then the frames it produced.
  const auto& m = *v->timelineModel();
  const int call = rowOf(m, QStringLiteral("verbs call"), QStringLiteral("ibv_post_send"));
  const int frame = rowOf(m, QStringLiteral("frame"), QStringLiteral("frame 1 to host1"));
  ASSERT_GE(call, 0);
  ASSERT_GE(frame, 0);
  EXPECT_LT(call, frame);
  // and its time is when the program made the call, not when the fabric passed it on
  EXPECT_LE(s->timeline()[static_cast<std::size_t>(call)].timeNs,
            s->timeline()[static_cast<std::size_t>(frame)].timeNs);
  EXPECT_EQ(m.data(m.index(call, FabricTimelineModel::Host)).toString(), "host2");
  EXPECT_TRUE(m.data(m.index(frame, FabricTimelineModel::What)).toString().contains("RDMA WRITE"));
  // Choosing the frame in the timeline selects it in the packet list.
  v->timelineView()->clicked(m.index(frame, 0));
  EXPECT_EQ(window.packetPane()->currentFrame(), 0);

  // Host 1's program leaves: its pane stays, greyed, with its last state.
  p.letTargetLeave();
  EXPECT_EQ(p.waitTarget(), 0);
  ASSERT_TRUE(waitFor([&] { return !s->hosts()[0].attached; }));
  EXPECT_TRUE(one->titleLabel()->text().contains(QStringLiteral("detached")));
  EXPECT_EQ(v->hostPane(1), one);
  EXPECT_EQ(qps->rowCount(), 1);
  EXPECT_EQ(qps->data(qps->index(0, 0), Qt::ForegroundRole).value<QBrush>().color(),
            QColor(0x90, 0x90, 0x90));

  // Another program attaches to host 1: the same pane shows it, no longer greyed.
  LoneTarget another(config.socketPath, 1);
  const pid_t again = another.pid;
  ASSERT_TRUE(waitFor([&] { return s->hosts()[0].attached && s->hosts()[0].pid == again; }));
  EXPECT_EQ(v->hostPane(1), one);
  EXPECT_FALSE(one->titleLabel()->text().contains(QStringLiteral("detached")));
  EXPECT_TRUE(one->titleLabel()->text().contains(QStringLiteral("(pid %1)").arg(again)));
}

TEST(FabricSession, PauseHoldsFramesAndStepsOneCallAndOneFrame) {
  testing::ScratchFolder dir("fgui");
  simdev::FabricConfig config;
  config.socketPath = dir / "f.sock";
  RunningFabric fabric(config);
  ASSERT_TRUE(fabric.fabric);
  MainWindow window(nullptr, QString());
  window.show();
  ASSERT_TRUE(window.attachFabric(QString::fromStdString(config.socketPath)));
  FabricSession* s = window.fabricSession();
  FabricView* v = window.fabricView();
  Programs p(config.socketPath);
  ASSERT_TRUE(waitFor([&] { return qpInRts(*s, 1) && qpInRts(*s, 2); }));
  ASSERT_TRUE(waitFor([&] { return v->hostPane(1)->mrModel()->rowCount() == 1; }));
  FabricHostPane* writer = v->hostPane(2);
  ASSERT_TRUE(writer);
  EXPECT_FALSE(writer->stepCallButton()->isEnabled());

  v->pauseButton()->click();
  ASSERT_TRUE(waitFor([&] { return s->paused(); }));
  EXPECT_EQ(v->pauseButton()->text(), "Resume");
  EXPECT_TRUE(writer->stepCallButton()->isEnabled());
  FrameStore& store = window.frameStore();
  const std::size_t before = store.size();

  // The writer is inside its post_send, waiting: nothing goes out.
  p.start();
  waitFor([] { return false; }, 400);
  EXPECT_EQ(store.size(), before);
  EXPECT_EQ(
      rowOf(*v->timelineModel(), QStringLiteral("verbs call"), QStringLiteral("ibv_post_send")),
      -1);

  // Step call: the post_send runs, its frames wait at the switch.
  writer->stepCallButton()->click();
  ASSERT_TRUE(waitFor([&] { return s->heldCount() >= 2; }));
  // Until the writer's frames are all out (the count stops growing).
  std::size_t held = s->heldCount();
  for (;;) {
    waitFor([] { return false; }, 300);
    if (s->heldCount() == held) break;
    held = s->heldCount();
  }
  const std::size_t first = before;
  EXPECT_TRUE(s->frameHeld(first));
  const auto& m = *v->timelineModel();
  const int call = rowOf(m, QStringLiteral("verbs call"), QStringLiteral("ibv_post_send"));
  const int heldRow = m.rowOfFrame(first);
  ASSERT_GE(call, 0);
  EXPECT_LT(call, heldRow);
  EXPECT_EQ(m.data(m.index(heldRow, FabricTimelineModel::Kind)).toString(), "frame (held)");
  EXPECT_TRUE(m.data(m.index(heldRow, FabricTimelineModel::What))
                  .toString()
                  .endsWith(QStringLiteral("[held at the switch]")));
  EXPECT_TRUE(v->heldLabel()->text().startsWith(QString::number(held)));

  // Step frame: the oldest held frame goes through, the others still wait.
  ASSERT_TRUE(v->stepFrameButton()->isEnabled());
  v->stepFrameButton()->click();
  EXPECT_EQ(s->heldCount(), held - 1);
  EXPECT_FALSE(s->frameHeld(first));
  EXPECT_TRUE(s->frameHeld(first + 1));
  EXPECT_EQ(m.data(m.index(heldRow, FabricTimelineModel::Kind)).toString(), "frame");

  // Resume: every held frame goes, the WRITE completes.
  v->pauseButton()->click();
  ASSERT_TRUE(waitFor([&] { return !s->paused(); }));
  EXPECT_EQ(s->heldCount(), 0u);
  EXPECT_EQ(v->pauseButton()->text(), "Pause");
  EXPECT_EQ(p.waitWriter(), 0);
  p.letTargetLeave();
  EXPECT_EQ(p.waitTarget(), 0);
}

TEST(FabricSession, ShowsTheProgramsAttachedAndThePauseInForceAtOnce) {
  testing::ScratchFolder dir("fgui");
  simdev::FabricConfig config;
  config.socketPath = dir / "f.sock";
  RunningFabric fabric(config);
  ASSERT_TRUE(fabric.fabric);
  // Before the GUI comes: a program attaches to host 1 and another observer pauses the fabric.
  std::string error;
  auto other = simdev::FabricObserver::connect(config.socketPath, error);
  ASSERT_TRUE(other) << error;
  LoneTarget lone(config.socketPath, 1);
  const pid_t program = lone.pid;
  std::vector<simdev::FabricEvent> seen;
  const auto saw = [&](simdev::FabricEvent::Kind kind) {
    return std::any_of(seen.begin(), seen.end(), [&](const auto& e) { return e.kind == kind; });
  };
  const auto readUntil = [&](simdev::FabricEvent::Kind kind) {
    return waitFor([&] {
      for (auto& e : other->read())
        seen.push_back(std::move(e));
      return saw(kind);
    });
  };
  ASSERT_TRUE(readUntil(simdev::FabricEvent::Kind::Attached));
  other->pause();
  ASSERT_TRUE(readUntil(simdev::FabricEvent::Kind::Paused));

  MainWindow window(nullptr, QString());
  window.show();
  ASSERT_TRUE(window.attachFabric(QString::fromStdString(config.socketPath)))
      << window.lastError().toStdString();
  // No event of the fabric needed: its welcome says it all.
  FabricSession* s = window.fabricSession();
  FabricView* v = window.fabricView();
  EXPECT_TRUE(s->paused());
  EXPECT_EQ(v->pauseButton()->text(), "Resume");
  ASSERT_EQ(s->hosts().size(), 2u);
  EXPECT_TRUE(s->hosts()[0].attached);
  EXPECT_EQ(s->hosts()[0].pid, program);
  EXPECT_FALSE(s->hosts()[1].attached);
  FabricHostPane* pane = v->hostPane(1);
  ASSERT_TRUE(pane);
  EXPECT_FALSE(v->hostPane(2));
  EXPECT_TRUE(pane->titleLabel()->text().contains(QStringLiteral("(pid %1)").arg(program)))
      << pane->titleLabel()->text().toStdString();
  EXPECT_TRUE(pane->stepCallButton()->isEnabled());
  const auto& m = *v->timelineModel();
  const int attached = rowOf(m, QStringLiteral("attached"), QString());
  ASSERT_GE(attached, 0);
  EXPECT_EQ(m.data(m.index(attached, FabricTimelineModel::Host)).toString(), "host1");
  EXPECT_TRUE(m.data(m.index(attached, FabricTimelineModel::What))
                  .toString()
                  .contains(QStringLiteral("(pid %1)").arg(program)));
  EXPECT_GT(rowOf(m, QStringLiteral("paused"), QString()), attached);

  // Resuming from the GUI ends the pause it was told of.
  v->pauseButton()->click();
  EXPECT_TRUE(waitFor([&] { return !s->paused(); }));
  EXPECT_EQ(v->pauseButton()->text(), "Pause");
}

TEST(FabricSession, NoFabricIsAOneLineError) {
  testing::ScratchFolder dir("fgui");
  MainWindow window(nullptr, QString());
  EXPECT_FALSE(window.attachFabric(QString::fromStdString(dir / "none.sock")));
  EXPECT_FALSE(window.lastError().isEmpty());
  EXPECT_FALSE(window.lastError().contains(QLatin1Char('\n')));
  EXPECT_TRUE(window.lastError().contains(QString::fromStdString(dir / "none.sock")))
      << window.lastError().toStdString();
}

TEST(FabricModels, AccessFlagsByTheirVerbsNames) {
  EXPECT_EQ(accessFlagNames(0), "none");
  EXPECT_EQ(accessFlagNames(1 | 2 | 4 | 8),
            "LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ | REMOTE_ATOMIC");
  EXPECT_EQ(accessFlagNames(1u << 20), "RELAXED_ORDERING");
  EXPECT_EQ(accessFlagNames(4 | 0x200), "REMOTE_READ | 0x200");
}

}  // namespace
}  // namespace rdmascope::ui
