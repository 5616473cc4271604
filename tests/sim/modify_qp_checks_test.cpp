#include <gtest/gtest.h>

#include <cerrno>

#include "sim_test_support.h"

namespace rdmascope::sim {
namespace {

using namespace testing;
namespace m = attr_mask;

// A fresh RC QP (number 0x11, the first of its host) in INIT, and the attributes that take it
// to RTR.
struct InitQp {
  Pair p = makePair({});
  std::uint32_t qpn = 0;
  QpAttr rtr;
  unsigned rtrMask = m::kState | m::kAv | m::kPathMtu | m::kDestQpn | m::kRqPsn |
                     m::kMaxDestRdAtomic | m::kMinRnrTimer;
  InitQp() {
    QpInitAttr init;
    init.sendCq = init.recvCq = p.a.cq;
    qpn = p.ha().createQp(p.a.pd, init).value;
    QpAttr a;
    a.qpState = QpState::Init;
    a.portNum = 1;
    EXPECT_TRUE(
        p.ha().modifyQp(qpn, a, m::kState | m::kPkeyIndex | m::kPort | m::kAccessFlags).ok());
    rtr.qpState = QpState::Rtr;
    rtr.pathMtu = Mtu::Mtu1024;
    rtr.destQpNum = p.b.qpn;
    rtr.rqPsn = 0x42;
    rtr.ahAttr.dgid = p.hb().gid();
    rtr.ahAttr.sgidIndex = 1;
    rtr.maxDestRdAtomic = 1;
    rtr.minRnrTimer = 12;
  }
};

TEST(ModifyQpChecks, MissingAttributeIsOneLineInVerbsTerms) {
  Network net;
  Host& h = net.host(0);
  const std::uint32_t pd = h.allocPd().value, cq = h.createCq(4).value;
  QpInitAttr init;
  init.sendCq = init.recvCq = cq;
  const std::uint32_t qpn = h.createQp(pd, init).value;
  ASSERT_EQ(qpn, 0x11u);
  QpAttr a;
  a.qpState = QpState::Init;
  ASSERT_TRUE(h.modifyQp(qpn, a, m::kState | m::kPkeyIndex | m::kPort | m::kAccessFlags).ok());
  a.qpState = QpState::Rtr;
  const VerbsStatus st = h.modifyQp(
      qpn, a,
      m::kState | m::kPathMtu | m::kDestQpn | m::kRqPsn | m::kMaxDestRdAtomic | m::kMinRnrTimer);
  EXPECT_EQ(st.errnum, EINVAL);
  EXPECT_EQ(st.message.rfind("modify_qp(RTR) on QP 0x11: attr_mask is missing IBV_QP_AV (", 0), 0u)
      << st.message;
  EXPECT_EQ(st.message.find('\n'), std::string::npos);
}

TEST(ModifyQpChecks, ExtraAttributeIsNamed) {
  InitQp q;
  const VerbsStatus st = q.p.ha().modifyQp(q.qpn, q.rtr, q.rtrMask | m::kSqPsn);
  EXPECT_EQ(st.errnum, EINVAL);
  EXPECT_NE(st.message.find("attr_mask has IBV_QP_SQ_PSN, which INIT->RTR for RC does not accept"),
            std::string::npos)
      << st.message;
}

TEST(ModifyQpChecks, RoceAddressVectorNeedsAGrh) {
  InitQp q;
  q.rtr.ahAttr.isGlobal = false;
  const VerbsStatus st = q.p.ha().modifyQp(q.qpn, q.rtr, q.rtrMask);
  EXPECT_EQ(st.errnum, EINVAL);
  EXPECT_NE(st.message.find("GRH"), std::string::npos) << st.message;
  EXPECT_EQ(q.p.ha().qpView(q.qpn).state, QpState::Init);  // nothing changed
}

TEST(ModifyQpChecks, EmptySgidIndexIsEnodata) {
  InitQp q;
  q.rtr.ahAttr.sgidIndex = 2;  // rc_pingpong -g 2 on a port with GIDs 0 and 1
  const VerbsStatus st = q.p.ha().modifyQp(q.qpn, q.rtr, q.rtrMask);
  EXPECT_EQ(st.errnum, ENODATA);
  EXPECT_NE(st.message.find("sgid_index 2"), std::string::npos) << st.message;
  q.rtr.ahAttr.sgidIndex = 1;
  EXPECT_TRUE(q.p.ha().modifyQp(q.qpn, q.rtr, q.rtrMask).ok());
}

TEST(ModifyQpChecks, AddressVectorOnAUdQpIsRefused) {
  PairOptions o;
  o.type = QpType::UD;
  Pair p = makePair(o);
  QpAttr a;
  a.qpState = QpState::Rts;
  a.ahAttr.dgid = p.hb().gid();
  const VerbsStatus st = p.ha().modifyQp(p.a.qpn, a, m::kState | m::kAv);
  EXPECT_EQ(st.errnum, EINVAL);
  EXPECT_NE(st.message.find("IBV_QP_AV"), std::string::npos) << st.message;
}

TEST(ModifyQpChecks, RdAtomicDepthsAreRoundedUpAsRxeDoes) {
  InitQp q;
  q.rtr.maxDestRdAtomic = 3;
  ASSERT_TRUE(q.p.ha().modifyQp(q.qpn, q.rtr, q.rtrMask).ok());
  EXPECT_EQ(q.p.ha().queryQp(q.qpn).value.maxDestRdAtomic, 4);
  QpAttr rts;
  rts.qpState = QpState::Rts;
  rts.maxRdAtomic = 5;
  rts.timeout = 14;
  rts.retryCnt = 7;
  rts.rnrRetry = 7;
  ASSERT_TRUE(q.p.ha()
                  .modifyQp(q.qpn, rts,
                            m::kState | m::kSqPsn | m::kTimeout | m::kRetryCnt | m::kRnrRetry |
                                m::kMaxQpRdAtomic)
                  .ok());
  EXPECT_EQ(q.p.ha().queryQp(q.qpn).value.maxRdAtomic, 8);
  rts.maxRdAtomic = 129;
  EXPECT_EQ(q.p.ha().modifyQp(q.qpn, rts, m::kMaxQpRdAtomic).errnum, EINVAL);
}

TEST(ModifyQpChecks, QueryQpReportsWhatProgramsReadBack) {
  Network net;
  Host& h = net.host(0);
  QpInitAttr init;
  init.sendCq = init.recvCq = h.createCq(4).value;
  const std::uint32_t fresh = h.createQp(h.allocPd().value, init).value;
  QpAttr f = h.queryQp(fresh).value;
  EXPECT_EQ(f.qpState, QpState::Reset);
  EXPECT_EQ(f.pathMtu, Mtu::Mtu256);  // rxe_qp_init_misc
  EXPECT_EQ(h.queryQp(0x999).status.errnum, EINVAL);

  PairOptions o;
  o.psnA = 0x123;
  o.psnB = 0x456;
  o.timeout = 17;
  o.retryCnt = 5;
  o.rnrRetry = 6;
  o.minRnrTimer = 9;
  o.maxWr = 64;
  Pair p = makePair(o);
  QpAttr a = p.ha().queryQp(p.a.qpn).value;
  EXPECT_EQ(a.qpState, QpState::Rts);
  EXPECT_EQ(a.curQpState, QpState::Rts);
  EXPECT_EQ(a.pathMtu, Mtu::Mtu1024);
  EXPECT_EQ(a.timeout, 17);
  EXPECT_EQ(a.retryCnt, 5);
  EXPECT_EQ(a.rnrRetry, 6);
  EXPECT_EQ(a.minRnrTimer, 9);
  EXPECT_EQ(a.destQpNum, p.b.qpn);
  EXPECT_EQ(a.sqPsn, 0x123u);
  EXPECT_EQ(a.rqPsn, 0x456u);
  EXPECT_EQ(a.maxRdAtomic, 16);
  EXPECT_EQ(a.maxDestRdAtomic, 16);
  EXPECT_EQ(a.ahAttr.dgid, p.hb().gid());
  EXPECT_EQ(a.qpAccessFlags, access::kRemoteWrite | access::kRemoteRead | access::kRemoteAtomic);
  EXPECT_EQ(a.cap.maxSendWr, 127u);
  EXPECT_EQ(a.cap.maxRecvWr, 127u);
  // sq_psn and rq_psn move with the traffic, as rxe reports qp->req.psn and qp->resp.psn
  ASSERT_TRUE(p.hb().postRecv(p.b.qpn, recvWr(1, p.b, 0, 4096)).ok());
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, sendWr(1, WrOpcode::Send, p.a, 0, 3000, p.b)).ok());
  p.net->sim().run();
  EXPECT_EQ(p.ha().queryQp(p.a.qpn).value.sqPsn, 0x126u);  // three packets
  EXPECT_EQ(p.hb().queryQp(p.b.qpn).value.rqPsn, 0x126u);
  const QpInitAttr qi = p.ha().queryQpInit(p.a.qpn).value;
  EXPECT_EQ(qi.sendCq, p.a.cq);
  EXPECT_EQ(qi.cap.maxSendWr, 127u);
}

TEST(ModifyQpChecks, GidTableHasLinkLocalAndPortGid) {
  Network net;
  Host& h = net.host(0);
  const Gid ll = h.gidAt(0);
  EXPECT_EQ(ll[0], 0xfe);
  EXPECT_EQ(ll[1], 0x80);
  EXPECT_EQ(ll[11], 0xff);
  EXPECT_EQ(ll[12], 0xfe);
  EXPECT_EQ(ll[8], h.config().mac[0] ^ 0x02);
  EXPECT_EQ(ll[15], h.config().mac[5]);
  EXPECT_EQ(h.gidAt(1), h.gid());
  EXPECT_EQ(h.gidAt(2), Gid{});
  EXPECT_TRUE(h.gidValid(1));
  EXPECT_FALSE(h.gidValid(2));
}

}  // namespace
}  // namespace rdmascope::sim
