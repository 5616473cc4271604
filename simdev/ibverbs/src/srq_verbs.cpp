// Shared receive queues: ibv_create_srq and the calls on an SRQ, over the simulated host's SRQs
// (rxe's checks, sizes and limit event are the simulator's).
#include <fmt/format.h>

#include <cerrno>
#include <new>

#include "context.h"
#include "conversions.h"

using namespace rdmascope::ibverbs;
using rdmascope::simdev::Nic;
namespace sim = rdmascope::sim;

namespace rdmascope::ibverbs {

void useSrq(sim::QpInitAttr& init, ibv_srq* srq) {
  init.srq = toSrq(srq)->id;
}

int postSrqRecv(ibv_srq* srq, ibv_recv_wr* wr, ibv_recv_wr** bad) {
  Nic& nic = nicOf(srq->context);
  Nic::Session s(nic, nic.observed() ? std::string("ibv_post_srq_recv") : std::string());
  for (; wr; wr = wr->next) {
    const sim::VerbsStatus st = s.host().postSrqRecv(toSrq(srq)->id, toSim(*wr));
    if (!st.ok()) {
      *bad = wr;
      return fail(fmt::format("ibv_post_srq_recv on SRQ {}", toSrq(srq)->id), st);
    }
  }
  return 0;
}

}  // namespace rdmascope::ibverbs

namespace {

ibv_srq_attr fromSim(const sim::SrqAttr& a) {
  ibv_srq_attr out{};
  out.max_wr = a.maxWr;
  out.max_sge = a.maxSge;
  out.srq_limit = a.srqLimit;
  return out;
}

sim::SrqAttr toSim(const ibv_srq_attr& a) {
  sim::SrqAttr out;
  out.maxWr = a.max_wr;
  out.maxSge = a.max_sge;
  out.srqLimit = a.srq_limit;
  return out;
}

}  // namespace

RDMASCOPE_IBV_EXPORT ibv_srq* ibv_create_srq(ibv_pd* pd, ibv_srq_init_attr* attr) {
  auto* srq = new (std::nothrow) Srq{};
  if (!srq) {
    errno = ENOMEM;
    return nullptr;
  }
  sim::VerbsResult<std::uint32_t> r;
  sim::VerbsResult<sim::SrqAttr> actual;
  {
    Nic::Session s(nicOf(pd->context), "ibv_create_srq");
    r = s.host().createSrq(toPd(pd)->id, toSim(attr->attr));
    if (r.ok()) {
      actual = s.host().querySrq(r.value);
      srq->id = r.value;
      registerSrq(srq);
    }
  }
  if (!r.ok()) {
    fail("ibv_create_srq", r.status);
    delete srq;
    return nullptr;
  }
  srq->srq.context = pd->context;
  srq->srq.srq_context = attr->srq_context;
  srq->srq.pd = pd;
  srq->srq.handle = r.value;
  pthread_mutex_init(&srq->srq.mutex, nullptr);
  pthread_cond_init(&srq->srq.cond, nullptr);
  if (actual.ok()) {
    attr->attr.max_wr = actual.value.maxWr;
    attr->attr.max_sge = actual.value.maxSge;
  }
  return &srq->srq;
}

RDMASCOPE_IBV_EXPORT int ibv_modify_srq(ibv_srq* srq, ibv_srq_attr* attr, int attr_mask) {
  sim::VerbsStatus st;
  {
    Nic::Session s(nicOf(srq->context), "ibv_modify_srq");
    st = s.host().modifySrq(toSrq(srq)->id, toSim(*attr), static_cast<unsigned>(attr_mask));
  }
  if (!st.ok()) return fail(fmt::format("ibv_modify_srq on SRQ {}", toSrq(srq)->id), st);
  return 0;
}

RDMASCOPE_IBV_EXPORT int ibv_query_srq(ibv_srq* srq, ibv_srq_attr* attr) {
  sim::VerbsResult<sim::SrqAttr> r;
  {
    Nic::Session s(nicOf(srq->context));
    r = s.host().querySrq(toSrq(srq)->id);
  }
  if (!r.ok()) return fail(fmt::format("ibv_query_srq on SRQ {}", toSrq(srq)->id), r.status);
  *attr = fromSim(r.value);
  return 0;
}

RDMASCOPE_IBV_EXPORT int ibv_destroy_srq(ibv_srq* srq) {
  sim::VerbsStatus st;
  {
    Nic::Session s(nicOf(srq->context), "ibv_destroy_srq");
    st = s.host().destroySrq(toSrq(srq)->id);
    if (st.ok()) unregisterSrq(toSrq(srq));
  }
  if (!st.ok()) return fail(fmt::format("ibv_destroy_srq on SRQ {}", toSrq(srq)->id), st);
  pthread_mutex_destroy(&srq->mutex);
  pthread_cond_destroy(&srq->cond);
  delete toSrq(srq);
  return 0;
}
