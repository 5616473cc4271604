#include "rdmascope/sim/transport_scenarios.h"

#include <algorithm>
#include <array>

#include "rdmascope/sim/simulator.h"
#include "rdmascope/sim/tcp_engine.h"

namespace rdmascope::sim {

namespace {

constexpr std::array<std::string_view, 4> kNames{"tcp-stream", "iwarp-send-recv", "iwarp-write",
                                                 "iwarp-read"};

std::vector<std::uint8_t> pattern(std::size_t n, std::uint64_t seed) {
  std::vector<std::uint8_t> v(n);
  std::uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
  for (auto& b : v) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    b = static_cast<std::uint8_t>(x);
  }
  return v;
}

}  // namespace

std::span<const std::string_view> transportScenarioNames() {
  return kNames;
}

std::optional<TransportScenarioResult> runTransportScenario(std::string_view name,
                                                            const TransportScenarioOptions& o,
                                                            std::string& error) {
  if (std::find(kNames.begin(), kNames.end(), name) == kNames.end()) {
    error = "unknown scenario '" + std::string(name) +
            "' (tcp-stream, iwarp-send-recv, iwarp-write, iwarp-read)";
    return std::nullopt;
  }
  if (o.bytes == 0 || o.bytes > kMaxTransportScenarioBytes) {
    error = "scenario size must lie in 1..64M bytes, not " + std::to_string(o.bytes);
    return std::nullopt;
  }
  if (!(o.lossRate >= 0 && o.lossRate < 0.5)) {
    error = "loss rate must lie in [0, 0.5)";
    return std::nullopt;
  }
  if (auto bad = validate(o.costs)) {
    error = *bad;
    return std::nullopt;
  }
  Simulator sim(o.seed);
  sim.trace().setEnabled(o.trace);
  SimulatorScheduler scheduler(sim);
  TcpNetworkConfig cfg;
  cfg.costs = o.costs;
  cfg.lossRate = o.lossRate;
  cfg.tcp.sendBufferBytes = static_cast<std::uint32_t>(std::min(o.costs.sndbufBytes, 1e9));
  const bool tcp = name == "tcp-stream";
  cfg.placement = tcp ? TcpStackPlacement::HostKernel : TcpStackPlacement::Offloaded;
  if (!tcp) cfg.serverPort = 20049;
  TcpNetwork net(scheduler, cfg);
  const auto data = pattern(o.bytes, o.seed);
  TransportScenarioResult r;
  r.name = std::string(name);
  SimTime started;
  const SimTime limit = SimTime::ms(3600 * 1000);

  if (tcp) {
    net.connect();
    sim.runWhile([&] { return net.endpoint(1).state() == TcpState::Established; }, limit);
    started = sim.now();
    bool done = false;
    std::vector<std::uint8_t> got;
    net.appReceive(1, data.size(), o.ioSize, [&](std::vector<std::uint8_t> bytes) {
      got = std::move(bytes);
      done = true;
    });
    net.appSend(0, data, o.ioSize);
    sim.runWhile([&] { return done; }, limit);
    r.elapsedUs = (sim.now() - started).micros();
    r.dataIntact = done && got == data;
    net.endpoint(0).close();
    net.endpoint(1).close();
    sim.run();
  } else {
    MpaSettings side;
    side.markers = o.markers;
    side.crc = o.crc;
    MpaSettings initiator = side;
    MpaSettings responder = side;
    const std::string pdA = "rdmascope initiator";
    const std::string pdB = "rdmascope responder";
    initiator.privateData.assign(pdA.begin(), pdA.end());
    responder.privateData.assign(pdB.begin(), pdB.end());
    IwarpSession session(net, initiator, responder);
    session.connect();
    sim.runWhile([&] { return session.established(); }, limit);
    if (!session.established()) {
      error = "iWARP connection setup did not complete";
      return std::nullopt;
    }
    started = sim.now();
    constexpr unsigned kAccess = access::kLocalWrite | access::kRemoteWrite | access::kRemoteRead;
    const auto len = static_cast<std::uint32_t>(data.size());
    const int src = name == "iwarp-read" ? 1 : 0;
    const auto srcStag = session.registerMemory(src, data.size(), kAccess);
    const auto dstStag = session.registerMemory(1 - src, data.size(), kAccess);
    std::copy(data.begin(), data.end(), session.memory(src, srcStag).begin());
    std::size_t expected = 1;
    if (name == "iwarp-send-recv") {
      session.postRecv(1, 2, dstStag, 0, len);
      session.postSend(0, 1, srcStag, 0, len);
      expected = 2;
    } else if (name == "iwarp-write") {
      session.postWrite(0, 1, srcStag, 0, len, dstStag, 0);
    } else {
      session.postRead(0, 1, dstStag, 0, len, srcStag, 0);
    }
    sim.runWhile([&] { return session.completions().size() >= expected; }, limit);
    r.elapsedUs = (sim.now() - started).micros();
    sim.run();
    const auto out = session.memory(1 - src, dstStag);
    r.dataIntact = std::equal(data.begin(), data.end(), out.begin(), out.end());
    r.completions = session.completions();
  }
  r.frames = net.captureAt(0);
  r.framesLost = net.framesLost();
  for (int h = 0; h < 2; ++h) {
    r.counters[h] = net.counters(h);
    r.tcp[h] = net.endpoint(h).stats();
  }
  if (o.trace) r.trace = sim.trace().events();
  return r;
}

}  // namespace rdmascope::sim
