#include "rdmascope/ui/anomaly_text.h"

#include <QCoreApplication>

#include "rdmascope/packets/mad_headers.h"

namespace rdmascope::ui {

namespace {

// The tr() context of the phrases below.
class AnomalyDetailText {
  Q_DECLARE_TR_FUNCTIONS(AnomalyDetailText)
};

using analysis::DetailPhrase;

QString num(std::uint64_t v) {
  return QString::number(v);
}

QString ascii(std::string_view s) {
  return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

// As analysis::durationText: "12.3 us" below a millisecond, else "4.567 ms".
QString duration(double seconds) {
  if (seconds < 1e-3)
    return AnomalyDetailText::tr("%1 us").arg(QString::asprintf("%.1f", seconds * 1e6));
  return AnomalyDetailText::tr("%1 ms").arg(QString::asprintf("%.3f", seconds * 1e3));
}

QString retryCause(std::uint8_t code) {
  switch (static_cast<analysis::RetryCause>(code)) {
    case analysis::RetryCause::None:
      return AnomalyDetailText::tr("none", "retry cause");
    case analysis::RetryCause::Nak:
      return AnomalyDetailText::tr("NAK", "retry cause");
    case analysis::RetryCause::Rnr:
      return AnomalyDetailText::tr("RNR NAK", "retry cause");
    case analysis::RetryCause::Timeout:
      return AnomalyDetailText::tr("timeout", "retry cause");
  }
  return ascii(analysis::toString(static_cast<analysis::RetryCause>(code)));
}

// As packets::nakCodeName.
QString nakCodeName(std::uint8_t code) {
  switch (code) {
    case 0:
      return AnomalyDetailText::tr("PSN sequence error");
    case 1:
      return AnomalyDetailText::tr("invalid request");
    case 2:
      return AnomalyDetailText::tr("remote access error");
    case 3:
      return AnomalyDetailText::tr("remote operational error");
    case 4:
      return AnomalyDetailText::tr("invalid RD request");
    default:
      return AnomalyDetailText::tr("reserved NAK code");
  }
}

QString unseen(const analysis::AnomalyDetail& d) {
  switch (d.unseen) {
    case analysis::UnseenPsns::None:
      break;
    case analysis::UnseenPsns::One:
      return AnomalyDetailText::tr(" (its PSN %1 not seen)").arg(num(d.from));
    case analysis::UnseenPsns::Range:
      return AnomalyDetailText::tr(" (its PSNs %1..%2 not seen)").arg(num(d.from), num(d.to));
  }
  return {};
}

QString priority(std::uint8_t code) {
  if (code == 0) return AnomalyDetailText::tr("every priority (802.3x PAUSE)");
  return AnomalyDetailText::tr("priority %1").arg(code - 1);
}

QString segment(const analysis::Anomaly& a) {
  if (a.what.code == 1) return AnomalyDetailText::tr("SYN");
  if (a.what.code == 2) return AnomalyDetailText::tr("SYN-ACK");
  if (a.what.number == 1) return AnomalyDetailText::tr("TCP seq %1 (1 byte)").arg(num(a.psn));
  return AnomalyDetailText::tr("TCP seq %1 (%2 bytes)").arg(num(a.psn), num(a.what.number));
}

QString kindName(std::uint8_t code) {
  return ascii(analysis::toString(static_cast<analysis::MessageKind>(code)));
}

QString nameAt(const analysis::Anomaly& a, std::size_t i) {
  return i < a.detailNames.size() ? QString::fromStdString(a.detailNames[i]) : QString();
}

}  // namespace

QString anomalyDetail(const analysis::Anomaly& a) {
  const analysis::AnomalyDetail& d = a.what;
  const QString psn = num(a.psn);
  const QString related = num(a.relatedFrame);
  switch (d.phrase) {
    case DetailPhrase::None:
      break;
    case DetailPhrase::PsnGap:
    case DetailPhrase::ReadResponseGap: {
      const QString gap = a.count == 1
                              ? AnomalyDetailText::tr("expected PSN %1, got %2: 1 PSN missing")
                                    .arg(num(d.from), psn)
                              : AnomalyDetailText::tr("expected PSN %1, got %2: %3 PSNs missing")
                                    .arg(num(d.from), psn, num(a.count));
      return d.phrase == DetailPhrase::PsnGap ? gap
                                              : AnomalyDetailText::tr("READ response: %1").arg(gap);
    }
    case DetailPhrase::ResentGoBackN:
      return (a.relatedFrame
                  ? AnomalyDetailText::tr("PSN %1 resent (go-back-N after the %2 in frame %3)")
                        .arg(psn, retryCause(d.code), related)
                  : AnomalyDetailText::tr("PSN %1 resent (go-back-N after the %2)")
                        .arg(psn, retryCause(d.code))) +
             unseen(d);
    case DetailPhrase::ResentAfterRnrNak:
      return AnomalyDetailText::tr("PSN %1 resent %2 after the RNR NAK in frame %3")
                 .arg(psn, duration(a.wait), related) +
             unseen(d);
    case DetailPhrase::ResentAfterNak:
      return AnomalyDetailText::tr("PSN %1 resent after the NAK in frame %2").arg(psn, related) +
             unseen(d);
    case DetailPhrase::CopyOfFrame:
      return AnomalyDetailText::tr("PSN %1 is a copy of frame %2").arg(psn, related);
    case DetailPhrase::ResentAfterTimeout:
      return AnomalyDetailText::tr("PSN %1 resent after a timeout").arg(psn);
    case DetailPhrase::AckTimerFired:
      return AnomalyDetailText::tr(
                 "PSN %1 sent again, not prompted by a NAK, after %2 of silence: the ACK timer "
                 "fired")
          .arg(psn, duration(a.wait));
    case DetailPhrase::ReadReRequested:
      return AnomalyDetailText::tr(
                 "READ re-requested from PSN %1 (its responses did not all reach the requester)")
          .arg(psn);
    case DetailPhrase::ReadReRequestedResponsesMissing:
      return AnomalyDetailText::tr("READ re-requested from PSN %1 (responses missing)").arg(psn);
    case DetailPhrase::ArrivedGoBackN:
      return AnomalyDetailText::tr("missing PSN %1 arrived (go-back-N after the %2)")
                 .arg(psn, retryCause(d.code)) +
             unseen(d);
    case DetailPhrase::ArrivedAfterNak:
      return AnomalyDetailText::tr("missing PSN %1 arrived after the NAK in frame %2")
                 .arg(psn, related) +
             unseen(d);
    case DetailPhrase::ArrivedLate:
      return AnomalyDetailText::tr("PSN %1 arrived late, out of order").arg(psn);
    case DetailPhrase::ArrivedAfterTimeout:
      return AnomalyDetailText::tr("missing PSN %1 arrived after a timeout").arg(psn);
    case DetailPhrase::ReceiverNotReady:
      return AnomalyDetailText::tr("receiver not ready at PSN %1, retry after %2 ms")
          .arg(psn, QString::asprintf("%.2f", analysis::rnrTimerMilliseconds(d.code)));
    case DetailPhrase::NakAtPsn:
      return AnomalyDetailText::tr("%1 at PSN %2").arg(nakCodeName(d.code), psn);
    case DetailPhrase::AtomicAckUnexpected:
      return AnomalyDetailText::tr("atomic ACK for no outstanding atomic");
    case DetailPhrase::ReadResponseUnexpected:
      return AnomalyDetailText::tr("READ response PSN %1 for no outstanding READ").arg(psn);
    case DetailPhrase::ReadResponseAgain:
      return AnomalyDetailText::tr("READ response PSN %1 received again").arg(psn);
    case DetailPhrase::IcrcWrong:
      return AnomalyDetailText::tr("invariant CRC wrong: the receiver drops this frame (PSN %1)")
          .arg(psn);
    case DetailPhrase::CmReject: {
      const QString message = d.code == 1   ? QStringLiteral("REP")
                              : d.code == 0 ? QStringLiteral("REQ")
                                            : AnomalyDetailText::tr("a message");
      const auto reasonName = packets::cmRejectReasonName(static_cast<std::uint16_t>(d.number));
      const QString reason =
          reasonName.empty() ? AnomalyDetailText::tr("reserved reason") : ascii(reasonName);
      const QString text = AnomalyDetailText::tr("CM ConnectReject of %1 from %2: %3 (%4)")
                               .arg(message, nameAt(a, 0), reason, num(d.number));
      return d.hasPort ? AnomalyDetailText::tr("%1, port %2").arg(text, num(d.from)) : text;
    }
    case DetailPhrase::EcnCe:
      return AnomalyDetailText::tr("IP ECN congestion experienced");
    case DetailPhrase::Fecn:
      return AnomalyDetailText::tr("BTH FECN set: congestion on the way to the receiver");
    case DetailPhrase::Becn:
      return AnomalyDetailText::tr("BTH BECN set: congestion reported back to the sender");
    case DetailPhrase::CnpToQp:
      return AnomalyDetailText::tr("congestion notification to QP %1").arg(num(d.number));
    case DetailPhrase::NeverAcknowledged:
      return AnomalyDetailText::tr("%1 from PSN %2 never acknowledged").arg(kindName(d.code), psn);
    case DetailPhrase::NeverFullySent:
      return AnomalyDetailText::tr("%1 from PSN %2 never fully sent").arg(kindName(d.code), psn);
    case DetailPhrase::PauseStorm:
      return AnomalyDetailText::tr(
                 "%1 held paused by %2 for %3 without a break (since frame %4): a receiver that "
                 "does not drain, or a cyclic buffer dependency (deadlock)")
          .arg(priority(d.code), nameAt(a, 0), duration(a.wait), related);
    case DetailPhrase::VictimFlow:
      return AnomalyDetailText::tr(
                 "flow to %1 held %2 by PFC on %3 (from %4) although its receiver was not "
                 "congested: head-of-line blocking behind the %5 paused flows to %6")
          .arg(nameAt(a, 0), duration(a.wait), priority(d.code), nameAt(a, 1), num(d.number),
               nameAt(a, 2));
    case DetailPhrase::CnpWithoutMark:
      return AnomalyDetailText::tr(
                 "CNP to QP %1 with no CE-marked packet of its flow in the capture since its "
                 "previous CNP: marked after the capture point, or the capture missed it")
          .arg(num(d.number));
    case DetailPhrase::TcpBytesMissing:
      return AnomalyDetailText::tr("TCP seq %1: %2 bytes before it not seen")
          .arg(psn, num(d.number));
    case DetailPhrase::TcpOutOfOrder:
      return AnomalyDetailText::tr(
                 "TCP seq %1 (%2 bytes) arrived out of order, %3 after later bytes")
          .arg(psn, num(d.number), duration(d.seconds));
    case DetailPhrase::TcpCopyOfFrame:
      return AnomalyDetailText::tr("%1 is a copy of frame %2").arg(segment(a), related);
    case DetailPhrase::TcpFastRetransmission:
      return AnomalyDetailText::tr("%1 resent after %2 duplicate ACKs (fast retransmission)")
          .arg(segment(a), num(d.from));
    case DetailPhrase::TcpSpuriousRetransmission:
      return AnomalyDetailText::tr(
                 "%1 resent though already acknowledged (spurious retransmission)")
          .arg(segment(a));
    case DetailPhrase::TcpResentAfterNewest:
      return AnomalyDetailText::tr("%1 resent %2 after the newest bytes")
          .arg(segment(a), duration(a.wait));
    case DetailPhrase::TcpTimerFired:
      return AnomalyDetailText::tr(
                 "%1 sent again, not prompted by duplicate ACKs, %2 after the newest bytes: the "
                 "retransmission timer fired")
          .arg(segment(a), duration(a.wait));
    case DetailPhrase::MpaReplyRejects:
      return AnomalyDetailText::tr("MPA Reply rejects the connection");
    case DetailPhrase::MpaCrcWrong:
      return AnomalyDetailText::tr(
                 "FPDU at TCP seq %1: MPA CRC32c wrong, the receiver drops it and ends the "
                 "connection")
          .arg(psn);
    case DetailPhrase::ReadResponseNoRead:
      return AnomalyDetailText::tr("Read Response to STag %1 for no outstanding Read")
          .arg(QString::asprintf("0x%08x", d.number));
    case DetailPhrase::Terminate:
      return a.detailNames.empty() ? AnomalyDetailText::tr("Terminate")
                                   : AnomalyDetailText::tr("Terminate (%1)").arg(nameAt(a, 0));
    case DetailPhrase::TcpNeverAcknowledged:
      return AnomalyDetailText::tr("%1 from TCP seq %2 never acknowledged")
          .arg(kindName(d.code), psn);
    case DetailPhrase::TcpNeverAnswered:
      return AnomalyDetailText::tr("%1 from TCP seq %2 never answered").arg(kindName(d.code), psn);
    case DetailPhrase::TcpNeverFullySent:
      return AnomalyDetailText::tr("%1 from TCP seq %2 never fully sent")
          .arg(kindName(d.code), psn);
  }
  return QString::fromStdString(a.detail);
}

}  // namespace rdmascope::ui
