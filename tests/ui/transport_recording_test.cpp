// The TCP stream, the iWARP transfers and the rdma_cm are steppable in the GUI (issue 15): the
// recordings hold every trace event with its frame, the socket buffers each step leaves, the
// iWARP connection steps in the order rdma_cm and MPA take them, and the CM's MADs as frames.
#include "rdmascope/ui/transport_recording.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QComboBox>
#include <QListWidget>
#include <QProgressBar>
#include <QStatusBar>
#include <algorithm>

#include "rdmascope/packets/decode.h"
#include "rdmascope/sim/tcp_network.h"
#include "rdmascope/sim/transport_scenarios.h"
#include "rdmascope/ui/host_pane.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/scenario_controller.h"
#include "rdmascope/ui/transport_choice.h"
#include "rdmascope/ui/transport_host_pane.h"
#include "rdmascope/ui/transport_state_model.h"
#include "scenario_support.h"

namespace rdmascope::ui {
namespace {

using N = sim::Narrative;

using test::record;
using test::Recorded;

TEST(TransportRecording, EveryBuiltInTheCliListsIsSteppable) {
  std::vector<std::string> ids;
  for (const auto& s : builtInScenarios())
    ids.push_back(s.id);
  for (const char* id : {"tour", "rc-send-recv", "ud-send", "tcp-stream", "iwarp-send-recv",
                         "iwarp-write", "iwarp-read"})
    EXPECT_NE(std::find(ids.begin(), ids.end(), id), ids.end()) << id;
  for (const auto& id : ids) {
    const Recorded r = record(id);
    EXPECT_FALSE(r.rec.events.empty()) << id;
    EXPECT_GT(r.frames.size(), 0u) << id;
  }
}

TEST(TransportRecording, TcpStreamFramesAndCountersMatchTheModel) {
  const Recorded r = record("tcp-stream");
  ASSERT_EQ(r.rec.transport, RecordingTransport::TcpSockets);
  sim::TransportScenarioOptions o;
  std::string error;
  const auto run = sim::runTransportScenario("tcp-stream", o, error);
  ASSERT_TRUE(run) << error;
  // Every frame the model sent is in the store, in sending order, and decodes as TCP.
  std::size_t sent = 0;
  for (const auto& e : r.rec.events)
    if (e.trace.kind == sim::TraceKind::FrameSent) {
      ASSERT_EQ(e.frame, static_cast<std::int64_t>(sent));
      ASSERT_TRUE(sim::parseTcpFrame(r.frames.bytes(sent))) << sent;
      ++sent;
    }
  EXPECT_EQ(sent, r.frames.size());
  EXPECT_EQ(r.frames.size(), run->frames.size());
  ASSERT_EQ(r.rec.hostStates.size(), r.rec.events.size());
  const auto& end = r.rec.hostStates.back();
  // The socket buffers at the end agree with the model's own counters.
  EXPECT_EQ(end[0].socket.copiedIn, o.bytes);
  EXPECT_EQ(end[0].socket.copiedIn, run->counters[0].cpuBytesCopied);
  EXPECT_EQ(end[1].socket.copiedOut, run->counters[1].cpuBytesCopied);
  EXPECT_EQ(end[0].socket.acked, o.bytes);
  EXPECT_EQ(end[0].socket.sendQueued, 0u);
  EXPECT_EQ(end[1].socket.recvQueued, 0u);
  EXPECT_EQ(end[1].socket.received, o.bytes);
  EXPECT_EQ(end[0].socket.sendCalls + end[0].socket.recvCalls + end[1].socket.sendCalls +
                end[1].socket.recvCalls,
            run->counters[0].syscalls + run->counters[1].syscalls);
  EXPECT_EQ(end[0].socket.copies + end[1].socket.copies,
            run->counters[0].copyOperations + run->counters[1].copyOperations);
  EXPECT_EQ(end[1].socket.interrupts, run->counters[1].interrupts);
  // The send buffer fills and drains: it holds bytes at some step, and never more than copied.
  std::uint64_t peakSend = 0, peakRecv = 0;
  for (const auto& st : r.rec.hostStates) {
    peakSend = std::max(peakSend, st[0].socket.sendQueued);
    peakRecv = std::max(peakRecv, st[1].socket.recvQueued);
    EXPECT_LE(st[0].socket.sendQueued, st[0].socket.copiedIn);
    EXPECT_LE(st[0].socket.inFlight, st[0].socket.sendQueued);
    EXPECT_LE(st[1].socket.copiedOut, st[1].socket.received);
  }
  EXPECT_GT(peakSend, 0u);
  EXPECT_GT(peakRecv, 0u);
  // Each copy is a step of its own, and the step after it shows the buffer it filled.
  const auto copy = std::find_if(r.rec.events.begin(), r.rec.events.end(), [](const auto& e) {
    return e.trace.what == N::TcpCopy && e.trace.reason == sim::Reason::CopyIntoSocketBuffer;
  });
  ASSERT_NE(copy, r.rec.events.end());
  const auto filled = std::find_if(copy, r.rec.events.end(), [](const auto& e) {
    return e.trace.what == N::TcpSocketBuffers &&
           e.trace.reason == sim::Reason::CopyIntoSocketBuffer;
  });
  ASSERT_NE(filled, r.rec.events.end());
  EXPECT_EQ(filled->trace.args.bytes, copy->trace.args.bytes);
  const auto at = static_cast<std::size_t>(filled - r.rec.events.begin());
  EXPECT_EQ(r.rec.hostStates[at][0].socket.copiedIn, copy->trace.args.bytes.value());
  // Phases: connect, transfer, close.
  EXPECT_EQ(r.rec.events.front().phase, 0u);
  EXPECT_EQ(r.rec.events.back().phase, 2u);
}

TEST(TransportRecording, IwarpStepsComeInTheOrderOfRdmaCmAndMpa) {
  for (const char* id : {"iwarp-send-recv", "iwarp-write", "iwarp-read"}) {
    const Recorded r = record(id);
    ASSERT_EQ(r.rec.transport, RecordingTransport::Iwarp) << id;
    const auto& end = r.rec.hostStates.back();
    const std::vector<N> passive{N::RdmaCmBind,         N::RdmaCmListen, N::TcpEstablished,
                                 N::MpaRequestReceived, N::RdmaCmAccept, N::MpaReplySent,
                                 N::RdmaCmEstablished};
    const std::vector<N> active{N::RdmaCmResolve,  N::RdmaCmConnect,    N::TcpEstablished,
                                N::MpaRequestSent, N::MpaReplyReceived, N::RdmaCmEstablished};
    EXPECT_EQ(end[1].iwarp.connection, passive) << id;
    EXPECT_EQ(end[0].iwarp.connection, active) << id;
    EXPECT_TRUE(end[0].iwarp.crc) << id;
    // Across hosts: listen before connect, MPA Request sent before it is received, the Reply
    // after the Request, and no DDP segment before both sides are established.
    auto first = [&](N what, int host) {
      for (std::size_t i = 0; i < r.rec.events.size(); ++i)
        if (r.rec.events[i].trace.what == what && r.rec.events[i].host == host)
          return static_cast<int>(i);
      return -1;
    };
    EXPECT_LT(first(N::RdmaCmListen, 1), first(N::RdmaCmConnect, 0)) << id;
    EXPECT_LT(first(N::MpaRequestSent, 0), first(N::MpaRequestReceived, 1)) << id;
    EXPECT_LT(first(N::MpaRequestReceived, 1), first(N::MpaReplySent, 1)) << id;
    EXPECT_LT(first(N::MpaReplySent, 1), first(N::MpaReplyReceived, 0)) << id;
    const int ddp =
        std::min(first(N::DdpSegmentSent, 0) < 0 ? INT32_MAX : first(N::DdpSegmentSent, 0),
                 first(N::DdpSegmentSent, 1) < 0 ? INT32_MAX : first(N::DdpSegmentSent, 1));
    EXPECT_GT(ddp, first(N::RdmaCmEstablished, 0)) << id;
    // Every payload byte placed, in DDP segments of at most one TCP segment each.
    const int dest = std::string(id) == "iwarp-read" ? 0 : 1;
    EXPECT_EQ(end[static_cast<std::size_t>(dest)].iwarp.bytesPlaced, 65536u) << id;
    EXPECT_GT(end[static_cast<std::size_t>(dest)].iwarp.segmentsPlaced, 40u) << id;
    EXPECT_GE(r.rec.completions.size(), 1u) << id;
    // Frames carry MPA/DDP: the ladder labels come from the stream decode.
    ASSERT_EQ(r.rec.frameLabels.size(), r.frames.size());
    EXPECT_TRUE(
        std::any_of(r.rec.frameLabels.begin(), r.rec.frameLabels.end(),
                    [](const std::string& l) { return l.find("MPA") != std::string::npos; }))
        << id;
  }
}

TEST(TransportRecording, TheCmPutsItsMadsOnTheWireAsSteps) {
  const Recorded plain = record("rc-write");
  const Recorded cm = record("rc-write", true);
  EXPECT_TRUE(cm.rec.cm);
  EXPECT_FALSE(plain.rec.cm);
  // REQ, REP, RTU, then DREQ, DREP: five UD SEND ONLY frames to QP 1 (the GSI) more.
  EXPECT_EQ(cm.frames.size(), plain.frames.size() + 5);
  std::vector<std::string> mads;
  for (const auto& e : cm.rec.events) {
    if (e.trace.kind != sim::TraceKind::FrameSent) continue;
    const std::string& why = e.trace.args.text;
    for (const char* m : {"CM REQ", "CM REP", "CM RTU", "CM DREQ", "CM DREP"})
      if (why.rfind(m, 0) == 0) mads.emplace_back(m);
  }
  EXPECT_EQ(mads, (std::vector<std::string>{"CM REQ", "CM REP", "CM RTU", "CM DREQ", "CM DREP"}));
  // A scenario the rdma_cm cannot connect says why.
  Recorded ud;
  std::string error;
  EXPECT_FALSE(
      recordScenario("ud-send", sim::WireFormat::RoceV2Ipv4, ud.rec, ud.frames, error, true));
  EXPECT_NE(error.find("rdma_cm"), std::string::npos) << error;
}

TEST(TransportRecording, StateModelAndPaneFollowTheStep) {
  const Recorded r = record("tcp-stream");
  TransportHostPane pane(QStringLiteral("host-a"));
  // A step in the middle of the transfer: the send buffer holds bytes.
  std::size_t mid = 0;
  for (std::size_t i = 0; i < r.rec.hostStates.size(); ++i)
    if (r.rec.hostStates[i][0].socket.sendQueued > 0) {
      mid = i;
      break;
    }
  ASSERT_GT(mid, 0u);
  const auto& st = r.rec.hostStates[mid][0];
  pane.setState(RecordingTransport::TcpSockets, &st, &r.rec.hostStates[mid - 1][0]);
  EXPECT_EQ(pane.sendBuffer()->value(), static_cast<int>(st.socket.sendQueued));
  EXPECT_EQ(pane.sendBuffer()->maximum(), 65536);
  TransportStateModel* m = pane.model();
  const int copied = m->rowOf(TransportStateModel::Row::CopiedIn);
  ASSERT_GE(copied, 0);
  EXPECT_EQ(m->index(copied, TransportStateModel::Value).data().toString(),
            QStringLiteral("%1 bytes").arg(st.socket.copiedIn));
  EXPECT_EQ(m->rowOf(TransportStateModel::Row::DdpPlaced), -1);

  const Recorded w = record("iwarp-write");
  const auto& end = w.rec.hostStates.back()[1];
  pane.setState(RecordingTransport::Iwarp, &end, nullptr);
  ASSERT_EQ(pane.connectionSteps()->count(), static_cast<int>(end.iwarp.connection.size()));
  EXPECT_TRUE(pane.connectionSteps()->item(0)->text().contains(QStringLiteral("rdma_bind_addr")));
  const int placed = pane.model()->rowOf(TransportStateModel::Row::DdpPlaced);
  ASSERT_GE(placed, 0);
  EXPECT_TRUE(pane.model()
                  ->index(placed, TransportStateModel::Value)
                  .data()
                  .toString()
                  .contains(QStringLiteral("65536 bytes placed")));
}

TEST(TransportRecording, TheTransportBoxRunsIwarpAndSaysWhenItMustChange) {
  MainWindow w(nullptr, QString());
  w.show();
  auto* box = w.findChild<QComboBox*>(QStringLiteral("wireBox"));
  ASSERT_NE(box, nullptr);
  ASSERT_GE(box->findData(kTransportIwarp), 0);
  // An iwarp-* scenario with RoCEv2 chosen: the box follows, with a note.
  box->setCurrentIndex(box->findData(static_cast<int>(sim::WireFormat::RoceV2Ipv4)));
  ASSERT_TRUE(w.openScenario(QStringLiteral("iwarp-write")));
  EXPECT_EQ(box->currentData().toInt(), kTransportIwarp);
  EXPECT_TRUE(w.statusBar()->currentMessage().contains(QStringLiteral("iWARP")));
  EXPECT_EQ(w.scenario()->recording()->name, "iwarp-write");
  EXPECT_TRUE(w.transportPane(0)->isVisible());
  EXPECT_FALSE(w.hostPane(0)->isVisible());
  // RoCE picked for the iWARP WRITE: its verbs counterpart runs on RoCE.
  ASSERT_TRUE(w.chooseTransport(static_cast<int>(sim::WireFormat::RoceV1)));
  EXPECT_EQ(w.scenario()->recording()->name, "rc-write");
  EXPECT_EQ(w.scenario()->recording()->wire, sim::WireFormat::RoceV1);
  EXPECT_TRUE(w.statusBar()->currentMessage().contains(QStringLiteral("rc-write")));
  EXPECT_TRUE(w.hostPane(0)->isVisible());
  EXPECT_FALSE(w.transportPane(0)->isVisible());
  // iWARP picked for a verbs scenario: its iWARP counterpart.
  ASSERT_TRUE(w.openScenario(QStringLiteral("rc-read")));
  ASSERT_TRUE(w.chooseTransport(kTransportIwarp));
  EXPECT_EQ(w.scenario()->recording()->name, "iwarp-read");
  EXPECT_FALSE(w.statusBar()->currentMessage().isEmpty());
  // TCP sockets: the tcp-stream transfer.
  ASSERT_TRUE(w.chooseTransport(kTransportTcpSockets));
  EXPECT_EQ(w.scenario()->recording()->name, "tcp-stream");
  EXPECT_EQ(w.scenario()->recording()->transport, RecordingTransport::TcpSockets);
}

TEST(TransportRecording, TheCmToggleRecordsTheCmAndFallsBackWithANote) {
  MainWindow w(nullptr, QString());
  ASSERT_TRUE(w.openScenario(QStringLiteral("rc-send-recv")));
  const std::size_t plain = w.frameStore().size();
  w.cmAction()->setChecked(true);
  ASSERT_TRUE(w.scenario()->loaded());
  EXPECT_TRUE(w.scenario()->recording()->cm);
  EXPECT_EQ(w.frameStore().size(), plain + 5);
  // ud-send cannot be connected by the rdma_cm: it runs with the exchange, and says so.
  ASSERT_TRUE(w.openScenario(QStringLiteral("ud-send")));
  EXPECT_FALSE(w.scenario()->recording()->cm);
  EXPECT_TRUE(w.statusBar()->currentMessage().contains(QStringLiteral("rdma_cm")));
  w.cmAction()->setChecked(false);
  EXPECT_FALSE(w.scenario()->connectWithCm());
}

}  // namespace
}  // namespace rdmascope::ui
