#include "rdmascope/sim/fabric.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <deque>
#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <unordered_map>

#include "fabric_frames.h"
#include "fabric_impl.h"
#include "frame.h"
#include "opcodes.h"
#include "qp.h"
#include "wire_format.h"

namespace rdmascope::sim {

namespace {

enum Code : std::uint32_t {
  kTxDone = 1,
  kArrive,
  kTryTx,
  kAlphaTimer,
  kRateTimer,
  kSample,
  kDeadlockCheck,
  kPauseRefresh,
  kFlowStart,
};

constexpr std::uint32_t kWireOverhead = 24;  // preamble + SFD, FCS, inter-frame gap
constexpr SimTime kDeadlockCheckEvery = SimTime::us(20);

SimTime txTime(std::size_t bytes, double gbps) {
  return SimTime::ps(static_cast<std::int64_t>(static_cast<double>(bytes) * 8000.0 / gbps));
}

std::uint64_t withGen(int id, std::uint32_t gen) {
  return (static_cast<std::uint64_t>(id) << 32) | gen;
}
int idOf(std::uint64_t arg) {
  return static_cast<int>(arg >> 32);
}
std::uint32_t genOf(std::uint64_t arg) {
  return static_cast<std::uint32_t>(arg);
}

std::uint64_t flowKey(int host, std::uint32_t a, std::uint32_t b) {
  return (static_cast<std::uint64_t>(host) << 56) ^ (static_cast<std::uint64_t>(a) << 24) ^ b;
}

}  // namespace

// ====================================================================== building

void Fabric::Impl::build() {
  const ScenarioSpec& s = spec();
  std::map<std::string, int> byName;
  int hosts = 0;
  for (const auto& n : s.nodes) {
    Node node;
    node.name = n.name;
    node.isSwitch = n.isSwitch;
    if (!n.isSwitch) node.host = hosts++;
    byName[n.name] = static_cast<int>(nodes.size());
    nodes.push_back(std::move(node));
  }
  for (const auto& l : s.links) {
    const int a = byName.at(l.a), b = byName.at(l.b);
    const int pa = static_cast<int>(ports.size());
    for (int side = 0; side < 2; ++side) {
      Port p;
      p.node = side == 0 ? a : b;
      p.index = static_cast<int>(nodes[static_cast<std::size_t>(p.node)].ports.size());
      p.peer = side == 0 ? pa + 1 : pa;
      p.gbps = l.gbps;
      p.delay = l.delay;
      const Node& n = nodes[static_cast<std::size_t>(p.node)];
      p.name = n.isSwitch ? fmt::format("{}:{}", n.name, p.index) : n.name;
      nodes[static_cast<std::size_t>(p.node)].ports.push_back(static_cast<int>(ports.size()));
      ports.push_back(std::move(p));
    }
  }
  hostNode.resize(static_cast<std::size_t>(hosts));
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const Node& n = nodes[i];
    if (n.isSwitch) continue;
    if (n.ports.size() != 1)
      throw std::invalid_argument(
          fmt::format("host \"{}\" has {} links; a host has one NIC port", n.name, n.ports.size()));
    hostNode[static_cast<std::size_t>(n.host)] = static_cast<int>(i);
  }
  for (const auto& c : s.capture) {
    const auto it = byName.find(c.node);
    if (it == byName.end())
      throw std::invalid_argument(fmt::format("capture port \"{}\": no node {}", c.node, c.node));
    const Node& n = nodes[static_cast<std::size_t>(it->second)];
    if (c.port < 0 || static_cast<std::size_t>(c.port) >= n.ports.size())
      throw std::invalid_argument(fmt::format("capture port \"{}:{}\": {} has {} ports", c.node,
                                              c.port, c.node, n.ports.size()));
    Port& p = ports[static_cast<std::size_t>(n.ports[static_cast<std::size_t>(c.port)])];
    p.capture = true;
    ports[static_cast<std::size_t>(p.peer)].capture = true;
  }
  // switch buffers with their headroom
  for (auto& n : nodes) {
    if (!n.isSwitch) continue;
    std::vector<std::uint64_t> headroom;
    for (int pid : n.ports) {
      const Port& p = ports[static_cast<std::size_t>(pid)];
      headroom.push_back(s.switches.headroom.value_or(requiredHeadroom(
          p.gbps, p.delay, s.linkMtu + 14 + 4 + (s.switches.classifyByPcp ? 4 : 0))));
    }
    n.buffer = std::make_unique<SwitchBuffer>(s.switches.buffer, std::move(headroom));
  }
  // the network's hosts
  NetworkConfig cfg;
  cfg.seed = s.seed;
  cfg.fabric = &fab;
  cfg.link.mtu = s.linkMtu;
  cfg.copyPayload = false;
  for (const auto& n : nodes) {
    if (n.isSwitch) continue;
    HostConfig h;
    h.name = n.name;
    const auto i = static_cast<std::uint32_t>(n.host + 1);
    h.ipv4 = 0x0a0a0000u | i;
    h.mac = {
        0x02, 0x00, 0x0a, 0x0a, static_cast<std::uint8_t>(i >> 8), static_cast<std::uint8_t>(i)};
    hostByIp[h.ipv4] = n.host;
    cfg.fabricHosts.push_back(h);
  }
  fab.net_ = std::make_unique<Network>(cfg);
  net = fab.net_.get();
  computeRoutes();
  flowByCq.resize(static_cast<std::size_t>(hosts));
  for (int h = 0; h < hosts; ++h) {
    net->host(h).setCompletionHook([this, h](std::uint32_t cq) {
      sim().schedule(SimTime(), [this, h, cq] { onCompletion(h, cq); });
    });
  }
  setupFlows();
  sim().schedule(s.sampleInterval, &fab, kSample, 0);
  if (s.detectDeadlock) sim().schedule(kDeadlockCheckEvery, &fab, kDeadlockCheck, 0);
}

