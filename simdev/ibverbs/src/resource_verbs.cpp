// Protection domains, memory regions, completion queues, queue pairs, shared receive queues and
// address handles: each verb holds the NIC's session and calls the simulated host.
#include <arpa/inet.h>
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>

#include "context.h"
#include "conversions.h"
#include "device_attributes.h"

using namespace rdmascope::ibverbs;
using rdmascope::simdev::Nic;
namespace sim = rdmascope::sim;

#undef ibv_reg_mr
#undef ibv_reg_mr_iova

namespace {

constexpr std::uint64_t kSupportedSendOps =
    IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM | IBV_QP_EX_WITH_SEND |
    IBV_QP_EX_WITH_SEND_WITH_IMM | IBV_QP_EX_WITH_RDMA_READ | IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |
    IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD | IBV_QP_EX_WITH_SEND_WITH_INV;

std::string_view qpTypeName(ibv_qp_type type) {
  switch (type) {
    case IBV_QPT_RC:
      return "RC";
    case IBV_QPT_UC:
      return "UC";
    case IBV_QPT_UD:
      return "UD";
    case IBV_QPT_RAW_PACKET:
      return "RAW_PACKET";
    case IBV_QPT_XRC_SEND:
      return "XRC_SEND";
    case IBV_QPT_XRC_RECV:
      return "XRC_RECV";
    case IBV_QPT_DRIVER:
      return "DRIVER";
  }
  return "unknown";
}

ibv_mr* registerMr(std::string_view verb, ibv_pd* pd, void* addr, size_t length, uint64_t iova,
                   unsigned access) {
  if (iova != reinterpret_cast<std::uintptr_t>(addr)) {
    unsupported(fmt::format("{} with an iova other than the address", verb), EOPNOTSUPP);
    return nullptr;
  }
  auto* mr = new (std::nothrow) Mr{};
  if (!mr) {
    errno = ENOMEM;
    return nullptr;
  }
  sim::VerbsResult<sim::MemoryRegionInfo> r;
  {
    Nic::Session s(nicOf(pd->context), "ibv_reg_mr");
    r = s.host().regMr(toPd(pd)->id, reinterpret_cast<std::uintptr_t>(addr), length,
                       simAccess(access));
  }
  if (!r.ok()) {
    fail(verb, r.status);
    delete mr;
    return nullptr;
  }
  mr->mr.context = pd->context;
  mr->mr.pd = pd;
  mr->mr.addr = addr;
  mr->mr.length = length;
  mr->mr.handle = r.value.lkey;
  mr->mr.lkey = r.value.lkey;
  mr->mr.rkey = r.value.rkey;
  return &mr->mr;
}

ibv_qp* createQp(ibv_context* context, ibv_pd* pd, const ibv_qp_init_attr& attr,
                 std::uint64_t sendOps) {
  constexpr std::string_view verb = "ibv_create_qp";
  if (attr.qp_type == IBV_QPT_RAW_PACKET) {
    if (sendOps) {
      unsupported("ibv_create_qp_ex with send_ops_flags on a raw-packet QP", EOPNOTSUPP);
      return nullptr;
    }
    return createRawQp(context, pd, attr);
  }
  if (attr.qp_type != IBV_QPT_RC && attr.qp_type != IBV_QPT_UC && attr.qp_type != IBV_QPT_UD) {
    if (attr.qp_type == IBV_QPT_XRC_SEND || attr.qp_type == IBV_QPT_XRC_RECV) {
      unsupported("ibv_create_qp with an XRC QP type", EOPNOTSUPP);
    } else {
      fail(verb, EINVAL,
           fmt::format("QP type {} is not supported by the simulated device (RC, UC, UD, "
                       "RAW_PACKET)",
                       qpTypeName(attr.qp_type)));
    }
    return nullptr;
  }
  if (!attr.send_cq || !attr.recv_cq) {
    fail(verb, EINVAL, "send_cq and recv_cq are required");
    return nullptr;
  }
  if (sendOps & ~kSupportedSendOps) {
    unsupported(
        fmt::format("ibv_create_qp_ex with send_ops_flags {:#x}", sendOps & ~kSupportedSendOps),
        EOPNOTSUPP);
    return nullptr;
  }
  sim::QpInitAttr init;
  init.qpType = static_cast<sim::QpType>(attr.qp_type);
  init.sendCq = toCq(attr.send_cq)->id;
  init.recvCq = toCq(attr.recv_cq)->id;
  init.cap = toSim(attr.cap);
  init.sqSigAll = attr.sq_sig_all != 0;
  if (attr.srq) useSrq(init, attr.srq);

  auto* qp = new (std::nothrow) Qp{};
  if (!qp) {
    errno = ENOMEM;
    return nullptr;
  }
  ibv_qp& q = qp->qpx.qp_base;
  sim::VerbsResult<std::uint32_t> r;
  {
    Nic::Session s(nicOf(context), "ibv_create_qp");
    r = s.host().createQp(toPd(pd)->id, init);
    if (r.ok()) {
      q.qp_num = r.value;
      registerQp(qp);
      // the caps rxe returns (rounded up): what the QP really holds
      const sim::VerbsResult<sim::QpAttr> created = s.host().queryQp(r.value);
      qp->cap = created.ok() ? fromSim(created.value.cap) : attr.cap;
    }
  }
  if (!r.ok()) {
    fail(verb, r.status);
    delete qp;
    return nullptr;
  }
  q.context = context;
  q.qp_context = attr.qp_context;
  q.pd = pd;
  q.send_cq = attr.send_cq;
  q.recv_cq = attr.recv_cq;
  q.srq = attr.srq;
  q.handle = r.value;
  q.qp_num = r.value;
  q.state = IBV_QPS_RESET;
  q.qp_type = attr.qp_type;
  pthread_mutex_init(&q.mutex, nullptr);
  pthread_cond_init(&q.cond, nullptr);
  qp->type = init.qpType;
  qp->sqSigAll = init.sqSigAll;
  initQpEx(qp, sendOps);
  return &q;
}

ibv_qp* createQpEx(ibv_context* context, ibv_qp_init_attr_ex* attr) {
  constexpr std::uint32_t kSupportedMask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
  if (attr->comp_mask & ~kSupportedMask) {
    unsupported(fmt::format("ibv_create_qp_ex with comp_mask {:#x} (XRC, TSO, RSS, create flags)",
                            attr->comp_mask & ~kSupportedMask),
                EOPNOTSUPP);
    return nullptr;
  }
  if (!(attr->comp_mask & IBV_QP_INIT_ATTR_PD) || !attr->pd) {
    fail("ibv_create_qp_ex", EINVAL, "IBV_QP_INIT_ATTR_PD and a PD are required");
    return nullptr;
  }
  const std::uint64_t ops =
      (attr->comp_mask & IBV_QP_INIT_ATTR_SEND_OPS_FLAGS) ? attr->send_ops_flags : 0;
  ibv_qp_init_attr basic{};
  basic.qp_context = attr->qp_context;
  basic.send_cq = attr->send_cq;
  basic.recv_cq = attr->recv_cq;
  basic.srq = attr->srq;
  basic.cap = attr->cap;
  basic.qp_type = attr->qp_type;
  basic.sq_sig_all = attr->sq_sig_all;
  ibv_qp* qp = createQp(context, attr->pd, basic, ops);
  if (qp) attr->cap = toQp(qp)->cap;
  return qp;
}

}  // namespace

