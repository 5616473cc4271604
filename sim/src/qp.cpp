// The queue pair itself: modify_qp, posting, timers, errors and flush, and the DMA through
// lkeys the engines share. The engines are requester.cpp, completer.cpp and responder.cpp.
#include "qp.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "dma_write.h"
#include "qp_common.h"
#include "rdmascope/sim/network.h"

namespace rdmascope::sim {

std::string_view toString(WqeState s) {
  switch (s) {
    case WqeState::Posted:
      return "posted";
    case WqeState::Processing:
      return "processing";
    case WqeState::Pending:
      return "pending";
    case WqeState::Done:
      return "done";
    case WqeState::Error:
      return "error";
  }
  return "?";
}

Qp::Qp(Host& host, std::uint32_t qpn, std::uint32_t pd, const QpInitAttr& init)
    : host_(host), net_(host.network()), qpn_(qpn), pd_(pd), type_(init.qpType), init_(init) {
  attr_.cap = init.cap;
  attr_.qpState = QpState::Reset;
  attr_.maxRdAtomic = 0;
  attr_.maxDestRdAtomic = 0;
  attr_.timeout = 0;
  attr_.retryCnt = 0;
  attr_.rnrRetry = 0;
}

Qp::~Qp() = default;

Simulator& Qp::sim() const {
  return net_.sim();
}
bool Qp::tracing() const {
  return net_.sim().tracing();
}

void Qp::setState(QpState s, const std::string& why) {
  const QpState old = state_;
  state_ = s;
  attr_.qpState = s;
  if (tracing()) {
    host_.emit(TraceKind::QpState, qpn_,
               fmt::format("QP {:#x} {} -> {}: {}", qpn_, toString(old), toString(s), why));
  }
}

SimTime Qp::retransmitTimeout() const {
  if (attr_.timeout == 0) return SimTime::max();
  // 4.096 us x 2^timeout (rxe rounds this up to jiffies; the simulator keeps it exact)
  return SimTime::ns(4096) * (std::int64_t{1} << std::min<int>(attr_.timeout, 31));
}

// ---------------------------------------------------------------------------------------
// modify_qp

VerbsStatus Qp::modify(const QpAttr& a, unsigned mask) {
  namespace m = attr_mask;
  const QpState cur = (mask & m::kCurState) ? a.curQpState : state_;
  const QpState next = (mask & m::kState) ? a.qpState : cur;
  if ((mask & m::kCurState) && a.curQpState != state_) {
    return {EINVAL, fmt::format("IBV_QP_CUR_STATE says {} but the QP is in {}",
                                toString(a.curQpState), toString(state_))};
  }
  if (std::string err = checkTransition(cur, next, type_, mask); !err.empty()) {
    return {EINVAL, err};
  }
  if ((mask & m::kPort) && a.portNum != 1) {
    return {EINVAL, fmt::format("port_num {} does not exist (the device has port 1)", a.portNum)};
  }
  if ((mask & m::kPathMtu) &&
      (static_cast<int>(a.pathMtu) < 1 || static_cast<int>(a.pathMtu) > 5)) {
    return {EINVAL, "path_mtu must be one of IBV_MTU_256 .. IBV_MTU_4096"};
  }
  if ((mask & m::kPathMtu) && mtuBytes(a.pathMtu) > net_.activeMtu()) {
    return {EINVAL, fmt::format("path_mtu {} exceeds the port's active MTU {}", mtuBytes(a.pathMtu),
                                net_.activeMtu())};
  }
  if ((mask & m::kMinRnrTimer) && a.minRnrTimer > 31) {
    return {EINVAL, "min_rnr_timer must be 0..31"};
  }
  if ((mask & m::kRetryCnt) && a.retryCnt > 7) return {EINVAL, "retry_cnt must be 0..7"};
  if ((mask & m::kRnrRetry) && a.rnrRetry > 7) return {EINVAL, "rnr_retry must be 0..7"};
  if ((mask & m::kTimeout) && a.timeout > 31) return {EINVAL, "timeout must be 0..31"};
  if ((mask & m::kMaxQpRdAtomic) && a.maxRdAtomic > 128) {
    return {EINVAL, "max_rd_atomic exceeds the device limit 128"};
  }
  if ((mask & m::kMaxDestRdAtomic) && a.maxDestRdAtomic > 128) {
    return {EINVAL, "max_dest_rd_atomic exceeds the device limit 128"};
  }
  if ((mask & m::kAv) && !a.ahAttr.isGlobal && net_.config().wire != WireFormat::InfiniBand) {
    return {EINVAL, "RoCE needs a GRH: set ah_attr.is_global and the destination GID"};
  }

  if (mask & m::kAccessFlags) attr_.qpAccessFlags = a.qpAccessFlags;
  if (mask & m::kPkeyIndex) attr_.pkeyIndex = a.pkeyIndex;
  if (mask & m::kPort) attr_.portNum = a.portNum;
  if (mask & m::kQkey) attr_.qkey = a.qkey;
  if (mask & m::kAv) {
    attr_.ahAttr = a.ahAttr;
    addr_ = net_.addressFor(host_.index(), a.ahAttr, qpn_);
  }
  if (mask & m::kPathMtu) attr_.pathMtu = a.pathMtu;
  if (mask & m::kTimeout) attr_.timeout = a.timeout;
  if (mask & m::kRetryCnt) {
    attr_.retryCnt = a.retryCnt;
    comp_.retryCnt = a.retryCnt;
  }
  if (mask & m::kRnrRetry) {
    attr_.rnrRetry = a.rnrRetry;
    comp_.rnrRetry = a.rnrRetry;
  }
  if (mask & m::kRqPsn) {
    attr_.rqPsn = a.rqPsn & kPsnMask;
    resp_.psn = attr_.rqPsn;
  }
  if (mask & m::kMaxQpRdAtomic) {
    attr_.maxRdAtomic = a.maxRdAtomic;
    req_.rdAtomic = a.maxRdAtomic;
  }
  if (mask & m::kMinRnrTimer) attr_.minRnrTimer = a.minRnrTimer;
  if (mask & m::kSqPsn) {
    attr_.sqPsn = a.sqPsn & kPsnMask;
    req_.psn = attr_.sqPsn;
    comp_.psn = attr_.sqPsn;
  }
  if (mask & m::kMaxDestRdAtomic) {
    attr_.maxDestRdAtomic = a.maxDestRdAtomic;
    resp_.resources.assign(a.maxDestRdAtomic, RespResource{});
    resp_.resHead = 0;
  }
  if (mask & m::kDestQpn) attr_.destQpNum = a.destQpNum;

  if (next != state_ || (mask & m::kState)) {
    const QpState old = state_;
    switch (next) {
      case QpState::Reset: {
        // rxe_qp_reset: queues emptied without completions, engines reset
        sq_.clear();
        rq_.clear();
        sqHead_ = 0;
        req_ = Req{};
        comp_ = Comp_{};
        resp_.opcode = -1;
        resp_.haveWqe = false;
        resp_.sentPsnNak = false;
        resp_.dropMsg = false;
        resp_.msn = 0;
        for (auto& r : resp_.resources)
          r = RespResource{};
        reqPkts_.clear();
        retransmit_ = Timer{};
        rnr_ = Timer{};
        req_.waitForRnrTimer = false;
        setState(next, "modify_qp to RESET: queues emptied without completions");
        break;
      }
      case QpState::Init:
        setState(next, old == QpState::Reset
                           ? "modify_qp: port, P_Key index and access flags set; receive WRs may "
                             "be posted now"
                           : "modify_qp INIT->INIT");
        break;
      case QpState::Rtr:
        setState(next, fmt::format("modify_qp: the responder is ready (expects PSN {:#x} from "
                                   "QP {:#x})",
                                   resp_.psn, attr_.destQpNum));
        break;
      case QpState::Rts:
        comp_.retryCnt = attr_.retryCnt;
        comp_.rnrRetry = attr_.rnrRetry;
        setState(next, old == QpState::Rts
                           ? "modify_qp RTS->RTS"
                           : fmt::format("modify_qp: the requester is ready (first PSN {:#x})",
                                         req_.psn));
        scheduleRequester();
        break;
      case QpState::Sqd:
        setState(next, "modify_qp: send queue drains; new send WQEs wait until RTS");
        break;
      case QpState::Sqe:
        setState(next, "modify_qp to SQE");
        break;
      case QpState::Err:
        toError("modify_qp to ERR");
        break;
    }
  }
  return {};
}

// ---------------------------------------------------------------------------------------
// posting

VerbsStatus Qp::postSend(const SendWr& wr) {
  if (state_ == QpState::Reset || state_ == QpState::Init || state_ == QpState::Rtr) {
    return {EINVAL, fmt::format("post_send on QP {:#x} in {}: the send queue needs RTS", qpn_,
                                toString(state_))};
  }
  const std::uint32_t mask = wrMask(wr.opcode, type_);
  if (!mask) {
    return {EINVAL, fmt::format("{} is not a valid opcode on a {} QP", toString(wr.opcode),
                                toString(type_))};
  }
  if (sq_.size() >= init_.cap.maxSendWr) {
    return {ENOMEM, fmt::format("send queue full ({} WRs)", init_.cap.maxSendWr)};
  }
  if (wr.sgList.size() > init_.cap.maxSendSge) {
    return {EINVAL,
            fmt::format("{} SGEs exceed max_send_sge {}", wr.sgList.size(), init_.cap.maxSendSge)};
  }
  std::uint64_t length = 0;
  for (const Sge& s : wr.sgList)
    length += s.length;
  if (length > 0x80000000ull) return {EINVAL, "message longer than 2 GiB"};
  if (mask & kWrAtomic) {
    if (length < 8 || wr.sgList.size() != 1) {
      return {EINVAL, "an atomic WR needs one SGE of at least 8 bytes"};
    }
    if (wr.remoteAddr & 7) {
      return {EINVAL, "atomic remote_addr must be 8-byte aligned"};
    }
  }
  const bool isInline = (wr.sendFlags & send_flags::kInline) && (mask & (kWrSend | kWrWrite));
  if (isInline && length > init_.cap.maxInlineData) {
    return {EINVAL, fmt::format("inline data of {} bytes exceeds max_inline_data {}", length,
                                init_.cap.maxInlineData)};
  }
  SendWqe w;
  w.wr = wr;
  w.mask = mask;
  w.dma.sges = wr.sgList;
  w.dma.length = static_cast<std::uint32_t>((mask & kWrAtomic) ? 8 : length);
  w.dma.reset();
  w.iova = wr.remoteAddr;
  if (isInline) {
    w.inlineData.resize(length);
    std::size_t o = 0;
    for (const Sge& s : wr.sgList) {
      auto bytes = host_.memory(s.addr, s.length);
      if (bytes.size() != s.length) {
        return {EINVAL,
                fmt::format("inline SGE at {:#x}+{} is outside host memory", s.addr, s.length)};
      }
      std::memcpy(w.inlineData.data() + o, bytes.data(), s.length);
      o += s.length;
    }
  }
  sq_.push_back(std::move(w));
  if (tracing()) {
    host_.emit(
        TraceKind::WqePosted, qpn_,
        fmt::format("post_send {} wr_id {} of {} bytes{}{}{}", toString(wr.opcode), wr.wrId, length,
                    (wr.sendFlags & send_flags::kSignaled) || init_.sqSigAll ? ", signaled"
                                                                             : ", unsignaled",
                    isInline ? ", inline (copied now)" : "",
                    (wr.sendFlags & send_flags::kFence) ? ", fenced" : ""),
        0, wr.wrId);
  }
  if (state_ == QpState::Err) {
    scheduleCompleter();  // flushed with WR_FLUSH_ERR
  } else {
    scheduleRequester();
  }
  return {};
}

VerbsStatus Qp::postRecv(const RecvWr& wr) {
  if (state_ == QpState::Reset) {
    return {EINVAL, fmt::format("post_recv on QP {:#x} in RESET: needs INIT or later", qpn_)};
  }
  if (rq_.size() >= init_.cap.maxRecvWr) {
    return {ENOMEM, fmt::format("receive queue full ({} WRs)", init_.cap.maxRecvWr)};
  }
  if (wr.sgList.size() > init_.cap.maxRecvSge) {
    return {EINVAL,
            fmt::format("{} SGEs exceed max_recv_sge {}", wr.sgList.size(), init_.cap.maxRecvSge)};
  }
  RecvWqe w;
  w.wr = wr;
  w.dma.sges = wr.sgList;
  std::uint64_t length = 0;
  for (const Sge& s : wr.sgList)
    length += s.length;
  w.dma.length = static_cast<std::uint32_t>(length);
  w.dma.reset();
  rq_.push_back(std::move(w));
  if (tracing()) {
    host_.emit(TraceKind::WqePosted, qpn_,
               fmt::format("post_recv wr_id {} with {} bytes of buffer", wr.wrId, length), 0,
               wr.wrId);
  }
  if (state_ == QpState::Err) {
    sim().schedule(SimTime{}, this, kFlush, 0);
  }
  return {};
}

QpView Qp::view() const {
  QpView v;
  v.qpn = qpn_;
  v.type = type_;
  v.state = state_;
  v.sendCq = init_.sendCq;
  v.recvCq = init_.recvCq;
  v.destQpn = attr_.destQpNum;
  v.sqPsn = req_.psn;
  v.compPsn = comp_.psn;
  v.rqPsn = resp_.psn;
  v.msn = resp_.msn;
  for (const SendWqe& w : sq_) {
    v.sq.push_back({w.wr.wrId, w.wr.opcode, w.dma.length, std::string(toString(w.state)),
                    w.firstPsn, w.lastPsn});
  }
  for (const RecvWqe& w : rq_) {
    v.rq.push_back({w.wr.wrId, WrOpcode::Send, w.dma.length, "posted", 0, 0});
  }
  return v;
}

// ---------------------------------------------------------------------------------------
// events

void Qp::scheduleRequester(SimTime delay) {
  if (req_.scheduled) return;
  req_.scheduled = true;
  sim().schedule(delay, this, kRunRequester, 0);
}

void Qp::scheduleCompleter() {
  if (comp_.scheduled) return;
  comp_.scheduled = true;
  sim().schedule(SimTime{}, this, kRunCompleter, 0);
}

void Qp::onEvent(std::uint32_t code, std::uint64_t) {
  switch (code) {
    case kRunRequester:
      req_.scheduled = false;
      runRequester();
      break;
    case kRunCompleter:
      comp_.scheduled = false;
      runCompleter(nullptr);
      break;
    case kRetransmitTimer: {
      if (sim().now() != retransmit_.eventAt) return;  // superseded
      retransmit_.eventAt = SimTime::max();
      if (!retransmit_.armed()) return;
      if (retransmit_.deadline > sim().now()) {  // pushed later since: wait again
        retransmit_.eventAt = retransmit_.deadline;
        sim().schedule(retransmit_.deadline - sim().now(), this, kRetransmitTimer, 0);
        return;
      }
      retransmit_.deadline = SimTime::max();
      if (state_ == QpState::Err || state_ == QpState::Reset) return;
      if (tracing()) {
        host_.emit(TraceKind::TimerFired, qpn_,
                   fmt::format("retransmit timer fired: no ACK for PSN {:#x} within {} us",
                               comp_.psn, retransmitTimeout().micros()));
      }
      comp_.timeout = true;
      runCompleter(nullptr);
      break;
    }
    case kRnrTimer:
      if (sim().now() != rnr_.eventAt) return;
      rnr_ = Timer{};
      if (state_ == QpState::Err || state_ == QpState::Reset) return;
      if (tracing()) {
        host_.emit(TraceKind::TimerFired, qpn_,
                   fmt::format("RNR timer fired: resend from PSN {:#x}", comp_.psn));
      }
      req_.needRetry = true;  // rnr_nak_timer
      req_.waitForRnrTimer = false;
      runRequester();
      break;
    case kFlush:
      flushQueues();
      break;
    case kResumeRead:
      resp_.readScheduled = false;
      responderRun(nullptr);
      break;
    default:
      break;
  }
}

void Qp::expireRetransmitTimer(const std::string& why) {
  if (!retransmit_.armed()) return;
  if (tracing()) host_.emit(TraceKind::Note, qpn_, why);
  retransmit_.deadline = sim().now();
  retransmit_.eventAt = sim().now();
  sim().schedule(SimTime{}, this, kRetransmitTimer, 0);
}

void Qp::armRetransmit() {
  // update_state: mod_timer only when the timer is not pending
  if (type_ != QpType::RC || attr_.timeout == 0 || retransmit_.armed()) return;
  kickRetransmit();
}

void Qp::kickRetransmit() {
  if (type_ != QpType::RC || attr_.timeout == 0) return;
  const SimTime t = sim().now() + retransmitTimeout();
  const bool wasArmed = retransmit_.armed();
  retransmit_.deadline = t;
  if (retransmit_.eventAt == SimTime::max() || retransmit_.eventAt > t) {
    retransmit_.eventAt = t;
    sim().schedule(t - sim().now(), this, kRetransmitTimer, 0);
  }
  if (!wasArmed && tracing()) {
    host_.emit(TraceKind::TimerArmed, qpn_,
               fmt::format("retransmit timer armed: {} us (4.096 us x 2^{})",
                           retransmitTimeout().micros(), attr_.timeout));
  }
}

// ---------------------------------------------------------------------------------------
// error and flush (rxe_qp_error, rxe_drain_resp_pkts, responder drain)

void Qp::toError(const std::string& why) {
  if (state_ == QpState::Err) return;
  setState(QpState::Err, why);
  retransmit_ = Timer{};
  rnr_ = Timer{};
  req_.waitForRnrTimer = false;
  reqPkts_.clear();
  resp_.resIndex = -1;
  sim().schedule(SimTime{}, this, kFlush, 0);
}

void Qp::flushQueues() {
  if (state_ != QpState::Err) return;
  while (!sq_.empty()) {
    SendWqe& w = sq_.front();
    w.status = WcStatus::WrFlushErr;
    doCompleteSend(w, "QP is in ERR: the send WQE is flushed");
  }
  while (!rq_.empty()) {
    completeRecv(nullptr, WcStatus::WrFlushErr, "QP is in ERR: the receive WQE is flushed");
  }
}

void Qp::advanceDma(DmaState& d, std::uint32_t len) {
  d.resid -= len;
  while (len > 0 && d.curSge < d.sges.size()) {
    const std::uint32_t room = d.sges[d.curSge].length - d.sgeOffset;
    const std::uint32_t n = std::min(room, len);
    d.sgeOffset += n;
    len -= n;
    if (d.sgeOffset == d.sges[d.curSge].length) {
      ++d.curSge;
      d.sgeOffset = 0;
    }
  }
  while (d.curSge < d.sges.size() && d.sges[d.curSge].length == 0)
    ++d.curSge;
}

// Copies between local memory (through lkeys) and a buffer, as rxe's copy_data; `toMemory`
// writes into the SGEs. Returns false on an lkey, access or bounds violation.
bool Qp::copyData(DmaState& d, std::uint8_t* buf, std::uint32_t len, bool toMemory,
                  std::string* error, const std::uint8_t** reference) {
  if (reference) *reference = nullptr;
  if (len > d.resid) {
    if (error) *error = fmt::format("{} bytes do not fit in the {} left", len, d.resid);
    return false;
  }
  std::uint32_t done = 0;
  while (done < len) {
    while (d.curSge < d.sges.size() && d.sges[d.curSge].length == d.sgeOffset) {
      ++d.curSge;
      d.sgeOffset = 0;
    }
    if (d.curSge >= d.sges.size()) {
      if (error) *error = "scatter/gather list exhausted";
      return false;
    }
    const Sge& s = d.sges[d.curSge];
    const MemoryRegionInfo* mr = host_.findMr(pd_, s.lkey, false);
    if (!mr) {
      if (error) *error = fmt::format("lkey {:#x} matches no memory region of the PD", s.lkey);
      return false;
    }
    if (toMemory && !(mr->access & access::kLocalWrite)) {
      if (error) *error = fmt::format("MR with lkey {:#x} lacks IBV_ACCESS_LOCAL_WRITE", s.lkey);
      return false;
    }
    const std::uint32_t n = std::min(s.length - d.sgeOffset, len - done);
    const std::uint64_t addr = s.addr + d.sgeOffset;
    if (addr < mr->addr || addr + n > mr->addr + mr->length) {
      if (error) {
        *error = fmt::format("SGE {:#x}+{} lies outside its MR [{:#x}, {:#x})", s.addr, s.length,
                             mr->addr, mr->addr + mr->length);
      }
      return false;
    }
    auto mem = host_.memory(addr, n);
    if (reference && !toMemory && n == len) {
      *reference = mem.data();
    } else if (toMemory) {
      dmaWrite(mem.data(), buf + done, n);
    } else {
      std::memcpy(buf + done, mem.data(), n);
    }
    if (tracing()) {
      host_.emitMemory(toMemory, addr, n, qpn_,
                       toMemory ? fmt::format("NIC writes {} bytes into the local buffer", n)
                                : fmt::format("NIC reads {} bytes of the local buffer", n));
    }
    done += n;
    d.sgeOffset += n;
    d.resid -= n;
  }
  return true;
}

}  // namespace rdmascope::sim
