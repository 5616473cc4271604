#include "rdmascope/ui/capture_analysis.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "rdmascope/analysis/fact_pipeline.h"
#include "rdmascope/analysis/packet_facts.h"

namespace rdmascope::ui {

int CaptureAnalysis::rowOfConnection(int id) const {
  const auto& cs = report.connections;
  if (id >= 0 && static_cast<std::size_t>(id) < cs.size() &&
      cs[static_cast<std::size_t>(id)].id == id)
    return id;
  for (std::size_t i = 0; i < cs.size(); ++i)
    if (cs[i].id == id) return static_cast<int>(i);
  return -1;
}

std::vector<std::size_t> CaptureAnalysis::anomaliesOf(int connectionId) const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < report.anomalies.size(); ++i)
    if (report.anomalies[i].connection == connectionId) out.push_back(i);
  return out;
}

namespace {

// The filter terms naming the source and destination of one flow. The analyzer's addresses
// are IP addresses (RoCEv2), GIDs (a GRH) or "LID n" (no GRH); see packet_facts.cpp.
std::string addressTerms(analysis::Carrier carrier, const std::string& src,
                         const std::string& dst) {
  auto term = [&](const std::string& address, bool source) {
    if (address.rfind("LID ", 0) == 0)
      return std::string(source ? "infiniband.lrh.slid == " : "infiniband.lrh.dlid == ") +
             address.substr(4);
    if (carrier != analysis::Carrier::RoceV2 && carrier != analysis::Carrier::Iwarp)
      return std::string(source ? "infiniband.grh.sgid == " : "infiniband.grh.dgid == ") + address;
    const bool v6 = address.find(':') != std::string::npos;
    return std::string(v6 ? (source ? "ipv6.src == " : "ipv6.dst == ")
                          : (source ? "ip.src == " : "ip.dst == ")) +
           address;
  };
  return term(src, true) + " && " + term(dst, false);
}

// RoCEv1 and native InfiniBand both name their ends by GID when a GRH is present.
std::string carrierTerm(analysis::Carrier carrier) {
  if (carrier == analysis::Carrier::RoceV1) return "eth && !udp && ";
  if (carrier == analysis::Carrier::NativeIb) return "!eth && ";
  return {};
}

// One direction of a TCP connection: its sender's and receiver's addresses and ports.
std::string tcpTerms(const analysis::Endpoint& from, const analysis::Endpoint& to) {
  std::string terms = "(";
  terms += addressTerms(analysis::Carrier::Iwarp, from.address, to.address);
  terms += " && tcp.srcport == " + std::to_string(*from.port);
  terms += " && tcp.dstport == " + std::to_string(*to.port) + ")";
  return terms;
}

// The key of the frames one end of a TCP connection sent: its ports in place of a QP.
std::uint32_t tcpPortKey(std::uint16_t sourcePort, std::uint16_t destinationPort) {
  return static_cast<std::uint32_t>(sourcePort) << 16 | destinationPort;
}

}  // namespace

std::string connectionFilter(const analysis::ConnectionReport& c) {
  if (c.carrier == analysis::Carrier::Iwarp) {
    if (!c.a.port || !c.b.port) return {};
    std::string filter = "tcp && (";
    filter += tcpTerms(c.a, c.b);
    filter += " || ";
    filter += tcpTerms(c.b, c.a);
    filter += ")";
    return filter;
  }
  const bool ib = c.carrier == analysis::Carrier::RoceV2 ||
                  c.carrier == analysis::Carrier::RoceV1 ||
                  c.carrier == analysis::Carrier::NativeIb;
  if (!ib || !c.b.qp) return {};
  const std::string qpB = std::to_string(*c.b.qp);
  // Built by appending: GCC 12 at -O3 warns (-Wrestrict, a false positive) on "(" + string.
  std::string forward = "(";
  forward += addressTerms(c.carrier, c.a.address, c.b.address);
  forward += " && infiniband.bth.destqp == " + qpB + ")";
  std::string filter = carrierTerm(c.carrier);
  // Datagram replies are flows of their own (the analyzer pairs only connected QPs).
  if (c.transport == "UD" || !c.a.qp) return filter + forward;
  filter += "(";
  filter += forward;
  filter += " || (";
  filter += addressTerms(c.carrier, c.b.address, c.a.address);
  filter += " && infiniband.bth.destqp == " + std::to_string(*c.a.qp) + "))";
  return filter;
}

