#include "rdmascope/analysis/flow_analyzer.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <deque>
#include <limits>
#include <map>
#include <tuple>

#include "cm_tracker.h"
#include "congestion_tracker.h"
#include "iwarp_flows.h"
#include "opcode_class.h"
#include "rdmascope/analysis/psn.h"
#include "rdmascope/packets/ib_headers.h"
#include "report_sink.h"

namespace rdmascope::analysis {

namespace {

// Names in enum order.
constexpr std::string_view kMessageKindNames[] = {"SEND",   "WRITE", "READ",
                                                  "ATOMIC", "FLUSH", "ATOMIC WRITE"};
constexpr std::string_view kOutcomeNames[] = {"completed", "failed", "incomplete"};
constexpr std::string_view kRetryCauseNames[] = {"none", "NAK", "RNR NAK", "timeout"};
constexpr std::string_view kAnomalyKindNames[] = {"psn_gap",
                                                  "retransmission",
                                                  "duplicate",
                                                  "gap_filled",
                                                  "reordered",
                                                  "timeout",
                                                  "nak",
                                                  "rnr_nak",
                                                  "cnp",
                                                  "ecn_ce",
                                                  "fecn",
                                                  "becn",
                                                  "icrc_failure",
                                                  "repeated_response",
                                                  "incomplete_message",
                                                  "segment_gap",
                                                  "out_of_order",
                                                  "crc_failure",
                                                  "terminate",
                                                  "mpa_reject",
                                                  "cm_reject",
                                                  "pause_storm",
                                                  "victim_flow",
                                                  "cnp_without_mark"};
static_assert(std::size(kMessageKindNames) ==
              static_cast<std::size_t>(MessageKind::AtomicWrite) + 1);
static_assert(std::size(kOutcomeNames) == static_cast<std::size_t>(Outcome::Incomplete) + 1);
static_assert(std::size(kRetryCauseNames) == static_cast<std::size_t>(RetryCause::Timeout) + 1);
static_assert(std::size(kAnomalyKindNames) ==
              static_cast<std::size_t>(AnomalyKind::CnpWithoutMark) + 1);

}  // namespace

std::string_view toString(MessageKind kind) {
  return nameOf(kMessageKindNames, kind);
}
std::string_view toString(Outcome outcome) {
  return nameOf(kOutcomeNames, outcome);
}
std::string_view toString(RetryCause cause) {
  return nameOf(kRetryCauseNames, cause);
}
std::string_view toString(AnomalyKind kind) {
  return nameOf(kAnomalyKindNames, kind);
}

double DirectionStats::throughput() const {
  const double span = lastTime - firstTime;
  return span > 0 ? static_cast<double>(payloadBytes) / span : 0.0;
}

double DirectionStats::messageRate() const {
  const double span = lastTime - firstTime;
  return span > 0 ? static_cast<double>(messages) / span : 0.0;
}

namespace {

constexpr std::uint32_t kMinMtu = 256;
constexpr std::uint32_t kMaxMtu = 4096;

std::uint32_t ceilDiv(std::uint64_t a, std::uint32_t b) {
  return static_cast<std::uint32_t>(std::max<std::uint64_t>(1, (a + b - 1) / b));
}

// A message's PSN range holds only PSNs captured: where first transmissions were lost, its
// boundaries stay open (requestDone without lastSeen, or rec.startMissing) until the resends
// show the FIRST/LAST opcodes there, and pieces of one message are joined as the PSNs between
// them arrive.
struct InflightMessage {
  MessageRecord rec;
  bool requestDone = false;        // no more packets after rec.lastPsn: its end is known or was cut
  bool lastSeen = false;           // the LAST or ONLY opcode at rec.lastPsn was captured
  std::uint32_t spanMax = 1;       // READ: most PSNs the responses may use
  std::uint32_t nextResponse = 0;  // READ: next response PSN expected
  bool responseStarted = false;
  double lastPsnSent = -1.0;  // when its last PSN was last put on the wire
};

struct PendingNak {
  std::uint32_t psn = 0;
  std::uint64_t frame = 0;
  double time = 0.0;
  bool rnr = false;
};

/// The requests one endpoint sends on a connection and what it knows of their answers.
// How many answered READs a requester remembers: a go-back-N after a timeout can re-request
// every READ of a deep send queue.
constexpr std::size_t kAnsweredReadsKept = 128;
/// The most anomalies the list reserves room for at its first one (96 MiB of address space;
/// memory only as they come). A larger maxAnomalies grows the list beyond it as it fills.
constexpr std::size_t kAnomalyReserve = std::size_t{1} << 20;

struct Requester {
  explicit Requester(std::uint32_t window) : seen(window) {}
  PsnWindow seen;
  bool started = false;
  std::uint32_t nextPsn = 0;
  std::uint32_t readSlack = 0;
  std::deque<InflightMessage> inflight;
  std::deque<PendingNak> naks;  // NAKs not yet answered by a resend, oldest first (bounded)
  // The PSNs the last READs answered used (first, last), newest last (bounded): a request at
  // one of their later PSNs re-requests responses lost after the capture point.
  std::deque<std::pair<std::uint32_t, std::uint32_t>> answeredReads;
  // The PSNs (first, last) whose responses a request asked for again after its READ had been
  // answered: the responder answers them again, as it must (bounded, newest last).
  std::deque<std::pair<std::uint32_t, std::uint32_t>> reRequested;
  bool inRetry = false;
  RetryCause retryCause = RetryCause::None;
  std::uint32_t retryNext = 0;
  std::uint64_t retryTrigger = 0;
  bool haveLast = false;
  std::uint32_t lastPsn = 0;
  std::uint64_t lastHash = 0;
  std::uint64_t lastFrame = 0;
  double lastTime = 0.0;
  double lastActivity = 0.0;
  bool gapOpen = false;
  double gapTime = 0.0;
  LatencyStats rtt{256};
  double maxTimeoutWait = 0.0;  // longest silence seen before a timeout resend  // last
                                // transmission of a message's last PSN to the ACK naming it, ns
};

struct Connection {
  Connection(int id_, std::uint32_t window) : id(id_), req{Requester(window), Requester(window)} {}
  int id;
  Carrier carrier = Carrier::RoceV2;
  std::string transport;
  Endpoint ep[2];
  bool paired = false;
  bool datagram = false;
  Requester req[2];
  DirectionStats st[2];
  bool stStarted[2] = {false, false};
  std::uint32_t pmtu = 0;
  std::uint64_t frames = 0;
  std::uint64_t firstFrame = 0, lastFrame = 0;
  double firstTime = 0.0, lastTime = 0.0;
};

using FlowKey = std::tuple<Carrier, std::string, std::string, std::uint32_t>;

}  // namespace

struct FlowAnalyzer::Impl final : ReportSink {
  explicit Impl(AnalyzerOptions o)
      : options(o),
        decoder(decodeOptions(o)),
        factReader(decodeOptions(o)),
        iwarp(*this),
        cm(o.maxHandshakes),
        congestion(o) {}

  static packets::DecodeOptions decodeOptions(const AnalyzerOptions& o) {
    packets::DecodeOptions d;
    d.roceV2Port = o.roceV2Port;
    d.verifyCrc = o.verifyCrc;
    return d;
  }

