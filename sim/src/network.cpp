#include "rdmascope/sim/network.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "frame.h"
#include "opcodes.h"
#include "qp.h"
#include "wire_format.h"

namespace rdmascope::sim {

std::string_view toString(WireFormat f) {
  switch (f) {
    case WireFormat::RoceV2Ipv4:
      return "RoCEv2/IPv4";
    case WireFormat::RoceV2Ipv6:
      return "RoCEv2/IPv6";
    case WireFormat::RoceV1:
      return "RoCEv1";
    case WireFormat::InfiniBand:
      return "InfiniBand";
  }
  return "?";
}

/// The full-duplex link: a serializer per direction, propagation delay and fault injection.
class Link : public EventTarget {
 public:
  explicit Link(Network& net) : net_(net) {}

  Frame& alloc() {
    std::uint32_t slot;
    if (!free_.empty()) {
      slot = free_.back();
      free_.pop_back();
    } else {
      slot = static_cast<std::uint32_t>(pool_.size());
      pool_.push_back(std::make_unique<Frame>());
    }
    Frame& f = *pool_[slot];
    f.slot = slot;
    f.payload = nullptr;
    f.payloadLen = 0;
    f.gsi = false;
    f.pad = 0;
    f.hdrLen = 0;
    f.trailerLen = 0;
    f.mayBeCorrupt = true;
    return f;
  }

  void release(Frame& f) { free_.push_back(f.slot); }

