// decode --verify never passes what it could not check: a corrupt ICRC behind VLAN stacks or
// IPv6 extension chains exits 1 naming the frame, and a RoCE payload that cannot be reached
// (a later fragment, ESP) is named as not verified and also fails the run.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_runner.h"
#include "rdmascope/packets/ib_builder.h"
#include "rdmascope/packets/net_headers.h"
#include "rdmascope/packets_io/capture_writer.h"

namespace rdmascope::cli::test {
namespace {

using namespace rdmascope::packets;

IbPacket writeOnly() {
  IbPacket p;
  p.bth.opcode = 0x0a;  // RC RDMA WRITE Only
  p.bth.destQp = 0x12;
  p.bth.psn = 100;
  p.reth = Reth{0x1000, 0x77, 16};
  p.payload.assign(16, 0xab);
  return p;
}

RoceAddressing v6() {
  RoceAddressing a;
  a.srcIp = *IpAddress::parse("fd00::1");
  a.dstIp = *IpAddress::parse("fd00::2");
  return a;
}

void write(const std::string& path, const std::vector<std::vector<std::uint8_t>>& frames) {
  std::string error;
  auto w = packets_io::CaptureWriter::open(path, LinkType::Ethernet, error);
  ASSERT_TRUE(w) << error;
  std::int64_t t = 1'700'000'000'000'000'000;
  for (const auto& f : frames)
    ASSERT_TRUE(w->write(f, t += 1000));
  ASSERT_TRUE(w->close()) << w->error();
}

std::vector<std::uint8_t> corrupt(std::vector<std::uint8_t> f) {
  f[f.size() - 6] ^= 0x01;  // the last payload byte
  return f;
}

TEST(DecodeVerify, CorruptIcrcBehindVlanStacksAndIpv6ChainsExits1NamingTheFrame) {
  RoceAddressing qinq;
  qinq.outerVlans = {VlanTag{0, false, 100, kEtherTypeQinQ}};
  qinq.vlan = VlanTag{0, false, 200};
  RoceAddressing old;
  old.vlan = VlanTag{1, false, 5, kEtherTypeQinQOld};
  RoceAddressing stacked;
  stacked.outerVlans = {VlanTag{0, false, 1}, VlanTag{0, false, 2}};
  stacked.vlan = VlanTag{0, false, 3};
  RoceAddressing chain = v6();
  chain.ipv6Extensions = {{kIpv6HopByHop, {0x05, 0x02, 0, 0}},
                          {kIpv6DestinationOptions, {}},
                          {kIpv6Fragment, {0, 0, 0, 0, 0, 7}}};
  RoceAddressing both = chain;
  both.outerVlans = {VlanTag{0, false, 10, kEtherTypeQinQ}};
  both.vlan = VlanTag{0, false, 20};
  const std::vector<RoceAddressing> carriers = {qinq, old, stacked, chain, both};
  std::vector<std::vector<std::uint8_t>> frames;
  for (const auto& a : carriers)
    frames.push_back(buildRoceV2(a, writeOnly()));
  const std::string path = tempPath("encapsulated.pcap");
  write(path, frames);
  auto r = runCli({"decode", "--verify", path});
  EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "5 frames: 5 good CRC, 0 bad CRC, 0 without CRC\n");
  // Each carrier alone with a corrupt ICRC, then all of them in one capture.
  for (std::size_t i = 0; i < frames.size(); ++i) {
    auto bad = frames;
    bad[i] = corrupt(bad[i]);
    write(path, bad);
    r = runCli({"decode", "--verify", path});
    EXPECT_EQ(r.exitCode, 1) << i;
    EXPECT_EQ(r.out, "frame " + std::to_string(i + 1) +
                         ": bad CRC\n5 frames: 4 good CRC, 1 bad CRC, 0 without CRC\n")
        << i;
    // The decoder's verdict is the same as the fast check's (a display filter forces it).
    r = runCli({"decode", "--verify", path, "-Y", "infiniband"});
    EXPECT_EQ(r.exitCode, 1) << i;
    EXPECT_NE(r.out.find("frame " + std::to_string(i + 1) + ": bad CRC\n"), std::string::npos);
  }
  std::remove(path.c_str());
}

TEST(DecodeVerify, UnreachableRocePayloadsAreNamedAndFailTheRun) {
  const auto whole = buildRoceV2(v6(), writeOnly());
  auto behind = [&](std::uint8_t next, std::vector<std::uint8_t> header) {
    auto f = whole;
    f.insert(f.begin() + 14 + 40, header.begin(), header.end());
    f[14 + 6] = next;
    const std::size_t plen = f.size() - 14 - 40;
    f[14 + 4] = static_cast<std::uint8_t>(plen >> 8);
    f[14 + 5] = static_cast<std::uint8_t>(plen);
    return f;
  };
  const std::string path = tempPath("unreachable.pcap");
  write(path, {whole, behind(kIpv6Fragment, {17, 0, 0x05, 0x00, 0, 0, 0, 1}),
               behind(kIpProtoEsp, {0, 0, 0, 1, 0, 0, 0, 1}), whole});
  const auto r = runCli({"decode", "--verify", path});
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(r.out,
            "frame 2: CRC not verified: IPv6 fragment at offset 1280: its upper-layer header is in "
            "another fragment, so a RoCE ICRC it may carry is not verified (not reassembled)\n"
            "frame 3: CRC not verified: IPv6 payload behind an Encapsulating Security Payload "
            "(ESP) (next header 50) is not decoded: a RoCE ICRC it may carry is not verified\n"
            "4 frames: 2 good CRC, 0 bad CRC, 0 without CRC, 2 not verifiable\n");
  std::remove(path.c_str());
}

}  // namespace
}  // namespace rdmascope::cli::test