  AnalyzerOptions options;
  packets::CaptureDecoder decoder;  // TCP reassembly and iWARP for frames that are not RoCE
  PacketFactReader factReader;      // the facts of RoCE and InfiniBand frames
  PacketFacts facts;                // the current frame's
  IwarpFlows iwarp;
  int connectionIds = 0;
  AnalysisSummary summary;
  std::vector<std::unique_ptr<Connection>> connections;
  std::map<FlowKey, std::pair<Connection*, int>> flows;
  std::vector<Anomaly> anomalies;
  std::uint64_t anomaliesDropped = 0;
  std::vector<MessageRecord> messages;
  std::uint64_t messagesDropped = 0;
  std::function<void(const MessageRecord&)> messageObserver;
  std::function<void(const Anomaly&)> anomalyObserver;
  std::function<void(const TcpSegmentEnds&)> tcpSegmentObserver;
  bool finished = false;
  CmTracker cm;
  CongestionTracker congestion;
  double lastTime = 0.0;  // latest frame time seen

  // ---- bookkeeping -------------------------------------------------------------------------

  SeriesBucket& bucket(Connection& c, int d, double t) {
    return seriesBucket(c.st[d], c.firstTime, t, options);
  }

  void touch(Connection& c, int d, double t) {
    DirectionStats& s = c.st[d];
    if (!c.stStarted[d]) {
      c.stStarted[d] = true;
      s.firstTime = t;
    }
    s.lastTime = std::max(s.lastTime, t);
    ++bucket(c, d, t).frames;
  }

  void emit(Anomaly a, Connection* c) {
    if (c) {
      a.connection = c->id;
      if (a.direction >= 0) ++bucket(*c, a.direction, a.time).anomalies;
    }
    anomaly(std::move(a));
  }

  static Anomaly anomalyAt(AnomalyKind kind, const PacketFacts& f, int d) {
    return makeAnomaly(kind, f.frame, f.time, d, f.psn);
  }

  void psnGap(Connection& c, int d, const PacketFacts& f, std::uint32_t expected, std::int32_t gap,
              DetailPhrase phrase) {
    DirectionStats& s = c.st[d];
    ++summary.psnGaps;
    ++s.psnGaps;
    s.missingPsns += static_cast<std::uint32_t>(gap);
    Anomaly a = anomalyAt(AnomalyKind::PsnGap, f, d);
    a.count = static_cast<std::uint32_t>(gap);
    a.what.phrase = phrase;
    a.what.from = expected;
    emit(std::move(a), &c);
  }

  // ---- ReportSink ----------------------------------------------------------------------------

  const AnalyzerOptions& analyzerOptions() const override { return options; }
  AnalysisSummary& totals() override { return summary; }
  int newConnectionId() override { return connectionIds++; }

  void anomaly(Anomaly a) override {
    if (a.what.phrase != DetailPhrase::None) a.detail = anomalyDetailText(a);
    if (anomalyObserver) anomalyObserver(a);
    if (anomalies.size() < options.maxAnomalies) {
      // The list never grows past the limit: room for all of it at the first one, so it is
      // never moved (a capture may have 100,000, and each move touches fresh memory).
      if (anomalies.capacity() == 0)
        anomalies.reserve(std::min<std::size_t>(options.maxAnomalies, kAnomalyReserve));
      anomalies.push_back(std::move(a));
    } else {
      ++anomaliesDropped;
    }
  }

  void message(const MessageRecord& r) override {
    if (messageObserver) messageObserver(r);
    if (messages.size() < options.maxMessages) {
      messages.push_back(r);
    } else {
      ++messagesDropped;
    }
  }

  void tcpSegment(const TcpSegmentEnds& segment) override {
    if (tcpSegmentObserver) tcpSegmentObserver(segment);
  }

  void summarise(Connection& c, int d, InflightMessage& m, Outcome outcome, std::uint64_t frame,
                 double time) {
    MessageRecord& r = m.rec;
    if (r.detail.empty()) {
      if (r.startMissing) r.detail = "first packet never seen";
      if (m.requestDone && !m.lastSeen)
        r.detail += std::string(r.detail.empty() ? "" : "; ") + "last packet never seen";
    }
    r.outcome = outcome;
    r.endFrame = frame;
    r.end = time;
    countMessage(c.st[d], c.firstTime, r, !unacknowledged(c), summary, options);
    message(r);
  }

  // ---- connections ---------------------------------------------------------------------------

  static bool covers(const Requester& r, std::uint32_t psn) {
    if (!r.started || r.inflight.empty()) return false;
    return psnDiff(psn, r.inflight.front().rec.firstPsn) >= 0 &&
           psnDiff(psn, psnAdd(r.nextPsn, r.readSlack)) < 0;
  }

  std::pair<Connection*, int> locate(const PacketFacts& f, const OpClass& cls) {
    FlowKey key{f.carrier, f.source, f.destination, f.destQp};
    if (auto it = flows.find(key); it != flows.end()) return it->second;
    const bool datagram = cls.transport == packets::IbTransport::Ud;
    if (!datagram) {
      // The reverse flow of the same QP pair: an unpaired connection whose first flow went
      // from this frame's destination to its source.
      std::vector<Connection*> candidates;
      for (auto& c : connections) {
        if (c->paired || c->datagram || c->carrier != f.carrier) continue;
        if (c->ep[0].address == f.destination && c->ep[1].address == f.source)
          candidates.push_back(c.get());
      }
      Connection* chosen = nullptr;
      if (cls.role == Role::Ack || cls.role == Role::ReadResponse || cls.role == Role::AtomicAck) {
        for (Connection* c : candidates)
          if (covers(c->req[0], f.psn)) {
            chosen = c;
            break;
          }
      }
      // A CM handshake names the peer QP exactly: it pairs flows even where addresses alone
      // cannot (several connections between the same two hosts).
      const auto peer = cm.peerQpn(f.destination, f.destQp, f.source);
      if (!chosen && peer) {
        for (Connection* c : candidates)
          if (c->ep[1].qp == *peer) {
            chosen = c;
            break;
          }
      }
      if (!chosen && candidates.size() == 1 && (!peer || candidates.front()->ep[1].qp == *peer))
        chosen = candidates.front();
      if (chosen) {
        chosen->paired = true;
        chosen->ep[0].qp = f.destQp;
        flows.emplace(std::move(key), std::make_pair(chosen, 1));
        return {chosen, 1};
      }
    }
    auto c = std::make_unique<Connection>(newConnectionId(), options.psnWindow);
    c->carrier = f.carrier;
    c->datagram = datagram;
    c->transport = std::string(packets::ibTransportName(cls.transport));
    c->ep[0].address = f.source;
    c->ep[1].address = f.destination;
    c->ep[1].qp = f.destQp;
    if (datagram && f.sourceQp) c->ep[0].qp = *f.sourceQp;
    c->firstFrame = f.frame;
    c->firstTime = f.time;
    ++summary.connections;
    flows.emplace(std::move(key), std::make_pair(c.get(), 0));
    connections.push_back(std::move(c));
    return {connections.back().get(), 0};
  }

  // ---- requests ------------------------------------------------------------------------------

