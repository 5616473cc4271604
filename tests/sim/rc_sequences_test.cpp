#include <gtest/gtest.h>

#include "sim_test_support.h"

namespace rdmascope::sim {
namespace {

using namespace testing;

TEST(RcSequences, Send3000AtMtu1024IsFirstMiddleLastThenOneAck) {
  Pair p = makePair({});
  fill(p.mem(0, 0, 3000), 1);
  ASSERT_TRUE(p.hb().postRecv(p.b.qpn, recvWr(7, p.b, 0, 4096)).ok());
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, sendWr(1, WrOpcode::Send, p.a, 0, 3000, p.b)).ok());
  p.net->sim().run();
  auto pk = packets(*p.net);
  ASSERT_EQ(pk.size(), 4u);
  EXPECT_EQ(pk[0].opcodeName, "RC SEND FIRST");
  EXPECT_EQ(pk[1].opcodeName, "RC SEND MIDDLE");
  EXPECT_EQ(pk[2].opcodeName, "RC SEND LAST");
  EXPECT_EQ(pk[3].opcodeName, "RC ACKNOWLEDGE");
  EXPECT_EQ(pk[0].psn, 0x100u);
  EXPECT_EQ(pk[1].psn, 0x101u);
  EXPECT_EQ(pk[2].psn, 0x102u);
  EXPECT_EQ(pk[0].payloadLen, 1024u);
  EXPECT_EQ(pk[1].payloadLen, 1024u);
  EXPECT_EQ(pk[2].payloadLen, 952u);
  EXPECT_FALSE(pk[0].ackReq);
  EXPECT_FALSE(pk[1].ackReq);
  EXPECT_TRUE(pk[2].ackReq);
  EXPECT_EQ(pk[3].psn, 0x102u);
  EXPECT_EQ(pk[3].syndrome, 0x1f);
  EXPECT_EQ(pk[3].msn, 1u);
  EXPECT_EQ(pk[0].destQp, p.b.qpn);
  EXPECT_EQ(pk[3].destQp, p.a.qpn);
  auto wa = p.ha().pollCq(p.a.cq, 10);
  auto wb = p.hb().pollCq(p.b.cq, 10);
  ASSERT_EQ(wa.size(), 1u);
  ASSERT_EQ(wb.size(), 1u);
  EXPECT_EQ(wa[0].status, WcStatus::Success);
  EXPECT_EQ(wa[0].opcode, WcOpcode::Send);
  EXPECT_EQ(wa[0].byteLen, 3000u);
  EXPECT_EQ(wb[0].wrId, 7u);
  EXPECT_EQ(wb[0].opcode, WcOpcode::Recv);
  EXPECT_EQ(wb[0].byteLen, 3000u);
  auto src = p.mem(0, 0, 3000);
  auto dst = p.mem(1, 0, 3000);
  EXPECT_TRUE(std::equal(src.begin(), src.end(), dst.begin()));
}

TEST(RcSequences, Read2000IsOneRequestAnsweredByFirstAndLast) {
  Pair p = makePair({});
  fill(p.mem(1, 4096, 2000), 9);
  ASSERT_TRUE(
      p.ha().postSend(p.a.qpn, sendWr(5, WrOpcode::RdmaRead, p.a, 0, 2000, p.b, 4096)).ok());
  p.net->sim().run();
  auto pk = packets(*p.net);
  ASSERT_EQ(pk.size(), 3u);
  EXPECT_EQ(pk[0].opcodeName, "RC RDMA READ REQUEST");
  EXPECT_EQ(pk[0].dmaLen, 2000u);
  EXPECT_EQ(pk[0].psn, 0x100u);
  EXPECT_TRUE(pk[0].hasReth);
  EXPECT_EQ(pk[1].opcodeName, "RC RDMA READ RESPONSE FIRST");
  EXPECT_EQ(pk[1].psn, 0x100u);
  EXPECT_TRUE(pk[1].hasAeth);
  EXPECT_EQ(pk[1].payloadLen, 1024u);
  EXPECT_EQ(pk[2].opcodeName, "RC RDMA READ RESPONSE LAST");
  EXPECT_EQ(pk[2].psn, 0x101u);
  EXPECT_TRUE(pk[2].hasAeth);
  EXPECT_EQ(pk[2].payloadLen, 976u);
  // the request reserved both PSNs: the next request starts at 0x102
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, sendWr(6, WrOpcode::RdmaWrite, p.a, 0, 8, p.b)).ok());
  p.net->sim().run();
  pk = packets(*p.net);
  ASSERT_GE(pk.size(), 4u);
  EXPECT_EQ(pk[3].opcodeName, "RC RDMA WRITE ONLY");
  EXPECT_EQ(pk[3].psn, 0x102u);
  auto wa = p.ha().pollCq(p.a.cq, 10);
  ASSERT_EQ(wa.size(), 2u);
  EXPECT_EQ(wa[0].opcode, WcOpcode::RdmaRead);
  EXPECT_EQ(wa[0].byteLen, 2000u);
  auto src = p.mem(1, 4096, 2000);
  auto dst = p.mem(0, 0, 2000);
  // the WRITE overwrote the first 8 bytes of a's buffer with itself, so compare all
  EXPECT_TRUE(std::equal(src.begin(), src.end(), dst.begin()));
}

