#pragma once
/// @file flow_analyzer.h
/// One-pass flow analysis of InfiniBand transport traffic (RoCEv2, RoCEv1, native IB) and of
/// iWARP (MPA/DDP/RDMAP over TCP connections): which QPs or connections talked, which messages went
/// through, where packets went missing, what was resent and why, and how long each operation took.
/// Frames are fed one at a time (from a capture file, a live capture or the simulator); memory is
/// bounded by the number of connections and of messages in flight, never by the length of the
/// capture.

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rdmascope/analysis/anomaly_detail.h"
#include "rdmascope/analysis/latency_stats.h"
#include "rdmascope/analysis/packet_facts.h"
#include "rdmascope/packets/decode.h"

namespace rdmascope::analysis {

/// What a message (a work request on the wire) was.
enum class MessageKind : std::uint8_t { Send, Write, Read, Atomic, Flush, AtomicWrite };

/// How a message ended.
enum class Outcome : std::uint8_t {
  Completed,   ///< acknowledged (RC), answered (READ/atomic), or fully sent (UC/UD)
  Failed,      ///< a NAK other than PSN sequence error / RNR ended it
  Incomplete,  ///< the capture ended first
};

/// Why a PSN was sent again.
enum class RetryCause : std::uint8_t { None, Nak, Rnr, Timeout };

/// The kinds of findings, each with a frame number.
enum class AnomalyKind : std::uint8_t {
  PsnGap,             ///< a request PSN jumped ahead: PSNs missing before this frame
  Retransmission,     ///< a request PSN sent again (after a NAK, an RNR NAK or a timeout)
  Duplicate,          ///< a back-to-back identical copy of the previous request frame
  GapFilled,          ///< a missing PSN arrived later (retransmitted after loss)
  Reordered,          ///< a missing PSN arrived later with no retry asked for: reordering
  Timeout,            ///< a resend no NAK (iWARP: no dup ACK) prompted: the timer fired
  Nak,                ///< NAK (PSN sequence error, invalid request, access/operational error)
  RnrNak,             ///< receiver not ready: the requester must wait the RNR timer
  Cnp,                ///< RoCEv2 congestion notification packet
  EcnCe,              ///< IP ECN congestion experienced mark
  Fecn,               ///< BTH forward ECN bit set
  Becn,               ///< BTH backward ECN bit set
  IcrcFailure,        ///< invariant CRC wrong: the receiver drops the frame
  RepeatedResponse,   ///< a READ response or atomic ACK PSN answered again
  IncompleteMessage,  ///< a message still unfinished when the capture ended
  // iWARP (TCP connections carrying MPA); resent TCP segments are Retransmission/Duplicate.
  SegmentGap,  ///< a TCP segment beyond the next expected byte: bytes missing before it
  OutOfOrder,  ///< a TCP segment filling a hole soon after later bytes (no resend): reordering
  CrcFailure,  ///< an MPA FPDU whose CRC32c does not verify
  Terminate,   ///< an RDMAP Terminate message (layer, error type and code in the detail)
  MpaReject,   ///< an MPA Reply with the Rej flag: the connection was refused
  CmReject,    ///< a CM ConnectReject (REJ): the connection was refused (reason in the detail)
  // Lossless Ethernet (PFC pause frames, ECN marks and CNPs).
  PauseStorm,      ///< a priority held paused by PFC longer than AnalyzerOptions::pauseStormSeconds
  VictimFlow,      ///< a flow paused by PFC although its own receiver was not congested
  CnpWithoutMark,  ///< a CNP with no CE-marked packet of its flow in the capture before it
};

std::string_view toString(MessageKind kind);
std::string_view toString(Outcome outcome);
std::string_view toString(RetryCause cause);
std::string_view toString(AnomalyKind kind);

/// One finding.
struct Anomaly {
  AnomalyKind kind = AnomalyKind::PsnGap;
  AnomalyDetail what;       ///< the phrase and arguments `detail` is made of
  std::uint64_t frame = 0;  ///< the frame it was found at
  double time = 0.0;
  int connection = -1;  ///< ConnectionReport::id, -1 when unattributed
  int direction = -1;   ///< requests from endpoint a (0) or b (1)
  std::uint32_t psn = 0;
  std::uint32_t count = 0;         ///< PSNs missing (gaps), resent frames in an episode, ...
  std::uint64_t relatedFrame = 0;  ///< the NAK that caused a resend, the frame resent, ...
  double wait = 0.0;               ///< seconds: RNR wait, silence before a timeout resend
  std::string detail;  ///< one line for people: anomalyDetailText(), in English, of `what`
  std::vector<std::string> detailNames;  ///< names in the detail (addresses, ...): rare phrases
};

/// A message reconstructed from its packets, kept once summarised. Where first transmissions
/// were lost before the capture point, its first and last PSNs are where the resent FIRST and
/// LAST (or ONLY) opcodes show them; packets and bytes count each PSN once.
struct MessageRecord {
  int connection = -1;
  int direction = 0;
  MessageKind kind = MessageKind::Send;
  std::uint32_t firstPsn = 0;
  std::uint32_t lastPsn = 0;
  std::uint64_t firstFrame = 0;        ///< first request packet
  std::uint64_t lastRequestFrame = 0;  ///< last request packet seen (first transmission)
  std::uint64_t endFrame = 0;          ///< the ACK / last response / NAK that ended it
  double start = 0.0;
  double end = 0.0;
  std::uint64_t bytes = 0;  ///< payload (READ: the response data)
  std::optional<std::uint64_t> dmaLength;
  std::uint32_t packets = 0;  ///< request packets, first transmissions
  std::uint32_t resentPackets = 0;
  Outcome outcome = Outcome::Incomplete;
  bool startMissing = false;  ///< its first packet never showed up
  std::string detail;         ///< NAK reason of a failed message
  /// iWARP: firstPsn/lastPsn hold the relative TCP sequence numbers of the message's first
  /// byte and of the byte after its last FPDU; packets counts FPDUs.
  std::optional<std::uint32_t> stag;  ///< iWARP Write: data sink STag; Read: sink STag
  std::optional<std::uint32_t> msn;   ///< iWARP untagged (Send, Read Request): DDP MSN

