// RoCE behind every VLAN stacking and IPv6 extension chain tshark decodes: the decoder shows
// the carrier fields, the ICRC is verified (and a corrupt one found) by both the decoder and
// the allocation-free check, and a payload that cannot be reached is reported unverified.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../support/gcc12_vector_insert_warnings.h"
#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/ib_builder.h"
#include "rdmascope/packets/ib_crc.h"
#include "rdmascope/packets/net_headers.h"

namespace rdmascope::packets {
namespace {

IbPacket sendOnly() {
  IbPacket p;
  p.bth.opcode = 0x04;  // RC SEND Only
  p.bth.destQp = 0x11;
  p.bth.psn = 7;
  p.payload = {1, 2, 3, 4, 5, 6, 7};
  return p;
}

RoceAddressing v6() {
  RoceAddressing a;
  a.srcIp = *IpAddress::parse("fd00::1");
  a.dstIp = *IpAddress::parse("fd00::2");
  a.flowLabel = 0x12345;
  return a;
}

Ipv6Extension hopByHop() {
  return {kIpv6HopByHop, {0x05, 0x02, 0x00, 0x00}};  // Router Alert (MLD), padded by PadN
}
Ipv6Extension destinationOptions() {
  return {kIpv6DestinationOptions, {0x1e, 0x01, 0xaa}};  // an unknown option, padded
}
// A segment routing header at its last segment: type 4, segments left 0, last entry 0, one
// segment (the destination, fd00::2).
Ipv6Extension routing() {
  Ipv6Extension e{kIpv6Routing, {0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0xfd}};
  e.body.insert(e.body.end(), 14, 0);
  e.body.push_back(2);
  return e;
}
Ipv6Extension fragment(std::uint16_t offsetUnits, bool more, std::uint32_t id) {
  const std::uint16_t word = static_cast<std::uint16_t>(offsetUnits << 3 | (more ? 1 : 0));
  return {kIpv6Fragment,
          {static_cast<std::uint8_t>(word >> 8), static_cast<std::uint8_t>(word),
           static_cast<std::uint8_t>(id >> 24), static_cast<std::uint8_t>(id >> 16),
           static_cast<std::uint8_t>(id >> 8), static_cast<std::uint8_t>(id)}};
}

struct Case {
  std::string name;
  RoceAddressing addr;
};

std::vector<Case> encapsulations() {
  std::vector<Case> out;
  auto add = [&](std::string name, RoceAddressing a) { out.push_back({std::move(name), a}); };
  RoceAddressing a;
  a.vlan = VlanTag{1, false, 10, kEtherTypeQinQ};
  add("802.1ad", a);
  a.vlan = VlanTag{2, true, 11, kEtherTypeQinQOld};
  add("0x9100", a);
  a.outerVlans = {VlanTag{3, false, 100, kEtherTypeQinQ}};
  a.vlan = VlanTag{4, false, 200};
  add("QinQ", a);
  a.outerVlans = {VlanTag{0, false, 1}, VlanTag{0, false, 2}};
  a.vlan = VlanTag{5, false, 3};
  add("three 0x8100", a);
  a.outerVlans = {VlanTag{0, false, 7, kEtherTypeQinQOld}, VlanTag{6, false, 8, kEtherTypeQinQ}};
  add("0x9100 0x88a8 0x8100", a);
  RoceAddressing b = v6();
  b.ipv6Extensions = {hopByHop()};
  add("hop-by-hop", b);
  b.ipv6Extensions = {destinationOptions()};
  add("destination options", b);
  b.ipv6Extensions = {routing()};
  add("routing", b);
  b.ipv6Extensions = {fragment(0, false, 0x1234)};
  add("atomic fragment", b);
  b.ipv6Extensions = {hopByHop(), destinationOptions(), routing(), fragment(0, false, 9),
                      destinationOptions()};
  add("chain", b);
  b.vlan = VlanTag{0, false, 42, kEtherTypeQinQ};
  b.outerVlans = {VlanTag{0, false, 41, kEtherTypeQinQOld}};
  add("tags and chain", b);
  return out;
}

const Node* nth(const Dissection& d, std::string_view key, int n) {
  for (const auto& node : d.nodes)
    if (node.key == key && n-- == 0) return &node;
  return nullptr;
}

TEST(RoceEncapsulation, EveryCarrierDecodesAsRoceWithAGoodIcrc) {
  for (const auto& c : encapsulations()) {
    const auto frame = buildRoceV2(c.addr, sendOnly());
    const auto d = decodeFrame(frame, LinkType::Ethernet);
    EXPECT_EQ(d.summary.protocol, "RRoCE") << c.name;
    EXPECT_EQ(d.crc, CrcStatus::Good) << c.name;
    EXPECT_FALSE(d.hasErrors()) << c.name;
    ASSERT_NE(d.find("infiniband.bth.psn"), nullptr) << c.name;
    EXPECT_EQ(d.find("infiniband.bth.psn")->number, 7u) << c.name;
    EXPECT_EQ(verifyFrameCrc(frame, LinkType::Ethernet), CrcStatus::Good) << c.name;
    const auto parsed = parseIbFrame(frame, LinkType::Ethernet);
    ASSERT_TRUE(parsed) << c.name;
    EXPECT_EQ(parsed->packet.payload, sendOnly().payload) << c.name;
    EXPECT_EQ(parsed->packet.bth.destQp, 0x11u) << c.name;
    EXPECT_EQ(parsed->vlan, c.addr.vlan) << c.name;
    EXPECT_EQ(parsed->outerVlans, c.addr.outerVlans) << c.name;
  }
}

// Corrupting any covered byte (an address, the BTH, the payload, the ICRC) makes the ICRC bad
// behind every carrier, for the decoder and for the fast check alike.
TEST(RoceEncapsulation, ACorruptIcrcIsFoundBehindEveryCarrier) {
  for (const auto& c : encapsulations()) {
    const auto good = buildRoceV2(c.addr, sendOnly());
    const auto parsed = parseIbFrame(good, LinkType::Ethernet);
    ASSERT_TRUE(parsed) << c.name;
    const std::size_t bth = parsed->bthOffset;
    const std::size_t ipDst = c.addr.srcIp.v6 ? bth - 8 - 16 : bth - 8 - 1;
    for (const std::size_t at : {bth + 11, good.size() - 5, good.size() - 2}) {
      auto bad = good;
      bad[at] ^= 0x40;
      EXPECT_EQ(decodeFrame(bad, LinkType::Ethernet).crc, CrcStatus::Bad) << c.name << " @" << at;
      EXPECT_EQ(verifyFrameCrc(bad, LinkType::Ethernet), CrcStatus::Bad) << c.name << " @" << at;
    }
    if (c.addr.ipv6Extensions.empty()) {
      auto bad = good;
      bad[ipDst] ^= 0x01;
      EXPECT_EQ(verifyFrameCrc(bad, LinkType::Ethernet), CrcStatus::Bad) << c.name;
    }
  }
}

// The rule chosen for extension headers (ib_crc.h): the ICRC covers the fixed IPv6 header and
// the UDP header, not the extension headers between them. So the ICRC of a packet with a
// chain equals the ICRC of the same packet without it (once the fields of the fixed header
// that describe the chain, payload length and next header, are the same), a change inside an
// extension header leaves the ICRC good, and one in the fixed header does not.
TEST(RoceEncapsulation, TheIcrcSkipsIpv6ExtensionHeadersAndCoversTheFixedHeader) {
  RoceAddressing plain = v6();
  RoceAddressing chained = v6();
  chained.ipv6Extensions = {hopByHop(), destinationOptions()};
  const auto a = buildRoceV2(plain, sendOnly());
  auto b = buildRoceV2(chained, sendOnly());
  const std::size_t ip = 14, ext = 16;
  ASSERT_EQ(b.size(), a.size() + ext);
  // The same bytes with the chain cut out and the fixed header's length and next header
  // rewritten to the chained frame's values carry the chained frame's ICRC.
  std::vector<std::uint8_t> cut(b.begin(), b.begin() + ip + 40);
  cut.insert(cut.end(), b.begin() + ip + 40 + ext, b.end());
  cut[ip + 4] = a[ip + 4];
  cut[ip + 5] = a[ip + 5];
  cut[ip + 6] = kIpProtoUdp;
  EXPECT_EQ(verifyFrameCrc(cut, LinkType::Ethernet), CrcStatus::Bad)
      << "payload length and next header are covered";
  cut[ip + 4] = b[ip + 4];
  cut[ip + 5] = b[ip + 5];
  cut[ip + 6] = b[ip + 6];
  IcrcLayout plainLayout{IcrcLayout::Kind::RoceV2Ipv6, ip, 40, ip + 48, cut.size() - 4, 0};
  IbCrcLocation loc;
  ASSERT_TRUE(locateIbPacket(b, LinkType::Ethernet, {}, loc));
  EXPECT_EQ(loc.layout.ipv6Extensions, ext);
  EXPECT_EQ(computeIcrc(cut, plainLayout), computeIcrc(b, loc.layout));
  // A byte inside the hop-by-hop option (may change in flight) does not touch the ICRC.
  auto hop = b;
  hop[ip + 40 + 2 + 2] ^= 0xff;
  EXPECT_EQ(verifyFrameCrc(hop, LinkType::Ethernet), CrcStatus::Good);
  EXPECT_EQ(decodeFrame(hop, LinkType::Ethernet).crc, CrcStatus::Good);
  // The fixed header's source address does; its traffic class, flow label and hop limit not.
  auto src = b;
  src[ip + 8 + 15] ^= 0x01;
  EXPECT_EQ(verifyFrameCrc(src, LinkType::Ethernet), CrcStatus::Bad);
  auto variant = b;
  variant[ip + 1] ^= 0xff;
  variant[ip + 3] ^= 0xff;
  variant[ip + 7] ^= 0xff;
  EXPECT_EQ(verifyFrameCrc(variant, LinkType::Ethernet), CrcStatus::Good);
}

TEST(RoceEncapsulation, CarrierFieldsUseTsharksKeys) {
  RoceAddressing a = v6();
  a.outerVlans = {VlanTag{3, false, 100, kEtherTypeQinQ}};
  a.vlan = VlanTag{5, true, 200, kEtherTypeVlan};
  a.ipv6Extensions = {hopByHop(), destinationOptions(), routing(), fragment(0, false, 0xabcdef01)};
  const auto d = decodeFrame(buildRoceV2(a, sendOnly()), LinkType::Ethernet);
  auto value = [&](std::string_view key, int n = 0) {
    const auto* node = nth(d, key, n);
    return node ? node->value : "<absent>";
  };
  EXPECT_EQ(value("eth.type"), "0x88a8");
  EXPECT_EQ(value("ieee8021ad.priority"), "3");
  EXPECT_EQ(value("ieee8021ad.id"), "100");
  EXPECT_EQ(value("ieee8021ah.etype"), "0x8100");
  EXPECT_EQ(value("vlan.priority"), "5");
  EXPECT_EQ(value("vlan.dei"), "1");
  EXPECT_EQ(value("vlan.id"), "200");
  EXPECT_EQ(value("vlan.etype"), "0x86dd");
  EXPECT_EQ(value("ipv6.nxt"), "0");
  EXPECT_EQ(value("ipv6.hopopts.nxt"), "60");
  EXPECT_EQ(value("ipv6.hopopts.len"), "0");
  EXPECT_EQ(value("ipv6.hopopts.len_oct"), "8");
  EXPECT_EQ(value("ipv6.opt.type"), "0x05");
  EXPECT_EQ(value("ipv6.opt.length"), "2");
  EXPECT_EQ(value("ipv6.opt.type", 1), "0x01");  // PadN of no data: 2 + 4 + 2 = 8 bytes
  EXPECT_EQ(value("ipv6.opt.padn", 0), "");
  EXPECT_EQ(value("ipv6.opt.type", 2), "0x1e");
  EXPECT_EQ(value("ipv6.opt.padn", 1), "00");  // 2 + 3 + PadN of one byte
  EXPECT_EQ(value("ipv6.dstopts.nxt"), "43");
  EXPECT_EQ(value("ipv6.routing.nxt"), "44");
  EXPECT_EQ(value("ipv6.routing.type"), "4");
  EXPECT_EQ(value("ipv6.routing.segleft"), "0");
  EXPECT_EQ(value("ipv6.fraghdr.nxt"), "17");
  EXPECT_EQ(value("ipv6.fraghdr.offset"), "0");
  EXPECT_EQ(value("ipv6.fraghdr.more"), "0");
  EXPECT_EQ(value("ipv6.fraghdr.ident"), "0xabcdef01");
  EXPECT_EQ(value("udp.dstport"), "4791");
  EXPECT_EQ(d.crc, CrcStatus::Good);
}

// Payloads that cannot be reached: a later fragment, a first fragment of a RoCE packet, ESP,
// an extension header not decoded. Each says why and is Unverified, never Absent or Good.
TEST(RoceEncapsulation, UnreachablePayloadsAreUnverifiedAndSaySo) {
  const auto whole = buildRoceV2(v6(), sendOnly());
  const std::size_t ip = 14;
  auto withNext = [&](std::uint8_t next, std::vector<std::uint8_t> header) {
    std::vector<std::uint8_t> f(whole.begin(), whole.begin() + ip + 40);
    f[ip + 6] = next;
    f.insert(f.end(), header.begin(), header.end());
    f.insert(f.end(), whole.begin() + ip + 40, whole.end());
    const std::size_t plen = f.size() - ip - 40;
    f[ip + 4] = static_cast<std::uint8_t>(plen >> 8);
    f[ip + 5] = static_cast<std::uint8_t>(plen);
    return f;
  };
  struct Unreachable {
    const char* name;
    std::vector<std::uint8_t> frame;
    const char* says;
  };
  const std::vector<Unreachable> cases = {
      {"later fragment", withNext(kIpv6Fragment, {17, 0, 0x00, 0x08, 0, 0, 0, 1}),
       "IPv6 fragment at offset 8"},
      {"first fragment", withNext(kIpv6Fragment, {17, 0, 0x00, 0x01, 0, 0, 0, 1}),
       "first IPv6 fragment of a RoCEv2 packet"},
      {"ESP", withNext(kIpProtoEsp, {0, 0, 0, 1, 0, 0, 0, 1}), "Encapsulating Security Payload"},
      {"AH", withNext(kIpProtoAh, {17, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1}), "Authentication Header"},
      {"mobility", withNext(135, {17, 0, 0, 0, 0, 0, 0, 0}), "Mobility header"},
  };
  for (const auto& c : cases) {
    const auto d = decodeFrame(c.frame, LinkType::Ethernet);
    EXPECT_EQ(d.crc, CrcStatus::Unverified) << c.name;
    EXPECT_EQ(verifyFrameCrc(c.frame, LinkType::Ethernet), CrcStatus::Absent) << c.name;
    bool said = false;
    for (const auto& diag : d.diagnostics)
      said = said || diag.message.find(c.says) != std::string::npos;
    EXPECT_TRUE(said) << c.name;
  }
  // A first fragment of something else is no RoCE packet: nothing to verify.
  auto other = withNext(kIpv6Fragment, {17, 0, 0x00, 0x01, 0, 0, 0, 1});
  other[ip + 40 + 8 + 2] = 0x12;  // UDP destination port 0x12b7 = 4791 becomes 0x12b6
  other[ip + 40 + 8 + 3] = 0xb6;
  EXPECT_EQ(decodeFrame(other, LinkType::Ethernet).crc, CrcStatus::Absent);
  // No next header (59) and ICMPv6 are known ends: nothing to verify either.
  EXPECT_EQ(decodeFrame(withNext(kIpv6NoNextHeader, {}), LinkType::Ethernet).crc,
            CrcStatus::Absent);
}

TEST(RoceEncapsulation, Ipv4FragmentsOfRoceAreUnverified) {
  RoceAddressing a;
  a.dontFragment = false;
  auto first = buildRoceV2(a, sendOnly());
  first[14 + 6] |= 0x20;  // more fragments
  EXPECT_EQ(decodeFrame(first, LinkType::Ethernet).crc, CrcStatus::Unverified);
  auto later = buildRoceV2(a, sendOnly());
  later[14 + 7] = 0x10;  // offset 128 bytes
  EXPECT_EQ(decodeFrame(later, LinkType::Ethernet).crc, CrcStatus::Unverified);
}

}  // namespace
}  // namespace rdmascope::packets
