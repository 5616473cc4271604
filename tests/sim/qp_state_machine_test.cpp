#include "rdmascope/sim/qp_state_machine.h"

#include <gtest/gtest.h>

#include "sim_test_support.h"

namespace rdmascope::sim {
namespace {

namespace m = attr_mask;
constexpr QpState kStates[] = {QpState::Reset, QpState::Init, QpState::Rtr, QpState::Rts,
                               QpState::Sqd,   QpState::Sqe,  QpState::Err};
constexpr QpType kTypes[] = {QpType::RC, QpType::UC, QpType::UD};

TEST(QpStateMachine, LegalTransitionsMatchTheKernelTable) {
  // rows of qp_state_table that are valid for every type
  auto legal = [](QpState f, QpState t, QpType ty) {
    if (t == QpState::Reset && f != QpState::Reset) return true;
    if (t == QpState::Err && f != QpState::Reset) return true;
    if (f == QpState::Reset) return t == QpState::Reset || t == QpState::Init;
    if (f == QpState::Init) return t == QpState::Init || t == QpState::Rtr;
    if (f == QpState::Rtr) return t == QpState::Rts;
    if (f == QpState::Rts) return t == QpState::Rts || t == QpState::Sqd;
    if (f == QpState::Sqd) return t == QpState::Rts || t == QpState::Sqd;
    if (f == QpState::Sqe) return t == QpState::Rts;
    (void)ty;
    return false;
  };
  for (QpType ty : kTypes) {
    for (QpState f : kStates) {
      for (QpState t : kStates) {
        EXPECT_EQ(transitionRule(f, t, ty).valid, legal(f, t, ty))
            << toString(f) << "->" << toString(t) << " " << toString(ty);
      }
    }
  }
}

TEST(QpStateMachine, RequiredAndOptionalMasks) {
  EXPECT_EQ(transitionRule(QpState::Reset, QpState::Init, QpType::UD).required,
            m::kPkeyIndex | m::kPort | m::kQkey);
  EXPECT_EQ(transitionRule(QpState::Reset, QpState::Init, QpType::RC).required,
            m::kPkeyIndex | m::kPort | m::kAccessFlags);
  EXPECT_EQ(transitionRule(QpState::Init, QpState::Rtr, QpType::RC).required,
            m::kAv | m::kPathMtu | m::kDestQpn | m::kRqPsn | m::kMaxDestRdAtomic | m::kMinRnrTimer);
  EXPECT_EQ(transitionRule(QpState::Init, QpState::Rtr, QpType::UC).required,
            m::kAv | m::kPathMtu | m::kDestQpn | m::kRqPsn);
  EXPECT_EQ(transitionRule(QpState::Init, QpState::Rtr, QpType::UD).required, 0u);
  EXPECT_EQ(transitionRule(QpState::Rtr, QpState::Rts, QpType::RC).required,
            m::kTimeout | m::kRetryCnt | m::kRnrRetry | m::kSqPsn | m::kMaxQpRdAtomic);
  EXPECT_EQ(transitionRule(QpState::Rtr, QpState::Rts, QpType::UD).required, m::kSqPsn);
  EXPECT_EQ(transitionRule(QpState::Rts, QpState::Sqd, QpType::UC).optional, m::kEnSqdAsyncNotify);
  EXPECT_EQ(transitionRule(QpState::Sqe, QpState::Rts, QpType::RC).optional, 0u);
}

TEST(QpStateMachine, EveryTransitionAcceptsExactlyItsMasks) {
  for (QpType ty : kTypes) {
    for (QpState f : kStates) {
      for (QpState t : kStates) {
        const TransitionRule r = transitionRule(f, t, ty);
        const unsigned full = m::kState | r.required;
        if (!r.valid) {
          EXPECT_NE(checkTransition(f, t, ty, full), "");
          continue;
        }
        EXPECT_EQ(checkTransition(f, t, ty, full), "") << toString(f) << "->" << toString(t);
        EXPECT_EQ(checkTransition(f, t, ty, full | r.optional), "");
        for (unsigned bit = 1; bit <= m::kDestQpn; bit <<= 1) {
          if (r.required & bit) {
            const std::string e = checkTransition(f, t, ty, full & ~bit);
            EXPECT_NE(e.find("missing " + attrMaskNames(bit)), std::string::npos) << e;
          } else if (!(r.optional & bit) && bit != m::kState) {
            const std::string e = checkTransition(f, t, ty, full | bit);
            EXPECT_NE(e, "") << toString(f) << "->" << toString(t) << " " << attrMaskNames(bit);
          }
        }
      }
    }
  }
}

TEST(QpStateMachine, MessageNamesMissingAttribute) {
  const std::string e = checkTransition(
      QpState::Init, QpState::Rtr, QpType::RC,
      m::kState | m::kAv | m::kPathMtu | m::kRqPsn | m::kMaxDestRdAtomic | m::kMinRnrTimer);
  EXPECT_EQ(e,
            "attr_mask is missing IBV_QP_DEST_QPN (INIT->RTR for RC requires IBV_QP_AV, "
            "IBV_QP_PATH_MTU, IBV_QP_RQ_PSN, IBV_QP_MIN_RNR_TIMER, IBV_QP_MAX_DEST_RD_ATOMIC, "
            "IBV_QP_DEST_QPN)");
}

TEST(QpStateMachine, LiveQpWalksResetInitRtrRtsSqdRtsErrReset) {
  for (QpType ty : kTypes) {
    testing::PairOptions o;
    o.type = ty;
    testing::Pair p = testing::makePair(o);
    Host& h = p.ha();
    EXPECT_EQ(h.qpView(p.a.qpn).state, QpState::Rts);
    QpAttr a;
    a.qpState = QpState::Init;
    auto st = h.modifyQp(p.a.qpn, a, m::kState);
    EXPECT_EQ(st.errnum, EINVAL);
    EXPECT_NE(st.message.find("not a legal"), std::string::npos);
    a.qpState = QpState::Sqd;
    EXPECT_TRUE(h.modifyQp(p.a.qpn, a, m::kState).ok());
    EXPECT_EQ(h.qpView(p.a.qpn).state, QpState::Sqd);
    a.qpState = QpState::Rts;
    EXPECT_TRUE(h.modifyQp(p.a.qpn, a, m::kState).ok());
    a.qpState = QpState::Err;
    EXPECT_TRUE(h.modifyQp(p.a.qpn, a, m::kState).ok());
    EXPECT_EQ(h.qpView(p.a.qpn).state, QpState::Err);
    a.qpState = QpState::Rts;
    EXPECT_EQ(h.modifyQp(p.a.qpn, a, m::kState).errnum, EINVAL);
    a.qpState = QpState::Reset;
    EXPECT_TRUE(h.modifyQp(p.a.qpn, a, m::kState).ok());
    EXPECT_EQ(h.qpView(p.a.qpn).state, QpState::Reset);
    // RESET->RTR skips INIT
    a.qpState = QpState::Rtr;
    EXPECT_EQ(h.modifyQp(p.a.qpn, a, m::kState).errnum, EINVAL);
  }
}

TEST(QpStateMachine, ErrFlushesBothQueues) {
  testing::Pair p = testing::makePair({});
  Host& h = p.hb();
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(h.postRecv(p.b.qpn, testing::recvWr(i, p.b, 0, 64)).ok());
  QpAttr a;
  a.qpState = QpState::Err;
  ASSERT_TRUE(h.modifyQp(p.b.qpn, a, m::kState).ok());
  ASSERT_TRUE(h.postSend(p.b.qpn, testing::sendWr(9, WrOpcode::Send, p.b, 0, 8, p.a)).ok());
  p.net->sim().run();
  auto wc = h.pollCq(p.b.cq, 10);
  ASSERT_EQ(wc.size(), 4u);
  for (const auto& w : wc)
    EXPECT_EQ(w.status, WcStatus::WrFlushErr);
}

}  // namespace
}  // namespace rdmascope::sim
