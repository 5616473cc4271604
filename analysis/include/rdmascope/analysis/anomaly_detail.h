#pragma once
/// @file anomaly_detail.h
/// The typed form of an anomaly's one-line detail: which phrase it is and its arguments, small
/// plain data beside the Anomaly's own fields (psn, relatedFrame, count, wait). The English
/// `Anomaly::detail` is rendered from it by anomalyDetailText(), the GUI renders it in its
/// language; rare phrases naming addresses, ports or tshark's Terminate reason keep those
/// names in Anomaly::detailNames.

#include <cstdint>
#include <string>
#include <string_view>

namespace rdmascope::analysis {

struct Anomaly;

/// The phrases of anomaly details. In the comments {psn}, {relatedFrame}, {count}, {wait} are
/// the Anomaly's fields, {from}, {to}, {number}, {code}, {seconds} the AnomalyDetail's,
/// {names[i]} Anomaly::detailNames, and [unseen] the suffix of AnomalyDetail::unseen.
enum class DetailPhrase : std::uint8_t {
  None,  ///< no detail (an anomaly made by hand)
  // InfiniBand transport (RoCEv2, RoCEv1, native IB)
  PsnGap,             ///< "expected PSN {from}, got {psn}: {count} PSN(s) missing"
  ReadResponseGap,    ///< "READ response: " + PsnGap
  ResentGoBackN,      ///< "PSN {psn} resent (go-back-N after the {cause}[ in frame {rf}])" [unseen]
  ResentAfterRnrNak,  ///< "PSN {psn} resent {wait} after the RNR NAK in frame {rf}" [unseen]
  ResentAfterNak,     ///< "PSN {psn} resent after the NAK in frame {rf}" [unseen]
  CopyOfFrame,        ///< "PSN {psn} is a copy of frame {relatedFrame}"
  ResentAfterTimeout,  ///< "PSN {psn} resent after a timeout"
  AckTimerFired,    ///< "PSN {psn} sent again, not prompted by a NAK, after {wait} of silence..."
  ReadReRequested,  ///< "READ re-requested from PSN {psn} (its responses did not all reach...)"
  ReadReRequestedResponsesMissing,  ///< "READ re-requested from PSN {psn} (responses missing)"
  ArrivedGoBackN,          ///< "missing PSN {psn} arrived (go-back-N after the {cause})" [unseen]
  ArrivedAfterNak,         ///< "missing PSN {psn} arrived after the NAK in frame {rf}" [unseen]
  ArrivedLate,             ///< "PSN {psn} arrived late, out of order"
  ArrivedAfterTimeout,     ///< "missing PSN {psn} arrived after a timeout"
  ReceiverNotReady,        ///< "receiver not ready at PSN {psn}, retry after {timer(code)} ms"
  NakAtPsn,                ///< "{nakCodeName(code)} at PSN {psn}"
  AtomicAckUnexpected,     ///< "atomic ACK for no outstanding atomic"
  ReadResponseUnexpected,  ///< "READ response PSN {psn} for no outstanding READ"
  ReadResponseAgain,       ///< "READ response PSN {psn} received again"
  IcrcWrong,               ///< "invariant CRC wrong: the receiver drops this frame (PSN {psn})"
  CmReject,  ///< "CM ConnectReject of {code: REQ|REP|a message} from {names[0]}: {reason}..."
  EcnCe,     ///< "IP ECN congestion experienced"
  Fecn,      ///< "BTH FECN set: congestion on the way to the receiver"
  Becn,      ///< "BTH BECN set: congestion reported back to the sender"
  CnpToQp,   ///< "congestion notification to QP {number}"
  NeverAcknowledged,  ///< "{MessageKind code} from PSN {psn} never acknowledged"
  NeverFullySent,     ///< "{MessageKind code} from PSN {psn} never fully sent"
  // Lossless Ethernet
  PauseStorm,      ///< "{priority code-1} held paused by {names[0]} for {wait} without a break..."
  VictimFlow,      ///< "flow to {names[0]} held {wait} by PFC on {priority} (from {names[1]})..."
  CnpWithoutMark,  ///< "CNP to QP {number} with no CE-marked packet of its flow ..."
  // iWARP ({segment}: "TCP seq {psn} ({number} byte(s))", "SYN" or "SYN-ACK" by code 0, 1, 2)
  TcpBytesMissing,        ///< "TCP seq {psn}: {number} bytes before it not seen"
  TcpOutOfOrder,          ///< "TCP seq {psn} ({number} bytes) arrived out of order, {seconds}..."
  TcpCopyOfFrame,         ///< "{segment} is a copy of frame {relatedFrame}"
  TcpFastRetransmission,  ///< "{segment} resent after {from} duplicate ACKs (fast retransmission)"
  TcpSpuriousRetransmission,  ///< "{segment} resent though already acknowledged (spurious ...)"
  TcpResentAfterNewest,       ///< "{segment} resent {wait} after the newest bytes"
  TcpTimerFired,       ///< "{segment} sent again, not prompted by duplicate ACKs, {wait} after ..."
  MpaReplyRejects,     ///< "MPA Reply rejects the connection"
  MpaCrcWrong,         ///< "FPDU at TCP seq {psn}: MPA CRC32c wrong, the receiver drops it ..."
  ReadResponseNoRead,  ///< "Read Response to STag {number, 0x%08x} for no outstanding Read"
  Terminate,           ///< "Terminate[ ({names[0]})]"
  TcpNeverAcknowledged,  ///< "{MessageKind code} from TCP seq {psn} never acknowledged"
  TcpNeverAnswered,      ///< "{MessageKind code} from TCP seq {psn} never answered"
  TcpNeverFullySent,     ///< "{MessageKind code} from TCP seq {psn} never fully sent"
};
inline constexpr int kDetailPhraseCount = static_cast<int>(DetailPhrase::TcpNeverFullySent) + 1;

/// PSNs of a retry never seen: the suffix of the phrases marked [unseen].
enum class UnseenPsns : std::uint8_t {
  None,
  One,    ///< " (its PSN {from} not seen)"
  Range,  ///< " (its PSNs {from}..{to} not seen)"
};

/// An anomaly's phrase and the arguments its Anomaly fields do not hold.
struct AnomalyDetail {
  DetailPhrase phrase = DetailPhrase::None;
  /// RetryCause (go-back-N), NAK code, RNR timer code, MessageKind, CM message rejected (0 REQ,
  /// 1 REP, else another), PFC priority + 1 (0: every priority), iWARP segment (0 TCP bytes,
  /// 1 SYN, 2 SYN-ACK).
  std::uint8_t code = 0;
  UnseenPsns unseen = UnseenPsns::None;
  bool hasPort = false;      ///< CmReject: {from} is the RDMA CM port
  std::uint32_t number = 0;  ///< QP, bytes, STag, CM reject reason, flows ...
  std::uint32_t from = 0;    ///< expected PSN, first PSN not seen, duplicate ACKs, CM port
  std::uint32_t to = 0;      ///< last PSN not seen
  double seconds = 0.0;      ///< TcpOutOfOrder: since the later bytes
};

/// The name of a phrase's enumerator ("PsnGap"), for tests and diagnostics.
std::string_view toString(DetailPhrase phrase);

/// The English one-line detail of an anomaly, from its typed form (what Anomaly::detail holds).
std::string anomalyDetailText(const Anomaly& a);

/// "12.3 us" below a millisecond, else "4.567 ms": waits and delays in anomaly details.
std::string durationText(double seconds);

/// The RNR NAK timer of an encoded value in milliseconds, as ReceiverNotReady shows it.
double rnrTimerMilliseconds(std::uint8_t code);

}  // namespace rdmascope::analysis
