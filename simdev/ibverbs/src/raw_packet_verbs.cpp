// Raw-packet QPs, sniffer flow rules and extended CQs with completion timestamps: how a capture
// program (libpcap's rdmasniff, ibdump, rdmascope-cli capture -i rdmascope0) sees every frame of
// the port, as an mlx5 NIC lets it. The QP's receive queue is the only buffer: a frame that
// finds it empty is dropped and counted (hw_counters/out_of_buffer), as on the NIC.
#include <fmt/format.h>
#include <time.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <new>
#include <vector>

#include "context.h"
#include "conversions.h"

using namespace rdmascope::ibverbs;
using rdmascope::simdev::Nic;
namespace sim = rdmascope::sim;

namespace rdmascope::ibverbs {

struct RawQp {
  Pd* pd = nullptr;
  Cq* recvCq = nullptr;
  std::uint32_t maxRecvWr = 0;
  std::uint32_t maxRecvSge = 0;
  ibv_qp_state state = IBV_QPS_RESET;
  std::uint8_t port = 0;
  std::deque<sim::RecvWr> rq;
  int flows = 0;
};

}  // namespace rdmascope::ibverbs

namespace {

constexpr std::uint32_t kFirstRawQpn = 0x800000;  // apart from the simulated host's QPNs
constexpr std::uint32_t kMaxRawWr = sim::limits::kMaxQpWr;
constexpr std::uint32_t kMaxRawSge = 16;

struct Flow {
  ibv_flow flow;
  Qp* qp = nullptr;
};

// Guarded by the NIC's session, as the simulated host is.
std::uint32_t nextRawQpn = kFirstRawQpn;
std::vector<Flow*> flows;  ///< the sniffer flows, in the order they were created
std::uint64_t outOfBuffer = 0;
std::uint32_t nextFlowHandle = 1;

void complete(sim::Host& host, Qp* qp, const sim::RecvWr& wr, sim::WcStatus status,
              std::uint32_t length, std::int64_t ns) {
  sim::WorkCompletion wc;
  wc.wrId = wr.wrId;
  wc.status = status;
  wc.opcode = sim::WcOpcode::Recv;
  wc.byteLen = length;
  wc.qpNum = qp->qpx.qp_base.qp_num;
  wc.timestampNs = static_cast<std::uint64_t>(ns);
  host.postCqe(qp->raw->recvCq->id, wc);
}

// Puts a frame of the port in each sniffer QP's receive queue (called by the NIC under the
// session for every frame its host's port sends or receives).
void deliver(sim::Host& host, std::span<const std::uint8_t> frame, std::int64_t ns) {
  for (Flow* f : flows) {
    Qp* qp = f->qp;
    RawQp& raw = *qp->raw;
    if (raw.state != IBV_QPS_RTR && raw.state != IBV_QPS_RTS) continue;
    if (raw.rq.empty()) {
      ++outOfBuffer;
      continue;
    }
    const sim::RecvWr wr = std::move(raw.rq.front());
    raw.rq.pop_front();
    std::size_t room = 0;
    for (const sim::Sge& g : wr.sgList)
      room += g.length;
    if (room < frame.size()) {
      complete(host, qp, wr, sim::WcStatus::LocLenErr, static_cast<std::uint32_t>(frame.size()),
               ns);
      continue;
    }
    std::size_t at = 0;
    for (const sim::Sge& g : wr.sgList) {
      if (at == frame.size()) break;
      const std::size_t n = std::min<std::size_t>(g.length, frame.size() - at);
      std::memcpy(reinterpret_cast<void*>(static_cast<std::uintptr_t>(g.addr)), frame.data() + at,
                  n);
      at += n;
    }
    complete(host, qp, wr, sim::WcStatus::Success, static_cast<std::uint32_t>(frame.size()), ns);
  }
}

void flush(Nic::Session& s, Qp* qp) {
  for (const sim::RecvWr& wr : qp->raw->rq)
    complete(s.host(), qp, wr, sim::WcStatus::WrFlushErr, 0, 0);
  qp->raw->rq.clear();
}

ibv_flow* createFlow(ibv_qp* qp, ibv_flow_attr* attr) {
  constexpr std::string_view verb = "ibv_create_flow";
  Qp* q = toQp(qp);
  if (!q->raw) {
    fail(verb, EINVAL, "the QP is not a raw-packet QP");
    return nullptr;
  }
  if (attr->type != IBV_FLOW_ATTR_SNIFFER) {
    unsupported("ibv_create_flow with a flow type other than IBV_FLOW_ATTR_SNIFFER", EOPNOTSUPP);
    return nullptr;
  }
  if (attr->num_of_specs != 0 || attr->comp_mask != 0) {
    unsupported("ibv_create_flow with flow specifications", EOPNOTSUPP);
    return nullptr;
  }
  if (attr->port != 1) {
    fail(verb, EINVAL, fmt::format("no port {}", attr->port));
    return nullptr;
  }
  Nic& nic = nicOf(qp->context);
  if (!nic.sniffing()) {
    fail(verb, EOPNOTSUPP,
         "a sniffer flow needs a program attached as a sniffer: rdmascope-cli exec --host N "
         "--sniff -- PROGRAM");
    return nullptr;
  }
  auto* f = new (std::nothrow) Flow{};
  if (!f) {
    errno = ENOMEM;
    return nullptr;
  }
  static std::once_flag once;
  std::call_once(once, [&nic] { nic.setSniffListener(deliver); });
  Nic::Session s(nic, "ibv_create_flow");
  f->flow.context = qp->context;
  f->flow.handle = nextFlowHandle++;
  f->qp = q;
  ++q->raw->flows;
  flows.push_back(f);
  return &f->flow;
}

int destroyFlow(ibv_flow* flow) {
  auto* f = reinterpret_cast<Flow*>(flow);
  {
    Nic::Session s(nicOf(flow->context), "ibv_destroy_flow");
    flows.erase(std::remove(flows.begin(), flows.end(), f), flows.end());
    --f->qp->raw->flows;
  }
  delete f;
  return 0;
}

}  // namespace

