#include "iwarp_flows.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "rdmascope/packets/crc.h"
#include "rdmascope/packets/iwarp_headers.h"

namespace rdmascope::analysis {
namespace {

using packets::Dissection;
using packets::Node;
using packets::StreamUnit;

constexpr std::uint16_t kFin = 0x01, kSyn = 0x02, kRst = 0x04, kAck = 0x10;
constexpr double kFastRetransmitWindow = 0.02;  // Wireshark: within 20 ms of the last dup ACK
constexpr double kDefaultReorderWindow = 3e-3;  // Wireshark: before the first RTT is known
constexpr std::size_t kMaxPending = 32;         // findings kept before MPA identifies a stream

bool seqLt(std::uint32_t a, std::uint32_t b) {
  return static_cast<std::int32_t>(a - b) < 0;
}
bool seqLe(std::uint32_t a, std::uint32_t b) {
  return static_cast<std::int32_t>(a - b) <= 0;
}

std::string hex32(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

/// The TCP header facts of a frame, read from its dissection.
struct Segment {
  std::string src, dst;
  std::uint32_t sport = 0, dport = 0;
  std::uint32_t seq = 0, ack = 0, len = 0;
  std::uint16_t flags = 0, window = 0;
  std::uint64_t hash = 0;
};

std::optional<Segment> readSegment(std::span<const std::uint8_t> frame, const Dissection& d) {
  Segment s;
  std::size_t i = 0;
  const std::size_t n = d.nodes.size();
  for (; i < n && d.nodes[i].key != "tcp"; ++i) {
    const Node& x = d.nodes[i];
    if (x.key == "ip.src" || x.key == "ipv6.src") s.src = x.value;
    if (x.key == "ip.dst" || x.key == "ipv6.dst") s.dst = x.value;
  }
  if (i == n || s.src.empty() || s.dst.empty()) return std::nullopt;
  const Node& tcp = d.nodes[i];
  const std::size_t payloadAt = std::size_t{tcp.offset} + tcp.length;
  bool haveLen = false;
  for (++i; i < n && d.nodes[i].parent >= 0 && d.nodes[i].key.starts_with("tcp."); ++i) {
    const Node& x = d.nodes[i];
    const auto v = x.number;
    if (x.key == "tcp.srcport") s.sport = static_cast<std::uint32_t>(v);
    if (x.key == "tcp.dstport") s.dport = static_cast<std::uint32_t>(v);
    if (x.key == "tcp.seq") s.seq = static_cast<std::uint32_t>(v);
    if (x.key == "tcp.ack") s.ack = static_cast<std::uint32_t>(v);
    if (x.key == "tcp.flags") s.flags = static_cast<std::uint16_t>(v);
    if (x.key == "tcp.window_size_value") s.window = static_cast<std::uint16_t>(v);
    if (x.key == "tcp.len") {
      s.len = static_cast<std::uint32_t>(v);
      haveLen = true;
    }
  }
  if (!haveLen) return std::nullopt;
  if (s.len > 0 && payloadAt + s.len <= frame.size())
    s.hash = packets::crc32c(frame.subspan(payloadAt, s.len));  // ISA-L: cheap per byte
  return s;
}

/// The DDP/RDMAP fields of one FPDU, read from its nodes.
struct Fpdu {
  bool valid = false;  // an RDMAP opcode was decoded
  bool tagged = false, last = false;
  std::uint8_t opcode = 0;
  std::uint32_t stag = 0, qn = 0, msn = 0, mo = 0;
  std::uint64_t to = 0;
  std::uint32_t payload = 0;
  std::uint32_t sinkStag = 0, readSize = 0, invalidateStag = 0;
  std::uint64_t sinkTo = 0;
  std::string termText;  // layer, error type, error code as tshark names them
  std::string termDdpHeader;
};

std::string valueName(const Node& n) {
  // "Layer: RDMAP (0)" -> "RDMAP (0)"
  const auto colon = n.label.find(": ");
  return colon == std::string::npos ? n.label : n.label.substr(colon + 2);
}

Fpdu readFpdu(const Dissection& d, const StreamUnit& u) {
  Fpdu f;
  const auto end =
      std::min<std::size_t>(static_cast<std::size_t>(std::max(u.endNode, 0)), d.nodes.size());
  for (auto i = static_cast<std::size_t>(std::max(u.firstNode, 0)); i < end; ++i) {
    const Node& x = d.nodes[i];
    const std::string_view k = x.key;
    const std::uint64_t v = x.number;
    if (k == "iwarp_ddp.tagged_flag") f.tagged = v != 0;
    if (k == "iwarp_ddp.last_flag") f.last = v != 0;
    if (k == "iwarp_rdma.opcode") {
      f.opcode = static_cast<std::uint8_t>(v);
      f.valid = true;
    }
    if (k == "iwarp_ddp.stag") f.stag = static_cast<std::uint32_t>(v);
    if (k == "iwarp_ddp.tagged_offset") f.to = v;
    if (k == "iwarp_ddp.qn") f.qn = static_cast<std::uint32_t>(v);
    if (k == "iwarp_ddp.msn") f.msn = static_cast<std::uint32_t>(v);
    if (k == "iwarp_ddp.mo") f.mo = static_cast<std::uint32_t>(v);
    if (k == "data.len") f.payload = static_cast<std::uint32_t>(v);
    if (k == "iwarp_rdma.sinkstag") f.sinkStag = static_cast<std::uint32_t>(v);
    if (k == "iwarp_rdma.sinkto") f.sinkTo = v;
    if (k == "iwarp_rdma.rdmardsz") f.readSize = static_cast<std::uint32_t>(v);
    if (k == "iwarp_rdma.inval_stag") f.invalidateStag = static_cast<std::uint32_t>(v);
    if (k == "iwarp_rdma.term_layer" || k.starts_with("iwarp_rdma.term_etype") ||
        k.starts_with("iwarp_rdma.term_errcode"))
      f.termText += (f.termText.empty() ? "" : ", ") + valueName(x);
    if (k == "iwarp_rdma.term_ddp_h") f.termDdpHeader = x.value;
  }
  return f;
}

std::optional<std::uint32_t> hexWord(const std::string& hex, std::size_t byte) {
  if (hex.size() < (byte + 4) * 2) return std::nullopt;
  try {
    return static_cast<std::uint32_t>(std::stoul(hex.substr(byte * 2, 8), nullptr, 16));
  } catch (...) {
    return std::nullopt;
  }
}

/// One direction of a TCP connection, as Wireshark's sequence analysis follows it.
struct TcpDir {
  bool started = false;
  std::uint32_t base = 0;  // the initial sequence number (relative 0)
  std::uint32_t nextSeq = 0;
  double nextSeqTime = 0.0;
  std::uint64_t nextSeqFrame = 0;
  bool ackSeen = false;
  std::uint32_t lastAck = 0;
  double lastAckTime = 0.0;
  std::uint64_t lastAckFrame = 0;
  std::uint32_t dupAcks = 0;
  std::uint16_t lastWindow = 0;
  bool haveLast = false;  // the previous data segment, for copies
  std::uint32_t lastSeq = 0, lastLen = 0;
  std::uint64_t lastHash = 0, lastFrame = 0;
  double lastTime = 0.0;
};

struct Message {
  MessageRecord rec;
  std::uint32_t firstSeq = 0;
  std::uint32_t endSeq = 0;
};

/// The messages one endpoint sends.
struct Sender {
  std::map<std::pair<std::uint32_t, std::uint32_t>, Message> untagged;  // (QN, MSN), not last yet
  std::map<std::uint32_t, Message> writes;                              // by STag, not last yet
  std::deque<Message> awaitingAck;  // fully sent Sends and Writes, by end sequence
  std::deque<Message> reads;        // Read Requests waiting for their last response
  std::size_t size() const {
    return untagged.size() + writes.size() + awaitingAck.size() + reads.size();
  }
};

struct TcpConn {
  int id = -1;  // the report's id once MPA identified it
  std::string addr[2];
  std::uint32_t port[2] = {0, 0};
  TcpDir dir[2];
  int synSide = -1;
  double synTime = 0.0;
  bool synAckSeen = false;
  double firstRtt = -1.0;
  ConnectionReport rep;
  std::vector<Anomaly> pending;
  Sender sender[2];
};

using ConnKey =
    std::pair<std::pair<std::string, std::uint32_t>, std::pair<std::string, std::uint32_t>>;

}  // namespace

struct IwarpFlows::Impl {
  explicit Impl(ReportSink& s) : sink(s) {}

