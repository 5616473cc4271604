#include "rdmascope/ui/capture_analysis.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

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

// Frames per block of facts read ahead, and blocks read ahead at most.
constexpr std::size_t kFactBlock = 1024;
constexpr std::size_t kBlocksAhead = 4;

// The facts of blocks of frames, read on a helper thread while the analysing one adds the
// blocks before them. Block k goes into slot k % kBlocksAhead once block k - kBlocksAhead is
// added.
class FactsAhead {
 public:
  FactsAhead(const FrameStore& store, packets::DecodeOptions options)
      : store_(store), blocks_((store.size() + kFactBlock - 1) / kFactBlock) {
    for (auto& s : slots_) {
      s.facts.resize(kFactBlock);
      s.has.resize(kFactBlock);
    }
    thread_ = std::thread([this, options] { run(options); });
  }
  ~FactsAhead() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }
  FactsAhead(const FactsAhead&) = delete;
  FactsAhead& operator=(const FactsAhead&) = delete;

  std::size_t blocks() const { return blocks_; }

  // The facts of frame kFactBlock * k + i (null: readFacts returned false) once block k is
  // read; rethrows what the helper threw.
  struct Block {
    const std::vector<analysis::PacketFacts>* facts = nullptr;
    const std::vector<std::uint8_t>* has = nullptr;
    const analysis::PacketFacts* at(std::size_t i) const {
      return (*has)[i] ? &(*facts)[i] : nullptr;
    }
  };
  Block wait(std::size_t k) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return read_ > k || failure_; });
    if (failure_) std::rethrow_exception(failure_);
    const Slot& s = slots_[k % kBlocksAhead];
    return {&s.facts, &s.has};
  }
  // Block k is added: its slot may take block k + kBlocksAhead.
  void done(std::size_t k) {
    {
      std::lock_guard lock(mutex_);
      added_ = k + 1;
    }
    changed_.notify_all();
  }

 private:
  struct Slot {
    std::vector<analysis::PacketFacts> facts;  // reused (their strings keep their storage)
    std::vector<std::uint8_t> has;
  };

  void run(const packets::DecodeOptions& options) {
    try {
      analysis::PacketFactReader reader(options);
      const packets::LinkType link = store_.linkType();
      for (std::size_t k = 0; k < blocks_; ++k) {
        {
          std::unique_lock lock(mutex_);
          changed_.wait(lock, [&] { return stopping_ || k < added_ + kBlocksAhead; });
          if (stopping_) return;
        }
        Slot& s = slots_[k % kBlocksAhead];
        const std::size_t begin = k * kFactBlock;
        const std::size_t end = std::min(store_.size(), begin + kFactBlock);
        for (std::size_t i = begin; i < end; ++i)
          s.has[i - begin] = analysis::FlowAnalyzer::readFacts(
              reader, store_.bytes(i), link, i + 1, store_.timeRelative(i), s.facts[i - begin]);
        {
          std::lock_guard lock(mutex_);
          read_ = k + 1;
        }
        changed_.notify_all();
      }
    } catch (...) {
      std::lock_guard lock(mutex_);
      failure_ = std::current_exception();
      changed_.notify_all();
    }
  }

  const FrameStore& store_;
  const std::size_t blocks_;
  std::array<Slot, kBlocksAhead> slots_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t read_ = 0;   // blocks read
  std::size_t added_ = 0;  // blocks added
  bool stopping_ = false;
  std::exception_ptr failure_;
  std::thread thread_;
};

}  // namespace

AnalysisOutcome analyzeFrameStore(const FrameStore& store, const std::atomic<bool>* cancel,
                                  const AnalysisProgress& progress,
                                  analysis::AnalyzerOptions options) {
  const auto start = std::chrono::steady_clock::now();
  AnalysisOutcome out;
  CaptureAnalysisBuilder builder(options);
  const std::size_t total = store.size();
  const auto cancelled = [&](std::size_t done) {
    if (progress) progress(done, total);
    return cancel && cancel->load(std::memory_order_relaxed);
  };
  if (std::thread::hardware_concurrency() > 1 && total > kFactBlock) {
    FactsAhead ahead(store, builder.factOptions());
    for (std::size_t k = 0; k < ahead.blocks(); ++k) {
      const auto block = ahead.wait(k);
      const std::size_t begin = k * kFactBlock;
      const std::size_t end = std::min(total, begin + kFactBlock);
      for (std::size_t i = begin; i < end; ++i)
        builder.add(store, i, block.at(i - begin));
      ahead.done(k);
      if ((k & 3) == 3 && cancelled(end)) {
        out.cancelled = true;
        return out;
      }
    }
  } else {
    for (std::size_t i = 0; i < total; ++i) {
      builder.add(store, i);
      if ((i & 4095) == 4095 && cancelled(i + 1)) {
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
