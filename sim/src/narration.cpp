#include "rdmascope/sim/narration.h"

#include <fmt/format.h>

#include "opcodes.h"
#include "qp_common.h"
#include "rdmascope/packets/iwarp_headers.h"

namespace rdmascope::sim {
namespace {

// Missing arguments read as zero: an event built without one still has a sentence.
template <class T>
T arg(const std::optional<T>& v) {
  return v.value_or(T{});
}

std::string_view opName(const std::optional<std::uint8_t>& opcode) {
  return opcodeInfo(arg(opcode)).name;
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

std::string_view accessName(std::uint32_t access) {
  if (access == access::kRemoteRead) return "IBV_ACCESS_REMOTE_READ";
  if (access == access::kRemoteWrite) return "IBV_ACCESS_REMOTE_WRITE";
  return "IBV_ACCESS_REMOTE_ATOMIC";
}

std::string_view retryCauseText(RetryCause c) {
  return c == RetryCause::Timeout ? "timeout" : "NAK PSN sequence error";
}

std::string outcome(const std::optional<WcStatus>& status) {
  return arg(status) == WcStatus::Success ? "completes" : "fails";
}

std::string requestText(const TraceEvent& e) {
  const TraceArgs& a = e.args;
  std::string ackReq;
  if (arg(a.ackReq) == AckRequest::LastPacket) ackReq = ", AckReq (last packet of the message)";
  if (arg(a.ackReq) == AckRequest::Periodic) ackReq = ", AckReq (every 65th packet)";
  std::string text = fmt::format("wr_id {}: {} PSN {:#x}, {} payload bytes{}", e.wrId,
                                 opName(a.opcode), e.psn, arg(a.bytes), ackReq);
  if (a.firstPsn && a.lastPsn) {
    text += fmt::format("; reserves PSNs {:#x}..{:#x} for its {} response packet(s)", *a.firstPsn,
                        *a.lastPsn, arg(a.packets));
  }
  return text;
}

}  // namespace

std::string describeReason(Reason reason, const TraceEvent& e) {
  const TraceArgs& a = e.args;
  switch (reason) {
    case Reason::None:
      return {};
    case Reason::Text:
      return a.text;
    case Reason::ModifyToReset:
      return "modify_qp to RESET: queues emptied without completions";
    case Reason::ModifyResetToInit:
      return "modify_qp: port, P_Key index and access flags set; receive WRs may be posted now";
    case Reason::ModifyInitToInit:
      return "modify_qp INIT->INIT";
    case Reason::ModifyToRtr:
      return fmt::format("modify_qp: the responder is ready (expects PSN {:#x} from QP {:#x})",
                         arg(a.expectedPsn), arg(a.destQpn));
    case Reason::ModifyToRts:
      return fmt::format("modify_qp: the requester is ready (first PSN {:#x})", arg(a.firstPsn));
    case Reason::ModifyRtsToRts:
      return "modify_qp RTS->RTS";
    case Reason::ModifyToSqd:
      return "modify_qp: send queue drains; new send WQEs wait until RTS";
    case Reason::ModifyToSqe:
      return "modify_qp to SQE";
    case Reason::ModifyToErr:
      return "modify_qp to ERR";
    case Reason::CompletionError:
      return fmt::format("completion error {} moves the QP to ERR", toString(arg(a.status)));
    case Reason::RecvCqOverflow:
      return fmt::format("receive CQ {} overflowed (depth {}): class G error", arg(a.cq),
                         arg(a.depth));
    case Reason::ResponderError:
      return fmt::format("responder error ({}) moves the QP to ERR", describeReason(e.detail, e));
    case Reason::ResponderFailed:
      return "responder error";
    case Reason::Flushed:
      return e.what == Narrative::RecvCompleted ? "QP is in ERR: the receive WQE is flushed"
                                                : "QP is in ERR: the send WQE is flushed";
    case Reason::AckReceived:
      return fmt::format("{} for PSN {:#x} received", opName(a.ackOpcode), arg(a.ackPsn));
    case Reason::CoalescedAck:
      return fmt::format("{} for PSN {:#x} covers it (coalesced ACK)", opName(a.ackOpcode),
                         arg(a.ackPsn));
    case Reason::Done:
      return "done";
    case Reason::LastPacketSent:
      return "its last packet was sent";
    case Reason::ErrorStatus:
      return std::string(toString(arg(a.status)));
    case Reason::MessageEnds:
      return fmt::format("{} PSN {:#x} ends the message", opName(a.requestOpcode),
                         arg(a.requestPsn));
    case Reason::NoRoom:
      return fmt::format("{} bytes do not fit in the {} left", arg(a.requested), arg(a.available));
    case Reason::SgeListExhausted:
      return "scatter/gather list exhausted";
    case Reason::LkeyUnknown:
      return fmt::format("lkey {:#x} matches no memory region of the PD", arg(a.key));
    case Reason::LkeyNoLocalWrite:
      return fmt::format("MR with lkey {:#x} lacks IBV_ACCESS_LOCAL_WRITE", arg(a.key));
    case Reason::SgeOutsideMr:
      return fmt::format("SGE {:#x}+{} lies outside its MR [{:#x}, {:#x})", arg(a.sgeAddress),
                         arg(a.sgeLength), arg(a.mrAddress), arg(a.mrAddress) + arg(a.mrLength));
    case Reason::AccessFlagsForbid:
      return fmt::format("the QP's access flags do not allow {}", opName(a.requestOpcode));
    case Reason::LengthAtMtu:
      return fmt::format("{} carries {} bytes at MTU {}", opName(a.requestOpcode), arg(a.requested),
                         arg(a.mtu));
    case Reason::DmaLengthTooLarge:
      return "DMA length above 2 GiB";
    case Reason::MrLacksAccess:
      return fmt::format("the MR of rkey {:#x} lacks {}", arg(a.key), accessName(arg(a.access)));
    case Reason::RkeyUnknown:
      return fmt::format("rkey {:#x} matches no MR of the QP's PD", arg(a.key));
    case Reason::RangeOutsideMr:
      return fmt::format("[{:#x}, +{}) lies outside the MR [{:#x}, +{})", arg(a.sgeAddress),
                         arg(a.sgeLength), arg(a.mrAddress), arg(a.mrLength));
    case Reason::WriteLengthMismatch:
      return fmt::format("{} carries {} bytes but {} remain of the RDMA WRITE",
                         opName(a.requestOpcode), arg(a.requested), arg(a.available));
    case Reason::GrhDoesNotFit:
      return "the receive buffer cannot hold the 40-byte GRH";
    case Reason::PayloadDoesNotFit:
      return fmt::format("{} payload bytes do not fit the receive WQE ({} left)", arg(a.requested),
                         arg(a.available));
    case Reason::InvalidateRkeyUnknown:
      return fmt::format("rkey {:#x} to invalidate matches no MR", arg(a.key));
    case Reason::RkeyInvalidated:
      return fmt::format("rkey {:#x} is no longer valid", arg(a.key));
    case Reason::MisalignedAtomic:
      return fmt::format("atomic address {:#x} is not 8-byte aligned", arg(a.sgeAddress));
    case Reason::NoRdAtomicResources:
      return "max_dest_rd_atomic is 0";
    case Reason::OpcodeOutOfSequence:
      return a.previousOpcode
                 ? fmt::format("{} out of sequence (previous {})", opName(a.requestOpcode),
                               opName(a.previousOpcode))
                 : fmt::format("{} out of sequence (previous none)", opName(a.requestOpcode));
    case Reason::Ack:
      return fmt::format("responder sends {} PSN {:#x} MSN {}: {} ({})", opName(a.opcode), e.psn,
                         arg(a.msn), syndromeText(arg(a.syndrome)), describeReason(e.detail, e));
    case Reason::ReadResponse: {
      const std::string aeth =
          a.msn ? fmt::format(", AETH ACK MSN {}", *a.msn) : std::string(", no AETH");
      return fmt::format("responder sends {} PSN {:#x} with {} bytes{}{}", opName(a.opcode), e.psn,
                         arg(a.bytes), aeth,
                         arg(a.replay) ? " (replayed from the responder resource)" : "");
    }
    case Reason::AckReqSet:
      return "the request had AckReq set";
    case Reason::DuplicateAcked:
      return fmt::format("duplicate {} PSN {:#x} is acknowledged again, not re-executed (C9-105)",
                         opName(a.requestOpcode), arg(a.requestPsn));
    case Reason::PsnOutOfSequence:
      return fmt::format("got PSN {:#x}, expected {:#x}: a packet was lost", arg(a.requestPsn),
                         arg(a.expectedPsn));
    case Reason::NoRecvWqe:
      return "no receive WQE is posted";
    case Reason::OriginalValue:
      return fmt::format("original value {:#x}", arg(a.value));
    case Reason::Request:
      return requestText(e);
    case Reason::ExceedsLinkMtu:
      return fmt::format("{} bytes exceed the link MTU {}", arg(a.bytes), arg(a.mtu));
    case Reason::FrameOnDropList:
      return fmt::format("frame {} is on the drop list", e.frameNumber);
    case Reason::PsnTransmissionOnDropList:
      return fmt::format("transmission {} of PSN {:#x} is on the drop list", arg(a.transmission),
                         e.psn);
    case Reason::PsnOnDropList:
      return fmt::format("PSN {:#x} is on the drop list", e.psn);
    case Reason::RandomLoss:
      return fmt::format("random loss (rate {})", arg(a.lossRate));
    case Reason::Truncated:
      return "truncated";
    case Reason::NotRdma:
      return "not an RDMA frame";
    case Reason::MalformedHeader:
      return "malformed header";
    case Reason::IcrcMismatch:
      return "ICRC mismatch";
    case Reason::WrongDestinationAddress:
      return "destination address is not this host's";
    case Reason::WrongDestinationLid:
      return "destination LID is not this port's";
    case Reason::PkeyMismatch:
      return "P_Key does not match the default 0xffff";
    case Reason::GsiTakesUdSendOnly:
      return "QP 1 (the GSI) takes UD SEND ONLY packets";
    case Reason::GsiQkeyMismatch:
      return "Q_Key is not the GSI's 0x80010000";
    case Reason::NoSuchQp:
      return fmt::format("no QP {:#x} on this host", arg(a.destQpn));
    case Reason::OpcodeClassMismatch:
      return fmt::format("opcode class does not match the {} QP", toString(arg(a.qpType)));
    case Reason::QpNotReady:
      return fmt::format("QP {:#x} is in {}", arg(a.destQpn), toString(arg(a.qpState)));
    case Reason::SourceAddressMismatch:
      return "source address differs from the connected QP's destination";
    case Reason::QkeyMismatch:
      return fmt::format("Q_Key {:#x} differs from the QP's {:#x}", arg(a.key), arg(a.expectedKey));
    case Reason::SendBufferFull:
      return "socket send buffer is full: send() sleeps";
    case Reason::NothingToRead:
      return "nothing to read: recv() sleeps";
    case Reason::CopyIntoSocketBuffer:
      return "from the application buffer into the socket send buffer";
    case Reason::CopyIntoAppBuffer:
      return "from the socket receive buffer into the application buffer";
  }
  return {};
}

std::string describe(const TraceEvent& e) {
  const TraceArgs& a = e.args;
  const auto why = [&e] { return describeReason(e.reason, e); };
  switch (e.what) {
    case Narrative::Text:
      return a.text;
    case Narrative::QpCreated:
      return fmt::format("create_qp: {} QP {:#x} in RESET (SQ {} WRs, RQ {} WRs)",
                         toString(arg(a.qpType)), e.qpn, arg(a.sqDepth), arg(a.rqDepth));
    case Narrative::QpDestroyed:
      return fmt::format("destroy_qp: QP {:#x} destroyed", e.qpn);
    case Narrative::QpStateChanged:
      return fmt::format("QP {:#x} {} -> {}: {}", e.qpn, toString(arg(a.fromState)),
                         toString(arg(a.toState)), why());
    case Narrative::SendPosted:
      return fmt::format("post_send {} wr_id {} of {} bytes{}{}{}", toString(arg(a.wrOpcode)),
                         e.wrId, arg(a.bytes), arg(a.signaled) ? ", signaled" : ", unsignaled",
                         arg(a.inlined) ? ", inline (copied now)" : "",
                         arg(a.fenced) ? ", fenced" : "");
    case Narrative::RecvPosted:
      return fmt::format("post_recv wr_id {} with {} bytes of buffer", e.wrId, arg(a.bytes));
    case Narrative::RetransmitTimerArmed:
      return fmt::format("retransmit timer armed: {} us (4.096 us x 2^{})", arg(a.durationUs),
                         arg(a.timeoutExponent));
    case Narrative::RetransmitTimerFired:
      return fmt::format("retransmit timer fired: no ACK for PSN {:#x} within {} us", e.psn,
                         arg(a.durationUs));
    case Narrative::RetransmitTimerForced:
      return fmt::format(
          "retransmit timer runs out after request {} (a timer an earlier message armed, as in "
          "the replayed lab run)",
          arg(a.requests));
    case Narrative::RnrTimerArmed:
      return arg(a.retriesUnlimited)
                 ? fmt::format(
                       "RNR NAK for PSN {:#x}: wait {} us then resend (rnr_retry 7: "
                       "forever)",
                       e.psn, arg(a.durationUs))
                 : fmt::format(
                       "RNR NAK for PSN {:#x}: wait {} us then resend ({} RNR retries "
                       "left)",
                       e.psn, arg(a.durationUs), arg(a.retriesLeft));
    case Narrative::RnrTimerFired:
      return fmt::format("RNR timer fired: resend from PSN {:#x}", e.psn);
    case Narrative::FenceWait:
      return fmt::format("wr_id {} is fenced: waits until every earlier WQE completes", e.wrId);
    case Narrative::RdAtomicWait:
      return fmt::format("wr_id {} waits: all {} READ/atomic slots (max_rd_atomic) are in use",
                         e.wrId, arg(a.limit));
    case Narrative::UdTooLong:
      return fmt::format(
          "UD wr_id {}: {} bytes exceed the MTU {}; per C10-93.1.1 nothing is sent and the WR "
          "completes successfully",
          e.wrId, arg(a.bytes), arg(a.mtu));
    case Narrative::LocalProtectionError:
      return fmt::format("wr_id {}: local protection error: {}", e.wrId, why());
    case Narrative::WqeStarted:
      return fmt::format("requester starts wr_id {} ({}, {} bytes) at PSN {:#x}", e.wrId,
                         toString(arg(a.wrOpcode)), arg(a.bytes), e.psn);
    case Narrative::RequestPacket:
      return requestText(e);
    case Narrative::GoBackN:
      return fmt::format("go-back-N: the requester restarts at PSN {:#x}", e.psn);
    case Narrative::SendCompleted:
      return fmt::format("send wr_id {} {}: {}{}", e.wrId, outcome(a.status), why(),
                         arg(a.signaled) ? "" : " (unsignaled: no CQE)");
    case Narrative::SendCqFull:
      return fmt::format(
          "send CQ {} is full: the completion of wr_id {} is lost (rxe ignores this error on the "
          "send side)",
          arg(a.cq), e.wrId);
    case Narrative::ReadResponseUnstorable:
      return fmt::format("read response for wr_id {} cannot be stored: {}", e.wrId, why());
    case Narrative::RetryStarted:
      return arg(a.retriesUnlimited)
                 ? fmt::format("{}: retry from PSN {:#x} (retry_cnt 7: retries without limit)",
                               retryCauseText(arg(a.retryCause)), e.psn)
                 : fmt::format("{}: retry from PSN {:#x} ({} retries left)",
                               retryCauseText(arg(a.retryCause)), e.psn, arg(a.retriesLeft));
    case Narrative::RetryExhausted:
      return fmt::format("retry_cnt {} exhausted at PSN {:#x}: RETRY_EXC_ERR", arg(a.retryCount),
                         e.psn);
    case Narrative::RecvCompleted:
      return fmt::format("receive wr_id {} {}: {}", e.wrId, outcome(a.status), why());
    case Narrative::RecvWqeMalformed:
      return fmt::format("receive WQE is malformed: {}", why());
    case Narrative::OutOfSequenceDropped:
      return fmt::format(
          "responder drops {} PSN {:#x}: expected PSN {:#x} and a NAK is already outstanding",
          opName(a.opcode), e.psn, arg(a.expectedPsn));
    case Narrative::UcRestDropped:
      return fmt::format(
          "UC responder drops {} PSN {:#x} (expected {:#x}): the rest of this message is "
          "discarded until a FIRST/ONLY",
          opName(a.opcode), e.psn, arg(a.expectedPsn));
    case Narrative::UcMessageAbandoned:
      return "UC: the previous message lacks its LAST packet and is abandoned; the receive WQE "
             "is reused";
    case Narrative::UcNoRecvWqeDropped:
      return fmt::format("{} PSN {:#x} dropped: no receive WQE is posted", opName(a.opcode), e.psn);
    case Narrative::UcWriteDropped:
      return fmt::format("UC RDMA WRITE dropped: {}", why());
    case Narrative::UcClassDDropped:
      return fmt::format("{} dropped (class D): {}", opName(a.opcode), why());
    case Narrative::DuplicateReadUnmatched:
      return fmt::format("duplicate READ PSN {:#x} matches no responder resource: dropped", e.psn);
    case Narrative::DuplicateReadReplayed:
      return fmt::format(
          "duplicate READ PSN {:#x}: replayed from the responder resource, not re-executed", e.psn);
    case Narrative::DuplicateAtomicReplayed:
      return fmt::format(
          "duplicate atomic PSN {:#x}: the saved result {:#x} is sent again, the memory is not "
          "touched",
          e.psn, arg(a.value));
    case Narrative::LocalBufferAccess:
      return e.kind == TraceKind::MemoryWritten
                 ? fmt::format("NIC writes {} bytes into the local buffer", e.length)
                 : fmt::format("NIC reads {} bytes of the local buffer", e.length);
    case Narrative::ReadResponseData:
      return fmt::format("NIC reads {} bytes for the READ response", e.length);
    case Narrative::WriteData:
      return fmt::format("NIC writes {} bytes of {} PSN {:#x}", e.length, opName(a.opcode), e.psn);
    case Narrative::AtomicExecuted:
      return fmt::format("{}: read {:#x}, wrote {:#x} atomically", opName(a.opcode), arg(a.value),
                         arg(a.newValue));
    case Narrative::CqeProduced:
      return fmt::format("CQ {}: wr_id {} {} {} byte_len {}{}", arg(a.cq), e.wrId,
                         toString(arg(a.wcOpcode)), toString(arg(a.status)), arg(a.bytes),
                         a.immData ? fmt::format(" imm {:#x}", *a.immData) : std::string());
    case Narrative::CqOverflow:
      return fmt::format("CQ {} overflow: {} entries already queued (IB_EVENT_CQ_ERR)", arg(a.cq),
                         arg(a.depth));
    case Narrative::FrameSent: {
      const std::string queued =
          a.queuedSinceUs
              ? fmt::format(", queued at {:.6f} us behind earlier frames", *a.queuedSinceUs)
              : std::string();
      const std::string cause = e.reason == Reason::None ? std::string() : ": " + why();
      return fmt::format("frame {} ({} bytes) {} PSN {:#x} -> {}{}{}", e.frameNumber, e.length,
                         opName(a.opcode), e.psn, a.peer, queued, cause);
    }
    case Narrative::FrameLost:
      return fmt::format("frame {} lost on the link: {}", e.frameNumber, why());
    case Narrative::FrameCorrupted:
      return fmt::format("frame {}: byte {} corrupted on the link (bit mask {:#04x})",
                         e.frameNumber, arg(a.byteIndex), arg(a.bitMask));
    case Narrative::FrameDelayed:
      return fmt::format("frame {} delayed {} us on the link (reordering)", e.frameNumber,
                         arg(a.durationUs));
    case Narrative::FrameDuplicated:
      return fmt::format("frame {} duplicated on the link", e.frameNumber);
    case Narrative::FrameDiscarded:
      return fmt::format("frame {} discarded silently by the receiving NIC: {}", e.frameNumber,
                         why());
    case Narrative::FrameReceived:
      return fmt::format("frame {} received: {} PSN {:#x} to QP {:#x}{}, ICRC ok", e.frameNumber,
                         opName(a.opcode), e.psn, arg(a.destQpn),
                         arg(a.ackReq) != AckRequest::None ? ", AckReq" : "");
    case Narrative::FrameRejected:
      return fmt::format("frame {} ({} PSN {:#x}) dropped by the receiver: {}", e.frameNumber,
                         opName(a.opcode), e.psn, why());
    case Narrative::TcpAppSleeps:
      return why();
    case Narrative::TcpCopy:
      return fmt::format("CPU copies {} bytes {}", arg(a.bytes), why());
    case Narrative::TcpSendCall:
      return fmt::format("application calls send() for {} bytes (system call)", arg(a.bytes));
    case Narrative::TcpRecvCall:
      return "application calls recv() (system call)";
    case Narrative::TcpTransmitWork:
      return arg(a.bytes) == 0
                 ? std::string("CPU builds a TCP ACK and rings the NIC doorbell")
                 : fmt::format(
                       "CPU runs TCP/IP transmit for a {}-byte segment and rings the NIC doorbell",
                       arg(a.bytes));
    case Narrative::TcpSegmentSent: {
      if (!a.seq) return "TCP segment goes on the wire";
      const std::uint8_t flags = arg(a.tcpFlags);
      return fmt::format("TCP segment seq {} ack {}, {} bytes{}{} goes on the wire", *a.seq,
                         arg(a.ack), arg(a.bytes), (flags & 0x02) ? " SYN" : "",
                         (flags & 0x01) ? " FIN" : "");
    }
    case Narrative::TcpSegmentLost:
      return fmt::format("the link loses frame {}", e.frameNumber);
    case Narrative::TcpInterrupt:
      return fmt::format(
          "NIC raises an interrupt for {} frame(s) in the receive ring; the CPU runs the IRQ "
          "handler and softirq",
          arg(a.packets));
    case Narrative::TcpChecksumDropped:
      return "frame fails its IPv4/TCP checksum and is dropped";
    case Narrative::TcpWriterWoken:
      return "send buffer has room again: the writer is woken (context switch)";
    case Narrative::TcpReaderWoken:
      return "data is readable: the sleeping reader is woken (context switch)";
    case Narrative::TcpEstablished:
      return "TCP connection ESTABLISHED";
    case Narrative::TcpReset:
      return "TCP connection reset";
    case Narrative::TcpClosed:
      return "TCP connection closed";
    case Narrative::TcpSocketBuffers:
      return fmt::format(
          "socket buffers: {} bytes to send ({} in flight), {} bytes received and not yet read",
          arg(a.sendQueued), arg(a.inFlight), arg(a.recvQueued));
    case Narrative::RdmaCmBind:
      return fmt::format("rdma_bind_addr: the cm_id takes TCP port {}", arg(a.port));
    case Narrative::RdmaCmListen:
      return fmt::format("rdma_listen on TCP port {}: connection requests are awaited",
                         arg(a.port));
    case Narrative::RdmaCmResolve:
      return fmt::format(
          "rdma_resolve_addr and rdma_resolve_route: the peer's port {} is reachable through "
          "this RNIC",
          arg(a.port));
    case Narrative::RdmaCmConnect:
      return fmt::format("rdma_connect to port {}: the RNIC opens the TCP connection", arg(a.port));
    case Narrative::RdmaCmAccept:
      return "rdma_accept: the RNIC answers the MPA Request with its MPA Reply";
    case Narrative::RdmaCmEstablished:
      return "rdma_cm event ESTABLISHED: the QP may send";
    case Narrative::MpaRequestSent:
    case Narrative::MpaRequestReceived:
    case Narrative::MpaReplySent:
    case Narrative::MpaReplyReceived: {
      const bool request =
          e.what == Narrative::MpaRequestSent || e.what == Narrative::MpaRequestReceived;
      const bool sent = e.what == Narrative::MpaRequestSent || e.what == Narrative::MpaReplySent;
      return fmt::format("MPA {} {}: markers {}, CRC {}, {} bytes of private data",
                         request ? "Request" : "Reply", sent ? "sent" : "received",
                         arg(a.markers) ? "on" : "off", arg(a.crc) ? "on" : "off", arg(a.bytes));
    }
    case Narrative::StagRegistered:
      return fmt::format("memory of {} bytes registered: STag {:#x}", arg(a.bytes), arg(a.key));
    case Narrative::DdpSegmentSent:
    case Narrative::DdpSegmentPlaced: {
      const std::string op = packets::rdmapOpcodeName(arg(a.opcode));
      const std::string where =
          a.key
              ? fmt::format("tagged, STag {:#x} TO {}", *a.key, arg(a.value))
              : fmt::format("untagged, QN {} MSN {} MO {}", arg(a.queue), arg(a.msn), arg(a.value));
      return fmt::format(
          "DDP segment {} ({}, {} bytes{}) {}", op, where, arg(a.bytes),
          arg(a.lastSegment) ? ", last" : "",
          e.what == Narrative::DdpSegmentSent ? "framed by MPA for TCP" : "placed by the RNIC");
    }
    case Narrative::IwarpTerminateSent:
      return fmt::format("RDMAP Terminate (layer {}, type {}, code {:#x}): the stream is dead",
                         arg(a.value) >> 16, (arg(a.value) >> 8) & 0xff, arg(a.value) & 0xff);
  }
  return {};
}

}  // namespace rdmascope::sim
