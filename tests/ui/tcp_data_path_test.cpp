#include "rdmascope/ui/tcp_data_path.h"

#include <gtest/gtest.h>

#include <QRegularExpression>
#include <QTextBrowser>
#include <set>

#include "rdmascope/sim/transport_scenarios.h"
#include "rdmascope/ui/comparison_view.h"
#include "rdmascope/ui/data_path_pane.h"
#include "rdmascope/ui/layer_stacks_view.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/scenario_controller.h"
#include "rdmascope/ui/transfer_follower.h"

namespace rdmascope::ui {
namespace {

// The model's own per-host counters for the same run (they also count the handshake, which
// copies nothing).
sim::TransportScenarioResult modelRun(std::uint64_t bytes) {
  sim::TransportScenarioOptions o;
  o.bytes = bytes;
  std::string error;
  auto r = sim::runTransportScenario("tcp-stream", o, error);
  EXPECT_TRUE(r.has_value()) << error;
  return *r;
}

int countKind(const TcpDataPath& p, PathKind k) {
  int n = 0;
  for (const auto& s : p.steps)
    n += s.kind == k;
  return n;
}

TEST(TcpDataPath, StepsComeFromTheTcpModelAtEachSize) {
  const std::uint64_t small = 4096, large = 8ull << 20;  // 8 MiB overflows the 4 MiB SO_SNDBUF
  const TcpDataPath a = runTcpDataPath(small);
  const TcpDataPath b = runTcpDataPath(large);
  ASSERT_TRUE(a.error.empty()) << a.error;
  ASSERT_TRUE(b.error.empty()) << b.error;
  for (const auto* p : {&a, &b}) {
    const auto model = modelRun(p->bytes);
    const auto& c = p->counts;
    EXPECT_EQ(c.bytesCopiedA, p->bytes);
    EXPECT_EQ(c.bytesCopiedB, p->bytes);
    EXPECT_EQ(c.bytesCopiedA, model.counters[0].cpuBytesCopied);
    EXPECT_EQ(c.bytesCopiedB, model.counters[1].cpuBytesCopied);
    EXPECT_EQ(c.copiesA, model.counters[0].copyOperations);
    EXPECT_EQ(c.copiesB, model.counters[1].copyOperations);
    EXPECT_EQ(c.payloadBytes, p->bytes);
    EXPECT_EQ(c.dataSegments, (p->bytes + 1459) / 1460);   // MSS 1460 at MTU 1500
    EXPECT_EQ(c.sendCalls, (p->bytes + 131071) / 131072);  // send() of at most 128 KiB
    EXPECT_GE(c.interruptsB, 1u);
    EXPECT_LE(c.interruptsB, c.dataSegments);
    EXPECT_GE(c.recvCalls, 1u);
    EXPECT_EQ(c.elapsedUs, model.elapsedUs);
    // Optional steps appear exactly when the model did that work.
    EXPECT_EQ(p->steps.size(), 9u + (c.writerSleeps > 0) + (c.interruptsA > 0));
    EXPECT_EQ(countKind(*p, PathKind::CpuCopy), 2);
    // The copy steps carry their byte counts.
    int copies = 0;
    for (const auto& s : p->steps)
      if (s.kind == PathKind::CpuCopy) {
        EXPECT_NE(s.text.find("copies " + std::to_string(p->bytes) + " bytes"), std::string::npos)
            << s.text;
        ++copies;
      }
    EXPECT_EQ(copies, 2);
  }
  EXPECT_EQ(a.counts.writerSleeps, 0u);
  EXPECT_GT(b.counts.writerSleeps, 0u);
  EXPECT_GT(b.steps.size(), a.steps.size());
  EXPECT_GT(b.counts.dataSegments, a.counts.dataSegments);
  EXPECT_GT(b.counts.interruptsB, a.counts.interruptsB);
}

TEST(TcpDataPath, FollowsTheRdmaSteps) {
  const TcpDataPath p = runTcpDataPath(65536);
  EXPECT_EQ(tcpStepForRdmaStep(p, -1), -1);
  int last = -1;
  for (int r = 0; r < 7; ++r) {
    const int t = tcpStepForRdmaStep(p, r);
    EXPECT_GE(t, last) << r;
    last = t;
  }
  EXPECT_EQ(tcpStepForRdmaStep(p, 0), 0);
  EXPECT_EQ(tcpStepForRdmaStep(p, 6), static_cast<int>(p.steps.size()) - 1);
  EXPECT_EQ(p.steps[static_cast<std::size_t>(tcpStepForRdmaStep(p, 4))].kind, PathKind::Wire);
}

// A posted send WQE's size as the simulator's trace event carries it.
std::optional<std::uint64_t> postedBytes(const sim::TraceEvent& e) {
  if (e.what != sim::Narrative::SendPosted) return std::nullopt;
  return e.args.bytes;
}

TEST(TransferFollower, ComparisonAndTcpPathFollowTheCurrentTransfer) {
  MainWindow w;
  ASSERT_TRUE(w.scenario()->loaded());
  const ScenarioRecording& rec = *w.scenario()->recording();
  EXPECT_FALSE(w.transferFollower()->transfer().has_value());
  EXPECT_TRUE(w.comparisonView()->caption().contains("No transfer yet"));
  std::set<std::uint64_t> sizes;
  std::set<sim::RdmaOp> ops;
  int checked = 0;
  for (int i = 0; i < static_cast<int>(rec.events.size()); ++i) {
    const auto bytes = postedBytes(rec.events[static_cast<std::size_t>(i)].trace);
    if (!bytes || *bytes == 0) continue;
    w.scenario()->goTo(i);
    EXPECT_EQ(w.comparisonView()->transferSize(), *bytes) << i;
    EXPECT_EQ(w.comparisonView()->model()->transferSize(), *bytes);
    const sim::WrOpcode posted =
        rec.events[static_cast<std::size_t>(i)].trace.args.wrOpcode.value_or(sim::WrOpcode::Send);
    const sim::RdmaOp op =
        posted == sim::WrOpcode::RdmaRead ? sim::RdmaOp::Read
        : posted == sim::WrOpcode::RdmaWrite || posted == sim::WrOpcode::RdmaWriteWithImm
            ? sim::RdmaOp::Write
            : sim::RdmaOp::Send;
    EXPECT_EQ(w.comparisonView()->model()->rdmaOp(), op) << sim::toString(posted);
    ops.insert(op);
    EXPECT_TRUE(w.comparisonView()->caption().contains(QStringLiteral("%1 bytes").arg(*bytes)))
        << w.comparisonView()->caption().toStdString();
    EXPECT_EQ(w.dataPathPane()->view()->tcpPathBytes(), *bytes);
    EXPECT_EQ(w.transferFollower()->tcpPath().counts.bytesCopiedA, *bytes);
    // The TCP path has started along with the RDMA path's first step (the post).
    EXPECT_EQ(w.dataPathPane()->view()->pathStep(Stack::TcpIp), 0);
    // A few events later the TCP path has moved on with the RDMA one.
    w.scenario()->goTo(i + 6);
    EXPECT_GE(w.dataPathPane()->view()->pathStep(Stack::TcpIp), 0);
    sizes.insert(*bytes);
    ++checked;
  }
  EXPECT_GE(checked, 3);
  EXPECT_GE(sizes.size(), 2u) << "the tour moves messages of different sizes";
  EXPECT_EQ(ops.size(), 3u) << "the tour sends, writes and reads";
  // The scenario's explanation stays in the pane: the TCP side follows silently.
  w.scenario()->goTo(5);
  EXPECT_TRUE(w.explanation()->toPlainText().contains(w.scenario()->explanation().left(20)));
}

}  // namespace
}  // namespace rdmascope::ui