  InflightMessage* messageAt(Requester& r, std::uint32_t psn,
                             std::optional<MessageKind> kind = {}) {
    for (auto& m : r.inflight) {
      if (kind && m.rec.kind != *kind) continue;
      const std::int32_t from = psnDiff(psn, m.rec.firstPsn);
      if (from < 0) continue;
      const std::uint32_t last =
          m.requestDone ? m.rec.lastPsn
                        : (m.rec.kind == MessageKind::Read ? psnAdd(m.rec.firstPsn, m.spanMax - 1)
                                                           : psnAdd(r.nextPsn, -1));
      const std::uint32_t lastMax = m.rec.kind == MessageKind::Read && !m.responseStarted
                                        ? psnAdd(m.rec.firstPsn, m.spanMax - 1)
                                        : last;
      if (psnDiff(psn, lastMax) <= 0) return &m;
    }
    return nullptr;
  }

  void closeOpen(Connection& c, int d, std::uint32_t nextFirst) {
    Requester& r = c.req[d];
    if (r.inflight.empty() || r.inflight.back().requestDone) return;
    InflightMessage& m = r.inflight.back();
    m.requestDone = true;
    m.rec.lastPsn = psnAdd(nextFirst, -1);
    if (unacknowledged(c)) {
      // Without ACKs nothing resends it: the receiver drops the whole message.
      summarise(c, d, m, Outcome::Failed, m.rec.lastRequestFrame, m.rec.start);
      r.inflight.pop_back();
    }
  }

  // A message starting at this packet (or, its first packets missing, at firstPsn); counted.
  InflightMessage makeMessage(const Connection& c, int d, const PacketFacts& f, const OpClass& cls,
                              std::uint32_t firstPsn) {
    InflightMessage m;
    m.rec.connection = c.id;
    m.rec.direction = d;
    m.rec.kind = cls.kind;
    m.rec.firstPsn = firstPsn;
    m.rec.lastPsn = f.psn;
    m.rec.firstFrame = f.frame;
    m.rec.start = f.time;
    m.rec.dmaLength = f.dmaLength;
    ++summary.messages;
    return m;
  }

  void newMessage(Connection& c, int d, const PacketFacts& f, const OpClass& cls,
                  std::uint32_t firstPsn, bool startMissing) {
    Requester& r = c.req[d];
    InflightMessage m = makeMessage(c, d, f, cls, firstPsn);
    m.rec.startMissing = startMissing;
    r.inflight.push_back(std::move(m));
  }

  void handleRequest(Connection& c, int d, const PacketFacts& f, const OpClass& cls) {
    Requester& r = c.req[d];
    DirectionStats& s = c.st[d];
    ++s.requestFrames;
    s.wireBytes += f.frameLength;
    if (cls.payload && !cls.last && f.payloadLength >= kMinMtu && f.payloadLength <= kMaxMtu &&
        std::has_single_bit(f.payloadLength))
      c.pmtu = std::max(c.pmtu, f.payloadLength);
    if (!r.started) {
      r.started = true;
      r.nextPsn = f.psn;
    }
    const std::uint32_t p = f.psn;
    if (cls.kind == MessageKind::Read) {
      const InflightMessage* m = messageAt(r, p);
      if (!m) {
        noteReRequest(r, p);
      } else if (m->rec.firstPsn == p && r.seen.contains(p)) {
        // A READ request sent again before its answer: a responder that got both answers both.
        r.reRequested.emplace_back(p, m->rec.lastPsn);
        if (r.reRequested.size() > kAnsweredReadsKept) r.reRequested.pop_front();
      }
    }
    if (r.seen.contains(p)) {
      resend(c, d, f);
    } else {
      std::int32_t diff = psnDiff(p, r.nextPsn);
      if (diff > 0 && static_cast<std::uint32_t>(diff) <= r.readSlack) {
        // The READ before used fewer PSNs than its longest possible span: now it is known.
        if (!r.inflight.empty() && r.inflight.back().rec.kind == MessageKind::Read) {
          r.inflight.back().rec.lastPsn = psnAdd(p, -1);
          r.inflight.back().spanMax =
              static_cast<std::uint32_t>(psnDiff(p, r.inflight.back().rec.firstPsn));
        }
        r.nextPsn = p;
        diff = 0;
      }
      if (diff < 0) {
        fill(c, d, f, cls);
      } else {
        fresh(c, d, f, cls, diff);
      }
    }
    r.haveLast = true;
    r.lastPsn = p;
    r.lastHash = f.contentHash;
    r.lastFrame = f.frame;
    r.lastTime = f.time;
    r.lastActivity = f.time;
  }

  void resend(Connection& c, int d, const PacketFacts& f) {
    Requester& r = c.req[d];
    DirectionStats& s = c.st[d];
    const std::uint32_t p = f.psn;
    ++summary.resentFrames;
    ++s.resentFrames;
    if (InflightMessage* m = messageAt(r, p)) {
      ++m->rec.resentPackets;
      if (m->requestDone && m->rec.lastPsn == p) m->lastPsnSent = f.time;
    }
    Anomaly a = anomalyAt(AnomalyKind::Retransmission, f, d);
    if (continuesRetry(r, p)) {
      a.kind = AnomalyKind::Retransmission;
      a.relatedFrame = r.retryTrigger;
      a.what.phrase = DetailPhrase::ResentGoBackN;
      a.what.code = static_cast<std::uint8_t>(r.retryCause);
      unseen(a.what, r.retryNext, p);
      r.retryNext = psnAdd(p, 1);
    } else if (auto nak = nakExplaining(c, d, p, f.time)) {
      a.kind = AnomalyKind::Retransmission;
      a.relatedFrame = nak->frame;
      a.wait = f.time - nak->time;
      startRetry(r, nak->rnr ? RetryCause::Rnr : RetryCause::Nak, p, nak->frame);
      if (nak->rnr) {
        s.rnrWaitTotal += a.wait;
        s.rnrWaitMax = std::max(s.rnrWaitMax, a.wait);
        a.what.phrase = DetailPhrase::ResentAfterRnrNak;
      } else {
        a.what.phrase = DetailPhrase::ResentAfterNak;
      }
      unseen(a.what, nak->psn, p);
    } else if (r.haveLast && r.lastPsn == p && r.lastHash == f.contentHash &&
               f.time - r.lastTime <= options.duplicateGap) {
      a.kind = AnomalyKind::Duplicate;
      a.relatedFrame = r.lastFrame;
      ++summary.duplicates;
      ++s.duplicates;
      a.what.phrase = DetailPhrase::CopyOfFrame;
    } else {
      timeout(c, d, f);
      a.kind = AnomalyKind::Retransmission;
      a.what.phrase = DetailPhrase::ResentAfterTimeout;
    }
    if (r.inRetry && psnDiff(r.retryNext, r.nextPsn) >= 0) r.inRetry = false;
    emit(std::move(a), &c);
  }