  ReportSink& sink;
  std::map<ConnKey, TcpConn> conns;

  const AnalyzerOptions& options() const { return sink.analyzerOptions(); }

  static std::uint32_t rel(const TcpConn& c, int s, std::uint32_t seq) {
    return seq - c.dir[s].base;
  }

  void count(TcpConn& c, std::uint64_t AnalysisSummary::*field) {
    if (c.id >= 0) ++(sink.totals().*field);
  }

  SeriesBucket* bucket(TcpConn& c, int d, double t) {
    if (c.id < 0) return nullptr;
    return &seriesBucket(c.rep.dir[d], c.rep.firstTime, t, options());
  }

  void emit(TcpConn& c, Anomaly a) {
    a.connection = c.id;
    if (c.id < 0) {
      if (c.pending.size() < kMaxPending) c.pending.push_back(std::move(a));
      return;
    }
    if (a.direction >= 0) ++bucket(c, a.direction, a.time)->anomalies;
    sink.anomaly(std::move(a));
  }

  void summarise(TcpConn& c, int d, Message& m, Outcome outcome, std::uint64_t frame, double t) {
    m.rec.outcome = outcome;
    m.rec.endFrame = frame;
    m.rec.end = t;
    countMessage(c.rep.dir[d], c.rep.firstTime, m.rec, outcome == Outcome::Completed, sink.totals(),
                 options());
    sink.message(m.rec);
  }

