// The completer (rxe_comp.c): matches ACKs, NAKs and READ/atomic responses to send WQEs,
// completes them, and decides on retries (retry_cnt, rnr_retry) and errors.
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>

#include "qp.h"
#include "qp_common.h"
#include "rdmascope/sim/network.h"

namespace rdmascope::sim {

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

void Qp::doCompleteSend(SendWqe& w, Reason why, const PacketDesc* ack) {
  const bool signaled =
      init_.sqSigAll || (w.wr.sendFlags & send_flags::kSignaled) || w.status != WcStatus::Success;
  if (tracing()) {
    TraceEvent e = event(TraceKind::WqeCompleted, Narrative::SendCompleted);
    e.reason = why;
    e.psn = w.lastPsn;
    e.wrId = w.wr.wrId;
    e.args.status = w.status;
    e.args.signaled = signaled;
    if (ack) {
      e.args.ackOpcode = ack->opcode;
      e.args.ackPsn = ack->psn;
    }
    host_.emit(std::move(e));
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
      TraceEvent e = event(TraceKind::Note, Narrative::SendCqFull);
      e.wrId = w.wr.wrId;
      e.args.cq = init_.sendCq;
      host_.emit(std::move(e));
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
          DmaFault error;
          if (!copyData(w->dma, const_cast<std::uint8_t*>(pkt->payload), pkt->payloadLen, true,
                        &error, nullptr)) {
            w->status = WcStatus::LocProtErr;
            if (tracing()) {
              TraceEvent e = event(TraceKind::Note, Narrative::ReadResponseUnstorable);
              e.wrId = w->wr.wrId;
              e.setCause(error.cause());
              host_.emit(std::move(e));
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
          if (!copyData(w->dma, orig, 8, true, nullptr, nullptr)) {
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
          doCompleteSend(*w, Reason::AckReceived, pkt);
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
          doCompleteSend(*w,
                         pkt                   ? Reason::CoalescedAck
                         : type_ == QpType::RC ? Reason::Done
                                               : Reason::LastPacketSent,
                         pkt);
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
                TraceEvent e = event(TraceKind::Note, Narrative::RetryStarted);
                e.psn = comp_.psn;
                e.args.retryCause =
                    comp_.timeoutRetry ? RetryCause::Timeout : RetryCause::NakPsnSequenceError;
                if (comp_.retryCnt == 7) {
                  e.args.retriesUnlimited = true;
                } else {
                  e.args.retriesLeft = comp_.retryCnt;
                }
                host_.emit(std::move(e));
              }
              req_.needRetry = true;
              comp_.startedRetry = true;
              scheduleRequester();
            }
            st = Comp::Done;
          } else {
            w->status = WcStatus::RetryExcErr;
            if (tracing()) {
              TraceEvent e = event(TraceKind::Note, Narrative::RetryExhausted);
              e.psn = comp_.psn;
              e.args.retryCount = attr_.retryCnt;
              host_.emit(std::move(e));
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
            post(d, kRnrTimer);
            if (tracing()) {
              TraceEvent e = event(TraceKind::TimerArmed, Narrative::RnrTimerArmed);
              e.psn = pkt->psn;
              e.args.durationUs = kRnrUsec[pkt->syndrome & 0x1f];
              if (attr_.rnrRetry == 7) {
                e.args.retriesUnlimited = true;
              } else {
                e.args.retriesLeft = comp_.rnrRetry;
              }
              host_.emit(std::move(e));
            }
            return;
          } else {
            w->status = WcStatus::RnrRetryExcErr;
            st = Comp::Error;
          }
          break;
        case Comp::Error: {
          const WcStatus s = w->status;
          doCompleteSend(*w, Reason::ErrorStatus);
          TraceCause why{Reason::CompletionError};
          why.args.status = s;
          toError(why);
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
}  // namespace rdmascope::sim
