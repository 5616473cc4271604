#include <gtest/gtest.h>

#include <cerrno>

#include "sim_test_support.h"

namespace rdmascope::sim {
namespace {

using namespace testing;

bool hasQp(Host& h, std::uint32_t qpn) {
  const auto all = h.qpNumbers();
  return std::find(all.begin(), all.end(), qpn) != all.end();
}

TEST(DestroyVerbs, DestroyQpRemovesItAndUnknownQpIsEinval) {
  Pair p = makePair({});
  ASSERT_TRUE(p.ha().destroyQp(p.a.qpn).ok());
  EXPECT_FALSE(hasQp(p.ha(), p.a.qpn));
  const VerbsStatus again = p.ha().destroyQp(p.a.qpn);
  EXPECT_EQ(again.errnum, EINVAL);
  EXPECT_NE(again.message.find("destroy_qp"), std::string::npos) << again.message;
  EXPECT_EQ(p.ha().postSend(p.a.qpn, sendWr(1, WrOpcode::Send, p.a, 0, 8, p.b)).errnum, EINVAL);
}

// A QP destroyed while its requester run, its retransmit timer and in-flight frames are pending:
// the simulator still holds events for the object; they must run as no-ops.
TEST(DestroyVerbs, DestroyQpWithPendingEventsIsSafe) {
  PairOptions o;
  o.timeout = 10;
  Pair p = makePair(o);
  for (std::uint64_t i = 0; i < 8; ++i) {
    ASSERT_TRUE(p.ha().postSend(p.a.qpn, sendWr(i, WrOpcode::RdmaWrite, p.a, 0, 4096, p.b)).ok());
  }
  // Let the first packets leave (timer armed, requester rescheduled), then destroy.
  p.net->sim().runUntil(SimTime::us(1));
  ASSERT_GT(p.net->sim().pendingEvents(), 0u);
  ASSERT_TRUE(p.ha().destroyQp(p.a.qpn).ok());
  p.net->sim().run();
  EXPECT_EQ(p.ha().cqCount(p.a.cq), 0u);  // no completions for a destroyed QP's WRs
  // The host keeps working: a new QP on the same CQ is created and the CQ can go after it.
  QpInitAttr init;
  init.sendCq = init.recvCq = p.a.cq;
  auto q = p.ha().createQp(p.a.pd, init);
  ASSERT_TRUE(q.ok()) << q.status.message;
  EXPECT_NE(q.value, p.a.qpn);
}

// A program that destroys its QP from inside the completion path (the device's completion hook
// runs inside the responder's engine): the engine finishes on a live object and the QP is
// freed only by its own last event.
TEST(DestroyVerbs, DestroyQpFromTheCompletionHook) {
  Pair p = makePair({});
  int completions = 0;
  p.hb().setCompletionHook([&](std::uint32_t) {
    if (++completions == 1) {
      EXPECT_TRUE(p.hb().destroyQp(p.b.qpn).ok());
    }
  });
  for (std::uint64_t i = 0; i < 3; ++i) {
    ASSERT_TRUE(p.hb().postRecv(p.b.qpn, recvWr(i, p.b, i * 4096, 4096)).ok());
  }
  for (std::uint64_t i = 0; i < 3; ++i) {
    ASSERT_TRUE(p.ha().postSend(p.a.qpn, sendWr(i, WrOpcode::Send, p.a, 0, 2000, p.b)).ok());
  }
  p.net->sim().runUntil(SimTime::ms(5));
  EXPECT_EQ(completions, 1);
  EXPECT_FALSE(hasQp(p.hb(), p.b.qpn));
  auto wb = p.hb().pollCq(p.b.cq, 8);
  ASSERT_EQ(wb.size(), 1u);
  EXPECT_EQ(wb[0].status, WcStatus::Success);
}

// The peer's QP goes away mid-transfer (its program exited): the requester's packets reach no
// QP and are dropped, so it ends with RETRY_EXC_ERR and flushes the rest, as with rxe.
TEST(DestroyVerbs, PeerQpDestroyedGivesRetryExceeded) {
  PairOptions o;
  o.timeout = 8;
  o.retryCnt = 2;
  Pair p = makePair(o);
  ASSERT_TRUE(p.hb().destroyQp(p.b.qpn).ok());
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, sendWr(1, WrOpcode::RdmaWrite, p.a, 0, 64, p.b)).ok());
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, sendWr(2, WrOpcode::RdmaWrite, p.a, 0, 64, p.b)).ok());
  p.net->sim().run();
  auto wc = p.ha().pollCq(p.a.cq, 8);
  ASSERT_EQ(wc.size(), 2u);
  EXPECT_EQ(wc[0].status, WcStatus::RetryExcErr);
  EXPECT_EQ(wc[1].status, WcStatus::WrFlushErr);
}

