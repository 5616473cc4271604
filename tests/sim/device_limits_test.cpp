#include "rdmascope/sim/device_limits.h"

#include <gtest/gtest.h>

#include <cerrno>

#include "sim_test_support.h"

namespace rdmascope::sim {
namespace {

using namespace testing;

struct OneHost {
  Network net{Network::defaultConfig()};
  Host& h = net.host(0);
  std::uint32_t pd = h.allocPd().value;
  std::uint32_t cq = h.createCq(16).value;
  QpInitAttr init() const {
    QpInitAttr a;
    a.sendCq = a.recvCq = cq;
    return a;
  }
};

TEST(DeviceLimits, RxeQueueSizesAreTwoToTheNMinusOne) {
  EXPECT_EQ(limits::queueCapacity(0), 0u);
  EXPECT_EQ(limits::queueCapacity(1), 1u);
  EXPECT_EQ(limits::queueCapacity(64), 127u);
  EXPECT_EQ(limits::queueCapacity(127), 127u);
  EXPECT_EQ(limits::queueCapacity(500), 511u);
  EXPECT_EQ(limits::kMaxInlineData, 512u);  // 32 SGEs of 16 bytes
  EXPECT_EQ(limits::kMaxCqe, 32767u);
}

TEST(DeviceLimits, CreateQpRefusesCapsAboveRxes) {
  OneHost o;
  struct Case {
    const char* field;
    void (*set)(QpCap&);
  };
  const Case cases[] = {
      {"max_send_wr", [](QpCap& c) { c.maxSendWr = limits::kMaxQpWr + 1; }},
      {"max_recv_wr", [](QpCap& c) { c.maxRecvWr = limits::kMaxQpWr + 1; }},
      {"max_send_sge", [](QpCap& c) { c.maxSendSge = limits::kMaxSge + 1; }},
      {"max_recv_sge", [](QpCap& c) { c.maxRecvSge = limits::kMaxSge + 1; }},
      {"max_inline_data", [](QpCap& c) { c.maxInlineData = limits::kMaxInlineData + 1; }},
  };
  for (const Case& k : cases) {
    QpInitAttr a = o.init();
    k.set(a.cap);
    auto r = o.h.createQp(o.pd, a);
    EXPECT_EQ(r.status.errnum, EINVAL) << k.field;
    EXPECT_NE(r.status.message.find(k.field), std::string::npos) << r.status.message;
  }
  // At the limits it is accepted.
  QpInitAttr a = o.init();
  a.cap.maxSendSge = a.cap.maxRecvSge = limits::kMaxSge;
  a.cap.maxInlineData = limits::kMaxInlineData;
  EXPECT_TRUE(o.h.createQp(o.pd, a).ok());
  // With an SRQ the receive caps are not checked (ib_core ignores them).
  auto srq = o.h.createSrq(o.pd, {16, 1, 0});
  ASSERT_TRUE(srq.ok());
  a = o.init();
  a.srq = srq.value;
  a.cap.maxRecvWr = limits::kMaxQpWr + 1;
  a.cap.maxRecvSge = limits::kMaxSge + 1;
  auto q = o.h.createQp(o.pd, a);
  ASSERT_TRUE(q.ok()) << q.status.message;
  EXPECT_EQ(o.h.queryQp(q.value).value.cap.maxRecvWr, 0u);
}

TEST(DeviceLimits, UnsupportedQpTypeIsEopnotsupp) {
  OneHost o;
  QpInitAttr a = o.init();
  a.qpType = static_cast<QpType>(9);  // IBV_QPT_XRC_SEND
  auto r = o.h.createQp(o.pd, a);
  EXPECT_EQ(r.status.errnum, EOPNOTSUPP);
}

TEST(DeviceLimits, CreateQpReturnsRxesActualCaps) {
  OneHost o;
  QpInitAttr a = o.init();
  a.cap = {64, 500, 1, 1, 0};  // ibv_rc_pingpong's request (rx_depth 500)
  auto q = o.h.createQp(o.pd, a);
  ASSERT_TRUE(q.ok());
  QpCap c = o.h.queryQp(q.value).value.cap;
  EXPECT_EQ(c.maxSendWr, 127u);
  EXPECT_EQ(c.maxRecvWr, 511u);
  EXPECT_EQ(c.maxSendSge, 1u);
  EXPECT_EQ(c.maxRecvSge, 1u);
  EXPECT_EQ(c.maxInlineData, 16u);  // one SGE's worth of WQE

  a.cap = {128, 128, 1, 1, 220};  // a perftest-like inline request
  q = o.h.createQp(o.pd, a);
  ASSERT_TRUE(q.ok());
  c = o.h.queryQp(q.value).value.cap;
  EXPECT_EQ(c.maxSendWr, 255u);
  EXPECT_EQ(c.maxInlineData, 220u);
  EXPECT_EQ(c.maxSendSge, 13u);  // 220 bytes hold 13 SGEs
  a.cap.maxSendWr = 0;           // rxe accepts an empty send queue
  EXPECT_TRUE(o.h.createQp(o.pd, a).ok());
}

TEST(DeviceLimits, SendQueueHoldsItsActualCapacity) {
  PairOptions opt;
  opt.maxWr = 3;  // 2^2 - 1: exactly 3
  Pair p = makePair(opt);
  for (std::uint64_t i = 0; i < 3; ++i) {
    ASSERT_TRUE(p.ha().postSend(p.a.qpn, sendWr(i, WrOpcode::RdmaWrite, p.a, 0, 8, p.b)).ok());
  }
  const VerbsStatus full = p.ha().postSend(p.a.qpn, sendWr(9, WrOpcode::RdmaWrite, p.a, 0, 8, p.b));
  EXPECT_EQ(full.errnum, ENOMEM);
  EXPECT_NE(full.message.find("send queue full"), std::string::npos) << full.message;
  p.net->sim().run();
  EXPECT_EQ(p.ha().pollCq(p.a.cq, 8).size(), 3u);
  EXPECT_TRUE(p.ha().postSend(p.a.qpn, sendWr(9, WrOpcode::RdmaWrite, p.a, 0, 8, p.b)).ok());
}

TEST(DeviceLimits, CreateAndResizeCqFollowRxeCqChkAttr) {
  OneHost o;
  EXPECT_EQ(o.h.createCq(0).status.errnum, EINVAL);
  EXPECT_EQ(o.h.createCq(-1).status.errnum, EINVAL);
  auto big = o.h.createCq(static_cast<int>(limits::kMaxCqe) + 1);
  EXPECT_EQ(big.status.errnum, EINVAL);
  EXPECT_NE(big.status.message.find("max_cqe"), std::string::npos) << big.status.message;
  auto max = o.h.createCq(static_cast<int>(limits::kMaxCqe));
  ASSERT_TRUE(max.ok());
  EXPECT_EQ(o.h.cq(max.value)->depth, 32767);
  auto cq = o.h.createCq(100);
  ASSERT_TRUE(cq.ok());
  EXPECT_EQ(o.h.cq(cq.value)->depth, 127);

  for (int i = 0; i < 5; ++i)
    ASSERT_TRUE(o.h.postCqe(cq.value, WorkCompletion{}));
  EXPECT_EQ(o.h.resizeCq(cq.value, 4).status.errnum, EINVAL);  // holds 5
  EXPECT_EQ(o.h.resizeCq(cq.value, 0).status.errnum, EINVAL);
  EXPECT_EQ(o.h.resizeCq(999, 8).status.errnum, EINVAL);
  auto r = o.h.resizeCq(cq.value, 5);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value, 7);
  EXPECT_EQ(o.h.cqCount(cq.value), 5u);  // completions kept
  EXPECT_EQ(o.h.resizeCq(cq.value, 500).value, 511);
}

TEST(DeviceLimits, OnDemandPagingIsNotSupported) {
  OneHost o;
  const std::uint64_t buf = o.h.allocate(4096);
  auto mr = o.h.regMr(o.pd, buf, 4096, access::kLocalWrite | access::kOnDemand);
  EXPECT_EQ(mr.status.errnum, EOPNOTSUPP);
  EXPECT_NE(mr.status.message.find("ON_DEMAND"), std::string::npos) << mr.status.message;
}

}  // namespace
}  // namespace rdmascope::sim