  double latency() const { return end - start; }
};

/// One side of a connection.
struct Endpoint {
  std::string address;
  std::optional<std::uint32_t> qp;    ///< known once a frame was addressed to it
  std::optional<std::uint16_t> port;  ///< iWARP: the TCP port
};

/// Statistics over time, in buckets of equal width starting at the connection's first frame.
struct SeriesBucket {
  double start = 0.0;
  std::uint64_t frames = 0;
  std::uint64_t bytes = 0;     ///< payload bytes of first transmissions
  std::uint64_t messages = 0;  ///< messages completed in the bucket
  std::uint64_t latencyCount = 0;
  double latencySum = 0.0;  ///< seconds
  double latencyMax = 0.0;
  std::uint32_t anomalies = 0;
};

/// The requests of one endpoint of a connection and the responses to them.
struct DirectionStats {
  std::uint64_t requestFrames = 0;   ///< request packets, resends included
  std::uint64_t responseFrames = 0;  ///< ACKs, NAKs, READ responses, atomic ACKs
  std::uint64_t payloadBytes = 0;    ///< message data of first transmissions
  std::uint64_t wireBytes = 0;       ///< every frame of this direction's requests
  std::uint64_t messages = 0;        ///< completed
  std::uint64_t failedMessages = 0;
  std::uint64_t incompleteMessages = 0;
  std::uint64_t resentFrames = 0;
  std::uint64_t duplicates = 0;
  std::uint64_t psnGaps = 0;
  std::uint64_t missingPsns = 0;
  std::uint64_t naks = 0;
  std::uint64_t rnrNaks = 0;
  std::uint64_t timeouts = 0;
  std::uint64_t cnps = 0;  ///< CNPs sent to this direction's requester
  std::uint64_t ecnMarks = 0;
  std::uint64_t icrcFailures = 0;
  std::uint64_t crcFailures = 0;  ///< iWARP: FPDUs with a bad CRC32c
  std::uint64_t terminates = 0;   ///< iWARP: Terminate messages this direction's endpoint sent
  std::uint64_t outOfOrder = 0;   ///< iWARP: TCP segments out of order
  std::uint64_t segmentGaps = 0;  ///< iWARP: TCP segments with bytes missing before them
  std::uint64_t missingBytes = 0;
  double rnrWaitTotal = 0.0;
  double rnrWaitMax = 0.0;
  double firstTime = 0.0;
  double lastTime = 0.0;
  LatencyStats latency;  ///< request's first packet to its ACK/response, ns
  std::vector<SeriesBucket> series;
  double seriesWidth = 0.0;  ///< seconds per bucket