// --- extended CQs --------------------------------------------------------------------------

namespace {

Cq* ofCqEx(ibv_cq_ex* cq) {
  return reinterpret_cast<Cq*>(cq);
}

int pollOne(ibv_cq_ex* cq) {
  Cq* c = ofCqEx(cq);
  std::vector<sim::WorkCompletion> got;
  {
    Nic::Session s(nicOf(cq->context));
    got = s.host().pollCq(c->id, 1);
  }
  if (got.empty()) return ENOENT;
  c->current = got.front();
  cq->status = static_cast<ibv_wc_status>(c->current.status);
  cq->wr_id = c->current.wrId;
  return 0;
}

int startPoll(ibv_cq_ex* cq, ibv_poll_cq_attr* attr) {
  if (attr && attr->comp_mask) return EINVAL;
  return pollOne(cq);
}

int nextPoll(ibv_cq_ex* cq) {
  return pollOne(cq);
}

void endPoll(ibv_cq_ex*) {}

ibv_wc_opcode readOpcode(ibv_cq_ex* cq) {
  return static_cast<ibv_wc_opcode>(ofCqEx(cq)->current.opcode);
}
uint32_t readVendorErr(ibv_cq_ex* cq) {
  return ofCqEx(cq)->current.vendorErr;
}
uint32_t readByteLen(ibv_cq_ex* cq) {
  return ofCqEx(cq)->current.byteLen;
}
__be32 readImmData(ibv_cq_ex* cq) {
  return htobe32(ofCqEx(cq)->current.immData);
}
uint32_t readQpNum(ibv_cq_ex* cq) {
  return ofCqEx(cq)->current.qpNum;
}
uint32_t readSrcQp(ibv_cq_ex* cq) {
  return ofCqEx(cq)->current.srcQp;
}
unsigned int readWcFlags(ibv_cq_ex* cq) {
  return ofCqEx(cq)->current.wcFlags;
}
uint32_t readSlid(ibv_cq_ex* cq) {
  return ofCqEx(cq)->current.slid;
}
uint8_t readSl(ibv_cq_ex* cq) {
  return ofCqEx(cq)->current.sl;
}
uint8_t readDlidPathBits(ibv_cq_ex*) {
  return 0;
}
// The device's clock runs in ns of Unix time (hca_core_clock 1 GHz), so the raw completion
// timestamp and the wall-clock one are the same number.
uint64_t readCompletionTs(ibv_cq_ex* cq) {
  return ofCqEx(cq)->current.timestampNs;
}

ibv_cq_ex* createCqEx(ibv_context* context, ibv_cq_init_attr_ex* attr) {
  constexpr auto kStandard = static_cast<std::uint64_t>(IBV_WC_STANDARD_FLAGS);
  constexpr auto kTs = static_cast<std::uint64_t>(IBV_WC_EX_WITH_COMPLETION_TIMESTAMP);
  constexpr auto kWall = static_cast<std::uint64_t>(IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK);
  constexpr std::uint64_t kSupported = kStandard | kTs | kWall;
  if (attr->wc_flags & ~kSupported) {
    unsupported(fmt::format("ibv_create_cq_ex with wc_flags {:#x}", attr->wc_flags & ~kSupported),
                EOPNOTSUPP);
    return nullptr;
  }
  if (attr->comp_mask & ~static_cast<std::uint32_t>(IBV_CQ_INIT_ATTR_MASK_FLAGS)) {
    unsupported(fmt::format("ibv_create_cq_ex with comp_mask {:#x}", attr->comp_mask), EOPNOTSUPP);
    return nullptr;
  }
  ibv_cq* base = ibv_create_cq(context, static_cast<int>(attr->cqe), attr->cq_context,
                               attr->channel, static_cast<int>(attr->comp_vector));
  if (!base) return nullptr;
  Cq* c = toCq(base);
  c->wcFlags = attr->wc_flags;
  ibv_cq_ex& x = c->cqx;
  x.start_poll = startPoll;
  x.next_poll = nextPoll;
  x.end_poll = endPoll;
  x.read_opcode = readOpcode;
  x.read_vendor_err = readVendorErr;
  x.read_byte_len = readByteLen;
  x.read_imm_data = readImmData;
  x.read_qp_num = readQpNum;
  x.read_src_qp = readSrcQp;
  x.read_wc_flags = readWcFlags;
  x.read_slid = readSlid;
  x.read_sl = readSl;
  x.read_dlid_path_bits = readDlidPathBits;
  if (attr->wc_flags & IBV_WC_EX_WITH_COMPLETION_TIMESTAMP) x.read_completion_ts = readCompletionTs;
  if (attr->wc_flags & IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK) {
    x.read_completion_wallclock_ns = readCompletionTs;
  }
  return &x;
}

int queryRtValues(ibv_context*, ibv_values_ex* values) {
  if (values->comp_mask & ~static_cast<std::uint32_t>(IBV_VALUES_MASK_RAW_CLOCK)) return EINVAL;
  if (values->comp_mask & IBV_VALUES_MASK_RAW_CLOCK) {
    ::clock_gettime(CLOCK_REALTIME, &values->raw_clock);
  }
  return 0;
}

}  // namespace

