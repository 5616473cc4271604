#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "fabric_impl.h"
#include "rdmascope/sim/fabric.h"

namespace rdmascope::sim {

namespace {

double us(SimTime t) {
  return static_cast<double>(t.picos()) / 1e6;
}

}  // namespace

FabricSeries Fabric::series() const {
  const Impl& m = *impl_;
  FabricSeries out;
  out.interval = spec_.sampleInterval;
  out.times = m.sampleTimes;
  for (const auto& q : m.queueSeries) {
    const auto& port = m.ports[static_cast<std::size_t>(q.port)];
    const auto& node = m.nodes[static_cast<std::size_t>(port.node)];
    out.queues.push_back(FabricSeries::Queue{
        port.name, q.prio, node.buffer ? node.buffer->headroom(port.index) : 0, q.bytes});
  }
  const double interval = spec_.sampleInterval.seconds();
  for (const auto& st : m.flows) {
    FabricSeries::Flow f;
    f.name = st.result.name;
    f.src = st.result.src;
    f.dst = st.result.dst;
    for (std::uint64_t b : st.rateSeries)
      f.deliveredGbps.push_back(static_cast<double>(b) * 8.0 / interval / 1e9);
    f.dcqcnRateGbps = st.rcSeries;
    out.flows.push_back(std::move(f));
  }
  out.portTxBytes = m.portTxSeries;
  out.portTxBytes.resize(m.ports.size());
  out.xoffBytes = m.xoffSeries;
  return out;
}

std::vector<FabricPortInfo> Fabric::ports() const {
  std::vector<FabricPortInfo> out;
  for (const auto& p : impl_->ports) {
    const auto& node = impl_->nodes[static_cast<std::size_t>(p.node)];
    out.push_back(FabricPortInfo{p.name, node.name, p.index,
                                 impl_->ports[static_cast<std::size_t>(p.peer)].name, p.gbps,
                                 node.isSwitch});
  }
  return out;
}

std::vector<std::string> Fabric::configWarnings() const {
  std::vector<std::string> out;
  if (!spec_.switches.pfc) return out;
  for (const auto& n : impl_->nodes) {
    if (!n.buffer || n.buffer->sharedPool() > 0) continue;
    std::uint64_t reserved = 0;
    const auto lossless = static_cast<std::uint64_t>(
        std::count(n.buffer->config().lossless.begin(), n.buffer->config().lossless.end(), true));
    for (std::size_t i = 0; i < n.ports.size(); ++i)
      reserved += n.buffer->headroom(static_cast<int>(i)) * lossless +
                  n.buffer->config().reserve * kPriorities;
    out.push_back(fmt::format(
        "switch {}: no shared buffer with PFC on ({} bytes of buffer, {} reserved and headroom "
        "for {} ports): every ingress passes XOFF at once and PFC pauses all the time",
        n.name, n.buffer->config().bufferBytes, reserved, n.ports.size()));
  }
  return out;
}

std::string_view toString(FabricEvent::Kind kind) {
  switch (kind) {
    case FabricEvent::Kind::Xoff:
      return "XOFF";
    case FabricEvent::Kind::Xon:
      return "XON";
    case FabricEvent::Kind::EcnMark:
      return "ECN mark";
    case FabricEvent::Kind::CnpSent:
      return "CNP";
    case FabricEvent::Kind::RateCut:
      return "rate cut";
    case FabricEvent::Kind::Drop:
      return "drop";
    case FabricEvent::Kind::Deadlock:
      return "deadlock";
  }
  return "?";
}

nlohmann::json Fabric::seriesJson() const {
  using Json = nlohmann::json;
  const FabricSeries series = this->series();
  Json j;
  j["scenario"] = spec_.name;
  j["sampleIntervalUs"] = us(spec_.sampleInterval);
  Json times = Json::array();
  for (SimTime t : series.times)
    times.push_back(us(t));
  j["timesUs"] = times;
  Json queues = Json::array();
  for (const auto& q : series.queues) {
    Json e;
    e["port"] = q.port;
    e["priority"] = q.priority;
    e["bytes"] = q.bytes;
    e["headroomBytes"] = q.headroomBytes;
    queues.push_back(e);
  }
  j["queues"] = queues;
  Json flows = Json::array();
  for (const auto& f : series.flows) {
    Json e;
    e["name"] = f.name;
    e["src"] = f.src;
    e["dst"] = f.dst;
    e["deliveredGbps"] = f.deliveredGbps;
    e["dcqcnRateGbps"] = f.dcqcnRateGbps;
    flows.push_back(e);
  }
  j["flows"] = flows;
  Json pauses = Json::array();
  for (const auto& p : this->pauses())
    pauses.push_back({{"port", p.port},
                      {"priority", p.priority},
                      {"startUs", us(p.start)},
                      {"endUs", us(p.end)}});
  j["pauses"] = pauses;
  const SwitchSettings& w = spec_.switches;
  j["thresholds"] = {{"ecn", w.ecn},
                     {"kminBytes", w.marking.kmin},
                     {"kmaxBytes", w.marking.kmax},
                     {"pmax", w.marking.pmax},
                     {"pfc", w.pfc},
                     {"xoff", w.buffer.pfc.dynamic ? "dynamic" : "static"},
                     {"xoffBytes", w.buffer.pfc.xoff},
                     {"alpha", w.buffer.pfc.alpha},
                     {"xonOffsetBytes", w.buffer.pfc.xonOffset}};
  const FabricCounters& c = counters_;
  j["counters"] = {{"framesTransmitted", c.framesTransmitted},
                   {"dataFramesDelivered", c.dataFramesDelivered},
                   {"dropsLossy", c.dropsLossy},
                   {"dropsHeadroom", c.dropsHeadroom},
                   {"pauseFramesSent", c.pauseFramesSent},
                   {"xonFramesSent", c.xonFramesSent},
                   {"cnpsSent", c.cnpsSent},
                   {"cnpsReceived", c.cnpsReceived},
                   {"ecnMarked", c.ecnMarked}};
  if (deadlock_) {
    j["deadlock"] = {{"detectedUs", us(deadlock_->detectedAt)}, {"cycle", deadlock_->cycle}};
  } else {
    j["deadlock"] = nullptr;
  }
  return j;
}

std::string Fabric::summary() const {
  const FabricCounters& c = counters_;
  std::string s = fmt::format("scenario {}: {} hosts, {} switches, {} links, {:.3f} ms simulated\n",
                              spec_.name, net_->localHosts(),
                              std::count_if(spec_.nodes.begin(), spec_.nodes.end(),
                                            [](const NodeSpec& n) { return n.isSwitch; }),
                              spec_.links.size(), us(net_->sim().now()) / 1000.0);
  s += fmt::format("frames on links {}, data frames delivered {}\n", c.framesTransmitted,
                   c.dataFramesDelivered);
  s += fmt::format("drops: {} (lossy priority buffer full {}, lossless headroom overflow {})\n",
                   c.dropsLossy + c.dropsHeadroom, c.dropsLossy, c.dropsHeadroom);
  std::map<std::string, double> pausedUs;
  std::map<std::string, int> pauseCount;
  for (const auto& p : pauses()) {
    const std::string key = fmt::format("{} priority {}", p.port, p.priority);
    pausedUs[key] += us(p.end - p.start);
    ++pauseCount[key];
  }
  s += fmt::format(
      "PFC: {} XOFF and {} XON frames sent, {} received; {} port/priority pairs paused\n",
      c.pauseFramesSent, c.xonFramesSent, c.pauseFramesReceived, pausedUs.size());
  for (const auto& [k, v] : pausedUs)
    s += fmt::format("  {} paused {:.1f} us in {} period(s)\n", k, v, pauseCount[k]);
  s += fmt::format(
      "ECN: {} frames marked CE, {} CE frames reached a NIC; CNPs: {} sent, {} received\n",
      c.ecnMarked, c.ceDelivered, c.cnpsSent, c.cnpsReceived);
  s += "flows:\n";
  for (const auto& f : flows()) {
    s += fmt::format(
        "  {} ({} -> {}): goodput {:.2f} Gb/s, {} messages, {} bytes completed, rate now {:.2f} "
        "Gb/s, "
        "{} CNPs{}\n",
        f.name, f.src, f.dst, f.goodputGbps, f.messagesCompleted, f.bytesCompleted, f.finalRateGbps,
        f.cnpsReceived, f.error.empty() ? "" : ", error: " + f.error);
  }
  if (deadlock_) {
    std::string cyc;
    for (const auto& v : deadlock_->cycle)
      cyc += (cyc.empty() ? "" : " -> ") + v;
    s += fmt::format("PFC deadlock detected at {:.1f} us: {} -> back to the first\n",
                     us(deadlock_->detectedAt), cyc);
  } else if (spec_.detectDeadlock) {
    s += "no PFC deadlock\n";
  }
  return s;
}

}  // namespace rdmascope::sim