  /// Payload bytes per second over the direction's active time (0 with one instant).
  double throughput() const;
  /// Completed messages per second over the same time.
  double messageRate() const;
};

/// The MPA start frames of an iWARP connection (RFC 5044 section 7.1).
struct MpaNegotiation {
  bool requestSeen = false;
  bool replySeen = false;
  std::uint64_t requestFrame = 0;
  std::uint64_t replyFrame = 0;
  bool requestMarkers = false;  ///< M in the Request: the initiator wants markers
  bool requestCrc = false;      ///< C in the Request
  bool replyMarkers = false;    ///< M in the Reply: the responder wants markers
  bool replyCrc = false;        ///< C in the Reply
  bool rejected = false;        ///< Rej in the Reply
  std::uint8_t requestRevision = 0;
  std::uint8_t replyRevision = 0;
  /// CRC is used when either side asks (markers are per direction, asked by the receiver).
  bool crcInUse() const { return requestCrc || replyCrc; }
};

/// One Communication Manager message of a handshake.
struct CmStep {
  std::uint64_t frame = 0;
  double time = 0.0;
  std::string message;     ///< "REQ", "MRA", "REP", "RTU", "REJ", "DREQ", "DREP"
  bool fromClient = true;  ///< sent by the REQ's sender
};

/// A connection set up, refused or torn down through the Communication Manager (MADs between
/// the GSIs, QP 1), matched by its communication IDs.
struct CmHandshake {
  std::string client;  ///< address of the REQ's sender
  std::string server;
  std::uint32_t clientCommId = 0;
  std::optional<std::uint32_t> serverCommId;  ///< from the REP, MRA or REJ
  std::optional<std::uint32_t> clientQpn;     ///< from the REQ
  std::optional<std::uint32_t> serverQpn;     ///< from the REP
  std::uint64_t serviceId = 0;
  std::optional<std::uint16_t> port;          ///< an RDMA CM IP service ID's port
  std::optional<std::uint16_t> rejectReason;  ///< REJ (IBTA reason code)
  int connection = -1;        ///< ConnectionReport::id of the connection it set up; -1 if none seen
  std::vector<CmStep> steps;  ///< in frame order (the first 16)

