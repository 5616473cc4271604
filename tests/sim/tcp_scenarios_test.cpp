#include <gtest/gtest.h>

#include <algorithm>

#include "rdmascope/sim/narration.h"
#include "rdmascope/sim/transfer_cost.h"
#include "rdmascope/sim/transport_scenarios.h"

namespace rdmascope::sim {
namespace {

TEST(TransportScenarios, SameTransferOverTheSocketPathAndOverIwarp) {
  TransportScenarioOptions o;
  o.bytes = 256 * 1024;
  std::string error;
  for (auto name : transportScenarioNames()) {
    const auto r = runTransportScenario(name, o, error);
    ASSERT_TRUE(r) << name << ": " << error;
    EXPECT_TRUE(r->dataIntact) << name;
    EXPECT_GT(r->elapsedUs, 0) << name;
    const auto copied = r->counters[0].cpuBytesCopied + r->counters[1].cpuBytesCopied;
    const auto syscalls = r->counters[0].syscalls + r->counters[1].syscalls;
    if (name == "tcp-stream") {
      EXPECT_EQ(copied, 2 * o.bytes);  // into the send buffer, out of the receive buffer
      EXPECT_GT(syscalls, 0u);
      EXPECT_GT(r->counters[1].interrupts, 0u);
      EXPECT_TRUE(r->completions.empty());
    } else {
      EXPECT_EQ(copied, 0u) << name;
      EXPECT_EQ(syscalls, 0u) << name;
      EXPECT_EQ(r->counters[0].interrupts + r->counters[1].interrupts, 0u) << name;
      ASSERT_FALSE(r->completions.empty()) << name;
      for (const auto& c : r->completions)
        EXPECT_EQ(c.status, WcStatus::Success) << name;
    }
    // The capture on host A is in time order and every frame is a valid TCP frame.
    EXPECT_TRUE(std::is_sorted(r->frames.begin(), r->frames.end(),
                               [](const auto& a, const auto& b) { return a.timePs < b.timePs; }));
    for (const auto& f : r->frames)
      ASSERT_TRUE(parseTcpFrame(f.bytes)) << name;
  }
}

TEST(TransportScenarios, TraceTellsEveryStageOfTheSocketPath) {
  TransportScenarioOptions o;
  o.bytes = 4096;
  o.trace = true;
  std::string error;
  const auto r = runTransportScenario("tcp-stream", o, error);
  ASSERT_TRUE(r) << error;
  auto has = [&](Narrative what, Reason reason = Reason::None) {
    return std::any_of(r->trace.begin(), r->trace.end(), [&](const TraceEvent& e) {
      return e.what == what && (reason == Reason::None || e.reason == reason);
    });
  };
  const std::pair<Narrative, Reason> steps[] = {{Narrative::TcpSendCall, Reason::None},
                                                {Narrative::TcpCopy, Reason::CopyIntoSocketBuffer},
                                                {Narrative::TcpTransmitWork, Reason::None},
                                                {Narrative::TcpInterrupt, Reason::None},
                                                {Narrative::TcpReaderWoken, Reason::None},
                                                {Narrative::TcpRecvCall, Reason::None},
                                                {Narrative::TcpCopy, Reason::CopyIntoAppBuffer},
                                                {Narrative::TcpEstablished, Reason::None}};
  for (const auto& [what, reason] : steps) {
    EXPECT_TRUE(has(what, reason)) << toString(what) << " " << toString(reason);
  }
  // Every event has its sentence, made by the narration from the typed fields.
  for (const TraceEvent& e : r->trace)
    EXPECT_FALSE(describe(e).empty()) << toString(e.what);
  const auto copy = std::find_if(r->trace.begin(), r->trace.end(), [](const TraceEvent& e) {
    return e.what == Narrative::TcpCopy && e.reason == Reason::CopyIntoSocketBuffer;
  });
  ASSERT_NE(copy, r->trace.end());
  EXPECT_EQ(describe(*copy), "CPU copies " + std::to_string(copy->args.bytes.value()) +
                                 " bytes from the application buffer into the socket send buffer");
  const auto sent = std::count_if(r->trace.begin(), r->trace.end(), [](const TraceEvent& e) {
    return e.kind == TraceKind::FrameSent;
  });
  EXPECT_GE(static_cast<std::size_t>(sent), r->frames.size());
}

TEST(TransportScenarios, LossIsRepairedBelowIwarp) {
  TransportScenarioOptions o;
  o.bytes = 512 * 1024;
  o.lossRate = 0.03;
  o.markers = true;
  std::string error;
  for (auto name : {"iwarp-write", "iwarp-read", "tcp-stream"}) {
    const auto r = runTransportScenario(name, o, error);
    ASSERT_TRUE(r) << error;
    EXPECT_TRUE(r->dataIntact) << name;
    EXPECT_GT(r->framesLost, 0u) << name;
    EXPECT_GT(r->tcp[0].retransmittedSegments + r->tcp[1].retransmittedSegments, 0u) << name;
    if (std::string_view(name) != "tcp-stream") {
      EXPECT_EQ(r->completions.size(), 1u) << name;
    }
  }
}

TEST(TransportScenarios, RejectsBadOptionsWithOneLine) {
  std::string error;
  TransportScenarioOptions o;
  EXPECT_FALSE(runTransportScenario("iwarp-atomic", o, error));
  EXPECT_NE(error.find("iwarp-atomic"), std::string::npos);
  o.bytes = 0;
  EXPECT_FALSE(runTransportScenario("tcp-stream", o, error));
  EXPECT_NE(error.find("size"), std::string::npos);
  o.bytes = 10;
  o.lossRate = 0.9;
  EXPECT_FALSE(runTransportScenario("tcp-stream", o, error));
  EXPECT_NE(error.find("loss"), std::string::npos);
}

}  // namespace
}  // namespace rdmascope::sim
