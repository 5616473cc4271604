// tshark, decoding the same captures on its own, as an oracle for the counts it can
// derive: resent frames (request frames whose IP source, destination QP and PSN were seen
// before), NAKs and RNR NAKs.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>
#include <tuple>

#include "../sim/sim_test_support.h"
#include "../support/oracle.h"
#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/packets_io/capture_reader.h"
#include "rdmascope/packets_io/capture_writer.h"

namespace rdmascope::analysis {
namespace {

struct OracleCounts {
  std::uint64_t rdmaFrames = 0, resent = 0, naks = 0, rnrNaks = 0;
};

OracleCounts tsharkCounts(const std::string& path) {
  const std::string cmd =
      testing::oracleCommand(testing::Oracle::Tshark) + " -r '" + path +
      "' -T fields -E separator=, -e ip.src -e ipv6.src -e infiniband.bth.opcode"
      " -e infiniband.bth.destqp -e infiniband.bth.psn -e infiniband.aeth.syndrome" +
      testing::tsharkDisableOptions() + " 2>/dev/null";
  OracleCounts c;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return c;
  std::set<std::tuple<std::string, std::string, std::string>> seen;
  char line[512];
  while (std::fgets(line, sizeof line, p)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');)
      f.push_back(x);
    if (f.size() < 6 || f[2].empty()) continue;
    ++c.rdmaFrames;
    const int opcode = std::stoi(f[2]);
    const std::string src = f[0].empty() ? f[1] : f[0];
    const bool answer = (opcode & 0x1f) >= 0x0d && (opcode & 0x1f) <= 0x12 && opcode < 0x60;
    if (!answer && !seen.insert({src, f[3], f[4]}).second) ++c.resent;
    if ((opcode & 0x1f) == 0x11 && !f[5].empty()) {
      const int kind = (std::stoi(f[5]) >> 5) & 3;
      if (kind == 3) ++c.naks;
      if (kind == 1) ++c.rnrNaks;
    }
  }
  pclose(p);
  return c;
}

AnalysisSummary analyzeFile(const std::string& path) {
  std::string error;
  auto reader = packets_io::CaptureReader::open(path, error);
  EXPECT_TRUE(reader) << error;
  FlowAnalyzer a;
  if (!reader) return a.summary();
  packets_io::FrameView v;
  while (reader->next(v))
    a.addFrame(v.data, reader->linkType(), reader->framesRead(),
               static_cast<double>(v.timestampNs) * 1e-9);
  a.finish();
  return a.summary();
}

OracleCounts expectAgreement(const std::string& path) {
  const OracleCounts t = tsharkCounts(path);
  const AnalysisSummary s = analyzeFile(path);
  EXPECT_GT(t.rdmaFrames, 0u);
  EXPECT_EQ(s.rdmaFrames, t.rdmaFrames);
  EXPECT_EQ(s.resentFrames, t.resent);
  EXPECT_EQ(s.naks, t.naks);
  EXPECT_EQ(s.rnrNaks, t.rnrNaks);
  return t;
}

TEST(TsharkOracle, RealSoftRoceCaptureWithLoss) {
  RDMASCOPE_NEED_ORACLES(Tshark);
  const std::string path =
      std::string(RDMASCOPE_SOURCE_DIR) + "/tests/analysis/data/rxe_rc_verbs_ops_loss.pcap";
  expectAgreement(path);
  // And what only the analysis tells: the remaining counts on this capture, checked
  // by reading its 166 frames (see tests/analysis/data/README.md).
  const AnalysisSummary s = analyzeFile(path);
  EXPECT_EQ(s.connections, 2u);
  EXPECT_EQ(s.psnGaps, 3u);
  EXPECT_EQ(s.duplicates, 0u);
  EXPECT_EQ(s.incompleteMessages, 0u);
  EXPECT_EQ(s.failedMessages, 2u);  // two WRITEs past the end of the MR: remote access error
}

TEST(TsharkOracle, SimulatedLossyRunsWrittenAsPcap) {
  RDMASCOPE_NEED_ORACLES(Tshark);
  std::uint64_t resent = 0, naks = 0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    sim::testing::PairOptions o;
    o.config.seed = seed;
    o.config.faults.lossRate = 0.1;
    o.config.faults.duplicateRate = 0.05;
    o.timeout = 8;
    sim::testing::Pair p = sim::testing::makePair(o);
    for (int i = 0; i < 8; ++i) {
      auto wr = sim::testing::sendWr(i, sim::WrOpcode::RdmaWrite, p.a, 0, 3000 + 500 * i, p.b);
      ASSERT_TRUE(p.ha().postSend(p.a.qpn, wr).ok());
    }
    p.net->sim().runUntil(sim::SimTime::ms(60000));
    const std::string path = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") +
                             "/rdmascope_analysis_" + std::to_string(::getpid()) + ".pcap";
    std::string error;
    {
      auto w = packets_io::CaptureWriter::open(path, packets::LinkType::Ethernet, error);
      ASSERT_TRUE(w) << error;
      for (const auto& f : p.net->frames())
        ASSERT_TRUE(
            w->write(f.bytes, 1'000'000'000 + static_cast<std::int64_t>(f.time.seconds() * 1e9)));
    }
    const OracleCounts t = expectAgreement(path);
    resent += t.resent;
    naks += t.naks;
    std::remove(path.c_str());
  }
  EXPECT_GT(resent, 0u);  // the runs did lose frames and resend them
  EXPECT_GT(naks, 0u);
}

}  // namespace
}  // namespace rdmascope::analysis