  bool established() const;   ///< a REP and an RTU were seen
  bool disconnected() const;  ///< a DREP was seen
};

/// Two QPs that talked (RC/UC/XRC), one UD destination QP and its senders, or an iWARP TCP
/// connection (carrier Iwarp, transport "TCP", endpoints with ports, `mpa` set).
struct ConnectionReport {
  int id = 0;
  Carrier carrier = Carrier::RoceV2;
  std::string transport;  ///< "RC", "UC", "UD", "XRC", "RD"
  Endpoint a;             ///< the side that sent the first frame
  Endpoint b;
  DirectionStats dir[2];  ///< [0]: requests from a; [1]: requests from b
  std::uint64_t frames = 0;
  std::uint64_t firstFrame = 0;
  std::uint64_t lastFrame = 0;
  double firstTime = 0.0;
  double lastTime = 0.0;
  std::optional<MpaNegotiation> mpa;  ///< iWARP only
  std::optional<CmHandshake> cm;      ///< set up through the CM: its handshake
};

/// The PFC (802.1Qbb) or link PAUSE (802.3x) frames one port sent for one priority. A port is
/// named by the source MAC of its pause frames; its peer stops sending that priority.
struct PauseStats {
  std::string port;          ///< source MAC address of the pause frames
  int priority = 0;          ///< 0-7; -1 for 802.3x PAUSE (every priority of the link)
  std::uint64_t frames = 0;  ///< pause frames naming this priority
  std::uint64_t xoff = 0;    ///< with a pause time above 0
  std::uint64_t xon = 0;     ///< with pause time 0: resume
  std::uint64_t quanta = 0;  ///< sum of the XOFF pause times, in quanta of 512 bit times
  double pausedSeconds =
      0.0;  ///< time the priority was held paused (AnalyzerOptions::linkBitsPerSecond)
  double longestPause = 0.0;  ///< longest continuous pause, seconds
  std::uint32_t storms = 0;   ///< continuous pauses longer than AnalyzerOptions::pauseStormSeconds
  std::uint64_t firstFrame = 0;
  std::uint64_t lastFrame = 0;
};

/// One continuous pause of a priority by a port: from the XOFF that started it to the XON that
/// ended it, or to when its last pause time ran out.
struct PauseInterval {
  std::string port;  ///< as PauseStats::port
  int priority = 0;  ///< as PauseStats::priority
  double start = 0.0;
  double end = 0.0;
  std::uint64_t startFrame = 0;
  std::uint64_t frames = 0;  ///< pause frames that started or refreshed it
};

/// A CNP matched to the congestion-experienced packets that caused it: the CE-marked requests
/// of the same flow (connection and direction) since that flow's previous CNP.
struct CnpMatch {
  std::uint64_t frame = 0;
  double time = 0.0;
  int connection = -1;
  int direction = -1;        ///< the direction of the marked data (the CNP goes back)
  std::uint32_t destQp = 0;  ///< the CNP's destination: the data sender's QP
  std::uint64_t marked = 0;  ///< CE-marked packets it answers (0: none in the capture)
  std::uint64_t firstMarkedFrame = 0;
  std::uint64_t lastMarkedFrame = 0;
  double reaction = 0.0;  ///< seconds from the last marked packet to the CNP
};

/// Counts over the whole capture. The first ten are the definitions.
struct AnalysisSummary {
  std::uint64_t connections = 0;
  std::uint64_t messages = 0;  ///< messages seen (completed, failed or incomplete)
  std::uint64_t naks = 0;      ///< NAKs other than RNR NAKs
  std::uint64_t rnrNaks = 0;
  std::uint64_t resentFrames = 0;  ///< request frames whose (source, dest QP, PSN) was seen
  std::uint64_t psnGaps = 0;
  std::uint64_t duplicates = 0;
  std::uint64_t icrcFailures = 0;
  std::uint64_t incompleteMessages = 0;
  std::uint64_t cnps = 0;
  std::uint64_t frames = 0;      ///< every frame fed
  std::uint64_t rdmaFrames = 0;  ///< frames with an InfiniBand transport
  std::uint64_t completedMessages = 0;
  std::uint64_t failedMessages = 0;
  /// RoCE/IB: resends no NAK prompted (one per retry). iWARP: TCP retransmissions neither fast
  /// (after duplicate ACKs), spurious (already acknowledged) nor copies: those Wireshark marks
  /// tcp.analysis.rto, one per resent segment.
  std::uint64_t timeouts = 0;
  std::uint64_t ecnMarks = 0;  ///< IP CE, FECN or BECN
  // iWARP. resentFrames and duplicates above count its TCP retransmissions and copies too.
  std::uint64_t iwarpFrames = 0;         ///< frames of TCP connections that carry MPA
  std::uint64_t crcFailures = 0;         ///< FPDUs whose MPA CRC32c does not verify
  std::uint64_t terminates = 0;          ///< RDMAP Terminate messages
  std::uint64_t outOfOrderSegments = 0;  ///< TCP segments out of order
  std::uint64_t segmentGaps = 0;         ///< TCP segments with bytes missing before them
  std::uint64_t mpaRejects = 0;          ///< MPA Replies that refused the connection
  // Lossless Ethernet.
  std::uint64_t pauseFrames = 0;      ///< PFC and 802.3x PAUSE frames
  std::uint64_t pauseStorms = 0;      ///< see AnomalyKind::PauseStorm
  std::uint64_t victimFlows = 0;      ///< see AnomalyKind::VictimFlow
  std::uint64_t cnpsWithoutMark = 0;  ///< CNPs with no CE-marked packet of their flow before them
  std::uint64_t marksWithoutCnp = 0;  ///< CE-marked packets no CNP of their flow followed
};

/// Everything the analysis found, ready to print or serialise.
struct AnalysisReport {
  AnalysisSummary summary;
  /// By id: creation order (RoCE/IB at their first frame, iWARP at its MPA Request).
  std::vector<ConnectionReport> connections;
  std::vector<Anomaly> anomalies;  ///< in frame order (the first maxAnomalies)
  std::uint64_t anomaliesDropped = 0;
  std::vector<MessageRecord> messages;  ///< in completion order (the first maxMessages)
  std::uint64_t messagesDropped = 0;
  /// Every CM handshake seen (the first maxHandshakes), those of connections included.
  std::vector<CmHandshake> handshakes;
  /// PFC/PAUSE per sending port and priority, in order of first appearance.
  std::vector<PauseStats> pauses;
  /// Every pause in the order it ended (the first maxPauseIntervals); pauses still held when
  /// the capture ended run to the last frame.
  std::vector<PauseInterval> pauseIntervals;
  std::uint64_t pauseIntervalsDropped = 0;
  std::vector<CnpMatch> cnps;  ///< every CNP with its marked packets (the first maxCnpMatches)
  std::uint64_t cnpsDropped = 0;
};

struct AnalyzerOptions {
  std::uint16_t roceV2Port = 4791;
  bool verifyCrc = true;
  std::uint32_t psnWindow = 16384;     ///< PSNs remembered behind the highest, per flow
  std::size_t maxAnomalies = 100000;   ///< kept in the report; all are counted
  std::size_t maxMessages = 10000;     ///< kept in the report; all are counted
  double duplicateGap = 50e-6;         ///< seconds within which an identical copy is a duplicate
  double seriesWidth = 1e-3;           ///< initial bucket width, doubled as needed
  std::size_t maxSeriesBuckets = 256;  ///< per direction
  std::size_t exactLatencySamples = 4096;  ///< per direction, before the histogram takes over
  std::size_t maxTcpConnections = 65536;   ///< TCP connections tracked for iWARP at once
  std::size_t maxHandshakes = 4096;        ///< CM handshakes remembered
  /// Link speed that turns pause quanta (512 bit times) into seconds. A capture does not say
  /// it; 100 Gb/s is the RoCE fabrics' common port speed.
  double linkBitsPerSecond = 100e9;
  /// A priority paused without a break for longer than this is a pause storm. An incast's
  /// pauses last microseconds to a few hundred; a stuck receiver or a deadlock holds them.
  double pauseStormSeconds = 10e-3;
  std::size_t maxCnpMatches = 10000;       ///< kept in the report; all are counted
  std::size_t maxPauseIntervals = 100000;  ///< kept in the report; all are counted
};

/// Entries the analyzer holds, for checking that memory stays bounded.
struct RetainedState {
  std::size_t connections = 0;
  std::size_t flows = 0;
  std::size_t inflightMessages = 0;  ///< messages not yet summarised
  std::size_t keptMessages = 0;
  std::size_t keptAnomalies = 0;
  std::size_t latencyEntries = 0;
  std::size_t seriesBuckets = 0;
  std::size_t psnWindowBits = 0;
  std::size_t tcpConnections = 0;  ///< TCP connections tracked (iWARP or not yet known)
  std::size_t pauseIntervals = 0;  ///< past PFC pauses remembered for the victim-flow check
};

/// A frame addFrame followed as a TCP segment (the iWARP analysis), its ends named as the
/// endpoints of ConnectionReport name them: views list an iWARP connection's frames with it.
struct TcpSegmentEnds {
  std::uint64_t frame = 0;
  std::string_view source, destination;  ///< valid during the observer's call only
  std::uint16_t sourcePort = 0, destinationPort = 0;
  /// The MPA units the segment completed: start frames, FPDUs, and the RDMAP opcode and DDP
  /// Last flag of its first FPDU (opcode -1: none decoded).
  bool mpaRequest = false, mpaReply = false;
  std::uint32_t fpdus = 0;
  int rdmapOpcode = -1;
  bool last = false;
};

/// Feeds on frames, one at a time, in capture order.
class FlowAnalyzer {
 public:
  explicit FlowAnalyzer(AnalyzerOptions options = {});
  ~FlowAnalyzer();
  FlowAnalyzer(const FlowAnalyzer&) = delete;
  FlowAnalyzer& operator=(const FlowAnalyzer&) = delete;

