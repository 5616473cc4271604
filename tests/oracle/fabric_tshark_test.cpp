// tshark as the oracle for the simulated switched fabric's frames: every 802.1Qbb PAUSE a switch
// sends, every CNP a NIC sends and every packet a switch marked CE (examples/congestion's
// incast with ECN and DCQCN, captured on both links of l1) decodes without an expert warning,
// and rdmascope's decoder agrees with tshark on each key.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "rdmascope/packets/decode.h"
#include "rdmascope/sim/fabric.h"
#include "tshark_runner.h"

namespace rdmascope::sim {
namespace {

using rdmascope::testing::cliCommand;
using rdmascope::testing::fieldArgs;
using rdmascope::testing::parseFieldRows;
using rdmascope::testing::runCommandStatus;

TEST(FabricTshark, PauseFramesCnpsAndCeMarkedPacketsDecodeWithoutWarnings) {
  RDMASCOPE_NEED_ORACLES(Tshark, Cli);
  std::string error;
  auto spec = loadScenario(
      std::string(RDMASCOPE_SOURCE_DIR) + "/examples/congestion/incast-dcqcn.json", error);
  ASSERT_TRUE(spec) << error;
  spec->capture = {PortRef{"l1", 0}, PortRef{"l1", 1}};
  spec->duration = SimTime::us(400);
  Fabric fab(*spec);
  fab.run();
  // the frames of interest only: PAUSE, CNP, CE (the rest are ordinary RoCE, checked elsewhere)
  std::vector<const FabricCapture*> frames;
  int pauses = 0, cnps = 0, marked = 0;
  for (const auto& c : fab.captures()) {
    const auto& b = c.bytes;
    const bool pause = b[12] == 0x88 && b[13] == 0x08;
    const bool ipv4 = b[12] == 0x08 && b[13] == 0x00;
    const bool cnp = ipv4 && b[42] == 0x81;
    const bool ce = ipv4 && (b[15] & 3) == 3;
    if (!pause && !cnp && !ce) continue;
    pauses += pause;
    cnps += cnp;
    marked += ce;
    frames.push_back(&c);
  }
  ASSERT_GT(pauses, 0);
  ASSERT_GT(cnps, 0);
  ASSERT_GT(marked, 0);
  const std::string path = rdmascope::testing::tempCapturePath("fabric_frames");
  ASSERT_TRUE(rdmascope::testing::writeEthernetPcap(
      path, frames, [](const FabricCapture* c) { return std::span<const std::uint8_t>(c->bytes); },
      [](const FabricCapture* c, std::int64_t) {
        return 1'700'000'000'000'000'000 + c->time.picos() / 1000;
      },
      error))
      << error;
  std::vector<std::string> keys = {
      "eth.type",       "macc.opcode", "macc.cbfc.enbv",        "ip.dsfield.dscp",
      "ip.dsfield.ecn", "udp.dstport", "infiniband.bth.opcode", "infiniband.bth.destqp"};
  for (int c = 0; c < 8; ++c)
    keys.push_back("macc.cbfc.pause_time.c" + std::to_string(c));
  auto theirKeys = keys;
  theirKeys.push_back("ip.checksum.status");  // tshark's verdict, no field of ours
  theirKeys.push_back("_ws.col.Protocol");
  theirKeys.push_back("_ws.expert.severity");
  const std::string cmd =
      rdmascope::testing::tsharkCommand() + " -o ip.check_checksum:TRUE -r " + path;
  const auto tshark = runCommandStatus(cmd + fieldArgs(theirKeys));
  ASSERT_EQ(tshark.exitCode, 0) << cmd;
  const auto theirs = parseFieldRows(tshark.out, theirKeys);
  ASSERT_EQ(theirs.size(), frames.size());
  const auto ours = runCommandStatus(cliCommand() + " decode " + path + fieldArgs(keys));
  ASSERT_EQ(ours.exitCode, 0);
  const auto mine = parseFieldRows(ours.out, keys);
  ASSERT_EQ(mine.size(), frames.size());
  std::map<std::string, int> seen;
  int checksums = 0;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const auto& t = theirs[i];
    const std::string proto = t.count("_ws.col.Protocol") ? t.at("_ws.col.Protocol") : "";
    ++seen[proto];
    EXPECT_FALSE(t.count("_ws.expert.severity"))
        << "frame " << i + 1 << " (" << proto << "): tshark reports severity "
        << t.at("_ws.expert.severity");
    const auto d = packets::decodeFrame(frames[i]->bytes, packets::LinkType::Ethernet);
    EXPECT_TRUE(d.diagnostics.empty()) << "frame " << i + 1;
    if (t.count("ip.checksum.status")) {
      // tshark verified the IPv4 checksum a marking switch recomputed: 1 is "good"
      EXPECT_EQ(t.at("ip.checksum.status"), "1") << "frame " << i + 1;
      ++checksums;
    }
    for (const auto& k : keys) {
      const auto a = mine[i].find(k), b = t.find(k);
      EXPECT_EQ(a == mine[i].end() ? "<absent>" : a->second, b == t.end() ? "<absent>" : b->second)
          << "frame " << i + 1 << ": " << k;
    }
  }
  EXPECT_EQ(checksums, cnps + marked);
  EXPECT_EQ(seen["MAC CTRL"], pauses);
  EXPECT_EQ(seen["RRoCE"], cnps + marked);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace rdmascope::sim
