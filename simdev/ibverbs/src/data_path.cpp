// The data path that verbs.h's inline calls reach: ibv_context.ops (post_send, post_recv,
// post_srq_recv, poll_cq, req_notify_cq) and the ibv_qp_ex post-send API (ibv_wr_*).
#include <arpa/inet.h>
#include <fmt/format.h>
#include <sched.h>

#include <cerrno>

#include "context.h"
#include "conversions.h"

using namespace rdmascope::ibverbs;
using rdmascope::simdev::Nic;
namespace sim = rdmascope::sim;

namespace {

// The UD address of a send WR (the AH's address vector, the remote QPN and Q_Key).
void setUdAddress(sim::SendWr& wr, ibv_ah* ah, std::uint32_t remoteQpn, std::uint32_t qkey) {
  if (ah) wr.ah = toAh(ah)->attr;
  wr.remoteQpn = remoteQpn;
  wr.remoteQkey = qkey;
}

/// "ibv_post_send(QP 0x11: RDMA_WRITE 4096 B, 2 more)" for an observer's timeline.
std::string describePost(const char* verb, std::uint32_t qpn, const ibv_send_wr* wr) {
  std::uint64_t bytes = 0;
  for (int i = 0; i < wr->num_sge; ++i)
    bytes += wr->sg_list[i].length;
  int more = 0;
  for (const ibv_send_wr* w = wr->next; w; w = w->next)
    ++more;
  std::string text = fmt::format("{}(QP {:#x}: {} {} B", verb, qpn,
                                 sim::toString(static_cast<sim::WrOpcode>(wr->opcode)), bytes);
  if (more) text += fmt::format(", {} more", more);
  return text + ")";
}

std::string describeRecv(const char* verb, std::uint32_t id, const ibv_recv_wr* wr) {
  int n = 0;
  for (const ibv_recv_wr* w = wr; w; w = w->next)
    ++n;
  return fmt::format("{}({} {:#x}: {} receive WR{})", verb,
                     std::string_view(verb) == "ibv_post_srq_recv" ? "SRQ" : "QP", id, n,
                     n == 1 ? "" : "s");
}

int postSend(ibv_qp* qp, ibv_send_wr* wr, ibv_send_wr** bad) {
  Qp* q = toQp(qp);
  if (q->raw) {
    *bad = wr;
    return unsupported(
        "ibv_post_send on a raw-packet QP (the simulated device's raw-packet QPs "
        "only receive, through a sniffer flow)",
        EOPNOTSUPP);
  }
  Nic& nic = nicOf(qp->context);
  Nic::Session s(
      nic, nic.observed() && wr ? describePost("ibv_post_send", qp->qp_num, wr) : std::string());
  for (; wr; wr = wr->next) {
    sim::SendWr w = toSim(*wr);
    if (q->type == sim::QpType::UD) {
      if (!wr->wr.ud.ah) {
        *bad = wr;
        return fail(fmt::format("ibv_post_send on UD QP {:#x}", qp->qp_num), EINVAL,
                    "the work request has no address handle (wr.ud.ah)");
      }
      setUdAddress(w, wr->wr.ud.ah, wr->wr.ud.remote_qpn, wr->wr.ud.remote_qkey);
    }
    const sim::VerbsStatus st = s.host().postSend(qp->qp_num, w);
    if (!st.ok()) {
      *bad = wr;
      return fail(st);
    }
  }
  return 0;
}

int postRecv(ibv_qp* qp, ibv_recv_wr* wr, ibv_recv_wr** bad) {
  if (Qp* q = toQp(qp); q->raw) return postRawRecv(q, wr, bad);
  Nic& nic = nicOf(qp->context);
  Nic::Session s(nic,
                 nic.observed() ? describeRecv("ibv_post_recv", qp->qp_num, wr) : std::string());
  for (; wr; wr = wr->next) {
    const sim::VerbsStatus st = s.host().postRecv(qp->qp_num, toSim(*wr));
    if (!st.ok()) {
      *bad = wr;
      return fail(st);
    }
  }
  return 0;
}

int pollCq(ibv_cq* cq, int n, ibv_wc* wc) {
  if (n < 0) return -1;
  std::vector<sim::WorkCompletion> got;
  {
    Nic::Session s(nicOf(cq->context));
    got = s.host().pollCq(toCq(cq)->id, n);
  }
  // A busy-polling program would otherwise keep the CPU from the fabric and the peer, which
  // do the NIC's work here: with as many pollers as cores, a round trip took milliseconds.
  if (got.empty()) sched_yield();
  for (std::size_t i = 0; i < got.size(); ++i)
    fromSim(got[i], wc[i]);
  return static_cast<int>(got.size());
}

int reqNotifyCq(ibv_cq* cq, int) {
  // rxe's user library arms for the next completion; solicited-only arming also wakes on the
  // next completion here (a wake-up the program then finds nothing new in is harmless).
  Nic::Session s(nicOf(cq->context));
  toCq(cq)->armed = true;
  return 0;
}

// --- ibv_qp_ex --------------------------------------------------------------------------

Qp* ofEx(ibv_qp_ex* qpx) {
  return reinterpret_cast<Qp*>(qpx);
}

sim::SendWr* last(Qp* q, const char* what) {
  if (q->batch.empty()) {
    if (!q->batchError) {
      q->batchError = EINVAL;
      q->batchWhy = fmt::format("{} before an ibv_wr_* operation", what);
    }
    return nullptr;
  }
  return &q->batch.back();
}

void begin(ibv_qp_ex* qpx, sim::WrOpcode opcode) {
  Qp* q = ofEx(qpx);
  sim::SendWr w;
  w.wrId = qpx->wr_id;
  w.sendFlags = qpx->wr_flags;
  w.opcode = opcode;
  q->batch.push_back(std::move(w));
}

void wrStart(ibv_qp_ex* qpx) {
  Qp* q = ofEx(qpx);
  q->batch.clear();
  q->batchError = 0;
  q->batchWhy.clear();
}

void wrSend(ibv_qp_ex* qpx) {
  begin(qpx, sim::WrOpcode::Send);
}

void wrSendImm(ibv_qp_ex* qpx, __be32 imm) {
  begin(qpx, sim::WrOpcode::SendWithImm);
  ofEx(qpx)->batch.back().immData = ntohl(imm);
}

void wrSendInv(ibv_qp_ex* qpx, uint32_t rkey) {
  begin(qpx, sim::WrOpcode::SendWithInv);
  ofEx(qpx)->batch.back().invalidateRkey = rkey;
}

void wrRdmaWrite(ibv_qp_ex* qpx, uint32_t rkey, uint64_t addr) {
  begin(qpx, sim::WrOpcode::RdmaWrite);
  sim::SendWr& w = ofEx(qpx)->batch.back();
  w.rkey = rkey;
  w.remoteAddr = addr;
}

void wrRdmaWriteImm(ibv_qp_ex* qpx, uint32_t rkey, uint64_t addr, __be32 imm) {
  begin(qpx, sim::WrOpcode::RdmaWriteWithImm);
  sim::SendWr& w = ofEx(qpx)->batch.back();
  w.rkey = rkey;
  w.remoteAddr = addr;
  w.immData = ntohl(imm);
}

void wrRdmaRead(ibv_qp_ex* qpx, uint32_t rkey, uint64_t addr) {
  begin(qpx, sim::WrOpcode::RdmaRead);
  sim::SendWr& w = ofEx(qpx)->batch.back();
  w.rkey = rkey;
  w.remoteAddr = addr;
}

void wrAtomicCmpSwp(ibv_qp_ex* qpx, uint32_t rkey, uint64_t addr, uint64_t compare, uint64_t swap) {
  begin(qpx, sim::WrOpcode::AtomicCmpAndSwp);
  sim::SendWr& w = ofEx(qpx)->batch.back();
  w.rkey = rkey;
  w.remoteAddr = addr;
  w.compareAdd = compare;
  w.swap = swap;
}

void wrAtomicFetchAdd(ibv_qp_ex* qpx, uint32_t rkey, uint64_t addr, uint64_t add) {
  begin(qpx, sim::WrOpcode::AtomicFetchAndAdd);
  sim::SendWr& w = ofEx(qpx)->batch.back();
  w.rkey = rkey;
  w.remoteAddr = addr;
  w.compareAdd = add;
}

void wrSetUdAddr(ibv_qp_ex* qpx, ibv_ah* ah, uint32_t remoteQpn, uint32_t qkey) {
  if (sim::SendWr* w = last(ofEx(qpx), "ibv_wr_set_ud_addr")) setUdAddress(*w, ah, remoteQpn, qkey);
}

void wrSetSge(ibv_qp_ex* qpx, uint32_t lkey, uint64_t addr, uint32_t length) {
  if (sim::SendWr* w = last(ofEx(qpx), "ibv_wr_set_sge")) w->sgList = {{addr, length, lkey}};
}

void wrSetSgeList(ibv_qp_ex* qpx, size_t n, const ibv_sge* list) {
  sim::SendWr* w = last(ofEx(qpx), "ibv_wr_set_sge_list");
  if (!w) return;
  w->sgList.clear();
  for (size_t i = 0; i < n; ++i)
    w->sgList.push_back({list[i].addr, list[i].length, list[i].lkey});
}

// Inline data is copied when the WR is posted (ibv_wr_complete), so the SGEs name the
// program's buffers with no key, as inline data needs none.
void wrSetInlineData(ibv_qp_ex* qpx, void* addr, size_t length) {
  sim::SendWr* w = last(ofEx(qpx), "ibv_wr_set_inline_data");
  if (!w) return;
  w->sendFlags |= IBV_SEND_INLINE;
  w->sgList = {{reinterpret_cast<std::uintptr_t>(addr), static_cast<std::uint32_t>(length), 0}};
}

void wrSetInlineDataList(ibv_qp_ex* qpx, size_t n, const ibv_data_buf* list) {
  sim::SendWr* w = last(ofEx(qpx), "ibv_wr_set_inline_data_list");
  if (!w) return;
  w->sendFlags |= IBV_SEND_INLINE;
  w->sgList.clear();
  for (size_t i = 0; i < n; ++i) {
    w->sgList.push_back({reinterpret_cast<std::uintptr_t>(list[i].addr),
                         static_cast<std::uint32_t>(list[i].length), 0});
  }
}

int wrComplete(ibv_qp_ex* qpx) {
  Qp* q = ofEx(qpx);
  ibv_qp* qp = &qpx->qp_base;
  if (q->batchError) {
    const int e = q->batchError;
    q->batch.clear();
    return fail(fmt::format("ibv_wr_complete on QP {:#x}", qp->qp_num), e, q->batchWhy);
  }
  Nic& nic = nicOf(qp->context);
  Nic::Session s(nic, nic.observed() ? fmt::format("ibv_wr_complete(QP {:#x}: {} WRs)", qp->qp_num,
                                                   q->batch.size())
                                     : std::string());
  for (const sim::SendWr& w : q->batch) {
    const sim::VerbsStatus st = s.host().postSend(qp->qp_num, w);
    if (!st.ok()) {
      q->batch.clear();
      return fail(st);
    }
  }
  q->batch.clear();
  return 0;
}

void wrAbort(ibv_qp_ex* qpx) {
  wrStart(qpx);
}

}  // namespace