  /// Decodes a frame and analyses it; frames without an InfiniBand transport are counted only.
  void addFrame(std::span<const std::uint8_t> frame, packets::LinkType link,
                std::uint64_t frameNumber, double time);
  /// Analyses a packet whose facts are already known (the simulator, tests, facts read ahead).
  void addPacket(const PacketFacts& packet);

  /// The options addFrame reads the facts of RoCE and InfiniBand frames with.
  packets::DecodeOptions factOptions() const;
  /// The first step of addFrame, which needs no analyzer state (any thread may take it, with a
  /// PacketFactReader of factOptions() of its own): true with `facts` set when addFrame would
  /// analyse the frame as those facts, and addPacket(facts) then does what addFrame does; false
  /// for a PFC or PAUSE frame and a frame without an InfiniBand transport, which addFrame takes.
  static bool readFacts(PacketFactReader& reader, std::span<const std::uint8_t> frame,
                        packets::LinkType link, std::uint64_t frameNumber, double time,
                        PacketFacts& facts);
  /// Counts a frame that carries no InfiniBand transport.
  void addOtherFrame();
  /// Ends the capture: messages still in flight become incomplete. Idempotent.
  void finish();

  /// Called for every message once summarised (completed, failed or, at finish, incomplete).
  void onMessage(std::function<void(const MessageRecord&)> observer);
  /// Called for every anomaly as it is found.
  void onAnomaly(std::function<void(const Anomaly&)> observer);
  /// Called for every frame addFrame followed as a TCP segment (iWARP or not yet known).
  void onTcpSegment(std::function<void(const TcpSegmentEnds&)> observer);