void Fabric::Impl::computeRoutes() {
  const std::size_t hosts = hostNode.size();
  for (auto& n : nodes)
    if (n.isSwitch) n.routes.assign(hosts, {});
  for (std::size_t h = 0; h < hosts; ++h) {
    std::vector<int> dist(nodes.size(), -1);
    std::deque<int> todo{hostNode[h]};
    dist[static_cast<std::size_t>(hostNode[h])] = 0;
    while (!todo.empty()) {
      const int n = todo.front();
      todo.pop_front();
      const Node& node = nodes[static_cast<std::size_t>(n)];
      if (node.isSwitch || n == hostNode[h]) {
        for (int pid : node.ports) {
          const int m =
              ports[static_cast<std::size_t>(ports[static_cast<std::size_t>(pid)].peer)].node;
          if (dist[static_cast<std::size_t>(m)] < 0) {
            dist[static_cast<std::size_t>(m)] = dist[static_cast<std::size_t>(n)] + 1;
            todo.push_back(m);
          }
        }
      }
    }
    for (auto& node : nodes) {
      if (!node.isSwitch) continue;
      const int d = dist[static_cast<std::size_t>(&node - nodes.data())];
      if (d < 0) continue;
      for (int pid : node.ports) {
        const int m =
            ports[static_cast<std::size_t>(ports[static_cast<std::size_t>(pid)].peer)].node;
        if (dist[static_cast<std::size_t>(m)] == d - 1)
          node.routes[h].push_back(ports[static_cast<std::size_t>(pid)].index);
      }
    }
  }
  for (const auto& r : spec().routes) {
    Node* at = nullptr;
    int via = -1, to = -1;
    for (auto& n : nodes) {
      if (n.name == r.at) at = &n;
      if (n.name == r.via) via = static_cast<int>(&n - nodes.data());
      if (n.name == r.to) to = n.host;
    }
    std::vector<int> next;
    for (int pid : at->ports) {
      if (ports[static_cast<std::size_t>(ports[static_cast<std::size_t>(pid)].peer)].node == via)
        next.push_back(ports[static_cast<std::size_t>(pid)].index);
    }
    at->routes[static_cast<std::size_t>(to)] = next;
  }
}

void Fabric::Impl::setupFlows() {
  namespace m = attr_mask;
  const ScenarioSpec& s = spec();
  for (std::size_t i = 0; i < s.flows.size(); ++i) {
    const FlowSpec& fs = s.flows[i];
    FlowState st;
    st.result.name = fs.name;
    st.result.src = fs.src;
    st.result.dst = fs.dst;
    for (const auto& n : nodes) {
      if (n.name == fs.src) st.srcHost = n.host;
      if (n.name == fs.dst) st.dstHost = n.host;
    }
    // a path must exist from the source's switch to the destination
    {
      int node = ports[static_cast<std::size_t>(
                           ports[static_cast<std::size_t>(
                                     nodes[static_cast<std::size_t>(
                                               hostNode[static_cast<std::size_t>(st.srcHost)])]
                                         .ports[0])]
                               .peer)]
                     .node;
      for (int hops = 0; nodes[static_cast<std::size_t>(node)].isSwitch; ++hops) {
        const auto& next =
            nodes[static_cast<std::size_t>(node)].routes[static_cast<std::size_t>(st.dstHost)];
        if (next.empty() || hops > 64)
          throw std::invalid_argument(fmt::format("flow \"{}\": no path from {} to {}{}", fs.name,
                                                  fs.src, fs.dst,
                                                  hops > 64 ? " (the routes loop)" : ""));
        const Port& out = ports[static_cast<std::size_t>(
            nodes[static_cast<std::size_t>(node)].ports[static_cast<std::size_t>(next[0])])];
        node = ports[static_cast<std::size_t>(out.peer)].node;
      }
      if (node != hostNode[static_cast<std::size_t>(st.dstHost)])
        throw std::invalid_argument(fmt::format("flow \"{}\": the routes reach {} instead of {}",
                                                fs.name, nodes[static_cast<std::size_t>(node)].name,
                                                fs.dst));
    }
    Host& a = net->host(st.srcHost);
    Host& b = net->host(st.dstHost);
    const std::uint32_t pdA = a.allocPd().value, pdB = b.allocPd().value;
    st.srcCq = a.createCq(4096).value;
    const std::uint32_t cqB = b.createCq(4096).value;
    st.srcBuf = a.allocate(fs.messageBytes);
    st.dstBuf = b.allocate(fs.messageBytes);
    const auto mrA = a.regMr(pdA, st.srcBuf, fs.messageBytes, access::kLocalWrite);
    const auto mrB =
        b.regMr(pdB, st.dstBuf, fs.messageBytes, access::kLocalWrite | access::kRemoteWrite);
    st.lkey = mrA.value.lkey;
    st.rkey = mrB.value.rkey;
    QpInitAttr init;
    init.qpType = QpType::RC;
    init.cap.maxSendWr = init.cap.maxRecvWr = 256;
    init.sendCq = init.recvCq = st.srcCq;
    st.srcQpn = a.createQp(pdA, init).value;
    init.sendCq = init.recvCq = cqB;
    st.dstQpn = b.createQp(pdB, init).value;
    const std::uint8_t tc = static_cast<std::uint8_t>((fs.dscp << 2) | (s.nics.dcqcn ? 0x2 : 0));
    auto bringUp = [&](Host& h, std::uint32_t qpn, Host& peer, std::uint32_t peerQpn) {
      QpAttr at;
      at.qpState = QpState::Init;
      at.portNum = 1;
      at.qpAccessFlags = access::kRemoteWrite;
      VerbsStatus v = h.modifyQp(qpn, at, m::kState | m::kPkeyIndex | m::kPort | m::kAccessFlags);
      at.qpState = QpState::Rtr;
      at.pathMtu = net->activeMtu() >= 4096   ? Mtu::Mtu4096
                   : net->activeMtu() >= 2048 ? Mtu::Mtu2048
                   : net->activeMtu() >= 1024 ? Mtu::Mtu1024
                   : net->activeMtu() >= 512  ? Mtu::Mtu512
                                              : Mtu::Mtu256;
      at.destQpNum = peerQpn;
      at.rqPsn = 0;
      at.ahAttr.isGlobal = true;
      at.ahAttr.dgid = peer.gid();
      at.ahAttr.trafficClass = tc;
      at.ahAttr.hopLimit = 64;
      at.maxDestRdAtomic = 16;
      at.minRnrTimer = 12;
      if (v.ok())
        v = h.modifyQp(qpn, at,
                       m::kState | m::kAv | m::kPathMtu | m::kDestQpn | m::kRqPsn |
                           m::kMaxDestRdAtomic | m::kMinRnrTimer);
      at.qpState = QpState::Rts;
      at.sqPsn = 0;
      at.timeout = s.qpTimeout;
      at.retryCnt = 7;
      at.rnrRetry = 7;
      at.maxRdAtomic = 16;
      if (v.ok())
        v = h.modifyQp(
            qpn, at,
            m::kState | m::kSqPsn | m::kTimeout | m::kRetryCnt | m::kRnrRetry | m::kMaxQpRdAtomic);
      if (!v.ok()) throw std::invalid_argument(fmt::format("flow \"{}\": {}", fs.name, v.message));
    };
    bringUp(a, st.srcQpn, b, st.dstQpn);
    bringUp(b, st.dstQpn, a, st.srcQpn);
    const int idx = static_cast<int>(flows.size());
    flowByCq[static_cast<std::size_t>(st.srcHost)][st.srcCq] = idx;
    flowByDst[flowKey(st.dstHost, st.dstQpn, 0)] = idx;
    flows.push_back(std::move(st));
    sim().schedule(fs.start, &fab, kFlowStart, static_cast<std::uint64_t>(idx));
  }
}

