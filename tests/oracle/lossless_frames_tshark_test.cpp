// tshark as the oracle for the frames of a lossless RoCE fabric: 802.1Qbb PFC and 802.3x PAUSE
// frames, RoCEv2 packets with ECN capable transport and congestion experienced marks, and CNPs
// (BTH opcode 0x81). tshark decodes each without an expert warning, and every macc.* key
// rdmascope shows has tshark's value.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "../support/gcc12_vector_insert_warnings.h"
#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/ib_builder.h"
#include "rdmascope/packets/mac_control.h"
#include "tshark_runner.h"

namespace rdmascope::packets {
namespace {

using rdmascope::testing::cliCommand;
using rdmascope::testing::fieldArgs;
using rdmascope::testing::parseFieldRows;
using rdmascope::testing::runCommandStatus;

constexpr std::array<std::uint8_t, 6> kPort = {0x02, 0x5e, 0, 0, 0x01, 0x03};

struct Sample {
  std::string name;
  std::vector<std::uint8_t> bytes;
  std::string protocol;  ///< tshark's protocol column
};

std::vector<Sample> samples() {
  std::vector<Sample> out;
  PfcPause xoff;
  xoff.enableVector = 1u << 3;
  xoff.quanta[3] = 0xffff;
  out.push_back({"PFC XOFF priority 3", buildPfcFrame(kPort, xoff), "MAC CTRL"});
  PfcPause mixed;
  mixed.enableVector = 0xa5;
  mixed.quanta = {1, 2, 3, 4, 5, 6, 7, 0x8000};
  out.push_back({"PFC four classes", buildPfcFrame(kPort, mixed), "MAC CTRL"});
  PfcPause xon;
  xon.enableVector = 1u << 3;
  out.push_back({"PFC XON priority 3", buildPfcFrame(kPort, xon), "MAC CTRL"});
  out.push_back({"802.3x PAUSE", buildPauseFrame(kPort, 256), "MAC CTRL"});

  IbPacket write;
  write.bth.opcode = 0x0a;  // RC RDMA WRITE Only
  write.bth.destQp = 0x11;
  write.bth.psn = 7;
  write.reth = Reth{0x1000, 0x42, 64};
  write.payload.assign(64, 0x5a);
  RoceAddressing ect;
  ect.dscp = 26;
  ect.ecn = 2;  // ECT(0), as NICs with DCQCN send
  out.push_back({"WRITE ECT(0)", buildRoceV2(ect, write), "RRoCE"});
  RoceAddressing ce = ect;
  ce.ecn = 3;  // marked by a switch queue above Kmin
  out.push_back({"WRITE CE", buildRoceV2(ce, write), "RRoCE"});

  IbPacket cnp;
  cnp.bth.opcode = 0x81;
  cnp.bth.destQp = 0x12;
  cnp.bth.becn = true;
  RoceAddressing back;
  back.srcMac = ect.dstMac;
  back.dstMac = ect.srcMac;
  back.srcIp = ect.dstIp;
  back.dstIp = ect.srcIp;
  back.dscp = 48;  // CNPs go at a high priority
  out.push_back({"CNP", buildRoceV2(back, cnp), "RRoCE"});
  return out;
}

TEST(LosslessFramesTshark, TsharkDecodesEveryFrameWithoutWarningsAndAgreesOnEveryKey) {
  RDMASCOPE_NEED_ORACLES(Tshark, Cli);
  const auto ss = samples();
  const std::string path = rdmascope::testing::tempCapturePath("lossless_frames");
  std::string error;
  ASSERT_TRUE(rdmascope::testing::writeEthernetPcap(
      path, ss, [](const Sample& s) { return std::span<const std::uint8_t>(s.bytes); },
      [](const Sample&, std::int64_t i) { return 1'700'000'000'000'000'000 + i * 1000; }, error))
      << error;

  std::vector<std::string> keys = {
      "eth.type",        "macc.opcode",    "macc.pause_time",      "macc.cbfc.enbv",
      "ip.dsfield.dscp", "ip.dsfield.ecn", "infiniband.bth.opcode"};
  for (int c = 0; c < 8; ++c) {
    keys.push_back("macc.cbfc.enbv.c" + std::to_string(c));
    keys.push_back("macc.cbfc.pause_time.c" + std::to_string(c));
  }
  auto theirKeys = keys;
  theirKeys.push_back("_ws.col.Protocol");
  theirKeys.push_back("_ws.expert.severity");
  const auto tshark =
      runCommandStatus(rdmascope::testing::tsharkCommand() + " -r " + path + fieldArgs(theirKeys));
  ASSERT_EQ(tshark.exitCode, 0) << rdmascope::testing::tsharkCommand() + " -r " + path +
                                       fieldArgs(theirKeys);
  const auto ours = runCommandStatus(cliCommand() + " decode " + path + fieldArgs(keys));
  ASSERT_EQ(ours.exitCode, 0);
  const auto theirs = parseFieldRows(tshark.out, theirKeys);
  const auto mine = parseFieldRows(ours.out, keys);
  ASSERT_EQ(theirs.size(), ss.size());
  ASSERT_EQ(mine.size(), ss.size());
  std::set<std::string> compared;
  for (std::size_t i = 0; i < ss.size(); ++i) {
    const auto& t = theirs[i];
    EXPECT_EQ(t.count("_ws.col.Protocol") ? t.at("_ws.col.Protocol") : "", ss[i].protocol)
        << ss[i].name;
    EXPECT_FALSE(t.count("_ws.expert.severity"))
        << ss[i].name << ": tshark reports expert severity " << t.at("_ws.expert.severity");
    const auto d = decodeFrame(ss[i].bytes, LinkType::Ethernet);
    EXPECT_TRUE(d.diagnostics.empty()) << ss[i].name;
    // tshark 4.0 has no key for the BTH's BECN bit, which every CNP sets (IBTA A17.9.3).
    if (ss[i].name == "CNP") {
      EXPECT_EQ(d.find("infiniband.bth.becn")->value, "1");
    }
    for (const auto& k : keys) {
      const auto a = mine[i].find(k), b = t.find(k);
      EXPECT_EQ(a == mine[i].end() ? "<absent>" : a->second, b == t.end() ? "<absent>" : b->second)
          << ss[i].name << ": " << k;
      if (a != mine[i].end()) compared.insert(k);
    }
  }
  for (const auto& k : keys)
    EXPECT_TRUE(compared.count(k)) << k << " was never compared";
  std::remove(path.c_str());
}

}  // namespace
}  // namespace rdmascope::packets