  // ---- connections ---------------------------------------------------------------------------

  TcpConn* locate(const Segment& s, int& side) {
    auto a = std::make_pair(s.src, s.sport), b = std::make_pair(s.dst, s.dport);
    const bool forward = a < b;
    ConnKey key = forward ? ConnKey{a, b} : ConnKey{b, a};
    auto it = conns.find(key);
    if (it == conns.end()) {
      if (conns.size() >= options().maxTcpConnections) return nullptr;
      it = conns.try_emplace(std::move(key)).first;
      TcpConn& c = it->second;
      for (auto& d : c.rep.dir)
        d.latency = LatencyStats(options().exactLatencySamples);
      c.addr[0] = s.src;
      c.port[0] = s.sport;
      c.addr[1] = s.dst;
      c.port[1] = s.dport;
    }
    TcpConn& c = it->second;
    side = c.addr[0] == s.src && c.port[0] == s.sport ? 0 : 1;
    return &c;
  }

  void identify(TcpConn& c) {
    c.id = sink.newConnectionId();
    ConnectionReport& r = c.rep;
    r.id = c.id;
    r.carrier = Carrier::Iwarp;
    r.transport = "TCP";
    r.a.address = c.addr[0];
    r.a.port = static_cast<std::uint16_t>(c.port[0]);
    r.b.address = c.addr[1];
    r.b.port = static_cast<std::uint16_t>(c.port[1]);
    r.mpa = MpaNegotiation{};
    AnalysisSummary& s = sink.totals();
    ++s.connections;
    s.iwarpFrames += r.frames;
    for (const auto& d : r.dir) {
      s.resentFrames += d.resentFrames;
      s.duplicates += d.duplicates;
      s.outOfOrderSegments += d.outOfOrder;
      s.segmentGaps += d.segmentGaps;
      s.timeouts += d.timeouts;
    }
    for (auto& a : c.pending)
      emit(c, std::move(a));
    c.pending.clear();
    c.pending.shrink_to_fit();
  }

  // ---- TCP -----------------------------------------------------------------------------------

