// The responder (rxe_resp.c): checks each request (PSN, opcode sequence, resources, length,
// rkey), executes it, completes receive WQEs and acknowledges; replays duplicates.
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>

#include "dma_write.h"
#include "qp.h"
#include "qp_common.h"
#include "rdmascope/sim/network.h"

namespace rdmascope::sim {

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

void Qp::sendResponse(PacketDesc& k, const TraceCause* why) {
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
                 const RespResource* res, const TraceCause& why) {
  PacketDesc k;
  k.opcode = opcode;
  k.syndrome = syndrome;
  k.psn = psn;
  if (res) k.origData = res->origVal;
  if (!tracing()) {
    sendResponse(k, nullptr);
    return;
  }
  TraceCause ack;
  ack.reason = Reason::Ack;
  ack.detail = why.reason;
  ack.args = why.args;
  ack.args.opcode = opcode;
  ack.args.syndrome = syndrome;
  ack.args.msn = resp_.msn;
  sendResponse(k, &ack);
}

bool Qp::scatter(RecvWqe& w, const std::uint8_t* data, std::uint32_t len, bool* noSpace) {
  *noSpace = len > w.dma.resid;
  if (*noSpace) return false;
  DmaFault error;
  if (!copyData(w.dma, const_cast<std::uint8_t*>(data), len, true, &error, nullptr)) {
    if (tracing()) {
      TraceEvent e = event(TraceKind::Note, Narrative::RecvWqeMalformed);
      e.setCause(error.cause());
      host_.emit(std::move(e));
    }
    return false;
  }
  return true;
}

bool Qp::takeRecvWqe() {
  if (!srq_) {
    resp_.haveWqe = !rq_.empty();
    return resp_.haveWqe;
  }
  if (resp_.haveWqe) return true;  // a message abandoned mid-way left its WQE here
  if (srq_->wqes.empty()) return false;
  srqWqe_ = std::move(srq_->wqes.front());
  srq_->wqes.pop_front();
  resp_.haveWqe = true;
  // rxe's get_srq_wqe: the limit event fires once, when the WQEs left drop below the armed
  // limit, and disarms it.
  if (srq_->limit != 0 && srq_->wqes.size() < srq_->limit) {
    srq_->limit = 0;
    AsyncEvent ev;
    ev.type = AsyncEventType::SrqLimitReached;
    ev.srq = srq_->id;
    host_.raiseAsyncEvent(ev);
  }
  return true;
}

void Qp::restartRecv() {
  if (resp_.haveWqe) curRecv().dma.reset();
  if (!srq_) resp_.haveWqe = false;
}

void Qp::completeRecv(const ParsedPacket* in, WcStatus status, const TraceCause& why) {
  if (srq_ ? !resp_.haveWqe : rq_.empty()) return;
  RecvWqe& w = curRecv();
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
    TraceEvent e = event(TraceKind::WqeCompleted, Narrative::RecvCompleted);
    e.setCause(why);
    e.psn = in ? in->pkt.psn : 0;
    e.wrId = w.wr.wrId;
    e.args.status = status;
    host_.emit(std::move(e));
  }
  if (!srq_) rq_.pop_front();
  resp_.haveWqe = false;
  if (!host_.postCqe(init_.recvCq, wc)) {
    if (state_ != QpState::Err) {
      TraceCause overflow{Reason::RecvCqOverflow};
      overflow.args.cq = init_.recvCq;
      overflow.args.depth = static_cast<std::uint32_t>(host_.cq(init_.recvCq)->depth);
      toError(overflow);
    }
  }
}

