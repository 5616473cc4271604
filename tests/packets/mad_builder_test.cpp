// The MAD and CM message encoder against bytes placed by hand at the IBTA's positions (Vol. 1
// tables "REQ Message Contents" etc.; the same positions as Linux's ibta_vol1_c12.h), in both
// directions, and the UD packet that carries a CM message.
#include "rdmascope/packets/mad_builder.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>

namespace rdmascope::packets {
namespace {

using Bytes = std::array<std::uint8_t, kMadDataSize>;

void put(Bytes& b, std::size_t at, std::initializer_list<std::uint8_t> v) {
  std::copy(v.begin(), v.end(), b.begin() + static_cast<std::ptrdiff_t>(at));
}

CmReq sampleReq() {
  CmReq r;
  r.localCommId = 0xa1b2c3d4;
  r.serviceId = rdmaIpServiceId(0x06, 18515);
  r.localCaGuid = 0x0002c9fffe123456ull;
  r.localQkey = 0x12345678;
  r.localQpn = 0x000011;
  r.responderResources = 0x10;
  r.localEecn = 0xaabbcc;
  r.initiatorDepth = 0x20;
  r.remoteEecn = 0x0d0e0f;
  r.remoteCmResponseTimeout = 21;
  r.transportServiceType = 1;
  r.endToEndFlowControl = true;
  r.startingPsn = 0xabcdef;
  r.localCmResponseTimeout = 19;
  r.retryCount = 6;
  r.pkey = 0xffff;
  r.pathMtu = 3;
  r.rdcExists = true;
  r.rnrRetryCount = 5;
  r.maxCmRetries = 15;
  r.srq = true;
  r.extendedTransport = 2;
  r.primary.localLid = 0x1234;
  r.primary.remoteLid = 0x5678;
  r.primary.localGid = gidFromIp(IpAddress::v4(10, 0, 0, 1));
  r.primary.remoteGid = gidFromIp(IpAddress::v4(10, 0, 0, 2));
  r.primary.flowLabel = 0xabcde;
  r.primary.packetRate = 0x2a;
  r.primary.trafficClass = 0x77;
  r.primary.hopLimit = 0x40;
  r.primary.sl = 9;
  r.primary.subnetLocal = true;
  r.primary.localAckTimeout = 18;
  r.alternate.localLid = 0x0102;
  r.alternate.flowLabel = 0x12345;
  r.alternate.packetRate = 0x3f;
  r.alternate.sl = 15;
  r.alternate.localAckTimeout = 31;
  r.privateData.assign(kCmReqPrivateSize, 0);
  r.privateData[0] = 0xee;
  r.privateData[91] = 0x99;
  return r;
}

// The same REQ placed byte by byte.
Bytes sampleReqBytes() {
  Bytes b{};
  put(b, 0, {0xa1, 0xb2, 0xc3, 0xd4});
  put(b, 8, {0, 0, 0, 0, 0x01, 0x06, 0x48, 0x53});  // RDMA_PS_TCP, port 18515 = 0x4853
  put(b, 16, {0x00, 0x02, 0xc9, 0xff, 0xfe, 0x12, 0x34, 0x56});
  put(b, 28, {0x12, 0x34, 0x56, 0x78});
  put(b, 32, {0x00, 0x00, 0x11, 0x10});
  put(b, 36, {0xaa, 0xbb, 0xcc, 0x20});
  put(b, 40, {0x0d, 0x0e, 0x0f, (21 << 3) | (1 << 1) | 1});
  put(b, 44, {0xab, 0xcd, 0xef, (19 << 3) | 6});
  put(b, 48, {0xff, 0xff, (3 << 4) | (1 << 3) | 5, (15 << 4) | (1 << 3) | 2});
  put(b, 52, {0x12, 0x34, 0x56, 0x78});
  put(b, 66, {0xff, 0xff, 10, 0, 0, 1});
  put(b, 82, {0xff, 0xff, 10, 0, 0, 2});
  // Flow label 0xabcde in the top 20 bits, 6 reserved bits, packet rate 0x2a in the low 6.
  put(b, 88, {0xab, 0xcd, 0xe0, 0x2a, 0x77, 0x40, (9 << 4) | (1 << 3), 18 << 3});
  put(b, 96, {0x01, 0x02});
  put(b, 132, {0x12, 0x34, 0x50, 0x3f, 0, 0, 15 << 4, 31 << 3});
  b[140] = 0xee;
  b[231] = 0x99;
  return b;
}

TEST(MadBuilder, ReqFieldsSitWhereTheIbtaPutsThem) {
  const CmMessage m = sampleReq();
  EXPECT_EQ(encodeCmMessage(m), sampleReqBytes());
  const auto back = decodeCmMessage(0x0010, sampleReqBytes());
  ASSERT_TRUE(back);
  EXPECT_EQ(std::get<CmReq>(*back), sampleReq());
}

TEST(MadBuilder, RepFieldsSitWhereTheIbtaPutsThem) {
  CmRep r;
  r.localCommId = 0x01020304;
  r.remoteCommId = 0xa1b2c3d4;
  r.localQkey = 0x11111111;
  r.localQpn = 0x000099;
  r.localEecn = 0x010203;
  r.startingPsn = 0x040506;
  r.responderResources = 0x10;
  r.initiatorDepth = 0x20;
  r.targetAckDelay = 17;
  r.failoverAccepted = 2;
  r.endToEndFlowControl = true;
  r.rnrRetryCount = 6;
  r.srq = true;
  r.localCaGuid = 0x0002c9fffe654321ull;
  r.privateData.assign(196, 0);
  r.privateData[0] = 0x55;
  Bytes b{};
  put(b, 0, {1, 2, 3, 4, 0xa1, 0xb2, 0xc3, 0xd4, 0x11, 0x11, 0x11, 0x11, 0, 0, 0x99, 0});
  put(b, 16, {1, 2, 3, 0, 4, 5, 6, 0, 0x10, 0x20, (17 << 3) | (2 << 1) | 1, (6 << 5) | (1 << 4)});
  put(b, 28, {0x00, 0x02, 0xc9, 0xff, 0xfe, 0x65, 0x43, 0x21, 0x55});
  EXPECT_EQ(encodeCmMessage(r), b);
  const auto back = decodeCmMessage(0x0013, b);
  ASSERT_TRUE(back);
  EXPECT_EQ(std::get<CmRep>(*back), r);
}

TEST(MadBuilder, ShortMessagesSitWhereTheIbtaPutsThem) {
  {
    CmRej rej{0x01020304, 0xa1b2c3d4, 1, 5, 28, {0xab}, {0xcd}};
    Bytes b{};
    put(b, 0, {1, 2, 3, 4, 0xa1, 0xb2, 0xc3, 0xd4, 1 << 6, 5 << 1, 0, 28, 0xab});
    b[84] = 0xcd;
    EXPECT_EQ(encodeCmMessage(rej), b);
    rej.ari.resize(72);
    rej.privateData.resize(148);
    EXPECT_EQ(std::get<CmRej>(*decodeCmMessage(0x0012, b)), rej);
  }
  {
    CmMra mra{0x01020304, 0xa1b2c3d4, 2, 20, {0x42}};
    Bytes b{};
    put(b, 0, {1, 2, 3, 4, 0xa1, 0xb2, 0xc3, 0xd4, 2 << 6, 20 << 3, 0x42});
    EXPECT_EQ(encodeCmMessage(mra), b);
    mra.privateData.resize(222);
    EXPECT_EQ(std::get<CmMra>(*decodeCmMessage(0x0011, b)), mra);
  }
  {
    CmDreq dreq{0xa1b2c3d4, 0x01020304, 0x000022, {0x77}};
    Bytes b{};
    put(b, 0, {0xa1, 0xb2, 0xc3, 0xd4, 1, 2, 3, 4, 0, 0, 0x22, 0, 0x77});
    EXPECT_EQ(encodeCmMessage(dreq), b);
    dreq.privateData.resize(220);
    EXPECT_EQ(std::get<CmDreq>(*decodeCmMessage(0x0015, b)), dreq);
  }
  for (const std::uint16_t attr : {std::uint16_t{0x0014}, std::uint16_t{0x0016}}) {
    Bytes b{};
    put(b, 0, {0xa1, 0xb2, 0xc3, 0xd4, 1, 2, 3, 4, 0x66});
    const CmMessage m = attr == 0x0014 ? CmMessage{CmRtu{0xa1b2c3d4, 0x01020304, {0x66}}}
                                       : CmMessage{CmDrep{0xa1b2c3d4, 0x01020304, {0x66}}};
    EXPECT_EQ(encodeCmMessage(m), b) << attr;
    EXPECT_EQ(static_cast<std::uint16_t>(cmAttributeOf(m)), attr);
    EXPECT_EQ(decodeCmMessage(attr, b)->index(), m.index());
  }
}

TEST(MadBuilder, SidrFieldsSitWhereTheIbtaPutsThem) {
  CmSidrReq q;
  q.requestId = 0x01020304;
  q.pkey = 0xffff;
  q.serviceId = rdmaIpServiceId(0x11, 7174);
  q.privateData = {0xaa, 0xbb};
  Bytes b{};
  put(b, 0, {1, 2, 3, 4, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 1, 0x11, 0x1c, 0x06, 0xaa, 0xbb});
  EXPECT_EQ(encodeCmMessage(q), b);
  const auto backReq = decodeCmMessage(0x0017, b);
  ASSERT_TRUE(backReq);
  const auto& gotReq = std::get<CmSidrReq>(*backReq);
  EXPECT_EQ(gotReq.serviceId, q.serviceId);
  ASSERT_EQ(gotReq.privateData.size(), 216u);
  EXPECT_EQ(gotReq.privateData[1], 0xbb);

  CmSidrRep r;
  r.requestId = 0x01020304;
  r.status = 2;
  r.additionalInfoLength = 1;
  r.qpn = 0x123456;
  r.serviceId = q.serviceId;
  r.qkey = 0x01234567;
  r.additionalInfo = {0x77};
  r.privateData = {0x99};
  Bytes c{};
  put(c, 0, {1, 2, 3, 4, 2,    1,    0,    0,    0x12, 0x34, 0x56, 0,   0,
             0, 0, 0, 1, 0x11, 0x1c, 0x06, 0x01, 0x23, 0x45, 0x67, 0x77});
  c[96] = 0x99;
  EXPECT_EQ(encodeCmMessage(r), c);
  const auto backRep = decodeCmMessage(0x0018, c);
  ASSERT_TRUE(backRep);
  const auto& gotRep = std::get<CmSidrRep>(*backRep);
  EXPECT_EQ(gotRep.qpn, 0x123456u);
  EXPECT_EQ(gotRep.qkey, 0x01234567u);
  EXPECT_EQ(gotRep.status, 2);
  ASSERT_EQ(gotRep.privateData.size(), 136u);
  EXPECT_EQ(gotRep.privateData[0], 0x99);
  EXPECT_EQ(cmAttributeOf(r), CmAttribute::ServiceIdResReqResp);
}

TEST(MadBuilder, MadHeaderAndIpCmPrivateDataBytes) {
  MadHeader h;
  h.method = 0x81;
  h.status = 0x001c;
  h.classSpecific = 0x0102;
  h.transactionId = 0x1122334455667788ull;
  h.attributeId = 0x0013;
  h.attributeModifier = 0xdeadbeef;
  const std::array<std::uint8_t, 24> expected = {1,    7,    2,    0x81, 0x00, 0x1c, 0x01, 0x02,
                                                 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
                                                 0x00, 0x13, 0,    0,    0xde, 0xad, 0xbe, 0xef};
  const std::array<std::uint8_t, 3> data = {9, 8, 7};
  const auto mad = encodeMad(h, data);
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), mad.begin()));
  EXPECT_EQ(mad[24], 9);
  EXPECT_EQ(mad[26], 7);
  EXPECT_EQ(mad[255], 0);
  EXPECT_EQ(decodeMadHeader(mad), h);

  IpCmPrivateData p;
  p.srcPort = 0xc001;
  p.src = IpAddress::v4(10, 0, 0, 1);
  p.dst = IpAddress::v4(10, 0, 0, 2);
  p.consumerData = {0xee};
  const auto bytes = encodeIpCmPrivateData(p);
  ASSERT_EQ(bytes.size(), 92u);
  EXPECT_EQ(bytes[0], 0x00);
  EXPECT_EQ(bytes[1], 0x40);
  EXPECT_EQ(bytes[2], 0xc0);
  EXPECT_EQ(bytes[3], 0x01);
  EXPECT_EQ(bytes[16], 10);
  EXPECT_EQ(bytes[19], 1);
  EXPECT_EQ(bytes[32], 10);
  EXPECT_EQ(bytes[35], 2);
  EXPECT_EQ(bytes[36], 0xee);
  auto back = decodeIpCmPrivateData(bytes);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->consumerData.size(), 56u);
  back->consumerData.resize(1);
  EXPECT_EQ(*back, p);
  p.src = *IpAddress::parse("fd00::1");
  p.dst = *IpAddress::parse("fd00::2");
  const auto v6 = encodeIpCmPrivateData(p);
  EXPECT_EQ(v6[1], 0x60);
  EXPECT_EQ(v6[4], 0xfd);
  EXPECT_EQ(v6[35], 2);
  EXPECT_EQ(decodeIpCmPrivateData(v6)->dst, p.dst);
  auto bad = v6;
  bad[1] = 0x50;
  EXPECT_FALSE(decodeIpCmPrivateData(bad));
}

