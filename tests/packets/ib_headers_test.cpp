// Header encodings checked against bytes laid out by hand from the IBTA figures, both ways.
#include "rdmascope/packets/ib_headers.h"

#include <gtest/gtest.h>

#include <vector>

#include "rdmascope/packets/ib_builder.h"
#include "rdmascope/packets/ib_opcodes.h"

namespace rdmascope::packets {
namespace {

using Bytes = std::vector<std::uint8_t>;

template <typename T, typename Enc>
Bytes encoded(const T& h, std::size_t len, Enc enc) {
  Bytes b(len, 0xee);  // encoders must define every byte
  enc(h, std::span<std::uint8_t>(b));
  return b;
}

TEST(IbHeaders, BthBothDirections) {
  // opcode 0x0a; SE=1 M=0 Pad=2 TVer=0; P_Key 0x8001; FECN=1 BECN=0; QP 0x123456; A=1; PSN 0xabcdef
  const Bytes wire = {0x0a, 0xa0, 0x80, 0x01, 0x80, 0x12, 0x34, 0x56, 0x80, 0xab, 0xcd, 0xef};
  Bth b;
  b.opcode = 0x0a;
  b.solicitedEvent = true;
  b.padCount = 2;
  b.pkey = 0x8001;
  b.fecn = true;
  b.destQp = 0x123456;
  b.ackReq = true;
  b.psn = 0xabcdef;
  EXPECT_EQ(encoded(b, 12, encodeBth), wire);
  EXPECT_EQ(decodeBth(wire), b);
  Bytes becn = wire;
  becn[4] = 0x40;
  EXPECT_TRUE(decodeBth(becn).becn);
  EXPECT_FALSE(decodeBth(becn).fecn);
}

TEST(IbHeaders, LrhAndGrhBothDirections) {
  // VL 5, LVer 0, SL 7, LNH 2, DLID 0x1234, PktLen 0x123, SLID 0x5678
  const Bytes lrhWire = {0x50, 0x72, 0x12, 0x34, 0x01, 0x23, 0x56, 0x78};
  const Lrh lrh{5, 0, 7, 2, 0x1234, 0x123, 0x5678};
  EXPECT_EQ(encoded(lrh, 8, encodeLrh), lrhWire);
  EXPECT_EQ(decodeLrh(lrhWire), lrh);

  Bytes grhWire = {0x6a, 0xbc, 0xde, 0xf1, 0x01, 0x02, 0x1b, 0x40};
  Grh grh;
  grh.trafficClass = 0xab;
  grh.flowLabel = 0xcdef1;
  grh.payLen = 0x0102;
  grh.hopLimit = 0x40;
  for (int i = 0; i < 16; ++i) {
    grh.sgid[i] = static_cast<std::uint8_t>(i);
    grh.dgid[i] = static_cast<std::uint8_t>(0xf0 + i);
  }
  grhWire.insert(grhWire.end(), grh.sgid.begin(), grh.sgid.end());
  grhWire.insert(grhWire.end(), grh.dgid.begin(), grh.dgid.end());
  EXPECT_EQ(encoded(grh, 40, encodeGrh), grhWire);
  EXPECT_EQ(decodeGrh(grhWire), grh);
}

TEST(IbHeaders, ExtendedTransportHeadersBothDirections) {
  const Bytes rdeth = {0x00, 0x12, 0x34, 0x56};
  EXPECT_EQ(encoded(Rdeth{0x123456}, 4, encodeRdeth), rdeth);
  EXPECT_EQ(decodeRdeth(rdeth).eeContext, 0x123456u);

  const Bytes deth = {0x80, 0x01, 0x00, 0x02, 0x00, 0x12, 0x34, 0x56};
  EXPECT_EQ(encoded(Deth{0x80010002, 0x123456}, 8, encodeDeth), deth);
  EXPECT_EQ(decodeDeth(deth), (Deth{0x80010002, 0x123456}));

  const Bytes xrc = {0x00, 0xab, 0xcd, 0xef};
  EXPECT_EQ(encoded(XrcEth{0xabcdef}, 4, encodeXrcEth), xrc);
  EXPECT_EQ(decodeXrcEth(xrc).xrcSrq, 0xabcdefu);

  Bytes reth;
  for (int i = 1; i <= 16; ++i)
    reth.push_back(static_cast<std::uint8_t>(i));
  const Reth r{0x0102030405060708ull, 0x090a0b0c, 0x0d0e0f10};
  EXPECT_EQ(encoded(r, 16, encodeReth), reth);
  EXPECT_EQ(decodeReth(reth), r);

  const Bytes aeth = {0x61, 0x00, 0x01, 0x02};  // NAK invalid request, MSN 0x102
  EXPECT_EQ(encoded(Aeth::nak(0x102, NakCode::InvalidRequest), 4, encodeAeth), aeth);
  EXPECT_EQ(decodeAeth(aeth).kind(), AethKind::Nak);
  EXPECT_EQ(decodeAeth(aeth).value(), 1);
  EXPECT_EQ(decodeAeth(aeth).msn, 0x102u);

  const Bytes atomic = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa,
                        0xbb, 0xcc, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
                        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe};
  const AtomicEth a{0x1122334455667788ull, 0x99aabbcc, 1, 0xfffffffffffffffeull};
  EXPECT_EQ(encoded(a, 28, encodeAtomicEth), atomic);
  EXPECT_EQ(decodeAtomicEth(atomic), a);

