// tshark as the oracle for the simulator's iWARP traffic: each scenario (Send/Recv, Write,
// Read; with and without markers; with loss, so TCP retransmits) is written to a classic pcap
// file, and tshark must decode every FPDU as iwarp_mpa / iwarp_ddp / iwarp_rdma with a good
// CRC32c, the opcodes the scenario used, and markers exactly when they were negotiated.

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "rdmascope/sim/tcp_control_block.h"
#include "rdmascope/sim/transport_scenarios.h"
#include "tshark_runner.h"

namespace rdmascope::sim {
namespace {

std::string run(const std::string& cmd) {
  return rdmascope::testing::runCommand(cmd);
}

// Writes the simulated frames at their wire times to a pcap for tshark.
void writePcap(const std::string& path, const std::vector<TcpCapturedFrame>& frames) {
  std::string error;
  ASSERT_TRUE(rdmascope::testing::writeEthernetPcap(
      path, frames,
      [](const TcpCapturedFrame& f) { return std::span<const std::uint8_t>(f.bytes); },
      [](const TcpCapturedFrame& f, std::int64_t) {
        return 1'700'000'000'000'000'000 + f.timePs / 1000;
      },
      error))
      << error;
}

int count(const std::string& hay, const std::string& needle) {
  int n = 0;
  for (auto at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1))
    ++n;
  return n;
}

struct Case {
  const char* scenario;
  bool markers;
  double loss;
  std::uint64_t bytes;
  std::set<std::string> opcodes;  // tshark's iwarp_rdma.opcode values expected
};

std::string caseName(const ::testing::TestParamInfo<Case>& info) {
  std::string n = info.param.scenario;
  for (auto& c : n)
    if (c == '-') c = '_';
  n += info.param.markers ? "_markers" : "_plain";
  if (info.param.loss > 0) n += "_loss";
  return n;
}

class IwarpSimTshark : public ::testing::TestWithParam<Case> {};

TEST_P(IwarpSimTshark, EveryFpduDecodesWithAGoodCrc) {
  RDMASCOPE_NEED_ORACLES(Tshark);
  const auto& c = GetParam();
  TransportScenarioOptions o;
  o.bytes = c.bytes;
  o.markers = c.markers;
  o.lossRate = c.loss;
  o.seed = 5;
  std::string error;
  const auto r = runTransportScenario(c.scenario, o, error);
  ASSERT_TRUE(r) << error;
  ASSERT_TRUE(r->dataIntact);
  if (c.loss > 0) {
    ASSERT_GT(r->framesLost, 0u);
  }

  // Frames carrying FPDUs: every payload-bearing segment after each side's MPA start frame.
  int fpduFrames = 0;
  int startFrames = 0;
  std::set<std::pair<int, std::uint32_t>> fpduSegments;  // distinct (direction, seq)
  for (const auto& f : r->frames) {
    const auto seg = parseTcpFrame(f.bytes);
    ASSERT_TRUE(seg);
    if (seg->payload.empty()) continue;
    const bool start =
        seg->payload.size() >= 16 &&
        (std::string(seg->payload.begin(), seg->payload.begin() + 16) == "MPA ID Req Frame" ||
         std::string(seg->payload.begin(), seg->payload.begin() + 16) == "MPA ID Rep Frame");
    if (start) {
      ++startFrames;
    } else {
      ++fpduFrames;
      fpduSegments.insert({f.fromHost, seg->seq});
    }
  }
  ASSERT_EQ(startFrames, 2);
  ASSERT_GT(fpduFrames, 0);

  const auto pcap = rdmascope::testing::tempCapturePath("sim_" + caseName({c, 0}));
  writePcap(pcap, r->frames);
  const std::string tshark =
      rdmascope::testing::tsharkCommand() + " -r " + pcap + " -o tcp.check_checksum:TRUE";
  const auto verbose = run(tshark + " -V 2>/dev/null");
  // tshark dissects each FPDU at least once; a segment sent a third time (its first
  // retransmission was lost too) it leaves as TCP data, flagged as a retransmission.
  const int good = count(verbose, "(Good CRC32)");
  EXPECT_GE(good, static_cast<int>(fpduSegments.size())) << pcap;
  EXPECT_LE(good, fpduFrames) << pcap;
  if (c.loss == 0) {
    EXPECT_EQ(good, fpduFrames) << pcap;
  }
  EXPECT_EQ(count(verbose, "Bad CRC32"), 0) << pcap;
  EXPECT_EQ(count(verbose, "[Bad Checksum"), 0) << pcap;

  std::istringstream rows(run(tshark + " -T fields -E separator=/t -e frame.protocols"
                                       " -e iwarp_rdma.opcode -e iwarp_mpa.marker_fpduptr"
                                       " -e iwarp_mpa.crc_check -e tcp.len"
                                       " -e tcp.analysis.retransmission 2>/dev/null"));
  std::string line;
  int decoded = 0;
  int withMarkers = 0;
  std::set<std::string> opcodes;
  while (std::getline(rows, line)) {
    std::vector<std::string> cols;
    std::stringstream ss(line);
    std::string col;
    while (std::getline(ss, col, '\t'))
      cols.push_back(col);
    cols.resize(6);
    if (cols[0].find("iwarp_mpa") == std::string::npos && cols[4] != "0") {
      EXPECT_FALSE(cols[5].empty()) << "undecoded data that is no retransmission: " << line;
    }
    // tshark 4.0 names the DDP and RDMAP layer iwarp_ddp_rdmap (fields iwarp_ddp.*, iwarp_rdma.*).
    if (cols[0].find("iwarp_mpa:iwarp_ddp_rdmap") == std::string::npos) continue;
    ++decoded;
    EXPECT_FALSE(cols[3].empty()) << line;  // iwarp_mpa.crc_check present
    if (!cols[1].empty()) opcodes.insert(cols[1]);
    if (!cols[2].empty()) ++withMarkers;
  }
  EXPECT_EQ(decoded, good) << pcap;
  EXPECT_EQ(opcodes, c.opcodes) << pcap;
  if (c.markers) {
    EXPECT_GT(withMarkers, fpduFrames / 2) << pcap;
  } else {
    EXPECT_EQ(withMarkers, 0) << pcap;
  }
  if (!HasFailure()) std::filesystem::remove(pcap);
}

INSTANTIATE_TEST_SUITE_P(Scenarios, IwarpSimTshark,
                         ::testing::Values(Case{"iwarp-send-recv", false, 0, 70000, {"0x03"}},
                                           Case{"iwarp-send-recv", true, 0, 70000, {"0x03"}},
                                           Case{"iwarp-write", false, 0, 200000, {"0x00"}},
                                           Case{"iwarp-write", true, 0, 200000, {"0x00"}},
                                           Case{"iwarp-read", false, 0, 100000, {"0x01", "0x02"}},
                                           Case{"iwarp-read", true, 0, 100000, {"0x01", "0x02"}},
                                           Case{"iwarp-write", true, 0.02, 300000, {"0x00"}},
                                           Case{"iwarp-send-recv", false, 0.02, 300000, {"0x03"}}),
                         caseName);

}  // namespace
}  // namespace rdmascope::sim