  void sequence(TcpConn& c, int s, const Segment& g, std::uint64_t frame, double t) {
    TcpDir& f = c.dir[s];
    DirectionStats& st = c.rep.dir[s];
    const bool syn = g.flags & kSyn, fin = g.flags & kFin, rst = g.flags & kRst;
    const std::uint32_t end = g.seq + g.len + (syn ? 1 : 0) + (fin ? 1 : 0);
    const bool advances = g.len > 0 || syn || fin;
    if (!f.started) {
      f.started = true;
      f.base = syn ? g.seq : g.seq - 1;  // relative numbers as Wireshark's: data from 1
      f.nextSeq = end;
      f.nextSeqTime = t;
      f.nextSeqFrame = frame;
    } else if (!rst) {
      // As Wireshark: bytes missing before any segment, a bare ACK included, then a segment
      // that does not advance the stream; every segment moves the newest byte forward.
      if (seqLt(f.nextSeq, g.seq)) {
        const std::uint32_t missing = g.seq - f.nextSeq;
        ++st.segmentGaps;
        st.missingBytes += missing;
        count(c, &AnalysisSummary::segmentGaps);
        Anomaly a = makeAnomaly(AnomalyKind::SegmentGap, frame, t, s, rel(c, s, g.seq),
                                DetailPhrase::TcpBytesMissing);
        a.what.number = missing;
        emit(c, std::move(a));
      } else if (advances && seqLt(g.seq, f.nextSeq)) {
        const bool keepAlive = g.len <= 1 && !syn && !fin && g.seq + 1 == f.nextSeq;
        if (!keepAlive) resent(c, s, g, frame, t);
      }
      if (seqLt(f.nextSeq, end)) {
        f.nextSeq = end;
        f.nextSeqTime = t;
        f.nextSeqFrame = frame;
      }
    }
    if (g.len > 0) {
      f.haveLast = true;
      f.lastSeq = g.seq;
      f.lastLen = g.len;
      f.lastHash = g.hash;
      f.lastFrame = frame;
      f.lastTime = t;
    }
  }

  // A segment that does not advance the stream: out of order when it comes within the first
  // round trip of the newest bytes and is not their copy, otherwise resent (Wireshark's
  // tcp.analysis rules: fast retransmission, spurious retransmission, retransmission).
  void resent(TcpConn& c, int s, const Segment& g, std::uint64_t frame, double t) {
    TcpDir& f = c.dir[s];
    const TcpDir& b = c.dir[1 - s];
    DirectionStats& st = c.rep.dir[s];
    const std::uint32_t seq = rel(c, s, g.seq);
    const bool fast = b.ackSeen && b.dupAcks >= 2 && b.lastAck == g.seq &&
                      t - b.lastAckTime < kFastRetransmitWindow;
    const double reorderWindow = c.firstRtt > 0 ? c.firstRtt : kDefaultReorderWindow;
    const std::uint32_t end = g.seq + g.len + ((g.flags & (kSyn | kFin)) ? 1 : 0);
    if (!fast && t - f.nextSeqTime < reorderWindow && f.nextSeq != end) {
      ++st.outOfOrder;
      count(c, &AnalysisSummary::outOfOrderSegments);
      Anomaly a =
          makeAnomaly(AnomalyKind::OutOfOrder, frame, t, s, seq, DetailPhrase::TcpOutOfOrder);
      a.what.number = g.len;
      a.what.seconds = t - f.nextSeqTime;
      emit(c, std::move(a));
      return;
    }
    ++st.resentFrames;
    count(c, &AnalysisSummary::resentFrames);
    markResent(c, s, g);
    // The segment the details name: its bytes, or a SYN / SYN-ACK.
    const auto segment = [&](AnomalyKind kind, DetailPhrase phrase) {
      Anomaly x = makeAnomaly(kind, frame, t, s, seq, phrase);
      x.what.code = (g.flags & kSyn) ? ((g.flags & kAck) ? 2 : 1) : 0;
      x.what.number = g.len;
      return x;
    };
    if (f.haveLast && f.lastSeq == g.seq && f.lastLen == g.len && f.lastHash == g.hash &&
        t - f.lastTime <= options().duplicateGap) {
      ++st.duplicates;
      count(c, &AnalysisSummary::duplicates);
      Anomaly a = segment(AnomalyKind::Duplicate, DetailPhrase::TcpCopyOfFrame);
      a.relatedFrame = f.lastFrame;
      emit(c, std::move(a));
      return;
    }
    Anomaly a = segment(AnomalyKind::Retransmission, DetailPhrase::TcpResentAfterNewest);
    a.wait = t - f.nextSeqTime;
    if (fast) {
      a.relatedFrame = b.lastAckFrame;
      a.what.phrase = DetailPhrase::TcpFastRetransmission;
      a.what.from = static_cast<std::uint32_t>(b.dupAcks);
    } else if (g.len > 0 && b.ackSeen && seqLe(g.seq + g.len, b.lastAck)) {
      a.what.phrase = DetailPhrase::TcpSpuriousRetransmission;
    } else {
      // Neither prompted by duplicate ACKs nor already acknowledged: the retransmission timer
      // fired (Wireshark sets tcp.analysis.rto on exactly these).
      a.relatedFrame = f.nextSeqFrame;

      ++st.timeouts;
      count(c, &AnalysisSummary::timeouts);
      Anomaly timer = segment(AnomalyKind::Timeout, DetailPhrase::TcpTimerFired);
      timer.wait = a.wait;
      timer.relatedFrame = f.nextSeqFrame;
      emit(c, std::move(timer));
    }
    emit(c, std::move(a));
  }

