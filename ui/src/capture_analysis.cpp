#include "rdmascope/ui/capture_analysis.h"

#include <algorithm>
#include <chrono>

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
    record(FlowKey{analysis::Carrier::Iwarp, std::string(s.source), std::string(s.destination),
                   tcpPortKey(s.sourcePort, s.destinationPort)},
           f);
  });
}

void CaptureAnalysisBuilder::record(FlowKey key, ConnectionFrame frame) {
  auto [it, fresh] =
      flowIds_.try_emplace(std::move(key), static_cast<std::uint32_t>(flowKeys_.size()));
  if (fresh) {
    flowKeys_.push_back(it->first);
    flowFrames_.emplace_back();
  }
  flowFrames_[it->second].push_back(frame);
}

void CaptureAnalysisBuilder::add(const FrameStore& store, std::size_t index) {
  ++added_;
  packets::DecodeOptions o;
  o.roceV2Port = options_.roceV2Port;
  o.verifyCrc = options_.verifyCrc;
  auto facts = analysis::readPacketFacts(store.bytes(index), store.linkType(), index + 1,
                                         store.timeRelative(index), o);
  if (!facts) {
    // Not RoCE/IB: the analyzer's own path for the rest (it follows TCP streams for iWARP).
    analyzer_.addFrame(store.bytes(index), store.linkType(), index + 1, store.timeRelative(index));
    return;
  }
  ConnectionFrame f;
  f.frame = static_cast<std::uint32_t>(index);
  f.time = static_cast<float>(store.timeRelative(index));
  f.payload = facts->payloadLength;
  record(FlowKey{facts->carrier, facts->source, facts->destination, facts->destQp}, f);
  analyzer_.addPacket(*facts);
}

CaptureAnalysis CaptureAnalysisBuilder::snapshot(bool finish) {
  if (finish) analyzer_.finish();
  CaptureAnalysis out;
  out.report = analyzer_.report();
  out.framesAnalysed = added_;
  out.frames.resize(out.report.connections.size());
  for (std::size_t row = 0; row < out.report.connections.size(); ++row) {
    const auto& c = out.report.connections[row];
    std::vector<ConnectionFrame>& frames = out.frames[row];
    frames.reserve(c.frames);
    auto flowOf = [&](const std::string& src, const std::string& dst,
                      std::optional<std::uint32_t> qp) -> const std::vector<ConnectionFrame>* {
      if (!qp) return nullptr;
      auto it = flowIds_.find(FlowKey{c.carrier, src, dst, *qp});
      return it == flowIds_.end() ? nullptr : &flowFrames_[it->second];
    };
    const std::vector<ConnectionFrame>* fromA = nullptr;
    const std::vector<ConnectionFrame>* fromB = nullptr;
    if (c.carrier == analysis::Carrier::Iwarp) {
      if (c.a.port && c.b.port) {
        fromA = flowOf(c.a.address, c.b.address, tcpPortKey(*c.a.port, *c.b.port));
        fromB = flowOf(c.b.address, c.a.address, tcpPortKey(*c.b.port, *c.a.port));
      }
    } else {
      fromA = flowOf(c.a.address, c.b.address, c.b.qp);
      fromB = c.transport == "UD" ? nullptr : flowOf(c.b.address, c.a.address, c.a.qp);
    }
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

AnalysisOutcome analyzeFrameStore(const FrameStore& store, const std::atomic<bool>* cancel,
                                  const AnalysisProgress& progress,
                                  analysis::AnalyzerOptions options) {
  const auto start = std::chrono::steady_clock::now();
  AnalysisOutcome out;
  CaptureAnalysisBuilder builder(options);
  const std::size_t total = store.size();
  for (std::size_t i = 0; i < total; ++i) {
    builder.add(store, i);
    if ((i & 4095) == 4095) {
      if (progress) progress(i + 1, total);
      if (cancel && cancel->load(std::memory_order_relaxed)) {
        out.cancelled = true;
        return out;
      }
    }
  }
  out.analysis = builder.snapshot(true);
  out.analysis.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (progress) progress(total, total);
  return out;
}

}  // namespace rdmascope::ui
