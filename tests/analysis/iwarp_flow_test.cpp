// iWARP flow analysis on simulated captures (sim/transport_scenarios.h, sim/iwarp_session.h):
// the clean runs give their messages and nothing else; faults put into the capture (a copy,
// two frames swapped, a corrupted FPDU, a refused MPA Reply, a cut-short capture) and faults
// the simulated RNIC answers (a Write to an unknown STag: Terminate) are found exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "iwarp_pair.h"
#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/sim/transport_scenarios.h"

namespace rdmascope::analysis {
namespace {

using Frames = std::vector<sim::TcpCapturedFrame>;

Frames runScenario(const std::string& name, sim::TransportScenarioOptions o = {}) {
  std::string error;
  auto r = sim::runTransportScenario(name, o, error);
  EXPECT_TRUE(r) << error;
  if (!r) return {};
  EXPECT_TRUE(r->dataIntact);
  return r->frames;
}

AnalysisReport analyze(const Frames& frames) {
  FlowAnalyzer a;
  std::uint64_t n = 0;
  for (const auto& f : frames)
    a.addFrame(f.bytes, packets::LinkType::Ethernet, ++n, static_cast<double>(f.timePs) * 1e-12);
  a.finish();
  return a.report();
}

std::map<AnomalyKind, int> kinds(const AnalysisReport& r) {
  std::map<AnomalyKind, int> out;
  for (const auto& a : r.anomalies)
    ++out[a.kind];
  return out;
}

std::string listing(const AnalysisReport& r) {
  std::string s;
  for (const auto& a : r.anomalies)
    s += "frame " + std::to_string(a.frame) + " " + std::string(toString(a.kind)) + ": " +
         a.detail + "\n";
  return s;
}

// Offsets in the simulator's Ethernet/IPv4/TCP frames (no IP or TCP options).
constexpr std::size_t kTcpAt = 14 + 20;
std::size_t payloadAt(const std::vector<std::uint8_t>& f) {
  return kTcpAt + (f[kTcpAt + 12] >> 4) * 4u;
}
bool carriesData(const sim::TcpCapturedFrame& f) {
  return f.bytes.size() > payloadAt(f.bytes);
}

// The index of the n-th frame from `host` that carries data after the MPA exchange.
std::size_t nthFpduFrame(const Frames& frames, int host, int n) {
  int seen = 0;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    if (frames[i].fromHost != host || !carriesData(frames[i])) continue;
    if (seen++ == n + 1) return i;  // the first data frame of each side is its MPA frame
  }
  ADD_FAILURE() << "no FPDU " << n << " from host " << host;
  return 0;
}

TEST(IwarpFlow, CleanRunsHaveTheirMessagesAndNoAnomalies) {
  struct Case {
    std::string scenario;
    MessageKind kind;
    int direction;
  };
  for (const Case& c :
       {Case{"iwarp-send-recv", MessageKind::Send, 0}, Case{"iwarp-write", MessageKind::Write, 0},
        Case{"iwarp-read", MessageKind::Read, 0}}) {
    SCOPED_TRACE(c.scenario);
    sim::TransportScenarioOptions o;
    o.bytes = 20000;
    const Frames frames = runScenario(c.scenario, o);
    const AnalysisReport r = analyze(frames);
    EXPECT_TRUE(r.anomalies.empty()) << listing(r);
    ASSERT_EQ(r.connections.size(), 1u);
    const ConnectionReport& conn = r.connections[0];
    EXPECT_EQ(conn.carrier, Carrier::Iwarp);
    EXPECT_EQ(conn.transport, "TCP");
    EXPECT_EQ(conn.frames, frames.size());
    ASSERT_TRUE(conn.mpa);
    EXPECT_TRUE(conn.mpa->requestSeen);
    EXPECT_TRUE(conn.mpa->replySeen);
    EXPECT_TRUE(conn.mpa->crcInUse());
    EXPECT_FALSE(conn.mpa->rejected);
    EXPECT_FALSE(conn.mpa->requestMarkers);
    EXPECT_TRUE(conn.a.port && conn.b.port);
    EXPECT_EQ(r.summary.connections, 1u);
    EXPECT_EQ(r.summary.iwarpFrames, frames.size());
    EXPECT_EQ(r.summary.messages, 1u);
    EXPECT_EQ(r.summary.completedMessages, 1u);
    EXPECT_EQ(r.summary.resentFrames, 0u);
    EXPECT_EQ(r.summary.crcFailures, 0u);
    ASSERT_EQ(r.messages.size(), 1u);
    const MessageRecord& m = r.messages[0];
    EXPECT_EQ(m.kind, c.kind);
    EXPECT_EQ(m.direction, c.direction);
    EXPECT_EQ(m.outcome, Outcome::Completed);
    EXPECT_EQ(m.bytes, 20000u);
    EXPECT_GT(m.latency(), 0.0);
    EXPECT_GT(m.endFrame, m.lastRequestFrame);
    EXPECT_EQ(conn.dir[0].latency.count(), 1u);
    EXPECT_EQ(conn.dir[0].payloadBytes, 20000u);
  }
}

TEST(IwarpFlow, MarkersNegotiatedAreReportedAndTheStreamStillDecodes) {
  sim::TransportScenarioOptions o;
  o.bytes = 5000;
  o.markers = true;
  const AnalysisReport r = analyze(runScenario("iwarp-write", o));
  ASSERT_EQ(r.connections.size(), 1u);
  ASSERT_TRUE(r.connections[0].mpa);
  EXPECT_TRUE(r.connections[0].mpa->requestMarkers);
  EXPECT_TRUE(r.connections[0].mpa->replyMarkers);
  EXPECT_EQ(r.summary.completedMessages, 1u);
  EXPECT_TRUE(r.anomalies.empty()) << listing(r);
}

TEST(IwarpFlow, ACopiedSegmentIsExactlyOneDuplicate) {
  Frames frames = runScenario("iwarp-write");
  const std::size_t i = nthFpduFrame(frames, 0, 3);
  sim::TcpCapturedFrame copy = frames[i];
  copy.timePs += 1000000;  // 1 us later
  frames.insert(frames.begin() + static_cast<std::ptrdiff_t>(i) + 1, copy);
  const AnalysisReport r = analyze(frames);
  ASSERT_EQ(r.anomalies.size(), 1u) << listing(r);
  EXPECT_EQ(r.anomalies[0].kind, AnomalyKind::Duplicate);
  EXPECT_EQ(r.anomalies[0].frame, i + 2);
  EXPECT_EQ(r.anomalies[0].relatedFrame, i + 1);
  EXPECT_EQ(r.summary.duplicates, 1u);
  EXPECT_EQ(r.summary.resentFrames, 1u);
  EXPECT_EQ(r.summary.completedMessages, 1u);
}

TEST(IwarpFlow, TwoSwappedSegmentsAreAGapAndAnOutOfOrderSegment) {
  Frames frames = runScenario("iwarp-write");
  const std::size_t i = nthFpduFrame(frames, 0, 2);
  ASSERT_EQ(frames[i + 1].fromHost, 0);
  ASSERT_TRUE(carriesData(frames[i + 1]));
  std::swap(frames[i].bytes, frames[i + 1].bytes);
  const AnalysisReport r = analyze(frames);
  ASSERT_EQ(r.anomalies.size(), 2u) << listing(r);
  EXPECT_EQ(r.anomalies[0].kind, AnomalyKind::SegmentGap);
  EXPECT_EQ(r.anomalies[0].frame, i + 1);
  EXPECT_EQ(r.anomalies[1].kind, AnomalyKind::OutOfOrder);
  EXPECT_EQ(r.anomalies[1].frame, i + 2);
  EXPECT_EQ(r.summary.segmentGaps, 1u);
  EXPECT_EQ(r.summary.outOfOrderSegments, 1u);
  EXPECT_EQ(r.summary.resentFrames, 0u);
  EXPECT_EQ(r.summary.completedMessages, 1u);
}

TEST(IwarpFlow, ACorruptedFpduIsOneCrcFailure) {
  Frames frames = runScenario("iwarp-write");
  const std::size_t i = nthFpduFrame(frames, 0, 1);
  auto& b = frames[i].bytes;
  b[payloadAt(b) + 40] ^= 0x5a;  // inside the payload, after the DDP header
  const AnalysisReport r = analyze(frames);
  ASSERT_EQ(r.anomalies.size(), 1u) << listing(r);
  EXPECT_EQ(r.anomalies[0].kind, AnomalyKind::CrcFailure);
  EXPECT_EQ(r.anomalies[0].frame, i + 1);
  EXPECT_EQ(r.summary.crcFailures, 1u);
  EXPECT_EQ(r.connections.at(0).dir[0].crcFailures, 1u);
}

TEST(IwarpFlow, ARefusedMpaReplyIsOneRejectAndNoMessages) {
  Frames frames = runScenario("iwarp-write");
  // The responder's first data frame is its MPA Reply: set Rej (flags byte 16 of the frame).
  const auto it = std::find_if(frames.begin(), frames.end(),
                               [](const auto& f) { return f.fromHost == 1 && carriesData(f); });
  ASSERT_NE(it, frames.end());
  it->bytes[payloadAt(it->bytes) + 16] |= 0x20;
  const AnalysisReport r = analyze(frames);
  ASSERT_EQ(r.anomalies.size(), 1u) << listing(r);
  EXPECT_EQ(r.anomalies[0].kind, AnomalyKind::MpaReject);
  EXPECT_EQ(r.anomalies[0].frame, static_cast<std::uint64_t>(it - frames.begin()) + 1);
  EXPECT_EQ(r.summary.mpaRejects, 1u);
  EXPECT_EQ(r.summary.messages, 0u);
  ASSERT_TRUE(r.connections.at(0).mpa);
  EXPECT_TRUE(r.connections[0].mpa->rejected);
}

TEST(IwarpFlow, ACaptureCutBeforeTheAckLeavesTheWriteIncomplete) {
  Frames frames = runScenario("iwarp-write");
  // Keep everything up to the Write's last FPDU: the ACK covering it is cut off.
  std::size_t last = 0;
  for (std::size_t i = 0; i < frames.size(); ++i)
    if (frames[i].fromHost == 0 && carriesData(frames[i])) last = i;
  frames.resize(last + 1);
  const AnalysisReport r = analyze(frames);
  ASSERT_EQ(r.anomalies.size(), 1u) << listing(r);
  EXPECT_EQ(r.anomalies[0].kind, AnomalyKind::IncompleteMessage);
  EXPECT_EQ(r.summary.incompleteMessages, 1u);
  ASSERT_EQ(r.messages.size(), 1u);
  EXPECT_EQ(r.messages[0].outcome, Outcome::Incomplete);
  EXPECT_EQ(r.messages[0].bytes, 65536u);
}

TEST(IwarpFlow, AWriteToAnUnknownStagIsTerminatedAndFails) {
  test::IwarpPair p;
  sim::IwarpSession& session = p.session;
  const unsigned access = sim::access::kLocalWrite | sim::access::kRemoteWrite;
  const auto src = session.registerMemory(0, 4096, access);
  session.postWrite(0, 7, src, 0, 4096, 0xdead00, 0);
  p.sim.run();
  ASSERT_FALSE(session.terminates().empty());
  EXPECT_EQ(session.terminates()[0].fromHost, 1);
  const AnalysisReport r = analyze(p.net.captureAt(0));
  EXPECT_EQ(r.summary.terminates, 1u);
  EXPECT_EQ(r.summary.failedMessages, 1u);
  const auto k = kinds(r);
  EXPECT_EQ(k.size(), 1u) << listing(r);
  ASSERT_EQ(k.count(AnomalyKind::Terminate), 1u);
  const auto t = std::find_if(r.anomalies.begin(), r.anomalies.end(),
                              [](const Anomaly& a) { return a.kind == AnomalyKind::Terminate; });
  EXPECT_EQ(t->direction, 1);
  EXPECT_NE(t->detail.find("Terminate ("), std::string::npos) << t->detail;
  ASSERT_EQ(r.messages.size(), 1u);
  EXPECT_EQ(r.messages[0].kind, MessageKind::Write);
  EXPECT_EQ(r.messages[0].outcome, Outcome::Failed);
  EXPECT_EQ(r.messages[0].stag, 0xdead00u);
  EXPECT_EQ(t->relatedFrame, r.messages[0].firstFrame);
}

TEST(IwarpFlow, LossyRunsResendWhatTheSimulatedTcpResent) {
  std::uint64_t total = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    sim::TransportScenarioOptions o;
    o.seed = seed;
    o.lossRate = 0.05;
    std::string error;
    const auto run = sim::runTransportScenario("iwarp-write", o, error);
    ASSERT_TRUE(run) << error;
    ASSERT_TRUE(run->dataIntact);
    const AnalysisReport r = analyze(run->frames);
    ASSERT_EQ(r.connections.size(), 1u);
    // Host A's segments are captured as sent: every retransmission it made is in the file
    // (its TCP counts data segments; a SYN sent again is one more).
    const auto syns = std::count_if(run->frames.begin(), run->frames.end(), [](const auto& f) {
      return f.fromHost == 0 && (f.bytes[kTcpAt + 13] & 0x12) == 0x02;
    });
    EXPECT_EQ(r.connections[0].dir[0].resentFrames,
              run->tcp[0].retransmittedSegments + static_cast<std::uint64_t>(syns - 1));
    EXPECT_EQ(r.summary.completedMessages, 1u);
    EXPECT_EQ(r.summary.incompleteMessages, 0u);
    EXPECT_EQ(r.summary.crcFailures, 0u);
    total += run->tcp[0].retransmittedSegments;
  }
  EXPECT_GT(total, 0u);
}

}  // namespace
}  // namespace rdmascope::analysis