  // A resend answers a pending NAK when it follows the NAK promptly: sooner than half the
  // longest timeout wait seen on the connection (the requester's ACK timer is fixed per QP),
  // or, before any timeout, within four times the 90th-percentile round trip, or, before any
  // round trip, within the second half of the requester's silence. A later resend is the ACK
  // timer firing: the NAK was lost between the capture point and the requester. RNR NAKs
  // always explain the resend (the requester waits out the timer the NAK named).
  std::optional<PendingNak> nakExplaining(Connection& c, int d, std::uint32_t psn, double t) {
    Requester& r = c.req[d];
    // The retry starts at the NAK's PSN; its first packets may have been lost again before
    // the capture point, so a resend a little after the NAK's PSN answers it too.
    auto it = std::find_if(r.naks.rbegin(), r.naks.rend(), [&](const PendingNak& n) {
      const std::int32_t after = psnDiff(psn, n.psn);
      return after >= 0 && psnDiff(psn, r.nextPsn) < 0;
    });
    if (it == r.naks.rend()) return std::nullopt;
    const PendingNak nak = *it;
    // The requester answers one NAK at a time: older ones are moot once this one is answered.
    r.naks.erase(r.naks.begin(), it.base());
    if (nak.rnr) return nak;
    const double reaction = t - nak.time;
    bool prompt = false;
    if (reaction <= options.duplicateGap) {
      prompt = true;
    } else if (r.maxTimeoutWait > 0) {
      prompt = reaction < 0.5 * r.maxTimeoutWait;
    } else if (r.rtt.count()) {
      prompt = reaction <= 4e-9 * static_cast<double>(r.rtt.percentile(90));
    } else {
      prompt = reaction <= 0.5 * (t - r.lastTime);
    }
    return prompt ? std::optional(nak) : std::nullopt;
  }

  static bool continuesRetry(const Requester& r, std::uint32_t psn) {
    return r.inRetry && psnDiff(psn, r.retryNext) >= 0 && psnDiff(psn, r.nextPsn) < 0;
  }

  // " (PSNs a..b of the retry not seen)" when a retry skipped PSNs lost again.
  static void unseen(AnomalyDetail& what, std::uint32_t expected, std::uint32_t got) {
    const std::int32_t n = psnDiff(got, expected);
    if (n <= 0) return;
    what.unseen = n == 1 ? UnseenPsns::One : UnseenPsns::Range;
    what.from = expected;
    what.to = psnAdd(got, -1);
  }

  static void addNak(Requester& r, PendingNak nak) {
    r.naks.push_back(nak);
    if (r.naks.size() > 16) r.naks.pop_front();
  }

  void startRetry(Requester& r, RetryCause cause, std::uint32_t psn, std::uint64_t trigger) {
    r.inRetry = true;
    r.retryCause = cause;
    r.retryNext = psnAdd(psn, 1);
    r.retryTrigger = trigger;
    r.gapOpen = false;
  }

  void timeout(Connection& c, int d, const PacketFacts& f) {
    Requester& r = c.req[d];
    ++summary.timeouts;
    ++c.st[d].timeouts;
    Anomaly t = anomalyAt(AnomalyKind::Timeout, f, d);
    t.wait = f.time - r.lastActivity;
    r.maxTimeoutWait = std::max(r.maxTimeoutWait, t.wait);
    t.what.phrase = DetailPhrase::AckTimerFired;
    emit(std::move(t), &c);
    startRetry(r, RetryCause::Timeout, f.psn, f.frame);
  }

  void fill(Connection& c, int d, const PacketFacts& f, const OpClass& cls) {
    Requester& r = c.req[d];
    DirectionStats& s = c.st[d];
    const std::uint32_t p = f.psn;
    r.seen.insert(p);
    Anomaly a = anomalyAt(AnomalyKind::Retransmission, f, d);
    InflightMessage* m = messageAt(r, p);
    const bool reRequest =
        cls.kind == MessageKind::Read && !m &&
        std::any_of(r.answeredReads.begin(), r.answeredReads.end(), [&](const auto& span) {
          return psnDiff(p, span.first) > 0 && psnDiff(p, span.second) <= 0;
        });
    if (reRequest) {
      a.what.phrase = DetailPhrase::ReadReRequested;
      emit(std::move(a), &c);
      return;
    }
    if (m && m->rec.kind == MessageKind::Read && m->rec.firstPsn != p) {
      // Within the PSNs a READ reserved: a READ re-requested from where its responses stopped,
      // or, before any response, a request the READ's longest possible span hid, which shows
      // the READ used fewer PSNs.
      if (cls.kind == MessageKind::Read && m->responseStarted) {
        a.kind = AnomalyKind::Retransmission;
        a.relatedFrame = m->rec.firstFrame;
        a.what.phrase = DetailPhrase::ReadReRequestedResponsesMissing;
        emit(std::move(a), &c);
        return;
      }
      if (!m->responseStarted) {
        m->spanMax = static_cast<std::uint32_t>(psnDiff(p, m->rec.firstPsn));
        m->rec.lastPsn = psnAdd(p, -1);
      }
      m = nullptr;
    }
    if (!m) m = placeLate(c, d, f, cls);
    if (m->requestDone && m->rec.lastPsn == p) m->lastPsnSent = f.time;
    ++m->rec.packets;
    if (cls.kind != MessageKind::Read) m->rec.bytes += f.payloadLength;
    if (cls.kind != MessageKind::Read) {
      s.payloadBytes += f.payloadLength;
      bucket(c, d, f.time).bytes += f.payloadLength;
    }
    a.kind = AnomalyKind::GapFilled;
    if (continuesRetry(r, p)) {
      a.relatedFrame = r.retryTrigger;
      a.what.phrase = DetailPhrase::ArrivedGoBackN;
      a.what.code = static_cast<std::uint8_t>(r.retryCause);
      unseen(a.what, r.retryNext, p);
      r.retryNext = psnAdd(p, 1);
    } else if (auto nak = nakExplaining(c, d, p, f.time)) {
      a.relatedFrame = nak->frame;
      a.what.phrase = DetailPhrase::ArrivedAfterNak;
      unseen(a.what, nak->psn, p);
      startRetry(r, nak->rnr ? RetryCause::Rnr : RetryCause::Nak, p, nak->frame);
    } else if (r.gapOpen && f.time - r.gapTime <= options.duplicateGap) {
      a.kind = AnomalyKind::Reordered;
      a.what.phrase = DetailPhrase::ArrivedLate;
    } else {
      timeout(c, d, f);
      a.what.phrase = DetailPhrase::ArrivedAfterTimeout;
    }
    if (r.inRetry && psnDiff(r.retryNext, r.nextPsn) >= 0) r.inRetry = false;
    emit(std::move(a), &c);
  }