CaptureAnalysisBuilder::CaptureAnalysisBuilder(analysis::AnalyzerOptions options)
    : options_(options), analyzer_(options) {
  analyzer_.onTcpSegment([this](const analysis::TcpSegmentEnds& s) {
    ConnectionFrame f;
    f.frame = static_cast<std::uint32_t>(s.frame - 1);
    f.mpa =
        static_cast<std::uint8_t>((s.mpaRequest ? ConnectionFrame::kMpaRequest : 0) |
                                  (s.mpaReply ? ConnectionFrame::kMpaReply : 0) |
                                  std::min<std::uint32_t>(s.fpdus, ConnectionFrame::kFpduCount));
    if (s.rdmapOpcode >= 0) f.rdmapOpcode = static_cast<std::uint8_t>(s.rdmapOpcode);
    f.last = s.last;
    flowFrames_[flowId(analysis::Carrier::Iwarp, s.source, s.destination,
                       tcpPortKey(s.sourcePort, s.destinationPort))]
        .push_back(f);
  });
}

std::uint32_t CaptureAnalysisBuilder::flowId(analysis::Carrier carrier, std::string_view source,
                                             std::string_view destination, std::uint32_t key) {
  for (std::size_t i = 0; i < recentCount_; ++i) {
    const std::uint32_t id = recent_[i];
    const auto& [c, s, d, k] = flowKeys_[id];
    if (k == key && c == carrier && s == source && d == destination) {
      // Moved to the front: the flows of a run stay near it.
      std::rotate(recent_.begin(), recent_.begin() + static_cast<std::ptrdiff_t>(i),
                  recent_.begin() + static_cast<std::ptrdiff_t>(i) + 1);
      return id;
    }
  }
  auto [it, fresh] =
      flowIds_.try_emplace(FlowKey{carrier, std::string(source), std::string(destination), key},
                           static_cast<std::uint32_t>(flowKeys_.size()));
  if (fresh) {
    flowKeys_.push_back(it->first);
    flowFrames_.emplace_back();
  }
  if (recentCount_ < kRecentFlows) ++recentCount_;
  std::rotate(recent_.begin(), recent_.begin() + static_cast<std::ptrdiff_t>(recentCount_ - 1),
              recent_.begin() + static_cast<std::ptrdiff_t>(recentCount_));
  recent_[0] = it->second;
  return it->second;
}

void CaptureAnalysisBuilder::add(const FrameStore& store, std::size_t index) {
  packets::DecodeOptions o;
  o.roceV2Port = options_.roceV2Port;
  o.verifyCrc = options_.verifyCrc;
  const auto facts = analysis::readPacketFacts(store.bytes(index), store.linkType(), index + 1,
                                               store.timeRelative(index), o);
  add(store, index, facts ? &*facts : nullptr);
}

void CaptureAnalysisBuilder::add(const FrameStore& store, std::size_t index,
                                 const analysis::PacketFacts* facts) {
  ++added_;
  if (!facts) {
    // Not RoCE/IB: the analyzer's own path for the rest (it follows TCP streams for iWARP).
    analyzer_.addFrame(store.bytes(index), store.linkType(), index + 1, store.timeRelative(index));
    return;
  }
  ConnectionFrame f;
  f.frame = static_cast<std::uint32_t>(index);
  f.time = static_cast<float>(store.timeRelative(index));
  f.payload = facts->payloadLength;
  flowFrames_[flowId(facts->carrier, facts->source, facts->destination, facts->destQp)].push_back(
      f);
  analyzer_.addPacket(*facts);
}