// ====================================================================== data path

int Fabric::Impl::classify(const Frame& f) const {
  if (get16(f.hdr.data() + 12) == kEtherTypeVlan) return f.hdr[14] >> 5;
  if (get16(f.hdr.data() + 12) == 0x0800) return (f.hdr[15] >> 2) >> 3;
  return 0;
}

int Fabric::Impl::nicFlowFor(int host, const Frame& f) {
  const std::size_t l3 = l3Offset(f);
  const std::uint32_t dstIp = get32(f.hdr.data() + l3 + 16);
  const std::uint32_t destQp = get32(f.hdr.data() + l3 + 28 + 4) & 0xffffff;
  const std::uint64_t key = flowKey(host, dstIp, destQp);
  if (auto it = nicFlowByDest.find(key); it != nicFlowByDest.end()) return it->second;
  Host& h = net->host(host);
  std::uint32_t local = 0;
  const Gid dgid = ipv4MappedGid(dstIp);
  for (std::uint32_t qpn : h.qpNumbers()) {
    const Qp* qp = h.qp(qpn);
    if (qp && qp->attr().destQpNum == destQp && qp->attr().ahAttr.dgid == dgid) local = qpn;
  }
  NicFlow nf;
  nf.host = host;
  nf.port = nodes[static_cast<std::size_t>(hostNode[static_cast<std::size_t>(host)])].ports[0];
  nf.qpn = local;
  nf.prio = static_cast<std::uint8_t>(classify(f));
  if (spec().nics.dcqcn) {
    nf.rp.emplace(spec().nics.params, ports[static_cast<std::size_t>(nf.port)].gbps);
    nf.rp->record(recordDcqcn);
  }
  for (std::size_t i = 0; i < flows.size(); ++i) {
    if (flows[i].srcHost == host && flows[i].srcQpn == local) {
      nf.scenarioFlow = static_cast<int>(i);
      flows[i].nicFlow = static_cast<int>(nicFlows.size());
    }
  }
  const int id = static_cast<int>(nicFlows.size());
  nicFlows.push_back(std::move(nf));
  nicFlowByDest[key] = id;
  nicFlowByQpn[flowKey(host, local, 0)] = id;
  ports[static_cast<std::size_t>(nicFlows.back().port)].nicFlows.push_back(id);
  return id;
}

void Fabric::Impl::wakeAt(int portId, SimTime t) {
  Port& p = ports[static_cast<std::size_t>(portId)];
  if (t >= p.wakeAt && p.wakeAt > sim().now()) return;
  p.wakeAt = t;
  sim().schedule(t - sim().now(), &fab, kTryTx, static_cast<std::uint64_t>(portId));
}

void Fabric::Impl::tryTx(int portId) {
  Port& p = ports[static_cast<std::size_t>(portId)];
  if (p.busy) return;
  const SimTime now = sim().now();
  if (!p.ctrl.empty()) {
    Frame* f = p.ctrl.front();
    p.ctrl.pop_front();
    startTx(portId, f, -1, -1, nodes[static_cast<std::size_t>(p.node)].isSwitch, -1);
    return;
  }
  SimTime wake = SimTime::max();
  if (nodes[static_cast<std::size_t>(p.node)].isSwitch) {
    for (int prio = kPriorities - 1; prio >= 0; --prio) {
      auto& q = p.q[static_cast<std::size_t>(prio)];
      if (q.empty()) continue;
      if (p.pausedUntil[static_cast<std::size_t>(prio)] > now) {
        wake = std::min(wake, p.pausedUntil[static_cast<std::size_t>(prio)]);
        continue;
      }
      const Queued e = q.front();
      q.pop_front();
      p.qBytes[static_cast<std::size_t>(prio)] -= e.bytes;
      startTx(portId, e.f, prio, e.inPort, true, -1);
      return;
    }
  } else {
    const std::size_t n = p.nicFlows.size();
    for (std::size_t k = 0; k < n; ++k) {
      const int id = p.nicFlows[(p.rr + k) % n];
      NicFlow& nf = nicFlows[static_cast<std::size_t>(id)];
      if (nf.q.empty()) continue;
      const SimTime pausedTill = p.pausedUntil[nf.prio];
      if (pausedTill > now || nf.nextAllowed > now) {
        wake = std::min(wake, std::max(pausedTill, nf.nextAllowed));
        continue;
      }
      p.rr = (p.rr + k + 1) % n;
      Frame* f = nf.q.front();
      nf.q.pop_front();
      startTx(portId, f, nf.prio, -1, false, id);
      return;
    }
  }
  if (wake != SimTime::max()) wakeAt(portId, wake);
}

