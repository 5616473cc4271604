#include <gtest/gtest.h>

#include "sim_test_support.h"

namespace rdmascope::sim {
namespace {

using namespace testing;

TEST(TransportErrors, RnrRetryExhaustedGivesRnrRetryExcErr) {
  PairOptions o;
  o.rnrRetry = 2;
  o.minRnrTimer = 1;  // 10 us
  Pair p = makePair(o);
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, sendWr(1, WrOpcode::Send, p.a, 0, 100, p.b)).ok());
  p.net->sim().run();
  auto wc = p.ha().pollCq(p.a.cq, 4);
  ASSERT_EQ(wc.size(), 1u);
  EXPECT_EQ(wc[0].status, WcStatus::RnrRetryExcErr);
  EXPECT_EQ(p.ha().qpView(p.a.qpn).state, QpState::Err);
  int sends = 0;
  for (const auto& s : packets(*p.net))
    sends += s.opcodeName == "RC SEND ONLY";
  EXPECT_EQ(sends, 3);  // the first try and two RNR retries
}

// rxe 6.x (rxe_comp.c COMPST_RNR_RETRY): an RNR NAK sets wait_for_rnr_timer and leaves the
// retransmit timer running ("goto exit", no mod_timer). When the RNR wait is longer than the
// transport timeout, the retransmit timer fires meanwhile and each firing uses up retry_cnt
// (the retry flow itself waits for the RNR timer): with retry_cnt 2 the third timeout ends the
// SEND with RETRY_EXC_ERR although rnr_retry is 7 (7 would retry RNR NAKs forever). The lab showed
// the timer firing during an RNR wait (two resends 4 ms apart after one RNR NAK).
TEST(TransportErrors, RetransmitTimerKeepsRunningDuringAnRnrWait) {
  PairOptions o;
  o.timeout = 8;  // 1.05 ms
  o.retryCnt = 2;
  o.minRnrTimer = 20;  // 10.24 ms
  Pair p = makePair(o);
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, sendWr(1, WrOpcode::Send, p.a, 0, 100, p.b)).ok());
  p.net->sim().runUntil(SimTime::ms(50));
  auto wc = p.ha().pollCq(p.a.cq, 4);
  ASSERT_EQ(wc.size(), 1u);
  EXPECT_EQ(wc[0].status, WcStatus::RetryExcErr);
  int sends = 0;
  for (const auto& s : packets(*p.net))
    sends += s.opcodeName == "RC SEND ONLY";
  // One resend per RNR timer (10.24 ms): the timeout in each wait starts no retry flow of its
  // own; the completer does not re-arm the timer while a retry is pending, so each RNR cycle
  // costs one retry_cnt, and the third timeout (at 21.5 ms) ends the SEND.
  EXPECT_EQ(sends, 3);
}

TEST(TransportErrors, ReceiveBufferTooSmall) {
  Pair p = makePair({});
  ASSERT_TRUE(p.hb().postRecv(p.b.qpn, recvWr(9, p.b, 0, 100)).ok());
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, sendWr(1, WrOpcode::Send, p.a, 0, 200, p.b)).ok());
  p.net->sim().run();
  auto wb = p.hb().pollCq(p.b.cq, 4);
  ASSERT_EQ(wb.size(), 1u);
  EXPECT_EQ(wb[0].status, WcStatus::LocLenErr);
  auto wa = p.ha().pollCq(p.a.cq, 4);
  ASSERT_EQ(wa.size(), 1u);
  EXPECT_EQ(wa[0].status, WcStatus::RemInvReqErr);
  auto pk = packets(*p.net);
  ASSERT_EQ(pk.size(), 2u);
  EXPECT_EQ(pk[1].syndrome, 0x61);  // NAK invalid request
}

TEST(TransportErrors, BadLkeyIsLocalProtectionError) {
  Pair p = makePair({});
  SendWr wr = sendWr(1, WrOpcode::RdmaWrite, p.a, 0, 64, p.b);
  wr.sgList[0].lkey ^= 0x5500;
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, wr).ok());
  p.net->sim().run();
  auto wa = p.ha().pollCq(p.a.cq, 4);
  ASSERT_EQ(wa.size(), 1u);
  EXPECT_EQ(wa[0].status, WcStatus::LocProtErr);
  EXPECT_TRUE(p.net->frames().empty());
}

TEST(TransportErrors, MisalignedAtomicRejectedAtPost) {
  Pair p = makePair({});
  SendWr wr = sendWr(1, WrOpcode::AtomicFetchAndAdd, p.a, 0, 8, p.b, 4);
  auto st = p.ha().postSend(p.a.qpn, wr);
  EXPECT_EQ(st.errnum, EINVAL);
  EXPECT_NE(st.message.find("8-byte aligned"), std::string::npos);
}

