#include "rdmascope/analysis/anomaly_detail.h"

#include <charconv>
#include <cstdio>

#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/packets/ib_headers.h"
#include "rdmascope/packets/mad_headers.h"

namespace rdmascope::analysis {
namespace {

constexpr std::string_view kPhraseNames[] = {"None",
                                             "PsnGap",
                                             "ReadResponseGap",
                                             "ResentGoBackN",
                                             "ResentAfterRnrNak",
                                             "ResentAfterNak",
                                             "CopyOfFrame",
                                             "ResentAfterTimeout",
                                             "AckTimerFired",
                                             "ReadReRequested",
                                             "ReadReRequestedResponsesMissing",
                                             "ArrivedGoBackN",
                                             "ArrivedAfterNak",
                                             "ArrivedLate",
                                             "ArrivedAfterTimeout",
                                             "ReceiverNotReady",
                                             "NakAtPsn",
                                             "AtomicAckUnexpected",
                                             "ReadResponseUnexpected",
                                             "ReadResponseAgain",
                                             "IcrcWrong",
                                             "CmReject",
                                             "EcnCe",
                                             "Fecn",
                                             "Becn",
                                             "CnpToQp",
                                             "NeverAcknowledged",
                                             "NeverFullySent",
                                             "PauseStorm",
                                             "VictimFlow",
                                             "CnpWithoutMark",
                                             "TcpBytesMissing",
                                             "TcpOutOfOrder",
                                             "TcpCopyOfFrame",
                                             "TcpFastRetransmission",
                                             "TcpSpuriousRetransmission",
                                             "TcpResentAfterNewest",
                                             "TcpTimerFired",
                                             "MpaReplyRejects",
                                             "MpaCrcWrong",
                                             "ReadResponseNoRead",
                                             "Terminate",
                                             "TcpNeverAcknowledged",
                                             "TcpNeverAnswered",
                                             "TcpNeverFullySent"};
static_assert(std::size(kPhraseNames) == static_cast<std::size_t>(kDetailPhraseCount));

// Appends text to one string; numbers as std::to_string writes them.
struct Line {
  std::string s;
  Line& operator<<(std::string_view v) {
    s += v;
    return *this;
  }
  Line& operator<<(char c) {
    s += c;
    return *this;
  }
  template <class T>
  requires std::is_integral_v<T> Line& operator<<(T v) {
    char buf[24];
    s.append(buf, static_cast<std::size_t>(std::to_chars(buf, buf + sizeof buf, v).ptr - buf));
    return *this;
  }
};

std::string_view nameAt(const Anomaly& a, std::size_t i) {
  return i < a.detailNames.size() ? std::string_view(a.detailNames[i]) : std::string_view();
}

void unseen(Line& l, const AnomalyDetail& d) {
  if (d.unseen == UnseenPsns::One) l << " (its PSN " << d.from << " not seen)";
  if (d.unseen == UnseenPsns::Range) l << " (its PSNs " << d.from << ".." << d.to << " not seen)";
}

void priority(Line& l, std::uint8_t code) {
  if (code == 0)
    l << "every priority (802.3x PAUSE)";
  else
    l << "priority " << code - 1;
}

void segment(Line& l, const Anomaly& a) {
  if (a.what.code == 1) {
    l << "SYN";
  } else if (a.what.code == 2) {
    l << "SYN-ACK";
  } else {
    l << "TCP seq " << a.psn << " (" << a.what.number
      << (a.what.number == 1 ? " byte)" : " bytes)");
  }
}

std::string_view kindName(std::uint8_t code) {
  return toString(static_cast<MessageKind>(code));
}

}  // namespace

std::string_view toString(DetailPhrase phrase) {
  const auto i = static_cast<std::size_t>(phrase);
  return i < std::size(kPhraseNames) ? kPhraseNames[i] : std::string_view("?");
}

std::string durationText(double seconds) {
  char buf[48];
  if (seconds < 1e-3) {
    std::snprintf(buf, sizeof buf, "%.1f us", seconds * 1e6);
  } else {
    std::snprintf(buf, sizeof buf, "%.3f ms", seconds * 1e3);
  }
  return buf;
}

double rnrTimerMilliseconds(std::uint8_t code) {
  return packets::rnrTimerMicroseconds(code) / 1000.0;
}

std::string anomalyDetailText(const Anomaly& a) {
  const AnomalyDetail& d = a.what;
  Line l;
  switch (d.phrase) {
    case DetailPhrase::None:
      break;
    case DetailPhrase::ReadResponseGap:
      l << "READ response: ";
      [[fallthrough]];
    case DetailPhrase::PsnGap:
      l << "expected PSN " << d.from << ", got " << a.psn << ": " << a.count
        << (a.count == 1 ? " PSN" : " PSNs") << " missing";
      break;
    case DetailPhrase::ResentGoBackN:
      l << "PSN " << a.psn << " resent (go-back-N after the "
        << toString(static_cast<RetryCause>(d.code));
      if (a.relatedFrame) l << " in frame " << a.relatedFrame;
      l << ')';
      unseen(l, d);
      break;
    case DetailPhrase::ResentAfterRnrNak:
      l << "PSN " << a.psn << " resent " << durationText(a.wait) << " after the RNR NAK in frame "
        << a.relatedFrame;
      unseen(l, d);
      break;
    case DetailPhrase::ResentAfterNak:
      l << "PSN " << a.psn << " resent after the NAK in frame " << a.relatedFrame;
      unseen(l, d);
      break;
    case DetailPhrase::CopyOfFrame:
      l << "PSN " << a.psn << " is a copy of frame " << a.relatedFrame;
      break;
    case DetailPhrase::ResentAfterTimeout:
      l << "PSN " << a.psn << " resent after a timeout";
      break;
    case DetailPhrase::AckTimerFired:
      l << "PSN " << a.psn << " sent again, not prompted by a NAK, after " << durationText(a.wait)
        << " of silence: the ACK timer fired";
      break;
    case DetailPhrase::ReadReRequested:
      l << "READ re-requested from PSN " << a.psn
        << " (its responses did not all reach the requester)";
      break;
    case DetailPhrase::ReadReRequestedResponsesMissing:
      l << "READ re-requested from PSN " << a.psn << " (responses missing)";
      break;
    case DetailPhrase::ArrivedGoBackN:
      l << "missing PSN " << a.psn << " arrived (go-back-N after the "
        << toString(static_cast<RetryCause>(d.code)) << ')';
      unseen(l, d);
      break;
    case DetailPhrase::ArrivedAfterNak:
      l << "missing PSN " << a.psn << " arrived after the NAK in frame " << a.relatedFrame;
      unseen(l, d);
      break;
    case DetailPhrase::ArrivedLate:
      l << "PSN " << a.psn << " arrived late, out of order";
      break;
    case DetailPhrase::ArrivedAfterTimeout:
      l << "missing PSN " << a.psn << " arrived after a timeout";
      break;
    case DetailPhrase::ReceiverNotReady: {
      char buf[96];
      std::snprintf(buf, sizeof buf, "receiver not ready at PSN %u, retry after %.2f ms", a.psn,
                    rnrTimerMilliseconds(d.code));
      l << std::string_view(buf);
      break;
    }
    case DetailPhrase::NakAtPsn:
      l << packets::nakCodeName(d.code) << " at PSN " << a.psn;
      break;
    case DetailPhrase::AtomicAckUnexpected:
      l << "atomic ACK for no outstanding atomic";
      break;
    case DetailPhrase::ReadResponseUnexpected:
      l << "READ response PSN " << a.psn << " for no outstanding READ";
      break;
    case DetailPhrase::ReadResponseAgain:
      l << "READ response PSN " << a.psn << " received again";
      break;
    case DetailPhrase::IcrcWrong:
      l << "invariant CRC wrong: the receiver drops this frame (PSN " << a.psn << ')';
      break;
    case DetailPhrase::CmReject: {
      const auto reason = static_cast<std::uint16_t>(d.number);
      const auto reasonName = packets::cmRejectReasonName(reason);
      l << "CM ConnectReject of "
        << (d.code == 1   ? "REP"
            : d.code == 0 ? "REQ"
                          : "a message")
        << " from " << nameAt(a, 0) << ": "
        << (reasonName.empty() ? std::string_view("reserved reason") : reasonName) << " ("
        << d.number << ')';
      if (d.hasPort) l << ", port " << d.from;
      break;
    }
    case DetailPhrase::EcnCe:
      l << "IP ECN congestion experienced";
      break;
    case DetailPhrase::Fecn:
      l << "BTH FECN set: congestion on the way to the receiver";
      break;
    case DetailPhrase::Becn:
      l << "BTH BECN set: congestion reported back to the sender";
      break;
    case DetailPhrase::CnpToQp:
      l << "congestion notification to QP " << d.number;
      break;
    case DetailPhrase::NeverAcknowledged:
      l << kindName(d.code) << " from PSN " << a.psn << " never acknowledged";
      break;
    case DetailPhrase::NeverFullySent:
      l << kindName(d.code) << " from PSN " << a.psn << " never fully sent";
      break;
    case DetailPhrase::PauseStorm:
      priority(l, d.code);
      l << " held paused by " << nameAt(a, 0) << " for " << durationText(a.wait)
        << " without a break (since frame " << a.relatedFrame
        << "): a receiver that does not drain, or a cyclic buffer dependency (deadlock)";
      break;
    case DetailPhrase::VictimFlow:
      l << "flow to " << nameAt(a, 0) << " held " << durationText(a.wait) << " by PFC on ";
      priority(l, d.code);
      l << " (from " << nameAt(a, 1)
        << ") although its receiver was not congested: head-of-line blocking behind the "
        << d.number << " paused flows to " << nameAt(a, 2);
      break;
    case DetailPhrase::CnpWithoutMark:
      l << "CNP to QP " << d.number
        << " with no CE-marked packet of its flow in the capture since its previous CNP: marked "
           "after the capture point, or the capture missed it";
      break;
    case DetailPhrase::TcpBytesMissing:
      l << "TCP seq " << a.psn << ": " << d.number << " bytes before it not seen";
      break;
    case DetailPhrase::TcpOutOfOrder:
      l << "TCP seq " << a.psn << " (" << d.number << " bytes) arrived out of order, "
        << durationText(d.seconds) << " after later bytes";
      break;
    case DetailPhrase::TcpCopyOfFrame:
      segment(l, a);
      l << " is a copy of frame " << a.relatedFrame;
      break;
    case DetailPhrase::TcpFastRetransmission:
      segment(l, a);
      l << " resent after " << d.from << " duplicate ACKs (fast retransmission)";
      break;
    case DetailPhrase::TcpSpuriousRetransmission:
      segment(l, a);
      l << " resent though already acknowledged (spurious retransmission)";
      break;
    case DetailPhrase::TcpResentAfterNewest:
      segment(l, a);
      l << " resent " << durationText(a.wait) << " after the newest bytes";
      break;
    case DetailPhrase::TcpTimerFired:
      segment(l, a);
      l << " sent again, not prompted by duplicate ACKs, " << durationText(a.wait)
        << " after the newest bytes: the retransmission timer fired";
      break;
    case DetailPhrase::MpaReplyRejects:
      l << "MPA Reply rejects the connection";
      break;
    case DetailPhrase::MpaCrcWrong:
      l << "FPDU at TCP seq " << a.psn
        << ": MPA CRC32c wrong, the receiver drops it and ends the connection";
      break;
    case DetailPhrase::ReadResponseNoRead: {
      char buf[16];
      std::snprintf(buf, sizeof buf, "0x%08x", d.number);
      l << "Read Response to STag " << std::string_view(buf) << " for no outstanding Read";
      break;
    }
    case DetailPhrase::Terminate:
      l << "Terminate";
      if (!nameAt(a, 0).empty()) l << " (" << nameAt(a, 0) << ')';
      break;
    case DetailPhrase::TcpNeverAcknowledged:
      l << kindName(d.code) << " from TCP seq " << a.psn << " never acknowledged";
      break;
    case DetailPhrase::TcpNeverAnswered:
      l << kindName(d.code) << " from TCP seq " << a.psn << " never answered";
      break;
    case DetailPhrase::TcpNeverFullySent:
      l << kindName(d.code) << " from TCP seq " << a.psn << " never fully sent";
      break;
  }
  return std::move(l.s);
}

}  // namespace rdmascope::analysis
