// ICRC/VCRC and the dissector on frames whose CRCs were computed independently (Python's
// zlib.crc32 and a bitwise CRC-16, see the comment above the vectors) and on a real RoCEv2
// CNP captured on a ConnectX-4 Lx (published in scapy's test/contrib/roce.uts).
#include "rdmascope/packets/ib_crc.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

#include "ib_test_vectors.h"
#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/ib_builder.h"

namespace rdmascope::packets {
namespace {

using namespace test;

struct Vector {
  const char* name;
  const std::vector<std::uint8_t>* bytes;
  LinkType link;
  std::size_t bth;               // where the IB transport starts
  std::set<std::size_t> masked;  // bytes the ICRC masks or does not cover (Good when changed)
};

std::vector<Vector> vectors() {
  std::set<std::size_t> macs;
  for (std::size_t i = 0; i < 12; ++i)
    macs.insert(i);
  auto with = [](std::set<std::size_t> s, std::initializer_list<std::size_t> more) {
    s.insert(more);
    return s;
  };
  return {
      // IPv4 TOS, TTL, header checksum, UDP checksum, BTH byte 4.
      {"RoCEv2/IPv4", &kRoceV2Ipv4Write, LinkType::Ethernet, 42,
       with(macs, {15, 22, 24, 25, 40, 41, 46})},
      {"real CNP", &kRealCnp, LinkType::Ethernet, 42, with(macs, {15, 22, 24, 25, 40, 41, 46})},
      // IPv6 traffic class + flow label (bytes 0 low nibble..3), hop limit, UDP checksum, BTH 4.
      {"RoCEv2/IPv6", &kRoceV2Ipv6Send, LinkType::Ethernet, 62,
       with(macs, {15, 16, 17, 21, 60, 61, 66})},
      // GRH traffic class + flow label, hop limit, BTH byte 4.
      {"RoCEv1", &kRoceV1Ack, LinkType::Ethernet, 54, with(macs, {15, 16, 17, 21, 58})},
      // Native packets: the VCRC covers every byte.
      {"native local", &kNativeLocalUd, LinkType::InfiniBand, 8, {}},
      {"native global", &kNativeGlobalSend, LinkType::InfiniBand, 48, {}},
  };
}

TEST(IbCrc, IndependentVectorsAndRealFrameAreGood) {
  for (const auto& v : vectors()) {
    const auto d = decodeFrame(*v.bytes, v.link);
    EXPECT_EQ(d.crc, CrcStatus::Good) << v.name;
    EXPECT_FALSE(d.hasErrors()) << v.name << ": "
                                << (d.diagnostics.empty() ? "" : d.diagnostics[0].message);
    EXPECT_EQ(verifyFrameCrc(*v.bytes, v.link), CrcStatus::Good) << v.name;
    ASSERT_NE(d.find("infiniband.icrc.status"), nullptr) << v.name;
    EXPECT_EQ(d.find("infiniband.icrc.status")->value, "good") << v.name;
  }
  const auto cnp = decodeFrame(kRealCnp, LinkType::Ethernet);
  EXPECT_EQ(cnp.find("infiniband.icrc.value")->value, "0x2a00fd82");
  EXPECT_EQ(cnp.find("infiniband.invariant.crc")->value, "0x82fd002a");  // as tshark shows it
  EXPECT_EQ(cnp.find("infiniband.bth.becn")->value, "1");
  EXPECT_EQ(cnp.find("infiniband.bth.fecn")->value, "0");
  EXPECT_EQ(cnp.find("infiniband.bth.destqp")->value, "0x000118");
  EXPECT_NE(cnp.find("infiniband.cnp.reserved"), nullptr);
  EXPECT_EQ(cnp.summary.info, "CNP QP=0x000118 PSN=0");
  const auto native = decodeFrame(kNativeLocalUd, LinkType::InfiniBand);
  EXPECT_EQ(native.find("infiniband.vcrc.status")->value, "good");
}

TEST(IbCrc, EverySingleByteCorruptionIsCaughtUnlessMasked) {
  for (const auto& v : vectors()) {
    for (std::size_t i = 0; i < v.bytes->size(); ++i) {
      auto bad = *v.bytes;
      bad[i] ^= 0x5a;
      const auto d = decodeFrame(bad, v.link);
      const auto fast = verifyFrameCrc(bad, v.link);
      if (v.masked.count(i)) {
        // Masked by the ICRC or outside it (MAC addresses): still Good.
        EXPECT_EQ(d.crc, CrcStatus::Good) << v.name << " byte " << i;
        EXPECT_EQ(fast, CrcStatus::Good) << v.name << " byte " << i;
      } else if (i >= v.bth) {
        // Inside the IB packet every change is an ICRC (or VCRC) error.
        EXPECT_EQ(d.crc, CrcStatus::Bad) << v.name << " byte " << i;
        EXPECT_TRUE(d.hasErrors()) << v.name << " byte " << i;
        EXPECT_EQ(fast, CrcStatus::Bad) << v.name << " byte " << i;
      } else {
        // Carrier bytes: either the CRC fails, or the frame stops being an IB frame at all
        // (ethertype, IP version/protocol, UDP port, lengths) and no CRC is claimed Good.
        EXPECT_NE(d.crc, CrcStatus::Good) << v.name << " byte " << i;
        EXPECT_NE(fast, CrcStatus::Good) << v.name << " byte " << i;
      }
    }
  }
}

TEST(IbCrc, MismatchNamesComputedAndWireValues) {
  auto bad = kRealCnp;
  bad[bad.size() - 1] ^= 1;
  const auto d = decodeFrame(bad, LinkType::Ethernet);
  ASSERT_TRUE(d.hasErrors());
  bool found = false;
  for (const auto& diag : d.diagnostics) {
    if (diag.message.find("bad ICRC") == std::string::npos) continue;
    found = true;
    EXPECT_EQ(diag.severity, Severity::Error);
    EXPECT_NE(diag.message.find("0x2a00fd82"), std::string::npos) << diag.message;
    EXPECT_NE(diag.message.find("0x2b00fd82"), std::string::npos) << diag.message;
    ASSERT_GE(diag.node, 0);
    EXPECT_EQ(d.nodes[diag.node].key, "infiniband.invariant.crc");
  }
  EXPECT_TRUE(found);
  // A VL change passes the ICRC (VL is masked) but not the VCRC.
  auto vl = kNativeLocalUd;
  vl[0] ^= 0x30;
  const auto n = decodeFrame(vl, LinkType::InfiniBand);
  EXPECT_EQ(n.find("infiniband.icrc.status")->value, "good");
  EXPECT_EQ(n.find("infiniband.vcrc.status")->value, "bad");
  EXPECT_EQ(n.crc, CrcStatus::Bad);
}

TEST(IbCrc, TruncationAtEveryLengthIsADiagnosticNeverACrash) {
  auto samples = sampleIbFrames();
  for (const auto& v : vectors())
    samples.push_back({v.link, *v.bytes, v.name});
  for (const auto& s : samples) {
    // ERF records are padded to 8 bytes; cutting the padding leaves the packet whole.
    const std::size_t whole =
        s.link == LinkType::Erf ? 16u + ((s.bytes[14] << 8) | s.bytes[15]) : s.bytes.size();
    for (std::size_t n = 0; n < whole; ++n) {
      const std::vector<std::uint8_t> cut(s.bytes.begin(), s.bytes.begin() + n);
      const auto d = decodeFrame(cut, s.link);
      EXPECT_TRUE(d.hasErrors()) << s.description << " cut at " << n;
      EXPECT_NE(d.crc, CrcStatus::Good) << s.description << " cut at " << n;
      EXPECT_NE(verifyFrameCrc(cut, s.link), CrcStatus::Good) << s.description << " cut at " << n;
    }
  }
}

TEST(IbCrc, RandomMutationsNeverCrash) {
  std::mt19937 rng(7);
  const auto samples = sampleIbFrames();
  for (int round = 0; round < 3000; ++round) {
    auto s = samples[rng() % samples.size()];
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < flips; ++k)
      s.bytes[rng() % s.bytes.size()] = static_cast<std::uint8_t>(rng());
    if (rng() % 3 == 0) s.bytes.resize(rng() % (s.bytes.size() + 1));
    const auto d = decodeFrame(s.bytes, s.link);
    EXPECT_LE(d.nodes.size(), 400u);
    (void)verifyFrameCrc(s.bytes, s.link);
    (void)parseIbFrame(s.bytes, s.link);
  }
}

TEST(IbDissector, FieldsSummaryAndTree) {
  const auto d = decodeFrame(kRoceV2Ipv4Write, LinkType::Ethernet);
  EXPECT_EQ(d.summary.protocol, "RRoCE");
  EXPECT_EQ(d.summary.info,
            "RC RDMA WRITE Only QP=0x000011 PSN=12042734 VA=0x00007f0012345678 R_Key=0x0000abcd "
            "Len=5");
  EXPECT_EQ(d.find("infiniband.bth.opcode")->value, "10");
  EXPECT_EQ(d.find("infiniband.bth.opcode")->label, "Opcode: RC RDMA Write Only (10)");
  EXPECT_EQ(d.find("infiniband.bth.padcnt")->value, "3");
  EXPECT_EQ(d.find("infiniband.reth.dmalen")->value, "5");
  EXPECT_EQ(d.find("data.data")->value, "68656c6c6f");  // pad excluded (tshark includes it)
  EXPECT_EQ(d.find("infiniband.pad")->length, 3u);
  const auto* bth = d.find("infiniband.bth");
  ASSERT_NE(bth, nullptr);
  EXPECT_EQ(bth->offset, 42u);
  EXPECT_EQ(bth->length, 12u);
  EXPECT_EQ(d.nodes[bth->parent].key, "infiniband");

  const auto ack = decodeFrame(kRoceV1Ack, LinkType::Ethernet);
  EXPECT_EQ(ack.summary.protocol, "RoCE");
  EXPECT_EQ(ack.summary.info, "RC Acknowledge QP=0x000011 PSN=9 ACK credits=31 (unlimited) MSN=5");
  EXPECT_EQ(ack.find("infiniband.aeth.syndrome.credit_count")->value, "31");
  EXPECT_EQ(ack.find("infiniband.grh.flowlabel")->value, "344865");

  const auto ud = decodeFrame(kNativeLocalUd, LinkType::InfiniBand);
  EXPECT_EQ(ud.summary.protocol, "InfiniBand");
  EXPECT_EQ(ud.find("infiniband.lrh.pktlen")->value, "9");
  EXPECT_EQ(ud.find("infiniband.deth.srcqp")->value, "0x00000123");
  EXPECT_EQ(ud.find("data.data")->value, "78797a");
  const auto erf = decodeFrame(wrapErfInfiniband(kNativeGlobalSend), LinkType::Erf);
  EXPECT_EQ(erf.find("erf.types.type")->value, "21");
  EXPECT_EQ(erf.find("infiniband.grh.nxthdr")->value, "27");
  EXPECT_EQ(erf.crc, CrcStatus::Good);
}

TEST(IbDissector, RnrAndNakAreSpelledOut) {
  IbPacket p;
  p.bth.opcode = static_cast<std::uint8_t>(IbOpcode::RcAcknowledge);
  p.aeth = Aeth::rnrNak(4, 1);
  auto d = decodeFrame(buildRoceV2({}, p), LinkType::Ethernet);
  EXPECT_EQ(d.find("infiniband.aeth.syndrome.timer")->value, "1");
  EXPECT_EQ(d.find("infiniband.aeth.rnr_timer_ms")->value, "0.01");
  EXPECT_NE(d.summary.info.find("RNR NAK timer=0.01 ms"), std::string::npos) << d.summary.info;
  p.aeth = Aeth::nak(4, NakCode::RemoteAccessError);
  d = decodeFrame(buildRoceV2({}, p), LinkType::Ethernet);
  EXPECT_EQ(d.find("infiniband.aeth.syndrome.error_code")->value, "2");
  EXPECT_NE(d.summary.info.find("NAK remote access error"), std::string::npos);
  p.bth.opcode = 0x18;  // unassigned
  d = decodeFrame(buildRoceV2({}, p), LinkType::Ethernet);
  EXPECT_EQ(d.crc, CrcStatus::Good);
  EXPECT_FALSE(d.diagnostics.empty());
}

// Found by fuzz_frame_decode: an IPv4 packet behind EtherType 0x86dd. The decoder sees no RoCE
// (the EtherType fixes the IP version); the allocation-free check must not verify it either.
TEST(IbCrc, TheEtherTypeFixesTheIpVersionForTheFastCheck) {
  IbPacket p;
  p.bth.opcode = 0x04;  // RC SEND Only
  p.bth.destQp = 0x11;
  p.payload.assign(16, 0x5a);
  auto frame = buildRoceV2({}, p);  // RoCEv2 over IPv4 by default
  ASSERT_EQ(verifyFrameCrc(frame, LinkType::Ethernet), CrcStatus::Good);
  frame[12] = 0x86;
  frame[13] = 0xdd;
  EXPECT_EQ(decodeFrame(frame, LinkType::Ethernet).crc, CrcStatus::Absent);
  EXPECT_EQ(verifyFrameCrc(frame, LinkType::Ethernet), CrcStatus::Absent);
}

}  // namespace
}  // namespace rdmascope::packets
