// Decoding management datagrams: the CM handshake of sampleCmFrames() field by field, the
// packet-list text, display filters on CM fields, the ICRC of these UD packets, other MAD
// classes and short or odd MADs.
#include <gtest/gtest.h>

#include <string>

#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/display_filter.h"
#include "rdmascope/packets/field_registry.h"
#include "rdmascope/packets/mad_builder.h"

namespace rdmascope::packets {
namespace {

const std::vector<SampleFrame>& frames() {
  static const auto f = sampleCmFrames();
  return f;
}

Dissection decoded(std::size_t i) {
  return decodeFrame(frames().at(i).bytes, frames().at(i).link);
}

std::uint64_t number(const Dissection& d, std::string_view key) {
  const Node* n = d.find(key);
  EXPECT_TRUE(n && n->hasNumber) << key;
  return n && n->hasNumber ? n->number : ~0ull;
}

std::string value(const Dissection& d, std::string_view key) {
  const Node* n = d.find(key);
  return n ? n->value : "<absent>";
}

TEST(MadDissector, EverySampleVerifiesAndNamesItsMessage) {
  const char* expected[] = {"CM ConnectRequest", "CM MsgRcptAck",        "CM ConnectReply",
                            "CM ReadyToUse",     "CM DisconnectRequest", "CM DisconnectReply",
                            "CM ConnectRequest", "CM ConnectReject",     "CM ConnectRequest",
                            "CM ConnectRequest", "CM ConnectRequest"};
  ASSERT_EQ(frames().size(), std::size(expected));
  for (std::size_t i = 0; i < frames().size(); ++i) {
    const auto d = decoded(i);
    EXPECT_EQ(d.crc, CrcStatus::Good) << frames()[i].description;
    EXPECT_FALSE(d.hasErrors()) << frames()[i].description;
    EXPECT_EQ(d.summary.info.rfind(expected[i], 0), 0u)
        << frames()[i].description << ": " << d.summary.info;
    EXPECT_TRUE(d.find("infiniband.cm")) << frames()[i].description;
    EXPECT_EQ(value(d, "infiniband.mad.mgmtclass"), "0x07");
    EXPECT_EQ(d.find("data.data"), nullptr) << "the MAD is decoded, not shown as data";
    for (const auto& n : d.nodes)
      EXPECT_TRUE(n.key.empty() || isKnownFieldKey(n.key)) << n.key << " is not registered";
  }
}

TEST(MadDissector, ReqFieldsAndRdmaCmPrivateData) {
  const auto d = decoded(0);
  EXPECT_EQ(d.summary.info,
            "CM ConnectRequest QPN=0x000011 PSN=5913631 svc port 18515 (RDMA_PS_TCP) "
            "CommID=0x3c1a5e01");
  EXPECT_EQ(value(d, "infiniband.cm.req"), "0x3c1a5e01");
  EXPECT_EQ(number(d, "infiniband.cm.req.localqpn"), 0x11u);
  EXPECT_EQ(value(d, "infiniband.cm.req.serviceid"), "0x0000000001064853");
  EXPECT_EQ(number(d, "infiniband.cm.req.serviceid.dport"), 18515u);
  EXPECT_EQ(value(d, "infiniband.cm.req.serviceid.protocol"), "0x06");
  EXPECT_EQ(number(d, "infiniband.cm.req.startpsn"), 0x5a3c1fu);
  EXPECT_EQ(number(d, "infiniband.cm.req.pppmtu"), 3u);
  EXPECT_NE(d.find("infiniband.cm.req.pppmtu")->label.find("1024"), std::string::npos);
  EXPECT_EQ(value(d, "infiniband.cm.req.prim_localgid"), "::ffff:10.0.0.1");
  EXPECT_EQ(value(d, "infiniband.cm.req.prim_localgid_ipv4"), "10.0.0.1");
  EXPECT_EQ(value(d, "infiniband.cm.req.prim_remotegid_ipv4"), "10.0.0.2");
  EXPECT_EQ(number(d, "infiniband.cm.req.prim_flowlabel"), 0x1a2b3u);
  EXPECT_EQ(number(d, "infiniband.cm.req.prim_pktrate"), 3u);
  EXPECT_EQ(number(d, "infiniband.cm.req.prim_localacktout"), 18u);
  EXPECT_EQ(number(d, "infiniband.cm.req.ip_cm.ipv"), 4u);
  EXPECT_EQ(number(d, "infiniband.cm.req.ip_cm.sport"), 40123u);
  EXPECT_EQ(value(d, "infiniband.cm.req.ip_cm.sip4"), "10.0.0.1");
  EXPECT_EQ(value(d, "infiniband.cm.req.ip_cm.dip4"), "10.0.0.2");
  EXPECT_EQ(value(d, "infiniband.cm.req.ip_cm.private").substr(0, 18), "72646d6173636f7065");
  EXPECT_EQ(d.find("infiniband.cm.req.private"), nullptr);
  // The MAD node covers the 256 bytes after the DETH; the CM node the last 232 of them.
  const Node* mad = d.find("infiniband.mad");
  const Node* cm = d.find("infiniband.cm");
  ASSERT_TRUE(mad && cm);
  EXPECT_EQ(mad->length, 256u);
  EXPECT_EQ(mad->offset, 14u + 20 + 8 + 12 + 8);
  EXPECT_EQ(cm->offset, mad->offset + 24);
  EXPECT_EQ(cm->length, 232u);
  // Every field node lies inside the CM message (the hex view highlights these ranges).
  for (const auto& n : d.nodes)
    if (n.key.starts_with("infiniband.cm.")) {
      EXPECT_GE(n.offset, cm->offset) << n.key;
      EXPECT_LE(n.offset + n.length, cm->offset + cm->length) << n.key;
    }

  const auto v6 = decoded(8);
  EXPECT_EQ(value(v6, "infiniband.cm.req.prim_localgid"), "fd00::1");
  EXPECT_EQ(v6.find("infiniband.cm.req.prim_localgid_ipv4"), nullptr);
  EXPECT_EQ(value(v6, "infiniband.cm.req.ip_cm.sip6"), "fd00::1");
  EXPECT_EQ(value(v6, "infiniband.cm.req.ip_cm.dip6"), "fd00::2");

  const auto native = decoded(10);
  EXPECT_EQ(value(native, "infiniband.cm.req.serviceid"), "0x0000000000001234");
  EXPECT_EQ(native.find("infiniband.cm.req.serviceid.dport"), nullptr);
  EXPECT_EQ(native.find("infiniband.cm.req.ip_cm"), nullptr);
  EXPECT_EQ(value(native, "infiniband.cm.req.private").substr(0, 8), "01020300");
  EXPECT_EQ(number(native, "infiniband.cm.req.prim_locallid"), 1u);
  EXPECT_NE(native.summary.info.find("ServiceID=0x0000000000001234"), std::string::npos);
}

TEST(MadDissector, RepRejMraDreqFields) {
  const auto mra = decoded(1);
  EXPECT_EQ(mra.summary.info, "CM MsgRcptAck of REQ timeout=21 CommID=0x7b22f002");
  EXPECT_EQ(number(mra, "infiniband.cm.mra.svctimeout"), 21u);
  const auto rep = decoded(2);
  EXPECT_EQ(rep.summary.info,
            "CM ConnectReply QPN=0x000012 PSN=2969199 CommID=0x7b22f002 Remote=0x3c1a5e01");
  EXPECT_EQ(value(rep, "infiniband.cm.rep.localqpn"), "0x000012");
  EXPECT_EQ(number(rep, "infiniband.cm.rep.tgtackdelay"), 15u);
  EXPECT_EQ(number(rep, "infiniband.cm.rep.failoveracc"), 3u);
  EXPECT_EQ(number(rep, "infiniband.cm.rep.rnrretrcount"), 7u);
  EXPECT_EQ(value(rep, "infiniband.cm.rep.localcaguid"), "0x5254000102030406");
  const auto rtu = decoded(3);
  EXPECT_EQ(rtu.summary.info, "CM ReadyToUse CommID=0x3c1a5e01 Remote=0x7b22f002");
  const auto dreq = decoded(4);
  EXPECT_EQ(dreq.summary.info, "CM DisconnectRequest QPN=0x000012 CommID=0x3c1a5e01");
  EXPECT_EQ(value(dreq, "infiniband.cm.req.remoteqpneecn"), "0x000012");
  const auto rej = decoded(7);
  EXPECT_EQ(rej.summary.info, "CM ConnectReject of REQ: Consumer Reject (28) CommID=0x7b22f003");
  EXPECT_EQ(value(rej, "infiniband.cm.rej.reason"), "0x001c");
  EXPECT_EQ(rej.find("infiniband.cm.rej.reason")->label, "Reason: Consumer Reject (0x001c)");
  EXPECT_EQ(value(rej, "infiniband.cm.rej.private").substr(0, 6), "6e6f00");
  EXPECT_EQ(rej.find("infiniband.mad.attributeid")->label, "Attribute ID: ConnectReject (0x0012)");
}

TEST(MadDissector, DisplayFiltersSelectCmMessages) {
  const auto count = [](const char* text) {
    std::string error;
    const auto f = DisplayFilter::compile(text, error);
    EXPECT_TRUE(f) << text << ": " << error;
    std::size_t n = 0;
    for (std::size_t i = 0; f && i < frames().size(); ++i)
      n += f->matches(decoded(i));
    return n;
  };
  EXPECT_EQ(count("infiniband.mad.attributeid == ConnectRequest"), 5u);
  EXPECT_EQ(count("infiniband.mad.attributeid == 0x0013"), 1u);
  EXPECT_EQ(count("infiniband.cm.rej.reason == 28"), 1u);
  EXPECT_EQ(count("infiniband.cm.req.serviceid.dport == 18515 && ip.src == 10.0.0.1"), 2u);
  EXPECT_EQ(count("infiniband.cm"), frames().size());
  EXPECT_EQ(count("infiniband.cm.req.ip_cm.sip6 == fd00::1"), 1u);
  EXPECT_EQ(count("infiniband.mad.method.r == 0"), frames().size());
}

TEST(MadDissector, OneCorruptedMadByteMakesTheIcrcBad) {
  auto bytes = frames()[2].bytes;
  bytes[14 + 20 + 8 + 12 + 8 + 24 + 14] ^= 1;  // the low bit of the REP's local QPN
  const auto d = decodeFrame(bytes, LinkType::Ethernet);
  EXPECT_EQ(d.crc, CrcStatus::Bad);
  EXPECT_EQ(value(d, "infiniband.cm.rep.localqpn"), "0x000013");
}

IbPacket madPacket(std::size_t size, std::uint8_t mgmtClass, std::uint32_t destQp) {
  IbPacket p;
  p.bth.opcode = static_cast<std::uint8_t>(IbOpcode::UdSendOnly);
  p.bth.destQp = destQp;
  p.deth = Deth{kGsiQkey, 1};
  MadHeader h;
  h.mgmtClass = mgmtClass;
  h.method = 0x01;
  h.attributeId = 0x0011;
  const auto mad = encodeMad(h, {});
  p.payload.assign(mad.begin(), mad.begin() + static_cast<std::ptrdiff_t>(size));
  return p;
}

TEST(MadDissector, OtherClassesShortMadsAndOrdinaryUd) {
  const auto smp = decodeFrame(buildRoceV2({}, madPacket(256, 0x01, 0)), LinkType::Ethernet);
  EXPECT_EQ(smp.summary.info, "MAD Subnet Management (LID routed) Get attr=0x0011");
  EXPECT_EQ(smp.find("infiniband.cm"), nullptr);
  EXPECT_EQ(value(smp, "infiniband.mad.data").size(), 232u * 2);
  EXPECT_FALSE(smp.hasErrors());

  const auto shortMad = decodeFrame(buildRoceV2({}, madPacket(100, 0x07, 1)), LinkType::Ethernet);
  EXPECT_TRUE(shortMad.hasErrors());
  EXPECT_EQ(shortMad.crc, CrcStatus::Good);
  EXPECT_EQ(value(shortMad, "infiniband.mad.mgmtclass"), "0x07");
  EXPECT_EQ(shortMad.find("infiniband.cm"), nullptr);
  EXPECT_EQ(number(shortMad, "data.len"), 76u);

  const auto header = decodeFrame(buildRoceV2({}, madPacket(10, 0x07, 1)), LinkType::Ethernet);
  EXPECT_TRUE(header.hasErrors());
  EXPECT_EQ(header.find("infiniband.mad"), nullptr);
  EXPECT_TRUE(header.find("data.data"));

  // UD traffic between ordinary QPs stays payload.
  auto ud = madPacket(256, 0x07, 0x42);
  ud.deth->srcQp = 0x43;
  const auto plain = decodeFrame(buildRoceV2({}, ud), LinkType::Ethernet);
  EXPECT_EQ(plain.find("infiniband.mad"), nullptr);
  EXPECT_TRUE(plain.find("data.data"));

  // An unknown CM attribute is named as such; reserved reject reasons are flagged.
  auto unknown = madPacket(256, 0x07, 1);
  unknown.payload[17] = 0x99;
  const auto u = decodeFrame(buildRoceV2({}, unknown), LinkType::Ethernet);
  EXPECT_EQ(u.summary.info, "CM attribute 0x0099");
  EXPECT_FALSE(u.diagnostics.empty());
  const auto rej =
      decodeFrame(buildRoceV2({}, cmPacket(CmRej{1, 2, 0, 0, 34, {}, {}}, 1)), LinkType::Ethernet);
  EXPECT_NE(rej.summary.info.find("reserved reason (34)"), std::string::npos) << rej.summary.info;
  ASSERT_FALSE(rej.diagnostics.empty());
  EXPECT_EQ(rej.diagnostics[0].message, "CM reject reason 34 is reserved");
}

}  // namespace
}  // namespace rdmascope::packets