TEST(RcSequences, FetchAndAddIsAnsweredByAtomicAcknowledge) {
  Pair p = makePair({});
  std::uint64_t v = 40;
  std::memcpy(p.mem(1, 64, 8).data(), &v, 8);
  SendWr wr = sendWr(3, WrOpcode::AtomicFetchAndAdd, p.a, 0, 8, p.b, 64);
  wr.compareAdd = 2;
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, wr).ok());
  p.net->sim().run();
  auto pk = packets(*p.net);
  ASSERT_EQ(pk.size(), 2u);
  EXPECT_EQ(pk[0].opcodeName, "RC FETCH ADD");
  EXPECT_EQ(pk[1].opcodeName, "RC ATOMIC ACKNOWLEDGE");
  EXPECT_TRUE(pk[1].hasAtomicAck);
  EXPECT_EQ(pk[1].origData, 40u);
  std::uint64_t now = 0, orig = 0;
  std::memcpy(&now, p.mem(1, 64, 8).data(), 8);
  std::memcpy(&orig, p.mem(0, 0, 8).data(), 8);
  EXPECT_EQ(now, 42u);
  EXPECT_EQ(orig, 40u);
  auto wa = p.ha().pollCq(p.a.cq, 10);
  ASSERT_EQ(wa.size(), 1u);
  EXPECT_EQ(wa[0].opcode, WcOpcode::FetchAdd);
}

TEST(RcSequences, LostWritePacketDrawsPsnSequenceNakAndResendFromLostPsn) {
  PairOptions o;
  o.config.faults.dropPsns.push_back({0x102, 0, 1});
  Pair p = makePair(o);
  fill(p.mem(0, 0, 8192), 3);
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, sendWr(1, WrOpcode::RdmaWrite, p.a, 0, 8192, p.b)).ok());
  p.net->sim().run();
  auto pk = packets(*p.net);
  // find the NAK
  std::size_t nak = pk.size();
  for (std::size_t i = 0; i < pk.size(); ++i) {
    if (pk[i].opcodeName == "RC ACKNOWLEDGE" && pk[i].syndrome == 0x60) {
      nak = i;
      break;
    }
  }
  ASSERT_LT(nak, pk.size());
  EXPECT_EQ(pk[nak].psn, 0x102u);
  ASSERT_LT(nak + 1, pk.size());
  EXPECT_EQ(pk[nak + 1].psn, 0x102u);
  EXPECT_EQ(pk[nak + 1].opcodeName, "RC RDMA WRITE MIDDLE");
  auto wa = p.ha().pollCq(p.a.cq, 10);
  ASSERT_EQ(wa.size(), 1u);
  EXPECT_EQ(wa[0].status, WcStatus::Success);
  auto src = p.mem(0, 0, 8192);
  auto dst = p.mem(1, 0, 8192);
  EXPECT_TRUE(std::equal(src.begin(), src.end(), dst.begin()));
}

TEST(RcSequences, EveryFrameIcrcVerifies) {
  Pair p = makePair({});
  ASSERT_TRUE(p.hb().postRecv(p.b.qpn, recvWr(1, p.b, 0, 4096)).ok());
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, sendWr(1, WrOpcode::Send, p.a, 0, 3001, p.b)).ok());
  p.net->sim().run();
  for (const auto& s : packets(*p.net))
    EXPECT_TRUE(s.ok) << s.error;
  auto bytes = p.net->frames()[0].bytes;
  bytes[60] ^= 1;
  EXPECT_FALSE(summarizeFrame(WireFormat::RoceV2Ipv4, bytes).ok);
}

}  // namespace
}  // namespace rdmascope::sim