TEST(DestroyVerbs, DestroyCqIsBusyWhileAQpUsesIt) {
  Pair p = makePair({});
  const VerbsStatus busy = p.ha().destroyCq(p.a.cq);
  EXPECT_EQ(busy.errnum, EBUSY);
  EXPECT_NE(busy.message.find("QP"), std::string::npos) << busy.message;
  ASSERT_TRUE(p.ha().destroyQp(p.a.qpn).ok());
  EXPECT_TRUE(p.ha().destroyCq(p.a.cq).ok());
  EXPECT_EQ(p.ha().destroyCq(p.a.cq).errnum, EINVAL);
  EXPECT_EQ(p.ha().destroyCq(999).errnum, EINVAL);
}

TEST(DestroyVerbs, DeallocPdIsBusyWhileItsObjectsExist) {
  Pair p = makePair({});
  Host& h = p.ha();
  auto ah = h.createAh(p.a.pd, [&] {
    AhAttr a;
    a.dgid = p.hb().gid();
    return a;
  }());
  ASSERT_TRUE(ah.ok()) << ah.status.message;
  EXPECT_EQ(h.deallocPd(p.a.pd).errnum, EBUSY);  // QP, MR and AH
  ASSERT_TRUE(h.destroyQp(p.a.qpn).ok());
  EXPECT_EQ(h.deallocPd(p.a.pd).errnum, EBUSY);  // MR and AH
  ASSERT_TRUE(h.deregMr(p.a.mr.lkey).ok());
  const VerbsStatus byAh = h.deallocPd(p.a.pd);
  EXPECT_EQ(byAh.errnum, EBUSY);
  EXPECT_NE(byAh.message.find("AH"), std::string::npos) << byAh.message;
  ASSERT_TRUE(h.destroyAh(ah.value).ok());
  EXPECT_EQ(h.destroyAh(ah.value).errnum, EINVAL);
  EXPECT_TRUE(h.deallocPd(p.a.pd).ok());
  EXPECT_EQ(h.deallocPd(p.a.pd).errnum, EINVAL);
}

TEST(DestroyVerbs, DeregMrTwiceIsEinvalAndItsKeysStopWorking) {
  Pair p = makePair({});
  ASSERT_TRUE(p.hb().postRecv(p.b.qpn, recvWr(7, p.b, 0, 64)).ok());
  ASSERT_TRUE(p.ha().deregMr(p.a.mr.lkey).ok());
  EXPECT_FALSE(p.ha().mrRegistered(p.a.mr.lkey));
  EXPECT_EQ(p.ha().deregMr(p.a.mr.lkey).errnum, EINVAL);
  // The lkey no longer resolves: the SEND completes in error locally.
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, sendWr(1, WrOpcode::Send, p.a, 0, 64, p.b)).ok());
  p.net->sim().run();
  auto wc = p.ha().pollCq(p.a.cq, 4);
  ASSERT_EQ(wc.size(), 1u);
  EXPECT_EQ(wc[0].status, WcStatus::LocProtErr);
}

TEST(DestroyVerbs, DeregisteredRkeyIsRefusedRemotely) {
  Pair p = makePair({});
  ASSERT_TRUE(p.ha().deregMr(p.a.mr.lkey).ok());
  ASSERT_TRUE(p.hb().postSend(p.b.qpn, sendWr(2, WrOpcode::RdmaWrite, p.b, 0, 64, p.a)).ok());
  p.net->sim().run();
  auto wb = p.hb().pollCq(p.b.cq, 4);
  ASSERT_EQ(wb.size(), 1u);
  EXPECT_EQ(wb[0].status, WcStatus::RemAccessErr);
}

TEST(DestroyVerbs, AddressHandleOnRoceNeedsAGrh) {
  Pair p = makePair({});
  AhAttr a;
  a.isGlobal = false;
  auto r = p.ha().createAh(p.a.pd, a);
  EXPECT_EQ(r.status.errnum, EINVAL);
  EXPECT_NE(r.status.message.find("GRH"), std::string::npos) << r.status.message;
  a.isGlobal = true;
  a.dgid = p.hb().gid();
  r = p.ha().createAh(p.a.pd, a);
  ASSERT_TRUE(r.ok());
  ASSERT_NE(p.ha().ah(r.value), nullptr);
  EXPECT_EQ(p.ha().ah(r.value)->dgid, p.hb().gid());
  EXPECT_EQ(p.ha().createAh(999, a).status.errnum, EINVAL);
}

}  // namespace
}  // namespace rdmascope::sim
