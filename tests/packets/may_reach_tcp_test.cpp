// mayReachTcp (which frames the parallel passes and the GUI's filter may decode apart from the
// stream decoder): IPv6 carrying UDP straight after its fixed header is ruled out, IPv6 with
// extension headers or carrying TCP is not, and every frame it rules out decodes in a stream
// exactly as it decodes alone.
#include <gtest/gtest.h>

#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/ib_builder.h"
#include "rdmascope/packets/stream_decoder.h"

namespace rdmascope::packets {
namespace {

IbPacket sendOnly() {
  IbPacket p;
  p.bth.opcode = 0x04;
  p.bth.destQp = 0x11;
  p.bth.psn = 7;
  p.payload = {1, 2, 3, 4};
  return p;
}

RoceAddressing ipv6Addressing() {
  RoceAddressing a;
  a.srcIp = IpAddress::fromV6({0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1});
  a.dstIp = IpAddress::fromV6({0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2});
  return a;
}

TEST(MayReachTcp, RulesOutIpv6CarryingUdpButNotExtensionHeadersOrTcp) {
  RoceAddressing a = ipv6Addressing();
  const auto udp = buildRoceV2(a, sendOnly());
  EXPECT_FALSE(mayReachTcp(udp, LinkType::Ethernet));
  EXPECT_FALSE(mayReachTcp(std::span(udp).subspan(14), LinkType::Ipv6));
  EXPECT_FALSE(mayReachTcp(std::span(udp).subspan(14), LinkType::Raw));
  // Cut inside the IPv6 header: the dissector stops there.
  EXPECT_FALSE(mayReachTcp(std::span(udp).first(14 + 39), LinkType::Ethernet));

  auto tcp = udp;
  tcp[14 + 6] = 6;  // next header: TCP
  EXPECT_TRUE(mayReachTcp(tcp, LinkType::Ethernet));
  EXPECT_TRUE(mayReachTcp(std::span(tcp).subspan(14), LinkType::Ipv6));
  EXPECT_TRUE(decodeFrame(tcp, LinkType::Ethernet).find("tcp"));

  a.ipv6Extensions = {Ipv6Extension{60, {}}};  // destination options, then UDP
  EXPECT_TRUE(mayReachTcp(buildRoceV2(a, sendOnly()), LinkType::Ethernet));

  a = ipv6Addressing();
  a.vlan = VlanTag{0, false, 100, 0x8100};
  a.outerVlans = {VlanTag{0, false, 7, 0x88a8}};
  EXPECT_FALSE(mayReachTcp(buildRoceV2(a, sendOnly()), LinkType::Ethernet));
}

TEST(MayReachTcp, FramesItRulesOutDecodeInAStreamAsAlone) {
  std::size_t ruledOut = 0;
  CaptureDecoder stream;
  for (const auto& s : sampleIbFrames()) {
    if (s.link != LinkType::Ethernet) continue;
    for (std::size_t cut = 0; cut <= s.bytes.size(); cut += 5) {
      const auto frame = std::span(s.bytes).first(cut);
      const Dissection streamed = stream.decode(frame, s.link);
      if (mayReachTcp(frame, s.link)) continue;
      ++ruledOut;
      const Dissection alone = decodeFrame(frame, s.link);
      EXPECT_FALSE(streamed.find("tcp")) << s.description;
      ASSERT_EQ(streamed.nodes.size(), alone.nodes.size()) << s.description << " cut " << cut;
      EXPECT_EQ(streamed.summary.info, alone.summary.info) << s.description;
    }
  }
  EXPECT_GT(ruledOut, 1000u);
}

}  // namespace
}  // namespace rdmascope::packets