void Fabric::Impl::startTx(int portId, Frame* f, int prio, int inPort, bool isSwitch, int nicFlow) {
  Port& p = ports[static_cast<std::size_t>(portId)];
  const SimTime now = sim().now();
  const std::size_t bytes = f->size();
  if (isSwitch && prio >= 0) {
    Node& node = nodes[static_cast<std::size_t>(p.node)];
    ++fab.counters_.framesForwarded;
    if (spec().switches.ecn && isEcnCapable(*f)) {
      const double pr =
          spec().switches.marking.probability(p.qBytes[static_cast<std::size_t>(prio)] + bytes);
      if (pr > 0 && (pr >= 1 || sim().uniform() < pr)) {
        markCe(*f);
        ++fab.counters_.ecnMarked;
        if (tracing()) {
          FabricEvent e;
          e.kind = FabricEvent::Kind::EcnMark;
          e.port = p.name;
          e.peer = ports[static_cast<std::size_t>(p.peer)].name;
          e.priority = prio;
          e.flow = flowOfFrame(*f);
          e.bytes = p.qBytes[static_cast<std::size_t>(prio)] + bytes;
          e.threshold = spec().switches.marking.kmin;
          e.probability = pr;
          emitEvent(std::move(e));
        }
      }
    }
    if (inPort >= 0) {
      node.buffer->release(inPort, prio, static_cast<std::uint32_t>(bytes));
      if (node.buffer->shouldResume(inPort, prio)) {
        node.buffer->setPaused(inPort, prio, false);
        const int inId = node.ports[static_cast<std::size_t>(inPort)];
        sendPause(inId, prio, false);
        if (tracing()) {
          const Port& in = ports[static_cast<std::size_t>(inId)];
          FabricEvent e;
          e.kind = FabricEvent::Kind::Xon;
          e.port = in.name;
          e.peer = ports[static_cast<std::size_t>(in.peer)].name;
          e.priority = prio;
          e.bytes =
              node.buffer->ingressBytes(inPort, prio) + node.buffer->headroomBytes(inPort, prio);
          const std::uint64_t x = node.buffer->xoffThreshold();
          const std::uint64_t off = node.buffer->config().pfc.xonOffset;
          e.threshold = x > off ? x - off : 0;
          emitEvent(std::move(e));
        }
      }
    }
  }
  // Busy before the reaction point sees the bytes: a rate change it reports wakes the port
  // (onRateChange), which must not start a second frame beside this one.
  p.busy = true;
  if (nicFlow >= 0) {
    NicFlow& nf = nicFlows[static_cast<std::size_t>(nicFlow)];
    double rate = p.gbps;
    if (nf.rp) {
      if (nf.rp->onBytesSent(now, bytes)) onRateChange(nicFlow);
      rate = std::min(rate, nf.rp->currentRateGbps());
    }
    nf.nextAllowed = std::max(now, nf.nextAllowed) + txTime(bytes + kWireOverhead, rate);
  }
  if (p.capture) capture(p, *f);
  ++fab.counters_.framesTransmitted;
  ++p.txFrames;
  p.txBytes += bytes;
  const SimTime tx = txTime(bytes + kWireOverhead, p.gbps);
  p.wire.push_back(f);
  sim().schedule(tx + p.delay, &fab, kArrive, static_cast<std::uint64_t>(portId));
  sim().schedule(tx, &fab, kTxDone, static_cast<std::uint64_t>(portId));
}

void Fabric::Impl::capture(const Port& p, const Frame& f) {
  FabricCapture c;
  c.time = sim().now();
  c.port = p.name;
  f.flatten(c.bytes);
  if (fab.captureSink_)
    fab.captureSink_(c);
  else
    fab.captures_.push_back(std::move(c));
}

void Fabric::Impl::arrive(int senderPortId) {
  Port& tx = ports[static_cast<std::size_t>(senderPortId)];
  Frame* f = tx.wire.front();
  tx.wire.pop_front();
  Port& rx = ports[static_cast<std::size_t>(tx.peer)];
  if (isPause(*f)) {
    receivePause(rx, *f);
    net->releaseFrame(*f);
    return;
  }
  if (nodes[static_cast<std::size_t>(rx.node)].isSwitch) {
    switchReceive(rx, f);
  } else {
    nicReceive(rx, f);
  }
}

void Fabric::Impl::receivePause(Port& rx, const Frame& f) {
  ++fab.counters_.pauseFramesReceived;
  const SimTime now = sim().now();
  const PauseRequest req = parsePause(f);
  const int rxId = static_cast<int>(&rx - ports.data());
  for (int prio = 0; prio < kPriorities; ++prio) {
    if (!(req.enable & (1u << prio))) continue;
    const auto i = static_cast<std::size_t>(prio);
    const std::uint16_t quanta = req.quanta[i];
    // a pause that ran out before this frame ends its interval where it ran out
    if (rx.pauseOpen[i] && rx.pausedUntil[i] <= now) closePause(rx, prio, rx.pausedUntil[i]);
    if (quanta == 0) {
      if (rx.pauseOpen[i]) closePause(rx, prio, now);
      rx.pausedUntil[i] = now;
    } else {
      rx.pausedUntil[i] = now + txTime(static_cast<std::size_t>(quanta) * 64, rx.gbps);
      if (!rx.pauseOpen[i]) {
        rx.pauseOpen[i] = true;
        rx.pauseStart[i] = now;
      }
      anyPause = true;
    }
  }
  tryTx(rxId);
}

void Fabric::Impl::closePause(Port& p, int prio, SimTime end) {
  const auto i = static_cast<std::size_t>(prio);
  if (!p.pauseOpen[i]) return;
  p.pauseOpen[i] = false;
  closedPauses.push_back(PauseInterval{p.name, prio, p.pauseStart[i], end});
}

