// Ceph's messenger stepped in the main window (ceph_recording.h): the recording holds every step
// of the simulator's run in order with its frames and the NIC's placements, the host states
// end where the run's counters do, the side channel's QP information is on the ladder, the
// Ceph lessons' answers follow from the recording, and the host panes show the chunk pool and
// the shared receive queue.
#include "rdmascope/ui/ceph_recording.h"

#include <gtest/gtest.h>

#include <QLabel>
#include <QProgressBar>

#include "rdmascope/ui/event_explanation.h"
#include "rdmascope/ui/host_state_models.h"
#include "rdmascope/ui/lesson.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/scenario_controller.h"
#include "rdmascope/ui/transport_host_pane.h"
#include "scenario_support.h"

namespace rdmascope::ui {
namespace {

using test::record;
using test::Recorded;
using CK = sim::CephStepKind;

sim::CephStackReport runOf(sim::CephStack stack) {
  sim::CephMessengerOptions o;
  std::string error;
  auto r = sim::runCephMessenger(stack, o, error);
  EXPECT_TRUE(r.has_value()) << error;
  return r.value_or(sim::CephStackReport{});
}

TEST(CephRecording, HoldsEveryStepAndFrameOfTheRunInOrder) {
  for (const auto stack : {sim::CephStack::Rdma, sim::CephStack::Posix}) {
    const bool rdma = stack == sim::CephStack::Rdma;
    const std::string id = rdma ? "ceph-messenger" : "ceph-messenger-tcp";
    SCOPED_TRACE(id);
    const Recorded r = record(id);
    const sim::CephStackReport run = runOf(stack);
    EXPECT_EQ(r.rec.transport, rdma ? RecordingTransport::CephRdma : RecordingTransport::CephPosix);
    EXPECT_EQ(r.rec.hostStates.size(), r.rec.events.size());
    EXPECT_TRUE(r.rec.problem.empty()) << r.rec.problem;
    std::vector<CK> kinds;
    std::size_t frames = 0, placed = 0;
    std::int64_t lastFrame = -1;
    for (const auto& e : r.rec.events) {
      if (e.ceph) {
        kinds.push_back(e.ceph->kind);
        EXPECT_EQ(e.host, e.ceph->host);
      } else if (e.trace.kind == sim::TraceKind::FrameSent) {
        EXPECT_EQ(e.frame, lastFrame + 1);
        lastFrame = e.frame;
        EXPECT_EQ(e.host, run.frames[static_cast<std::size_t>(e.frame)].fromHost);
        ++frames;
      } else {
        // The NIC writing a SEND's payload into the OSD's chunk, from a frame the client sent.
        EXPECT_EQ(e.trace.kind, sim::TraceKind::MemoryWritten);
        EXPECT_EQ(e.host, 1);
        ASSERT_GE(e.frame, 0);
        const auto& f = run.frames[static_cast<std::size_t>(e.frame)];
        EXPECT_EQ(f.fromHost, 0);
        EXPECT_EQ(e.trace.length, cephSendPayload(f.bytes));
        EXPECT_GT(e.trace.time.picos(), f.timePs);
        ++placed;
      }
    }
    std::vector<CK> expected;
    for (const auto& s : run.steps)
      expected.push_back(s.kind);
    EXPECT_EQ(kinds, expected);
    EXPECT_EQ(frames, run.frames.size());
    EXPECT_EQ(r.frames.size(), run.frames.size());
    if (rdma) {
      EXPECT_GE(placed, run.roceFrames / 2);
    } else {
      EXPECT_EQ(placed, 0u);
    }
  }
}

TEST(CephRecording, HostStatesEndWhereTheRunsCountersDo) {
  const sim::CephMessengerOptions o;
  {
    const Recorded r = record("ceph-messenger");
    const sim::CephStackReport run = runOf(sim::CephStack::Rdma);
    const auto& end = r.rec.hostStates.back();
    for (int h = 0; h < 2; ++h) {
      const CephHostState& c = end[static_cast<std::size_t>(h)].ceph;
      EXPECT_EQ(c.copies, run.hosts[static_cast<std::size_t>(h)].copies) << h;
      EXPECT_EQ(c.copyBytes, run.hosts[static_cast<std::size_t>(h)].copyBytes) << h;
      EXPECT_GT(c.cpuNs, 0) << h;
      EXPECT_LE(c.cpuNs, run.hosts[static_cast<std::size_t>(h)].cpuNs) << h;
      EXPECT_TRUE(c.qpReady && c.qpInfoSent && c.qpInfoReceived) << h;
      EXPECT_TRUE(c.closed) << h;
    }
    const CephHostState& client = end[0].ceph;
    const CephHostState& osd = end[1].ceph;
    // Every message copied into chunks once: 3 x 300 KiB.
    EXPECT_EQ(client.copyBytes, std::uint64_t{o.messages} * o.messageBytes);
    EXPECT_EQ(client.sends, run.sendWrs);
    EXPECT_EQ(client.sendPoolFree, client.sendPool);
    EXPECT_EQ(osd.reposted, run.chunksReposted);
    EXPECT_EQ(osd.srqPosted, o.receiveBuffers);
    EXPECT_EQ(osd.chunksHeld, 0u);
    EXPECT_EQ(osd.messagesDelivered, o.messages);
    // The data path's system calls: the eventfd's, no send() or recv().
    EXPECT_LT(osd.syscalls, 4u * o.messages * 3u);
    // On the way: chunks in use and chunks held show up.
    bool inUse = false, held = false;
    for (const auto& st : r.rec.hostStates) {
      inUse = inUse || st[0].ceph.sendPoolFree < st[0].ceph.sendPool;
      held = held || st[1].ceph.chunksHeld > 0;
    }
    EXPECT_TRUE(inUse);
    EXPECT_TRUE(held);
  }
  {
    const Recorded r = record("ceph-messenger-tcp");
    const sim::CephStackReport run = runOf(sim::CephStack::Posix);
    const auto& end = r.rec.hostStates.back();
    EXPECT_EQ(end[0].ceph.copyBytes, std::uint64_t{o.messages} * o.messageBytes);
    EXPECT_EQ(end[1].ceph.copyBytes, std::uint64_t{o.messages} * o.messageBytes);
    EXPECT_EQ(end[1].ceph.messagesDelivered, o.messages);
    for (int h = 0; h < 2; ++h) {
      EXPECT_GT(end[static_cast<std::size_t>(h)].ceph.syscalls, 0u) << h;
      EXPECT_EQ(end[static_cast<std::size_t>(h)].ceph.run.syscalls,
                run.hosts[static_cast<std::size_t>(h)].syscalls);
    }
  }
}

TEST(CephRecording, TheSideChannelsQpInformationIsOnTheLadder) {
  const Recorded r = record("ceph-messenger");
  const sim::CephStackReport run = runOf(sim::CephStack::Rdma);
  std::vector<int> senders;
  std::size_t k = 0;
  for (const auto& e : r.rec.events) {
    if (e.trace.kind != sim::TraceKind::FrameSent) continue;
    const std::string& label = r.rec.frameLabels[static_cast<std::size_t>(e.frame)];
    if (label.rfind("QP info ", 0) != 0) continue;
    senders.push_back(e.host);
    ASSERT_LT(k, run.qpInfo.size());
    EXPECT_EQ(label.substr(8, 32), run.qpInfo[k].substr(0, 32));
    ++k;
  }
  // The client's, the OSD's reply, the client's acknowledgement.
  EXPECT_EQ(senders, (std::vector<int>{0, 1, 0}));
  // Each is explained as the side channel's QP information.
  ScenarioRecording rec = r.rec;
  for (std::size_t i = 0; i < rec.events.size(); ++i) {
    if (!rec.events[i].ceph || rec.events[i].ceph->kind != CK::QpInfoSent) continue;
    const EventExplanation x = EventExplainer::explain(rec, i);
    EXPECT_TRUE(x.body.contains(QString::fromStdString(rec.events[i].ceph->text)));
    EXPECT_EQ(x.kind, EventExplainer::tr("side channel"));
  }
}

Checkpoint checkpointOf(const std::string& lesson, const std::string& scenario, CheckpointKind kind,
                        std::size_t nth) {
  const Recorded r = record(scenario);
  LessonPlan plan;
  std::string error;
  EXPECT_TRUE(planLesson(*findLesson(lesson), r.rec, r.frames, plan, error)) << error;
  std::size_t seen = 0;
  for (const auto& cp : plan.checkpoints)
    if (cp.spec->kind == kind && seen++ == nth) return cp;
  ADD_FAILURE() << "no checkpoint";
  return {};
}

TEST(CephRecording, TheLessonsAskWhoseCpuOnBothStacks) {
  const auto* rdma = findLesson("ceph");
  const auto* tcp = findLesson("ceph-tcp");
  ASSERT_NE(rdma, nullptr);
  ASSERT_NE(tcp, nullptr);
  EXPECT_TRUE(lessonAvailable(*rdma));
  EXPECT_TRUE(lessonAvailable(*tcp));
  using CpK = CheckpointKind;
  // RDMA: the client's CPU writes the QP information and copies into the chunk; the NIC
  // places the SEND into the OSD's chunk; the OSD's CPU copies it out.
  EXPECT_EQ(checkpointOf("ceph", "ceph-messenger", CpK::Cpu, 0).answer, "cpu:0");
  EXPECT_EQ(checkpointOf("ceph", "ceph-messenger", CpK::Cpu, 1).answer, "cpu:0");
  EXPECT_EQ(checkpointOf("ceph", "ceph-messenger", CpK::Cpu, 2).answer, "nic");
  EXPECT_EQ(checkpointOf("ceph", "ceph-messenger", CpK::Cpu, 3).answer, "cpu:1");
  // The first frame on the side channel after the client's write is the client's.
  EXPECT_EQ(checkpointOf("ceph", "ceph-messenger", CpK::Sender, 0).answer, "host:0");
  // The data goes as SEND First (0), the close as SEND Only (4).
  EXPECT_EQ(checkpointOf("ceph", "ceph-messenger", CpK::Opcode, 0).answer, "0");
  EXPECT_EQ(checkpointOf("ceph", "ceph-messenger", CpK::Opcode, 1).answer, "4");
  // TCP: each side's CPU copies, in its kernel.
  EXPECT_EQ(checkpointOf("ceph-tcp", "ceph-messenger-tcp", CpK::Cpu, 0).answer, "cpu:0");
  EXPECT_EQ(checkpointOf("ceph-tcp", "ceph-messenger-tcp", CpK::Cpu, 1).answer, "cpu:1");
  EXPECT_EQ(checkpointOf("ceph-tcp", "ceph-messenger-tcp", CpK::Sender, 0).answer, "host:1");
}

TEST(CephRecording, TheMainWindowStepsItWithChunkPoolAndSrqPanes) {
  MainWindow w(nullptr, QString());
  ASSERT_TRUE(w.openScenario(QStringLiteral("ceph-messenger")));
  ScenarioController* sc = w.scenario();
  const ScenarioRecording& rec = *sc->recording();
  EXPECT_EQ(rec.hostNames[0], "client");
  int copy = -1;
  for (std::size_t i = 0; i < rec.events.size() && copy < 0; ++i)
    if (rec.events[i].ceph && rec.events[i].ceph->kind == CK::CopyIntoChunk)
      copy = static_cast<int>(i);
  ASSERT_GE(copy, 0);
  sc->goTo(copy);
  EXPECT_TRUE(sc->title().startsWith(QLatin1String("client"))) << sc->title().toStdString();
  EXPECT_TRUE(sc->title().contains(EventExplainer::tr("CPU copy")));
  const auto labels = w.transportPane(1)->findChildren<QLabel*>();
  const bool srq = std::any_of(labels.begin(), labels.end(), [](QLabel* l) {
    return l->text().contains(QLatin1String("64 of 64 chunks posted"));
  });
  EXPECT_TRUE(srq);
  EXPECT_EQ(w.transportPane(1)->receiveBuffer()->value(), 64);
  sc->goTo(sc->eventCount() - 1);
  EXPECT_EQ(w.transportPane(0)->sendBuffer()->value(), 0);
  // The close's frame is explained as the zero-length SEND it is.
  int fin = -1;
  for (std::size_t i = 0; i < rec.events.size(); ++i)
    if (rec.events[i].trace.kind == sim::TraceKind::FrameSent && rec.events[i].trace.args.bytes &&
        *rec.events[i].trace.args.bytes == 0)
      fin = static_cast<int>(i);
  ASSERT_GE(fin, 0);
  EXPECT_EQ(*rec.events[static_cast<std::size_t>(fin)].trace.args.opcode, 4);
  EXPECT_TRUE(EventExplainer::explain(rec, static_cast<std::size_t>(fin))
                  .body.contains(QLatin1String("zero-length SEND")));
  // The Events tab names the messenger's steps and labels its frames.
  EventListModel* events = w.eventModel();
  EXPECT_EQ(events->index(copy, EventListModel::Kind).data().toString(),
            QStringLiteral("copy-into-chunk"));
  int frame = -1;
  for (std::size_t i = 0; i < rec.events.size() && frame < 0; ++i)
    if (rec.events[i].trace.kind == sim::TraceKind::FrameSent) frame = static_cast<int>(i);
  ASSERT_GE(frame, 0);
  EXPECT_TRUE(events->index(frame, EventListModel::Explanation)
                  .data()
                  .toString()
                  .contains(QString::fromStdString(rec.frameLabels[0])));
}

}  // namespace
}  // namespace rdmascope::ui