TEST(TransportErrors, DuplicateAtomicIsReplayedNotReExecuted) {
  PairOptions o;
  o.timeout = 4;                     // 65 us
  o.config.faults.dropFrames = {2};  // the first ATOMIC ACKNOWLEDGE
  Pair p = makePair(o);
  SendWr wr = sendWr(1, WrOpcode::AtomicFetchAndAdd, p.a, 0, 8, p.b, 64);
  wr.compareAdd = 1;
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, wr).ok());
  p.net->sim().run();
  auto pk = packets(*p.net);
  ASSERT_EQ(pk.size(), 4u);
  EXPECT_EQ(pk[2].opcodeName, "RC FETCH ADD");
  EXPECT_EQ(pk[2].psn, pk[0].psn);
  EXPECT_EQ(pk[3].origData, 0u);  // the saved original, not the incremented value
  std::uint64_t v = 0;
  std::memcpy(&v, p.mem(1, 64, 8).data(), 8);
  EXPECT_EQ(v, 1u);
  auto wa = p.ha().pollCq(p.a.cq, 4);
  ASSERT_EQ(wa.size(), 1u);
  EXPECT_EQ(wa[0].status, WcStatus::Success);
}

TEST(TransportErrors, DuplicateReadIsReplayed) {
  PairOptions o;
  o.timeout = 4;
  o.config.faults.dropFrames = {3};  // READ RESPONSE LAST
  Pair p = makePair(o);
  fill(p.mem(1, 0, 2000), 4);
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, sendWr(1, WrOpcode::RdmaRead, p.a, 0, 2000, p.b)).ok());
  p.net->sim().run();
  auto pk = packets(*p.net);
  ASSERT_GE(pk.size(), 5u);
  // the retry asks for the rest only: from the second PSN
  EXPECT_EQ(pk[3].opcodeName, "RC RDMA READ REQUEST");
  EXPECT_EQ(pk[3].psn, pk[0].psn + 1);
  EXPECT_EQ(pk[3].dmaLen, 2000u - 1024u);
  // rxe replays from a PSN inside the range as a continuation: READ RESPONSE LAST
  EXPECT_EQ(pk[4].opcodeName, "RC RDMA READ RESPONSE LAST");
  EXPECT_EQ(pk[4].psn, pk[0].psn + 1);
  auto a = p.mem(0, 0, 2000), b = p.mem(1, 0, 2000);
  EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin()));
}

TEST(TransportErrors, UcDropsToTheNextFirst) {
  PairOptions o;
  o.type = QpType::UC;
  o.config.faults.dropPsns = {{0x101, 0, 1}};  // MIDDLE of the first message
  Pair p = makePair(o);
  fill(p.mem(0, 0, 16384), 2);
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, sendWr(1, WrOpcode::RdmaWrite, p.a, 0, 3072, p.b)).ok());
  ASSERT_TRUE(
      p.ha().postSend(p.a.qpn, sendWr(2, WrOpcode::RdmaWrite, p.a, 8192, 3000, p.b, 8192)).ok());
  p.net->sim().run();
  EXPECT_EQ(p.ha().pollCq(p.a.cq, 4).size(), 2u);
  auto a = p.mem(0, 8192, 3000), b = p.mem(1, 8192, 3000);
  EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin()));
  // the first message's LAST was not written
  auto last = p.mem(1, 2048, 1024);
  EXPECT_TRUE(std::all_of(last.begin(), last.end(), [](std::uint8_t x) { return x == 0; }));
}

TEST(TransportErrors, CqOverflowMovesResponderQpToErr) {
  PairOptions o;
  o.cqDepth = 1;
  Pair p = makePair(o);
  for (int i = 0; i < 2; ++i)
    ASSERT_TRUE(p.hb().postRecv(p.b.qpn, recvWr(i, p.b, 0, 64)).ok());
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(p.ha().postSend(p.a.qpn, sendWr(i, WrOpcode::Send, p.a, 0, 8, p.b)).ok());
  }
  // host-a retries forever (rxe treats retry_cnt 7 as infinite): run a bounded time
  p.net->sim().runUntil(SimTime::ms(10));
  EXPECT_EQ(p.hb().qpView(p.b.qpn).state, QpState::Err);
  EXPECT_TRUE(p.hb().cq(p.b.cq)->overflowed);
}