  // The message a packet captured after later PSNs belongs to (its packet not yet counted):
  // it extends the message just before it whose LAST was not seen, unless it is a FIRST; it
  // starts the message just after it whose FIRST was not seen, unless it is a LAST; a MIDDLE
  // between the two joins them into one; otherwise it is a message (or a piece of one) of its
  // own, placed in PSN order.
  InflightMessage* placeLate(Connection& c, int d, const PacketFacts& f, const OpClass& cls) {
    Requester& r = c.req[d];
    const std::uint32_t p = f.psn;
    const bool multiPacket = cls.kind == MessageKind::Send || cls.kind == MessageKind::Write;
    auto left = r.inflight.end(), right = r.inflight.end();
    if (multiPacket) {
      for (auto it = r.inflight.begin(); it != r.inflight.end(); ++it) {
        if (it->rec.kind != cls.kind) continue;
        if (!cls.first && it->requestDone && !it->lastSeen && it->rec.lastPsn == psnAdd(p, -1))
          left = it;
        if (!cls.last && it->rec.startMissing && it->rec.firstPsn == psnAdd(p, 1)) right = it;
      }
    }
    if (left != r.inflight.end()) {
      InflightMessage& m = *left;
      m.rec.lastPsn = p;
      m.lastSeen = cls.last;
      m.rec.lastRequestFrame = std::max(m.rec.lastRequestFrame, f.frame);
      if (right == r.inflight.end()) return &m;
      join(m, *right);
      const std::uint32_t first = m.rec.firstPsn;
      r.inflight.erase(right);
      return &*std::find_if(r.inflight.begin(), r.inflight.end(),
                            [&](const InflightMessage& x) { return x.rec.firstPsn == first; });
    }
    if (right != r.inflight.end()) {
      InflightMessage& m = *right;
      m.rec.firstPsn = p;
      m.rec.startMissing = !cls.first;
      if (f.dmaLength) m.rec.dmaLength = f.dmaLength;
      return &m;
    }
    return insertLate(c, d, f, cls);
  }

  // Appends the message that follows `m` (its PSNs after m's, the ones between unseen) to it.
  void join(InflightMessage& m, const InflightMessage& next) {
    m.rec.lastPsn = next.rec.lastPsn;
    m.lastSeen = next.lastSeen;
    m.requestDone = next.requestDone;
    m.lastPsnSent = next.lastPsnSent;
    m.rec.packets += next.rec.packets;
    m.rec.resentPackets += next.rec.resentPackets;
    m.rec.bytes += next.rec.bytes;
    m.rec.lastRequestFrame = std::max(m.rec.lastRequestFrame, next.rec.lastRequestFrame);
    if (next.rec.firstFrame < m.rec.firstFrame) {
      m.rec.firstFrame = next.rec.firstFrame;
      m.rec.start = next.rec.start;
    }
    if (!m.rec.dmaLength) m.rec.dmaLength = next.rec.dmaLength;
    --summary.messages;
  }

  // A message whose first packet arrives after later PSNs did, placed in PSN order; later
  // PSNs were captured, so it is not open: its end is known if it is a LAST or ONLY.
  InflightMessage* insertLate(Connection& c, int d, const PacketFacts& f, const OpClass& cls) {
    Requester& r = c.req[d];
    const std::uint32_t p = f.psn;
    InflightMessage m = makeMessage(c, d, f, cls, p);
    m.rec.lastRequestFrame = f.frame;
    m.rec.startMissing = !cls.first;
    m.requestDone = true;
    m.lastSeen = cls.last;
    m.nextResponse = p;
    auto at = std::find_if(r.inflight.begin(), r.inflight.end(), [&](const InflightMessage& x) {
      return psnDiff(x.rec.firstPsn, p) > 0;
    });
    if (cls.kind == MessageKind::Read) {
      // Its responses use at most the PSNs up to the next request captured.
      const std::uint64_t len = f.dmaLength.value_or(0);
      std::uint32_t span = c.pmtu ? ceilDiv(len, c.pmtu) : ceilDiv(len, kMinMtu);
      const std::uint32_t next = at != r.inflight.end() ? at->rec.firstPsn : r.nextPsn;
      if (psnDiff(next, p) > 0) span = std::min(span, static_cast<std::uint32_t>(psnDiff(next, p)));
      m.spanMax = span;
      m.rec.lastPsn = psnAdd(p, span - 1);
    }
    return &*r.inflight.insert(at, std::move(m));
  }

  void fresh(Connection& c, int d, const PacketFacts& f, const OpClass& cls, std::int32_t gap) {
    Requester& r = c.req[d];
    DirectionStats& s = c.st[d];
    const std::uint32_t p = f.psn;
    const std::uint32_t expected = r.nextPsn;
    if (gap > 0 && !c.datagram) {
      psnGap(c, d, f, expected, gap, DetailPhrase::PsnGap);
      r.gapOpen = true;
      r.gapTime = f.time;
    }
    r.seen.insert(p);
    r.inRetry = false;
    InflightMessage* open =
        !r.inflight.empty() && !r.inflight.back().requestDone ? &r.inflight.back() : nullptr;
    // With resends (RC), PSNs lost before this one may hold the open message's LAST and the
    // next one's FIRST: the open message ends at the gap until they show.
    const bool resends = !unacknowledged(c);
    if (cls.first) {
      if (open) closeOpen(c, d, gap > 0 ? expected : p);
      newMessage(c, d, f, cls, p, false);
    } else if (open && open->rec.kind == cls.kind && (gap == 0 || !resends)) {
      // continues the open message
    } else {
      if (open) closeOpen(c, d, expected);
      newMessage(c, d, f, cls, gap > 0 && !resends ? expected : p, true);
    }
    InflightMessage& m = r.inflight.back();
    ++m.rec.packets;
    m.rec.lastRequestFrame = f.frame;
    if (cls.kind != MessageKind::Read) {
      m.rec.bytes += f.payloadLength;
      s.payloadBytes += f.payloadLength;
      bucket(c, d, f.time).bytes += f.payloadLength;
    }
    std::uint32_t span = 1;
    r.readSlack = 0;
    if (cls.kind == MessageKind::Read) {
      const std::uint64_t len = f.dmaLength.value_or(0);
      if (c.pmtu) {
        span = ceilDiv(len, c.pmtu);
        m.spanMax = span;
      } else {
        span = ceilDiv(len, kMaxMtu);
        m.spanMax = ceilDiv(len, kMinMtu);
        r.readSlack = m.spanMax - span;
      }
      m.nextResponse = p;
    }
    r.nextPsn = psnAdd(p, span);
    if (cls.last) {
      m.requestDone = true;
      m.lastSeen = true;
      m.rec.lastPsn = psnAdd(p, span - 1);
      m.lastPsnSent = f.time;
      if (unacknowledged(c)) {
        summarise(c, d, m, Outcome::Completed, f.frame, f.time);
        r.inflight.pop_back();
      }
    }
  }

  static bool unacknowledged(const Connection& c) { return c.datagram || c.transport == "UC"; }

  // ---- responses -----------------------------------------------------------------------------

  // The requests up to that PSN were received. A message whose LAST was not seen is complete
  // only when PSNs after it were received too (a NAK at the PSN after it says the LAST was
  // lost); if those were never captured, they continue it when the piece after it lacks its
  // FIRST too.
  void completeUpTo(Connection& c, int d, std::uint32_t psn, const PacketFacts& f) {
    Requester& r = c.req[d];
    for (auto it = r.inflight.begin(); it != r.inflight.end();) {
      if (it->requestDone && !it->lastSeen && psnDiff(it->rec.lastPsn, psn) < 0) {
        auto next = std::next(it);
        if (next != r.inflight.end() && next->rec.kind == it->rec.kind && next->rec.startMissing &&
            psnDiff(next->rec.firstPsn, it->rec.lastPsn) > 0) {
          join(*it, *next);
          r.inflight.erase(next);
          it = r.inflight.begin();
          continue;
        }
      }
      ++it;
    }
    for (auto it = r.inflight.begin(); it != r.inflight.end();) {
      if (it->requestDone && it->rec.kind != MessageKind::Read &&
          it->rec.kind != MessageKind::Atomic && psnDiff(it->rec.lastPsn, psn) <= 0 &&
          (it->lastSeen || psnDiff(it->rec.lastPsn, psn) < 0)) {
        if (it->rec.lastPsn == psn && it->lastPsnSent >= 0 && f.time >= it->lastPsnSent)
          r.rtt.add(static_cast<std::uint64_t>(std::llround((f.time - it->lastPsnSent) * 1e9)));
        summarise(c, d, *it, Outcome::Completed, f.frame, f.time);
        it = r.inflight.erase(it);
      } else {
        ++it;
      }
    }
  }