  SimTime transmit(int from, Frame& f, const TraceCause* why) {
    Simulator& sim = net_.sim();
    const NetworkConfig& cfg = net_.config();
    FaultConfig& faults = net_.faults();
    f.number = ++framesSent_;
    f.fromHost = from;
    f.sentAt = sim.now();
    ++stats_.framesSent;
    stats_.bytesSent += f.size();
    const bool tracing = sim.tracing();
    if (cfg.captureFrames || tracing) f.flatten(flat_);
    Host& src = net_.host(from);

    // serialization: Ethernet adds preamble, SFD, FCS and inter-frame gap (24 bytes)
    const std::uint64_t wireBytes = f.size() + (cfg.wire == WireFormat::InfiniBand ? 0 : 24);
    const auto txPs =
        static_cast<std::int64_t>(static_cast<double>(wireBytes) * 8000.0 / cfg.link.gbps);
    SimTime start = std::max(sim.now(), nextFree_[from]);
    for (const auto& p : faults.pauses) {
      if (start >= p.start && start < p.start + p.duration) start = p.start + p.duration;
    }
    const SimTime txEnd = start + SimTime::ps(txPs);
    nextFree_[from] = txEnd;
    // captured as tcpdump at the sender would see it: when its first bit goes on the wire
    if (cfg.captureFrames) net_.capture(from, start, flat_);
    if (tracing) {
      // Timed when its first bit goes on the wire, as in the capture (CapturedFrame::time),
      // so frames queued together show their serialisation one after the other.
      TraceEvent e = frameEvent(src, TraceKind::FrameSent, Narrative::FrameSent, f);
      e.time = start;
      if (why) e.setCause(*why);
      e.args.opcode = f.opcode;
      if (net_.hasHost(1 - from)) e.args.peer = net_.host(1 - from).name();
      if (start > sim.now()) e.args.queuedSinceUs = static_cast<double>(sim.now().picos()) / 1e6;
      e.bytes = flat_;
      sim.trace().emit(std::move(e));
    }

    // faults
    if (opcodeInfo(f.opcode).mask & kReq) {
      const std::uint64_t n = ++requestsSent_[from];
      for (const auto& t : faults.timerFires) {
        if (t.host != from || t.afterRequests != n) continue;
        if (Qp* qp = src.qp(t.qpn)) {
          qp->expireRetransmitTimer(n);
        }
      }
    }
    Reason lost = Reason::None;
    TraceArgs lostArgs;
    const std::size_t l3 = f.size() - (cfg.wire == WireFormat::InfiniBand ? 0 : 14);
    if (l3 > cfg.link.mtu) {
      lost = Reason::ExceedsLinkMtu;
      lostArgs.bytes = l3;
      lostArgs.mtu = cfg.link.mtu;
    }
    if (lost == Reason::None) {
      auto it = std::find(faults.dropFrames.begin(), faults.dropFrames.end(), f.number);
      if (it != faults.dropFrames.end()) lost = Reason::FrameOnDropList;
    }
    // Named PSNs are the scenario's QPs': the GSI's MADs (sim --cm) number their own.
    if (lost == Reason::None && !faults.dropPsns.empty() && !f.gsi &&
        (opcodeInfo(f.opcode).mask & kReq)) {
      const int sent = ++psnSent_[{from, f.psn}];
      for (auto& d : faults.dropPsns) {
        if (d.psn != f.psn || (d.fromHost >= 0 && d.fromHost != from)) continue;
        if (d.occurrence > 0 ? d.occurrence == sent : d.count > 0) {
          if (d.occurrence == 0) --d.count;
          lost = d.occurrence > 0 ? Reason::PsnTransmissionOnDropList : Reason::PsnOnDropList;
          if (d.occurrence > 0) lostArgs.transmission = sent;
          break;
        }
      }
    }
    const bool rated = faults.onlyFromHost < 0 || faults.onlyFromHost == from;
    if (lost == Reason::None && rated && faults.lossRate > 0 && sim.uniform() < faults.lossRate) {
      lost = Reason::RandomLoss;
      lostArgs.lossRate = faults.lossRate;
    }
    if (lost != Reason::None) {
      ++stats_.framesLost;
      if (tracing) {
        TraceEvent e = frameEvent(src, TraceKind::FrameDropped, Narrative::FrameLost, f);
        e.time = start;
        e.reason = lost;
        e.args = lostArgs;
        e.args.opcode = f.opcode;
        e.bytes = flat_;
        sim.trace().emit(std::move(e));
      }
      release(f);
      return txEnd;
    }
    if (cfg.port) {
      if (!tracing && !cfg.captureFrames) f.flatten(flat_);
      cfg.port->send(from, flat_);
      release(f);
      return txEnd;
    }
    SimTime arrive = txEnd + cfg.link.latency;
    // Only the corruption below changes a frame's bytes on the way: where it cannot strike,
    // the receiver gets exactly the bytes the sender's ICRC covers.
    f.mayBeCorrupt = rated && faults.corruptRate > 0;
    if (f.mayBeCorrupt && sim.uniform() < faults.corruptRate) {
      const std::size_t i = static_cast<std::size_t>(sim.rng()() % f.size());
      const auto bit = static_cast<std::uint8_t>(1u << (sim.rng()() % 8));
      f.corrupt(i, bit);
      ++stats_.framesCorrupted;
      if (tracing) {
        TraceEvent e = frameEvent(src, TraceKind::Note, Narrative::FrameCorrupted, f);
        e.args.byteIndex = i;
        e.args.bitMask = bit;
        sim.trace().emit(std::move(e));
      }
    }
    if (rated && faults.reorderRate > 0 && sim.uniform() < faults.reorderRate) {
      arrive += faults.reorderDelay;
      ++stats_.framesReordered;
      if (tracing) {
        TraceEvent e = frameEvent(src, TraceKind::Note, Narrative::FrameDelayed, f);
        e.args.durationUs = faults.reorderDelay.micros();
        sim.trace().emit(std::move(e));
      }
    }
    if (rated && faults.duplicateRate > 0 && sim.uniform() < faults.duplicateRate) {
      Frame& d = alloc();
      const std::uint32_t slot = d.slot;
      d.copyFrom(f);
      d.slot = slot;
      d.number = f.number;
      ++stats_.framesDuplicated;
      if (tracing) {
        sim.trace().emit(frameEvent(src, TraceKind::Note, Narrative::FrameDuplicated, f));
      }
      sim.schedule(arrive + SimTime::ns(1) - sim.now(), this, 1, slot);
    }
    sim.schedule(arrive - sim.now(), this, 1, f.slot);
    return txEnd;
  }

  void onEvent(std::uint32_t, std::uint64_t arg) override {
    Frame& f = *pool_[static_cast<std::size_t>(arg)];
    deliver(f, net_.host(1 - f.fromHost));
  }

  /// Parses `f` as `dst`'s NIC does and hands it over; returns why it was dropped, if it was.
  std::string_view deliver(Frame& f, Host& dst) {
    Simulator& sim = net_.sim();
    ParsedPacket parsed;
    if (f.mayBeCorrupt) ++stats_.icrcChecked;
    const ParseStatus st = parseFrame(net_.config().wire, f, parsed, scratch_);
    if (st != ParseStatus::Ok) {
      if (st == ParseStatus::BadIcrc) ++stats_.icrcDrops;
      if (sim.tracing()) {
        TraceEvent e = frameEvent(dst, TraceKind::FrameDropped, Narrative::FrameDiscarded, f);
        f.flatten(e.bytes);
        e.reason = st == ParseStatus::Truncated   ? Reason::Truncated
                   : st == ParseStatus::NotRdma   ? Reason::NotRdma
                   : st == ParseStatus::BadHeader ? Reason::MalformedHeader
                                                  : Reason::IcrcMismatch;
        sim.trace().emit(std::move(e));
      }
      release(f);
      return toString(st);
    }
    ++stats_.framesDelivered;
    parsed.frameNumber = f.number;
    if (sim.tracing()) {
      TraceEvent e = frameEvent(dst, TraceKind::FrameReceived, Narrative::FrameReceived, f);
      f.flatten(e.bytes);
      e.psn = parsed.pkt.psn;
      e.args.opcode = parsed.pkt.opcode;
      e.args.destQpn = parsed.pkt.destQp;
      e.args.ackReq = parsed.pkt.ackReq ? AckRequest::LastPacket : AckRequest::None;
      sim.trace().emit(std::move(e));
    }
    dst.deliver(parsed);
    release(f);
    return {};
  }