  void markResent(TcpConn& c, int s, const Segment& g) {
    auto overlaps = [&](const Message& m, bool ended) {
      return seqLt(g.seq, ended ? m.endSeq : c.dir[s].nextSeq) && seqLe(m.firstSeq, g.seq);
    };
    Sender& x = c.sender[s];
    for (auto& m : x.awaitingAck)
      if (overlaps(m, true)) ++m.rec.resentPackets;
    for (auto& [k, m] : x.untagged)
      if (overlaps(m, false)) ++m.rec.resentPackets;
    for (auto& [k, m] : x.writes)
      if (overlaps(m, false)) ++m.rec.resentPackets;
  }

  void acknowledge(TcpConn& c, int s, const Segment& g, std::uint64_t frame, double t) {
    if (!(g.flags & kAck)) return;
    TcpDir& f = c.dir[s];
    const bool pure = g.len == 0 && !(g.flags & (kSyn | kFin | kRst));
    if (pure && f.ackSeen && g.ack == f.lastAck && g.window == f.lastWindow) {
      ++f.dupAcks;
      f.lastAckTime = t;
      f.lastAckFrame = frame;
    } else if (!f.ackSeen || seqLt(f.lastAck, g.ack)) {
      f.ackSeen = true;
      f.lastAck = g.ack;
      f.dupAcks = 0;
      f.lastAckTime = t;
      f.lastAckFrame = frame;
    }
    f.lastWindow = g.window;
    // Sends and Writes of the other side end at the ACK that covers their last byte.
    auto& waiting = c.sender[1 - s].awaitingAck;
    while (!waiting.empty() && seqLe(waiting.front().endSeq, f.lastAck)) {
      summarise(c, 1 - s, waiting.front(), Outcome::Completed, frame, t);
      waiting.pop_front();
    }
  }

  // ---- MPA, DDP and RDMAP --------------------------------------------------------------------

  void unit(TcpConn& c, int s, const Dissection& d, const StreamUnit& u, std::uint64_t frame,
            double t) {
    switch (u.kind) {
      case StreamUnit::Kind::MpaRequest:
      case StreamUnit::Kind::MpaReply: {
        if (c.id < 0) identify(c);
        MpaNegotiation& m = *c.rep.mpa;
        const bool reply = u.kind == StreamUnit::Kind::MpaReply;
        (reply ? m.replySeen : m.requestSeen) = true;
        (reply ? m.replyFrame : m.requestFrame) = frame;
        (reply ? m.replyMarkers : m.requestMarkers) = u.markers;
        (reply ? m.replyCrc : m.requestCrc) = u.crc;
        (reply ? m.replyRevision : m.requestRevision) = u.revision;
        if (!reply) return;
        m.rejected = u.reject;
        if (u.reject) {
          ++sink.totals().mpaRejects;
          emit(c, makeAnomaly(AnomalyKind::MpaReject, frame, t, s, rel(c, s, u.firstSeq),
                              DetailPhrase::MpaReplyRejects));
        }
        return;
      }
      case StreamUnit::Kind::Fpdu:
        if (c.id >= 0) fpdu(c, s, d, u, frame, t);
        return;
    }
  }

