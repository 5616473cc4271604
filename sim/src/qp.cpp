// The queue pair itself: modify_qp, posting, timers, errors and flush, and the DMA through
// lkeys the engines share. The engines are requester.cpp, completer.cpp and responder.cpp.
#include "qp.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>

#include "dma_write.h"
#include "qp_common.h"
#include "rdmascope/sim/device_limits.h"
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

RecvWqe makeRecvWqe(const RecvWr& wr) {
  RecvWqe w;
  w.wr = wr;
  w.dma.sges = wr.sgList;
  std::uint64_t length = 0;
  for (const Sge& s : wr.sgList)
    length += s.length;
  w.dma.length = static_cast<std::uint32_t>(length);
  w.dma.reset();
  return w;
}

Qp::Qp(Host& host, std::uint32_t qpn, std::uint32_t pd, const QpInitAttr& init, Srq* srq)
    : host_(host),
      net_(host.network()),
      qpn_(qpn),
      pd_(pd),
      type_(init.qpType),
      init_(init),
      srq_(srq) {
  attr_.cap = init.cap;
  attr_.qpState = QpState::Reset;
  attr_.pathMtu = Mtu::Mtu256;  // rxe_qp_init_misc
  attr_.maxRdAtomic = 0;
  attr_.maxDestRdAtomic = 0;
  attr_.timeout = 0;
  attr_.retryCnt = 0;
  attr_.rnrRetry = 0;
}

Qp::~Qp() = default;

QpAttr Qp::queryAttr() const {
  QpAttr a = attr_;
  a.qpState = state_;
  a.curQpState = state_;
  a.sqPsn = req_.psn;
  a.rqPsn = resp_.psn;
  a.cap = init_.cap;
  return a;
}

Simulator& Qp::sim() const {
  return net_.sim();
}
bool Qp::tracing() const {
  return net_.sim().tracing();
}

TraceCause DmaFault::cause() const {
  TraceCause c{reason};
  switch (reason) {
    case Reason::NoRoom:
      c.args.requested = requested;
      c.args.available = available;
      break;
    case Reason::LkeyUnknown:
    case Reason::LkeyNoLocalWrite:
    case Reason::RkeyInvalidated:
      c.args.key = key;
      break;
    case Reason::SgeOutsideMr:
      c.args.sgeAddress = sgeAddress;
      c.args.sgeLength = sgeLength;
      c.args.mrAddress = mrAddress;
      c.args.mrLength = mrLength;
      break;
    default:
      break;
  }
  return c;
}

TraceEvent Qp::event(TraceKind kind, Narrative what) const {
  TraceEvent e;
  e.kind = kind;
  e.what = what;
  e.qpn = qpn_;
  return e;
}

TraceEvent Qp::memoryEvent(bool write, std::uint64_t addr, std::uint32_t length,
                           Narrative what) const {
  TraceEvent e = event(write ? TraceKind::MemoryWritten : TraceKind::MemoryRead, what);
  e.address = addr;
  e.length = length;
  return e;
}