  const AnalysisSummary& summary() const;
  /// The report so far (call finish() first for the final one).
  AnalysisReport report() const;
  /// The report, with the kept anomalies and messages moved out instead of copied (a capture
  /// may keep 100,000 of them): report() and retained() show none of them afterwards. For a
  /// caller done with the analyzer (call finish() first).
  AnalysisReport takeReport();
  RetainedState retained() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The whole report as JSON text: `summary` (the counts, snake_case; the iWARP ones are
/// iwarp_frames, crc_failures, terminates, out_of_order_segments, segment_gaps, mpa_rejects),
/// `connections` (iWARP ones with `mpa` and endpoint ports, CM-established ones with `cm`),
/// `anomalies`, `messages`, and `cm_handshakes` only when the capture has CM messages.
std::string toJson(const AnalysisReport& report, int indent = 2);

/// The same text written to `os` a megabyte at a time (a report of 100,000 anomalies is tens
/// of megabytes), with `lastMember` (e.g. ",\n  \"extra\": {...}\n"; empty: none) put
/// right before the closing brace.
void writeJson(std::ostream& os, const AnalysisReport& report, std::string_view lastMember = {},
               int indent = 2);

/// Orders anomalies by frame, those of one frame in the order they had (a stable sort), as
/// a report lists them.
void sortAnomaliesByFrame(std::vector<Anomaly>& list);

/// The report for people: a conversation table, the anomalies in order with frame numbers,
/// and per-connection statistics.
std::string formatText(const AnalysisReport& report);

/// The same text written to `os`, the anomaly list a megabyte at a time.
void writeText(std::ostream& os, const AnalysisReport& report);

}  // namespace rdmascope::analysis