  void handleResponse(Connection& c, int d, const PacketFacts& f, const OpClass& cls) {
    Requester& r = c.req[d];
    DirectionStats& s = c.st[d];
    ++s.responseFrames;
    s.wireBytes += f.frameLength;
    r.lastActivity = f.time;
    const std::uint32_t p = f.psn;
    if (cls.role == Role::Ack) {
      const std::uint8_t syn = f.aethSyndrome.value_or(0);
      const auto kind = static_cast<packets::AethKind>((syn >> 5) & 3);
      Anomaly a = anomalyAt(AnomalyKind::Retransmission, f, d);
      switch (kind) {
        case packets::AethKind::Ack:
          completeUpTo(c, d, p, f);
          return;
        case packets::AethKind::RnrNak: {
          ++summary.rnrNaks;
          ++s.rnrNaks;
          completeUpTo(c, d, psnAdd(p, -1), f);
          addNak(r, PendingNak{p, f.frame, f.time, true});
          a.kind = AnomalyKind::RnrNak;
          const double timerMs = rnrTimerMilliseconds(syn & 31);
          a.what.phrase = DetailPhrase::ReceiverNotReady;
          a.what.code = syn & 31;
          a.wait = timerMs / 1000.0;
          emit(std::move(a), &c);
          return;
        }
        case packets::AethKind::Nak: {
          ++summary.naks;
          ++s.naks;
          const std::uint8_t code = syn & 31;
          completeUpTo(c, d, psnAdd(p, -1), f);
          a.kind = AnomalyKind::Nak;
          a.what.phrase = DetailPhrase::NakAtPsn;
          a.what.code = code;
          if (code == static_cast<std::uint8_t>(packets::NakCode::PsnSequenceError)) {
            addNak(r, PendingNak{p, f.frame, f.time, false});
          } else {
            for (auto it = r.inflight.begin(); it != r.inflight.end(); ++it) {
              const bool covers = psnDiff(p, it->rec.firstPsn) >= 0 &&
                                  (!it->requestDone || psnDiff(p, it->rec.lastPsn) <= 0);
              if (!covers) continue;
              it->rec.detail = std::string(packets::nakCodeName(code));
              a.relatedFrame = it->rec.firstFrame;
              summarise(c, d, *it, Outcome::Failed, f.frame, f.time);
              r.inflight.erase(it);
              break;
            }
          }
          emit(std::move(a), &c);
          return;
        }
        case packets::AethKind::Reserved:
          return;
      }
      return;
    }
    if (cls.role == Role::AtomicAck) {
      const bool outstanding =
          std::any_of(r.inflight.begin(), r.inflight.end(), [&](const InflightMessage& x) {
            return x.rec.kind == MessageKind::Atomic && x.rec.firstPsn == p;
          });
      if (!outstanding) {
        repeatedResponse(c, d, f, DetailPhrase::AtomicAckUnexpected);
        return;
      }
      completeUpTo(c, d, psnAdd(p, -1), f);
      complete(c, d, MessageKind::Atomic, p, f);
      return;
    }
    // READ response.
    InflightMessage* m = messageAt(r, p, MessageKind::Read);
    if (!m) {
      // The answer to a READ asked again (reported at the request), or to one sent before the
      // capture began: neither is a response the responder should not have sent.
      if (!r.started || answersReRequest(r, p)) return;
      repeatedResponse(c, d, f, DetailPhrase::ReadResponseUnexpected);
      return;
    }
    if (cls.payload && !cls.last && f.payloadLength >= kMinMtu && f.payloadLength <= kMaxMtu &&
        std::has_single_bit(f.payloadLength))
      c.pmtu = std::max(c.pmtu, f.payloadLength);
    // A READ sent before the path MTU was known was sized as one PSN; its first response
    // shows the MTU, and so how many PSNs the responses use.
    if (!m->responseStarted && c.pmtu && m->rec.dmaLength) {
      m->spanMax = std::max<std::uint32_t>(
          1, static_cast<std::uint32_t>(ceilDiv(*m->rec.dmaLength, c.pmtu)));
      m->rec.lastPsn = psnAdd(m->rec.firstPsn, m->spanMax - 1);
      settleReadSpan(r, *m);
    }
    const std::int32_t ahead = psnDiff(p, m->nextResponse);
    if (ahead < 0) {
      repeatedResponse(c, d, f, DetailPhrase::ReadResponseAgain);
      return;
    }
    if (ahead > 0) psnGap(c, d, f, m->nextResponse, ahead, DetailPhrase::ReadResponseGap);
    m->responseStarted = true;
    m->nextResponse = psnAdd(p, 1);
    m->rec.bytes += f.payloadLength;
    s.payloadBytes += f.payloadLength;
    bucket(c, d, f.time).bytes += f.payloadLength;
    const std::uint32_t first = m->rec.firstPsn;
    if (cls.last) {
      m->rec.lastPsn = p;
      m->requestDone = true;
      settleReadSpan(r, *m);
      // Responses come in order: every request before the READ was carried out.
      completeUpTo(c, d, psnAdd(first, -1), f);
      complete(c, d, MessageKind::Read, first, f);
    } else {
      completeUpTo(c, d, psnAdd(first, -1), f);
    }
  }

  // A READ request at a PSN of a READ already answered asks for those responses again.
  static void noteReRequest(Requester& r, std::uint32_t p) {
    for (const auto& span : r.answeredReads) {
      if (psnDiff(p, span.first) < 0 || psnDiff(p, span.second) > 0) continue;
      r.reRequested.emplace_back(p, span.second);
      if (r.reRequested.size() > kAnsweredReadsKept) r.reRequested.pop_front();
      return;
    }
  }

  // A READ response within the PSNs a request asked for again; its span is forgotten once its
  // last PSN has been answered.
  static bool answersReRequest(Requester& r, std::uint32_t p) {
    for (auto it = r.reRequested.begin(); it != r.reRequested.end(); ++it) {
      if (psnDiff(p, it->first) < 0 || psnDiff(p, it->second) > 0) continue;
      if (p == it->second) r.reRequested.erase(it);
      return true;
    }
    return false;
  }

  // The responses showed the PSNs a READ uses (rec.lastPsn): where it is the last request sent,
  // the next request's PSN follows them (a request within them re-requests responses).
  static void settleReadSpan(Requester& r, const InflightMessage& m) {
    if (&r.inflight.back() != &m) return;
    const std::uint32_t next = psnAdd(m.rec.lastPsn, 1);
    if (psnDiff(next, r.nextPsn) > 0) r.nextPsn = next;
    r.readSlack = 0;
  }

