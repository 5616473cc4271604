#include <gtest/gtest.h>

#include "sim_test_support.h"

namespace rdmascope::sim {
namespace {

using namespace testing;

// One UD SEND of `len` bytes from A to B, whose receive WQE is `sges` (offsets and lengths
// into B's buffer). Returns B's completions.
std::vector<WorkCompletion> udSend(
    Pair& p, std::uint32_t len, const std::vector<std::pair<std::uint64_t, std::uint32_t>>& sges) {
  RecvWr r;
  r.wrId = 77;
  for (const auto& [off, n] : sges)
    r.sgList.push_back(Sge{p.b.buf + off, n, p.b.mr.lkey});
  EXPECT_TRUE(p.hb().postRecv(p.b.qpn, r).ok());
  fill(p.mem(0, 0, len), 11);
  SendWr wr = sendWr(1, WrOpcode::Send, p.a, 0, len, p.b);
  wr.remoteQpn = p.b.qpn;
  wr.remoteQkey = 0x11111111;
  wr.ah.dgid = p.hb().gid();
  EXPECT_TRUE(p.ha().postSend(p.a.qpn, wr).ok());
  p.net->sim().run();
  return p.hb().pollCq(p.b.cq, 4);
}

// ibv_ud_pingpong reads its message at buf + 40: rxe (rxe_resp.c, execute) writes the 40-byte
// network header first. For RoCEv2 over IPv4 that is 20 zero bytes and then the IPv4 header
// exactly as received (union rdma_network_hdr); the completion has IBV_WC_GRH, the sender's QP
// number, and byte_len counts the 40 bytes.
TEST(UdReceive, Ipv4GrhAreaIsTwentyZerosThenTheReceivedIpHeader) {
  PairOptions o;
  o.type = QpType::UD;
  Pair p = makePair(o);
  auto wc = udSend(p, 200, {{0, 4096}});
  ASSERT_EQ(wc.size(), 1u);
  EXPECT_EQ(wc[0].status, WcStatus::Success);
  EXPECT_EQ(wc[0].opcode, WcOpcode::Recv);
  EXPECT_EQ(wc[0].byteLen, 240u);
  EXPECT_EQ(wc[0].srcQp, p.a.qpn);
  EXPECT_EQ(wc[0].qpNum, p.b.qpn);
  EXPECT_EQ(wc[0].wcFlags, wc_flags::kGrh);
  EXPECT_EQ(wc[0].pkeyIndex, 0);
  const auto& frames = p.net->frames();
  ASSERT_FALSE(frames.empty());
  const std::vector<std::uint8_t>& f = frames.front().bytes;
  ASSERT_GE(f.size(), 34u);
  auto grh = p.mem(1, 0, 40);
  EXPECT_TRUE(std::all_of(grh.begin(), grh.begin() + 20, [](std::uint8_t x) { return x == 0; }));
  EXPECT_TRUE(std::equal(grh.begin() + 20, grh.end(), f.begin() + 14));  // the IPv4 header
  EXPECT_EQ(grh[20 + 9], 17);                                            // UDP
  auto sent = p.mem(0, 0, 200), got = p.mem(1, 40, 200);
  EXPECT_TRUE(std::equal(sent.begin(), sent.end(), got.begin()));
}

TEST(UdReceive, Ipv6GrhAreaIsTheIpv6Header) {
  PairOptions o;
  o.type = QpType::UD;
  o.config.wire = WireFormat::RoceV2Ipv6;
  Pair p = makePair(o);
  auto wc = udSend(p, 64, {{0, 4096}});
  ASSERT_EQ(wc.size(), 1u);
  EXPECT_EQ(wc[0].status, WcStatus::Success);
  EXPECT_EQ(wc[0].byteLen, 104u);
  const std::vector<std::uint8_t>& f = p.net->frames().front().bytes;
  auto grh = p.mem(1, 0, 40);
  EXPECT_TRUE(std::equal(grh.begin(), grh.end(), f.begin() + 14));
  EXPECT_EQ(grh[0] >> 4, 6);
}

// The GRH and the payload are scattered over the WQE's SGEs like any data.
TEST(UdReceive, GrhAndPayloadScatterOverSges) {
  PairOptions o;
  o.type = QpType::UD;
  Pair p = makePair(o);
  auto wc = udSend(p, 100, {{0, 30}, {1000, 200}});
  ASSERT_EQ(wc.size(), 1u);
  EXPECT_EQ(wc[0].status, WcStatus::Success);
  EXPECT_EQ(wc[0].byteLen, 140u);
  const std::vector<std::uint8_t>& f = p.net->frames().front().bytes;
  auto second = p.mem(1, 1000, 10);  // GRH bytes 30..39: the IPv4 header's last 10 bytes
  EXPECT_TRUE(std::equal(second.begin(), second.end(), f.begin() + 14 + 10));
  auto sent = p.mem(0, 0, 100), got = p.mem(1, 1010, 100);
  EXPECT_TRUE(std::equal(sent.begin(), sent.end(), got.begin()));
}

// A receive buffer without room for the 40 bytes and the message: rxe drops the message
// (UD class D: no completion, the WQE stays for the next message), the mistake of a UD
// receiver that forgets the GRH.
TEST(UdReceive, BufferWithoutRoomForTheGrhDropsTheMessage) {
  PairOptions o;
  o.type = QpType::UD;
  Pair p = makePair(o);
  EXPECT_TRUE(udSend(p, 100, {{0, 100}}).empty());
  SendWr wr = sendWr(2, WrOpcode::Send, p.a, 0, 60, p.b);
  wr.remoteQpn = p.b.qpn;
  wr.remoteQkey = 0x11111111;
  wr.ah.dgid = p.hb().gid();
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, wr).ok());
  p.net->sim().run();
  auto wc = p.hb().pollCq(p.b.cq, 4);
  ASSERT_EQ(wc.size(), 1u);
  EXPECT_EQ(wc[0].wrId, 77u);
  EXPECT_EQ(wc[0].status, WcStatus::Success);
  EXPECT_EQ(wc[0].byteLen, 100u);
}

}  // namespace
}  // namespace rdmascope::sim