  Message start(TcpConn& c, int s, MessageKind kind, const StreamUnit& u, std::uint64_t frame,
                double t) {
    Message m;
    m.rec.connection = c.id;
    m.rec.direction = s;
    m.rec.kind = kind;
    m.firstSeq = u.firstSeq;
    m.rec.firstPsn = rel(c, s, u.firstSeq);
    m.rec.firstFrame = frame;
    m.rec.start = t;
    ++sink.totals().messages;
    return m;
  }

  void addSegment(TcpConn& c, int s, Message& m, const Fpdu& f, const StreamUnit& u,
                  std::uint64_t frame, double t) {
    ++m.rec.packets;
    m.rec.lastRequestFrame = frame;
    m.rec.bytes += f.payload;
    c.rep.dir[s].payloadBytes += f.payload;
    bucket(c, s, t)->bytes += f.payload;
    m.endSeq = u.endSeq;
    m.rec.lastPsn = rel(c, s, u.endSeq);
  }

  void fpdu(TcpConn& c, int s, const Dissection& d, const StreamUnit& u, std::uint64_t frame,
            double t) {
    DirectionStats& st = c.rep.dir[s];
    const std::uint32_t seq = rel(c, s, u.firstSeq);
    if (u.crcStatus == packets::CrcStatus::Bad) {
      ++st.crcFailures;
      ++sink.totals().crcFailures;
      emit(c, makeAnomaly(AnomalyKind::CrcFailure, frame, t, s, seq, DetailPhrase::MpaCrcWrong));
    }
    const Fpdu f = readFpdu(d, u);
    if (!f.valid) return;
    Sender& x = c.sender[s];
    switch (f.opcode) {
      case 0: {  // RDMA Write: tagged segments to one sink STag, the last one flagged
        auto it = x.writes.find(f.stag);
        if (it == x.writes.end()) {
          Message m = start(c, s, MessageKind::Write, u, frame, t);
          m.rec.stag = f.stag;
          it = x.writes.emplace(f.stag, std::move(m)).first;
        }
        addSegment(c, s, it->second, f, u, frame, t);
        if (f.last) {
          x.awaitingAck.push_back(std::move(it->second));
          x.writes.erase(it);
        }
        return;
      }
      case 1: {  // Read Request: answered by Read Responses to its sink STag
        Message m = start(c, s, MessageKind::Read, u, frame, t);
        m.rec.stag = f.sinkStag;
        m.rec.msn = f.msn;
        m.rec.dmaLength = f.readSize;
        ++m.rec.packets;
        m.rec.lastRequestFrame = frame;
        m.endSeq = u.endSeq;
        m.rec.lastPsn = rel(c, s, u.endSeq);
        x.reads.push_back(std::move(m));
        return;
      }
      case 2: {  // Read Response: data for the other side's Read Request
        auto& reads = c.sender[1 - s].reads;
        auto it = std::find_if(reads.begin(), reads.end(),
                               [&](const Message& m) { return m.rec.stag == f.stag; });
        if (it == reads.end()) {
          Anomaly a = makeAnomaly(AnomalyKind::RepeatedResponse, frame, t, s, seq,
                                  DetailPhrase::ReadResponseNoRead);
          a.what.number = f.stag;
          emit(c, std::move(a));
          return;
        }
        it->rec.bytes += f.payload;
        c.rep.dir[1 - s].payloadBytes += f.payload;
        bucket(c, 1 - s, t)->bytes += f.payload;
        if (f.last) {
          summarise(c, 1 - s, *it, Outcome::Completed, frame, t);
          reads.erase(it);
        }
        return;
      }
      case 3:
      case 4:
      case 5:
      case 6: {  // Send (with Invalidate and/or Solicited Event): QN 0, by MSN
        const auto key = std::make_pair(f.qn, f.msn);
        auto it = x.untagged.find(key);
        if (it == x.untagged.end()) {
          Message m = start(c, s, MessageKind::Send, u, frame, t);
          m.rec.msn = f.msn;
          if (f.opcode != 3) m.rec.detail = packets::rdmapOpcodeName(f.opcode);
          if (f.opcode == 4 || f.opcode == 6) m.rec.detail += " of STag " + hex32(f.invalidateStag);
          it = x.untagged.emplace(key, std::move(m)).first;
        }
        addSegment(c, s, it->second, f, u, frame, t);
        if (f.last) {
          x.awaitingAck.push_back(std::move(it->second));
          x.untagged.erase(it);
        }
        return;
      }
      case 7:
        terminate(c, s, f, frame, t, seq);
        return;
      default:
        return;
    }
  }