  // The message of that kind starting at that PSN completes at this response.
  void complete(Connection& c, int d, MessageKind kind, std::uint32_t firstPsn,
                const PacketFacts& f) {
    Requester& r = c.req[d];
    for (auto it = r.inflight.begin(); it != r.inflight.end(); ++it)
      if (it->rec.kind == kind && it->rec.firstPsn == firstPsn) {
        if (kind == MessageKind::Read) {
          r.answeredReads.emplace_back(firstPsn, it->rec.lastPsn);
          if (r.answeredReads.size() > kAnsweredReadsKept) r.answeredReads.pop_front();
        }
        summarise(c, d, *it, Outcome::Completed, f.frame, f.time);
        r.inflight.erase(it);
        return;
      }
  }

  void repeatedResponse(Connection& c, int d, const PacketFacts& f, DetailPhrase phrase) {
    Anomaly a = anomalyAt(AnomalyKind::RepeatedResponse, f, d);
    a.what.phrase = phrase;
    emit(std::move(a), &c);
  }

  // ---- the Communication Manager -------------------------------------------------------------

  // The RC/UC connection a handshake set up: the two addresses and the QPNs of the REQ and REP,
  // first seen at or after the REQ. -1 when there is none.
  int connectionOf(const CmHandshake& h) const {
    if (!h.clientQpn || !h.serverQpn || h.steps.empty()) return -1;
    int fallback = -1;
    for (const auto& cp : connections) {
      const Connection& c = *cp;
      if (c.datagram) continue;
      const bool forward = c.ep[0].address == h.client && c.ep[1].address == h.server &&
                           c.ep[1].qp == h.serverQpn && (!c.ep[0].qp || c.ep[0].qp == h.clientQpn);
      const bool backward = c.ep[0].address == h.server && c.ep[1].address == h.client &&
                            c.ep[1].qp == h.clientQpn && (!c.ep[0].qp || c.ep[0].qp == h.serverQpn);
      if (!forward && !backward) continue;
      if (c.firstFrame >= h.steps.front().frame) return c.id;
      if (fallback < 0) fallback = c.id;
    }
    return fallback;
  }

  // ---- a packet ------------------------------------------------------------------------------

  // A PFC or PAUSE frame: counted with its port and priority, and the storms it shows.
  void addPause(const packets::MacControlFrame& m, std::uint64_t frame, double time) {
    ++summary.frames;
    lastTime = std::max(lastTime, time);
    for (auto& a : congestion.pauseFrame(m, frame, time)) {
      ++summary.pauseStorms;
      emit(std::move(a), nullptr);
    }
    summary.pauseFrames = congestion.pauseFrames();
  }

  void add(const PacketFacts& f) {
    lastTime = std::max(lastTime, f.time);
    ++summary.frames;
    ++summary.rdmaFrames;
    const OpClass cls = classifyOpcode(f.opcode);
    auto [cp, side] = locate(f, cls);
    Connection& c = *cp;
    ++c.frames;
    c.lastFrame = f.frame;
    c.lastTime = std::max(c.lastTime, f.time);
    if (c.frames == 1) {
      c.firstFrame = f.frame;
      c.firstTime = f.time;
    }
    // The direction whose requests this frame belongs to (requests, or answers to them).
    const bool answer =
        cls.role == Role::Ack || cls.role == Role::ReadResponse || cls.role == Role::AtomicAck;
    const int d = (answer || cls.role == Role::Cnp) ? 1 - side : side;
    touch(c, d, f.time);
    auto note = [&](AnomalyKind kind, DetailPhrase phrase) {
      Anomaly a = anomalyAt(kind, f, d);
      a.what.phrase = phrase;
      if (phrase == DetailPhrase::CnpToQp) a.what.number = f.destQp;
      emit(std::move(a), &c);
    };
    if (f.crcBad) {
      ++summary.icrcFailures;
      ++c.st[d].icrcFailures;
      note(AnomalyKind::IcrcFailure, DetailPhrase::IcrcWrong);
      return;
    }
    if (f.cm)
      if (auto reject = cm.add(f)) {
        Anomaly a = anomalyAt(AnomalyKind::CmReject, f, d);
        a.what = reject->what;
        a.detailNames.push_back(std::move(reject->source));
        emit(std::move(a), &c);
      }
    // A CNP carries BECN = 1 by definition (IBTA annex A17.9.3): not a separate mark.
    const bool fecn = f.fecn && cls.role != Role::Cnp;
    const bool becn = f.becn && cls.role != Role::Cnp;
    if (f.ipEcn == 3 || fecn || becn) {
      ++summary.ecnMarks;
      ++c.st[d].ecnMarks;
    }
    if (f.ipEcn == 3) note(AnomalyKind::EcnCe, DetailPhrase::EcnCe);
    if (fecn) note(AnomalyKind::Fecn, DetailPhrase::Fecn);
    if (becn) note(AnomalyKind::Becn, DetailPhrase::Becn);
    switch (cls.role) {
      case Role::Cnp:
        ++summary.cnps;
        ++c.st[d].cnps;
        note(AnomalyKind::Cnp, DetailPhrase::CnpToQp);
        if (auto a = congestion.cnp(c.id, d, f)) {
          ++summary.cnpsWithoutMark;
          emit(std::move(*a), &c);
        }
        return;
      case Role::Request:
        congestion.request(c.id, d, f, f.destination);
        handleRequest(c, d, f, cls);
        return;
      case Role::Ack:
      case Role::ReadResponse:
      case Role::AtomicAck:
        handleResponse(c, d, f, cls);
        return;
      case Role::Other:
        return;
    }
  }

  void finish() {
    if (finished) return;
    finished = true;
    iwarp.finish();
    for (auto& cp : connections) {
      Connection& c = *cp;
      for (int d = 0; d < 2; ++d) {
        Requester& r = c.req[d];
        while (!r.inflight.empty()) {
          InflightMessage& m = r.inflight.front();
          Anomaly a = makeAnomaly(
              AnomalyKind::IncompleteMessage, m.rec.firstFrame, m.rec.start, d, m.rec.firstPsn,
              m.requestDone ? DetailPhrase::NeverAcknowledged : DetailPhrase::NeverFullySent);
          a.what.code = static_cast<std::uint8_t>(m.rec.kind);
          emit(std::move(a), &c);
          summarise(c, d, m, Outcome::Incomplete, 0, m.rec.start);
          r.inflight.pop_front();
        }
      }
    }
    for (auto& a : congestion.finish(lastTime)) {
      if (a.kind == AnomalyKind::PauseStorm) ++summary.pauseStorms;
      Connection* c = nullptr;
      for (auto& cp : connections)
        if (cp->id == a.connection) c = cp.get();
      emit(std::move(a), c);
    }
    summary.victimFlows = congestion.victims();
    summary.marksWithoutCnp = congestion.marksWithoutCnp();
    sortAnomaliesByFrame(anomalies);
  }

  AnalysisReport reportWith(std::vector<Anomaly> kept, std::vector<MessageRecord> keptMessages);