TEST(TransportErrors, AckCoalescingOneAckPerAckReq) {
  PairOptions o;
  Pair p = makePair(o);
  // 100 packets of one WRITE: AckReq on packet 66 (every 65+1 unacknowledged) and the last
  ASSERT_TRUE(
      p.ha().postSend(p.a.qpn, sendWr(1, WrOpcode::RdmaWrite, p.a, 0, 100 * 1024, p.b)).ok());
  p.net->sim().run();
  int acks = 0, ackReq = 0;
  for (const auto& s : packets(*p.net)) {
    acks += s.opcodeName == "RC ACKNOWLEDGE";
    ackReq += s.ackReq;
  }
  EXPECT_EQ(ackReq, 2);
  EXPECT_EQ(acks, 2);
}

TEST(Engine, ScheduleCancelStepAndDeterminism) {
  Simulator s(5);
  std::vector<int> order;
  s.schedule(SimTime::us(2), [&] { order.push_back(2); });
  const EventId id = s.schedule(SimTime::us(1), [&] { order.push_back(1); });
  s.schedule(SimTime::us(2), [&] { order.push_back(3); });
  EXPECT_TRUE(s.cancel(id));
  EXPECT_FALSE(s.cancel(id));
  EXPECT_EQ(s.pendingEvents(), 2u);
  EXPECT_TRUE(s.step());
  EXPECT_EQ(s.now(), SimTime::us(2));
  s.run();
  EXPECT_EQ(order, (std::vector<int>{2, 3}));
  EXPECT_FALSE(s.step());
  Simulator a(9), b(9);
  EXPECT_EQ(a.rng()(), b.rng()());
  s.runUntil(SimTime::ms(1));
  EXPECT_EQ(s.now(), SimTime::ms(1));
}

}  // namespace
}  // namespace rdmascope::sim

namespace rdmascope::sim {
namespace {

using namespace testing;

// rxe_mr_init: rkey = (access & (REMOTE_READ | REMOTE_WRITE | REMOTE_ATOMIC)) ? lkey : 0.
TEST(MemoryRegions, WithoutRemoteAccessTheRkeyIsZeroAsOnRxe) {
  Pair p = makePair({});
  const std::uint64_t buf = p.hb().allocate(4096);
  auto local = p.hb().regMr(p.b.pd, buf, 4096, access::kLocalWrite);
  ASSERT_TRUE(local.ok());
  EXPECT_NE(local.value.lkey, 0u);
  EXPECT_EQ(local.value.rkey, 0u);
  auto remote = p.hb().regMr(p.b.pd, buf, 4096, access::kRemoteRead);
  ASSERT_TRUE(remote.ok());
  EXPECT_EQ(remote.value.rkey, remote.value.lkey);
  // A WRITE carrying rkey 0 reaches no MR: NAK remote access error, as the lab shows.
  SendWr wr = sendWr(1, WrOpcode::RdmaWrite, p.a, 0, 64, p.b);
  wr.remoteAddr = buf;
  wr.rkey = local.value.rkey;
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, wr).ok());
  p.net->sim().run();
  auto wa = p.ha().pollCq(p.a.cq, 4);
  ASSERT_EQ(wa.size(), 1u);
  EXPECT_EQ(wa[0].status, WcStatus::RemAccessErr);
  // Deregistering the local-only MR leaves the other MRs usable.
  ASSERT_TRUE(p.hb().deregMr(local.value.lkey).ok());
  Pair q = makePair({});
  ASSERT_TRUE(q.ha().postSend(q.a.qpn, sendWr(1, WrOpcode::RdmaWrite, q.a, 0, 64, q.b)).ok());
  q.net->sim().run();
  auto wq = q.ha().pollCq(q.a.cq, 4);
  ASSERT_EQ(wq.size(), 1u);
  EXPECT_EQ(wq[0].status, WcStatus::Success);
}

TEST(LinkFaults, PsnDropByOccurrenceLosesExactlyThatTransmission) {
  PairOptions o;
  o.timeout = 8;
  o.config.faults.dropPsns = {{0x101, 0, 1, 2}};  // only the resend of 0x101
  o.config.faults.dropPsns.push_back({0x102, 0, 1, 1});
  Pair p = makePair(o);
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, sendWr(1, WrOpcode::RdmaWrite, p.a, 0, 4096, p.b)).ok());
  p.net->sim().runUntil(SimTime::ms(100));
  auto wa = p.ha().pollCq(p.a.cq, 4);
  ASSERT_EQ(wa.size(), 1u);
  EXPECT_EQ(wa[0].status, WcStatus::Success);
  // 0x102 lost once (NAK, resend from 0x102), then nothing of 0x101 is lost: it was sent once.
  EXPECT_EQ(p.net->stats().framesLost, 1u);
}

}  // namespace
}  // namespace rdmascope::sim