void Fabric::Impl::sendPause(int portId, int prio, bool xoff) {
  Port& p = ports[static_cast<std::size_t>(portId)];
  const std::uint16_t quanta = xoff ? spec().switches.pauseQuanta : 0;
  Frame& f = net->allocFrame();
  buildPause(f, portMac(portId), static_cast<std::uint8_t>(1u << prio), prio, quanta);
  p.ctrl.push_back(&f);
  if (xoff) {
    ++fab.counters_.pauseFramesSent;
    // repeat the XOFF when half its quanta have run out, for as long as the ingress stays paused
    const SimTime half = txTime(static_cast<std::size_t>(quanta) * 32, p.gbps);
    const auto i = static_cast<std::size_t>(prio);
    sim().schedule(half, &fab, kPauseRefresh,
                   withGen(portId * kPriorities + prio, ++p.refreshGen[i]));
  } else {
    ++fab.counters_.xonFramesSent;
    ++p.refreshGen[static_cast<std::size_t>(prio)];
  }
  tryTx(portId);
}

void Fabric::Impl::switchReceive(Port& rx, Frame* f) {
  Node& node = nodes[static_cast<std::size_t>(rx.node)];
  const std::size_t l3 = l3Offset(*f);
  const std::uint32_t dstIp = get32(f->hdr.data() + l3 + 16);
  auto h = hostByIp.find(dstIp);
  const std::vector<int>* next =
      h == hostByIp.end() ? nullptr : &node.routes[static_cast<std::size_t>(h->second)];
  if (!next || next->empty()) {
    ++fab.counters_.dropsLossy;
    net->releaseFrame(*f);
    return;
  }
  int out = (*next)[0];
  if (next->size() > 1) {
    const std::uint32_t hash = (get32(f->hdr.data() + l3 + 12) * 0x9e3779b1u) ^
                               (get16(f->hdr.data() + l3 + 20) * 0x85ebca6bu);
    out = (*next)[(hash >> 16) % next->size()];
  }
  const int prio = classify(*f);
  const auto bytes = static_cast<std::uint32_t>(f->size());
  const Admission adm = node.buffer->admit(rx.index, prio, bytes);
  if (adm == Admission::Dropped) {
    const bool lossless = node.buffer->config().lossless[static_cast<std::size_t>(prio)];
    if (lossless)
      ++fab.counters_.dropsHeadroom;
    else
      ++fab.counters_.dropsLossy;
    if (tracing()) {
      FabricEvent e;
      e.kind = FabricEvent::Kind::Drop;
      e.port = rx.name;
      e.peer = ports[static_cast<std::size_t>(rx.peer)].name;
      e.priority = prio;
      e.flow = flowOfFrame(*f);
      e.bytes = bytes;
      e.lossless = lossless;
      emitEvent(std::move(e));
    }
    net->releaseFrame(*f);
    return;
  }
  const int outId = node.ports[static_cast<std::size_t>(out)];
  Port& op = ports[static_cast<std::size_t>(outId)];
  op.q[static_cast<std::size_t>(prio)].push_back(
      Queued{f, static_cast<std::int16_t>(rx.index), static_cast<std::uint8_t>(prio), bytes});
  op.qBytes[static_cast<std::size_t>(prio)] += bytes;
  if (node.buffer->shouldPause(rx.index, prio)) {
    node.buffer->setPaused(rx.index, prio, true);
    sendPause(static_cast<int>(&rx - ports.data()), prio, true);
    if (tracing()) {
      FabricEvent e;
      e.kind = FabricEvent::Kind::Xoff;
      e.port = rx.name;
      e.peer = ports[static_cast<std::size_t>(rx.peer)].name;
      e.priority = prio;
      e.bytes =
          node.buffer->ingressBytes(rx.index, prio) + node.buffer->headroomBytes(rx.index, prio);
      e.threshold = node.buffer->xoffThreshold();
      emitEvent(std::move(e));
    }
  }
  tryTx(outId);
}

void Fabric::Impl::nicReceive(Port& rx, Frame* f) {
  const int host = nodes[static_cast<std::size_t>(rx.node)].host;
  stripVlan(*f);
  const std::uint8_t* ip = f->hdr.data() + 14;
  const std::uint8_t opcode = ip[28];
  const std::uint32_t destQp = get32(ip + 32) & 0xffffff;
  if (opcode == kBthOpcodeCnp) {
    ++fab.counters_.cnpsReceived;
    if (auto it = nicFlowByQpn.find(flowKey(host, destQp, 0)); it != nicFlowByQpn.end()) {
      NicFlow& nf = nicFlows[static_cast<std::size_t>(it->second)];
      if (nf.rp) {
        const double before = nf.rp->currentRateGbps();
        nf.rp->onCnp(sim().now());
        if (tracing()) {
          FabricEvent e;
          e.kind = FabricEvent::Kind::RateCut;
          e.port = rx.name;
          e.priority = nf.prio;
          e.flow = nf.scenarioFlow;
          e.rateBeforeGbps = before;
          e.rateAfterGbps = nf.rp->currentRateGbps();
          e.alpha = nf.rp->alpha();
          emitEvent(std::move(e));
        }
        armDcqcnTimers(it->second, true, true);
        onRateChange(it->second);
      }
      if (nf.scenarioFlow >= 0)
        ++flows[static_cast<std::size_t>(nf.scenarioFlow)].result.cnpsReceived;
    }
    net->releaseFrame(*f);
    return;
  }
  const bool ce = (ip[1] & 0x3) == 0x3;
  if (auto it = flowByDst.find(flowKey(host, destQp, 0)); it != flowByDst.end()) {
    FlowState& fs = flows[static_cast<std::size_t>(it->second)];
    const OpcodeInfo& info = opcodeInfo(opcode);
    if (info.mask & kPayload) {
      const std::size_t payload = f->payloadLen;
      fs.result.bytesOnWire += payload;
      ++fab.counters_.dataFramesDelivered;
    }
  }
  if (ce) {
    ++fab.counters_.ceDelivered;
    if (spec().nics.dcqcn) {
      SimTime& last = lastCnp.try_emplace(flowKey(host, destQp, 0), SimTime::ps(-1)).first->second;
      const SimTime now = sim().now();
      if (last < SimTime() || now - last >= spec().nics.params.cnpInterval) {
        last = now;
        sendCnp(host, ip, destQp);
        if (tracing()) {
          FabricEvent e;
          e.kind = FabricEvent::Kind::CnpSent;
          e.port = rx.name;
          e.priority = spec().nics.cnpDscp / 8;
          e.flow = flowOfFrame(*f);
          if (auto src = hostByIp.find(get32(ip + 12)); src != hostByIp.end())
            e.peer =
                nodes[static_cast<std::size_t>(hostNode[static_cast<std::size_t>(src->second)])]
                    .name;
          emitEvent(std::move(e));
        }
      }
    }
  }
  net->deliverFrame(host, *f);
}

