// tshark as the oracle of the iWARP analysis's TCP findings: on lossy simulated iWARP runs
// written as pcap, the frames the analysis calls resent (retransmissions and copies) are
// exactly those tshark flags tcp.analysis.retransmission, and its segment gaps and
// out-of-order segments are tshark's tcp.analysis.lost_segment and tcp.analysis.out_of_order,
// and its timeouts are the resends tshark gives an RTO (tcp.analysis.rto).
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "../oracle/tshark_runner.h"
#include "../support/analyze_capture.h"
#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/packets_io/capture_reader.h"
#include "rdmascope/sim/transport_scenarios.h"
#include "roce_trace.h"

namespace rdmascope::analysis {
namespace {

using test::framesOf;

std::set<std::uint64_t> tsharkFrames(const std::string& path, const std::string& filter) {
  const std::string out = rdmascope::testing::runCommand(
      rdmascope::testing::oracleCommand(rdmascope::testing::Oracle::Tshark) + " -r '" + path +
      "' -Y '" + filter + "' -T fields -e frame.number 2>/dev/null");
  std::set<std::uint64_t> frames;
  std::istringstream in(out);
  for (std::uint64_t n; in >> n;)
    frames.insert(n);
  return frames;
}

TEST(IwarpTshark, TcpRetransmissionsGapsAndReorderingAgreeWithTshark) {
  RDMASCOPE_NEED_ORACLES(Tshark);
  std::size_t resent = 0, gaps = 0, timeouts = 0;
  for (const char* scenario : {"iwarp-write", "iwarp-read", "iwarp-send-recv"}) {
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      SCOPED_TRACE(std::string(scenario) + " seed " + std::to_string(seed));
      sim::TransportScenarioOptions o;
      o.seed = seed;
      o.lossRate = 0.1;
      o.bytes = 100000;
      std::string error;
      const auto run = sim::runTransportScenario(scenario, o, error);
      ASSERT_TRUE(run) << error;
      const std::string path = rdmascope::testing::tempCapturePath("iwarp_tcp_analysis");
      ASSERT_TRUE(rdmascope::testing::writeEthernetPcap(
          path, run->frames, [](const auto& f) { return std::span<const std::uint8_t>(f.bytes); },
          [](const auto& f, std::int64_t) { return 1'000'000'000 + f.timePs / 1000; }, error))
          << error;
      const AnalysisReport r = rdmascope::test::analyzeCaptureFile(path);
      const auto ours = framesOf(r, {AnomalyKind::Retransmission, AnomalyKind::Duplicate});
      EXPECT_EQ(ours, tsharkFrames(path, "tcp.analysis.retransmission"));
      EXPECT_EQ(r.summary.resentFrames, ours.size());
      EXPECT_EQ(framesOf(r, {AnomalyKind::SegmentGap}),
                tsharkFrames(path, "tcp.analysis.lost_segment"));
      EXPECT_EQ(framesOf(r, {AnomalyKind::OutOfOrder}),
                tsharkFrames(path, "tcp.analysis.out_of_order"));
      // Timeouts: the resends tshark gives an RTO (tcp.analysis.rto), copies aside.
      std::set<std::uint64_t> rto = tsharkFrames(path, "tcp.analysis.rto");
      for (auto f : framesOf(r, {AnomalyKind::Duplicate}))
        rto.erase(f);
      EXPECT_EQ(framesOf(r, {AnomalyKind::Timeout}), rto);
      EXPECT_EQ(r.summary.timeouts, rto.size());
      EXPECT_EQ(r.summary.completedMessages, 1u);
      resent += ours.size();
      timeouts += rto.size();
      gaps += r.summary.segmentGaps;
      std::remove(path.c_str());
    }
  }
  EXPECT_GT(resent, 0u);  // the comparison saw retransmissions and gaps
  EXPECT_GT(gaps, 0u);
  EXPECT_GT(timeouts, 0u);
}

}  // namespace
}  // namespace rdmascope::analysis
