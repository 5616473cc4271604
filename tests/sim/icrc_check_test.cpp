// When the receiving NIC verifies the ICRC: every frame that corruption could have reached, in
// every wire format; a frame on a link that changes no byte arrives with a valid ICRC anyway.

#include <gtest/gtest.h>

#include "rdmascope/packets/ib_crc.h"
#include "sim_test_support.h"

namespace rdmascope::sim {
namespace {

using namespace testing;

class IcrcCheck : public ::testing::TestWithParam<WireFormat> {};

TEST_P(IcrcCheck, EveryFrameCorruptionCanReachIsVerifiedAndDroppedWhenItsIcrcFails) {
  PairOptions o;
  o.config.wire = GetParam();
  o.config.faults.corruptRate = 1.0;  // every frame from host A has one bit flipped
  o.config.faults.onlyFromHost = 0;
  o.timeout = 8;
  o.retryCnt = 2;
  Pair p = makePair(o);
  fill(p.mem(0, 0, 8192), 3);
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, sendWr(1, WrOpcode::RdmaWrite, p.a, 0, 8192, p.b)).ok());
  p.net->sim().run();
  const LinkStats& s = p.net->stats();
  std::uint64_t fromA = 0;
  for (const CapturedFrame& f : p.net->frames())
    fromA += f.fromHost == 0;
  ASSERT_GT(fromA, 8u);  // the first attempt and its retries
  EXPECT_EQ(s.framesCorrupted, fromA);
  EXPECT_EQ(s.icrcChecked, fromA);  // B's answers cross a clean direction: not verified
  // Most flipped bits land in the 1024-byte payloads, where only the ICRC can tell. A flip in a
  // byte the ICRC does not cover (a MAC address, a masked field such as the UDP checksum)
  // passes it, as it would pass a real NIC's ICRC check.
  EXPECT_GT(s.icrcDrops, fromA * 3 / 4);
  auto wc = p.ha().pollCq(p.a.cq, 4);
  ASSERT_EQ(wc.size(), 1u);
  EXPECT_EQ(wc[0].status, WcStatus::RetryExcErr);
}

TEST_P(IcrcCheck, OnlyTheCorruptibleDirectionIsVerified) {
  PairOptions o;
  o.config.wire = GetParam();
  o.config.faults.corruptRate = 0.2;
  o.config.faults.onlyFromHost = 1;  // B's ACKs may be corrupted, A's WRITE frames not
  o.timeout = 8;
  Pair p = makePair(o);
  fill(p.mem(0, 0, 65536), 9);
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, sendWr(1, WrOpcode::RdmaWrite, p.a, 0, 65536, p.b)).ok());
  p.net->sim().run();
  std::uint64_t fromB = 0;
  for (const CapturedFrame& f : p.net->frames())
    fromB += f.fromHost == 1;
  ASSERT_GT(fromB, 0u);
  EXPECT_EQ(p.net->stats().icrcChecked, fromB);
  expectWriteLanded(p, 65536);
}

TEST_P(IcrcCheck, ACleanLinkDeliversFramesWhoseIcrcVerifies) {
  PairOptions o;
  o.config.wire = GetParam();
  o.config.faults.lossRate = 0.1;  // loss, reordering and duplicates change no byte
  o.config.faults.reorderRate = 0.1;
  o.config.faults.duplicateRate = 0.1;
  o.timeout = 8;
  Pair p = makePair(o);
  fill(p.mem(0, 0, 65536), 5);
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, sendWr(1, WrOpcode::RdmaWrite, p.a, 0, 65536, p.b)).ok());
  p.net->sim().run();
  EXPECT_EQ(p.net->stats().icrcChecked, 0u);
  const auto link = GetParam() == WireFormat::InfiniBand ? packets::LinkType::InfiniBand
                                                         : packets::LinkType::Ethernet;
  ASSERT_GE(p.net->frames().size(), 64u);
  for (const CapturedFrame& f : p.net->frames())
    EXPECT_EQ(packets::verifyFrameCrc(f.bytes, link), packets::CrcStatus::Good);
  expectWriteLanded(p, 65536);
}

INSTANTIATE_TEST_SUITE_P(All, IcrcCheck,
                         ::testing::Values(WireFormat::RoceV2Ipv4, WireFormat::RoceV2Ipv6,
                                           WireFormat::RoceV1, WireFormat::InfiniBand));

}  // namespace
}  // namespace rdmascope::sim