void Fabric::Impl::sendCnp(int host, const std::uint8_t* ip, std::uint32_t destQp) {
  Host& h = net->host(host);
  const Qp* qp = h.qp(destQp);
  if (!qp) return;
  Frame& f = net->allocFrame();
  buildCnp(f, h.config().mac, get32(ip + 12 + 4), get32(ip + 12), qp->attr().destQpNum,
           static_cast<std::uint8_t>(spec().nics.cnpDscp << 2));
  f.number = 0;
  f.fromHost = host;
  ++fab.counters_.cnpsSent;
  const int portId =
      nodes[static_cast<std::size_t>(hostNode[static_cast<std::size_t>(host)])].ports[0];
  ports[static_cast<std::size_t>(portId)].ctrl.push_back(&f);
  tryTx(portId);
}

void Fabric::Impl::armDcqcnTimers(int id, bool alpha, bool rate) {
  NicFlow& nf = nicFlows[static_cast<std::size_t>(id)];
  const DcqcnParams& p = spec().nics.params;
  if (alpha) {
    sim().schedule(p.alphaTimer, &fab, kAlphaTimer, withGen(id, ++nf.alphaGen));
  }
  if (rate) {
    sim().schedule(p.rateTimer, &fab, kRateTimer, withGen(id, ++nf.rateGen));
  }
}

void Fabric::Impl::onRateChange(int id) {
  NicFlow& nf = nicFlows[static_cast<std::size_t>(id)];
  // the next frame leaves one frame time at the new rate after the last one (not later)
  if (nf.nextAllowed > sim().now()) {
    const double r = nf.rp->currentRateGbps();
    const SimTime cap = sim().now() + txTime(4096 + 100, r);
    nf.nextAllowed = std::min(nf.nextAllowed, cap);
  }
  tryTx(nf.port);
}

// ====================================================================== flows

void Fabric::Impl::startFlow(int flow) {
  postWrites(flow);
}

void Fabric::Impl::postWrites(int flow) {
  FlowState& st = flows[static_cast<std::size_t>(flow)];
  const FlowSpec& fs = spec().flows[static_cast<std::size_t>(flow)];
  Host& h = net->host(st.srcHost);
  while (st.outstanding < fs.depth && st.result.error.empty() &&
         (fs.bytes == 0 || st.posted < fs.bytes)) {
    SendWr wr;
    wr.wrId = ++st.wrId;
    wr.opcode = WrOpcode::RdmaWrite;
    wr.sendFlags = send_flags::kSignaled;
    const std::uint32_t len = fs.bytes == 0 ? fs.messageBytes
                                            : static_cast<std::uint32_t>(std::min<std::uint64_t>(
                                                  fs.messageBytes, fs.bytes - st.posted));
    wr.sgList.push_back(Sge{st.srcBuf, len, st.lkey});
    wr.remoteAddr = st.dstBuf;
    wr.rkey = st.rkey;
    const VerbsStatus v = h.postSend(st.srcQpn, wr);
    if (!v.ok()) {
      st.result.error = v.message;
      return;
    }
    st.posted += len;
    ++st.outstanding;
  }
}

void Fabric::Impl::onCompletion(int host, std::uint32_t cq) {
  auto it = flowByCq[static_cast<std::size_t>(host)].find(cq);
  if (it == flowByCq[static_cast<std::size_t>(host)].end()) return;
  FlowState& st = flows[static_cast<std::size_t>(it->second)];
  for (const WorkCompletion& wc : net->host(host).pollCq(cq, 64)) {
    --st.outstanding;
    if (wc.status != WcStatus::Success) {
      if (st.result.error.empty()) st.result.error = std::string(toString(wc.status));
      continue;
    }
    st.result.bytesCompleted += wc.byteLen;
    ++st.result.messagesCompleted;
  }
  postWrites(it->second);
}

// ====================================================================== sampling, deadlock

void Fabric::Impl::sample() {
  sampleTimes.push_back(sim().now());
  const std::size_t n = sampleTimes.size();
  for (std::size_t pid = 0; pid < ports.size(); ++pid) {
    const Port& p = ports[pid];
    if (!nodes[static_cast<std::size_t>(p.node)].isSwitch) continue;
    for (int prio = 0; prio < kPriorities; ++prio) {
      const std::uint64_t b = p.qBytes[static_cast<std::size_t>(prio)];
      const int key = static_cast<int>(pid) * kPriorities + prio;
      auto it = queueSeriesIndex.find(key);
      if (it == queueSeriesIndex.end()) {
        if (b == 0) continue;
        it = queueSeriesIndex.emplace(key, static_cast<int>(queueSeries.size())).first;
        queueSeries.push_back(
            QueueSeries{static_cast<int>(pid), prio, std::vector<std::uint64_t>(n - 1, 0)});
      }
      queueSeries[static_cast<std::size_t>(it->second)].bytes.push_back(b);
    }
  }
  if (portTxLast.size() != ports.size()) {
    portTxLast.assign(ports.size(), 0);
    portTxSeries.assign(ports.size(), {});
  }
  for (std::size_t pid = 0; pid < ports.size(); ++pid) {
    portTxSeries[pid].push_back(ports[pid].txBytes - portTxLast[pid]);
    portTxLast[pid] = ports[pid].txBytes;
  }
  for (const auto& node : nodes)
    if (node.buffer) xoffSeries[node.name].push_back(node.buffer->xoffThreshold());
  for (auto& st : flows) {
    st.rateSeries.push_back(st.result.bytesOnWire - st.lastBytes);
    st.lastBytes = st.result.bytesOnWire;
    double rc =
        ports[static_cast<std::size_t>(
                  nodes[static_cast<std::size_t>(hostNode[static_cast<std::size_t>(st.srcHost)])]
                      .ports[0])]
            .gbps;
    if (st.nicFlow >= 0 && nicFlows[static_cast<std::size_t>(st.nicFlow)].rp)
      rc = nicFlows[static_cast<std::size_t>(st.nicFlow)].rp->currentRateGbps();
    st.rcSeries.push_back(rc);
  }
}

