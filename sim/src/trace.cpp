#include "rdmascope/sim/trace.h"

#include <fmt/format.h>

#include <algorithm>

#include "rdmascope/sim/narration.h"
#include "rdmascope/sim/trace_json.h"

namespace rdmascope::sim {

std::string_view toString(TraceKind kind) {
  switch (kind) {
    case TraceKind::QpState:
      return "qp-state";
    case TraceKind::WqePosted:
      return "wqe-posted";
    case TraceKind::WqeStarted:
      return "wqe-started";
    case TraceKind::WqePacket:
      return "wqe-packet";
    case TraceKind::WqeCompleted:
      return "wqe-completed";
    case TraceKind::FrameSent:
      return "frame-sent";
    case TraceKind::FrameReceived:
      return "frame-received";
    case TraceKind::FrameDropped:
      return "frame-dropped";
    case TraceKind::CqeProduced:
      return "cqe";
    case TraceKind::MemoryRead:
      return "mem-read";
    case TraceKind::MemoryWritten:
      return "mem-write";
    case TraceKind::TimerArmed:
      return "timer-armed";
    case TraceKind::TimerFired:
      return "timer-fired";
    case TraceKind::Note:
      return "note";
  }
  return "?";
}

std::string_view toString(Narrative v) {
  switch (v) {
    case Narrative::Text:
      return "text";
    case Narrative::QpCreated:
      return "qp-created";
    case Narrative::QpDestroyed:
      return "qp-destroyed";
    case Narrative::QpStateChanged:
      return "qp-state-changed";
    case Narrative::SendPosted:
      return "send-posted";
    case Narrative::RecvPosted:
      return "recv-posted";
    case Narrative::RetransmitTimerArmed:
      return "retransmit-timer-armed";
    case Narrative::RetransmitTimerFired:
      return "retransmit-timer-fired";
    case Narrative::RetransmitTimerForced:
      return "retransmit-timer-forced";
    case Narrative::RnrTimerArmed:
      return "rnr-timer-armed";
    case Narrative::RnrTimerFired:
      return "rnr-timer-fired";
    case Narrative::FenceWait:
      return "fence-wait";
    case Narrative::RdAtomicWait:
      return "rd-atomic-wait";
    case Narrative::UdTooLong:
      return "ud-too-long";
    case Narrative::LocalProtectionError:
      return "local-protection-error";
    case Narrative::WqeStarted:
      return "wqe-started";
    case Narrative::RequestPacket:
      return "request-packet";
    case Narrative::GoBackN:
      return "go-back-n";
    case Narrative::SendCompleted:
      return "send-completed";
    case Narrative::SendCqFull:
      return "send-cq-full";
    case Narrative::ReadResponseUnstorable:
      return "read-response-unstorable";
    case Narrative::RetryStarted:
      return "retry-started";
    case Narrative::RetryExhausted:
      return "retry-exhausted";
    case Narrative::RecvCompleted:
      return "recv-completed";
    case Narrative::RecvWqeMalformed:
      return "recv-wqe-malformed";
    case Narrative::OutOfSequenceDropped:
      return "out-of-sequence-dropped";
    case Narrative::UcRestDropped:
      return "uc-rest-dropped";
    case Narrative::UcMessageAbandoned:
      return "uc-message-abandoned";
    case Narrative::UcNoRecvWqeDropped:
      return "uc-no-recv-wqe-dropped";
    case Narrative::UcWriteDropped:
      return "uc-write-dropped";
    case Narrative::UcClassDDropped:
      return "uc-class-d-dropped";
    case Narrative::DuplicateReadUnmatched:
      return "duplicate-read-unmatched";
    case Narrative::DuplicateReadReplayed:
      return "duplicate-read-replayed";
    case Narrative::DuplicateAtomicReplayed:
      return "duplicate-atomic-replayed";
    case Narrative::LocalBufferAccess:
      return "local-buffer-access";
    case Narrative::ReadResponseData:
      return "read-response-data";
    case Narrative::WriteData:
      return "write-data";
    case Narrative::AtomicExecuted:
      return "atomic-executed";
    case Narrative::CqeProduced:
      return "cqe-produced";
    case Narrative::CqOverflow:
      return "cq-overflow";
    case Narrative::FrameSent:
      return "frame-sent";
    case Narrative::FrameLost:
      return "frame-lost";
    case Narrative::FrameCorrupted:
      return "frame-corrupted";
    case Narrative::FrameDelayed:
      return "frame-delayed";
    case Narrative::FrameDuplicated:
      return "frame-duplicated";
    case Narrative::FrameDiscarded:
      return "frame-discarded";
    case Narrative::FrameReceived:
      return "frame-received";
    case Narrative::FrameRejected:
      return "frame-rejected";
    case Narrative::TcpAppSleeps:
      return "tcp-app-sleeps";
    case Narrative::TcpCopy:
      return "tcp-copy";
    case Narrative::TcpSendCall:
      return "tcp-send-call";
    case Narrative::TcpRecvCall:
      return "tcp-recv-call";
    case Narrative::TcpTransmitWork:
      return "tcp-transmit-work";
    case Narrative::TcpSegmentSent:
      return "tcp-segment-sent";
    case Narrative::TcpSegmentLost:
      return "tcp-segment-lost";
    case Narrative::TcpInterrupt:
      return "tcp-interrupt";
    case Narrative::TcpChecksumDropped:
      return "tcp-checksum-dropped";
    case Narrative::TcpWriterWoken:
      return "tcp-writer-woken";
    case Narrative::TcpReaderWoken:
      return "tcp-reader-woken";
    case Narrative::TcpEstablished:
      return "tcp-established";
    case Narrative::TcpReset:
      return "tcp-reset";
    case Narrative::TcpClosed:
      return "tcp-closed";
    case Narrative::TcpSocketBuffers:
      return "tcp-socket-buffers";
    case Narrative::RdmaCmBind:
      return "rdma-cm-bind";
    case Narrative::RdmaCmListen:
      return "rdma-cm-listen";
    case Narrative::RdmaCmResolve:
      return "rdma-cm-resolve";
    case Narrative::RdmaCmConnect:
      return "rdma-cm-connect";
    case Narrative::RdmaCmAccept:
      return "rdma-cm-accept";
    case Narrative::RdmaCmEstablished:
      return "rdma-cm-established";
    case Narrative::MpaRequestSent:
      return "mpa-request-sent";
    case Narrative::MpaRequestReceived:
      return "mpa-request-received";
    case Narrative::MpaReplySent:
      return "mpa-reply-sent";
    case Narrative::MpaReplyReceived:
      return "mpa-reply-received";
    case Narrative::StagRegistered:
      return "stag-registered";
    case Narrative::DdpSegmentSent:
      return "ddp-segment-sent";
    case Narrative::DdpSegmentPlaced:
      return "ddp-segment-placed";
    case Narrative::IwarpTerminateSent:
      return "iwarp-terminate-sent";
  }
  return "?";
}

std::string_view toString(Reason v) {
  switch (v) {
    case Reason::None:
      return "none";
    case Reason::Text:
      return "text";
    case Reason::ModifyToReset:
      return "modify-to-reset";
    case Reason::ModifyResetToInit:
      return "modify-reset-to-init";
    case Reason::ModifyInitToInit:
      return "modify-init-to-init";
    case Reason::ModifyToRtr:
      return "modify-to-rtr";
    case Reason::ModifyToRts:
      return "modify-to-rts";
    case Reason::ModifyRtsToRts:
      return "modify-rts-to-rts";
    case Reason::ModifyToSqd:
      return "modify-to-sqd";
    case Reason::ModifyToSqe:
      return "modify-to-sqe";
    case Reason::ModifyToErr:
      return "modify-to-err";
    case Reason::CompletionError:
      return "completion-error";
    case Reason::RecvCqOverflow:
      return "recv-cq-overflow";
    case Reason::ResponderError:
      return "responder-error";
    case Reason::ResponderFailed:
      return "responder-failed";
    case Reason::Flushed:
      return "flushed";
    case Reason::AckReceived:
      return "ack-received";
    case Reason::CoalescedAck:
      return "coalesced-ack";
    case Reason::Done:
      return "done";
    case Reason::LastPacketSent:
      return "last-packet-sent";
    case Reason::ErrorStatus:
      return "error-status";
    case Reason::MessageEnds:
      return "message-ends";
    case Reason::NoRoom:
      return "no-room";
    case Reason::SgeListExhausted:
      return "sge-list-exhausted";
    case Reason::LkeyUnknown:
      return "lkey-unknown";
    case Reason::LkeyNoLocalWrite:
      return "lkey-no-local-write";
    case Reason::SgeOutsideMr:
      return "sge-outside-mr";
    case Reason::AccessFlagsForbid:
      return "access-flags-forbid";
    case Reason::LengthAtMtu:
      return "length-at-mtu";
    case Reason::DmaLengthTooLarge:
      return "dma-length-too-large";
    case Reason::MrLacksAccess:
      return "mr-lacks-access";
    case Reason::RkeyUnknown:
      return "rkey-unknown";
    case Reason::RangeOutsideMr:
      return "range-outside-mr";
    case Reason::WriteLengthMismatch:
      return "write-length-mismatch";
    case Reason::GrhDoesNotFit:
      return "grh-does-not-fit";
    case Reason::PayloadDoesNotFit:
      return "payload-does-not-fit";
    case Reason::InvalidateRkeyUnknown:
      return "invalidate-rkey-unknown";
    case Reason::RkeyInvalidated:
      return "rkey-invalidated";
    case Reason::MisalignedAtomic:
      return "misaligned-atomic";
    case Reason::NoRdAtomicResources:
      return "no-rd-atomic-resources";
    case Reason::OpcodeOutOfSequence:
      return "opcode-out-of-sequence";
    case Reason::Ack:
      return "ack";
    case Reason::ReadResponse:
      return "read-response";
    case Reason::AckReqSet:
      return "ack-req-set";
    case Reason::DuplicateAcked:
      return "duplicate-acked";
    case Reason::PsnOutOfSequence:
      return "psn-out-of-sequence";
    case Reason::NoRecvWqe:
      return "no-recv-wqe";
    case Reason::OriginalValue:
      return "original-value";
    case Reason::Request:
      return "request";
    case Reason::ExceedsLinkMtu:
      return "exceeds-link-mtu";
    case Reason::FrameOnDropList:
      return "frame-on-drop-list";
    case Reason::PsnTransmissionOnDropList:
      return "psn-transmission-on-drop-list";
    case Reason::PsnOnDropList:
      return "psn-on-drop-list";
    case Reason::RandomLoss:
      return "random-loss";
    case Reason::Truncated:
      return "truncated";
    case Reason::NotRdma:
      return "not-rdma";
    case Reason::MalformedHeader:
      return "malformed-header";
    case Reason::IcrcMismatch:
      return "icrc-mismatch";
    case Reason::WrongDestinationAddress:
      return "wrong-destination-address";
    case Reason::WrongDestinationLid:
      return "wrong-destination-lid";
    case Reason::PkeyMismatch:
      return "pkey-mismatch";
    case Reason::GsiTakesUdSendOnly:
      return "gsi-takes-ud-send-only";
    case Reason::GsiQkeyMismatch:
      return "gsi-qkey-mismatch";
    case Reason::NoSuchQp:
      return "no-such-qp";
    case Reason::OpcodeClassMismatch:
      return "opcode-class-mismatch";
    case Reason::QpNotReady:
      return "qp-not-ready";
    case Reason::SourceAddressMismatch:
      return "source-address-mismatch";
    case Reason::QkeyMismatch:
      return "qkey-mismatch";
    case Reason::SendBufferFull:
      return "send-buffer-full";
    case Reason::NothingToRead:
      return "nothing-to-read";
    case Reason::CopyIntoSocketBuffer:
      return "copy-into-socket-buffer";
    case Reason::CopyIntoAppBuffer:
      return "copy-into-app-buffer";
  }
  return "?";
}

std::string_view toString(RetryCause c) {
  return c == RetryCause::Timeout ? "timeout" : "nak-psn-sequence-error";
}

std::string_view toString(AckRequest a) {
  switch (a) {
    case AckRequest::None:
      return "none";
    case AckRequest::LastPacket:
      return "last-packet";
    case AckRequest::Periodic:
      return "periodic";
  }
  return "?";
}

void TraceArgs::merge(const TraceArgs& o) {
#define RDMASCOPE_TRACE_ARG_MERGE(type, name) \
  if (o.name) name = o.name;
  RDMASCOPE_TRACE_ARGS(RDMASCOPE_TRACE_ARG_MERGE)
#undef RDMASCOPE_TRACE_ARG_MERGE
  if (!o.peer.empty()) peer = o.peer;
  if (!o.text.empty()) text = o.text;
}

void TraceEvent::setCause(const TraceCause& cause) {
  reason = cause.reason;
  detail = cause.detail;
  if (cause.wrId) wrId = cause.wrId;
  args.merge(cause.args);
}

std::string formatTraceLine(const TraceEvent& e) {
  return fmt::format("{:>14.6f} us  {:<8} {:<14} {}", static_cast<double>(e.time.picos()) / 1e6,
                     e.host, toString(e.kind), describe(e));
}

namespace {

template <class T>
nlohmann::json jsonValue(const T& v) {
  if constexpr (std::is_enum_v<T>) {
    return std::string(toString(v));
  } else {
    return v;
  }
}

std::string snakeCase(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (c >= 'A' && c <= 'Z') {
      out += '_';
      out += static_cast<char>(c - 'A' + 'a');
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

nlohmann::json toJson(const TraceEvent& e) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(e.bytes.size() * 2);
  for (std::uint8_t b : e.bytes) {
    hex += kHex[b >> 4];
    hex += kHex[b & 15];
  }
  nlohmann::json args = nlohmann::json::object();
#define RDMASCOPE_TRACE_ARG_JSON(type, name) \
  if (e.args.name) args[snakeCase(#name)] = jsonValue(*e.args.name);
  RDMASCOPE_TRACE_ARGS(RDMASCOPE_TRACE_ARG_JSON)
#undef RDMASCOPE_TRACE_ARG_JSON
  if (!e.args.peer.empty()) args["peer"] = e.args.peer;
  if (!e.args.text.empty()) args["text"] = e.args.text;
  nlohmann::json j = {{"time_ps", e.time.picos()},
                      {"step", e.step},
                      {"host", e.host},
                      {"kind", std::string(toString(e.kind))},
                      {"what", std::string(toString(e.what))}};
  if (e.reason != Reason::None) j["reason"] = std::string(toString(e.reason));
  if (e.detail != Reason::None) j["detail"] = std::string(toString(e.detail));
  j["qpn"] = e.qpn;
  j["psn"] = e.psn;
  j["frame"] = e.frameNumber;
  j["wr_id"] = e.wrId;
  j["address"] = e.address;
  j["length"] = e.length;
  j["bytes"] = hex;
  j["args"] = std::move(args);
  j["explanation"] = describe(e);
  return j;
}

std::string formatTraceJson(const TraceEvent& e) {
  return toJson(e).dump();
}

int Trace::subscribe(Subscriber s) {
  const int id = nextId_++;
  subscribers_.emplace_back(id, std::move(s));
  return id;
}

void Trace::unsubscribe(int id) {
  std::erase_if(subscribers_, [id](const auto& p) { return p.first == id; });
}

void Trace::emit(TraceEvent event) {
  if (!enabled_) return;
  for (const auto& [id, fn] : subscribers_)
    fn(event);
  if (retain_) events_.push_back(std::move(event));
}

}  // namespace rdmascope::sim
