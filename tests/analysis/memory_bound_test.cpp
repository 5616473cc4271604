// A long capture of completed messages must leave the analyzer's retained state bounded by
// connections and messages in flight, whatever its length.
#include <gtest/gtest.h>

#include "iwarp_pair.h"
#include "rdmascope/analysis/flow_analyzer.h"
#include "roce_trace.h"

namespace rdmascope::analysis {
namespace {

using Op = packets::IbOpcode;

// Small limits, so that what stays bounded is seen to.
AnalyzerOptions boundedOptions() {
  AnalyzerOptions o;
  o.maxMessages = 100;
  o.maxAnomalies = 100;
  o.exactLatencySamples = 256;
  o.maxSeriesBuckets = 64;
  return o;
}

RetainedState runMessages(std::uint32_t count, std::size_t* peakInflight) {
  AnalyzerOptions o = boundedOptions();
  o.psnWindow = 4096;
  FlowAnalyzer a(o);
  std::uint64_t n = 0;
  double now = 0;
  *peakInflight = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    // Two-packet SENDs whose PSNs cross the 24-bit wrap, each acknowledged.
    const std::uint32_t psn = (0xfff000 + 2 * i) & 0xffffff;
    test::RoceTrace one;
    one.request(Op::RcSendFirst, psn, 256);
    one.request(Op::RcSendLast, psn + 1, 64);
    one.ack(psn + 1);
    for (const auto& f : one.frames()) {
      now += 1e-6 * static_cast<double>(1 + (n % 7));
      a.addFrame(f.bytes, packets::LinkType::Ethernet, ++n, now);
      *peakInflight = std::max(*peakInflight, a.retained().inflightMessages);
    }
  }
  a.finish();
  EXPECT_EQ(a.summary().completedMessages, count);
  EXPECT_EQ(a.summary().resentFrames, 0u);
  EXPECT_EQ(a.summary().psnGaps, 0u);
  EXPECT_EQ(a.summary().incompleteMessages, 0u);
  return a.retained();
}

TEST(MemoryBound, RetainedStateDoesNotGrowWithCaptureLength) {
  std::size_t peakShort = 0, peakLong = 0;
  const RetainedState shortRun = runMessages(2000, &peakShort);
  const RetainedState longRun = runMessages(20000, &peakLong);
  EXPECT_EQ(peakShort, 1u);
  EXPECT_EQ(peakLong, 1u);
  EXPECT_EQ(longRun.inflightMessages, 0u);
  EXPECT_EQ(longRun.connections, 1u);
  EXPECT_EQ(longRun.flows, 2u);
  EXPECT_EQ(longRun.keptMessages, 100u);
  EXPECT_EQ(longRun.keptAnomalies, 0u);
  EXPECT_LE(longRun.seriesBuckets, 2u * 64);
  EXPECT_EQ(longRun.psnWindowBits, shortRun.psnWindowBits);
  // The latency samples turned into a histogram of at most a few dozen buckets.
  EXPECT_LE(longRun.latencyEntries, 256u);
  EXPECT_LE(longRun.latencyEntries, shortRun.latencyEntries + 64);
}

// iWARP: many RDMA Writes, a batch in flight at a time, over one TCP connection.
RetainedState runIwarpWrites(int batches, std::size_t* peakInflight) {
  constexpr int kBatch = 20;
  test::IwarpPair p;
  sim::IwarpSession& session = p.session;
  const unsigned access = sim::access::kLocalWrite | sim::access::kRemoteWrite;
  const auto src = session.registerMemory(0, 1 << 16, access);
  const auto dst = session.registerMemory(1, 1 << 16, access);
  std::uint64_t id = 0;
  for (int b = 0; b < batches; ++b) {
    for (int i = 0; i < kBatch; ++i, ++id)
      session.postWrite(0, id, src, 0, 2000, dst, 0);
    p.sim.runWhile([&] { return session.completions().size() >= id; }, sim::SimTime::ms(600000));
  }
  p.sim.run();
  EXPECT_EQ(session.completions().size(), id);
  FlowAnalyzer a(boundedOptions());
  std::uint64_t n = 0;
  *peakInflight = 0;
  for (const auto& f : p.net.captureAt(0)) {
    a.addFrame(f.bytes, packets::LinkType::Ethernet, ++n, static_cast<double>(f.timePs) * 1e-12);
    *peakInflight = std::max(*peakInflight, a.retained().inflightMessages);
  }
  a.finish();
  EXPECT_EQ(a.summary().completedMessages, id);
  EXPECT_EQ(a.summary().resentFrames, 0u);
  EXPECT_EQ(a.summary().incompleteMessages, 0u);
  return a.retained();
}

TEST(MemoryBound, IwarpRetainedStateIsBoundedByMessagesInFlight) {
  std::size_t peakShort = 0, peakLong = 0;
  const RetainedState shortRun = runIwarpWrites(10, &peakShort);
  const RetainedState longRun = runIwarpWrites(100, &peakLong);
  EXPECT_LE(peakShort, 20u);
  EXPECT_LE(peakLong, 20u);
  EXPECT_GT(peakLong, 0u);
  EXPECT_EQ(longRun.inflightMessages, 0u);
  EXPECT_EQ(longRun.connections, 1u);
  EXPECT_EQ(longRun.tcpConnections, 1u);
  EXPECT_EQ(longRun.keptMessages, 100u);
  EXPECT_LE(longRun.seriesBuckets, 2u * 64);
  EXPECT_LE(longRun.latencyEntries, 256u + 64);
  EXPECT_LE(longRun.latencyEntries, shortRun.latencyEntries + 64);
}

}  // namespace
}  // namespace rdmascope::analysis
