// Shared receive queues: ibv_create_srq and the calls on an SRQ, over the simulated host's SRQs.
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <new>

#include "context.h"
#include "conversions.h"
#include "device_attributes.h"

using namespace rdmascope::ibverbs;
using rdmascope::simdev::Nic;
namespace sim = rdmascope::sim;

void rdmascope::ibverbs::useSrq(sim::QpInitAttr& init, ibv_srq* srq) {
  init.srq = toSrq(srq)->id;
}

int rdmascope::ibverbs::postSrqRecv(ibv_srq* srq, ibv_recv_wr* wr, ibv_recv_wr** bad) {
  Nic::Session s(nicOf(srq->context));
  for (; wr; wr = wr->next) {
    const sim::VerbsStatus st = s.host().postSrqRecv(toSrq(srq)->id, toSim(*wr));
    if (!st.ok()) {
      *bad = wr;
      return fail(fmt::format("ibv_post_srq_recv on SRQ {}", toSrq(srq)->id), st);
    }
  }
  return 0;
}

// --- shared receive queues -----------------------------------------------------------------

RDMASCOPE_IBV_EXPORT ibv_srq* ibv_create_srq(ibv_pd* pd, ibv_srq_init_attr* attr) {
  constexpr std::string_view verb = "ibv_create_srq";
  if (attr->attr.max_wr < 1 || attr->attr.max_wr > kSimMaxQpWr ||
      attr->attr.max_sge > static_cast<std::uint32_t>(kRxeMaxSrqSge)) {
    fail(verb, EINVAL,
         fmt::format("max_wr {} outside 1..{} or max_sge {} above {}", attr->attr.max_wr,
                     kSimMaxQpWr, attr->attr.max_sge, kRxeMaxSrqSge));
    return nullptr;
  }
  auto* srq = new (std::nothrow) Srq{};
  if (!srq) {
    errno = ENOMEM;
    return nullptr;
  }
  srq->attr = attr->attr;
  srq->attr.max_wr = rxeQueueRoom(attr->attr.max_wr, kSimMaxQpWr);
  srq->attr.max_sge = std::max(attr->attr.max_sge, 1u);
  sim::SrqInitAttr init;
  init.maxWr = srq->attr.max_wr;
  init.maxSge = srq->attr.max_sge;
  init.srqLimit = attr->attr.srq_limit;
  sim::VerbsResult<std::uint32_t> r;
  {
    Nic::Session s(nicOf(pd->context));
    r = s.host().createSrq(toPd(pd)->id, init);
  }
  if (!r.ok()) {
    fail(verb, r.status);
    delete srq;
    return nullptr;
  }
  srq->id = r.value;
  srq->srq.context = pd->context;
  srq->srq.srq_context = attr->srq_context;
  srq->srq.pd = pd;
  srq->srq.handle = r.value;
  pthread_mutex_init(&srq->srq.mutex, nullptr);
  pthread_cond_init(&srq->srq.cond, nullptr);
  attr->attr = srq->attr;
  return &srq->srq;
}

RDMASCOPE_IBV_EXPORT int ibv_modify_srq(ibv_srq*, ibv_srq_attr*, int) {
  return unsupported("ibv_modify_srq", EOPNOTSUPP);
}

RDMASCOPE_IBV_EXPORT int ibv_query_srq(ibv_srq* srq, ibv_srq_attr* attr) {
  *attr = toSrq(srq)->attr;
  return 0;
}

RDMASCOPE_IBV_EXPORT int ibv_destroy_srq(ibv_srq* srq) {
  sim::VerbsStatus st;
  {
    Nic::Session s(nicOf(srq->context));
    st = s.host().destroySrq(toSrq(srq)->id);
  }
  if (!st.ok()) return fail("ibv_destroy_srq", st);
  pthread_mutex_destroy(&srq->mutex);
  pthread_cond_destroy(&srq->cond);
  delete toSrq(srq);
  return 0;
}