  // A Terminate ends the connection; the DDP header it carries names the segment at fault, a
  // message of the peer (or, for a Read Response, the terminating side's own Read).
  void terminate(TcpConn& c, int s, const Fpdu& f, std::uint64_t frame, double t,
                 std::uint32_t seq) {
    ++c.rep.dir[s].terminates;
    ++sink.totals().terminates;
    const std::string why =
        "Terminate" + (f.termText.empty() ? std::string() : " (" + f.termText + ")");
    Anomaly a = makeAnomaly(AnomalyKind::Terminate, frame, t, s, seq, DetailPhrase::Terminate);
    if (!f.termText.empty()) a.detailNames.push_back(f.termText);
    const std::string& h = f.termDdpHeader;
    const bool tagged = h.size() >= 2 && std::isxdigit(static_cast<unsigned char>(h[0])) &&
                        (std::stoul(h.substr(0, 1), nullptr, 16) & 0x8) != 0;
    // Fails the first message of one container that matches; true when one did.
    auto failIn = [&](int side, auto& container, auto messageOf, auto& matches) {
      for (auto it = container.begin(); it != container.end(); ++it) {
        Message& m = messageOf(*it);
        if (!matches(m)) continue;
        m.rec.detail += (m.rec.detail.empty() ? "" : "; ") + why;
        a.relatedFrame = m.rec.firstFrame;
        summarise(c, side, m, Outcome::Failed, frame, t);
        container.erase(it);
        return true;
      }
      return false;
    };
    auto fail = [&](int side, auto&& matches) {
      Sender& x = c.sender[side];
      auto self = [](Message& m) -> Message& { return m; };
      auto value = [](auto& entry) -> Message& { return entry.second; };
      return failIn(side, x.awaitingAck, self, matches) || failIn(side, x.reads, self, matches) ||
             failIn(side, x.writes, value, matches) || failIn(side, x.untagged, value, matches);
    };
    if (tagged) {
      if (auto stag = hexWord(h, 2)) {
        // A Write of the peer, or a Read Response to this side's Read.
        fail(1 - s, [&](const Message& m) {
          return m.rec.kind == MessageKind::Write && m.rec.stag == *stag;
        });
        if (!a.relatedFrame)
          fail(s, [&](const Message& m) {
            return m.rec.kind == MessageKind::Read && m.rec.stag == *stag;
          });
      }
    } else if (auto qn = hexWord(h, 6)) {
      if (auto msn = hexWord(h, 10)) {
        const MessageKind kind = *qn == 1 ? MessageKind::Read : MessageKind::Send;
        fail(1 - s, [&](const Message& m) { return m.rec.kind == kind && m.rec.msn == *msn; });
      }
    }
    emit(c, std::move(a));
  }

  // ---- a frame -------------------------------------------------------------------------------

