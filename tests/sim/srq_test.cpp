#include <gtest/gtest.h>

#include <cerrno>

#include "rdmascope/sim/device_limits.h"
#include "sim_test_support.h"

namespace rdmascope::sim {
namespace {

using namespace testing;

// Host A has `n` plain QPs; host B has `n` QPs sharing one SRQ, each connected to one of A's.
struct SrqFabric {
  std::unique_ptr<Network> net;
  std::vector<Side> a, b;
  std::uint32_t srq = 0;
  std::vector<AsyncEvent> events;  ///< what B's async event hook received
  Host& ha() { return net->host(0); }
  Host& hb() { return net->host(1); }
};

std::unique_ptr<SrqFabric> makeSrqFabric(int n, PairOptions o = {}, SrqAttr srqAttr = {64, 2, 0}) {
  auto f = std::make_unique<SrqFabric>();
  o.config.captureFrames = true;
  f->net = std::make_unique<Network>(o.config);
  Host& hb = f->hb();
  hb.setAsyncEventHook([fp = f.get()](const AsyncEvent& e) { fp->events.push_back(e); });
  Side proto = makeSide(hb, o);  // PD, CQ, MR and one plain QP (destroyed below)
  EXPECT_TRUE(hb.destroyQp(proto.qpn).ok());
  auto srq = hb.createSrq(proto.pd, srqAttr);
  EXPECT_TRUE(srq.ok()) << srq.status.message;
  f->srq = srq.value;
  for (int i = 0; i < n; ++i) {
    f->a.push_back(makeSide(f->ha(), o));
    Side s = proto;
    QpInitAttr init;
    init.qpType = o.type;
    init.sendCq = init.recvCq = proto.cq;
    init.srq = f->srq;
    auto q = hb.createQp(proto.pd, init);
    EXPECT_TRUE(q.ok()) << q.status.message;
    s.qpn = q.value;
    f->b.push_back(s);
  }
  for (int i = 0; i < n; ++i) {
    bringUp(f->ha(), f->a[i], hb, f->b[i], o, o.psnA, o.psnB);
    bringUp(hb, f->b[i], f->ha(), f->a[i], o, o.psnB, o.psnA);
  }
  return f;
}

TEST(Srq, SendsConsumeSrqWqesInOrder) {
  auto f = makeSrqFabric(1);
  for (std::uint64_t i = 0; i < 3; ++i) {
    ASSERT_TRUE(f->hb().postSrqRecv(f->srq, recvWr(100 + i, f->b[0], i * 4096, 4096)).ok());
  }
  EXPECT_EQ(f->hb().srqCount(f->srq), 3u);
  fill(f->ha().memory(f->a[0].buf, 3000), 9);
  for (std::uint64_t i = 0; i < 3; ++i) {
    ASSERT_TRUE(
        f->ha()
            .postSend(f->a[0].qpn, sendWr(i, WrOpcode::Send, f->a[0], 0,
                                          static_cast<std::uint32_t>(1000 * (i + 1)), f->b[0]))
            .ok());
  }
  f->net->sim().run();
  auto wc = f->hb().pollCq(f->b[0].cq, 8);
  ASSERT_EQ(wc.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(wc[i].status, WcStatus::Success);
    EXPECT_EQ(wc[i].wrId, 100 + i);
    EXPECT_EQ(wc[i].qpNum, f->b[0].qpn);
    EXPECT_EQ(wc[i].byteLen, 1000 * (i + 1));
  }
  EXPECT_EQ(f->hb().srqCount(f->srq), 0u);
  auto sent = f->ha().memory(f->a[0].buf, 3000);
  auto got = f->hb().memory(f->b[0].buf + 2 * 4096, 3000);
  EXPECT_TRUE(std::equal(sent.begin(), sent.end(), got.begin()));
}

TEST(Srq, TwoQpsShareOneSrq) {
  auto f = makeSrqFabric(2);
  for (std::uint64_t i = 0; i < 2; ++i) {
    ASSERT_TRUE(f->hb().postSrqRecv(f->srq, recvWr(50 + i, f->b[0], i * 4096, 4096)).ok());
  }
  ASSERT_TRUE(
      f->ha().postSend(f->a[1].qpn, sendWr(1, WrOpcode::Send, f->a[1], 0, 64, f->b[1])).ok());
  f->net->sim().run();
  ASSERT_TRUE(
      f->ha().postSend(f->a[0].qpn, sendWr(2, WrOpcode::Send, f->a[0], 0, 32, f->b[0])).ok());
  f->net->sim().run();
  auto wc = f->hb().pollCq(f->b[0].cq, 8);
  ASSERT_EQ(wc.size(), 2u);
  EXPECT_EQ(wc[0].wrId, 50u);
  EXPECT_EQ(wc[0].qpNum, f->b[1].qpn);
  EXPECT_EQ(wc[0].byteLen, 64u);
  EXPECT_EQ(wc[1].wrId, 51u);
  EXPECT_EQ(wc[1].qpNum, f->b[0].qpn);
  EXPECT_EQ(wc[1].byteLen, 32u);
}

TEST(Srq, EmptySrqGivesRnrNakUntilAWqeIsPosted) {
  PairOptions o;
  o.minRnrTimer = 1;
  auto f = makeSrqFabric(1, o);
  ASSERT_TRUE(
      f->ha().postSend(f->a[0].qpn, sendWr(1, WrOpcode::Send, f->a[0], 0, 100, f->b[0])).ok());
  f->net->sim().runUntil(SimTime::us(200));
  int rnrNaks = 0;
  for (const auto& s : packets(*f->net))
    rnrNaks += s.hasAeth && (s.syndrome & 0xe0) == 0x20;  // AETH RNR NAK
  EXPECT_GT(rnrNaks, 0);
  EXPECT_EQ(f->ha().cqCount(f->a[0].cq), 0u);
  ASSERT_TRUE(f->hb().postSrqRecv(f->srq, recvWr(7, f->b[0], 0, 4096)).ok());
  f->net->sim().run();
  auto wa = f->ha().pollCq(f->a[0].cq, 4);
  ASSERT_EQ(wa.size(), 1u);
  EXPECT_EQ(wa[0].status, WcStatus::Success);
  auto wb = f->hb().pollCq(f->b[0].cq, 4);
  ASSERT_EQ(wb.size(), 1u);
  EXPECT_EQ(wb[0].wrId, 7u);
}

TEST(Srq, PostRecvOnAQpWithAnSrqIsEinval) {
  auto f = makeSrqFabric(1);
  const VerbsStatus st = f->hb().postRecv(f->b[0].qpn, recvWr(1, f->b[0], 0, 64));
  EXPECT_EQ(st.errnum, EINVAL);
  EXPECT_NE(st.message.find("SRQ"), std::string::npos) << st.message;
}

TEST(Srq, LimitEventFiresOnceWhenTheCountDropsBelowTheLimit) {
  auto f = makeSrqFabric(1);
  for (std::uint64_t i = 0; i < 4; ++i) {
    ASSERT_TRUE(f->hb().postSrqRecv(f->srq, recvWr(i, f->b[0], i * 256, 256)).ok());
  }
  SrqAttr arm;
  arm.srqLimit = 3;
  ASSERT_TRUE(f->hb().modifySrq(f->srq, arm, srq_attr_mask::kLimit).ok());
  EXPECT_EQ(f->hb().querySrq(f->srq).value.srqLimit, 3u);
  auto sendOne = [&](std::uint64_t id) {
    ASSERT_TRUE(
        f->ha().postSend(f->a[0].qpn, sendWr(id, WrOpcode::Send, f->a[0], 0, 16, f->b[0])).ok());
    f->net->sim().run();
  };
  sendOne(1);  // 3 left: not below 3
  EXPECT_TRUE(f->events.empty());
  sendOne(2);  // 2 left: below the limit
  ASSERT_EQ(f->events.size(), 1u);
  EXPECT_EQ(f->events[0].type, AsyncEventType::SrqLimitReached);
  EXPECT_EQ(static_cast<int>(f->events[0].type), 15);  // IBV_EVENT_SRQ_LIMIT_REACHED
  EXPECT_EQ(f->events[0].srq, f->srq);
  EXPECT_EQ(f->hb().querySrq(f->srq).value.srqLimit, 0u);  // disarmed
  sendOne(3);
  EXPECT_EQ(f->events.size(), 1u);
}

TEST(Srq, CreateModifyAndQueryFollowRxe) {
  Pair p = makePair({});
  Host& h = p.hb();
  auto bad = h.createSrq(p.b.pd, {0, 1, 0});
  EXPECT_EQ(bad.status.errnum, EINVAL);
  bad = h.createSrq(p.b.pd, {16, limits::kMaxSrqSge + 1, 0});
  EXPECT_EQ(bad.status.errnum, EINVAL);
  bad = h.createSrq(p.b.pd, {limits::kMaxSrqWr + 1, 1, 0});
  EXPECT_EQ(bad.status.errnum, EINVAL);
  EXPECT_EQ(h.createSrq(999, {16, 1, 0}).status.errnum, EINVAL);

  auto srq = h.createSrq(p.b.pd, {100, 0, 0});
  ASSERT_TRUE(srq.ok()) << srq.status.message;
  SrqAttr q = h.querySrq(srq.value).value;
  EXPECT_EQ(q.maxWr, 127u);  // rxe's queue: 2^n - 1 slots
  EXPECT_EQ(q.maxSge, 1u);   // raised to RXE_MIN_SRQ_SGE
  EXPECT_EQ(q.srqLimit, 0u);

  SrqAttr a;
  a.srqLimit = 128;
  EXPECT_EQ(h.modifySrq(srq.value, a, srq_attr_mask::kLimit).errnum, EINVAL);
  for (std::uint64_t i = 0; i < 20; ++i) {
    ASSERT_TRUE(h.postSrqRecv(srq.value, recvWr(i, p.b, 0, 8)).ok());
  }
  a.maxWr = 10;
  EXPECT_EQ(h.modifySrq(srq.value, a, srq_attr_mask::kMaxWr).errnum, EINVAL);  // holds 20
  a.maxWr = 300;
  ASSERT_TRUE(h.modifySrq(srq.value, a, srq_attr_mask::kMaxWr).ok());
  EXPECT_EQ(h.querySrq(srq.value).value.maxWr, 511u);
  a.srqLimit = 50;
  ASSERT_TRUE(h.modifySrq(srq.value, a, srq_attr_mask::kLimit).ok());
  a.maxWr = 40;
  EXPECT_EQ(h.modifySrq(srq.value, a, srq_attr_mask::kMaxWr).errnum, EINVAL);  // below limit
  RecvWr tooMany = recvWr(1, p.b, 0, 8);
  tooMany.sgList.push_back(tooMany.sgList[0]);
  EXPECT_EQ(h.postSrqRecv(srq.value, tooMany).errnum, EINVAL);
}

TEST(Srq, FullSrqIsEnomem) {
  Pair p = makePair({});
  auto srq = p.hb().createSrq(p.b.pd, {3, 1, 0});
  ASSERT_TRUE(srq.ok());
  for (std::uint64_t i = 0; i < 3; ++i) {
    ASSERT_TRUE(p.hb().postSrqRecv(srq.value, recvWr(i, p.b, 0, 8)).ok());
  }
  EXPECT_EQ(p.hb().postSrqRecv(srq.value, recvWr(9, p.b, 0, 8)).errnum, ENOMEM);
}

TEST(Srq, DestroySrqIsBusyWhileAQpUsesIt) {
  auto f = makeSrqFabric(1);
  const VerbsStatus busy = f->hb().destroySrq(f->srq);
  EXPECT_EQ(busy.errnum, EBUSY);
  EXPECT_NE(busy.message.find("QP"), std::string::npos) << busy.message;
  ASSERT_TRUE(f->hb().destroyQp(f->b[0].qpn).ok());
  ASSERT_TRUE(f->hb().deregMr(f->b[0].mr.lkey).ok());
  const VerbsStatus pdBusy = f->hb().deallocPd(f->b[0].pd);
  EXPECT_EQ(pdBusy.errnum, EBUSY);
  EXPECT_NE(pdBusy.message.find("SRQ"), std::string::npos) << pdBusy.message;
  EXPECT_TRUE(f->hb().destroySrq(f->srq).ok());
  EXPECT_EQ(f->hb().destroySrq(f->srq).errnum, EINVAL);
  EXPECT_TRUE(f->hb().deallocPd(f->b[0].pd).ok());
}

TEST(Srq, QpMovedToErrRaisesLastWqeReachedAndLeavesTheSrqAlone) {
  auto f = makeSrqFabric(1);
  for (std::uint64_t i = 0; i < 2; ++i) {
    ASSERT_TRUE(f->hb().postSrqRecv(f->srq, recvWr(i, f->b[0], 0, 64)).ok());
  }
  QpAttr a;
  a.qpState = QpState::Err;
  ASSERT_TRUE(f->hb().modifyQp(f->b[0].qpn, a, attr_mask::kState).ok());
  f->net->sim().run();
  ASSERT_EQ(f->events.size(), 1u);
  EXPECT_EQ(f->events[0].type, AsyncEventType::QpLastWqeReached);
  EXPECT_EQ(static_cast<int>(f->events[0].type), 16);  // IBV_EVENT_QP_LAST_WQE_REACHED
  EXPECT_EQ(f->events[0].qpn, f->b[0].qpn);
  EXPECT_EQ(f->hb().srqCount(f->srq), 2u);  // shared WQEs are not flushed
  EXPECT_EQ(f->hb().cqCount(f->b[0].cq), 0u);
}

TEST(Srq, UdReceiveThroughAnSrqGetsTheGrh) {
  PairOptions o;
  o.type = QpType::UD;
  auto f = makeSrqFabric(1, o);
  ASSERT_TRUE(f->hb().postSrqRecv(f->srq, recvWr(5, f->b[0], 0, 40 + 256)).ok());
  SendWr wr = sendWr(1, WrOpcode::Send, f->a[0], 0, 100, f->b[0]);
  wr.ah.dgid = f->hb().gid();
  wr.remoteQpn = f->b[0].qpn;
  wr.remoteQkey = 0x11111111;
  fill(f->ha().memory(f->a[0].buf, 100), 3);
  ASSERT_TRUE(f->ha().postSend(f->a[0].qpn, wr).ok());
  f->net->sim().run();
  auto wc = f->hb().pollCq(f->b[0].cq, 4);
  ASSERT_EQ(wc.size(), 1u);
  EXPECT_EQ(wc[0].status, WcStatus::Success);
  EXPECT_EQ(wc[0].byteLen, 140u);
  EXPECT_EQ(wc[0].srcQp, f->a[0].qpn);
  auto sent = f->ha().memory(f->a[0].buf, 100);
  auto got = f->hb().memory(f->b[0].buf + 40, 100);
  EXPECT_TRUE(std::equal(sent.begin(), sent.end(), got.begin()));
}

// UD with an SRQ, a message that does not fit: class E, the SRQ's WQE completes in error
// (rxe: REM_INV_REQ_ERR) instead of the message being dropped silently.
TEST(Srq, UdMessageTooLongForTheSrqWqeCompletesInError) {
  PairOptions o;
  o.type = QpType::UD;
  auto f = makeSrqFabric(1, o);
  ASSERT_TRUE(f->hb().postSrqRecv(f->srq, recvWr(5, f->b[0], 0, 100)).ok());
  SendWr wr = sendWr(1, WrOpcode::Send, f->a[0], 0, 100, f->b[0]);
  wr.ah.dgid = f->hb().gid();
  wr.remoteQpn = f->b[0].qpn;
  wr.remoteQkey = 0x11111111;
  ASSERT_TRUE(f->ha().postSend(f->a[0].qpn, wr).ok());
  f->net->sim().run();
  auto wc = f->hb().pollCq(f->b[0].cq, 4);
  ASSERT_EQ(wc.size(), 1u);
  EXPECT_EQ(wc[0].wrId, 5u);
  EXPECT_EQ(wc[0].status, WcStatus::RemInvReqErr);
  EXPECT_EQ(f->hb().qpView(f->b[0].qpn).state, QpState::Rts);  // no QP error for UD
}

TEST(Srq, CqOverflowRaisesCqErr) {
  PairOptions o;
  o.cqDepth = 1;
  Pair p = makePair(o);
  std::vector<AsyncEvent> events;
  p.ha().setAsyncEventHook([&](const AsyncEvent& e) { events.push_back(e); });
  for (std::uint64_t i = 0; i < 2; ++i) {
    ASSERT_TRUE(p.ha().postSend(p.a.qpn, sendWr(i, WrOpcode::RdmaWrite, p.a, 0, 8, p.b)).ok());
  }
  p.net->sim().run();
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events[0].type, AsyncEventType::CqErr);
  EXPECT_EQ(events[0].cq, p.a.cq);
}

}  // namespace
}  // namespace rdmascope::sim