namespace rdmascope::ibverbs {

void initVerbsContextOps(verbs_context& context) {
  context.create_qp_ex = createQpEx;
  initRawPacketOps(context);
}

}  // namespace rdmascope::ibverbs

// --- protection domains and memory regions -------------------------------------------------

RDMASCOPE_IBV_EXPORT ibv_pd* ibv_alloc_pd(ibv_context* context) {
  auto* pd = new (std::nothrow) Pd{};
  if (!pd) {
    errno = ENOMEM;
    return nullptr;
  }
  sim::VerbsResult<std::uint32_t> r;
  {
    Nic::Session s(nicOf(context), "ibv_alloc_pd");
    r = s.host().allocPd();
  }
  if (!r.ok()) {
    fail("ibv_alloc_pd", r.status);
    delete pd;
    return nullptr;
  }
  pd->pd.context = context;
  pd->pd.handle = r.value;
  pd->id = r.value;
  return &pd->pd;
}

RDMASCOPE_IBV_EXPORT int ibv_dealloc_pd(ibv_pd* pd) {
  sim::VerbsStatus st;
  {
    Nic::Session s(nicOf(pd->context), "ibv_dealloc_pd");
    st = s.host().deallocPd(toPd(pd)->id);
  }
  if (!st.ok()) return fail("ibv_dealloc_pd", st);
  delete toPd(pd);
  return 0;
}