  bool add(std::span<const std::uint8_t> frame, const Dissection& d,
           const std::vector<StreamUnit>& units, std::uint64_t n, double t) {
    const auto g = readSegment(frame, d);
    if (!g) return false;
    TcpSegmentEnds ends{n, g->src, g->dst, static_cast<std::uint16_t>(g->sport),
                        static_cast<std::uint16_t>(g->dport)};
    for (const auto& u : units) {
      ends.mpaRequest |= u.kind == StreamUnit::Kind::MpaRequest;
      ends.mpaReply |= u.kind == StreamUnit::Kind::MpaReply;
      if (u.kind != StreamUnit::Kind::Fpdu || ends.fpdus++) continue;
      if (const Fpdu f = readFpdu(d, u); f.valid) {
        ends.rdmapOpcode = f.opcode;
        ends.last = f.last;
      }
    }
    sink.tcpSegment(ends);
    int s = 0;
    TcpConn* cp = locate(*g, s);
    if (!cp) return false;
    TcpConn& c = *cp;
    ConnectionReport& r = c.rep;
    if (r.frames == 0) {
      r.firstFrame = n;
      r.firstTime = t;
    }
    ++r.frames;
    r.lastFrame = n;
    r.lastTime = std::max(r.lastTime, t);
    count(c, &AnalysisSummary::iwarpFrames);
    // The first round trip, as Wireshark takes it: the last SYN to the ACK of the SYN-ACK.
    if ((g->flags & kSyn) && !(g->flags & kAck) && (c.synSide < 0 || c.synSide == s)) {
      c.synSide = s;
      c.synTime = t;
    }
    if ((g->flags & kSyn) && (g->flags & kAck)) c.synAckSeen = true;
    if (c.firstRtt < 0 && c.synAckSeen && s == c.synSide && (g->flags & kAck) && !(g->flags & kSyn))
      c.firstRtt = t - c.synTime;
    // A data segment counts for its sender's direction, a bare ACK for the side it answers.
    const bool carries = g->len > 0 || (g->flags & (kSyn | kFin));
    const int d0 = carries ? s : 1 - s;
    DirectionStats& st = r.dir[d0];
    (carries ? st.requestFrames : st.responseFrames) += 1;
    st.wireBytes += frame.size();
    if (st.requestFrames + st.responseFrames == 1) st.firstTime = t;
    st.lastTime = std::max(st.lastTime, t);
    if (SeriesBucket* b = bucket(c, d0, t)) ++b->frames;

    sequence(c, s, *g, n, t);
    for (const auto& u : units)
      unit(c, s, d, u, n, t);
    acknowledge(c, s, *g, n, t);
    return true;
  }

  void finish() {
    for (auto& [key, c] : conns) {
      if (c.id < 0) continue;
      for (int s = 0; s < 2; ++s) {
        Sender& x = c.sender[s];
        std::vector<std::pair<Message*, DetailPhrase>> open;
        for (auto& m : x.awaitingAck)
          open.emplace_back(&m, DetailPhrase::TcpNeverAcknowledged);
        for (auto& m : x.reads)
          open.emplace_back(&m, DetailPhrase::TcpNeverAnswered);
        for (auto& [k, m] : x.writes)
          open.emplace_back(&m, DetailPhrase::TcpNeverFullySent);
        for (auto& [k, m] : x.untagged)
          open.emplace_back(&m, DetailPhrase::TcpNeverFullySent);
        std::sort(open.begin(), open.end(), [](const auto& p, const auto& q) {
          return p.first->rec.firstFrame < q.first->rec.firstFrame;
        });
        for (auto [m, why] : open) {
          Anomaly a = makeAnomaly(AnomalyKind::IncompleteMessage, m->rec.firstFrame, m->rec.start,
                                  s, m->rec.firstPsn, why);
          a.what.code = static_cast<std::uint8_t>(m->rec.kind);
          emit(c, std::move(a));
          summarise(c, s, *m, Outcome::Incomplete, 0, m->rec.start);
        }
        x = Sender{};
      }
    }
  }
};

IwarpFlows::IwarpFlows(ReportSink& sink) : impl_(std::make_unique<Impl>(sink)) {}
IwarpFlows::~IwarpFlows() = default;

bool IwarpFlows::add(std::span<const std::uint8_t> frame, const packets::Dissection& dissection,
                     const std::vector<packets::StreamUnit>& units, std::uint64_t frameNumber,
                     double time) {
  return impl_->add(frame, dissection, units, frameNumber, time);
}

void IwarpFlows::finish() {
  impl_->finish();
}

void IwarpFlows::reports(std::vector<ConnectionReport>& out) const {
  for (const auto& [key, c] : impl_->conns)
    if (c.id >= 0) out.push_back(c.rep);
}

void IwarpFlows::retained(RetainedState& state) const {
  state.tcpConnections += impl_->conns.size();
  for (const auto& [key, c] : impl_->conns) {
    if (c.id < 0) continue;
    ++state.connections;
    for (int d = 0; d < 2; ++d) {
      state.inflightMessages += c.sender[d].size();
      state.latencyEntries += c.rep.dir[d].latency.retainedEntries();
      state.seriesBuckets += c.rep.dir[d].series.size();
    }
  }
}

}  // namespace rdmascope::analysis