void Fabric::Impl::checkDeadlock() {
  const SimTime now = sim().now();
  if (deadlockTx.size() != ports.size()) deadlockTx.assign(ports.size(), ~0ull);
  // A waits for B: switch egress queue A is paused by its peer switch, and B is a paused
  // egress queue of that peer holding frames that came in over A's link (they keep the peer's
  // ingress above XOFF). A cycle of such queues that sent nothing since the last check can
  // never drain: a PFC deadlock.
  struct V {
    int port, prio;
  };
  std::vector<V> verts;
  std::map<std::pair<int, int>, int> index;
  for (std::size_t pid = 0; pid < ports.size(); ++pid) {
    const Port& p = ports[pid];
    if (!nodes[static_cast<std::size_t>(p.node)].isSwitch) continue;
    if (!nodes[static_cast<std::size_t>(ports[static_cast<std::size_t>(p.peer)].node)].isSwitch)
      continue;
    for (int prio = 0; prio < kPriorities; ++prio) {
      const auto i = static_cast<std::size_t>(prio);
      if (p.q[i].empty() || p.pausedUntil[i] <= now || p.txFrames != deadlockTx[pid]) continue;
      index[{static_cast<int>(pid), prio}] = static_cast<int>(verts.size());
      verts.push_back({static_cast<int>(pid), prio});
    }
  }
  std::vector<std::vector<int>> edges(verts.size());
  for (std::size_t v = 0; v < verts.size(); ++v) {
    const Port& p = ports[static_cast<std::size_t>(verts[v].port)];
    const Port& peerIn = ports[static_cast<std::size_t>(p.peer)];
    const Node& peer = nodes[static_cast<std::size_t>(peerIn.node)];
    for (int pid : peer.ports) {
      auto it = index.find({pid, verts[v].prio});
      if (it == index.end()) continue;
      const auto& q =
          ports[static_cast<std::size_t>(pid)].q[static_cast<std::size_t>(verts[v].prio)];
      const bool holds = std::any_of(q.begin(), q.end(),
                                     [&](const Queued& e) { return e.inPort == peerIn.index; });
      if (holds) edges[v].push_back(it->second);
    }
  }
  // a cycle by depth-first search
  std::vector<int> state(verts.size(), 0), parent(verts.size(), -1);
  std::vector<int> cycle;
  std::function<bool(int)> dfs = [&](int v) {
    state[static_cast<std::size_t>(v)] = 1;
    for (int w : edges[static_cast<std::size_t>(v)]) {
      if (state[static_cast<std::size_t>(w)] == 1) {
        for (int x = v; x != w; x = parent[static_cast<std::size_t>(x)])
          cycle.push_back(x);
        cycle.push_back(w);
        std::reverse(cycle.begin(), cycle.end());
        return true;
      }
      if (state[static_cast<std::size_t>(w)] == 0) {
        parent[static_cast<std::size_t>(w)] = v;
        if (dfs(w)) return true;
      }
    }
    state[static_cast<std::size_t>(v)] = 2;
    return false;
  };
  for (std::size_t v = 0; v < verts.size() && cycle.empty(); ++v)
    if (state[v] == 0) dfs(static_cast<int>(v));
  if (!cycle.empty()) {
    DeadlockReport r;
    r.detectedAt = now;
    for (int v : cycle)
      r.cycle.push_back(fmt::format(
          "{}/{}", ports[static_cast<std::size_t>(verts[static_cast<std::size_t>(v)].port)].name,
          verts[static_cast<std::size_t>(v)].prio));
    if (tracing()) {
      FabricEvent e;
      e.kind = FabricEvent::Kind::Deadlock;
      e.port = ports[static_cast<std::size_t>(verts[static_cast<std::size_t>(cycle[0])].port)].name;
      e.priority = verts[static_cast<std::size_t>(cycle[0])].prio;
      e.bytes = r.cycle.size();
      emitEvent(std::move(e));
    }
    fab.deadlock_ = std::move(r);
    return;
  }
  for (std::size_t pid = 0; pid < ports.size(); ++pid)
    deadlockTx[pid] = ports[pid].txFrames;
  sim().schedule(kDeadlockCheckEvery, &fab, kDeadlockCheck, 0);
}

// ====================================================================== events

void Fabric::Impl::emitEvent(FabricEvent e) {
  e.time = sim().now();
  fab.eventSink_(e);
}

int Fabric::Impl::flowOfFrame(const Frame& f) const {
  const std::size_t l3 = l3Offset(f);
  if (f.hdr.size() < l3 + 36) return -1;
  const auto h = hostByIp.find(get32(f.hdr.data() + l3 + 16));
  if (h == hostByIp.end()) return -1;
  const std::uint32_t destQp = get32(f.hdr.data() + l3 + 28 + 4) & 0xffffff;
  const auto it = flowByDst.find(flowKey(h->second, destQp, 0));
  return it == flowByDst.end() ? -1 : it->second;
}

// ====================================================================== Fabric

Fabric::Fabric(const ScenarioSpec& spec) : spec_(spec), impl_(std::make_unique<Impl>(*this)) {
  impl_->build();
}

Fabric::~Fabric() = default;

std::uint64_t Fabric::requiredHeadroom(double gbps, SimTime delay, std::uint32_t frameBytes) {
  const double bytesPerPs = gbps / 8000.0;
  const auto wire =
      static_cast<std::uint64_t>(std::ceil(2.0 * static_cast<double>(delay.picos()) * bytesPerPs));
  const std::uint64_t frame = frameBytes + kWireOverhead;
  return wire + 3 * frame + 64 + kWireOverhead;
}

std::uint64_t Fabric::headroomOf(const std::string& port) const {
  for (const auto& n : impl_->nodes) {
    if (!n.isSwitch) continue;
    for (std::size_t i = 0; i < n.ports.size(); ++i)
      if (impl_->ports[static_cast<std::size_t>(n.ports[i])].name == port)
        return n.buffer->headroom(static_cast<int>(i));
  }
  return 0;
}