namespace rdmascope::sim {
namespace {

// The socket path's frames: tshark verifies every IPv4 and TCP checksum and sees one clean
// conversation (handshake, data, FIN) without retransmissions or other TCP warnings.
TEST(TcpStreamTshark, ChecksumsAreGoodAndTheConversationIsClean) {
  RDMASCOPE_NEED_ORACLES(Tshark);
  TransportScenarioOptions o;
  o.bytes = 300000;
  std::string error;
  const auto r = runTransportScenario("tcp-stream", o, error);
  ASSERT_TRUE(r) << error;
  const auto pcap = rdmascope::testing::tempCapturePath("sim_tcp_stream");
  writePcap(pcap, r->frames);
  const auto out =
      run(rdmascope::testing::oracleCommand(rdmascope::testing::Oracle::Tshark) + " -r " + pcap +
          " -o tcp.check_checksum:TRUE -o ip.check_checksum:TRUE -T fields"
          " -e tcp.checksum.status -e ip.checksum.status -e tcp.analysis.retransmission"
          " -e tcp.analysis.lost_segment -e tcp.analysis.duplicate_ack"
          " -e tcp.analysis.out_of_order -e tcp.len 2>/dev/null");
  std::istringstream rows(out);
  std::string line;
  std::size_t frames = 0;
  std::uint64_t payload = 0;
  while (std::getline(rows, line)) {
    std::vector<std::string> cols;
    std::stringstream ss(line);
    for (std::string col; std::getline(ss, col, '\t');)
      cols.push_back(col);
    cols.resize(7);
    ++frames;
    EXPECT_EQ(cols[0], "1") << line;  // 1 = Good (0 Bad, 2 Unverified)
    EXPECT_EQ(cols[1], "1") << line;
    for (int i = 2; i < 6; ++i)
      EXPECT_TRUE(cols[i].empty()) << line;
    payload += cols[6].empty() ? 0 : std::stoull(cols[6]);
  }
  EXPECT_EQ(frames, r->frames.size());
  EXPECT_EQ(payload, o.bytes);
  if (!HasFailure()) std::filesystem::remove(pcap);
}

}  // namespace
}  // namespace rdmascope::sim