  const Bytes ack = {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef};
  EXPECT_EQ(encoded(AtomicAckEth{0x0123456789abcdefull}, 8, encodeAtomicAckEth), ack);
  EXPECT_EQ(decodeAtomicAckEth(ack).origRemoteData, 0x0123456789abcdefull);

  const Bytes feth = {0x00, 0x00, 0x00, 0x21};  // selectivity 2, placement type 1
  EXPECT_EQ(encoded(Feth{2, 1}, 4, encodeFeth), feth);
  EXPECT_EQ(decodeFeth(feth), (Feth{2, 1}));
}

TEST(IbHeaders, TransportOrderAndPadFromTheOpcodeTable) {
  IbPacket p;
  p.bth.opcode = static_cast<std::uint8_t>(IbOpcode::RcRdmaWriteOnlyWithImmediate);
  p.bth.destQp = 0x11;
  p.bth.psn = 1;
  p.reth = Reth{0x1000, 0x2000, 5};
  p.immDt = 0xdeadbeef;
  p.payload = {'h', 'e', 'l', 'l', 'o'};
  const Bytes expected = {
      0x0b, 0x30, 0xff, 0xff, 0x00, 0x00, 0x00, 0x11, 0x00, 0x00, 0x00, 0x01,  // BTH, pad 3
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x20, 0x00,  // RETH
      0x00, 0x00, 0x00, 0x05,                                                  //
      0xde, 0xad, 0xbe, 0xef,                                                  // ImmDt
      'h',  'e',  'l',  'l',  'o',  0x00, 0x00, 0x00};                         // payload, pad
  EXPECT_EQ(encodeIbTransport(p), expected);
  auto back = decodeIbTransport(expected);
  ASSERT_TRUE(back);
  p.bth.padCount = 3;
  EXPECT_EQ(*back, p);
  std::string error;
  EXPECT_FALSE(decodeIbTransport(std::span(expected).first(20), &error));
  EXPECT_NE(error.find("RETH"), std::string::npos) << error;
}

TEST(IbOpcodes, TableSpotChecks) {
  auto exts = [](std::uint8_t op) {
    const auto* i = ibOpcodeInfo(op);
    return i ? std::vector<IbExt>(i->extensions().begin(), i->extensions().end())
             : std::vector<IbExt>{};
  };
  EXPECT_EQ(ibOpcodeInfo(0x04)->name, "RC SEND Only");
  EXPECT_EQ(ibOpcodeInfo(0x04)->tsharkName, "RC Send Only");
  EXPECT_TRUE(ibOpcodeInfo(0x04)->payload);
  EXPECT_EQ(exts(0x0b), (std::vector{IbExt::Reth, IbExt::ImmDt}));
  EXPECT_FALSE(ibOpcodeInfo(0x0c)->payload);
  EXPECT_EQ(exts(0x12), (std::vector{IbExt::Aeth, IbExt::AtomicAckEth}));
  EXPECT_EQ(exts(0x16), (std::vector{IbExt::Ieth}));
  EXPECT_EQ(ibOpcodeInfo(0x17)->name, "RC SEND Only with Invalidate");
  EXPECT_EQ(ibOpcodeInfo(0x15), nullptr);
  EXPECT_EQ(ibOpcodeInfo(0x2a)->transport, IbTransport::Uc);
  EXPECT_EQ(ibOpcodeInfo(0x2c), nullptr);  // UC has no READ
  EXPECT_EQ(exts(0x4b), (std::vector{IbExt::Rdeth, IbExt::Deth, IbExt::Reth, IbExt::ImmDt}));
  EXPECT_EQ(exts(0x51), (std::vector{IbExt::Rdeth, IbExt::Aeth}));  // responses: no DETH
  EXPECT_EQ(exts(0x55), (std::vector{IbExt::Rdeth, IbExt::Deth}));  // RESYNC
  EXPECT_EQ(exts(0x65), (std::vector{IbExt::Deth, IbExt::ImmDt}));
  EXPECT_EQ(exts(0x81), (std::vector{IbExt::Cnp}));
  EXPECT_EQ(exts(0xa6), (std::vector{IbExt::XrcEth, IbExt::Reth}));
  EXPECT_EQ(exts(0xb1), (std::vector{IbExt::Aeth}));  // XRC ACK carries no XRCETH
  EXPECT_EQ(exts(0xb7), (std::vector{IbExt::XrcEth, IbExt::Ieth}));
  EXPECT_EQ(ibOpcodeInfo(0xb8), nullptr);
  std::size_t n = 0;
  for (unsigned op = 0; op < 256; ++op)
    n += ibOpcodeInfo(static_cast<std::uint8_t>(op)) != nullptr;
  EXPECT_EQ(n, std::size(kIbOpcodeTable));
  for (std::size_t i = 1; i < std::size(kIbOpcodeTable); ++i)
    EXPECT_LT(kIbOpcodeTable[i - 1].opcode, kIbOpcodeTable[i].opcode);
}

TEST(IbAeth, SyndromeDecoding) {
  EXPECT_EQ(rnrTimerMicroseconds(0), 655360u);
  EXPECT_EQ(rnrTimerMicroseconds(1), 10u);
  EXPECT_EQ(rnrTimerMicroseconds(5), 60u);
  EXPECT_EQ(rnrTimerMicroseconds(14), 1280u);
  EXPECT_EQ(rnrTimerMicroseconds(18), 5120u);
  EXPECT_EQ(rnrTimerMicroseconds(31), 491520u);
  EXPECT_EQ(describeAethSyndrome(0x1f), "ACK credits=31 (unlimited)");
  EXPECT_EQ(describeAethSyndrome(0x0c), "ACK credits=12");
  EXPECT_EQ(describeAethSyndrome(0x20), "RNR NAK timer=655.36 ms");
  EXPECT_EQ(describeAethSyndrome(0x21), "RNR NAK timer=0.01 ms");
  EXPECT_EQ(describeAethSyndrome(0x3f), "RNR NAK timer=491.52 ms");
  EXPECT_EQ(describeAethSyndrome(0x60), "NAK PSN sequence error");
  EXPECT_EQ(describeAethSyndrome(0x62), "NAK remote access error");
  EXPECT_EQ(describeAethSyndrome(0x63), "NAK remote operational error");
  EXPECT_EQ(describeAethSyndrome(0x64), "NAK invalid RD request");
  EXPECT_EQ(describeAethSyndrome(0x41), "reserved syndrome 0x41");
  EXPECT_EQ(Aeth::rnrNak(3, 14).syndrome, 0x2e);
}

TEST(IbHeaders, TsharkFormats) {
  EXPECT_EQ(formatFieldValue(*findField(kBthHeader, "infiniband.bth.destqp"), 0x11), "0x000011");
  EXPECT_EQ(formatFieldValue(*findField(kRethHeader, "infiniband.reth.va"), 0x1000),
            "0x0000000000001000");
  EXPECT_EQ(formatFieldValue(*findField(kDethHeader, "infiniband.deth.q_key"), 0x11111111),
            "0x0000000011111111");
  EXPECT_EQ(formatFieldValue(*findField(kDethHeader, "infiniband.deth.srcqp"), 0x123),
            "0x00000123");
  EXPECT_EQ(formatFieldValue(*findField(kLrhHeader, "infiniband.lrh.lnh"), 2), "0x02");
  EXPECT_EQ(formatFieldValue(*findField(kBthHeader, "infiniband.bth.p_key"), 65535), "65535");
}

}  // namespace
}  // namespace rdmascope::packets