RDMASCOPE_IBV_EXPORT ibv_mr* ibv_reg_mr(ibv_pd* pd, void* addr, size_t length, int access) {
  return registerMr("ibv_reg_mr", pd, addr, length, reinterpret_cast<std::uintptr_t>(addr),
                    static_cast<unsigned>(access));
}

RDMASCOPE_IBV_EXPORT ibv_mr* ibv_reg_mr_iova(ibv_pd* pd, void* addr, size_t length, uint64_t iova,
                                             int access) {
  return registerMr("ibv_reg_mr_iova", pd, addr, length, iova, static_cast<unsigned>(access));
}

RDMASCOPE_IBV_EXPORT ibv_mr* ibv_reg_mr_iova2(ibv_pd* pd, void* addr, size_t length, uint64_t iova,
                                              unsigned int access) {
  return registerMr("ibv_reg_mr_iova2", pd, addr, length, iova, access);
}

RDMASCOPE_IBV_EXPORT int ibv_dereg_mr(ibv_mr* mr) {
  sim::VerbsStatus st;
  {
    Nic::Session s(nicOf(mr->context), "ibv_dereg_mr");
    st = s.host().deregMr(mr->lkey);
  }
  if (!st.ok()) return fail("ibv_dereg_mr", st);
  delete reinterpret_cast<Mr*>(mr);
  return 0;
}

// --- completion queues ---------------------------------------------------------------------

RDMASCOPE_IBV_EXPORT ibv_cq* ibv_create_cq(ibv_context* context, int cqe, void* cq_context,
                                           ibv_comp_channel* channel, int comp_vector) {
  constexpr std::string_view verb = "ibv_create_cq";
  if (comp_vector < 0 || comp_vector >= context->num_comp_vectors) {
    fail(verb, EINVAL,
         fmt::format("comp_vector {} outside 0..{}", comp_vector, context->num_comp_vectors - 1));
    return nullptr;
  }
  auto* cq = new (std::nothrow) Cq{};
  if (!cq) {
    errno = ENOMEM;
    return nullptr;
  }
  sim::VerbsResult<std::uint32_t> r;
  {
    Nic::Session s(nicOf(context), "ibv_create_cq");
    r = s.host().createCq(cqe);
    if (r.ok()) {
      cq->id = r.value;
      cq->cq.cqe = s.host().cq(r.value)->depth;  // rxe's 2^n - 1 >= cqe
      registerCq(cq);
    }
  }
  if (!r.ok()) {
    fail(verb, r.status);
    delete cq;
    return nullptr;
  }
  cq->cq.context = context;
  cq->cq.channel = channel;
  cq->cq.cq_context = cq_context;
  cq->cq.handle = r.value;
  pthread_mutex_init(&cq->cq.mutex, nullptr);
  pthread_cond_init(&cq->cq.cond, nullptr);
  if (channel) {
    pthread_mutex_lock(&context->mutex);
    ++channel->refcnt;
    pthread_mutex_unlock(&context->mutex);
  }
  return &cq->cq;
}

RDMASCOPE_IBV_EXPORT int ibv_resize_cq(ibv_cq* cq, int cqe) {
  sim::VerbsResult<int> r;
  {
    Nic::Session s(nicOf(cq->context), "ibv_resize_cq");
    r = s.host().resizeCq(toCq(cq)->id, cqe);
  }
  if (!r.ok()) return fail("ibv_resize_cq", r.status);
  cq->cqe = r.value;
  return 0;
}

