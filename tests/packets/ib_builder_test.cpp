// The frame builder against independently built frames (the vectors of ib_crc_test.cpp are
// rebuilt here from typed headers) and the parser against the builder.
#include "rdmascope/packets/ib_builder.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <set>
#include <vector>

#include "ib_test_vectors.h"
#include "rdmascope/packets/crc.h"
#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/ib_crc.h"

namespace rdmascope::packets {
namespace {

std::array<std::uint8_t, 16> gid(const char* text) {
  return IpAddress::parse(text)->bytes;
}

Grh sampleGrh() {
  Grh g;
  g.trafficClass = 0x20;
  g.flowLabel = 0x54321;
  g.hopLimit = 64;
  g.sgid = gid("fe80::1");
  g.dgid = gid("fe80::2");
  return g;
}

TEST(IbBuilder, RoceV2Ipv4MatchesTheIndependentFrame) {
  RoceAddressing a;
  a.ecn = 2;
  a.ipId = 0x1234;
  IbPacket p;
  p.bth.opcode = static_cast<std::uint8_t>(IbOpcode::RcRdmaWriteOnly);
  p.bth.migReq = true;
  p.bth.destQp = 0x11;
  p.bth.ackReq = true;
  p.bth.psn = 12042734;
  p.reth = Reth{0x00007f0012345678ull, 0xabcd, 5};
  p.payload = {'h', 'e', 'l', 'l', 'o'};
  const auto f = buildRoceV2(a, p);
  EXPECT_EQ(f, test::kRoceV2Ipv4Write);
  EXPECT_EQ(decodeFrame(f, LinkType::Ethernet).crc, CrcStatus::Good);
  const auto parsed = parseIbFrame(f, LinkType::Ethernet);
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->packet.reth, p.reth);
  EXPECT_EQ(parsed->packet.payload, p.payload);
  EXPECT_EQ(parsed->packet.bth.padCount, 3);
  EXPECT_EQ(parsed->ecn, 2);
  EXPECT_EQ(parsed->srcIp->toString(), "10.0.0.1");
  EXPECT_EQ(parsed->icrcWire, parsed->icrcComputed);
}

TEST(IbBuilder, EveryCarrierRoundTripsAndVerifies) {
  IbPacket p;
  p.bth.opcode = static_cast<std::uint8_t>(IbOpcode::RcSendOnly);
  p.bth.destQp = 0x11;
  p.bth.ackReq = true;
  p.bth.migReq = true;
  p.bth.psn = 7;
  p.payload = {'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'};
  RoceAddressing v6;
  v6.srcIp = *IpAddress::parse("fe80::1");
  v6.dstIp = *IpAddress::parse("fe80::2");
  v6.dscp = 26;
  v6.flowLabel = 0x12345;
  const auto f6 = buildRoceV2(v6, p);
  EXPECT_EQ(f6, test::kRoceV2Ipv6Send);
  RoceV1Addressing v1;
  v1.grh = sampleGrh();
  NativeIbAddressing local;
  local.lrh.sl = 3;
  local.lrh.dlid = 2;
  local.lrh.slid = 1;
  NativeIbAddressing global = local;
  global.grh = sampleGrh();
  RoceAddressing tagged;
  tagged.vlan = VlanTag{5, true, 0x123};
  const std::vector<std::pair<LinkType, std::vector<std::uint8_t>>> frames = {
      {LinkType::Ethernet, f6},
      {LinkType::Ethernet, buildRoceV2(tagged, p)},
      {LinkType::Ethernet, buildRoceV1(v1, p)},
      {LinkType::InfiniBand, buildNativeIb(local, p)},
      {LinkType::InfiniBand, buildNativeIb(global, p)},
      {LinkType::Erf, wrapErfInfiniband(buildNativeIb(global, p))},
  };
  for (const auto& [link, f] : frames) {
    EXPECT_EQ(verifyFrameCrc(f, link), CrcStatus::Good);
    const auto d = decodeFrame(f, link);
    EXPECT_EQ(d.crc, CrcStatus::Good);
    EXPECT_TRUE(d.diagnostics.empty()) << d.diagnostics.front().message;
    const auto parsed = parseIbFrame(f, link);
    ASSERT_TRUE(parsed);
    EXPECT_EQ(parsed->packet.payload, p.payload);
    EXPECT_EQ(parsed->packet.bth.psn, 7u);
  }
  const auto vlan = parseIbFrame(frames[1].second, LinkType::Ethernet);
  EXPECT_EQ(vlan->vlan, tagged.vlan);
  const auto g = parseIbFrame(frames[4].second, LinkType::InfiniBand);
  EXPECT_EQ(g->carrier, IbCarrier::NativeIb);
  EXPECT_EQ(g->grh->sgid, gid("fe80::1"));
  EXPECT_EQ(g->lrh->lnh, 3);
  EXPECT_EQ(g->lrh->pktLen, (8 + 40 + 12 + 8 + 4) / 4);
}

TEST(IbBuilder, RoceV1AndNativeMatchTheIndependentFrames) {
  IbPacket ack;
  ack.bth.opcode = static_cast<std::uint8_t>(IbOpcode::RcAcknowledge);
  ack.bth.destQp = 0x11;
  ack.bth.psn = 9;
  ack.aeth = Aeth::ack(5);
  RoceV1Addressing v1;
  v1.grh = sampleGrh();
  EXPECT_EQ(buildRoceV1(v1, ack), test::kRoceV1Ack);

  NativeIbAddressing local;
  local.lrh.sl = 3;
  local.lrh.dlid = 2;
  local.lrh.slid = 1;
  IbPacket ud;
  ud.bth.opcode = static_cast<std::uint8_t>(IbOpcode::UdSendOnly);
  ud.bth.destQp = 0x11;
  ud.bth.psn = 1;
  ud.deth = Deth{0x11111111, 0x123};
  ud.payload = {'x', 'y', 'z'};
  EXPECT_EQ(buildNativeIb(local, ud), test::kNativeLocalUd);

  NativeIbAddressing global = local;
  global.grh = sampleGrh();
  IbPacket send;
  send.bth.opcode = static_cast<std::uint8_t>(IbOpcode::RcSendOnly);
  send.bth.migReq = true;
  send.bth.destQp = 0x11;
  send.bth.ackReq = true;
  send.bth.psn = 3;
  send.payload = {'a', 'b', 'c', 'd'};
  EXPECT_EQ(buildNativeIb(global, send), test::kNativeGlobalSend);

  // Reading the independent frames back gives the same typed packets.
  auto parsed = parseIbPacket(test::kNativeLocalUd, LinkType::InfiniBand);
  ASSERT_TRUE(parsed);
  ud.bth.padCount = 1;
  EXPECT_EQ(*parsed, ud);
  parsed = parseIbPacket(test::kRoceV1Ack);
  ASSERT_TRUE(parsed);
  EXPECT_EQ(*parsed, ack);
  std::string error;
  EXPECT_FALSE(parseIbFrame(std::vector<std::uint8_t>(20, 0), LinkType::Ethernet, {}, &error));
  EXPECT_FALSE(error.empty());
}

TEST(IbBuilder, SamplesCoverEveryOpcodeAndParseBack) {
  const auto samples = sampleIbFrames();
  std::set<std::uint8_t> seen;
  for (const auto& s : samples) {
    const auto parsed = parseIbFrame(s.bytes, s.link);
    ASSERT_TRUE(parsed) << s.description;
    EXPECT_EQ(parsed->crc, CrcStatus::Good) << s.description;
    seen.insert(parsed->packet.bth.opcode);
    // Rebuilding from the parsed packet gives the same transport bytes.
    const auto transport = encodeIbTransport(parsed->packet);
    EXPECT_TRUE(std::equal(transport.begin(), transport.end(),
                           s.bytes.begin() + static_cast<std::ptrdiff_t>(parsed->bthOffset)))
        << s.description;
    const auto* info = ibOpcodeInfo(parsed->packet.bth.opcode);
    ASSERT_NE(info, nullptr);
    for (const auto e : info->extensions()) {
      switch (e) {
        case IbExt::Reth:
          EXPECT_TRUE(parsed->packet.reth) << s.description;
          break;
        case IbExt::Deth:
          EXPECT_EQ(parsed->packet.deth->qkey, 0x11111111u) << s.description;
          break;
        case IbExt::AtomicEth:
          EXPECT_EQ(parsed->packet.atomicEth->compare, 6u) << s.description;
          break;
        default:
          break;
      }
    }
  }
  EXPECT_EQ(seen.size(), std::size(kIbOpcodeTable));
}

TEST(IbBuilder, VerifyFrameCrcThroughput) {
  IbPacket p;
  p.bth.opcode = static_cast<std::uint8_t>(IbOpcode::RcRdmaWriteMiddle);
  p.payload.assign(4096, 0xab);
  const auto f = buildRoceV2({}, p);
  const int n = 20000;
  const auto t0 = std::chrono::steady_clock::now();
  int good = 0;
  for (int i = 0; i < n; ++i)
    good += verifyFrameCrc(f, LinkType::Ethernet) == CrcStatus::Good;
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(good, n);
  const auto t1 = std::chrono::steady_clock::now();
  volatile std::uint32_t sink = 0;
  for (int i = 0; i < n; ++i)
    sink = sink ^ crc32(f);
  const double raw = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  std::printf(
      "verifyFrameCrc: %.2f GB/s, raw crc32 over the same bytes: %.2f GB/s (%d frames of "
      "%zu bytes)\n",
      static_cast<double>(f.size()) * n / s / 1e9, static_cast<double>(f.size()) * n / raw / 1e9, n,
      f.size());
}

}  // namespace
}  // namespace rdmascope::packets