SimTime Fabric::send(int fromHost, Frame& frame) {
  Impl& m = *impl_;
  if (spec_.switches.classifyByPcp)
    insertVlan(frame, static_cast<std::uint8_t>((frame.hdr[15] >> 2) >> 3));
  // Nothing in the fabric changes a byte the ICRC covers (CE marking changes the ECN bits,
  // which the ICRC masks): the receiver skips the second CRC pass, as on an unfaulted link.
  frame.mayBeCorrupt = false;
  const int id = m.nicFlowFor(fromHost, frame);
  Impl::NicFlow& nf = m.nicFlows[static_cast<std::size_t>(id)];
  const Impl::Port& p = m.ports[static_cast<std::size_t>(nf.port)];
  const SimTime now = net_->sim().now();
  double rate = p.gbps;
  if (nf.rp) rate = std::min(rate, nf.rp->currentRateGbps());
  nf.estimate = std::max(now, nf.estimate) + txTime(frame.size() + kWireOverhead, rate);
  nf.q.push_back(&frame);
  m.tryTx(nf.port);
  return nf.estimate;
}

void Fabric::onEvent(std::uint32_t code, std::uint64_t arg) {
  Impl& m = *impl_;
  switch (code) {
    case kTxDone: {
      Impl::Port& p = m.ports[static_cast<std::size_t>(arg)];
      p.busy = false;
      m.tryTx(static_cast<int>(arg));
      break;
    }
    case kArrive:
      m.arrive(static_cast<int>(arg));
      break;
    case kTryTx: {
      Impl::Port& p = m.ports[static_cast<std::size_t>(arg)];
      if (p.wakeAt == net_->sim().now()) p.wakeAt = SimTime::max();
      m.tryTx(static_cast<int>(arg));
      break;
    }
    case kAlphaTimer: {
      Impl::NicFlow& nf = m.nicFlows[static_cast<std::size_t>(idOf(arg))];
      if (genOf(arg) != nf.alphaGen) break;
      nf.rp->onAlphaTimer(net_->sim().now());
      m.armDcqcnTimers(idOf(arg), true, false);
      break;
    }
    case kRateTimer: {
      Impl::NicFlow& nf = m.nicFlows[static_cast<std::size_t>(idOf(arg))];
      if (genOf(arg) != nf.rateGen) break;
      nf.rp->onRateTimer(net_->sim().now());
      m.armDcqcnTimers(idOf(arg), false, true);
      m.onRateChange(idOf(arg));
      break;
    }
    case kSample:
      m.sample();
      if (net_->sim().now() + spec_.sampleInterval <= spec_.duration)
        net_->sim().schedule(spec_.sampleInterval, this, kSample, 0);
      break;
    case kDeadlockCheck:
      if (m.anyPause || net_->sim().now() < spec_.duration) m.checkDeadlock();
      break;
    case kPauseRefresh: {
      const int portId = idOf(arg) / kPriorities;
      const int prio = idOf(arg) % kPriorities;
      Impl::Port& p = m.ports[static_cast<std::size_t>(portId)];
      if (genOf(arg) != p.refreshGen[static_cast<std::size_t>(prio)]) break;
      Impl::Node& node = m.nodes[static_cast<std::size_t>(p.node)];
      if (node.buffer && node.buffer->paused(p.index, prio)) m.sendPause(portId, prio, true);
      break;
    }
    case kFlowStart:
      m.startFlow(static_cast<int>(arg));
      break;
    default:
      break;
  }
}

void Fabric::run() {
  runUntil(spec_.duration);
}

void Fabric::runUntil(SimTime until) {
  net_->sim().runUntil(until);
}

void Fabric::recordDcqcn(bool on) {
  impl_->recordDcqcn = on;
  for (auto& nf : impl_->nicFlows)
    if (nf.rp) nf.rp->record(on);
}

const DcqcnReactionPoint* Fabric::reactionPoint(int flow) const {
  if (flow < 0 || static_cast<std::size_t>(flow) >= impl_->flows.size()) return nullptr;
  const int nf = impl_->flows[static_cast<std::size_t>(flow)].nicFlow;
  if (nf < 0) return nullptr;
  const auto& f = impl_->nicFlows[static_cast<std::size_t>(nf)];
  return f.rp ? &*f.rp : nullptr;
}

std::uint64_t Fabric::bytesQueued() const {
  std::uint64_t b = 0;
  for (const auto& p : impl_->ports)
    for (auto q : p.qBytes)
      b += q;
  return b;
}

std::vector<FlowResult> Fabric::flows() const {
  std::vector<FlowResult> out;
  const SimTime now = net_->sim().now();
  for (std::size_t i = 0; i < impl_->flows.size(); ++i) {
    FlowResult r = impl_->flows[i].result;
    const SimTime start = spec_.flows[i].start;
    if (now > start)
      r.goodputGbps = static_cast<double>(r.bytesCompleted) * 8.0 / ((now - start).seconds() * 1e9);
    const auto* rp = reactionPoint(static_cast<int>(i));
    const auto& st = impl_->flows[i];
    r.finalRateGbps = rp ? rp->currentRateGbps()
                         : impl_
                               ->ports[static_cast<std::size_t>(
                                   impl_
                                       ->nodes[static_cast<std::size_t>(
                                           impl_->hostNode[static_cast<std::size_t>(st.srcHost)])]
                                       .ports[0])]
                               .gbps;
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<PauseInterval> Fabric::pauses() const {
  std::vector<PauseInterval> out = impl_->closedPauses;
  const SimTime now = net_->sim().now();
  for (const auto& p : impl_->ports) {
    for (int prio = 0; prio < kPriorities; ++prio) {
      const auto i = static_cast<std::size_t>(prio);
      if (p.pauseOpen[i])
        out.push_back(
            PauseInterval{p.name, prio, p.pauseStart[i], std::min(now, p.pausedUntil[i])});
    }
  }
  std::sort(out.begin(), out.end(), [](const PauseInterval& a, const PauseInterval& b) {
    return a.start != b.start ? a.start < b.start : a.port < b.port;
  });
  return out;
}

}  // namespace rdmascope::sim