// --- raw-packet QPs ------------------------------------------------------------------------

namespace rdmascope::ibverbs {

ibv_qp* createRawQp(ibv_context* context, ibv_pd* pd, const ibv_qp_init_attr& attr) {
  constexpr std::string_view verb = "ibv_create_qp";
  if (!attr.recv_cq || !attr.send_cq) {
    fail(verb, EINVAL, "send_cq and recv_cq are required");
    return nullptr;
  }
  if (attr.srq) {
    fail(verb, EINVAL, "a raw-packet QP of the simulated device takes no SRQ");
    return nullptr;
  }
  if (attr.cap.max_recv_wr > kMaxRawWr || attr.cap.max_recv_sge > kMaxRawSge) {
    fail(verb, EINVAL,
         fmt::format("max_recv_wr {} / max_recv_sge {} beyond the device's {} / {}",
                     attr.cap.max_recv_wr, attr.cap.max_recv_sge, kMaxRawWr, kMaxRawSge));
    return nullptr;
  }
  auto* qp = new (std::nothrow) Qp{};
  auto* raw = new (std::nothrow) RawQp{};
  if (!qp || !raw) {
    delete qp;
    delete raw;
    errno = ENOMEM;
    return nullptr;
  }
  raw->pd = toPd(pd);
  raw->recvCq = toCq(attr.recv_cq);
  raw->maxRecvWr = std::max<std::uint32_t>(attr.cap.max_recv_wr, 1);
  raw->maxRecvSge = std::max<std::uint32_t>(attr.cap.max_recv_sge, 1);
  qp->raw = raw;
  qp->type = sim::QpType::UD;  // never used to send: post_send refuses raw-packet QPs
  qp->cap = attr.cap;
  qp->cap.max_recv_wr = raw->maxRecvWr;
  qp->cap.max_recv_sge = raw->maxRecvSge;
  qp->cap.max_send_wr = 0;
  qp->cap.max_send_sge = 0;
  qp->cap.max_inline_data = 0;
  ibv_qp& q = qp->qpx.qp_base;
  {
    Nic::Session s(nicOf(context), "ibv_create_qp(RAW_PACKET)");
    q.qp_num = nextRawQpn++;
    registerQp(qp);
  }
  q.context = context;
  q.qp_context = attr.qp_context;
  q.pd = pd;
  q.send_cq = attr.send_cq;
  q.recv_cq = attr.recv_cq;
  q.handle = q.qp_num;
  q.state = IBV_QPS_RESET;
  q.qp_type = IBV_QPT_RAW_PACKET;
  pthread_mutex_init(&q.mutex, nullptr);
  pthread_cond_init(&q.cond, nullptr);
  initQpEx(qp, 0);
  return &q;
}

int modifyRawQp(Qp* qp, const ibv_qp_attr& attr, unsigned mask) {
  const std::string verb =
      fmt::format("ibv_modify_qp on raw-packet QP {:#x}", qp->qpx.qp_base.qp_num);
  constexpr unsigned kAllowed = IBV_QP_STATE | IBV_QP_CUR_STATE | IBV_QP_PORT;
  if (mask & ~kAllowed) {
    return fail(verb, EINVAL,
                fmt::format("attribute mask {:#x}: a raw-packet QP takes only the state and the "
                            "port",
                            mask & ~kAllowed));
  }
  Nic::Session s(nicOf(qp->qpx.qp_base.context), "ibv_modify_qp(RAW_PACKET)");
  RawQp& raw = *qp->raw;
  if (!(mask & IBV_QP_STATE)) return 0;
  const ibv_qp_state to = attr.qp_state;
  const ibv_qp_state from = raw.state;
  const bool ok =
      to == IBV_QPS_RESET || to == IBV_QPS_ERR || (from == IBV_QPS_RESET && to == IBV_QPS_INIT) ||
      (from == IBV_QPS_INIT && (to == IBV_QPS_INIT || to == IBV_QPS_RTR)) ||
      (from == IBV_QPS_RTR && to == IBV_QPS_RTS) || (from == IBV_QPS_RTS && to == IBV_QPS_RTS);
  if (!ok)
    return fail(verb, EINVAL,
                fmt::format("no transition from state {} to {}", static_cast<int>(from),
                            static_cast<int>(to)));
  if (from == IBV_QPS_RESET && to == IBV_QPS_INIT) {
    if (!(mask & IBV_QP_PORT) || attr.port_num != 1) {
      return fail(verb, EINVAL, "RESET to INIT needs IBV_QP_PORT with port 1");
    }
    raw.port = attr.port_num;
  }
  if (to == IBV_QPS_ERR) flush(s, qp);
  if (to == IBV_QPS_RESET) raw.rq.clear();
  raw.state = to;
  qp->qpx.qp_base.state = to;
  return 0;
}

int queryRawQp(Qp* qp, ibv_qp_attr& attr) {
  Nic::Session s(nicOf(qp->qpx.qp_base.context));
  attr = ibv_qp_attr{};
  attr.qp_state = qp->raw->state;
  attr.cur_qp_state = qp->raw->state;
  attr.port_num = qp->raw->port;
  attr.cap = qp->cap;
  return 0;
}

int destroyRawQp(Qp* qp) {
  {
    Nic::Session s(nicOf(qp->qpx.qp_base.context), "ibv_destroy_qp(RAW_PACKET)");
    if (qp->raw->flows > 0) {
      return fail(fmt::format("ibv_destroy_qp on raw-packet QP {:#x}", qp->qpx.qp_base.qp_num),
                  EBUSY, "flows still steer to it: ibv_destroy_flow first");
    }
    unregisterQp(qp);
  }
  pthread_mutex_destroy(&qp->qpx.qp_base.mutex);
  pthread_cond_destroy(&qp->qpx.qp_base.cond);
  delete qp->raw;
  delete qp;
  return 0;
}

int postRawRecv(Qp* qp, ibv_recv_wr* wr, ibv_recv_wr** bad) {
  Nic::Session s(nicOf(qp->qpx.qp_base.context));
  RawQp& raw = *qp->raw;
  const std::string verb =
      fmt::format("ibv_post_recv on raw-packet QP {:#x}", qp->qpx.qp_base.qp_num);
  for (; wr; wr = wr->next) {
    if (raw.state == IBV_QPS_RESET || raw.state == IBV_QPS_ERR) {
      *bad = wr;
      return fail(verb, EINVAL, "the QP is in RESET or ERR");
    }
    if (raw.rq.size() >= raw.maxRecvWr) {
      *bad = wr;
      return fail(verb, ENOMEM, fmt::format("the receive queue is full ({} WRs)", raw.maxRecvWr));
    }
    if (wr->num_sge < 0 || static_cast<std::uint32_t>(wr->num_sge) > raw.maxRecvSge) {
      *bad = wr;
      return fail(verb, EINVAL,
                  fmt::format("{} SGEs, more than max_recv_sge {}", wr->num_sge, raw.maxRecvSge));
    }
    sim::RecvWr w = toSim(*wr);
    for (const sim::Sge& g : w.sgList) {
      const sim::MemoryRegionInfo* mr = s.host().findMr(raw.pd->id, g.lkey, false);
      if (!mr || g.addr < mr->addr || g.addr + g.length > mr->addr + mr->length) {
        *bad = wr;
        return fail(verb, EINVAL,
                    fmt::format("SGE {:#x}+{} is not inside an MR of the QP's PD with lkey {:#x}",
                                g.addr, g.length, g.lkey));
      }
    }
    raw.rq.push_back(std::move(w));
  }
  return 0;
}

std::uint64_t outOfBufferCount() {
  Nic* n = nic();
  if (!n) return 0;
  Nic::Session s(*n);
  return outOfBuffer;
}

void initRawPacketOps(verbs_context& context) {
  context.ibv_create_flow = createFlow;
  context.ibv_destroy_flow = destroyFlow;
  context.create_cq_ex = createCqEx;
  context.query_rt_values = queryRtValues;
}

}  // namespace rdmascope::ibverbs