bool Qp::readReply(RespResource& res, DmaFault* error) {
  for (;;) {
    const MemoryRegionInfo* mr = host_.findMr(pd_, res.rkey, true);
    if (res.length > 0 && !mr) {
      if (error) {
        error->reason = Reason::RkeyInvalidated;
        error->key = res.rkey;
      }
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
        host_.emit(memoryEvent(false, res.va, payload, Narrative::ReadResponseData));
      }
    }
    if (tracing()) {
      TraceCause why{Reason::ReadResponse};
      why.args.opcode = opcode;
      why.args.bytes = payload;
      if (opcodeInfo(opcode).mask & kAeth) why.args.msn = resp_.msn;
      why.args.replay = res.replay;
      sendResponse(k, &why);
    } else {
      sendResponse(k, nullptr);
    }
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
          post(txDone_[txDone_.size() - kInflightLow] - now, kResumeRead);
        }
        if (error) error->reason = Reason::None;
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
    TraceCause why;  // reason for errors, for the trace
    const auto because = [&why](Reason reason) -> TraceArgs& {
      why = TraceCause{reason};
      return why.args;
    };
    R st = resp_.resIndex >= 0 ? R::ReadReply : R::ChkPsn;
    while (st != R::Done && st != R::Paused) {
      switch (st) {
        case R::ChkPsn: {
          const int diff = psnCompare(pkt->psn, resp_.psn);
          if (type_ == QpType::RC) {
            if (diff > 0) {
              if (resp_.sentPsnNak) {
                st = R::Cleanup;
                if (tracing()) {
                  TraceEvent e = event(TraceKind::FrameDropped, Narrative::OutOfSequenceDropped);
                  e.psn = pkt->psn;
                  e.args.opcode = pkt->opcode;
                  e.args.expectedPsn = resp_.psn;
                  host_.emit(std::move(e));
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
                  TraceEvent e = event(TraceKind::FrameDropped, Narrative::UcRestDropped);
                  e.psn = pkt->psn;
                  e.args.opcode = pkt->opcode;
                  e.args.expectedPsn = resp_.psn;
                  host_.emit(std::move(e));
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
              because(Reason::AccessFlagsForbid).requestOpcode = pkt->opcode;
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
          if ((m & kRwr) && !takeRecvWqe()) {
            st = R::ErrRnr;
            break;
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
            TraceArgs& a = because(Reason::LengthAtMtu);
            a.requestOpcode = pkt->opcode;
            a.requested = payload;
            a.mtu = mtuNow;
            break;
          }
          if ((m & (kWrite | kRead)) && (m & kReth) && pkt->dmaLen > (1u << 31)) {
            because(Reason::DmaLengthTooLarge);
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
            TraceArgs& a = because(mr ? Reason::MrLacksAccess : Reason::RkeyUnknown);
            a.key = resp_.rkey;
            if (mr) a.access = need;
            st = R::ErrRkeyViolation;
            break;
          }
          if (resp_.va < mr->addr || resp_.va + resp_.resid > mr->addr + mr->length) {
            TraceArgs& a = because(Reason::RangeOutsideMr);
            a.sgeAddress = resp_.va;
            a.sgeLength = resp_.resid;
            a.mrAddress = mr->addr;
            a.mrLength = mr->length;
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
              TraceArgs& a = because(Reason::WriteLengthMismatch);
              a.requestOpcode = pkt->opcode;
              a.requested = len;
              a.available = resp_.resid;
              break;
            }
          }
          resp_.mr = mr;
          resp_.streamDma = mr->length > kDmaCachedRegion;
          st = R::Execute;
          break;
        }
        case R::Execute: {
          if (m & kSend) {
            RecvWqe& w = curRecv();
            if (type_ == QpType::UD) {
              if (!scatter(w, in->grh.data(), 40, &noSpace)) {
                because(Reason::GrhDoesNotFit);
                st = noSpace ? R::ErrLength : R::ErrMalformedWqe;
                break;
              }
            }
            if (!scatter(w, pkt->payload, pkt->payloadLen, &noSpace)) {
              TraceArgs& a = because(Reason::PayloadDoesNotFit);
              a.requested = pkt->payloadLen;
              a.available = w.dma.resid;
              st = noSpace ? R::ErrLength : R::ErrMalformedWqe;
              break;
            }
          } else if (m & kWrite) {
            if (pkt->payloadLen) {
              auto mem = host_.memory(resp_.va, pkt->payloadLen);
              dmaWrite(mem.data(), pkt->payload, pkt->payloadLen, resp_.streamDma);
              if (tracing()) {
                TraceEvent e = memoryEvent(true, resp_.va, pkt->payloadLen, Narrative::WriteData);
                e.psn = pkt->psn;
                e.args.opcode = pkt->opcode;
                host_.emit(std::move(e));
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
              because(Reason::InvalidateRkeyUnknown).key = pkt->ieth;
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
          DmaFault error;
          if (!readReply(res, &error)) {
            if (error.reason == Reason::None) {
              st = R::Paused;
              break;
            }
            why = error.cause();
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
              because(Reason::MisalignedAtomic).sgeAddress = resp_.va;
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
              TraceEvent e = memoryEvent(true, resp_.va, 8, Narrative::AtomicExecuted);
              e.args.opcode = pkt->opcode;
              e.args.value = res.origVal;
              e.args.newValue = value;
              host_.emit(std::move(e));
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
          if (resp_.haveWqe) {
            if (status == WcStatus::Success) {
              TraceCause ends{Reason::MessageEnds};
              ends.args.requestOpcode = pkt->opcode;
              ends.args.requestPsn = pkt->psn;
              completeRecv(in, status, ends);
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
            TraceCause original{Reason::OriginalValue};
            original.args.value = resp_.resources[resp_.resIndex].origVal;
            sendAck(op::kRcAtomicAck, kAethAckUnlimited, pkt->psn, &resp_.resources[resp_.resIndex],
                    original);
          } else if (pkt->ackReq) {
            sendAck(op::kRcAck, kAethAckUnlimited, pkt->psn, nullptr, {Reason::AckReqSet});
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
            TraceCause duplicate{Reason::DuplicateAcked};
            duplicate.args.requestOpcode = pkt->opcode;
            duplicate.args.requestPsn = pkt->psn;
            sendAck(op::kRcAck, kAethAckUnlimited, prev, nullptr, duplicate);
            st = R::Cleanup;
          } else if (m & kRead) {
            RespResource* res = findResource(pkt->psn);
            if (!res || pkt->va < res->vaOrg || pkt->dmaLen > res->length ||
                pkt->va + pkt->dmaLen > res->vaOrg + res->length || pkt->rkey != res->rkey) {
              if (tracing()) {
                TraceEvent e = event(TraceKind::FrameDropped, Narrative::DuplicateReadUnmatched);
                e.psn = pkt->psn;
                host_.emit(std::move(e));
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
              TraceEvent e = event(TraceKind::Note, Narrative::DuplicateReadReplayed);
              e.psn = pkt->psn;
              host_.emit(std::move(e));
            }
            st = R::ReadReply;
          } else {
            RespResource* res = findResource(pkt->psn);
            if (res) {
              res->replay = true;
              res->curPsn = pkt->psn;
              resp_.resIndex = static_cast<int>(res - resp_.resources.data());
              if (tracing()) {
                TraceEvent e = event(TraceKind::Note, Narrative::DuplicateAtomicReplayed);
                e.psn = pkt->psn;
                e.args.value = res->origVal;
                host_.emit(std::move(e));
              }
              st = R::AtomicReply;
            } else {
              st = R::Cleanup;
            }
          }
          break;
        }
        case R::ErrPsnOutOfSeq: {
          TraceCause lost{Reason::PsnOutOfSequence};
          lost.args.requestPsn = pkt->psn;
          lost.args.expectedPsn = resp_.psn;
          sendAck(op::kRcAck, kNakPsnSeqError, resp_.psn, nullptr, lost);
          st = R::Cleanup;
          break;
        }
        case R::ErrTooManyRdmaAtmReq:
        case R::ErrMissingOpcodeFirst:
        case R::ErrMissingOpcodeLastC:
        case R::ErrUnsupportedOpcode:
        case R::ErrMisalignedAtomic:
          if (why.reason == Reason::None) {
            if (st == R::ErrTooManyRdmaAtmReq) {
              because(Reason::NoRdAtomicResources);
            } else {
              TraceArgs& a = because(Reason::OpcodeOutOfSequence);
              a.requestOpcode = pkt->opcode;
              if (resp_.opcode >= 0) a.previousOpcode = static_cast<std::uint8_t>(resp_.opcode);
            }
          }
          aethSyndrome = kNakInvalidRequest;
          status = WcStatus::RemInvReqErr;
          gotoError = true;
          st = R::Complete;
          break;
        case R::ErrMissingOpcodeLastD1E:
          // class D1: the unfinished message is abandoned; this FIRST/ONLY may start a new one
          restartRecv();
          resp_.opcode = -1;
          resp_.mr = nullptr;
          if (tracing()) {
            host_.emit(event(TraceKind::Note, Narrative::UcMessageAbandoned));
          }
          st = R::ChkOpValid;
          break;
        case R::ErrRnr:
          if (type_ == QpType::RC) {
            sendAck(op::kRcAck, static_cast<std::uint8_t>(kAethRnrNak | (attr_.minRnrTimer & 0x1f)),
                    pkt->psn, nullptr, {Reason::NoRecvWqe});
          } else {
            resp_.dropMsg = true;
            if (tracing()) {
              TraceEvent e = event(TraceKind::FrameDropped, Narrative::UcNoRecvWqeDropped);
              e.psn = pkt->psn;
              e.args.opcode = pkt->opcode;
              host_.emit(std::move(e));
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
              TraceEvent e = event(TraceKind::FrameDropped, Narrative::UcWriteDropped);
              e.setCause(why);
              e.psn = pkt->psn;
              host_.emit(std::move(e));
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
          } else if (srq_) {
            // UC/UD with an SRQ, class E: the WQE taken from the SRQ completes in error
            resp_.dropMsg = type_ == QpType::UC;
            status = WcStatus::RemInvReqErr;
            st = R::Complete;
          } else {
            resp_.dropMsg = true;
            if (tracing()) {
              TraceEvent e = event(TraceKind::FrameDropped, Narrative::UcClassDDropped);
              e.setCause(why);
              e.psn = pkt->psn;
              e.args.opcode = pkt->opcode;
              host_.emit(std::move(e));
            }
            restartRecv();
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
          toError({Reason::ResponderFailed});
          st = R::Done;
          break;
        default:
          st = R::Done;
          break;
      }
    }
    if (st == R::Paused) return;
    if (gotoError && state_ != QpState::Err) {
      TraceCause error{Reason::ResponderError, why.reason};
      error.args = why.args;
      toError(error);
    }
    if (fromQueue && !reqPkts_.empty()) reqPkts_.pop_front();
    in = nullptr;
    if (first && !fromQueue && resp_.resIndex < 0 && reqPkts_.empty()) return;
  }
}
}  // namespace rdmascope::sim
