#include "qp.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "dma_write.h"
#include "opcodes.h"
#include "rdmascope/sim/network.h"
#include "strfmt.h"

namespace rdmascope::sim {
namespace {

constexpr std::uint32_t kPsnMask = 0xffffff;
constexpr int kMaxPktPerAck = 64;               // RXE_MAX_PKT_PER_ACK
constexpr std::uint32_t kMaxUnackedPsns = 128;  // RXE_MAX_UNACKED_PSNS
constexpr std::size_t kInflightHigh = 64;       // RXE_INFLIGHT_SKBS_PER_QP_HIGH
constexpr std::size_t kInflightLow = 16;        // RXE_INFLIGHT_SKBS_PER_QP_LOW

constexpr std::uint8_t kAethAck = 0x00, kAethRnrNak = 0x20, kAethNak = 0x60;
constexpr std::uint8_t kAethTypeMask = 0xe0;
constexpr std::uint8_t kAethAckUnlimited = 0x1f;
constexpr std::uint8_t kNakPsnSeqError = 0x60, kNakInvalidRequest = 0x61, kNakRemoteAccess = 0x62,
                       kNakRemoteOp = 0x63;

/// psn_compare: signed distance in 24-bit PSN space.
int psnCompare(std::uint32_t a, std::uint32_t b) {
  const std::int32_t d = static_cast<std::int32_t>((a - b) << 8);
  return d;
}

// Microseconds of each encoded RNR timer value (IBTA table 45, as rxe_comp.c's rnrnak_usec).
constexpr std::uint32_t kRnrUsec[32] = {
    655360, 10,    20,    30,    40,    60,     80,     120,    160,    240,   320,
    480,    640,   960,   1280,  1920,  2560,   3840,   5120,   7680,   10240, 15360,
    20480,  30720, 40960, 61440, 81920, 122880, 163840, 245760, 327680, 491520};

// Kinds of work request (rxe's wr_opcode_mask).
constexpr std::uint32_t kWrSend = 1, kWrWrite = 2, kWrRead = 4, kWrAtomic = 8;

std::uint32_t wrMask(WrOpcode op, QpType t) {
  switch (op) {
    case WrOpcode::Send:
    case WrOpcode::SendWithImm:
      return kWrSend;
    case WrOpcode::SendWithInv:
      return t == QpType::RC ? kWrSend : 0;
    case WrOpcode::RdmaWrite:
    case WrOpcode::RdmaWriteWithImm:
      return t == QpType::UD ? 0 : kWrWrite;
    case WrOpcode::RdmaRead:
      return t == QpType::RC ? kWrRead : 0;
    case WrOpcode::AtomicCmpAndSwp:
    case WrOpcode::AtomicFetchAndAdd:
      return t == QpType::RC ? kWrAtomic : 0;
    default:
      return 0;
  }
}

WcOpcode wcOpcodeOf(WrOpcode op) {
  switch (op) {
    case WrOpcode::RdmaWrite:
    case WrOpcode::RdmaWriteWithImm:
      return WcOpcode::RdmaWrite;
    case WrOpcode::RdmaRead:
      return WcOpcode::RdmaRead;
    case WrOpcode::AtomicCmpAndSwp:
      return WcOpcode::CompSwap;
    case WrOpcode::AtomicFetchAndAdd:
      return WcOpcode::FetchAdd;
    default:
      return WcOpcode::Send;
  }
}

std::string opName(std::uint8_t opcode) {
  return std::string(opcodeInfo(opcode).name);
}

std::string syndromeText(std::uint8_t syn) {
  switch (syn & kAethTypeMask) {
    case kAethAck:
      return "ACK";
    case kAethRnrNak:
      return fmt::format("RNR NAK (timer {} = {} us)", syn & 0x1f, kRnrUsec[syn & 0x1f]);
    case kAethNak:
      switch (syn) {
        case kNakPsnSeqError:
          return "NAK PSN sequence error";
        case kNakInvalidRequest:
          return "NAK invalid request";
        case kNakRemoteAccess:
          return "NAK remote access error";
        case kNakRemoteOp:
          return "NAK remote operational error";
        default:
          return fmt::format("NAK code {}", syn & 0x1f);
      }
    default:
      return fmt::format("reserved syndrome {:#x}", syn);
  }
}

}  // namespace

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

// ---------------------------------------------------------------------------------------
// requester (rxe_req.c)

SendWqe* Qp::reqNextWqe() {
  if (req_.wqeIndex >= sqHead_ + sq_.size()) return nullptr;
  SendWqe& w = sq_[req_.wqeIndex - sqHead_];
  if (state_ == QpState::Sqd && w.state != WqeState::Processing) return nullptr;
  if ((w.wr.sendFlags & send_flags::kFence) && req_.wqeIndex != sqHead_) {
    if (!req_.waitFence && tracing()) {
      host_.emit(
          TraceKind::Note, qpn_,
          fmt::format("wr_id {} is fenced: waits until every earlier WQE completes", w.wr.wrId));
    }
    req_.waitFence = true;
    return nullptr;
  }
  return &w;
}

int Qp::nextOpcode(const SendWqe& w, bool fits) const {
  const int o = req_.opcode;
  if (type_ == QpType::UD) {
    if (w.wr.opcode == WrOpcode::Send) return op::kUdSendOnly;
    if (w.wr.opcode == WrOpcode::SendWithImm) return op::kUdSendOnlyImm;
    return -1;
  }
  const std::uint8_t b = type_ == QpType::UC ? op::kUc : 0;
  const bool inSend = o == (b | op::kRcSendFirst) || o == (b | op::kRcSendMiddle);
  const bool inWrite = o == (b | op::kRcWriteFirst) || o == (b | op::kRcWriteMiddle);
  switch (w.wr.opcode) {
    case WrOpcode::RdmaWrite:
      return b | (inWrite ? (fits ? op::kRcWriteLast : op::kRcWriteMiddle)
                          : (fits ? op::kRcWriteOnly : op::kRcWriteFirst));
    case WrOpcode::RdmaWriteWithImm:
      return b | (inWrite ? (fits ? op::kRcWriteLastImm : op::kRcWriteMiddle)
                          : (fits ? op::kRcWriteOnlyImm : op::kRcWriteFirst));
    case WrOpcode::Send:
      return b | (inSend ? (fits ? op::kRcSendLast : op::kRcSendMiddle)
                         : (fits ? op::kRcSendOnly : op::kRcSendFirst));
    case WrOpcode::SendWithImm:
      return b | (inSend ? (fits ? op::kRcSendLastImm : op::kRcSendMiddle)
                         : (fits ? op::kRcSendOnlyImm : op::kRcSendFirst));
    case WrOpcode::SendWithInv:
      if (type_ != QpType::RC) return -1;
      return inSend ? (fits ? op::kRcSendLastInv : op::kRcSendMiddle)
                    : (fits ? op::kRcSendOnlyInv : op::kRcSendFirst);
    case WrOpcode::RdmaRead:
      return type_ == QpType::RC ? op::kRcReadRequest : -1;
    case WrOpcode::AtomicCmpAndSwp:
      return type_ == QpType::RC ? op::kRcCompareSwap : -1;
    case WrOpcode::AtomicFetchAndAdd:
      return type_ == QpType::RC ? op::kRcFetchAdd : -1;
    default:
      return -1;
  }
}

bool Qp::inflightFull() {
  if (!net_.config().limitInflight) return false;
  const SimTime now = sim().now();
  while (!txDone_.empty() && txDone_.front() <= now)
    txDone_.pop_front();
  if (txDone_.size() <= kInflightHigh) return false;
  req_.needSkb = true;
  const SimTime wake = txDone_[txDone_.size() - kInflightLow];
  scheduleRequester(wake - now);
  return true;
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

void Qp::reqRetry() {
  req_.wqeIndex = sqHead_;
  req_.psn = comp_.psn;
  req_.opcode = -1;
  bool first = true;
  for (std::size_t i = 0; i < sq_.size(); ++i) {
    SendWqe& w = sq_[i];
    if (w.state == WqeState::Posted) break;
    if (w.state == WqeState::Done) continue;
    w.iova = w.wr.remoteAddr;
    if (!first || !(w.mask & kWrRead)) w.dma.reset();
    if (first) {
      first = false;
      if (w.mask & (kWrWrite | kWrSend)) {
        // skip what the completer has seen acknowledged (retry_first_write_send)
        const std::uint32_t npsn = (comp_.psn - w.firstPsn) & kPsnMask;
        for (std::uint32_t k = 0; k < npsn; ++k) {
          const std::uint32_t n = std::min(w.dma.resid, mtu());
          req_.opcode = nextOpcode(w, w.dma.resid <= mtu());
          advanceDma(w.dma, n);
          if (w.mask & kWrWrite) w.iova += mtu();
        }
      }
      if (w.mask & kWrRead) {
        const std::uint32_t npsn = (w.dma.length - w.dma.resid) / mtu();
        w.iova += std::uint64_t{npsn} * mtu();
      }
    }
    w.state = WqeState::Posted;
  }
  if (tracing()) {
    host_.emit(TraceKind::Note, qpn_,
               fmt::format("go-back-N: the requester restarts at PSN {:#x}", req_.psn));
  }
}

void Qp::runRequester() {
  for (;;) {
    if (state_ == QpState::Err || state_ == QpState::Reset || state_ == QpState::Init ||
        state_ == QpState::Rtr) {
      return;
    }
    if (req_.needRetry && !req_.waitForRnrTimer) {
      reqRetry();
      req_.needRetry = false;
    }
    SendWqe* wp = reqNextWqe();
    if (!wp) return;
    SendWqe& w = *wp;
    if (type_ == QpType::RC && psnCompare(req_.psn, (comp_.psn + kMaxUnackedPsns) & kPsnMask) > 0) {
      req_.waitPsn = true;
      return;
    }
    if (inflightFull()) return;
    const int opcode = nextOpcode(w, w.dma.resid <= mtu());
    if (opcode < 0) {
      w.status = WcStatus::LocQpOpErr;
      w.state = WqeState::Error;
      runCompleter(nullptr);
      return;
    }
    const OpcodeInfo& info = opcodeInfo(static_cast<std::uint8_t>(opcode));
    if (info.mask & (kRead | kAtomic)) {
      if (!w.hasRdAtomic) {
        req_.needRdAtomic = true;
        if (req_.rdAtomic <= 0) {
          if (tracing()) {
            host_.emit(TraceKind::Note, qpn_,
                       fmt::format("wr_id {} waits: all {} READ/atomic slots (max_rd_atomic) "
                                   "are in use",
                                   w.wr.wrId, attr_.maxRdAtomic));
          }
          return;
        }
        --req_.rdAtomic;
        req_.needRdAtomic = false;
        w.hasRdAtomic = true;
      }
    }
    const std::uint32_t mtuNow = type_ == QpType::UD ? net_.activeMtu() : mtu();
    std::uint32_t payload = (info.mask & (kWrite | kSend)) ? w.dma.resid : 0;
    if (payload > mtuNow) {
      if (type_ == QpType::UD) {
        // C10-93.1.1: a UD message longer than the MTU sends nothing and reports success
        if (tracing()) {
          host_.emit(TraceKind::Note, qpn_,
                     fmt::format("UD wr_id {}: {} bytes exceed the MTU {}; per C10-93.1.1 "
                                 "nothing is sent and the WR completes successfully",
                                 w.wr.wrId, payload, mtuNow));
        }
        w.firstPsn = w.lastPsn = req_.psn;
        req_.psn = (req_.psn + 1) & kPsnMask;
        req_.opcode = op::kUdSendOnly;
        ++req_.wqeIndex;
        w.state = WqeState::Done;
        w.status = WcStatus::Success;
        runCompleter(nullptr);
        continue;
      }
      payload = mtuNow;
    }
    if (w.state == WqeState::Posted && tracing()) {
      host_.emit(TraceKind::WqeStarted, qpn_,
                 fmt::format("requester starts wr_id {} ({}, {} bytes) at PSN {:#x}", w.wr.wrId,
                             toString(w.wr.opcode), w.dma.length, req_.psn),
                 req_.psn, w.wr.wrId);
    }

    PacketDesc k;
    k.opcode = static_cast<std::uint8_t>(opcode);
    k.psn = req_.psn;
    k.pad = static_cast<std::uint8_t>((-payload) & 3);
    k.solicited = (w.wr.sendFlags & send_flags::kSolicited) && (info.mask & kEnd) &&
                  ((info.mask & kSend) || (info.mask & (kWrite | kImmdt)) == (kWrite | kImmdt));
    k.destQp = type_ == QpType::UD ? w.wr.remoteQpn : attr_.destQpNum;
    const bool ackReq = (info.mask & kEnd) || (req_.noackPkts++ > kMaxPktPerAck);
    if (ackReq) req_.noackPkts = 0;
    k.ackReq = ackReq;
    if (info.mask & kReth) {
      k.rkey = w.wr.rkey;
      k.va = w.iova;
      k.dmaLen = w.dma.resid;
    }
    if (info.mask & kImmdt) k.imm = w.wr.immData;
    if (info.mask & kIeth) k.ieth = w.wr.invalidateRkey;
    if (info.mask & kAtmeth) {
      k.va = w.iova;
      k.rkey = w.wr.rkey;
      if (w.wr.opcode == WrOpcode::AtomicCmpAndSwp) {
        k.swapAdd = w.wr.swap;
        k.compare = w.wr.compareAdd;
      } else {
        k.swapAdd = w.wr.compareAdd;
      }
    }
    if (info.mask & kDeth) {
      k.qkey = w.wr.remoteQkey;
      k.srcQp = qpn_;
    }

    Frame& f = net_.allocFrame();
    if ((info.mask & (kWrite | kSend)) && payload > 0) {
      if (!w.inlineData.empty()) {
        const std::uint32_t off = w.dma.length - w.dma.resid;
        f.owned.assign(w.inlineData.begin() + off, w.inlineData.begin() + off + payload);
        w.dma.resid -= payload;
        k.payload = f.owned.data();
      } else {
        std::string error;
        const std::uint8_t* ref = nullptr;
        DmaState saved = w.dma;
        const bool oneSge = w.dma.curSge < w.dma.sges.size() &&
                            w.dma.sges[w.dma.curSge].length - w.dma.sgeOffset >= payload;
        const bool refer = !net_.config().copyPayload && oneSge;
        if (!copyData(w.dma, refer ? nullptr : f.ownedBuffer(payload), payload, false, &error,
                      refer ? &ref : nullptr)) {
          w.dma = saved;
          net_.releaseFrame(f);
          if (tracing()) {
            host_.emit(TraceKind::Note, qpn_,
                       fmt::format("wr_id {}: local protection error: {}", w.wr.wrId, error));
          }
          w.status = WcStatus::LocProtErr;
          w.state = WqeState::Error;
          runCompleter(nullptr);
          return;
        }
        k.payload = ref ? ref : f.owned.data();  // copyData filled owned when it could not refer
      }
      k.payloadLen = payload;
    }
    // update_wqe_state / update_wqe_psn
    if (info.mask & kEnd) {
      if (type_ == QpType::RC) w.state = WqeState::Pending;
    } else {
      w.state = WqeState::Processing;
    }
    std::uint32_t numPkt = (w.dma.resid + payload + mtuNow - 1) / mtuNow;
    if (numPkt == 0) numPkt = 1;
    if (info.mask & kStart) {
      w.firstPsn = req_.psn;
      w.lastPsn = (req_.psn + numPkt - 1) & kPsnMask;
    }
    if (info.mask & kRead) {
      req_.psn = (w.firstPsn + numPkt) & kPsnMask;
    } else {
      req_.psn = (req_.psn + 1) & kPsnMask;
    }
    if (info.mask & kWrite) w.iova += payload;

    std::string why;
    if (tracing()) {
      why = fmt::format("wr_id {}: {} PSN {:#x}, {} payload bytes{}", w.wr.wrId, opName(k.opcode),
                        k.psn, payload,
                        ackReq ? ((info.mask & kEnd) ? ", AckReq (last packet of the message)"
                                                     : ", AckReq (every 65th packet)")
                               : "");
      if (info.mask & kRead) {
        why += fmt::format("; reserves PSNs {:#x}..{:#x} for its {} response packet(s)", w.firstPsn,
                           w.lastPsn, numPkt);
      }
      host_.emit(TraceKind::WqePacket, qpn_, why, k.psn, w.wr.wrId);
    }
    k.pkey = 0xffff;
    WireAddress addr = addr_;
    if (type_ == QpType::UD) addr = net_.addressFor(host_.index(), w.wr.ah, qpn_);
    addr.ipId = static_cast<std::uint16_t>(ipId_++);
    buildFrame(net_.config().wire, addr, k, f);
    const SimTime done = net_.transmit(host_.index(), f, why);
    txDone_.push_back(done);

    // rxe_xmit_packet: UC and UD WQEs are done when their last packet is sent
    if (type_ != QpType::RC && (info.mask & kEnd)) {
      w.state = WqeState::Done;
      w.status = WcStatus::Success;
    }
    req_.opcode = k.opcode;
    if (info.mask & kEnd) ++req_.wqeIndex;
    req_.needSkb = false;
    armRetransmit();
    if (type_ != QpType::RC && (info.mask & kEnd)) runCompleter(nullptr);
  }
}

// ---------------------------------------------------------------------------------------
// completer (rxe_comp.c)

enum class Qp::Comp {
  GetAck,
  GetWqe,
  CompWqe,
  CompAck,
  CheckPsn,
  CheckAck,
  Read,
  Atomic,
  WriteSend,
  UpdateComp,
  ErrorRetry,
  RnrRetry,
  Error,
  Exit,
  Done,
};

void Qp::doCompleteSend(SendWqe& w, const std::string& why) {
  const bool signaled =
      init_.sqSigAll || (w.wr.sendFlags & send_flags::kSignaled) || w.status != WcStatus::Success;
  if (tracing()) {
    host_.emit(TraceKind::WqeCompleted, qpn_,
               fmt::format("send wr_id {} {}: {}{}", w.wr.wrId,
                           w.status == WcStatus::Success ? "completes" : "fails", why,
                           signaled ? "" : " (unsignaled: no CQE)"),
               w.lastPsn, w.wr.wrId);
  }
  if (w.hasRdAtomic) {
    w.hasRdAtomic = false;
    ++req_.rdAtomic;
    if (req_.needRdAtomic) {
      req_.needRdAtomic = false;
      scheduleRequester();
    }
  }
  if (signaled) {
    WorkCompletion wc;
    wc.wrId = w.wr.wrId;
    wc.status = w.status;
    wc.opcode = wcOpcodeOf(w.wr.opcode);
    if (w.wr.opcode == WrOpcode::RdmaWriteWithImm || w.wr.opcode == WrOpcode::SendWithImm) {
      wc.wcFlags = wc_flags::kWithImm;
    }
    wc.byteLen = w.dma.length;
    wc.qpNum = qpn_;
    if (!host_.postCqe(init_.sendCq, wc) && tracing()) {
      host_.emit(TraceKind::Note, qpn_,
                 fmt::format("send CQ {} is full: the completion of wr_id {} is lost (rxe "
                             "ignores this error on the send side)",
                             init_.sendCq, w.wr.wrId));
    }
  }
  sq_.pop_front();
  ++sqHead_;
  if (req_.wqeIndex < sqHead_) req_.wqeIndex = sqHead_;
  if (req_.waitFence) {
    req_.waitFence = false;
    scheduleRequester();
  }
}

Qp::Comp Qp::checkPsn(const PacketDesc& pkt, SendWqe& w) {
  if (psnCompare(pkt.psn, w.lastPsn) > 0) {
    if (w.state == WqeState::Pending) {
      if (w.mask & (kWrRead | kWrAtomic)) return Comp::ErrorRetry;
      comp_.retryCnt = attr_.retryCnt;
      comp_.rnrRetry = attr_.rnrRetry;
      comp_.startedRetry = false;
      return Comp::CompWqe;
    }
    return Comp::Done;
  }
  const int diff = psnCompare(pkt.psn, comp_.psn);
  if (diff < 0) return pkt.psn == w.lastPsn ? Comp::CompAck : Comp::Done;
  if (diff > 0 && (w.mask & (kWrRead | kWrAtomic))) return Comp::Done;
  return Comp::CheckAck;
}

Qp::Comp Qp::checkAck(const PacketDesc& pkt, SendWqe& w) {
  const std::uint32_t mask = opcodeInfo(pkt.opcode).mask;
  if (comp_.opcode == -1) {
    if (!(mask & kStart)) {
      w.status = WcStatus::BadRespErr;
      return Comp::Error;
    }
  } else if (comp_.opcode == op::kRcReadResponseFirst ||
             comp_.opcode == op::kRcReadResponseMiddle) {
    if (pkt.opcode != op::kRcReadResponseMiddle && pkt.opcode != op::kRcReadResponseLast) {
      if (!((pkt.psn == w.firstPsn && pkt.opcode == op::kRcReadResponseFirst) ||
            (w.firstPsn == w.lastPsn && pkt.opcode == op::kRcReadResponseOnly))) {
        w.status = WcStatus::BadRespErr;
        return Comp::Error;
      }
    }
  }
  const std::uint8_t syn = pkt.syndrome;
  auto resetCounters = [this] {
    comp_.retryCnt = attr_.retryCnt;
    comp_.rnrRetry = attr_.rnrRetry;
    comp_.startedRetry = false;
  };
  switch (pkt.opcode) {
    case op::kRcReadResponseFirst:
    case op::kRcReadResponseLast:
    case op::kRcReadResponseOnly:
      if ((syn & kAethTypeMask) != kAethAck) {
        w.status = WcStatus::BadRespErr;
        return Comp::Error;
      }
      [[fallthrough]];
    case op::kRcReadResponseMiddle:
      if (w.wr.opcode != WrOpcode::RdmaRead) {
        w.status = WcStatus::BadRespErr;
        return Comp::Error;
      }
      resetCounters();
      return Comp::Read;
    case op::kRcAtomicAck:
      if ((syn & kAethTypeMask) != kAethAck || !(w.mask & kWrAtomic)) {
        w.status = WcStatus::BadRespErr;
        return Comp::Error;
      }
      resetCounters();
      return Comp::Atomic;
    case op::kRcAck:
      switch (syn & kAethTypeMask) {
        case kAethAck:
          resetCounters();
          return Comp::WriteSend;
        case kAethRnrNak:
          return Comp::RnrRetry;
        case kAethNak:
          switch (syn) {
            case kNakPsnSeqError:
              // a NAK acknowledges every PSN before it
              if (psnCompare(pkt.psn, comp_.psn) > 0) {
                comp_.psn = pkt.psn;
                if (req_.waitPsn) {
                  req_.waitPsn = false;
                  scheduleRequester();
                }
              }
              return Comp::ErrorRetry;
            case kNakInvalidRequest:
              w.status = WcStatus::RemInvReqErr;
              return Comp::Error;
            case kNakRemoteAccess:
              w.status = WcStatus::RemAccessErr;
              return Comp::Error;
            default:
              w.status = WcStatus::RemOpErr;
              return Comp::Error;
          }
        default:
          w.status = WcStatus::BadRespErr;
          return Comp::Error;
      }
    default:
      w.status = WcStatus::BadRespErr;
      return Comp::Error;
  }
}

void Qp::runCompleter(const ParsedPacket* in) {
  if (state_ == QpState::Err) {
    flushQueues();
    return;
  }
  if (state_ == QpState::Reset) return;
  for (;;) {  // one pass per packet, then passes without one (rxe's task loop)
    if (comp_.timeout) {
      comp_.timeoutRetry = true;
      comp_.timeout = false;
    } else {
      comp_.timeoutRetry = false;
    }
    if (req_.needRetry) return;
    const PacketDesc* pkt = in ? &in->pkt : nullptr;
    in = nullptr;
    SendWqe* w = nullptr;
    Comp st = Comp::GetWqe;
    bool again = false;
    while (st != Comp::Done && st != Comp::Exit) {
      switch (st) {
        case Comp::GetWqe:
          w = sq_.empty() ? nullptr : &sq_.front();
          if (!w || w->state == WqeState::Posted) {
            st = pkt ? Comp::Done : Comp::Exit;
          } else if (w->state == WqeState::Done) {
            st = Comp::CompWqe;
          } else if (w->state == WqeState::Error) {
            st = Comp::Error;
          } else {
            st = pkt ? Comp::CheckPsn : Comp::Exit;
          }
          if (st == Comp::Exit && comp_.timeoutRetry && w) st = Comp::ErrorRetry;
          break;
        case Comp::CheckPsn:
          st = checkPsn(*pkt, *w);
          break;
        case Comp::CheckAck:
          st = checkAck(*pkt, *w);
          break;
        case Comp::Read: {
          std::string error;
          if (!copyData(w->dma, const_cast<std::uint8_t*>(pkt->payload), pkt->payloadLen, true,
                        &error, nullptr)) {
            w->status = WcStatus::LocProtErr;
            if (tracing()) {
              host_.emit(TraceKind::Note, qpn_,
                         fmt::format("read response for wr_id {} cannot be stored: {}", w->wr.wrId,
                                     error));
            }
            st = Comp::Error;
            break;
          }
          st = (w->dma.resid == 0 && (opcodeInfo(pkt->opcode).mask & kEnd)) ? Comp::CompAck
                                                                            : Comp::UpdateComp;
          break;
        }
        case Comp::Atomic: {
          std::uint8_t orig[8];
          for (int i = 0; i < 8; ++i)
            orig[i] = static_cast<std::uint8_t>(pkt->origData >> (8 * i));
          std::string error;
          if (!copyData(w->dma, orig, 8, true, &error, nullptr)) {
            w->status = WcStatus::LocProtErr;
            st = Comp::Error;
            break;
          }
          st = Comp::CompAck;
          break;
        }
        case Comp::WriteSend:
          st = (w->state == WqeState::Pending && w->lastPsn == pkt->psn) ? Comp::CompAck
                                                                         : Comp::UpdateComp;
          break;
        case Comp::CompAck:
          doCompleteSend(*w,
                         fmt::format("{} for PSN {:#x} received", opName(pkt->opcode), pkt->psn));
          w = nullptr;
          st = psnCompare(pkt->psn, comp_.psn) >= 0 ? Comp::UpdateComp : Comp::Done;
          break;
        case Comp::CompWqe:
          if (pkt && w->state == WqeState::Pending) {
            if (psnCompare(w->lastPsn, comp_.psn) >= 0) {
              comp_.psn = (w->lastPsn + 1) & kPsnMask;
              comp_.opcode = -1;
            }
            if (req_.waitPsn) {
              req_.waitPsn = false;
              scheduleRequester();
            }
          }
          doCompleteSend(
              *w, pkt ? fmt::format("{} for PSN {:#x} covers it (coalesced ACK)",
                                    opName(pkt->opcode), pkt->psn)
                      : std::string(type_ == QpType::RC ? "done" : "its last packet was sent"));
          w = nullptr;
          st = Comp::GetWqe;
          break;
        case Comp::UpdateComp:
          comp_.opcode = (opcodeInfo(pkt->opcode).mask & kEnd) ? -1 : pkt->opcode;
          if (psnCompare(pkt->psn, comp_.psn) >= 0) comp_.psn = (pkt->psn + 1) & kPsnMask;
          if (req_.waitPsn) {
            req_.waitPsn = false;
            scheduleRequester();
          }
          st = Comp::Done;
          break;
        case Comp::ErrorRetry:
          if (!w || w->state == WqeState::Posted) {
            st = Comp::Exit;
            break;
          }
          if (comp_.startedRetry && !comp_.timeoutRetry) {
            st = Comp::Done;
            break;
          }
          if (comp_.retryCnt > 0) {
            if (comp_.retryCnt != 7) --comp_.retryCnt;  // rxe treats 7 as infinite
            if (psnCompare(req_.psn, comp_.psn) > 0) {
              if (tracing()) {
                host_.emit(TraceKind::Note, qpn_,
                           fmt::format("{}: retry from PSN {:#x} ({} retries left)",
                                       comp_.timeoutRetry ? "timeout" : "NAK PSN sequence error",
                                       comp_.psn, comp_.retryCnt));
              }
              req_.needRetry = true;
              comp_.startedRetry = true;
              scheduleRequester();
            }
            st = Comp::Done;
          } else {
            w->status = WcStatus::RetryExcErr;
            if (tracing()) {
              host_.emit(TraceKind::Note, qpn_,
                         fmt::format("retry_cnt {} exhausted at PSN {:#x}: RETRY_EXC_ERR",
                                     attr_.retryCnt, comp_.psn));
            }
            st = Comp::Error;
          }
          break;
        case Comp::RnrRetry:
          if (comp_.rnrRetry > 0) {
            if (comp_.rnrRetry != 7) --comp_.rnrRetry;  // 7 means retry forever
            // rxe 6.x: the retry flow waits for the RNR timer, even when the retransmit timer
            // fires meanwhile; the RNR NAK leaves the retransmit timer as it was (goto exit).
            req_.waitForRnrTimer = true;
            const SimTime d = SimTime::us(kRnrUsec[pkt->syndrome & 0x1f]);
            rnr_.deadline = sim().now() + d;
            rnr_.eventAt = rnr_.deadline;
            sim().schedule(d, this, kRnrTimer, 0);
            if (tracing()) {
              host_.emit(TraceKind::TimerArmed, qpn_,
                         fmt::format("RNR NAK for PSN {:#x}: wait {} us then resend ({})", pkt->psn,
                                     kRnrUsec[pkt->syndrome & 0x1f],
                                     attr_.rnrRetry == 7
                                         ? std::string("rnr_retry 7: forever")
                                         : fmt::format("{} RNR retries left", comp_.rnrRetry)));
            }
            return;
          } else {
            w->status = WcStatus::RnrRetryExcErr;
            st = Comp::Error;
          }
          break;
        case Comp::Error: {
          const WcStatus s = w->status;
          doCompleteSend(*w, std::string(toString(s)));
          toError(fmt::format("completion error {} moves the QP to ERR", toString(s)));
          return;
        }
        default:
          st = Comp::Done;
          break;
      }
    }
    if (st == Comp::Exit) {
      // kick the retransmit timer down the road while something is unacknowledged
      if (type_ == QpType::RC && (state_ == QpState::Rts || state_ == QpState::Sqd) &&
          psnCompare(req_.psn, comp_.psn) > 0) {
        kickRetransmit();
      } else if (psnCompare(req_.psn, comp_.psn) <= 0) {
        retransmit_.deadline = SimTime::max();
      }
      return;
    }
    again = true;  // Done: run again without a packet
    (void)again;
  }
}

// ---------------------------------------------------------------------------------------
// responder (rxe_resp.c)

enum class Qp::R {
  ChkPsn,
  ChkOpSeq,
  ChkOpValid,
  ChkResource,
  ChkLength,
  ChkRkey,
  Execute,
  ReadReply,
  AtomicReply,
  Complete,
  Acknowledge,
  Cleanup,
  Duplicate,
  ErrMalformedWqe,
  ErrUnsupportedOpcode,
  ErrMisalignedAtomic,
  ErrPsnOutOfSeq,
  ErrMissingOpcodeFirst,
  ErrMissingOpcodeLastC,
  ErrMissingOpcodeLastD1E,
  ErrTooManyRdmaAtmReq,
  ErrRnr,
  ErrRkeyViolation,
  ErrInvalidateRkey,
  ErrLength,
  ErrCqOverflow,
  Error,
  Done,
  Paused,
};

void Qp::receive(const ParsedPacket& in) {
  const std::uint32_t mask = opcodeInfo(in.pkt.opcode).mask;
  if (!(mask & kReq)) {
    runCompleter(&in);
    return;
  }
  if (resp_.resIndex >= 0 || !reqPkts_.empty()) {
    // a long READ reply is being sent: requests wait behind it as in rxe's req_pkts queue
    QueuedPacket& q = reqPkts_.emplace_back();
    q.packet = in;
    q.payload.assign(in.pkt.payload, in.pkt.payload + in.pkt.payloadLen);
    q.packet.pkt.payload = q.payload.data();
    return;
  }
  responderRun(&in);
}

RespResource* Qp::findResource(std::uint32_t psn) {
  for (RespResource& r : resp_.resources) {
    if (r.type == 0) continue;
    if (psnCompare(psn, r.firstPsn) >= 0 && psnCompare(psn, r.lastPsn) <= 0) return &r;
  }
  return nullptr;
}

int Qp::prepareResource(const PacketDesc& pkt, std::uint32_t type) {
  const int idx = static_cast<int>(resp_.resHead);
  resp_.resHead = (resp_.resHead + 1) % resp_.resources.size();
  RespResource& r = resp_.resources[idx];
  r = RespResource{};
  r.type = type;
  if (type == kRead) {
    r.va = r.vaOrg = resp_.va;
    r.resid = r.length = resp_.resid;
    r.rkey = resp_.rkey;
    const std::uint32_t pkts = std::max<std::uint32_t>((pkt.dmaLen + mtu() - 1) / mtu(), 1);
    r.firstPsn = r.curPsn = pkt.psn;
    r.lastPsn = (pkt.psn + pkts - 1) & kPsnMask;
  } else {
    r.firstPsn = r.lastPsn = r.curPsn = pkt.psn;
  }
  return idx;
}

void Qp::sendResponse(PacketDesc& k, const std::string& why) {
  k.destQp = attr_.destQpNum;
  k.msn = resp_.msn;
  k.pkey = 0xffff;
  Frame& f = net_.allocFrame();
  if (k.payloadLen) {
    if (net_.config().copyPayload) {
      f.owned.assign(k.payload, k.payload + k.payloadLen);
      k.payload = f.owned.data();
    }
  }
  WireAddress addr = addr_;
  addr.ipId = static_cast<std::uint16_t>(ipId_++);
  buildFrame(net_.config().wire, addr, k, f);
  txDone_.push_back(net_.transmit(host_.index(), f, why));
}

void Qp::sendAck(std::uint8_t opcode, std::uint8_t syndrome, std::uint32_t psn,
                 const RespResource* res, const std::string& why) {
  PacketDesc k;
  k.opcode = opcode;
  k.syndrome = syndrome;
  k.psn = psn;
  if (res) k.origData = res->origVal;
  std::string text;
  if (tracing()) {
    text = fmt::format("responder sends {} PSN {:#x} MSN {}: {} ({})", opName(opcode), psn,
                       resp_.msn, syndromeText(syndrome), why);
  }
  sendResponse(k, text);
}

bool Qp::scatter(RecvWqe& w, const std::uint8_t* data, std::uint32_t len, bool* noSpace) {
  *noSpace = len > w.dma.resid;
  if (*noSpace) return false;
  std::string error;
  if (!copyData(w.dma, const_cast<std::uint8_t*>(data), len, true, &error, nullptr)) {
    if (tracing()) host_.emit(TraceKind::Note, qpn_, "receive WQE is malformed: " + error);
    return false;
  }
  return true;
}

void Qp::completeRecv(const ParsedPacket* in, WcStatus status, const std::string& why) {
  if (rq_.empty()) return;
  RecvWqe& w = rq_.front();
  WorkCompletion wc;
  wc.wrId = w.wr.wrId;
  wc.status = status;
  wc.qpNum = qpn_;
  wc.opcode = WcOpcode::Recv;
  if (status == WcStatus::Success && in) {
    const std::uint32_t mask = opcodeInfo(in->pkt.opcode).mask;
    const bool writeImm = (mask & kImmdt) && (mask & kWrite);
    wc.opcode = writeImm ? WcOpcode::RecvRdmaWithImm : WcOpcode::Recv;
    wc.byteLen = writeImm ? resp_.length : w.dma.length - w.dma.resid;
    wc.wcFlags = wc_flags::kGrh;  // rxe reports a GRH on every user-space receive completion
    if (mask & kImmdt) {
      wc.wcFlags |= wc_flags::kWithImm;
      wc.immData = in->pkt.imm;
    }
    if (mask & kIeth) {
      wc.wcFlags |= wc_flags::kWithInv;
      wc.invalidatedRkey = in->pkt.ieth;
    }
    if (mask & kDeth) wc.srcQp = in->pkt.srcQp;
    wc.slid = in->addr.slid;
    wc.sl = in->addr.sl;
  }
  if (tracing()) {
    host_.emit(TraceKind::WqeCompleted, qpn_,
               fmt::format("receive wr_id {} {}: {}", w.wr.wrId,
                           status == WcStatus::Success ? "completes" : "fails", why),
               in ? in->pkt.psn : 0, w.wr.wrId);
  }
  rq_.pop_front();
  resp_.haveWqe = false;
  if (!host_.postCqe(init_.recvCq, wc)) {
    if (state_ != QpState::Err) {
      toError(fmt::format("receive CQ {} overflowed (depth {}): class G error", init_.recvCq,
                          host_.cq(init_.recvCq)->depth));
    }
  }
}

bool Qp::readReply(RespResource& res, std::string* error) {
  for (;;) {
    const MemoryRegionInfo* mr = host_.findMr(pd_, res.rkey, true);
    if (res.length > 0 && !mr) {
      if (error) *error = fmt::format("rkey {:#x} is no longer valid", res.rkey);
      return false;
    }
    std::uint8_t opcode;
    if (!res.started) {
      opcode = res.resid <= mtu() ? op::kRcReadResponseOnly : op::kRcReadResponseFirst;
    } else {
      opcode = res.resid > mtu() ? op::kRcReadResponseMiddle : op::kRcReadResponseLast;
    }
    res.started = true;
    const std::uint32_t payload = std::min(res.resid, mtu());
    PacketDesc k;
    k.opcode = opcode;
    k.psn = res.curPsn;
    k.syndrome = kAethAckUnlimited;
    k.pad = static_cast<std::uint8_t>((-payload) & 3);
    if (payload) {
      auto mem = host_.memory(res.va, payload);
      k.payload = mem.data();
      k.payloadLen = payload;
      if (tracing()) {
        host_.emitMemory(false, res.va, payload, qpn_,
                         fmt::format("NIC reads {} bytes for the READ response", payload));
      }
    }
    std::string why;
    if (tracing()) {
      why = fmt::format(
          "responder sends {} PSN {:#x} with {} bytes{}{}", opName(opcode), k.psn, payload,
          (opcodeInfo(opcode).mask & kAeth) ? fmt::format(", AETH ACK MSN {}", resp_.msn)
                                            : std::string(", no AETH"),
          res.replay ? " (replayed from the responder resource)" : "");
    }
    sendResponse(k, why);
    res.va += payload;
    res.resid -= payload;
    res.curPsn = (res.curPsn + 1) & kPsnMask;
    if (res.resid == 0) return true;
    if (net_.config().limitInflight) {
      const SimTime now = sim().now();
      while (!txDone_.empty() && txDone_.front() <= now)
        txDone_.pop_front();
      if (txDone_.size() > kInflightHigh) {
        if (!resp_.readScheduled) {
          resp_.readScheduled = true;
          sim().schedule(txDone_[txDone_.size() - kInflightLow] - now, this, kResumeRead, 0);
        }
        if (error) error->clear();
        return false;
      }
    }
  }
}

void Qp::responderRun(const ParsedPacket* first) {
  const ParsedPacket* in = first;
  for (;;) {
    if (state_ == QpState::Err || state_ == QpState::Reset) return;
    bool fromQueue = false;
    if (!in && resp_.resIndex < 0) {
      if (reqPkts_.empty()) return;
      in = &reqPkts_.front().packet;
      fromQueue = true;
    }
    const PacketDesc* pkt = in ? &in->pkt : nullptr;
    const std::uint32_t m = pkt ? opcodeInfo(pkt->opcode).mask : 0;
    std::uint8_t aethSyndrome = kAethAckUnlimited;
    WcStatus status = WcStatus::Success;
    bool gotoError = false;
    bool noSpace = false;
    std::string why;  // reason for errors, for the trace
    R st = resp_.resIndex >= 0 ? R::ReadReply : R::ChkPsn;
    while (st != R::Done && st != R::Paused) {
      switch (st) {
        case R::ChkPsn: {
          const int diff = psnCompare(pkt->psn, resp_.psn);
          if (type_ == QpType::RC) {
            if (diff > 0) {
              if (resp_.sentPsnNak) {
                why = "out of sequence again; the NAK was already sent";
                st = R::Cleanup;
                if (tracing()) {
                  host_.emit(TraceKind::FrameDropped, qpn_,
                             fmt::format("responder drops {} PSN {:#x}: expected PSN {:#x} and "
                                         "a NAK is already outstanding",
                                         opName(pkt->opcode), pkt->psn, resp_.psn),
                             pkt->psn);
                }
                break;
              }
              resp_.sentPsnNak = true;
              st = R::ErrPsnOutOfSeq;
              break;
            }
            if (diff < 0) {
              st = R::Duplicate;
              break;
            }
            resp_.sentPsnNak = false;
          } else if (type_ == QpType::UC) {
            if (resp_.dropMsg || diff != 0) {
              if (m & kStart) {
                resp_.dropMsg = false;
              } else {
                resp_.dropMsg = true;
                if (tracing()) {
                  host_.emit(TraceKind::FrameDropped, qpn_,
                             fmt::format("UC responder drops {} PSN {:#x} (expected {:#x}): the "
                                         "rest of this message is discarded until a FIRST/ONLY",
                                         opName(pkt->opcode), pkt->psn, resp_.psn),
                             pkt->psn);
                }
                st = R::Cleanup;
                break;
              }
            }
          }
          st = R::ChkOpSeq;
          break;
        }
        case R::ChkOpSeq: {
          const int o = resp_.opcode;
          const std::uint8_t b = type_ == QpType::UC ? op::kUc : 0;
          const std::uint8_t p = pkt->opcode;
          if (type_ == QpType::UD) {
            st = R::ChkOpValid;
            break;
          }
          const bool inSend = o == (b | op::kRcSendFirst) || o == (b | op::kRcSendMiddle);
          const bool inWrite = o == (b | op::kRcWriteFirst) || o == (b | op::kRcWriteMiddle);
          const bool contSend = p == (b | op::kRcSendMiddle) || p == (b | op::kRcSendLast) ||
                                p == (b | op::kRcSendLastImm) ||
                                (type_ == QpType::RC && p == op::kRcSendLastInv);
          const bool contWrite = p == (b | op::kRcWriteMiddle) || p == (b | op::kRcWriteLast) ||
                                 p == (b | op::kRcWriteLastImm);
          if (inSend) {
            st = contSend ? R::ChkOpValid
                          : (type_ == QpType::RC ? R::ErrMissingOpcodeLastC
                                                 : R::ErrMissingOpcodeLastD1E);
          } else if (inWrite) {
            st = contWrite ? R::ChkOpValid
                           : (type_ == QpType::RC ? R::ErrMissingOpcodeLastC
                                                  : R::ErrMissingOpcodeLastD1E);
          } else if (contSend || contWrite) {
            if (type_ == QpType::RC) {
              st = R::ErrMissingOpcodeFirst;
            } else {
              resp_.dropMsg = true;
              st = R::Cleanup;
            }
          } else {
            st = R::ChkOpValid;
          }
          break;
        }
        case R::ChkOpValid: {
          const unsigned acc = attr_.qpAccessFlags;
          if (type_ == QpType::RC) {
            if (((m & kRead) && !(acc & access::kRemoteRead)) ||
                ((m & kWrite) && !(acc & access::kRemoteWrite)) ||
                ((m & kAtomic) && !(acc & access::kRemoteAtomic))) {
              why = fmt::format("the QP's access flags do not allow {}", opName(pkt->opcode));
              st = R::ErrUnsupportedOpcode;
              break;
            }
          } else if (type_ == QpType::UC) {
            if ((m & kWrite) && !(acc & access::kRemoteWrite)) {
              resp_.dropMsg = true;
              st = R::Cleanup;
              break;
            }
          }
          st = R::ChkResource;
          break;
        }
        case R::ChkResource:
          if (m & (kRead | kAtomic)) {
            st = attr_.maxDestRdAtomic > 0 ? R::ChkLength : R::ErrTooManyRdmaAtmReq;
            break;
          }
          if (m & kRwr) {
            if (rq_.empty()) {
              st = R::ErrRnr;
              break;
            }
            resp_.haveWqe = true;
          }
          st = R::ChkLength;
          break;
        case R::ChkLength: {
          const std::uint32_t payload = pkt->payloadLen;
          const std::uint32_t mtuNow = type_ == QpType::UD ? net_.activeMtu() : mtu();
          if ((m & kStart) && (m & kEnd)) {
            if (payload > mtuNow) st = R::ErrLength;
          } else if ((m & kStart) || (m & kMiddle)) {
            if (payload != mtuNow) st = R::ErrLength;
          } else if (m & kEnd) {
            if (payload == 0 || payload > mtuNow) st = R::ErrLength;
          }
          if (st == R::ErrLength) {
            why =
                fmt::format("{} carries {} bytes at MTU {}", opName(pkt->opcode), payload, mtuNow);
            break;
          }
          if ((m & (kWrite | kRead)) && (m & kReth) && pkt->dmaLen > (1u << 31)) {
            why = "DMA length above 2 GiB";
            st = R::ErrLength;
            break;
          }
          st = R::ChkRkey;
          break;
        }
        case R::ChkRkey: {
          unsigned need;
          if (m & (kRead | kWrite)) {
            if (m & kReth) {
              resp_.va = pkt->va;
              resp_.rkey = pkt->rkey;
              resp_.resid = pkt->dmaLen;
              resp_.length = pkt->dmaLen;
            }
            need = (m & kRead) ? access::kRemoteRead : access::kRemoteWrite;
          } else if (m & kAtomic) {
            resp_.va = pkt->va;
            resp_.rkey = pkt->rkey;
            resp_.resid = 8;
            need = access::kRemoteAtomic;
          } else {
            st = R::Execute;
            break;
          }
          if ((m & (kRead | kWrite)) && (m & kReth) && pkt->dmaLen == 0) {
            st = R::Execute;
            break;
          }
          const MemoryRegionInfo* mr = host_.findMr(pd_, resp_.rkey, true);
          if (!mr || !(mr->access & need)) {
            why = mr ? fmt::format("the MR of rkey {:#x} lacks {}", resp_.rkey,
                                   need == access::kRemoteRead    ? "IBV_ACCESS_REMOTE_READ"
                                   : need == access::kRemoteWrite ? "IBV_ACCESS_REMOTE_WRITE"
                                                                  : "IBV_ACCESS_REMOTE_ATOMIC")
                     : fmt::format("rkey {:#x} matches no MR of the QP's PD", resp_.rkey);
            st = R::ErrRkeyViolation;
            break;
          }
          if (resp_.va < mr->addr || resp_.va + resp_.resid > mr->addr + mr->length) {
            why = fmt::format("[{:#x}, +{}) lies outside the MR [{:#x}, +{})", resp_.va,
                              resp_.resid, mr->addr, mr->length);
            st = R::ErrRkeyViolation;
            break;
          }
          if (m & kWrite) {
            const std::uint32_t len = pkt->payloadLen;
            if (resp_.resid > mtu()) {
              if (len != mtu() || pkt->pad) st = R::ErrLength;
            } else if (len != resp_.resid || pkt->pad != ((-resp_.resid) & 3)) {
              st = R::ErrLength;
            }
            if (st == R::ErrLength) {
              why = fmt::format("{} carries {} bytes but {} remain of the RDMA WRITE",
                                opName(pkt->opcode), len, resp_.resid);
              break;
            }
          }
          resp_.mr = mr;
          st = R::Execute;
          break;
        }
        case R::Execute: {
          if (m & kSend) {
            RecvWqe& w = rq_.front();
            if (type_ == QpType::UD) {
              if (!scatter(w, in->grh.data(), 40, &noSpace)) {
                why = "the receive buffer cannot hold the 40-byte GRH";
                st = noSpace ? R::ErrLength : R::ErrMalformedWqe;
                break;
              }
            }
            if (!scatter(w, pkt->payload, pkt->payloadLen, &noSpace)) {
              why = fmt::format("{} payload bytes do not fit the receive WQE ({} left)",
                                pkt->payloadLen, w.dma.resid);
              st = noSpace ? R::ErrLength : R::ErrMalformedWqe;
              break;
            }
          } else if (m & kWrite) {
            if (pkt->payloadLen) {
              auto mem = host_.memory(resp_.va, pkt->payloadLen);
              dmaWrite(mem.data(), pkt->payload, pkt->payloadLen);
              if (tracing()) {
                host_.emitMemory(true, resp_.va, pkt->payloadLen, qpn_,
                                 fmt::format("NIC writes {} bytes of {} PSN {:#x}", pkt->payloadLen,
                                             opName(pkt->opcode), pkt->psn));
              }
            }
            resp_.va += pkt->payloadLen;
            resp_.resid -= pkt->payloadLen;
          } else if (m & kRead) {
            ++resp_.msn;  // C9-148: the MSN of a READ advances when it is executed
            st = R::ReadReply;
            break;
          } else if (m & kAtomic) {
            st = R::AtomicReply;
            break;
          }
          if (m & kIeth) {
            if (!host_.invalidateRkey(pkt->ieth)) {
              why = fmt::format("rkey {:#x} to invalidate matches no MR", pkt->ieth);
              st = R::ErrInvalidateRkey;
              break;
            }
          }
          if (m & kEnd) ++resp_.msn;
          resp_.psn = (pkt->psn + 1) & kPsnMask;
          resp_.ackPsn = resp_.psn;
          resp_.opcode = pkt->opcode;
          status = WcStatus::Success;
          if (m & kComp) {
            st = R::Complete;
          } else {
            st = type_ == QpType::RC ? R::Acknowledge : R::Cleanup;
          }
          break;
        }
        case R::ReadReply: {
          if (resp_.resIndex < 0) resp_.resIndex = prepareResource(*pkt, kRead);
          RespResource& res = resp_.resources[resp_.resIndex];
          std::string error;
          if (!readReply(res, &error)) {
            if (error.empty()) {
              st = R::Paused;
              break;
            }
            why = error;
            st = R::ErrRkeyViolation;
            break;
          }
          const bool replay = res.replay;
          resp_.resIndex = -1;
          if (!replay) resp_.opcode = -1;
          if (psnCompare(res.curPsn, resp_.psn) >= 0) resp_.psn = res.curPsn;
          st = R::Cleanup;
          break;
        }
        case R::AtomicReply: {
          if (resp_.resIndex < 0) resp_.resIndex = prepareResource(*pkt, kAtomic);
          RespResource& res = resp_.resources[resp_.resIndex];
          if (!res.replay) {
            if (resp_.va & 7) {
              why = fmt::format("atomic address {:#x} is not 8-byte aligned", resp_.va);
              st = R::ErrMisalignedAtomic;
              break;
            }
            auto mem = host_.memory(resp_.va, 8);
            std::uint64_t value;
            std::memcpy(&value, mem.data(), 8);
            res.origVal = value;
            res.atomicOpcode = pkt->opcode;
            if (pkt->opcode == op::kRcCompareSwap) {
              if (value == pkt->compare) value = pkt->swapAdd;
            } else {
              value += pkt->swapAdd;
            }
            std::memcpy(mem.data(), &value, 8);
            if (tracing()) {
              host_.emitMemory(true, resp_.va, 8, qpn_,
                               fmt::format("{}: read {:#x}, wrote {:#x} atomically",
                                           opName(pkt->opcode), res.origVal, value));
            }
            ++resp_.msn;
            resp_.psn = (pkt->psn + 1) & kPsnMask;
            resp_.ackPsn = resp_.psn;
            resp_.opcode = pkt->opcode;
            status = WcStatus::Success;
          }
          st = R::Acknowledge;
          break;
        }
        case R::Complete: {
          if (resp_.haveWqe && !rq_.empty()) {
            if (status == WcStatus::Success) {
              completeRecv(
                  in, status,
                  fmt::format("{} PSN {:#x} ends the message", opName(pkt->opcode), pkt->psn));
            } else {
              completeRecv(in, status, why);
            }
          }
          if (state_ == QpState::Err) {
            st = R::Done;
            break;
          }
          st = type_ == QpType::RC ? R::Acknowledge : R::Cleanup;
          break;
        }
        case R::Acknowledge:
          if (type_ != QpType::RC) {
            st = R::Cleanup;
            break;
          }
          if (aethSyndrome != kAethAckUnlimited) {
            sendAck(op::kRcAck, aethSyndrome, pkt->psn, nullptr, why);
          } else if (m & kAtomic) {
            sendAck(op::kRcAtomicAck, kAethAckUnlimited, pkt->psn, &resp_.resources[resp_.resIndex],
                    fmt::format("original value {:#x}", resp_.resources[resp_.resIndex].origVal));
          } else if (pkt->ackReq) {
            sendAck(op::kRcAck, kAethAckUnlimited, pkt->psn, nullptr, "the request had AckReq set");
          }
          if (m & kAtomic) resp_.resIndex = -1;
          st = R::Cleanup;
          break;
        case R::Cleanup:
          resp_.mr = nullptr;
          st = R::Done;
          break;
        case R::Duplicate: {
          const std::uint32_t prev = (resp_.ackPsn - 1) & kPsnMask;
          if (m & (kSend | kWrite)) {
            sendAck(op::kRcAck, kAethAckUnlimited, prev, nullptr,
                    fmt::format("duplicate {} PSN {:#x} is acknowledged again, not re-executed "
                                "(C9-105)",
                                opName(pkt->opcode), pkt->psn));
            st = R::Cleanup;
          } else if (m & kRead) {
            RespResource* res = findResource(pkt->psn);
            if (!res || pkt->va < res->vaOrg || pkt->dmaLen > res->length ||
                pkt->va + pkt->dmaLen > res->vaOrg + res->length || pkt->rkey != res->rkey) {
              if (tracing()) {
                host_.emit(TraceKind::FrameDropped, qpn_,
                           fmt::format("duplicate READ PSN {:#x} matches no responder resource: "
                                       "dropped",
                                       pkt->psn),
                           pkt->psn);
              }
              st = R::Cleanup;
              break;
            }
            res->curPsn = pkt->psn;
            res->started = pkt->psn != res->firstPsn;
            res->replay = true;
            res->vaOrg = res->va = pkt->va;
            res->resid = pkt->dmaLen;
            resp_.resIndex = static_cast<int>(res - resp_.resources.data());
            if (tracing()) {
              host_.emit(TraceKind::Note, qpn_,
                         fmt::format("duplicate READ PSN {:#x}: replayed from the responder "
                                     "resource, not re-executed",
                                     pkt->psn),
                         pkt->psn);
            }
            st = R::ReadReply;
          } else {
            RespResource* res = findResource(pkt->psn);
            if (res) {
              res->replay = true;
              res->curPsn = pkt->psn;
              resp_.resIndex = static_cast<int>(res - resp_.resources.data());
              if (tracing()) {
                host_.emit(TraceKind::Note, qpn_,
                           fmt::format("duplicate atomic PSN {:#x}: the saved result {:#x} is "
                                       "sent again, the memory is not touched",
                                       pkt->psn, res->origVal),
                           pkt->psn);
              }
              st = R::AtomicReply;
            } else {
              st = R::Cleanup;
            }
          }
          break;
        }
        case R::ErrPsnOutOfSeq:
          sendAck(
              op::kRcAck, kNakPsnSeqError, resp_.psn, nullptr,
              fmt::format("got PSN {:#x}, expected {:#x}: a packet was lost", pkt->psn, resp_.psn));
          st = R::Cleanup;
          break;
        case R::ErrTooManyRdmaAtmReq:
        case R::ErrMissingOpcodeFirst:
        case R::ErrMissingOpcodeLastC:
        case R::ErrUnsupportedOpcode:
        case R::ErrMisalignedAtomic:
          if (why.empty()) {
            why = st == R::ErrTooManyRdmaAtmReq
                      ? "max_dest_rd_atomic is 0"
                      : fmt::format("{} out of sequence (previous {})", opName(pkt->opcode),
                                    resp_.opcode < 0
                                        ? std::string("none")
                                        : opName(static_cast<std::uint8_t>(resp_.opcode)));
          }
          aethSyndrome = kNakInvalidRequest;
          status = WcStatus::RemInvReqErr;
          gotoError = true;
          st = R::Complete;
          break;
        case R::ErrMissingOpcodeLastD1E:
          // class D1: the unfinished message is abandoned; this FIRST/ONLY may start a new one
          if (resp_.haveWqe && !rq_.empty()) rq_.front().dma.reset();
          resp_.haveWqe = false;
          resp_.opcode = -1;
          resp_.mr = nullptr;
          if (tracing()) {
            host_.emit(TraceKind::Note, qpn_,
                       "UC: the previous message lacks its LAST packet and is abandoned; the "
                       "receive WQE is reused");
          }
          st = R::ChkOpValid;
          break;
        case R::ErrRnr:
          if (type_ == QpType::RC) {
            sendAck(op::kRcAck, static_cast<std::uint8_t>(kAethRnrNak | (attr_.minRnrTimer & 0x1f)),
                    pkt->psn, nullptr, "no receive WQE is posted");
          } else {
            resp_.dropMsg = true;
            if (tracing()) {
              host_.emit(TraceKind::FrameDropped, qpn_,
                         fmt::format("{} PSN {:#x} dropped: no receive WQE is posted",
                                     opName(pkt->opcode), pkt->psn),
                         pkt->psn);
            }
          }
          st = R::Cleanup;
          break;
        case R::ErrRkeyViolation:
          if (type_ == QpType::RC) {
            aethSyndrome = kNakRemoteAccess;
            status = WcStatus::RemAccessErr;
            gotoError = true;
            resp_.resIndex = -1;
            st = R::Complete;
          } else {
            resp_.dropMsg = true;
            if (tracing()) {
              host_.emit(TraceKind::FrameDropped, qpn_, "UC RDMA WRITE dropped: " + why, pkt->psn);
            }
            st = R::Cleanup;
          }
          break;
        case R::ErrInvalidateRkey:
          gotoError = true;
          status = WcStatus::RemInvReqErr;
          st = R::Complete;
          break;
        case R::ErrLength:
          if (type_ == QpType::RC) {
            aethSyndrome = kNakInvalidRequest;
            // IBTA: the receiver's own completion is a local length error when its buffer is
            // too small (rxe reports REM_INV_REQ_ERR here)
            status = noSpace ? WcStatus::LocLenErr : WcStatus::RemInvReqErr;
            gotoError = true;
            st = R::Complete;
          } else {
            resp_.dropMsg = true;
            if (tracing()) {
              host_.emit(TraceKind::FrameDropped, qpn_,
                         fmt::format("{} dropped (class D): {}", opName(pkt->opcode), why),
                         pkt->psn);
            }
            if (resp_.haveWqe && !rq_.empty()) rq_.front().dma.reset();
            resp_.haveWqe = false;
            st = R::Cleanup;
          }
          break;
        case R::ErrMalformedWqe:
          aethSyndrome = kNakRemoteOp;
          status = WcStatus::LocQpOpErr;
          gotoError = true;
          st = R::Complete;
          break;
        case R::ErrCqOverflow:
        case R::Error:
          toError("responder error");
          st = R::Done;
          break;
        default:
          st = R::Done;
          break;
      }
    }
    if (st == R::Paused) return;
    if (gotoError && state_ != QpState::Err) {
      toError(fmt::format("responder error ({}) moves the QP to ERR", why));
    }
    if (fromQueue && !reqPkts_.empty()) reqPkts_.pop_front();
    in = nullptr;
    if (first && !fromQueue && resp_.resIndex < 0 && reqPkts_.empty()) return;
  }
}

}  // namespace rdmascope::sim