CaptureAnalysis CaptureAnalysisBuilder::snapshot(bool finish) {
  CaptureAnalysis out;
  if (finish) {
    analyzer_.finish();
    out.report = analyzer_.takeReport();
  } else {
    out.report = analyzer_.report();
  }
  out.framesAnalysed = added_;
  out.frames.resize(out.report.connections.size());
  // The flows of each connection (a flow may belong to more than one: a QP pair connected
  // again), and how many connections list each: the last snapshot moves a flow listed once.
  const auto flowOf = [&](const analysis::ConnectionReport& c, const std::string& src,
                          const std::string& dst, std::optional<std::uint32_t> qp) -> int {
    if (!qp) return -1;
    auto it = flowIds_.find(FlowKey{c.carrier, src, dst, *qp});
    return it == flowIds_.end() ? -1 : static_cast<int>(it->second);
  };
  std::vector<std::pair<int, int>> flows(out.report.connections.size(), {-1, -1});
  std::vector<std::uint32_t> listed(flowFrames_.size(), 0);
  for (std::size_t row = 0; row < out.report.connections.size(); ++row) {
    const auto& c = out.report.connections[row];
    auto& [a, b] = flows[row];
    if (c.carrier == analysis::Carrier::Iwarp) {
      if (c.a.port && c.b.port) {
        a = flowOf(c, c.a.address, c.b.address, tcpPortKey(*c.a.port, *c.b.port));
        b = flowOf(c, c.b.address, c.a.address, tcpPortKey(*c.b.port, *c.a.port));
      }
    } else {
      a = flowOf(c, c.a.address, c.b.address, c.b.qp);
      b = c.transport == "UD" ? -1 : flowOf(c, c.b.address, c.a.address, c.a.qp);
    }
    if (a >= 0) ++listed[static_cast<std::size_t>(a)];
    if (b >= 0) ++listed[static_cast<std::size_t>(b)];
  }
  for (std::size_t row = 0; row < out.report.connections.size(); ++row) {
    const auto& c = out.report.connections[row];
    std::vector<ConnectionFrame>& frames = out.frames[row];
    const auto [a, b] = flows[row];
    std::vector<ConnectionFrame>* fromA =
        a < 0 ? nullptr : &flowFrames_[static_cast<std::size_t>(a)];
    std::vector<ConnectionFrame>* fromB =
        b < 0 ? nullptr : &flowFrames_[static_cast<std::size_t>(b)];
    if (finish && fromA && (!fromB || fromB->empty()) && listed[static_cast<std::size_t>(a)] == 1) {
      frames = std::move(*fromA);  // one flow: its frames as they are
      continue;
    }
    frames.reserve(c.frames);
    // Both flows are in capture order: merge them.
    std::size_t i = 0, j = 0;
    const std::size_t na = fromA ? fromA->size() : 0, nb = fromB ? fromB->size() : 0;
    while (i < na || j < nb) {
      if (j >= nb || (i < na && (*fromA)[i].frame < (*fromB)[j].frame)) {
        frames.push_back((*fromA)[i++]);
      } else {
        frames.push_back((*fromB)[j++]);
        frames.back().fromB = 1;
      }
    }
  }
  return out;
}

namespace {

// The frames of a store, numbered from 1 and timed from the first (they stay in memory).
class StoreSource final : public analysis::FrameSource {
 public:
  explicit StoreSource(const FrameStore& store) : store_(store) {}
  packets::LinkType linkType() const override { return store_.linkType(); }
  bool next(analysis::SourceFrame& frame) override {
    if (next_ >= store_.size()) return false;
    frame.data = store_.bytes(next_);
    frame.number = next_ + 1;
    frame.time = store_.timeRelative(next_);
    ++next_;
    return true;
  }

 private:
  const FrameStore& store_;
  std::size_t next_ = 0;
};

// The frames with their facts into the builder; progress and cancellation after each batch.
class BuilderConsumer final : public analysis::FactConsumer {
 public:
  BuilderConsumer(CaptureAnalysisBuilder& builder, const FrameStore& store,
                  const std::atomic<bool>* cancel, const AnalysisProgress& progress)
      : builder_(builder), store_(store), cancel_(cancel), progress_(progress) {}
  void add(const analysis::SourceFrame& frame, const analysis::PacketFacts* facts) override {
    builder_.add(store_, frame.number - 1, facts);
  }
  bool proceed(std::uint64_t added) override {
    if (progress_) progress_(added, store_.size());
    return !(cancel_ && cancel_->load(std::memory_order_relaxed));
  }

 private:
  CaptureAnalysisBuilder& builder_;
  const FrameStore& store_;
  const std::atomic<bool>* cancel_;
  const AnalysisProgress& progress_;
};

}  // namespace

AnalysisOutcome analyzeFrameStore(const FrameStore& store, const std::atomic<bool>* cancel,
                                  const AnalysisProgress& progress,
                                  analysis::AnalyzerOptions options) {
  const auto start = std::chrono::steady_clock::now();
  AnalysisOutcome out;
  CaptureAnalysisBuilder builder(options);
  StoreSource source(store);
  BuilderConsumer consumer(builder, store, cancel, progress);
  // A second thread pays for itself beyond a few thousand frames.
  const unsigned threads = std::thread::hardware_concurrency() > 1 && store.size() > 4096 ? 2 : 1;
  if (!analysis::feedFacts(source, consumer, builder.factOptions(), threads)) {
    out.cancelled = true;
    return out;
  }
  out.analysis = builder.snapshot(true);
  out.analysis.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (progress) progress(store.size(), store.size());
  return out;
}

}  // namespace rdmascope::ui
