// tshark as the oracle for RoCE behind VLAN stacks (802.1ad 0x88a8, pre-standard 0x9100,
// QinQ, several 0x8100) and IPv6 extension chains (hop-by-hop, destination options, segment
// routing, an atomic fragment): frames built with the project's builders decode in tshark as
// RRoCE, and every key rdmascope-cli shows that tshark knows has tshark's value. tshark does
// not check the ICRC; rdmascope-cli --verify names each corrupt frame and exits 1.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "../support/gcc12_vector_insert_warnings.h"
#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/ib_builder.h"
#include "rdmascope/packets/net_headers.h"
#include "tshark_runner.h"

namespace rdmascope::packets {
namespace {

using rdmascope::testing::cliCommand;
using rdmascope::testing::fieldArgs;
using rdmascope::testing::parseFieldRows;
using rdmascope::testing::runCommandStatus;
using rdmascope::testing::tsharkFieldKeys;

const std::vector<std::string> kPrefixes = {"infiniband.", "eth.", "vlan.", "ieee8021a",
                                            "ipv6.",       "ip.",  "udp.",  "data."};

IbPacket writeOnly(std::uint32_t psn) {
  IbPacket p;
  p.bth.opcode = 0x0a;  // RC RDMA WRITE Only
  p.bth.destQp = 0x12;
  p.bth.psn = psn;
  p.reth = Reth{0x7f0000001000, 0x1234, 32};
  p.payload.assign(32, 0);
  for (std::size_t i = 0; i < p.payload.size(); ++i)
    p.payload[i] = static_cast<std::uint8_t>(i * 3 + psn);
  return p;
}

RoceAddressing v6() {
  RoceAddressing a;
  a.srcIp = *IpAddress::parse("fd00::1");
  a.dstIp = *IpAddress::parse("fd00::2");
  a.flowLabel = 0xbeef;
  return a;
}

// Router Alert and an 8-byte PadN fill a 16-byte hop-by-hop header exactly.
Ipv6Extension hopByHop() {
  return {kIpv6HopByHop, {0x05, 0x02, 0x00, 0x00, 0x01, 0x08, 0, 0, 0, 0, 0, 0, 0, 0}};
}
// An option of an unassigned type (skipped by receivers: action 00) and a 1-byte PadN.
Ipv6Extension destinationOptions() {
  return {kIpv6DestinationOptions, {0x1e, 0x01, 0xaa}};
}
// A segment routing header at its last segment (the destination fd00::2).
Ipv6Extension segmentRouting() {
  Ipv6Extension e{kIpv6Routing, {0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0xfd}};
  e.body.insert(e.body.end(), 14, 0);
  e.body.push_back(2);
  return e;
}
Ipv6Extension atomicFragment() {
  return {kIpv6Fragment, {0x00, 0x00, 0x12, 0x34, 0x56, 0x78}};
}

struct Carrier {
  std::string name;
  RoceAddressing addr;
};

std::vector<Carrier> carriers() {
  std::vector<Carrier> out;
  RoceAddressing a;
  a.vlan = VlanTag{1, false, 10, kEtherTypeQinQ};
  out.push_back({"802.1ad", a});
  a.vlan = VlanTag{2, true, 11, kEtherTypeQinQOld};
  out.push_back({"0x9100", a});
  a.outerVlans = {VlanTag{3, false, 100, kEtherTypeQinQ}};
  a.vlan = VlanTag{4, false, 200};
  out.push_back({"QinQ", a});
  a.outerVlans = {VlanTag{0, false, 14}, VlanTag{0, false, 15}};
  a.vlan = VlanTag{5, false, 16};
  out.push_back({"three 0x8100", a});
  a.outerVlans = {VlanTag{0, false, 17, kEtherTypeQinQOld}, VlanTag{6, true, 18, kEtherTypeQinQ}};
  a.vlan = VlanTag{7, false, 19};
  out.push_back({"0x9100 0x88a8 0x8100", a});
  RoceAddressing b = v6();
  b.ipv6Extensions = {hopByHop()};
  out.push_back({"hop-by-hop", b});
  b.ipv6Extensions = {destinationOptions()};
  out.push_back({"destination options", b});
  b.ipv6Extensions = {segmentRouting()};
  out.push_back({"segment routing", b});
  b.ipv6Extensions = {atomicFragment()};
  out.push_back({"atomic fragment", b});
  b.ipv6Extensions = {hopByHop(), destinationOptions(), segmentRouting(), atomicFragment(),
                      destinationOptions()};
  out.push_back({"extension chain", b});
  b.outerVlans = {VlanTag{0, false, 300, kEtherTypeQinQ}};
  b.vlan = VlanTag{0, false, 301};
  out.push_back({"QinQ and extension chain", b});
  return out;
}

std::vector<std::vector<std::uint8_t>> build(const std::vector<Carrier>& cs) {
  std::vector<std::vector<std::uint8_t>> frames;
  std::uint32_t psn = 1;
  for (const auto& c : cs)
    frames.push_back(buildRoceV2(c.addr, writeOnly(psn++)));
  return frames;
}

bool writeCapture(const std::string& path, const std::vector<std::vector<std::uint8_t>>& frames) {
  std::string error;
  const bool ok = rdmascope::testing::writeEthernetPcap(
      path, frames, [](const auto& f) { return std::span<const std::uint8_t>(f); },
      [](const auto&, std::int64_t i) { return 1'700'000'000'000'000'000 + i * 125'000'000; },
      error);
  EXPECT_TRUE(ok) << error;
  return ok;
}

TEST(RoceEncapsulationTshark, EveryCarrierIsRroceAndEverySharedKeyAgrees) {
  RDMASCOPE_NEED_ORACLES(Tshark, Cli);
  const auto cs = carriers();
  const auto frames = build(cs);
  const std::string path = rdmascope::testing::tempCapturePath("roce_encapsulation");
  ASSERT_TRUE(writeCapture(path, frames));

  const auto theirKeys = tsharkFieldKeys();
  std::set<std::string> keySet;
  for (const auto& f : frames)
    for (const auto& n : decodeFrame(f, LinkType::Ethernet).nodes) {
      if (n.value.empty() || !theirKeys.count(std::string(n.key))) continue;
      for (const auto& p : kPrefixes)
        if (n.key.substr(0, p.size()) == p) keySet.emplace(n.key);
    }
  std::vector<std::string> keys(keySet.begin(), keySet.end());
  keys.push_back("_ws.col.Protocol");
  const auto tshark =
      runCommandStatus(rdmascope::testing::tsharkCommand() + " -r " + path + fieldArgs(keys));
  ASSERT_EQ(tshark.exitCode, 0);
  keys.pop_back();
  const auto ours = runCommandStatus(cliCommand() + " decode " + path + fieldArgs(keys));
  ASSERT_EQ(ours.exitCode, 0);
  auto withProtocol = keys;
  withProtocol.push_back("_ws.col.Protocol");
  const auto theirs = parseFieldRows(tshark.out, withProtocol);
  const auto mine = parseFieldRows(ours.out, keys);
  ASSERT_EQ(theirs.size(), cs.size());
  ASSERT_EQ(mine.size(), cs.size());
  std::set<std::string> compared;
  for (std::size_t i = 0; i < cs.size(); ++i) {
    const auto& t = theirs[i];
    EXPECT_EQ(t.count("_ws.col.Protocol") ? t.at("_ws.col.Protocol") : "", "RRoCE") << cs[i].name;
    for (const auto& k : keys) {
      // tshark's IPv6 dissector adds a hidden ip.version; rdmascope's ip.* are IPv4's.
      if (k == "ip.version" && !mine[i].count(k)) continue;
      const auto a = mine[i].find(k), b = t.find(k);
      EXPECT_EQ(a == mine[i].end() ? "<absent>" : a->second, b == t.end() ? "<absent>" : b->second)
          << cs[i].name << ": " << k;
      if (a != mine[i].end()) compared.insert(k);
    }
  }
  for (const char* k : {"ieee8021ad.id",      "ieee8021ad.priority",
                        "ieee8021ah.etype",   "vlan.id",
                        "vlan.etype",         "vlan.dei",
                        "eth.type",           "ipv6.nxt",
                        "ipv6.hopopts.nxt",   "ipv6.hopopts.len_oct",
                        "ipv6.dstopts.len",   "ipv6.opt.type",
                        "ipv6.opt.length",    "ipv6.opt.padn",
                        "ipv6.routing.type",  "ipv6.routing.segleft",
                        "ipv6.fraghdr.ident", "ipv6.fraghdr.more",
                        "udp.dstport",        "infiniband.bth.psn",
                        "infiniband.reth.va", "infiniband.invariant.crc"})
    EXPECT_TRUE(compared.count(k)) << k << " was never compared";
  std::remove(path.c_str());
}

TEST(RoceEncapsulationTshark, TsharkIgnoresACorruptIcrcVerifyNamesEachFrame) {
  RDMASCOPE_NEED_ORACLES(Tshark, Cli);
  const auto cs = carriers();
  auto frames = build(cs);
  for (std::size_t i = 1; i < frames.size(); i += 2)
    frames[i][frames[i].size() - 5] ^= 0x80;  // the last payload byte
  const std::string path = rdmascope::testing::tempCapturePath("roce_encapsulation_bad");
  ASSERT_TRUE(writeCapture(path, frames));
  const auto tshark = runCommandStatus(rdmascope::testing::tsharkCommand() + " -r " + path +
                                       " -T fields -e _ws.col.Protocol -e infiniband.bth.psn");
  ASSERT_EQ(tshark.exitCode, 0);
  std::string expectedTshark, expectedVerify;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    expectedTshark += "RRoCE\t" + std::to_string(i + 1) + "\n";
    if (i % 2) expectedVerify += "frame " + std::to_string(i + 1) + ": bad CRC\n";
  }
  EXPECT_EQ(tshark.out, expectedTshark);
  const std::size_t bad = frames.size() / 2;
  expectedVerify += std::to_string(frames.size()) +
                    " frames: " + std::to_string(frames.size() - bad) + " good CRC, " +
                    std::to_string(bad) + " bad CRC, 0 without CRC\n";
  const auto verify = runCommandStatus(cliCommand() + " decode --verify " + path);
  EXPECT_EQ(verify.exitCode, 1);
  EXPECT_EQ(verify.out, expectedVerify);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace rdmascope::packets
