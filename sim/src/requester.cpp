// The requester (rxe_req.c): turns send WQEs into request packets, PSN by PSN, and restarts
// them go-back-N when the completer asks for a retry.
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>

#include "qp.h"
#include "qp_common.h"
#include "rdmascope/sim/network.h"

namespace rdmascope::sim {

SendWqe* Qp::reqNextWqe() {
  if (req_.wqeIndex >= sqHead_ + sq_.size()) return nullptr;
  SendWqe& w = sq_[req_.wqeIndex - sqHead_];
  if (state_ == QpState::Sqd && w.state != WqeState::Processing) return nullptr;
  if ((w.wr.sendFlags & send_flags::kFence) && req_.wqeIndex != sqHead_) {
    if (!req_.waitFence && tracing()) {
      TraceEvent e = event(TraceKind::Note, Narrative::FenceWait);
      e.wrId = w.wr.wrId;
      host_.emit(std::move(e));
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
        // (rxe walks the acknowledged packets one by one; every one but the last skipped is a
        // full MTU and a MIDDLE after a MIDDLE leaves the opcode state as it was, so the walk
        // is the first packet, one jump, and the last packet)
        const std::uint32_t npsn = (comp_.psn - w.firstPsn) & kPsnMask;
        auto skipOne = [&] {
          const std::uint32_t n = std::min(w.dma.resid, mtu());
          req_.opcode = nextOpcode(w, w.dma.resid <= mtu());
          advanceDma(w.dma, n);
        };
        if (std::uint64_t{npsn} * mtu() < w.dma.resid) {
          if (npsn > 0) skipOne();
          if (npsn > 2) advanceDma(w.dma, (npsn - 2) * mtu());
          if (npsn > 1) skipOne();
        } else {
          for (std::uint32_t k = 0; k < npsn; ++k)
            skipOne();
        }
        if (w.mask & kWrWrite) w.iova += std::uint64_t{npsn} * mtu();
      }
      if (w.mask & kWrRead) {
        const std::uint32_t npsn = (w.dma.length - w.dma.resid) / mtu();
        w.iova += std::uint64_t{npsn} * mtu();
      }
    }
    w.state = WqeState::Posted;
  }
  if (tracing()) {
    TraceEvent e = event(TraceKind::Note, Narrative::GoBackN);
    e.psn = req_.psn;
    host_.emit(std::move(e));
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
            TraceEvent e = event(TraceKind::Note, Narrative::RdAtomicWait);
            e.wrId = w.wr.wrId;
            e.args.limit = attr_.maxRdAtomic;
            host_.emit(std::move(e));
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
          TraceEvent e = event(TraceKind::Note, Narrative::UdTooLong);
          e.wrId = w.wr.wrId;
          e.args.bytes = payload;
          e.args.mtu = mtuNow;
          host_.emit(std::move(e));
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
      TraceEvent e = event(TraceKind::WqeStarted, Narrative::WqeStarted);
      e.psn = req_.psn;
      e.wrId = w.wr.wrId;
      e.args.wrOpcode = w.wr.opcode;
      e.args.bytes = w.dma.length;
      host_.emit(std::move(e));
    }

    PacketDesc k;
    k.opcode = static_cast<std::uint8_t>(opcode);
    k.psn = req_.psn;
    k.pad = static_cast<std::uint8_t>((-payload) & 3);
    k.solicited = (w.wr.sendFlags & send_flags::kSolicited) && (info.mask & kEnd) &&
                  ((info.mask & kSend) || (info.mask & (kWrite | kImmdt)) == (kWrite | kImmdt));
    k.destQp = type_ == QpType::UD ? w.wr.remoteQpn : attr_.destQpNum;
    // Only RC asks for acknowledgements: rxe leaves AckReq clear on UC and UD packets (the
    // lab's ibv_uc_pingpong and ibv_ud_pingpong captures).
    const bool ackReq =
        type_ == QpType::RC && ((info.mask & kEnd) || (req_.noackPkts++ > kMaxPktPerAck));
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
        DmaFault error;
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
            TraceEvent e = event(TraceKind::Note, Narrative::LocalProtectionError);
            e.wrId = w.wr.wrId;
            e.setCause(error.cause());
            host_.emit(std::move(e));
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

    std::optional<TraceCause> why;
    if (tracing()) {
      why.emplace();
      why->reason = Reason::Request;
      why->wrId = w.wr.wrId;
      why->args.opcode = k.opcode;
      why->args.bytes = payload;
      why->args.ackReq = !ackReq              ? AckRequest::None
                         : (info.mask & kEnd) ? AckRequest::LastPacket
                                              : AckRequest::Periodic;
      if (info.mask & kRead) {
        why->args.firstPsn = w.firstPsn;
        why->args.lastPsn = w.lastPsn;
        why->args.packets = numPkt;
      }
      TraceEvent e = event(TraceKind::WqePacket, Narrative::RequestPacket);
      e.psn = k.psn;
      e.wrId = w.wr.wrId;
      e.args = why->args;
      host_.emit(std::move(e));
    }
    k.pkey = 0xffff;
    WireAddress addr = addr_;
    if (type_ == QpType::UD) addr = net_.addressFor(host_.index(), w.wr.ah, qpn_);
    addr.ipId = static_cast<std::uint16_t>(ipId_++);
    buildFrame(net_.config().wire, addr, k, f);
    const SimTime done = net_.transmit(host_.index(), f, why ? &*why : nullptr);
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
}  // namespace rdmascope::sim