void Qp::setState(QpState s, const TraceCause& why) {
  const QpState old = state_;
  state_ = s;
  attr_.qpState = s;
  if (tracing()) {
    TraceEvent e = event(TraceKind::QpState, Narrative::QpStateChanged);
    e.setCause(why);
    e.args.fromState = old;
    e.args.toState = s;
    host_.emit(std::move(e));
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
  // One line in verbs terms: "modify_qp(RTR) on QP 0x11: attr_mask is missing IBV_QP_AV ..."
  const auto fail = [&](int errnum, std::string_view why) {
    return VerbsStatus{errnum,
                       fmt::format("modify_qp({}) on QP {:#x}: {}", toString(next), qpn_, why)};
  };
  if ((mask & m::kCurState) && a.curQpState != state_) {
    return fail(EINVAL, fmt::format("IBV_QP_CUR_STATE says {} but the QP is in {}",
                                    toString(a.curQpState), toString(state_)));
  }
  if (std::string err = checkTransition(cur, next, type_, mask); !err.empty()) {
    return fail(EINVAL, err);
  }
  if ((mask & m::kPort) && a.portNum != 1) {
    return fail(EINVAL,
                fmt::format("port_num {} does not exist (the device has port 1)", a.portNum));
  }
  if ((mask & m::kPathMtu) &&
      (static_cast<int>(a.pathMtu) < 1 || static_cast<int>(a.pathMtu) > 5)) {
    return fail(EINVAL, "path_mtu must be one of IBV_MTU_256 .. IBV_MTU_4096");
  }
  if ((mask & m::kPathMtu) && mtuBytes(a.pathMtu) > net_.activeMtu()) {
    return fail(EINVAL, fmt::format("path_mtu {} exceeds the port's active MTU {}",
                                    mtuBytes(a.pathMtu), net_.activeMtu()));
  }
  if ((mask & m::kMinRnrTimer) && a.minRnrTimer > 31) {
    return fail(EINVAL, "min_rnr_timer must be 0..31");
  }
  if ((mask & m::kRetryCnt) && a.retryCnt > 7) return fail(EINVAL, "retry_cnt must be 0..7");
  if ((mask & m::kRnrRetry) && a.rnrRetry > 7) return fail(EINVAL, "rnr_retry must be 0..7");
  if ((mask & m::kTimeout) && a.timeout > 31) return fail(EINVAL, "timeout must be 0..31");
  if ((mask & m::kMaxQpRdAtomic) && a.maxRdAtomic > limits::kMaxQpRdAtom) {
    return fail(EINVAL, fmt::format("max_rd_atomic {} exceeds the device's max_qp_rd_atom {}",
                                    a.maxRdAtomic, limits::kMaxQpRdAtom));
  }
  if ((mask & m::kMaxDestRdAtomic) && a.maxDestRdAtomic > limits::kMaxQpRdAtom) {
    return fail(EINVAL, fmt::format("max_dest_rd_atomic {} exceeds the device's max_qp_rd_atom {}",
                                    a.maxDestRdAtomic, limits::kMaxQpRdAtom));
  }
  if (mask & m::kAv) {
    // rdma_check_ah_attr and rdma_fill_sgid_attr (ib_core)
    if (!a.ahAttr.isGlobal && net_.config().wire != WireFormat::InfiniBand) {
      return fail(EINVAL, "ah_attr has no GRH, which RoCE needs (set is_global and the dgid)");
    }
    if (a.ahAttr.portNum != 1) {
      return fail(EINVAL, fmt::format("ah_attr.port_num {} does not exist (the device has port 1)",
                                      a.ahAttr.portNum));
    }
    if (a.ahAttr.isGlobal && !host_.gidValid(a.ahAttr.sgidIndex)) {
      return fail(ENODATA, fmt::format("ah_attr.grh.sgid_index {} names an empty GID table entry "
                                       "(the port has GIDs 0 and 1)",
                                       a.ahAttr.sgidIndex));
    }
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
  // rxe_qp_from_attr rounds both read/atomic depths up to a power of two
  const auto pow2 = [](std::uint8_t v) {
    return static_cast<std::uint8_t>(v ? limits::queueCapacity(v - 1u) + 1 : 0);
  };
  if (mask & m::kMaxQpRdAtomic) {
    attr_.maxRdAtomic = pow2(a.maxRdAtomic);
    req_.rdAtomic = attr_.maxRdAtomic;
  }
  if (mask & m::kMinRnrTimer) attr_.minRnrTimer = a.minRnrTimer;
  if (mask & m::kSqPsn) {
    attr_.sqPsn = a.sqPsn & kPsnMask;
    req_.psn = attr_.sqPsn;
    comp_.psn = attr_.sqPsn;
  }
  if (mask & m::kMaxDestRdAtomic) {
    attr_.maxDestRdAtomic = pow2(a.maxDestRdAtomic);
    resp_.resources.assign(attr_.maxDestRdAtomic, RespResource{});
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
        setState(next, {Reason::ModifyToReset});
        break;
      }
      case QpState::Init:
        setState(next,
                 {old == QpState::Reset ? Reason::ModifyResetToInit : Reason::ModifyInitToInit});
        break;
      case QpState::Rtr: {
        TraceCause why{Reason::ModifyToRtr};
        why.args.expectedPsn = resp_.psn;
        why.args.destQpn = attr_.destQpNum;
        setState(next, why);
        break;
      }
      case QpState::Rts: {
        comp_.retryCnt = attr_.retryCnt;
        comp_.rnrRetry = attr_.rnrRetry;
        TraceCause why{old == QpState::Rts ? Reason::ModifyRtsToRts : Reason::ModifyToRts};
        if (old != QpState::Rts) why.args.firstPsn = req_.psn;
        setState(next, why);
        scheduleRequester();
        break;
      }
      case QpState::Sqd:
        setState(next, {Reason::ModifyToSqd});
        break;
      case QpState::Sqe:
        setState(next, {Reason::ModifyToSqe});
        break;
      case QpState::Err:
        toError({Reason::ModifyToErr});
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
    return {ENOMEM, fmt::format("post_send on QP {:#x}: send queue full ({} WRs)", qpn_,
                                init_.cap.maxSendWr)};
  }
  if (wr.sgList.size() > init_.cap.maxSendSge) {
    return {EINVAL, fmt::format("post_send on QP {:#x}: {} SGEs exceed max_send_sge {}", qpn_,
                                wr.sgList.size(), init_.cap.maxSendSge)};
  }
  std::uint64_t length = 0;
  for (const Sge& s : wr.sgList)
    length += s.length;
  if (length > 0x80000000ull) return {EINVAL, "message longer than 2 GiB"};
  if (mask & kWrAtomic) {
    // rxe's provider (validate_send_wr) refuses these before the WR reaches the queue
    if (length < 8) {
      return {EINVAL, fmt::format("post_send on QP {:#x}: an atomic WR needs 8 bytes of local "
                                  "buffer, its SGEs have {}",
                                  qpn_, length)};
    }
    if (wr.remoteAddr & 7) {
      return {EINVAL, fmt::format("post_send on QP {:#x}: atomic remote_addr {:#x} is not 8-byte "
                                  "aligned",
                                  qpn_, wr.remoteAddr)};
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
    TraceEvent e = event(TraceKind::WqePosted, Narrative::SendPosted);
    e.wrId = wr.wrId;
    e.args.wrOpcode = wr.opcode;
    e.args.bytes = length;
    e.args.signaled = (wr.sendFlags & send_flags::kSignaled) || init_.sqSigAll;
    e.args.inlined = isInline;
    e.args.fenced = (wr.sendFlags & send_flags::kFence) != 0;
    host_.emit(std::move(e));
  }
  if (state_ == QpState::Err) {
    scheduleCompleter();  // flushed with WR_FLUSH_ERR
  } else {
    scheduleRequester();
  }
  return {};
}

VerbsStatus Qp::postRecv(const RecvWr& wr) {
  if (srq_) {
    return {EINVAL, fmt::format("post_recv on QP {:#x}: the QP takes its receives from SRQ {} "
                                "(use post_srq_recv)",
                                qpn_, srq_->id)};
  }
  if (state_ == QpState::Reset) {
    return {EINVAL, fmt::format("post_recv on QP {:#x} in RESET: needs INIT or later", qpn_)};
  }
  if (rq_.size() >= init_.cap.maxRecvWr) {
    return {ENOMEM, fmt::format("post_recv on QP {:#x}: receive queue full ({} WRs)", qpn_,
                                init_.cap.maxRecvWr)};
  }
  if (wr.sgList.size() > init_.cap.maxRecvSge) {
    return {EINVAL, fmt::format("post_recv on QP {:#x}: {} SGEs exceed max_recv_sge {}", qpn_,
                                wr.sgList.size(), init_.cap.maxRecvSge)};
  }
  rq_.push_back(makeRecvWqe(wr));
  if (tracing()) {
    TraceEvent e = event(TraceKind::WqePosted, Narrative::RecvPosted);
    e.wrId = wr.wrId;
    e.args.bytes = rq_.back().dma.length;
    host_.emit(std::move(e));
  }
  if (state_ == QpState::Err) {
    post(SimTime{}, kFlush);
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
  post(delay, kRunRequester);
}

void Qp::scheduleCompleter() {
  if (comp_.scheduled) return;
  comp_.scheduled = true;
  post(SimTime{}, kRunCompleter);
}

void Qp::post(SimTime delay, std::uint32_t code) {
  ++pendingEvents_;
  sim().schedule(delay, this, code, 0);
}

void Qp::destroy() {
  destroyed_ = true;
  retransmit_ = Timer{};
  rnr_ = Timer{};
  // The queues stay until the object goes: an engine of this QP may be on the stack.
  post(SimTime{}, kRelease);
}

void Qp::onEvent(std::uint32_t code, std::uint64_t) {
  --pendingEvents_;
  if (destroyed_) {
    // The last event of a destroyed QP frees it; nothing touches the object afterwards.
    if (pendingEvents_ == 0) host_.releaseQp(this);
    return;
  }
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
        post(retransmit_.deadline - sim().now(), kRetransmitTimer);
        return;
      }
      retransmit_.deadline = SimTime::max();
      if (state_ == QpState::Err || state_ == QpState::Reset) return;
      if (tracing()) {
        TraceEvent e = event(TraceKind::TimerFired, Narrative::RetransmitTimerFired);
        e.psn = comp_.psn;
        e.args.durationUs = retransmitTimeout().micros();
        host_.emit(std::move(e));
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
        TraceEvent e = event(TraceKind::TimerFired, Narrative::RnrTimerFired);
        e.psn = comp_.psn;
        host_.emit(std::move(e));
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

void Qp::expireRetransmitTimer(std::uint64_t afterRequests) {
  if (!retransmit_.armed()) return;
  if (tracing()) {
    TraceEvent e = event(TraceKind::Note, Narrative::RetransmitTimerForced);
    e.args.requests = afterRequests;
    host_.emit(std::move(e));
  }
  retransmit_.deadline = sim().now();
  retransmit_.eventAt = sim().now();
  post(SimTime{}, kRetransmitTimer);
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
    post(t - sim().now(), kRetransmitTimer);
  }
  if (!wasArmed && tracing()) {
    TraceEvent e = event(TraceKind::TimerArmed, Narrative::RetransmitTimerArmed);
    e.args.durationUs = retransmitTimeout().micros();
    e.args.timeoutExponent = attr_.timeout;
    host_.emit(std::move(e));
  }
}

// ---------------------------------------------------------------------------------------
// error and flush (rxe_qp_error, rxe_drain_resp_pkts, responder drain)

void Qp::toError(const TraceCause& why) {
  if (state_ == QpState::Err) return;
  setState(QpState::Err, why);
  retransmit_ = Timer{};
  rnr_ = Timer{};
  req_.waitForRnrTimer = false;
  reqPkts_.clear();
  resp_.resIndex = -1;
  lastWqePending_ = srq_ != nullptr;
  post(SimTime{}, kFlush);
}

void Qp::flushQueues() {
  if (state_ != QpState::Err) return;
  while (!sq_.empty()) {
    SendWqe& w = sq_.front();
    w.status = WcStatus::WrFlushErr;
    doCompleteSend(w, Reason::Flushed);
  }
  if (srq_) {
    // rxe's flush_recv_queue: an SRQ is not flushed (other QPs share it); the QP's owner learns
    // that no more receives will complete on it from IBV_EVENT_QP_LAST_WQE_REACHED.
    resp_.haveWqe = false;
    if (lastWqePending_) {
      lastWqePending_ = false;
      AsyncEvent ev;
      ev.type = AsyncEventType::QpLastWqeReached;
      ev.qpn = qpn_;
      host_.raiseAsyncEvent(ev);
    }
    return;
  }
  while (!rq_.empty()) {
    completeRecv(nullptr, WcStatus::WrFlushErr, {Reason::Flushed});
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

// How many packets ahead a large source region's bytes are asked for (see copyData): the
// requester builds up to 48 packets in a burst (rxe's 64 skbs in flight down to 16), so the
// next packet's bytes would be asked for too late; 16 packets ahead they arrive in time (the
// 1 GiB WRITE's loop: 0.279 s median of five runs with the next packet, 0.260 s with this).
constexpr std::uint64_t kPrefetchPackets = 16;

// Copies between local memory (through lkeys) and a buffer, as rxe's copy_data; `toMemory`
// writes into the SGEs. Returns false on an lkey, access or bounds violation.
bool Qp::copyData(DmaState& d, std::uint8_t* buf, std::uint32_t len, bool toMemory, DmaFault* error,
                  const std::uint8_t** reference) {
  if (reference) *reference = nullptr;
  if (len > d.resid) {
    if (error) {
      error->reason = Reason::NoRoom;
      error->requested = len;
      error->available = d.resid;
    }
    return false;
  }
  std::uint32_t done = 0;
  while (done < len) {
    while (d.curSge < d.sges.size() && d.sges[d.curSge].length == d.sgeOffset) {
      ++d.curSge;
      d.sgeOffset = 0;
    }
    if (d.curSge >= d.sges.size()) {
      if (error) error->reason = Reason::SgeListExhausted;
      return false;
    }
    const Sge& s = d.sges[d.curSge];
    const MemoryRegionInfo* mr = host_.findMr(pd_, s.lkey, false);
    if (!mr) {
      if (error) {
        error->reason = Reason::LkeyUnknown;
        error->key = s.lkey;
      }
      return false;
    }
    if (toMemory && !(mr->access & access::kLocalWrite)) {
      if (error) {
        error->reason = Reason::LkeyNoLocalWrite;
        error->key = s.lkey;
      }
      return false;
    }
    const std::uint32_t n = std::min(s.length - d.sgeOffset, len - done);
    const std::uint64_t addr = s.addr + d.sgeOffset;
    if (addr < mr->addr || addr + n > mr->addr + mr->length) {
      if (error) {
        error->reason = Reason::SgeOutsideMr;
        error->sgeAddress = s.addr;
        error->sgeLength = s.length;
        error->mrAddress = mr->addr;
        error->mrLength = mr->length;
      }
      return false;
    }
    auto mem = host_.memory(addr, n);
    if (reference && !toMemory && n == len) {
      *reference = mem.data();
    } else if (toMemory) {
      dmaWrite(mem.data(), buf + done, n, mr->length > kDmaCachedRegion);
    } else {
      std::memcpy(buf + done, mem.data(), n);
      // A large region's bytes come from memory: ask for a later packet's now, so that they
      // arrive before it is built (the copy of each 4 KiB page otherwise waits for memory at
      // its start, where the hardware prefetcher stops).
      if (mr->length > kDmaCachedRegion) {
        const std::uint64_t ahead = std::uint64_t{n} * kPrefetchPackets;
        const std::uint64_t left = mr->addr + mr->length - addr - n;
        if (ahead < left)
          dmaPrefetch(mem.data() + n + ahead, std::min<std::uint64_t>(n, left - ahead));
      }
    }
    if (tracing()) {
      host_.emit(memoryEvent(toMemory, addr, n, Narrative::LocalBufferAccess));
    }
    done += n;
    d.sgeOffset += n;
    d.resid -= n;
  }
  return true;
}

}  // namespace rdmascope::sim