  std::string_view receive(std::span<const std::uint8_t> bytes) {
    // The bytes stay the caller's until this returns, and nothing keeps a frame's bytes past
    // its delivery: parsed in place, without a copy.
    Frame& f = alloc();
    f.hdrLen = 0;
    f.pad = 0;
    f.trailerLen = 0;
    f.payload = bytes.data();
    f.payloadLen = static_cast<std::uint32_t>(bytes.size());
    f.number = ++framesReceived_;
    f.fromHost = -1;
    f.sentAt = net_.sim().now();
    f.mayBeCorrupt = true;  // it crossed a fabric this process does not control
    return deliver(f, net_.host(0));
  }

  LinkStats stats_;
  std::uint64_t framesSent_ = 0;
  std::uint64_t framesReceived_ = 0;

 private:
  TraceEvent frameEvent(Host& h, TraceKind kind, Narrative what, const Frame& f) {
    TraceEvent e;
    e.what = what;
    e.time = net_.sim().now();
    e.step = net_.sim().eventsRun();
    e.host = h.name();
    e.kind = kind;
    e.psn = f.psn;
    e.frameNumber = f.number;
    e.length = static_cast<std::uint32_t>(f.size());
    return e;
  }

  Network& net_;
  std::vector<std::unique_ptr<Frame>> pool_;
  std::vector<std::uint32_t> free_;
  SimTime nextFree_[2];
  std::map<std::pair<int, std::uint32_t>, int> psnSent_;  ///< request transmissions per PSN
  std::uint64_t requestsSent_[2] = {0, 0};
  std::vector<std::uint8_t> flat_;
  std::vector<std::uint8_t> scratch_;
};

NetworkConfig Network::defaultConfig() {
  NetworkConfig c;
  c.hosts[0].name = "host-a";
  c.hosts[0].mac = {0x02, 0x00, 0x0a, 0x09, 0x00, 0x01};
  c.hosts[0].ipv4 = 0x0a090001;
  c.hosts[0].lid = 1;
  c.hosts[1].name = "host-b";
  c.hosts[1].mac = {0x02, 0x00, 0x0a, 0x09, 0x00, 0x02};
  c.hosts[1].ipv4 = 0x0a090002;
  c.hosts[1].lid = 2;
  for (int i = 0; i < 2; ++i) {
    Gid g{};
    g[0] = 0xfd;  // fd00::a09:1 style addresses for the IPv6 wire format
    g[14] = 0;
    g[15] = static_cast<std::uint8_t>(i + 1);
    c.hosts[i].ipv6 = g;
  }
  return c;
}

Network::Network(NetworkConfig config) : config_(std::move(config)), sim_(config_.seed) {
  const bool v6 = config_.wire == WireFormat::RoceV2Ipv6 || config_.wire == WireFormat::RoceV1;
  if (config_.fabric) {
    if (config_.port || config_.wire != WireFormat::RoceV2Ipv4 || config_.fabricHosts.empty()) {
      throw std::invalid_argument("a fabric network has RoCEv2/IPv4 hosts and no port");
    }
    config_.localHosts = static_cast<int>(config_.fabricHosts.size());
    hosts_.resize(config_.fabricHosts.size());
    for (std::size_t i = 0; i < hosts_.size(); ++i) {
      hosts_[i] = std::make_unique<Host>(*this, static_cast<int>(i), config_.fabricHosts[i]);
    }
    link_ = std::make_unique<Link>(*this);
    return;
  }
  if (config_.localHosts < 1 || config_.localHosts > 2 ||
      (config_.localHosts == 1) != (config_.port != nullptr)) {
    throw std::invalid_argument("a network has two local hosts, or one and a port");
  }
  hosts_.resize(2);
  for (int i = 0; i < config_.localHosts; ++i) {
    if (v6) config_.hosts[i].useIpv6Gid = true;
    hosts_[static_cast<std::size_t>(i)] = std::make_unique<Host>(*this, i, config_.hosts[i]);
  }
  link_ = std::make_unique<Link>(*this);
}

Network::~Network() {
  for (auto& h : hosts_)
    h.reset();
}

FaultConfig& Network::faults() {
  return config_.faults;
}
const LinkStats& Network::stats() const {
  return link_->stats_;
}
std::uint64_t Network::framesSent() const {
  return link_->framesSent_;
}

std::uint32_t Network::activeMtu() const {
  const std::uint32_t room = config_.link.mtu > 80 ? config_.link.mtu - 80 : 0;
  for (std::uint32_t m = 4096; m >= 256; m /= 2) {
    if (m <= room) return m;
  }
  return 256;
}

Frame& Network::allocFrame() {
  return link_->alloc();
}
void Network::releaseFrame(Frame& f) {
  link_->release(f);
}

SimTime Network::transmit(int fromHost, Frame& frame, const TraceCause* why) {
  if (config_.fabric) {
    frame.number = ++link_->framesSent_;
    frame.fromHost = fromHost;
    frame.sentAt = sim_.now();
    ++link_->stats_.framesSent;
    link_->stats_.bytesSent += frame.size();
    return config_.fabric->send(fromHost, frame);
  }
  return link_->transmit(fromHost, frame, why);
}

std::string_view Network::receive(std::span<const std::uint8_t> frame) {
  return link_->receive(frame);
}

std::string_view Network::deliverFrame(int toHost, Frame& frame) {
  return link_->deliver(frame, *hosts_[static_cast<std::size_t>(toHost)]);
}

void Network::capture(int fromHost, SimTime time, const std::vector<std::uint8_t>& bytes) {
  captured_.push_back(CapturedFrame{time, fromHost, bytes});
}

WireAddress Network::addressFor(int fromHost, const AhAttr& ah, std::uint32_t qpn) const {
  WireAddress a;
  const Host& src = *hosts_[static_cast<std::size_t>(fromHost)];
  a.srcMac = src.config().mac;
  a.srcGid = src.gid();
  a.dstGid = ah.dgid;
  a.dstMac = {0x02, 0x00, ah.dgid[12], ah.dgid[13], ah.dgid[14], ah.dgid[15]};
  for (int i = 0; i < config_.localHosts; ++i) {  // neighbour resolution: the host with the GID
    const Host& h = *hosts_[static_cast<std::size_t>(i)];
    if (h.gid() == ah.dgid) a.dstMac = h.config().mac;
  }
  a.slid = src.config().lid;
  a.dlid = ah.dlid;
  a.sl = ah.sl;
  a.trafficClass = ah.trafficClass;
  a.flowLabel = ah.flowLabel;
  a.hopLimit = ah.hopLimit;
  // rxe: source port 0xc000 + hash_32(qpn, 14)
  a.udpSport = static_cast<std::uint16_t>(0xc000 + ((qpn * 0x61c88647u) >> (32 - 14)));
  return a;
}

}  // namespace rdmascope::sim