RDMASCOPE_IBV_EXPORT int ibv_destroy_cq(ibv_cq* cq) {
  Cq* c = toCq(cq);
  sim::VerbsStatus st;
  {
    Nic::Session s(nicOf(cq->context), "ibv_destroy_cq");
    st = s.host().destroyCq(c->id);
    if (st.ok()) unregisterCq(c);
  }
  if (!st.ok()) return fail("ibv_destroy_cq", st);
  if (cq->channel) {
    pthread_mutex_lock(&cq->context->mutex);
    --cq->channel->refcnt;
    pthread_mutex_unlock(&cq->context->mutex);
  }
  pthread_mutex_destroy(&cq->mutex);
  pthread_cond_destroy(&cq->cond);
  delete c;
  return 0;
}

// --- queue pairs ---------------------------------------------------------------------------

RDMASCOPE_IBV_EXPORT ibv_qp* ibv_create_qp(ibv_pd* pd, ibv_qp_init_attr* attr) {
  ibv_qp* qp = createQp(pd->context, pd, *attr, 0);
  if (qp) attr->cap = toQp(qp)->cap;
  return qp;
}

RDMASCOPE_IBV_EXPORT int ibv_modify_qp(ibv_qp* qp, ibv_qp_attr* attr, int attr_mask) {
  const unsigned mask = static_cast<unsigned>(attr_mask);
  if (Qp* raw = toQp(qp); raw->raw) {
    const int rc = modifyRawQp(raw, *attr, mask);
    if (rc == 0 && (mask & IBV_QP_STATE)) qp->state = attr->qp_state;
    return rc;
  }
  if (mask & (IBV_QP_ALT_PATH | IBV_QP_PATH_MIG_STATE)) {
    return unsupported("ibv_modify_qp with an alternate path (IBV_QP_ALT_PATH)", EOPNOTSUPP);
  }
  sim::VerbsStatus st;
  {
    Nic& nic = nicOf(qp->context);
    Nic::Session s(nic, nic.observed() && (mask & IBV_QP_STATE)
                            ? fmt::format("ibv_modify_qp(QP {:#x} to {})", qp->qp_num,
                                          sim::toString(static_cast<sim::QpState>(attr->qp_state)))
                            : std::string("ibv_modify_qp"));
    st = s.host().modifyQp(qp->qp_num, toSim(*attr), mask);
  }
  if (!st.ok()) return fail(st);
  if (mask & IBV_QP_STATE) qp->state = attr->qp_state;
  return 0;
}

RDMASCOPE_IBV_EXPORT int ibv_query_qp(ibv_qp* qp, ibv_qp_attr* attr, int, ibv_qp_init_attr* init) {
  if (toQp(qp)->raw) {
    queryRawQp(toQp(qp), *attr);
    if (init) {
      *init = ibv_qp_init_attr{};
      init->qp_context = qp->qp_context;
      init->send_cq = qp->send_cq;
      init->recv_cq = qp->recv_cq;
      init->cap = toQp(qp)->cap;
      init->qp_type = qp->qp_type;
    }
    return 0;
  }
  sim::VerbsResult<sim::QpAttr> r;
  {
    Nic::Session s(nicOf(qp->context));
    r = s.host().queryQp(qp->qp_num);
  }
  if (!r.ok()) return fail("ibv_query_qp", r.status);
  Qp* q = toQp(qp);
  *attr = ibv_qp_attr{};
  fromSim(r.value, *attr);
  attr->cap = q->cap;
  if (init) {
    *init = ibv_qp_init_attr{};
    init->qp_context = qp->qp_context;
    init->send_cq = qp->send_cq;
    init->recv_cq = qp->recv_cq;
    init->srq = qp->srq;
    init->cap = q->cap;
    init->qp_type = qp->qp_type;
    init->sq_sig_all = q->sqSigAll ? 1 : 0;
  }
  return 0;
}

RDMASCOPE_IBV_EXPORT int ibv_destroy_qp(ibv_qp* qp) {
  if (toQp(qp)->raw) return destroyRawQp(toQp(qp));
  sim::VerbsStatus st;
  {
    Nic::Session s(nicOf(qp->context), "ibv_destroy_qp");
    st = s.host().destroyQp(qp->qp_num);
    if (st.ok()) unregisterQp(toQp(qp));
  }
  if (!st.ok()) return fail("ibv_destroy_qp", st);
  pthread_mutex_destroy(&qp->mutex);
  pthread_cond_destroy(&qp->cond);
  delete toQp(qp);
  return 0;
}