  ConnectionReport reportOf(const Connection& c) const {
    ConnectionReport r;
    r.id = c.id;
    r.carrier = c.carrier;
    r.transport = c.transport;
    r.a = c.ep[0];
    r.b = c.ep[1];
    r.dir[0] = c.st[0];
    r.dir[1] = c.st[1];
    r.frames = c.frames;
    r.firstFrame = c.firstFrame;
    r.lastFrame = c.lastFrame;
    r.firstTime = c.firstTime;
    r.lastTime = c.lastTime;
    return r;
  }
};

FlowAnalyzer::FlowAnalyzer(AnalyzerOptions options) : impl_(std::make_unique<Impl>(options)) {}
FlowAnalyzer::~FlowAnalyzer() = default;

namespace {

std::optional<packets::MacControlFrame> pauseFrame(std::span<const std::uint8_t> frame,
                                                   packets::LinkType link) {
  if (link == packets::LinkType::Ethernet && frame.size() >= 16 && frame[12] == 0x88 &&
      frame[13] == 0x08)
    if (auto m = packets::parseMacControl(frame); m && (m->pfc || m->pauseTime)) return m;
  return std::nullopt;
}

}  // namespace

packets::DecodeOptions FlowAnalyzer::factOptions() const {
  return Impl::decodeOptions(impl_->options);
}

bool FlowAnalyzer::readFacts(PacketFactReader& reader, std::span<const std::uint8_t> frame,
                             packets::LinkType link, std::uint64_t frameNumber, double time,
                             PacketFacts& facts) {
  return !pauseFrame(frame, link) && reader.read(frame, link, frameNumber, time, facts);
}

void FlowAnalyzer::addFrame(std::span<const std::uint8_t> frame, packets::LinkType link,
                            std::uint64_t frameNumber, double time) {
  if (const auto m = pauseFrame(frame, link)) {
    impl_->addPause(*m, frameNumber, time);
    return;
  }
  if (impl_->factReader.read(frame, link, frameNumber, time, impl_->facts)) {
    impl_->add(impl_->facts);
    return;
  }
  // Not RoCE/IB: the stateful decoder follows TCP streams and decodes iWARP in them.
  packets::FrameInfo info;
  info.number = frameNumber;
  info.timeRelative = time;
  const packets::Dissection d = impl_->decoder.decode(frame, link, info);
  ++impl_->summary.frames;
  impl_->iwarp.add(frame, d, impl_->decoder.lastUnits(), frameNumber, time);
}

void FlowAnalyzer::addPacket(const PacketFacts& packet) {
  impl_->add(packet);
}
void FlowAnalyzer::addOtherFrame() {
  ++impl_->summary.frames;
}
void FlowAnalyzer::finish() {
  impl_->finish();
}

void FlowAnalyzer::onMessage(std::function<void(const MessageRecord&)> observer) {
  impl_->messageObserver = std::move(observer);
}
void FlowAnalyzer::onAnomaly(std::function<void(const Anomaly&)> observer) {
  impl_->anomalyObserver = std::move(observer);
}
void FlowAnalyzer::onTcpSegment(std::function<void(const TcpSegmentEnds&)> observer) {
  impl_->tcpSegmentObserver = std::move(observer);
}

const AnalysisSummary& FlowAnalyzer::summary() const {
  return impl_->summary;
}

// The sort moves four-byte indexes, and each anomaly moves once into its place: no buffer of
// half the list (megabytes of fresh memory for 100,000 anomalies) as std::stable_sort takes.
void sortAnomaliesByFrame(std::vector<Anomaly>& list) {
  const auto byFrame = [](const Anomaly& x, const Anomaly& y) { return x.frame < y.frame; };
  if (std::is_sorted(list.begin(), list.end(), byFrame)) return;
  if (list.size() > std::numeric_limits<std::uint32_t>::max()) {
    std::stable_sort(list.begin(), list.end(), byFrame);
    return;
  }
  std::vector<std::uint32_t> from(list.size());  // position k takes the anomaly from[k]
  for (std::uint32_t i = 0; i < from.size(); ++i)
    from[i] = i;
  std::stable_sort(from.begin(), from.end(), [&list](std::uint32_t x, std::uint32_t y) {
    return list[x].frame < list[y].frame;
  });
  for (std::uint32_t i = 0; i < from.size(); ++i) {
    if (from[i] == i) continue;
    // One cycle of the permutation: i takes from[i], which takes its from, ... back to i.
    Anomaly first = std::move(list[i]);
    std::uint32_t at = i;
    while (from[at] != i) {
      const std::uint32_t next = from[at];
      list[at] = std::move(list[next]);
      from[at] = at;
      at = next;
    }
    list[at] = std::move(first);
    from[at] = at;
  }
}

AnalysisReport FlowAnalyzer::report() const {
  return impl_->reportWith(impl_->anomalies, impl_->messages);
}

AnalysisReport FlowAnalyzer::takeReport() {
  return impl_->reportWith(std::move(impl_->anomalies), std::move(impl_->messages));
}

AnalysisReport FlowAnalyzer::Impl::reportWith(std::vector<Anomaly> kept,
                                              std::vector<MessageRecord> keptMessages) {
  AnalysisReport r;
  r.summary = summary;
  for (const auto& c : connections)
    r.connections.push_back(reportOf(*c));
  iwarp.reports(r.connections);
  std::sort(r.connections.begin(), r.connections.end(),
            [](const ConnectionReport& x, const ConnectionReport& y) { return x.id < y.id; });
  r.anomalies = std::move(kept);
  // finish() sorted them; a report before it may not be in order yet.
  sortAnomaliesByFrame(r.anomalies);
  r.anomaliesDropped = anomaliesDropped;
  r.messages = std::move(keptMessages);
  r.messagesDropped = messagesDropped;
  r.handshakes = cm.handshakes();
  r.pauses = congestion.pauses();
  r.cnps = congestion.cnpMatches();
  r.cnpsDropped = congestion.cnpMatchesDropped();
  r.pauseIntervals = congestion.intervals();
  r.pauseIntervalsDropped = congestion.intervalsDropped();
  for (auto& h : r.handshakes) {
    h.connection = connectionOf(h);
    if (h.connection < 0) continue;
    for (auto& c : r.connections) {
      if (c.id != h.connection || c.cm) continue;
      c.cm = h;
      // The QPNs the REQ and REP named, where the capture did not show them.
      const bool clientIsA = c.a.address == h.client;
      if (!c.a.qp) c.a.qp = clientIsA ? h.clientQpn : h.serverQpn;
      if (!c.b.qp) c.b.qp = clientIsA ? h.serverQpn : h.clientQpn;
    }
  }
  return r;
}

RetainedState FlowAnalyzer::retained() const {
  RetainedState s;
  s.connections = impl_->connections.size();
  s.flows = impl_->flows.size();
  for (const auto& c : impl_->connections) {
    for (int d = 0; d < 2; ++d) {
      s.inflightMessages += c->req[d].inflight.size();
      s.latencyEntries += c->st[d].latency.retainedEntries();
      s.seriesBuckets += c->st[d].series.size();
      s.psnWindowBits += c->req[d].seen.capacity();
    }
  }
  impl_->iwarp.retained(s);
  s.keptMessages = impl_->messages.size();
  s.keptAnomalies = impl_->anomalies.size();
  s.pauseIntervals = impl_->congestion.retainedIntervals();
  return s;
}

}  // namespace rdmascope::analysis
