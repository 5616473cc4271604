#pragma once
/// @file loss_pattern.h
/// Which RC request transmissions a capture lost, and the NAKs and resends it shows, inferred
/// from what the capture holds. Made for comparing a lossy Soft-RoCE lab run with the
/// simulator replaying the same drops: frames lost before the capture point (netem drops on
/// the sender's egress, before AF_PACKET taps the frame) never appear, so they are inferred
/// from the requester's PSN sequence:
///  - a PSN skipped inside an ascending run of requests was sent and lost;
///  - a run that goes back (a resend) while a message was half sent lost the rest of that
///    message (the requester sends a message's packets in one go; the message ends at the
///    first LAST or ONLY packet of that PSN range seen anywhere in the capture);
///  - a resend (go-back-N) starts at the requester's first unacknowledged PSN: after the last
///    ACK's PSN, or at the last NAK's PSN, or at the initial PSN (when known) before any ACK
///    (rxe's req_retry restarts at comp.psn, whether a NAK or the retransmit timer started
///    it); PSNs between that and the first resent PSN captured were lost again;
///  - with the requester's retransmit timeout known (LossInferenceOptions), a request that
///    comes most of a timeout after the timer was last armed (by a response, or by a send
///    when nothing was outstanding) while PSNs were outstanding is a timer resend even when
///    its PSN goes forward (an ACK of a duplicate moved comp.psn); and a NAK that started a
///    retry (rxe starts none while one is under way: comp.started_retry, cleared by an ACK)
///    whose resend never shows before such a timer resend lost that whole resend, from the
///    NAK's PSN to the highest PSN sent;
///  - each loss has an occurrence number: the n-th transmission of that PSN was lost.
/// Limits: a message lost entirely and then resent after the retransmit timer looks like a
/// first transmission; without LossInferenceOptions::retransmitTimeout a timer resend that
/// does not go back looks like a continuation (and with it, a stall of three quarters of the
/// timeout inside a burst would look like a timer resend, and a timer rxe left armed from
/// long before can fire sooner than that); lost responses (ACKs, READ responses) are not
/// inferred; one RC connection per pair of addresses is assumed when
/// responses are matched to requests.

#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "rdmascope/analysis/packet_facts.h"

namespace rdmascope::analysis {

/// The requests one address sends to one other address.
struct RequestStream {
  std::string source;
  std::string destination;
  std::uint32_t destQp = 0;
  std::uint32_t firstPsn = 0;  ///< PSN relative PSNs count from
  std::uint64_t requests = 0;  ///< request packets captured
  std::uint64_t resent = 0;    ///< of which transmissions after the first of their PSN
  /// (PSN relative to firstPsn, BTH opcode) of every request captured: which packets the
  /// messages consist of, whatever was lost or resent.
  std::set<std::pair<std::int32_t, std::uint8_t>> packets;
};

struct InferredLoss {
  std::size_t stream = 0;  ///< index into LossPattern::streams
  std::uint32_t psn = 0;
  std::int32_t relPsn = 0;        ///< psn - the stream's firstPsn
  int occurrence = 1;             ///< which transmission of that PSN was lost (1 = the first)
  std::uint64_t beforeFrame = 0;  ///< the captured frame that revealed it
  std::string evidence;           ///< one sentence
};

/// A NAK (or RNR NAK) the responder sent for a stream.
struct NakRecord {
  std::size_t stream = 0;
  std::uint64_t frame = 0;
  std::int32_t relPsn = 0;
  std::uint8_t syndrome = 0;  ///< AETH syndrome byte
};

/// Consecutive retransmitted request packets of a stream, as captured.
struct ResendRun {
  std::size_t stream = 0;
  std::uint64_t frame = 0;  ///< first frame of the run
  std::int32_t firstRelPsn = 0;
  std::int32_t lastRelPsn = 0;
  std::uint32_t packets = 0;
  /// Where the ACKs and NAKs captured so far say a go-back-N resend starts (the last NAK's
  /// PSN, or after the last ACK's). A run that starts earlier is a retransmit timer that
  /// fired before a NAK arrived (rxe then ignores the NAK): the requester went back to its
  /// last acknowledged PSN instead of the NAK's.
  std::int32_t restartRelPsn = 0;
  /// No NAK explains it and it came sooner than the retransmit timeout (when known) after the
  /// timer was armed: a timer an earlier message armed fired (rxe arms it on a send only when
  /// it is not pending, and no ACK stops it).
  bool soonerThanTimer = false;
  /// The stream's request transmissions (captured or inferred lost) before this run began.
  std::uint64_t transmissionsBefore = 0;
};

struct LossPattern {
  std::vector<RequestStream> streams;
  std::vector<InferredLoss> losses;
  std::vector<NakRecord> naks;
  std::vector<ResendRun> resends;
};

/// What is known besides the capture.
struct LossInferenceOptions {
  /// The first request PSN each source address sends from (when known, e.g. from the
  /// scenario): relative PSNs count from it and a lost first request is seen as a gap.
  /// Otherwise a stream counts from its first captured request.
  std::map<std::string, std::uint32_t> initialPsn;
  /// The retransmit timeout (seconds) of each source address's requester, when known (the
  /// QP's timeout attribute: 4.096 us x 2^timeout). It tells timer resends from bursts: a
  /// request three quarters of it after the timer was armed, with PSNs outstanding, is one.
  std::map<std::string, double> retransmitTimeout;
};

/// Infers the pattern from a capture's packets in capture order (RC only; UC/UD are
/// ignored since nothing is resent there).
LossPattern inferLossPattern(std::span<const PacketFacts> packets,
                             const LossInferenceOptions& options = {});

/// "NAK +5 PSN sequence error" lines and "resend +5..+7 (3)" lines, one per item.
std::vector<std::string> nakLines(const LossPattern& pattern);
/// With `fromRestart`, a run that starts before its restartRelPsn is counted from there (the
/// part before was resent only because a timer raced a NAK).
std::vector<std::string> resendLines(const LossPattern& pattern, bool fromRestart = false);
/// "lost +5 (1st transmission): evidence" lines.
std::vector<std::string> lossLines(const LossPattern& pattern);

}  // namespace rdmascope::analysis
