#include "rdmascope/ui/event_explanation.h"

#include <QRegularExpression>

#include "rdmascope/packets/ib_opcodes.h"
#include "rdmascope/packets/iwarp_headers.h"
#include "rdmascope/ui/fabric_models.h"
#include "rdmascope/ui/scenario_narration.h"

namespace rdmascope::ui {

namespace {

using K = sim::TraceKind;
using N = sim::Narrative;
using R = sim::Reason;

template <class T>
T arg(const std::optional<T>& v) {
  return v.value_or(T{});
}

QString hex(std::uint64_t v) {
  return QStringLiteral("0x%1").arg(v, 0, 16);
}

QString str(std::string_view s) {
  return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QString opName(const std::optional<std::uint8_t>& opcode) {
  if (!opcode) return EventExplainer::tr("a packet");
  if (const auto* info = packets::ibOpcodeInfo(*opcode)) return str(info->name);
  return EventExplainer::tr("opcode %1").arg(hex(*opcode));
}

bool isRead(const std::optional<std::uint8_t>& op) {
  return op && (*op & 0x1f) >= 0x0d && (*op & 0x1f) <= 0x10;  // READ response opcodes
}

QString syndromeText(std::uint8_t syn) {
  switch (syn & 0xe0) {
    case 0x00:
      return EventExplainer::tr("ACK");
    case 0x20:
      return EventExplainer::tr("RNR NAK (receiver not ready, timer code %1)").arg(syn & 0x1f);
    case 0x60:
      switch (syn) {
        case 0x60:
          return EventExplainer::tr("NAK: PSN sequence error");
        case 0x61:
          return EventExplainer::tr("NAK: invalid request");
        case 0x62:
          return EventExplainer::tr("NAK: remote access error");
        case 0x63:
          return EventExplainer::tr("NAK: remote operational error");
        default:
          return EventExplainer::tr("NAK code %1").arg(syn & 0x1f);
      }
    default:
      return EventExplainer::tr("reserved syndrome %1").arg(hex(syn));
  }
}

// The syndrome as a ladder names it: "ACK", "RNR NAK", "NAK".
QString syndromeShort(std::uint8_t syn) {
  switch (syn & 0xe0) {
    case 0x00:
      return EventExplainer::tr("ACK");
    case 0x20:
      return EventExplainer::tr("RNR NAK");
    default:
      return EventExplainer::tr("NAK");
  }
}

QString reasonText(R reason, const sim::TraceEvent& e);

QString reasonText(R reason, const sim::TraceEvent& e) {
  const sim::TraceArgs& a = e.args;
  switch (reason) {
    case R::None:
      return {};
    case R::Text:
      return narration(a.text);
    case R::ModifyToReset:
      return EventExplainer::tr(
          "the QP went back to RESET: its queues are emptied without completions");
    case R::ModifyResetToInit:
      return EventExplainer::tr(
          "INIT sets the port, the P_Key index and the remote access flags; from now on "
          "receive work requests may be posted, but nothing is sent or accepted yet");
    case R::ModifyInitToInit:
      return EventExplainer::tr("an INIT to INIT change of attributes");
    case R::ModifyToRtr:
      return EventExplainer::tr(
                 "RTR (ready to receive) gives the QP its peer: it now accepts packets from QP %1 "
                 "and expects PSN %2 first")
          .arg(hex(arg(a.destQpn)), hex(arg(a.expectedPsn)));
    case R::ModifyToRts:
      return EventExplainer::tr(
                 "RTS (ready to send) arms the requester: its first packet carries PSN %1, and the "
                 "timeout and retry counts are set")
          .arg(hex(arg(a.firstPsn)));
    case R::ModifyRtsToRts:
      return EventExplainer::tr("an RTS to RTS change of attributes");
    case R::ModifyToSqd:
      return EventExplainer::tr("the send queue drains; new send WQEs wait until RTS");
    case R::ModifyToSqe:
      return EventExplainer::tr("the application moved the QP to SQE");
    case R::ModifyToErr:
      return EventExplainer::tr("the application moved the QP to ERR");
    case R::CompletionError:
      return EventExplainer::tr("the completion error \"%1\" moves the QP to ERR")
          .arg(str(sim::toString(arg(a.status))));
    case R::RecvCqOverflow:
      return EventExplainer::tr("receive CQ %1 overflowed (depth %2)")
          .arg(arg(a.cq))
          .arg(arg(a.depth));
    case R::ResponderError:
      return EventExplainer::tr("a responder error (%1) moves the QP to ERR")
          .arg(reasonText(e.detail, e));
    case R::ResponderFailed:
      return EventExplainer::tr("the responder failed");
    case R::Flushed:
      return EventExplainer::tr(
          "the QP is in ERR, so every outstanding work request is flushed: it completes with "
          "WR_FLUSH_ERR without being executed");
    case R::AckReceived:
      return EventExplainer::tr("the %1 for PSN %2 arrived")
          .arg(opName(a.ackOpcode), hex(arg(a.ackPsn)));
    case R::CoalescedAck:
      return EventExplainer::tr("the %1 for the later PSN %2 covers it too (ACKs are cumulative)")
          .arg(opName(a.ackOpcode), hex(arg(a.ackPsn)));
    case R::Done:
      return EventExplainer::tr("it was already done");
    case R::LastPacketSent:
      return EventExplainer::tr("its last packet left (UC and UD wait for no acknowledgement)");
    case R::ErrorStatus:
      return str(sim::toString(arg(a.status)));
    case R::MessageEnds:
      return EventExplainer::tr("%1 PSN %2 ends the message")
          .arg(opName(a.requestOpcode), hex(arg(a.requestPsn)));
    case R::NoRoom:
      return EventExplainer::tr("%1 bytes do not fit in the %2 left")
          .arg(arg(a.requested))
          .arg(arg(a.available));
    case R::SgeListExhausted:
      return EventExplainer::tr("the scatter/gather list is exhausted");
    case R::LkeyUnknown:
      return EventExplainer::tr("lkey %1 names no memory region of the protection domain")
          .arg(hex(arg(a.key)));
    case R::LkeyNoLocalWrite:
      return EventExplainer::tr("the MR of lkey %1 lacks IBV_ACCESS_LOCAL_WRITE")
          .arg(hex(arg(a.key)));
    case R::SgeOutsideMr:
    case R::RangeOutsideMr:
      return EventExplainer::tr("the range %1 + %2 bytes lies outside the MR at %3 (%4 bytes)")
          .arg(hex(arg(a.sgeAddress)))
          .arg(arg(a.sgeLength))
          .arg(hex(arg(a.mrAddress)))
          .arg(arg(a.mrLength));
    case R::AccessFlagsForbid:
      return EventExplainer::tr("the QP's access flags do not allow %1")
          .arg(opName(a.requestOpcode));
    case R::LengthAtMtu:
      return EventExplainer::tr("%1 carries %2 bytes at MTU %3")
          .arg(opName(a.requestOpcode))
          .arg(arg(a.requested))
          .arg(arg(a.mtu));
    case R::DmaLengthTooLarge:
      return EventExplainer::tr("the DMA length is above 2 GiB");
    case R::MrLacksAccess:
      return EventExplainer::tr(
                 "the memory region of rkey %1 was registered without the remote access this "
                 "operation needs (access bits %2)")
          .arg(hex(arg(a.key)), hex(arg(a.access)));
    case R::RkeyUnknown:
      return EventExplainer::tr("rkey %1 names no memory region of the QP's protection domain")
          .arg(hex(arg(a.key)));
    case R::WriteLengthMismatch:
      return EventExplainer::tr("%1 carries %2 bytes but %3 remain of the RDMA WRITE")
          .arg(opName(a.requestOpcode))
          .arg(arg(a.requested))
          .arg(arg(a.available));
    case R::GrhDoesNotFit:
      return EventExplainer::tr("the receive buffer cannot hold the 40-byte GRH");
    case R::PayloadDoesNotFit:
      return EventExplainer::tr("%1 payload bytes do not fit the receive WQE (%2 left)")
          .arg(arg(a.requested))
          .arg(arg(a.available));
    case R::InvalidateRkeyUnknown:
      return EventExplainer::tr("the rkey %1 to invalidate names no MR").arg(hex(arg(a.key)));
    case R::RkeyInvalidated:
      return EventExplainer::tr("rkey %1 was invalidated").arg(hex(arg(a.key)));
    case R::MisalignedAtomic:
      return EventExplainer::tr("the atomic's address %1 is not 8-byte aligned")
          .arg(hex(arg(a.sgeAddress)));
    case R::NoRdAtomicResources:
      return EventExplainer::tr(
          "max_dest_rd_atomic is 0: the responder keeps no READ/atomic resources");
    case R::OpcodeOutOfSequence:
      return EventExplainer::tr("%1 arrived out of sequence").arg(opName(a.requestOpcode));
    case R::Ack:
      return EventExplainer::tr("the responder answers with %1 (%2)")
          .arg(syndromeText(arg(a.syndrome)), reasonText(e.detail, e));
    case R::ReadResponse:
      return arg(a.replay)
                 ? EventExplainer::tr("the responder replays a READ response from its saved state")
                 : EventExplainer::tr("the responder returns the data the READ asked for");
    case R::AckReqSet:
      return EventExplainer::tr("the request asked for an acknowledgement (AckReq bit in the BTH)");
    case R::DuplicateAcked:
      return EventExplainer::tr("%1 PSN %2 is a duplicate: acknowledged again, not executed twice")
          .arg(opName(a.requestOpcode), hex(arg(a.requestPsn)));
    case R::PsnOutOfSequence:
      return EventExplainer::tr(
                 "PSN %1 arrived where %2 was expected: a packet in between was lost")
          .arg(hex(arg(a.requestPsn)), hex(arg(a.expectedPsn)));
    case R::NoRecvWqe:
      return EventExplainer::tr("no receive WQE is posted, so the message has nowhere to go");
    case R::OriginalValue:
      return EventExplainer::tr("it carries the original value %1").arg(hex(arg(a.value)));
    case R::Request:
      return EventExplainer::tr("the requester built it for wr_id %1").arg(e.wrId);
    case R::ExceedsLinkMtu:
      return EventExplainer::tr("%1 bytes exceed the link MTU %2")
          .arg(arg(a.bytes))
          .arg(arg(a.mtu));
    case R::FrameOnDropList:
      return EventExplainer::tr("the scenario asks the link to lose frame %1").arg(e.frameNumber);
    case R::PsnTransmissionOnDropList:
      return EventExplainer::tr("the scenario asks the link to lose transmission %1 of PSN %2")
          .arg(arg(a.transmission))
          .arg(hex(e.psn));
    case R::PsnOnDropList:
      return EventExplainer::tr("the scenario asks the link to lose PSN %1").arg(hex(e.psn));
    case R::RandomLoss:
      return EventExplainer::tr("random loss (probability %1)").arg(arg(a.lossRate));
    case R::Truncated:
      return EventExplainer::tr("the frame is truncated");
    case R::NotRdma:
      return EventExplainer::tr("it is not an RDMA frame");
    case R::MalformedHeader:
      return EventExplainer::tr("a header is malformed");
    case R::IcrcMismatch:
      return EventExplainer::tr("the ICRC does not match: the frame was corrupted");
    case R::WrongDestinationAddress:
      return EventExplainer::tr("the destination address is not this host's");
    case R::WrongDestinationLid:
      return EventExplainer::tr("the destination LID is not this port's");
    case R::PkeyMismatch:
      return EventExplainer::tr("the P_Key does not match the port's");
    case R::GsiTakesUdSendOnly:
      return EventExplainer::tr("QP 1 (the GSI) takes UD SEND ONLY packets only");
    case R::GsiQkeyMismatch:
      return EventExplainer::tr("the Q_Key is not the GSI's");
    case R::NoSuchQp:
      return EventExplainer::tr("there is no QP %1 on this host").arg(hex(arg(a.destQpn)));
    case R::OpcodeClassMismatch:
      return EventExplainer::tr("the opcode's transport does not match the %1 QP")
          .arg(str(sim::toString(arg(a.qpType))));
    case R::QpNotReady:
      return EventExplainer::tr("QP %1 is in %2 and cannot take it")
          .arg(hex(arg(a.destQpn)), str(sim::toString(arg(a.qpState))));
    case R::SourceAddressMismatch:
      return EventExplainer::tr("the source differs from the connected QP's peer");
    case R::QkeyMismatch:
      return EventExplainer::tr("the Q_Key %1 differs from the QP's %2")
          .arg(hex(arg(a.key)), hex(arg(a.expectedKey)));
    case R::SendBufferFull:
      return EventExplainer::tr("the socket send buffer is full, so send() sleeps");
    case R::NothingToRead:
      return EventExplainer::tr("nothing is readable, so recv() sleeps");
    case R::CopyIntoSocketBuffer:
      return EventExplainer::tr("from the application's buffer into the socket send buffer");
    case R::CopyIntoAppBuffer:
      return EventExplainer::tr("from the socket receive buffer into the application's buffer");
  }
  return {};
}

QString withReason(const QString& text, const sim::TraceEvent& e) {
  const QString why = reasonText(e.reason, e);
  return why.isEmpty() ? text : EventExplainer::tr("%1\n\nWhy: %2.").arg(text, why);
}

// The explanation of a typed event (anything but a scenario's free-text note).
void explainTyped(const ScenarioRecording& rec, const ScenarioEvent& ev, EventExplanation& x) {
  const sim::TraceEvent& e = ev.trace;
  const sim::TraceArgs& a = e.args;
  const QString peer = QString::fromStdString(a.peer);
  switch (e.what) {
    case N::Text:
      break;
    case N::QpCreated:
      x.title =
          EventExplainer::tr("%1 QP %2 created").arg(str(sim::toString(arg(a.qpType))), hex(e.qpn));
      x.body = EventExplainer::tr(
                   "ibv_create_qp made queue pair %1 with a send queue of %2 and a receive queue "
                   "of %3 work requests. A new QP starts in RESET: it can neither send nor "
                   "receive until modify_qp takes it through INIT, RTR and RTS.")
                   .arg(hex(e.qpn))
                   .arg(arg(a.sqDepth))
                   .arg(arg(a.rqDepth));
      x.terms << QStringLiteral("QP") << QStringLiteral("QPN");
      return;
    case N::QpDestroyed:
      x.title = EventExplainer::tr("QP %1 destroyed").arg(hex(e.qpn));
      x.body = EventExplainer::tr("ibv_destroy_qp freed the queue pair %1.").arg(hex(e.qpn));
      return;
    case N::QpStateChanged:
      x.title = EventExplainer::tr("QP %1 %2 → %3")
                    .arg(hex(e.qpn), str(qpStateName(ev.fromState)), str(qpStateName(ev.toState)));
      x.body = withReason(
          EventExplainer::tr("Queue pair %1 left %2 and is now in %3.")
              .arg(hex(e.qpn), str(qpStateName(ev.fromState)), str(qpStateName(ev.toState))),
          e);
      if (ev.toState == sim::QpState::Err)
        x.body += EventExplainer::tr(
            "\n\nIn ERR the QP sends nothing more; every work request still queued completes "
            "with a flush error.");
      return;
    case N::SendPosted: {
      const QString op = str(sim::toString(arg(a.wrOpcode)));
      x.title = EventExplainer::tr("ibv_post_send %1 wr_id %2 queued").arg(op).arg(e.wrId);
      QString t = EventExplainer::tr(
                      "The application put a %1 work request (wr_id %2, %3 bytes) on the send "
                      "queue and rang the doorbell. No system call and no copy: the NIC will "
                      "read the data from registered memory itself (kernel bypass, zero-copy).")
                      .arg(op)
                      .arg(e.wrId)
                      .arg(arg(a.bytes));
      if (!arg(a.signaled))
        t += EventExplainer::tr(
            " It is unsignaled: it will produce no completion entry when it succeeds.");
      if (arg(a.inlined))
        t += EventExplainer::tr(
            " Its data is inline: copied into the WQE now, so the buffer is free at once.");
      if (arg(a.fenced))
        t += EventExplainer::tr(" It is fenced: it waits until earlier READs and atomics end.");
      x.body = t;
      x.terms << QStringLiteral("WQE") << QStringLiteral("kernel bypass")
              << QStringLiteral("zero-copy");
      return;
    }
    case N::RecvPosted:
      x.title = EventExplainer::tr("ibv_post_recv wr_id %1 queued").arg(e.wrId);
      x.body = EventExplainer::tr(
                   "The application posted a receive work request (wr_id %1) with %2 bytes of "
                   "buffer. A SEND from the peer consumes one such WQE: two-sided operations "
                   "need the receiver to prepare a buffer in advance.")
                   .arg(e.wrId)
                   .arg(arg(a.bytes));
      x.terms << QStringLiteral("two-sided") << QStringLiteral("WQE");
      return;
    case N::RetransmitTimerArmed:
      x.title = EventExplainer::tr("retransmit timer armed (%1 us)").arg(arg(a.durationUs));
      x.body = EventExplainer::tr(
                   "A request is outstanding, so the requester starts its transport timer: if "
                   "no ACK arrives within %1 us (4.096 us × 2^%2, the QP's timeout attribute) it "
                   "resends from the oldest unacknowledged PSN.")
                   .arg(arg(a.durationUs))
                   .arg(arg(a.timeoutExponent));
      x.terms << QStringLiteral("PSN");
      return;
    case N::RetransmitTimerFired:
      x.title = EventExplainer::tr("retransmit timer fired at PSN %1").arg(hex(e.psn));
      x.body = EventExplainer::tr(
                   "No acknowledgement for PSN %1 came within %2 us. The requester assumes the "
                   "request or its ACK was lost and will send again from that PSN (go-back-N).")
                   .arg(hex(e.psn))
                   .arg(arg(a.durationUs));
      x.terms << QStringLiteral("go-back-N");
      return;
    case N::RetransmitTimerForced:
      x.title = EventExplainer::tr("retransmit timer runs out");
      x.body = EventExplainer::tr(
                   "The replayed run makes the retransmit timer run out after request %1, as it "
                   "did in the lab capture this scenario repeats.")
                   .arg(arg(a.requests));
      return;
    case N::RnrTimerArmed:
      x.title = EventExplainer::tr("RNR NAK: wait %1 us before resending PSN %2")
                    .arg(arg(a.durationUs))
                    .arg(hex(e.psn));
      x.body = (arg(a.retriesUnlimited)
                    ? EventExplainer::tr(
                          "The responder had no receive WQE for PSN %1 and answered \"receiver "
                          "not ready\". The requester waits the %2 us the NAK asked for, then "
                          "sends the request again. rnr_retry 7 means it retries forever.")
                          .arg(hex(e.psn))
                          .arg(arg(a.durationUs))
                    : EventExplainer::tr(
                          "The responder had no receive WQE for PSN %1 and answered \"receiver "
                          "not ready\". The requester waits the %2 us the NAK asked for, then "
                          "sends the request again; %3 RNR retries are left.")
                          .arg(hex(e.psn))
                          .arg(arg(a.durationUs))
                          .arg(arg(a.retriesLeft)));
      x.terms << QStringLiteral("RNR") << QStringLiteral("NAK");
      return;
    case N::RnrTimerFired:
      x.title = EventExplainer::tr("RNR timer fired: resend from PSN %1").arg(hex(e.psn));
      x.body = EventExplainer::tr(
                   "The wait an RNR NAK asked for is over. The requester sends the request of "
                   "PSN %1 again, hoping the receiver has posted a receive WQE meanwhile.")
                   .arg(hex(e.psn));
      x.terms << QStringLiteral("RNR");
      return;
    case N::FenceWait:
      x.title = EventExplainer::tr("wr_id %1 waits at its fence").arg(e.wrId);
      x.body = EventExplainer::tr(
          "The work request is fenced: it starts only when every earlier READ and "
          "atomic has completed.");
      return;
    case N::RdAtomicWait:
      x.title = EventExplainer::tr("wr_id %1 waits for a READ/atomic slot").arg(e.wrId);
      x.body = EventExplainer::tr(
                   "All %1 READ/atomic slots (max_rd_atomic) are in use: the responder keeps "
                   "state for each outstanding READ or atomic, so the requester may have only "
                   "that many in flight. The WQE goes back from processing to pending and "
                   "starts when a response frees a slot.")
                   .arg(arg(a.limit));
      return;
    case N::UdTooLong:
      x.title = EventExplainer::tr("UD wr_id %1 longer than the MTU").arg(e.wrId);
      x.body = EventExplainer::tr(
                   "A UD message must fit in one packet; %1 bytes exceed the MTU %2. Nothing is "
                   "sent and, as the specification says, the work request still completes "
                   "successfully.")
                   .arg(arg(a.bytes))
                   .arg(arg(a.mtu));
      return;
    case N::LocalProtectionError:
      x.title = EventExplainer::tr("wr_id %1: local protection error").arg(e.wrId);
      x.body = withReason(
          EventExplainer::tr("The NIC could not read the work request's local buffer."), e);
      x.terms << QStringLiteral("lkey");
      return;
    case N::WqeStarted:
      x.title = EventExplainer::tr("requester starts wr_id %1 (%2) at PSN %3")
                    .arg(e.wrId)
                    .arg(str(sim::toString(arg(a.wrOpcode))), hex(e.psn));
      x.body = EventExplainer::tr(
                   "The NIC's requester took wr_id %1 from the send queue (its state goes from "
                   "pending to processing): %2 bytes of %3, numbered from PSN %4. The CPU is not "
                   "involved from here on (CPU offload).")
                   .arg(e.wrId)
                   .arg(arg(a.bytes))
                   .arg(str(sim::toString(arg(a.wrOpcode))), hex(e.psn));
      x.terms << QStringLiteral("PSN") << QStringLiteral("CPU offload");
      return;
    case N::RequestPacket: {
      x.title = EventExplainer::tr("builds %1 PSN %2").arg(opName(a.opcode), hex(e.psn));
      QString t = EventExplainer::tr(
                      "The requester built packet PSN %1 of wr_id %2: %3 with %4 payload bytes.")
                      .arg(hex(e.psn))
                      .arg(e.wrId)
                      .arg(opName(a.opcode))
                      .arg(arg(a.bytes));
      if (arg(a.ackReq) == sim::AckRequest::LastPacket)
        t += EventExplainer::tr(
            " It is the message's last packet, so it sets AckReq: the responder must "
            "acknowledge it.");
      else if (arg(a.ackReq) == sim::AckRequest::Periodic)
        t += EventExplainer::tr(
            " It sets AckReq to get a periodic acknowledgement in a long message.");
      if (a.firstPsn && a.lastPsn)
        t += EventExplainer::tr(
                 " A READ request carries no data; it reserves PSNs %1 to %2 for the %3 "
                 "response packet(s) the responder will send.")
                 .arg(hex(*a.firstPsn), hex(*a.lastPsn))
                 .arg(arg(a.packets));
      x.body = t;
      x.terms << QStringLiteral("BTH") << QStringLiteral("PSN");
      return;
    }
    case N::GoBackN:
      x.title = EventExplainer::tr("go-back-N from PSN %1").arg(hex(e.psn));
      x.body = EventExplainer::tr(
                   "The requester rewinds to PSN %1 and will send every packet from there again, "
                   "even those the responder may already have: RC keeps no per-packet "
                   "selective acknowledgement.")
                   .arg(hex(e.psn));
      x.terms << QStringLiteral("go-back-N");
      return;
    case N::SendCompleted:
      x.title = arg(a.status) == sim::WcStatus::Success
                    ? EventExplainer::tr("send wr_id %1 complete").arg(e.wrId)
                    : EventExplainer::tr("send wr_id %1 failed").arg(e.wrId);
      x.body = withReason(
          arg(a.signaled)
              ? EventExplainer::tr(
                    "The completer finished send work request %1; a completion entry follows.")
                    .arg(e.wrId)
              : EventExplainer::tr(
                    "The completer finished send work request %1. It was unsignaled, so no "
                    "completion entry is written.")
                    .arg(e.wrId),
          e);
      return;
    case N::SendCqFull:
      x.title = EventExplainer::tr("send CQ %1 full").arg(arg(a.cq));
      x.body = EventExplainer::tr("The completion of wr_id %1 finds CQ %2 full and is lost.")
                   .arg(e.wrId)
                   .arg(arg(a.cq));
      return;
    case N::ReadResponseUnstorable:
      x.title = EventExplainer::tr("READ response for wr_id %1 cannot be stored").arg(e.wrId);
      x.body = withReason(
          EventExplainer::tr("The READ's data arrived but the local buffer refuses it."), e);
      return;
    case N::RetryStarted:
      x.title = arg(a.retryCause) == sim::RetryCause::Timeout
                    ? EventExplainer::tr("retry after timeout from PSN %1").arg(hex(e.psn))
                    : EventExplainer::tr("retry after NAK from PSN %1").arg(hex(e.psn));
      x.body =
          (arg(a.retryCause) == sim::RetryCause::Timeout
               ? EventExplainer::tr("The retransmit timer ran out.")
               : EventExplainer::tr("The responder reported a PSN sequence error: it saw a gap.")) +
          (arg(a.retriesUnlimited)
               ? EventExplainer::tr(
                     " The requester resends from PSN %1 (retry_cnt 7: without limit).")
                     .arg(hex(e.psn))
               : EventExplainer::tr(
                     " The requester resends from PSN %1; %2 retries are left before the "
                     "work request fails.")
                     .arg(hex(e.psn))
                     .arg(arg(a.retriesLeft)));
      x.terms << QStringLiteral("go-back-N");
      return;
    case N::RetryExhausted:
      x.title = EventExplainer::tr("retries exhausted at PSN %1").arg(hex(e.psn));
      x.body = EventExplainer::tr(
                   "The requester retried %1 times (retry_cnt) without an acknowledgement. "
                   "It gives up: the work request completes with RETRY_EXC_ERR and the QP "
                   "goes to ERR.")
                   .arg(arg(a.retryCount));
      return;
    case N::RecvCompleted:
      x.title = arg(a.status) == sim::WcStatus::Success
                    ? EventExplainer::tr("receive wr_id %1 complete").arg(e.wrId)
                    : EventExplainer::tr("receive wr_id %1 failed").arg(e.wrId);
      x.body = withReason(
          EventExplainer::tr("The responder finished receive work request %1.").arg(e.wrId), e);
      return;
    case N::RecvWqeMalformed:
      x.title = EventExplainer::tr("malformed receive WQE");
      x.body = withReason(EventExplainer::tr("The receive WQE's buffer cannot be used."), e);
      return;
    case N::OutOfSequenceDropped:
      x.title =
          EventExplainer::tr("drops %1 PSN %2 (out of sequence)").arg(opName(a.opcode), hex(e.psn));
      x.body = EventExplainer::tr(
                   "The responder expects PSN %1 and has already sent a NAK for it. It silently "
                   "drops every later packet until the requester goes back and resends PSN %1.")
                   .arg(hex(arg(a.expectedPsn)));
      x.terms << QStringLiteral("PSN") << QStringLiteral("go-back-N");
      return;
    case N::UcRestDropped:
      x.title = EventExplainer::tr("UC drops %1 PSN %2").arg(opName(a.opcode), hex(e.psn));
      x.body = EventExplainer::tr(
                   "UC has no acknowledgements and no resends. The responder expected PSN %1; "
                   "a packet of this message was lost, so the rest of the message is thrown "
                   "away until the next FIRST or ONLY packet.")
                   .arg(hex(arg(a.expectedPsn)));
      return;
    case N::UcMessageAbandoned:
      x.title = EventExplainer::tr("UC message abandoned");
      x.body = EventExplainer::tr(
          "A new message began before the previous one's LAST packet arrived: the unfinished "
          "message is abandoned and its receive WQE is used again.");
      return;
    case N::UcNoRecvWqeDropped:
      x.title =
          EventExplainer::tr("drops %1 PSN %2: no receive WQE").arg(opName(a.opcode), hex(e.psn));
      x.body = EventExplainer::tr(
          "UC cannot ask the sender to wait (no RNR NAK): without a posted receive "
          "WQE the packet is dropped.");
      return;
    case N::UcWriteDropped:
      x.title = EventExplainer::tr("UC RDMA WRITE dropped");
      x.body = withReason(EventExplainer::tr("The responder discards the UC WRITE."), e);
      return;
    case N::UcClassDDropped:
      x.title = EventExplainer::tr("drops %1").arg(opName(a.opcode));
      x.body =
          withReason(EventExplainer::tr("The responder discards the packet (a class D error)."), e);
      return;
    case N::DuplicateReadUnmatched:
      x.title = EventExplainer::tr("duplicate READ PSN %1 dropped").arg(hex(e.psn));
      x.body = EventExplainer::tr(
          "The repeated READ request matches no saved responder state and is dropped.");
      return;
    case N::DuplicateReadReplayed:
      x.title = EventExplainer::tr("duplicate READ PSN %1 replayed").arg(hex(e.psn));
      x.body = EventExplainer::tr(
          "The READ arrived again (a resend). The responder answers it again from "
          "memory without treating it as a new request.");
      return;
    case N::DuplicateAtomicReplayed:
      x.title = EventExplainer::tr("duplicate atomic PSN %1 replayed").arg(hex(e.psn));
      x.body = EventExplainer::tr(
                   "An atomic must not run twice. The responder sends the saved result %1 again "
                   "and leaves memory alone.")
                   .arg(hex(arg(a.value)));
      return;
    case N::LocalBufferAccess:
      if (e.kind == K::MemoryWritten) {
        x.title = EventExplainer::tr("NIC writes %1 bytes to memory").arg(e.length);
        x.body = EventExplainer::tr(
                     "The NIC wrote %1 bytes into the registered buffer at %2 by DMA. The CPU "
                     "copied nothing: the data goes from the wire straight to the application's "
                     "memory (zero-copy).")
                     .arg(e.length)
                     .arg(hex(e.address));
      } else {
        x.title = EventExplainer::tr("NIC reads %1 bytes from memory").arg(e.length);
        x.body = EventExplainer::tr(
                     "The NIC read %1 bytes of the registered buffer at %2 by DMA to put them "
                     "in packets. The CPU copied nothing (zero-copy).")
                     .arg(e.length)
                     .arg(hex(e.address));
      }
      x.terms << QStringLiteral("zero-copy") << QStringLiteral("lkey");
      return;
    case N::ReadResponseData:
      x.title = EventExplainer::tr("NIC reads %1 bytes for a READ response").arg(e.length);
      x.body = EventExplainer::tr(
                   "The responder's NIC read %1 bytes at %2 that the peer asked for with RDMA "
                   "READ. This host's CPU takes no part: READ is one-sided.")
                   .arg(e.length)
                   .arg(hex(e.address));
      x.terms << QStringLiteral("one-sided") << QStringLiteral("rkey");
      return;
    case N::WriteData:
      x.title = EventExplainer::tr("NIC writes %1 bytes of %2").arg(e.length).arg(opName(a.opcode));
      x.body = EventExplainer::tr(
                   "The NIC placed the %1 payload bytes of PSN %2 at %3, the address the "
                   "request names (RETH address, checked against its rkey). The application on "
                   "this host is not told: RDMA WRITE is one-sided.")
                   .arg(e.length)
                   .arg(hex(e.psn), hex(e.address));
      x.terms << QStringLiteral("one-sided") << QStringLiteral("RETH") << QStringLiteral("rkey");
      return;
    case N::AtomicExecuted:
      x.title = EventExplainer::tr("%1 executed").arg(opName(a.opcode));
      x.body = EventExplainer::tr(
                   "The NIC read %1 at %2 and wrote %3 in one indivisible step. The original "
                   "value goes back to the requester in an ATOMIC ACKNOWLEDGE.")
                   .arg(hex(arg(a.value)), hex(e.address), hex(arg(a.newValue)));
      x.terms << QStringLiteral("AtomicETH");
      return;
    case N::CqeProduced: {
      const QString st = str(sim::toString(arg(a.status)));
      x.title = EventExplainer::tr("completion wr_id %1 %2 %3")
                    .arg(e.wrId)
                    .arg(str(sim::toString(arg(a.wcOpcode))), st);
      if (rec.transport == RecordingTransport::Iwarp) {
        x.body = EventExplainer::tr(
                     "The RNIC completes work request %1 (%2, status \"%3\", %4 bytes) and "
                     "writes its completion entry to the CQ; the application learns of it when "
                     "it polls. A send-side WRITE or SEND completes once TCP has the data "
                     "acknowledged; a READ or RECV once the data is placed.")
                     .arg(e.wrId)
                     .arg(str(sim::toString(arg(a.wcOpcode))), st)
                     .arg(arg(a.bytes));
        x.terms << QStringLiteral("CQE");
        return;
      }
      x.body = EventExplainer::tr(
                   "A completion entry (wr_id %1, %2, status \"%3\", %4 bytes) entered CQ %5. "
                   "The application learns of it when it polls the CQ; until then it stays "
                   "unpolled.")
                   .arg(e.wrId)
                   .arg(str(sim::toString(arg(a.wcOpcode))), st)
                   .arg(arg(a.bytes))
                   .arg(arg(a.cq));
      if (a.immData)
        x.body += EventExplainer::tr(" It carries the immediate value %1.").arg(hex(*a.immData));
      x.terms << QStringLiteral("CQE");
      return;
    }
    case N::CqOverflow:
      x.title = EventExplainer::tr("CQ %1 overflow").arg(arg(a.cq));
      x.body = EventExplainer::tr(
                   "CQ %1 already holds %2 entries: a completion is lost and the CQ is in error.")
                   .arg(arg(a.cq))
                   .arg(arg(a.depth));
      return;
    case N::FrameSent: {
      x.title = EventExplainer::tr("frame %1 %2 PSN %3 → %4")
                    .arg(e.frameNumber)
                    .arg(opName(a.opcode), hex(e.psn), peer);
      if (e.reason == R::Ack && a.syndrome)
        x.title += QStringLiteral(" (%1)").arg(syndromeShort(*a.syndrome));
      QString t = EventExplainer::tr("Frame %1 (%2 bytes) leaves for %3: %4 with PSN %5.")
                      .arg(e.frameNumber)
                      .arg(e.length)
                      .arg(peer, opName(a.opcode), hex(e.psn));
      const QString why = reasonText(e.reason, e);
      if (!why.isEmpty() && e.reason != R::Request)
        t += EventExplainer::tr("\n\nWhy: %1.").arg(why);
      if (isRead(a.opcode) && e.reason != R::Request)
        t += EventExplainer::tr(
                 "\n\nREAD response data flows from the responder (%1) back to the requester "
                 "(%2).")
                 .arg(x.actor, peer);
      if (a.queuedSinceUs)
        t += EventExplainer::tr("\n\nIt waited on the link since %1 us behind earlier frames.")
                 .arg(*a.queuedSinceUs, 0, 'f', 3);
      x.body = t;
      x.terms << QStringLiteral("BTH") << QStringLiteral("PSN") << QStringLiteral("ICRC");
      if (e.reason == R::Ack) {
        x.terms << QStringLiteral("AETH") << QStringLiteral("MSN");
        const std::uint8_t type = arg(a.syndrome) & 0xe0;
        if (type == 0x20) x.terms << QStringLiteral("RNR");
        if (type != 0) x.terms << QStringLiteral("NAK");
      }
      return;
    }
    case N::FrameLost:
      x.title =
          EventExplainer::tr("link loses frame %1 (PSN %2)").arg(e.frameNumber).arg(hex(e.psn));
      x.body =
          withReason(
              EventExplainer::tr("Frame %1 never reaches its destination.").arg(e.frameNumber), e) +
          EventExplainer::tr(
              "\n\nNothing tells the sender directly: RC notices by a gap in PSNs or by "
              "its retransmit timer.");
      return;
    case N::FrameCorrupted:
      x.title = EventExplainer::tr("link corrupts frame %1").arg(e.frameNumber);
      x.body = EventExplainer::tr(
                   "Byte %1 of frame %2 was changed on the wire (bit mask %3). The receiver's "
                   "ICRC check will catch it.")
                   .arg(arg(a.byteIndex))
                   .arg(e.frameNumber)
                   .arg(hex(arg(a.bitMask)));
      x.terms << QStringLiteral("ICRC");
      return;
    case N::FrameDelayed:
      x.title = EventExplainer::tr("link delays frame %1").arg(e.frameNumber);
      x.body = EventExplainer::tr(
                   "Frame %1 is held %2 us, so frames behind it overtake it (reordering).")
                   .arg(e.frameNumber)
                   .arg(arg(a.durationUs));
      return;
    case N::FrameDuplicated:
      x.title = EventExplainer::tr("link duplicates frame %1").arg(e.frameNumber);
      x.body = EventExplainer::tr(
                   "Frame %1 arrives twice; the responder must recognise the copy by its PSN.")
                   .arg(e.frameNumber);
      return;
    case N::FrameDiscarded:
      x.title = EventExplainer::tr("NIC discards frame %1").arg(e.frameNumber);
      x.body = withReason(
          EventExplainer::tr("The receiving NIC drops frame %1 silently, before any QP sees it.")
              .arg(e.frameNumber),
          e);
      return;
    case N::FrameReceived:
      x.title = EventExplainer::tr("frame %1 %2 PSN %3 arrives")
                    .arg(e.frameNumber)
                    .arg(opName(a.opcode), hex(e.psn));
      x.body = EventExplainer::tr(
                   "Frame %1 arrived for QP %2: %3 with PSN %4. Its ICRC is correct and its "
                   "PSN is checked against the one the QP expects.")
                   .arg(e.frameNumber)
                   .arg(hex(arg(a.destQpn)), opName(a.opcode), hex(e.psn));
      if (arg(a.ackReq) != sim::AckRequest::None)
        x.body += EventExplainer::tr(" AckReq is set: the responder will acknowledge it.");
      x.terms << QStringLiteral("ICRC") << QStringLiteral("PSN");
      return;
    case N::FrameRejected:
      x.title = EventExplainer::tr("refuses frame %1 %2 PSN %3")
                    .arg(e.frameNumber)
                    .arg(opName(a.opcode), hex(e.psn));
      x.body = withReason(EventExplainer::tr("The receiver refuses frame %1 (%2, PSN %3).")
                              .arg(e.frameNumber)
                              .arg(opName(a.opcode), hex(e.psn)),
                          e);
      return;
    case N::TcpAppSleeps:
      x.title = e.reason == R::SendBufferFull
                    ? EventExplainer::tr("send() sleeps: socket send buffer full")
                    : EventExplainer::tr("recv() sleeps: nothing to read");
      x.body = withReason(
          EventExplainer::tr("The application blocks in the kernel and the CPU switches to other "
                             "work (a context switch); it runs again only when woken."),
          e);
      return;
    case N::TcpCopy:
      x.title = e.reason == R::CopyIntoAppBuffer
                    ? EventExplainer::tr("CPU copies %1 bytes socket buffer → application")
                          .arg(arg(a.bytes))
                    : EventExplainer::tr("CPU copies %1 bytes application → socket buffer")
                          .arg(arg(a.bytes));
      x.body = withReason(
          EventExplainer::tr("The CPU copies %1 bytes itself, byte by byte through its caches: "
                             "this is the copy RDMA avoids (zero-copy), and it costs CPU time "
                             "proportional to the size.")
              .arg(arg(a.bytes)),
          e);
      x.terms << QStringLiteral("zero-copy");
      return;
    case N::TcpSendCall:
      x.title = EventExplainer::tr("send() of %1 bytes").arg(arg(a.bytes));
      x.body = EventExplainer::tr(
                   "The application calls send() for %1 bytes: a system call, so the CPU leaves "
                   "user mode and enters the kernel, which will copy the bytes into the socket "
                   "send buffer. RDMA posts work without entering the kernel (kernel bypass).")
                   .arg(arg(a.bytes));
      x.terms << QStringLiteral("kernel bypass");
      return;
    case N::TcpRecvCall:
      x.title = EventExplainer::tr("recv() called");
      x.body = EventExplainer::tr(
          "The application calls recv(): a system call into the kernel, which copies whatever "
          "the socket receive buffer holds into the application's buffer, or puts the caller "
          "to sleep when it holds nothing.");
      x.terms << QStringLiteral("kernel bypass");
      return;
    case N::TcpTransmitWork:
      x.title = arg(a.bytes) == 0
                    ? EventExplainer::tr("CPU builds a TCP ACK")
                    : EventExplainer::tr("CPU runs TCP/IP for a %1-byte segment").arg(arg(a.bytes));
      x.body = EventExplainer::tr(
          "The kernel's TCP/IP code runs on the host CPU: it takes the next segment's bytes "
          "from the socket send buffer, builds the TCP, IP and Ethernet headers and rings the "
          "NIC's doorbell. An RDMA NIC does this itself (CPU offload).");
      x.terms << QStringLiteral("CPU offload");
      return;
    case N::TcpSegmentSent: {
      const std::uint8_t flags = arg(a.tcpFlags);
      QString what = arg(a.bytes) > 0 ? EventExplainer::tr("%1 bytes").arg(arg(a.bytes))
                                      : EventExplainer::tr("no payload");
      if (flags & 0x02) what += QStringLiteral(" SYN");
      if (flags & 0x01) what += QStringLiteral(" FIN");
      x.title = EventExplainer::tr("frame %1 TCP seq %2 ack %3, %4")
                    .arg(e.frameNumber)
                    .arg(arg(a.seq))
                    .arg(arg(a.ack))
                    .arg(what);
      QString t = EventExplainer::tr(
                      "Frame %1 (%2 bytes) goes on the wire: a TCP segment with sequence number "
                      "%3 and acknowledgement %4 carrying %5.")
                      .arg(e.frameNumber)
                      .arg(e.length)
                      .arg(arg(a.seq))
                      .arg(arg(a.ack))
                      .arg(what);
      if (flags & 0x02)
        t += EventExplainer::tr(
            "\n\nSYN opens the connection: each side announces its initial sequence number.");
      else if (flags & 0x01)
        t += EventExplainer::tr("\n\nFIN closes this direction of the connection.");
      else if (arg(a.bytes) == 0)
        t += EventExplainer::tr(
            "\n\nA pure ACK: it tells the sender which bytes arrived, so that it may free them "
            "from its send buffer.");
      if (rec.transport == RecordingTransport::Iwarp && arg(a.bytes) > 0)
        t += EventExplainer::tr(
            "\n\nThe RNIC built this segment itself: TCP runs in the NIC, and the payload is "
            "MPA-framed DDP (see the packet detail).");
      x.body = t;
      return;
    }
    case N::TcpSegmentLost:
      x.title = EventExplainer::tr("link loses frame %1").arg(e.frameNumber);
      x.body = EventExplainer::tr(
          "The link loses this TCP segment. The receiver will see a gap; TCP's retransmission "
          "(a timeout or three duplicate ACKs) sends it again.");
      return;
    case N::TcpInterrupt:
      x.title = EventExplainer::tr("NIC interrupt for %1 frame(s)").arg(arg(a.packets));
      x.body = EventExplainer::tr(
                   "The NIC interrupts the CPU for %1 frame(s) it wrote into its receive ring. "
                   "The CPU runs the interrupt handler and the softirq: it parses Ethernet, IP "
                   "and TCP and queues the payload in the socket receive buffer.")
                   .arg(arg(a.packets));
      x.terms << QStringLiteral("CPU offload");
      return;
    case N::TcpChecksumDropped:
      x.title = EventExplainer::tr("checksum error: frame dropped");
      x.body = EventExplainer::tr(
          "The frame fails its IPv4 or TCP checksum, so the kernel drops it; TCP resends it.");
      return;
    case N::TcpWriterWoken:
      x.title = EventExplainer::tr("send() woken: buffer has room");
      x.body = EventExplainer::tr(
          "ACKs freed a third of the socket send buffer: the sleeping writer is woken (a "
          "context switch) to copy more.");
      return;
    case N::TcpReaderWoken:
      x.title = EventExplainer::tr("recv() woken: data arrived");
      x.body = EventExplainer::tr(
          "Data is readable in the socket receive buffer: the sleeping reader is woken (a "
          "context switch) and its recv() continues.");
      return;
    case N::TcpEstablished:
      x.title = EventExplainer::tr("TCP connection established");
      x.body = EventExplainer::tr(
          "The three-way handshake (SYN, SYN-ACK, ACK) is complete on this side: both sequence "
          "numbers are known and data may flow.");
      return;
    case N::TcpReset:
      x.title = EventExplainer::tr("TCP connection reset");
      x.body = EventExplainer::tr("The connection was reset: both sides drop it at once.");
      return;
    case N::TcpClosed:
      x.title = EventExplainer::tr("TCP connection closed");
      x.body = EventExplainer::tr(
          "Both directions have sent and acknowledged their FIN: the connection is closed.");
      return;
    case N::TcpSocketBuffers: {
      x.title = EventExplainer::tr("socket buffers: %1 B to send, %2 B to read")
                    .arg(arg(a.sendQueued))
                    .arg(arg(a.recvQueued));
      QString t;
      if (e.reason == R::CopyIntoSocketBuffer)
        t = EventExplainer::tr("The copy is done: %1 more bytes wait in the socket send buffer.")
                .arg(arg(a.bytes));
      else if (e.reason == R::CopyIntoAppBuffer)
        t = EventExplainer::tr(
                "The copy is done: %1 bytes left the socket receive buffer for the application.")
                .arg(arg(a.bytes));
      else
        t = EventExplainer::tr(
                "The kernel processed arriving segments (%1 payload bytes): data joins the "
                "receive buffer in order, and ACKs free acknowledged bytes from the send "
                "buffer.")
                .arg(arg(a.bytes));
      t += EventExplainer::tr(
               "\n\nNow the send buffer holds %1 bytes not yet acknowledged (%2 of them on the "
               "wire) and the receive buffer %3 bytes the application has not read.")
               .arg(arg(a.sendQueued))
               .arg(arg(a.inFlight))
               .arg(arg(a.recvQueued));
      x.body = t;
      return;
    }
    case N::RdmaCmBind:
      x.title = EventExplainer::tr("rdma_bind_addr to port %1").arg(arg(a.port));
      x.body = EventExplainer::tr(
                   "The passive side creates a cm_id and binds it to TCP port %1 on its RNIC's "
                   "address, as a server binds a socket. iWARP runs over TCP, so rdma_cm "
                   "addresses connections by IP address and port.")
                   .arg(arg(a.port));
      return;
    case N::RdmaCmListen:
      x.title = EventExplainer::tr("rdma_listen on port %1").arg(arg(a.port));
      x.body = EventExplainer::tr(
                   "The passive side listens on port %1: a connection request will arrive as "
                   "the rdma_cm event CONNECT_REQUEST.")
                   .arg(arg(a.port));
      return;
    case N::RdmaCmResolve:
      x.title = EventExplainer::tr("rdma_resolve_addr and rdma_resolve_route");
      x.body = EventExplainer::tr(
          "The active side resolves the peer's IP address to its own RNIC and a route to it "
          "(rdma_resolve_addr, then rdma_resolve_route): now it knows which device will carry "
          "the connection.");
      return;
    case N::RdmaCmConnect:
      x.title = EventExplainer::tr("rdma_connect to port %1").arg(arg(a.port));
      x.body = EventExplainer::tr(
                   "The active side calls rdma_connect. On iWARP the RNIC opens a TCP "
                   "connection to port %1 itself (SYN, SYN-ACK, ACK) and then sends the MPA "
                   "Request; the application does not touch the socket.")
                   .arg(arg(a.port));
      return;
    case N::RdmaCmAccept:
      x.title = EventExplainer::tr("rdma_accept");
      x.body = EventExplainer::tr(
          "The passive side got CONNECT_REQUEST (the MPA Request arrived) and calls "
          "rdma_accept: its RNIC answers with the MPA Reply and moves the QP to RTS.");
      return;
    case N::RdmaCmEstablished:
      x.title = EventExplainer::tr("rdma_cm event ESTABLISHED");
      x.body = EventExplainer::tr(
          "The MPA exchange is complete on this side: the connection is in full operation, "
          "and from now on the TCP byte stream carries only MPA FPDUs with DDP segments.");
      return;
    case N::MpaRequestSent:
    case N::MpaRequestReceived:
    case N::MpaReplySent:
    case N::MpaReplyReceived: {
      const bool request = e.what == N::MpaRequestSent || e.what == N::MpaRequestReceived;
      const bool sent = e.what == N::MpaRequestSent || e.what == N::MpaReplySent;
      const QString frame =
          request ? EventExplainer::tr("MPA Request") : EventExplainer::tr("MPA Reply");
      x.title =
          (sent ? EventExplainer::tr("%1 sent") : EventExplainer::tr("%1 received")).arg(frame);
      QString t =
          sent ? EventExplainer::tr(
                     "The RNIC writes the %1 into the new TCP stream: the key \"MPA ID "
                     "%2 Frame\", the flags it wants (markers %3, CRC %4) and %5 bytes "
                     "of private data.")
                     .arg(frame, request ? QStringLiteral("Req") : QStringLiteral("Rep"),
                          arg(a.markers) ? EventExplainer::tr("on") : EventExplainer::tr("off"),
                          arg(a.crc) ? EventExplainer::tr("on") : EventExplainer::tr("off"))
                     .arg(arg(a.bytes))
               : EventExplainer::tr(
                     "The RNIC reads the %1 from the TCP stream: the peer asks for "
                     "markers %2 and CRC %3 and sends %4 bytes of private data.")
                     .arg(frame,
                          arg(a.markers) ? EventExplainer::tr("on") : EventExplainer::tr("off"),
                          arg(a.crc) ? EventExplainer::tr("on") : EventExplainer::tr("off"))
                     .arg(arg(a.bytes));
      t += EventExplainer::tr(
          "\n\nMPA (RFC 5044) makes TCP's byte stream carry framed messages: before any DDP "
          "segment, the two sides agree on markers (every 512 bytes) and a CRC32c per FPDU.");
      if (e.what == N::MpaRequestReceived)
        t += EventExplainer::tr(" For the application this is the CONNECT_REQUEST event.");
      x.body = t;
      x.terms << QStringLiteral("MPA");
      return;
    }
    case N::StagRegistered:
      x.title = EventExplainer::tr("memory registered: STag %1").arg(hex(arg(a.key)));
      x.body = EventExplainer::tr(
                   "ibv_reg_mr registers %1 bytes: the RNIC pins them and names them by the "
                   "steering tag (STag) %2, iWARP's rkey. A peer that knows the STag may read "
                   "or write the region directly, as the access flags allow.")
                   .arg(arg(a.bytes))
                   .arg(hex(arg(a.key)));
      x.terms << QStringLiteral("rkey");
      return;
    case N::DdpSegmentSent:
    case N::DdpSegmentPlaced: {
      const QString op = QString::fromStdString(packets::rdmapOpcodeName(arg(a.opcode)));
      const bool sent = e.what == N::DdpSegmentSent;
      const QString where =
          a.key
              ? EventExplainer::tr("tagged: STag %1, offset %2").arg(hex(*a.key)).arg(arg(a.value))
              : EventExplainer::tr("untagged: queue %1, MSN %2, offset %3")
                    .arg(arg(a.queue))
                    .arg(arg(a.msn))
                    .arg(arg(a.value));
      x.title = (sent ? EventExplainer::tr("DDP %1 segment framed, %2 bytes")
                      : EventExplainer::tr("DDP %1 segment placed, %2 bytes"))
                    .arg(op)
                    .arg(arg(a.bytes));
      QString t =
          sent ? EventExplainer::tr(
                     "The RNIC cuts the message into a DDP segment (%1) with %2 bytes "
                     "of payload%3 and wraps it in one MPA FPDU (length, pad, CRC32c); "
                     "its TCP sends the FPDU in one segment. The CPU does none of it.")
                     .arg(where)
                     .arg(arg(a.bytes))
                     .arg(arg(a.lastSegment) ? EventExplainer::tr(", the message's last")
                                             : QString())
               : EventExplainer::tr(
                     "The RNIC checked the FPDU's CRC and reads the DDP header (%1): it "
                     "writes the %2 bytes straight into registered memory by DMA, in "
                     "any order, without a copy%3.")
                     .arg(where)
                     .arg(arg(a.bytes))
                     .arg(arg(a.lastSegment) ? EventExplainer::tr("; it is the message's last")
                                             : QString());
      t += a.key ? EventExplainer::tr(
                       "\n\nTagged placement: the STag and offset name the destination, as the "
                       "rkey and address of a RETH do (one-sided).")
                 : EventExplainer::tr(
                       "\n\nUntagged placement: the segment fills the receive buffer posted "
                       "first (two-sided), at the message offset.");
      x.body = t;
      x.terms << QStringLiteral("DDP")
              << (a.key ? QStringLiteral("one-sided") : QStringLiteral("two-sided"));
      return;
    }
    case N::IwarpTerminateSent:
      x.title = EventExplainer::tr("RDMAP Terminate sent");
      x.body = EventExplainer::tr(
                   "The RNIC found an error (layer %1, type %2, code %3) and sends a Terminate "
                   "message: the stream is dead and every outstanding work request completes "
                   "with a flush error.")
                   .arg(arg(a.value) >> 16)
                   .arg((arg(a.value) >> 8) & 0xff)
                   .arg(arg(a.value) & 0xff);
      return;
  }
  Q_UNUSED(rec);
}

// The scenario's own notes: verbs calls as the executor logs them, their results, waits and
// comparisons ("host-a: ibv_modify_qp(qp, RTR, IBV_QP_STATE, ...)", "  -> ...").
void explainNote(const ScenarioRecording& rec, std::size_t index, EventExplanation& x) {
  const ScenarioEvent& ev = rec.events[index];
  QString text = QString::fromStdString(ev.trace.args.text);
  if (text.isEmpty()) text = QString::fromStdString(ev.trace.args.text);
  static const QRegularExpression hostCall(QStringLiteral("^([\\w.-]+): (.*)$"));
  QString call = text.trimmed();
  if (const auto m = hostCall.match(call); m.hasMatch()) {
    for (const auto& name : rec.hostNames)
      if (m.captured(1) == QString::fromStdString(name)) {
        x.actor = m.captured(1);
        call = m.captured(2);
      }
  }
  // With the rdma_cm the passive side's RTS waits for the RTU (verbs_backend's scenario.cpp).
  static const QString afterRtu = QStringLiteral(" (rdma_cm: after the RTU arrives)");
  const bool waitedForRtu = call.endsWith(afterRtu);
  if (waitedForRtu) call.chop(afterRtu.size());
  static const QRegularExpression modify(QStringLiteral("^ibv_modify_qp\\(qp, (\\w+)(.*)\\)$"));
  static const QRegularExpression regMr(QStringLiteral(
      "^ibv_reg_mr\\(buf, (\\d+) bytes\\) -> addr (0x[0-9a-f]+) lkey (0x[0-9a-f]+) rkey "
      "(0x[0-9a-f]+)"));
  static const QRegularExpression postSend(
      QStringLiteral("^ibv_post_send\\(qp, (\\w+), wr_id (\\d+), (\\d+) bytes\\)"));
  static const QRegularExpression postRecv(
      QStringLiteral("^ibv_post_recv\\(qp, wr_id (\\d+), (\\d+) bytes\\)"));
  static const QRegularExpression poll(QStringLiteral("^ibv_poll_cq\\(cq\\) until (\\d+)"));
  static const QRegularExpression exchange(
      QStringLiteral("^sends QPN, PSN, GID, rkey and address of qp to ([\\w.-]+)"));
  static const QRegularExpression wait(QStringLiteral("^let (\\d+) us pass"));
  static const QRegularExpression compare(
      QStringLiteral("^compare (\\d+) bytes of (\\S+) and (\\S+)"));
  static const QRegularExpression peerInfo(
      QStringLiteral("^-> QPN (0x[0-9a-f]+) PSN (0x[0-9a-f]+) (\\w+) (\\S+) rkey (0x[0-9a-f]+) "
                     "addr (0x[0-9a-f]+)"));
  static const QRegularExpression pollResult(QStringLiteral("^-> (wr_id .*)$"));
  static const QRegularExpression compareResult(QStringLiteral("^-> (\\d+) bytes (\\w+)"));

  x.kind = EventExplainer::tr("verbs call");
  QRegularExpressionMatch m;
  if ((m = modify.match(call)).hasMatch()) {
    QStringList bits = m.captured(2).split(QStringLiteral(", "), Qt::SkipEmptyParts);
    x.title = EventExplainer::compactModifyQp(m.captured(1), static_cast<int>(bits.size()));
    x.detail = call;
    QString t = EventExplainer::tr(
                    "The application asks the NIC to move its QP to %1. The attribute mask "
                    "names which fields of ibv_qp_attr the call sets:")
                    .arg(m.captured(1));
    for (const QString& b : bits)
      t += QStringLiteral("\n• %1: %2").arg(b, EventExplainer::maskBitMeaning(b));
    if (waitedForRtu)
      t += QStringLiteral("\n\n") +
           EventExplainer::tr(
               "With the rdma_cm this side moves to RTS only once the RTU has "
               "arrived: the connection is then established on both sides.");
    x.body = t;
    x.terms << QStringLiteral("QPN") << QStringLiteral("PSN") << QStringLiteral("P_Key");
    return;
  }
  if (call.startsWith(QStringLiteral("ibv_alloc_pd"))) {
    x.title = EventExplainer::tr("ibv_alloc_pd");
    x.body = EventExplainer::tr(
        "The application allocates a protection domain. Memory regions and queue pairs "
        "created in the same PD may be used together; a key from another PD is refused.");
    x.terms << QStringLiteral("PD");
    return;
  }
  if ((m = regMr.match(call)).hasMatch()) {
    x.title = EventExplainer::tr("ibv_reg_mr: %1 bytes, lkey %2, rkey %3")
                  .arg(m.captured(1), m.captured(3), m.captured(4));
    x.body = EventExplainer::tr(
                 "The application registers %1 bytes at %2. The kernel pins the pages and the "
                 "NIC learns their translation, so it can reach them by DMA without the CPU. "
                 "The NIC answers with two keys: the lkey (%3) that this host's own work "
                 "requests quote, and the rkey (%4) the peer must quote to READ or WRITE here.")
                 .arg(m.captured(1), m.captured(2), m.captured(3), m.captured(4));
    x.terms << QStringLiteral("lkey") << QStringLiteral("rkey") << QStringLiteral("MR");
    return;
  }
  if ((m = exchange.match(call)).hasMatch()) {
    x.kind = EventExplainer::tr("out-of-band exchange");
    x.title = EventExplainer::tr("sends its QP's details to %1 over TCP").arg(m.captured(1));
    x.body = EventExplainer::tr(
                 "Before RDMA can flow, each side must learn the other's QP number, first PSN "
                 "and address (GID or LID), and, for one-sided operations, the buffer's "
                 "address and rkey. Here they travel over an ordinary TCP connection to %1, "
                 "outside the RDMA fabric (rdma_cm could carry them instead).")
                 .arg(m.captured(1));
    x.terms << QStringLiteral("QPN") << QStringLiteral("GID") << QStringLiteral("rkey");
    return;
  }
  if ((m = peerInfo.match(call)).hasMatch()) {
    x.kind = EventExplainer::tr("out-of-band exchange");
    x.title = EventExplainer::tr("QPN %1, PSN %2, rkey %3 sent")
                  .arg(m.captured(1), m.captured(2), m.captured(5));
    x.body = EventExplainer::tr(
                 "The message carries QPN %1, first PSN %2, %3 %4, rkey %5 and buffer address "
                 "%6. The peer puts the QPN and PSN into its RTR attributes, and the address "
                 "and rkey into the RETH of every READ or WRITE it sends here.")
                 .arg(m.captured(1), m.captured(2), m.captured(3), m.captured(4), m.captured(5),
                      m.captured(6));
    x.terms << QStringLiteral("QPN") << QStringLiteral("RETH") << QStringLiteral("rkey");
    return;
  }
  if ((m = postSend.match(call)).hasMatch()) {
    x.title = EventExplainer::tr("ibv_post_send(%1, wr_id %2, %3 bytes)")
                  .arg(m.captured(1), m.captured(2), m.captured(3));
    const QString op = m.captured(1);
    QString kindText;
    if (op.startsWith(QStringLiteral("SEND")))
      kindText = EventExplainer::tr(
          "SEND is two-sided: the peer must have posted a receive WQE to take it.");
    else if (op.startsWith(QStringLiteral("RDMA_WRITE")))
      kindText = EventExplainer::tr(
          "RDMA WRITE is one-sided: it pushes data straight into the peer's registered memory "
          "at the address and rkey it was given; the peer's CPU takes no part.");
    else if (op == QStringLiteral("RDMA_READ"))
      kindText = EventExplainer::tr(
          "RDMA READ is one-sided: it pulls data out of the peer's registered memory at the "
          "address and rkey it was given; the peer's CPU takes no part.");
    else
      kindText = EventExplainer::tr(
          "An atomic operation reads, changes and writes 8 bytes of the peer's "
          "memory in one step and returns the original value.");
    x.body = EventExplainer::tr("The application posts a %1 work request to the send queue. %2")
                 .arg(op, kindText);
    x.terms << (op.startsWith(QStringLiteral("SEND")) ? QStringLiteral("two-sided")
                                                      : QStringLiteral("one-sided"))
            << QStringLiteral("WQE");
    return;
  }
  if ((m = postRecv.match(call)).hasMatch()) {
    x.title =
        EventExplainer::tr("ibv_post_recv(wr_id %1, %2 bytes)").arg(m.captured(1), m.captured(2));
    x.body = EventExplainer::tr(
                 "The application offers a %1-byte buffer to the receive queue. The next SEND "
                 "from the peer lands there; without one the responder must answer RNR NAK.")
                 .arg(m.captured(2));
    x.terms << QStringLiteral("two-sided") << QStringLiteral("RNR");
    return;
  }
  if ((m = poll.match(call)).hasMatch()) {
    x.title = EventExplainer::tr("ibv_poll_cq until %1 completion(s)").arg(m.captured(1));
    x.body = EventExplainer::tr(
        "The application polls its completion queue in a loop until a completion arrives. "
        "Polling needs no interrupt and no system call, but the CPU is busy for as long as it "
        "polls.");
    x.terms << QStringLiteral("CQE");
    return;
  }
  if ((m = pollResult.match(call)).hasMatch()) {
    const auto taken = m.captured(1).count(QLatin1String("wr_id"));
    x.title = taken == 1 ? EventExplainer::tr("ibv_poll_cq returned %1").arg(m.captured(1))
                         : EventExplainer::tr("ibv_poll_cq returned %1 completions").arg(taken);
    x.body = EventExplainer::tr(
                 "The poll took the completion(s): %1. The entries are now marked polled in "
                 "the completion queue; the application may reuse the buffers they name.")
                 .arg(m.captured(1));
    x.terms << QStringLiteral("CQE");
    return;
  }
  if ((m = wait.match(call)).hasMatch()) {
    x.actor = EventExplainer::tr("scenario");
    x.kind = EventExplainer::tr("wait");
    x.title = EventExplainer::tr("let %1 us pass").arg(m.captured(1));
    x.body = EventExplainer::tr(
                 "The scenario lets %1 us of simulated time pass before its next step, so that "
                 "whatever is in flight (frames, timers) may happen first.")
                 .arg(m.captured(1));
    return;
  }
  if ((m = compare.match(call)).hasMatch()) {
    x.actor = EventExplainer::tr("scenario");
    x.kind = EventExplainer::tr("check");
    x.title = EventExplainer::tr("compare %1 bytes of %2 and %3")
                  .arg(m.captured(1), m.captured(2), m.captured(3));
    x.body = EventExplainer::tr(
                 "The scenario checks that the data arrived intact: it compares %1 bytes of "
                 "%2 with %3.")
                 .arg(m.captured(1), m.captured(2), m.captured(3));
    return;
  }
  if ((m = compareResult.match(call)).hasMatch()) {
    x.actor = EventExplainer::tr("scenario");
    x.kind = EventExplainer::tr("check");
    x.title = EventExplainer::tr("%1 bytes %2").arg(m.captured(1), m.captured(2));
    x.body = m.captured(2) == QStringLiteral("equal")
                 ? EventExplainer::tr(
                       "Both buffers hold the same %1 bytes: the transfer delivered the data.")
                       .arg(m.captured(1))
                 : EventExplainer::tr("The buffers differ: the transfer did not deliver the data.");
    return;
  }
  x.kind = EventExplainer::tr("note");
  if (const QString cm = cmNarration(call); !cm.isNull()) {
    // The simulated rdma_cm's own sentences.
    x.kind = EventExplainer::tr("rdma_cm");
    x.title = cm.left(100);
    x.body = cm;
    x.terms << QStringLiteral("PSN") << QStringLiteral("QPN");
    return;
  }
  x.title = call.section(QLatin1Char('\n'), 0, 0).left(100);
  x.body = text;
}

using CK = sim::CephStepKind;

// The explanation of an event of a Ceph messenger recording (ceph_recording.h): a messenger
// step, a frame (RoCEv2, the RDMA stack's TCP side channel, or the POSIX stack's TCP), or the
// NIC placing a SEND's payload into a chunk.
void explainCeph(const ScenarioRecording& rec, std::size_t index, EventExplanation& x) {
  const ScenarioEvent& ev = rec.events[index];
  const bool rdma = rec.transport == RecordingTransport::CephRdma;
  const QString who = x.actor;
  const QString peer =
      ev.host >= 0 ? QString::fromStdString(rec.hostNames[static_cast<std::size_t>(1 - ev.host)])
                   : QString();
  if (ev.trace.kind == K::FrameSent) {
    const auto frame = static_cast<std::size_t>(std::max<std::int64_t>(ev.frame, 0));
    const QString label =
        frame < rec.frameLabels.size() ? QString::fromStdString(rec.frameLabels[frame]) : QString();
    x.title = EventExplainer::tr("frame %1: %2").arg(ev.trace.frameNumber).arg(label);
    if (ev.trace.args.opcode) {
      const std::uint8_t op = *ev.trace.args.opcode;
      if (op == 0x11) {
        x.body = EventExplainer::tr(
                     "%1's NIC acknowledges the SENDs up to PSN %2 (an RC ACK). The NIC does "
                     "this on its own: no CPU of either host takes part, and the client's send "
                     "completions follow from it.")
                     .arg(who, hex(ev.trace.psn));
        x.terms << QStringLiteral("ACK") << QStringLiteral("PSN");
      } else if (op <= 5 && ev.trace.args.bytes && *ev.trace.args.bytes == 0) {
        x.body = EventExplainer::tr(
                     "%1's NIC sends %2 with PSN %3 and no payload: the messenger's close. RDMA "
                     "has no FIN, so Ceph closes with a zero-length SEND; %4's NIC still "
                     "consumes a chunk of its shared receive queue for it and reports a receive "
                     "completion of 0 bytes.")
                     .arg(who, opName(ev.trace.args.opcode), hex(ev.trace.psn), peer);
        x.terms << QStringLiteral("PSN");
      } else {
        x.body =
            EventExplainer::tr(
                "%1's NIC sends %2 with PSN %3 to QP %4 of %5. It reads the payload by DMA "
                "from the registered send chunk the work request names; %5's NIC places it "
                "into the next chunk of its shared receive queue. Ceph's RDMA stack sends "
                "its byte stream two-sided, so the receiver must have chunks posted.")
                .arg(who, opName(ev.trace.args.opcode), hex(ev.trace.psn), hex(ev.trace.qpn), peer);
        x.terms << QStringLiteral("PSN") << QStringLiteral("QPN") << QStringLiteral("RoCE");
      }
    } else if (label.startsWith(QLatin1String("QP info"))) {
      x.body = EventExplainer::tr(
                   "A TCP segment of the side channel carries %1's QP information as Ceph "
                   "formats it: a fixed 65-byte text \"lid:qpn:psn:peer_qpn:gid\" in hex, NUL "
                   "included. The RDMA stack needs the peer's QPN, first PSN and GID before its "
                   "QP can reach RTR, and it learns them here, over TCP, not over RDMA.")
                   .arg(who);
      x.terms << QStringLiteral("QPN") << QStringLiteral("PSN") << QStringLiteral("GID");
    } else if (rdma) {
      x.body = EventExplainer::tr(
                   "A TCP segment of the RDMA stack's side channel, sent by %1's kernel: the "
                   "connection on which both sides swap their QP information (and which closes "
                   "with the messenger's socket). No message bytes travel on it.")
                   .arg(who);
    } else {
      x.body = EventExplainer::tr(
                   "A TCP segment sent by %1's kernel. The POSIX stack hands the message to "
                   "the kernel with send(); the kernel's TCP/IP cuts the socket buffer into "
                   "segments, and the receiving kernel queues them for recv().")
                   .arg(who);
    }
    return;
  }
  if (ev.trace.kind == K::MemoryWritten) {
    x.title =
        EventExplainer::tr("%1 bytes placed at %2").arg(ev.trace.length).arg(hex(ev.trace.address));
    x.body = EventExplainer::tr(
                 "%1's NIC writes the SEND's %2 bytes into the registered chunk it took from the "
                 "shared receive queue, by DMA. No CPU takes part: %1's CPU learns of the data "
                 "only from the receive completion it polls, and then copies it out.")
                 .arg(who)
                 .arg(ev.trace.length);
    return;
  }
  if (!ev.ceph) {
    x.title = QString::fromStdString(ev.trace.args.text);
    x.body = x.title;
    return;
  }
  const sim::CephStep& c = *ev.ceph;
  switch (c.kind) {
    case CK::SideChannelConnected:
      x.title = EventExplainer::tr("TCP connection to port 6800 established");
      x.body = rdma ? EventExplainer::tr(
                          "The client's messenger connected a TCP socket to the OSD. On the "
                          "RDMA stack this socket is only a side channel: it carries the QP "
                          "information, after which the messages travel as RDMA SENDs.")
                    : EventExplainer::tr(
                          "The client's messenger connected a TCP socket to the OSD (SYN, "
                          "SYN-ACK, ACK). On the POSIX stack every message goes through it.");
      break;
    case CK::QpInfoSent:
      x.title = EventExplainer::tr("write() of the QP information");
      x.body = EventExplainer::tr(
                   "%1 writes \"%2\" to the side channel's socket: LID, QPN, first PSN, the "
                   "peer's QPN (0 until it is known) and the GID, in hex. A system call, on %1's "
                   "CPU.")
                   .arg(who, QString::fromStdString(c.text));
      x.terms << QStringLiteral("QPN") << QStringLiteral("PSN") << QStringLiteral("GID");
      break;
    case CK::QpInfoReceived:
      x.title = EventExplainer::tr("read() of %1's QP information").arg(peer);
      x.body = EventExplainer::tr(
                   "%1 reads \"%2\" from the socket and parses it: %3's QPN, first PSN and "
                   "GID go into its QP's RTR attributes. A system call, on %1's CPU.")
                   .arg(who, QString::fromStdString(c.text), peer);
      x.terms << QStringLiteral("QPN") << QStringLiteral("GID");
      break;
    case CK::QpReady:
      x.title = EventExplainer::tr("QP %1 to RTR and RTS").arg(hex(c.qpn));
      x.body = EventExplainer::tr(
                   "%1 calls ibv_modify_qp twice: RTR with %2's QPN, PSN and GID (path MTU "
                   "1024), then RTS with its own PSN (timeout 14, retry 7, RNR retry 7). From "
                   "now on its NIC may send and accept SENDs.")
                   .arg(who, peer);
      x.terms << QStringLiteral("QP") << QStringLiteral("RC");
      break;
    case CK::ReceivesPosted:
      x.title = EventExplainer::tr("%1 chunks posted to the SRQ").arg(c.chunks);
      x.body = EventExplainer::tr(
                   "%1 posts %2 registered chunks of %3 KiB from its memory pool to the shared "
                   "receive queue that all its QPs draw from. A SEND can only land in a posted "
                   "chunk, so the receive side fills the queue before any QP connects.")
                   .arg(who)
                   .arg(c.chunks)
                   .arg(c.chunks ? c.bytes / c.chunks / 1024 : 0);
      x.terms << QStringLiteral("WQE") << QStringLiteral("MR");
      break;
    case CK::MessageSubmitted:
      x.title = EventExplainer::tr("message %1 submitted (%2 bytes)").arg(c.message).arg(c.bytes);
      x.body = EventExplainer::tr(
                   "%1's messenger is given message %2, %3 bytes in a bufferlist, to send to "
                   "%4.")
                   .arg(who)
                   .arg(c.message)
                   .arg(c.bytes)
                   .arg(peer);
      break;
    case CK::ChunkTaken:
      x.title = EventExplainer::tr("send chunk %1 taken for %2 bytes").arg(c.chunk).arg(c.bytes);
      x.body = EventExplainer::tr(
                   "%1 takes chunk %2 from its pool of registered send chunks for the next %3 "
                   "bytes of the stream. Only registered memory can be the source of a SEND.")
                   .arg(who)
                   .arg(c.chunk)
                   .arg(c.bytes);
      x.terms << QStringLiteral("MR");
      break;
    case CK::CopyIntoChunk:
      x.title = EventExplainer::tr("%1 bytes copied into chunk %2").arg(c.bytes).arg(c.chunk);
      x.body = EventExplainer::tr(
                   "%1's CPU copies %2 bytes of the bufferlist into registered chunk %3: the "
                   "bufferlist lives in ordinary memory the NIC may not read, so the RDMA stack "
                   "copies it once on the sending side.")
                   .arg(who)
                   .arg(c.bytes)
                   .arg(c.chunk);
      break;
    case CK::ChunkInPlace:
      x.title = EventExplainer::tr("chunk %1 already holds the bytes").arg(c.chunk);
      x.body = EventExplainer::tr(
                   "The bufferlist was built inside registered chunk %1, so %2 sends its %3 "
                   "bytes from where they lie: no copy.")
                   .arg(c.chunk)
                   .arg(who)
                   .arg(c.bytes);
      break;
    case CK::PostSend:
      x.title = EventExplainer::tr("ibv_post_send of %1 signalled SEND(s)").arg(c.chunks);
      x.body = EventExplainer::tr(
                   "%1's CPU posts %2 SEND work requests (%3 bytes) with one ibv_post_send, "
                   "each signalled so that its chunk can go back to the pool once it "
                   "completes. A doorbell, no system call: the NIC does the rest.")
                   .arg(who)
                   .arg(c.chunks)
                   .arg(c.bytes);
      x.terms << QStringLiteral("WQE");
      break;
    case CK::SendCompletion:
      x.title = c.chunk < 0 ? EventExplainer::tr("send completion of the fin")
                            : EventExplainer::tr("send completion of chunk %1").arg(c.chunk);
      x.body = EventExplainer::tr(
                   "%1's dispatcher polls a send completion from its CQ: %2 acknowledged the "
                   "SEND, so its chunk is free again.")
                   .arg(who, peer);
      x.terms << QStringLiteral("CQE");
      break;
    case CK::ChunkReturned:
      x.title = EventExplainer::tr("send chunk %1 back in the pool").arg(c.chunk);
      x.body = EventExplainer::tr("Chunk %1 returns to %2's send pool for the next message.")
                   .arg(c.chunk)
                   .arg(who);
      break;
    case CK::PoolEmpty:
      x.title = EventExplainer::tr("send pool empty, %1 bytes wait").arg(c.bytes);
      x.body = EventExplainer::tr(
                   "%1 has no free send chunk: the remaining %2 bytes wait until send "
                   "completions return chunks.")
                   .arg(who)
                   .arg(c.bytes);
      break;
    case CK::RecvCompletion:
      x.title =
          EventExplainer::tr("receive completion: chunk %1, %2 bytes").arg(c.chunk).arg(c.bytes);
      x.body = EventExplainer::tr(
                   "%1's dispatcher polls a receive completion: its NIC has placed a SEND of %2 "
                   "bytes into chunk %3 of the shared receive queue. The chunk stays out of the "
                   "queue until the reader has copied it.")
                   .arg(who)
                   .arg(c.bytes)
                   .arg(c.chunk);
      x.terms << QStringLiteral("CQE");
      break;
    case CK::Notified:
      x.title = EventExplainer::tr("connection woken through an eventfd");
      x.body = EventExplainer::tr(
                   "%1's dispatcher thread writes the connection's eventfd and the worker "
                   "thread reads it: two system calls that hand the received chunks over.")
                   .arg(who);
      break;
    case CK::CopyOut:
      x.title = EventExplainer::tr("%1 bytes copied out of chunk %2").arg(c.bytes).arg(c.chunk);
      x.body = EventExplainer::tr(
                   "%1's CPU copies %2 bytes from chunk %3 into the reader's buffer: the "
                   "messenger keeps stream semantics, so received bytes leave the registered "
                   "chunk before it can be reused.")
                   .arg(who)
                   .arg(c.bytes)
                   .arg(c.chunk);
      break;
    case CK::ChunkReposted:
      x.title = EventExplainer::tr("chunk %1 reposted to the SRQ").arg(c.chunk);
      x.body = EventExplainer::tr(
                   "%1 posts chunk %2 back to the shared receive queue (ibv_post_srq_recv), "
                   "ready for a later SEND.")
                   .arg(who)
                   .arg(c.chunk);
      break;
    case CK::MessageDelivered:
      x.title = EventExplainer::tr("message %1 complete (%2 bytes)").arg(c.message).arg(c.bytes);
      x.body = EventExplainer::tr("%1 holds all %2 bytes of message %3.")
                   .arg(who)
                   .arg(c.bytes)
                   .arg(c.message);
      break;
    case CK::FinSent:
      x.title = EventExplainer::tr("close(): a zero-length SEND");
      x.body = EventExplainer::tr(
                   "%1 closes the connection by posting a signalled SEND without payload. RDMA "
                   "has no FIN of its own; the peer takes a receive completion of length 0 as "
                   "the close.")
                   .arg(who);
      break;
    case CK::FinReceived:
      x.title = EventExplainer::tr("zero-length receive: %1 closed").arg(peer);
      x.body = EventExplainer::tr(
                   "%1 polls a receive completion of 0 bytes: the peer's close. It shuts its "
                   "side of the connection down.")
                   .arg(who);
      break;
    case CK::SocketSend:
      x.title = EventExplainer::tr("send() of %1 bytes").arg(c.bytes);
      x.body = EventExplainer::tr(
                   "%1 calls send() on its TCP socket: a system call into %1's kernel, which "
                   "copies the bytes into the socket send buffer.")
                   .arg(who);
      break;
    case CK::SocketCopyIn:
      x.title = EventExplainer::tr("%1 bytes copied into the socket").arg(c.bytes);
      x.body = EventExplainer::tr(
                   "%1's CPU, in the kernel, copies %2 bytes from the message into the socket "
                   "send buffer.")
                   .arg(who)
                   .arg(c.bytes);
      break;
    case CK::SocketRecv:
      x.title = EventExplainer::tr("recv()");
      x.body = EventExplainer::tr(
                   "%1 calls recv() on its TCP socket: a system call into %1's kernel to take "
                   "what has arrived.")
                   .arg(who);
      break;
    case CK::SocketCopyOut:
      x.title = EventExplainer::tr("%1 bytes copied out of the socket").arg(c.bytes);
      x.body = EventExplainer::tr(
                   "%1's CPU, in the kernel, copies %2 bytes from the socket receive buffer to "
                   "the reader.")
                   .arg(who)
                   .arg(c.bytes);
      break;
    case CK::SocketClosed:
      x.title = EventExplainer::tr("socket closed");
      x.body = rdma
                   ? EventExplainer::tr("The side channel's TCP socket closes with the connection.")
                   : EventExplainer::tr("The TCP connection closes: FIN and ACK each way.");
      break;
  }
}

QString wqeTransition(const QString& from, const QString& to) {
  if (to == QLatin1String("processing") && from == QLatin1String("posted"))
    return EventExplainer::tr("the requester started it and is sending its packets");
  if (to == QLatin1String("pending") && from == QLatin1String("processing"))
    return EventExplainer::tr(
        "all its packets have been sent; it now waits for the responder's acknowledgement "
        "(or READ response) before it can complete");
  if (to == QLatin1String("processing") && from == QLatin1String("pending"))
    return EventExplainer::tr("a retry rewound the requester: its packets are being sent again");
  if (to == QLatin1String("posted"))
    return EventExplainer::tr("the requester rewound to it: it will be started again");
  if (to == QLatin1String("done")) return EventExplainer::tr("it is complete");
  if (to == QLatin1String("error")) return EventExplainer::tr("it failed");
  return EventExplainer::tr("its state changed");
}

// Sentences for every send or receive WQE whose state this event changed on its host.
QString wqeChanges(const ScenarioRecording& rec, std::size_t index) {
  const ScenarioEvent& ev = rec.events[index];
  if (ev.host < 0 || index == 0) return {};
  const auto h = static_cast<std::size_t>(ev.host);
  const std::size_t prevSnap = rec.events[index - 1].snapshot;
  if (prevSnap == ev.snapshot || ev.snapshot >= rec.snapshots.size()) return {};
  const HostSnapshot& now = rec.snapshots[ev.snapshot].hosts[h];
  const HostSnapshot& before = rec.snapshots[prevSnap].hosts[h];
  QString out;
  for (const sim::QpView& qp : now.qps) {
    const sim::QpView* old = nullptr;
    for (const sim::QpView& o : before.qps)
      if (o.qpn == qp.qpn) old = &o;
    if (!old) continue;
    for (const sim::WqeView& w : qp.sq) {
      for (const sim::WqeView& o : old->sq) {
        if (o.wrId != w.wrId || o.state == w.state) continue;
        const QString from = QString::fromStdString(o.state), to = QString::fromStdString(w.state);
        out += EventExplainer::tr("\n\nSend WQE wr_id %1: %2 → %3: %4.")
                   .arg(w.wrId)
                   .arg(from, to, wqeTransition(from, to));
      }
    }
  }
  return out;
}

}  // namespace

QString EventExplainer::kindName(const ScenarioEvent& ev) {
  if (ev.ceph) {
    switch (ev.ceph->kind) {
      case CK::SideChannelConnected:
      case CK::SocketClosed:
        return tr("TCP connection");
      case CK::QpInfoSent:
      case CK::QpInfoReceived:
        return tr("side channel");
      case CK::QpReady:
        return tr("QP state");
      case CK::ReceivesPosted:
      case CK::ChunkReposted:
        return tr("shared receive queue");
      case CK::MessageSubmitted:
      case CK::MessageDelivered:
        return tr("messenger");
      case CK::ChunkTaken:
      case CK::ChunkReturned:
      case CK::PoolEmpty:
        return tr("chunk pool");
      case CK::CopyIntoChunk:
      case CK::CopyOut:
      case CK::SocketCopyIn:
      case CK::SocketCopyOut:
        return tr("CPU copy");
      case CK::ChunkInPlace:
        return tr("no copy");
      case CK::PostSend:
      case CK::FinSent:
        return tr("SEND posted");
      case CK::SendCompletion:
      case CK::RecvCompletion:
      case CK::FinReceived:
        return tr("completion polled");
      case CK::Notified:
        return tr("eventfd");
      case CK::SocketSend:
      case CK::SocketRecv:
        return tr("system call");
    }
  }
  switch (ev.trace.kind) {
    case K::QpState:
      return tr("QP state");
    case K::WqePosted:
      return tr("WQE posted");
    case K::WqeStarted:
      return tr("WQE started");
    case K::WqePacket:
      return tr("packet built");
    case K::WqeCompleted:
      return tr("WQE completed");
    case K::FrameSent:
      return tr("frame sent");
    case K::FrameReceived:
      return tr("frame received");
    case K::FrameDropped:
      return tr("frame dropped");
    case K::CqeProduced:
      return tr("completion");
    case K::MemoryRead:
      return tr("DMA read");
    case K::MemoryWritten:
      return tr("DMA write");
    case K::TimerArmed:
      return tr("timer armed");
    case K::TimerFired:
      return tr("timer fired");
    case K::Note:
      switch (ev.trace.what) {
        case N::Text:
          return tr("verbs call");
        case N::GoBackN:
        case N::RetryStarted:
        case N::RetryExhausted:
        case N::RdAtomicWait:
        case N::FenceWait:
        case N::UdTooLong:
        case N::LocalProtectionError:
          return tr("requester");
        case N::UcMessageAbandoned:
        case N::UcRestDropped:
        case N::UcNoRecvWqeDropped:
        case N::DuplicateReadReplayed:
        case N::DuplicateAtomicReplayed:
        case N::DuplicateReadUnmatched:
          return tr("responder");
        case N::RdmaCmBind:
        case N::RdmaCmListen:
        case N::RdmaCmResolve:
        case N::RdmaCmConnect:
        case N::RdmaCmAccept:
        case N::RdmaCmEstablished:
          return tr("rdma_cm");
        case N::MpaRequestSent:
        case N::MpaRequestReceived:
        case N::MpaReplySent:
        case N::MpaReplyReceived:
          return tr("MPA");
        case N::StagRegistered:
          return tr("memory registration");
        case N::DdpSegmentPlaced:
          return tr("DDP placement");
        case N::IwarpTerminateSent:
          return tr("RDMAP");
        case N::TcpSendCall:
        case N::TcpRecvCall:
          return tr("system call");
        case N::TcpCopy:
          return tr("CPU copy");
        case N::TcpSocketBuffers:
          return tr("socket buffers");
        case N::TcpAppSleeps:
        case N::TcpWriterWoken:
        case N::TcpReaderWoken:
          return tr("scheduler");
        case N::TcpTransmitWork:
        case N::TcpInterrupt:
          return tr("kernel TCP/IP");
        case N::TcpEstablished:
        case N::TcpReset:
        case N::TcpClosed:
          return tr("TCP connection");
        default:
          return tr("note");
      }
  }
  return tr("event");
}

QString EventExplainer::compactModifyQp(const QString& state, int attributes) {
  return attributes == 1 ? tr("ibv_modify_qp → %1 (1 attribute)").arg(state)
                         : tr("ibv_modify_qp → %1 (%2 attributes)").arg(state).arg(attributes);
}

QString EventExplainer::maskBitMeaning(const QString& bit) {
  if (bit == QLatin1String("IBV_QP_STATE")) return tr("the new state");
  if (bit == QLatin1String("IBV_QP_ACCESS_FLAGS"))
    return tr("which remote operations (READ, WRITE, atomic) peers may perform");
  if (bit == QLatin1String("IBV_QP_PKEY_INDEX"))
    return tr("the partition key (P_Key) the QP's packets carry");
  if (bit == QLatin1String("IBV_QP_PORT")) return tr("the NIC port the QP uses");
  if (bit == QLatin1String("IBV_QP_QKEY")) return tr("the Q_Key a UD datagram must carry");
  if (bit == QLatin1String("IBV_QP_AV"))
    return tr("the address vector: the peer's GID or LID, where packets go");
  if (bit == QLatin1String("IBV_QP_PATH_MTU")) return tr("the largest payload per packet");
  if (bit == QLatin1String("IBV_QP_RQ_PSN")) return tr("the first PSN expected from the peer");
  if (bit == QLatin1String("IBV_QP_DEST_QPN")) return tr("the peer's QP number");
  if (bit == QLatin1String("IBV_QP_MIN_RNR_TIMER"))
    return tr("how long a sender is told to wait after an RNR NAK");
  if (bit == QLatin1String("IBV_QP_MAX_DEST_RD_ATOMIC"))
    return tr("how many READs/atomics from the peer may be outstanding");
  if (bit == QLatin1String("IBV_QP_TIMEOUT")) return tr("the retransmit timeout exponent");
  if (bit == QLatin1String("IBV_QP_RETRY_CNT")) return tr("how often to resend after a timeout");
  if (bit == QLatin1String("IBV_QP_RNR_RETRY")) return tr("how often to resend after an RNR NAK");
  if (bit == QLatin1String("IBV_QP_MAX_QP_RD_ATOMIC"))
    return tr("how many READs/atomics this QP may have outstanding");
  if (bit == QLatin1String("IBV_QP_SQ_PSN")) return tr("the first PSN this QP sends");
  return tr("an attribute of ibv_qp_attr");
}

namespace {

// The remote region a one-sided post or a RETH names, and the MR of the responder it finds.
QString remoteTargetText(const ScenarioRecording& rec, const ScenarioEvent& ev) {
  const RemoteTarget& t = *ev.remote;
  const auto owner = static_cast<std::size_t>(t.host);
  const QString host = QString::fromStdString(rec.hostNames[owner]);
  const bool frame = ev.trace.kind == K::FrameSent;
  // What the operation needs of the MR.
  unsigned need = sim::access::kRemoteAtomic;
  QString needName = QStringLiteral("IBV_ACCESS_REMOTE_ATOMIC");
  const std::uint8_t op =
      frame ? static_cast<std::uint8_t>(ev.trace.args.opcode.value_or(0) & 0x1f) : std::uint8_t{0};
  const std::string& text = ev.trace.args.text;
  if ((frame && op >= 0x06 && op <= 0x0b) ||
      (!frame && text.find("RDMA_WRITE") != std::string::npos)) {
    need = sim::access::kRemoteWrite;
    needName = QStringLiteral("IBV_ACCESS_REMOTE_WRITE");
  } else if ((frame && op == 0x0c) || (!frame && text.find("RDMA_READ") != std::string::npos)) {
    need = sim::access::kRemoteRead;
    needName = QStringLiteral("IBV_ACCESS_REMOTE_READ");
  }
  QString out =
      frame ? EventExplainer::tr("Its RETH names %1 bytes at remote address %2 with rkey %3.")
                  .arg(t.length)
                  .arg(hex(t.addr), hex(t.rkey))
      : rec.cm ? EventExplainer::tr(
                     "The work request names %1's memory by remote address %2 and rkey %3, the "
                     "values %1 published in the private data of its CM message.")
                     .arg(host, hex(t.addr), hex(t.rkey))
               : EventExplainer::tr(
                     "The work request names %1's memory by remote address %2 and rkey %3, the "
                     "values %1 published in the out-of-band exchange.")
                     .arg(host, hex(t.addr), hex(t.rkey));
  const Snapshot& snap = rec.snapshots[ev.snapshot];
  const auto& mrs = snap.hosts[owner].mrs;
  if (t.mr < 0 || static_cast<std::size_t>(t.mr) >= mrs.size()) {
    out += QLatin1Char(' ') + EventExplainer::tr(
                                  "No MR of %1 has rkey %2: its responder will "
                                  "refuse the request (remote access error).")
                                  .arg(host, hex(t.rkey));
    return out;
  }
  const MrSnapshot& m = mrs[static_cast<std::size_t>(t.mr)];
  out += QLatin1Char(' ') +
         EventExplainer::tr("That rkey is %1's MR #%2 %3: %4 bytes at %5, access %6.")
             .arg(host)
             .arg(t.mr + 1)
             .arg(QString::fromStdString(m.name))
             .arg(m.length)
             .arg(hex(m.addr), ibvAccessNames(m.access));
  if (!(m.access & need))
    out += QLatin1Char(' ') + EventExplainer::tr(
                                  "The MR lacks %1, so %2's responder will refuse "
                                  "the request (remote access error).")
                                  .arg(needName, host);
  else if (t.addr < m.addr || t.addr - m.addr > m.length || t.length > m.length - (t.addr - m.addr))
    out += QLatin1Char(' ') +
           EventExplainer::tr(
               "The range does not lie inside the MR, so %1's responder will refuse "
               "the request (remote access error).")
               .arg(host);
  else
    out += QLatin1Char(' ') +
           EventExplainer::tr("The range lies at offset %1 of it.").arg(hex(t.addr - m.addr));
  return out;
}

}  // namespace

EventExplanation EventExplainer::explain(const ScenarioRecording& rec, std::size_t index) {
  EventExplanation x;
  const ScenarioEvent& ev = rec.events[index];
  x.actor = ev.host >= 0 ? QString::fromStdString(rec.hostNames[static_cast<std::size_t>(ev.host)])
                         : tr("link");
  x.kind = kindName(ev);
  if (isCeph(rec.transport)) {
    explainCeph(rec, index, x);
  } else if (ev.trace.what == N::Text && ev.trace.kind == K::Note) {
    explainNote(rec, index, x);
  } else {
    explainTyped(rec, ev, x);
  }
  if (x.title.isEmpty()) x.title = QString::fromStdString(ev.trace.args.text);
  if (x.body.isEmpty()) x.body = x.title;
  if (ev.remote) {
    x.body += QStringLiteral("\n\n") + remoteTargetText(rec, ev);
    x.terms << QStringLiteral("rkey") << QStringLiteral("RETH");
  }
  x.body += wqeChanges(rec, index);
  x.title = tr("%1 · %2: %3").arg(x.actor, x.kind, x.title);
  return x;
}

}  // namespace rdmascope::ui