RDMASCOPE_IBV_EXPORT ibv_qp_ex* ibv_qp_to_qp_ex(ibv_qp* qp) {
  return &toQp(qp)->qpx;
}

// --- address handles -----------------------------------------------------------------------

RDMASCOPE_IBV_EXPORT ibv_ah* ibv_create_ah(ibv_pd* pd, ibv_ah_attr* attr) {
  constexpr std::string_view verb = "ibv_create_ah";
  auto* ah = new (std::nothrow) Ah{};
  if (!ah) {
    errno = ENOMEM;
    return nullptr;
  }
  ah->attr = toSim(*attr);
  sim::VerbsResult<std::uint32_t> r;
  {
    Nic::Session s(nicOf(pd->context), "ibv_create_ah");
    r = s.host().createAh(toPd(pd)->id, ah->attr);
  }
  if (!r.ok()) {
    fail(verb, r.status);
    delete ah;
    return nullptr;
  }
  ah->id = r.value;
  ah->ah.context = pd->context;
  ah->ah.pd = pd;
  ah->ah.handle = r.value;
  return &ah->ah;
}

RDMASCOPE_IBV_EXPORT int ibv_destroy_ah(ibv_ah* ah) {
  sim::VerbsStatus st;
  {
    Nic::Session s(nicOf(ah->context), "ibv_destroy_ah");
    st = s.host().destroyAh(toAh(ah)->id);
  }
  if (!st.ok()) return fail("ibv_destroy_ah", st);
  delete toAh(ah);
  return 0;
}

RDMASCOPE_IBV_EXPORT int ibv_init_ah_from_wc(ibv_context* context, uint8_t port_num, ibv_wc* wc,
                                             ibv_grh* grh, ibv_ah_attr* ah_attr) {
  *ah_attr = ibv_ah_attr{};
  ah_attr->dlid = wc->slid;
  ah_attr->sl = wc->sl;
  ah_attr->src_path_bits = wc->dlid_path_bits;
  ah_attr->port_num = port_num;
  if (!(wc->wc_flags & IBV_WC_GRH)) return 0;
  ah_attr->is_global = 1;
  // RoCEv2 over IPv4 puts the IPv4 header in the last 20 bytes of the 40-byte GRH area.
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(grh);
  const std::uint8_t* ip4 = bytes + 20;
  sim::Gid source{};
  sim::Gid dest{};
  if ((ip4[0] >> 4) == 4 && (ip4[0] & 0xf) == 5) {
    source[10] = source[11] = dest[10] = dest[11] = 0xff;
    std::memcpy(source.data() + 12, ip4 + 12, 4);
    std::memcpy(dest.data() + 12, ip4 + 16, 4);
    ah_attr->grh.traffic_class = ip4[1];
  } else {
    std::memcpy(source.data(), grh->sgid.raw, 16);
    std::memcpy(dest.data(), grh->dgid.raw, 16);
    const std::uint32_t flow = ntohl(grh->version_tclass_flow);
    ah_attr->grh.flow_label = flow & 0xfffff;
    ah_attr->grh.traffic_class = static_cast<std::uint8_t>((flow >> 20) & 0xff);
  }
  std::memcpy(ah_attr->grh.dgid.raw, source.data(), 16);
  ah_attr->grh.hop_limit = 0xff;
  for (int i = 0; i < 2; ++i) {
    sim::Gid g{};
    if (nicOf(context).gid(i, g) && g == dest) {
      ah_attr->grh.sgid_index = static_cast<std::uint8_t>(i);
      return 0;
    }
  }
  return fail("ibv_init_ah_from_wc", ENOENT,
              "the received GRH's destination GID is not in this port's GID table");
}

RDMASCOPE_IBV_EXPORT ibv_ah* ibv_create_ah_from_wc(ibv_pd* pd, ibv_wc* wc, ibv_grh* grh,
                                                   uint8_t port_num) {
  ibv_ah_attr attr{};
  if (ibv_init_ah_from_wc(pd->context, port_num, wc, grh, &attr) != 0) return nullptr;
  return ibv_create_ah(pd, &attr);
}