namespace rdmascope::sim {

PacketSummary summarizeFrame(WireFormat format, std::span<const std::uint8_t> bytes) {
  PacketSummary s;
  Frame f;
  f.payload = bytes.data();
  f.payloadLen = static_cast<std::uint32_t>(bytes.size());
  ParsedPacket p;
  std::vector<std::uint8_t> scratch;
  const ParseStatus st = parseFrame(format, f, p, scratch);
  if (st != ParseStatus::Ok) {
    s.error = std::string(toString(st));
    return s;
  }
  const PacketDesc& k = p.pkt;
  const OpcodeInfo& info = opcodeInfo(k.opcode);
  s.ok = true;
  s.opcode = k.opcode;
  s.opcodeName = std::string(info.name);
  s.psn = k.psn;
  s.destQp = k.destQp;
  s.ackReq = k.ackReq;
  s.pad = k.pad;
  s.hasReth = (info.mask & kReth) != 0;
  s.hasAeth = (info.mask & kAeth) != 0;
  s.hasAtomicAck = (info.mask & kAtmack) != 0;
  s.hasImm = (info.mask & kImmdt) != 0;
  s.hasDeth = (info.mask & kDeth) != 0;
  s.va = k.va;
  s.rkey = k.rkey;
  s.dmaLen = k.dmaLen;
  s.syndrome = k.syndrome;
  s.msn = k.msn;
  s.origData = k.origData;
  s.imm = k.imm;
  s.qkey = k.qkey;
  s.srcQp = k.srcQp;
  s.payloadLen = k.payloadLen;
  return s;
}

}  // namespace rdmascope::sim