namespace rdmascope::ibverbs {

void initDataPathOps(ibv_context_ops& ops) {
  ops.post_send = postSend;
  ops.post_recv = postRecv;
  ops.post_srq_recv = postSrqRecv;
  ops.poll_cq = pollCq;
  ops.req_notify_cq = reqNotifyCq;
}

void initQpEx(Qp* qp, std::uint64_t ops) {
  ibv_qp_ex& x = qp->qpx;
  x.wr_start = wrStart;
  x.wr_complete = wrComplete;
  x.wr_abort = wrAbort;
  x.wr_set_sge = wrSetSge;
  x.wr_set_sge_list = wrSetSgeList;
  x.wr_set_inline_data = wrSetInlineData;
  x.wr_set_inline_data_list = wrSetInlineDataList;
  if (qp->type == sim::QpType::UD) x.wr_set_ud_addr = wrSetUdAddr;
  if (ops & IBV_QP_EX_WITH_SEND) x.wr_send = wrSend;
  if (ops & IBV_QP_EX_WITH_SEND_WITH_IMM) x.wr_send_imm = wrSendImm;
  if (ops & IBV_QP_EX_WITH_SEND_WITH_INV) x.wr_send_inv = wrSendInv;
  if (ops & IBV_QP_EX_WITH_RDMA_WRITE) x.wr_rdma_write = wrRdmaWrite;
  if (ops & IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM) x.wr_rdma_write_imm = wrRdmaWriteImm;
  if (ops & IBV_QP_EX_WITH_RDMA_READ) x.wr_rdma_read = wrRdmaRead;
  if (ops & IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP) x.wr_atomic_cmp_swp = wrAtomicCmpSwp;
  if (ops & IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD) x.wr_atomic_fetch_add = wrAtomicFetchAdd;
}

}  // namespace rdmascope::ibverbs