TEST(MadBuilder, CmPacketIsAUdSendFromGsiToGsi) {
  const auto p = cmPacket(CmRtu{1, 2, {}}, 0x99, 0x1234567, 0x8001);
  EXPECT_EQ(p.bth.opcode, 0x64);
  EXPECT_EQ(p.bth.destQp, 1u);
  EXPECT_EQ(p.bth.psn, 0x234567u);
  EXPECT_EQ(p.bth.pkey, 0x8001);
  ASSERT_TRUE(p.deth);
  EXPECT_EQ(p.deth->qkey, 0x80010000u);
  EXPECT_EQ(p.deth->srcQp, 1u);
  ASSERT_EQ(p.payload.size(), 256u);
  const auto h = decodeMadHeader(p.payload);
  EXPECT_EQ(h.mgmtClass, 0x07);
  EXPECT_EQ(h.method, 0x03);
  EXPECT_EQ(h.attributeId, 0x0014);
  EXPECT_EQ(h.transactionId, 0x99u);
  EXPECT_FALSE(decodeCmMessage(0x0001, std::span(p.payload).subspan(24)));
  EXPECT_FALSE(decodeCmMessage(0x0014, std::span(p.payload).subspan(24, 100)));
}

}  // namespace
}  // namespace rdmascope::packets
