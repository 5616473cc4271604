#include "rdmascope/sim/tcp_network.h"

#include <algorithm>
#include <array>

#include "rdmascope/packets/net_builder.h"
#include "rdmascope/packets/net_headers.h"
#include "rdmascope/sim/transfer_cost.h"

namespace rdmascope::sim {

namespace {

std::int64_t psOf(double ns) {
  return static_cast<std::int64_t>(ns * 1000.0 + 0.5);
}

packets::TcpEndpoint hostAddress(int host, std::uint16_t port) {
  packets::TcpEndpoint e;
  e.mac = {0x02, 0x00, 0x00, 0x00, 0x00, static_cast<std::uint8_t>(host + 1)};
  e.ip = packets::IpAddress::v4(10, 9, 0, static_cast<std::uint8_t>(host + 1));
  e.port = port;
  return e;
}

std::uint16_t be16(std::span<const std::uint8_t> b, std::size_t at) {
  return static_cast<std::uint16_t>((b[at] << 8) | b[at + 1]);
}

std::uint32_t be32(std::span<const std::uint8_t> b, std::size_t at) {
  return (static_cast<std::uint32_t>(b[at]) << 24) | (static_cast<std::uint32_t>(b[at + 1]) << 16) |
         (static_cast<std::uint32_t>(b[at + 2]) << 8) | b[at + 3];
}

}  // namespace

std::optional<TcpSegment> parseTcpFrame(std::span<const std::uint8_t> frame) {
  constexpr std::size_t kEth = 14;
  if (frame.size() < kEth + 20 || be16(frame, 12) != packets::kEtherTypeIpv4) return std::nullopt;
  const auto ip = frame.subspan(kEth);
  if ((ip[0] >> 4) != 4) return std::nullopt;
  const std::size_t ihl = (ip[0] & 0x0f) * 4u;
  const std::size_t total = be16(ip, 2);
  if (ihl < 20 || total < ihl + 20 || total > ip.size() || ip[9] != packets::kIpProtoTcp) {
    return std::nullopt;
  }
  if (packets::onesComplementSum(ip.first(ihl)) != 0xffff) return std::nullopt;
  const auto tcp = ip.subspan(ihl, total - ihl);
  const std::size_t dataOffset = (tcp[12] >> 4) * 4u;
  if (dataOffset < 20 || dataOffset > tcp.size()) return std::nullopt;
  packets::IpAddress src;
  packets::IpAddress dst;
  std::copy_n(ip.begin() + 12, 4, src.bytes.begin());
  std::copy_n(ip.begin() + 16, 4, dst.bytes.begin());
  if (packets::tcpChecksum(src, dst, tcp) != 0) return std::nullopt;
  TcpSegment seg;
  seg.seq = be32(tcp, 4);
  seg.ack = be32(tcp, 8);
  seg.flags = tcp[13];
  seg.window = be16(tcp, 14);
  seg.payload.assign(tcp.begin() + static_cast<long>(dataOffset), tcp.end());
  return seg;
}

struct TcpNetwork::Host final : TcpHooks {
  TcpNetwork* net = nullptr;
  int index = 0;
  packets::TcpEndpoint self;
  packets::TcpEndpoint peer;
  std::uint16_t ipId = 1;
  std::unique_ptr<TcpControlBlock> tcb;
  std::array<std::optional<std::uint64_t>, 2> timers;
  std::function<void(TcpEvent)> handler;
  TcpHostCounters counters;
  std::int64_t cpuFreeAtPs = 0;
  std::vector<std::vector<std::uint8_t>> rxRing;
  std::optional<std::uint64_t> coalesceTimer;

  struct SendJob {
    std::vector<std::uint8_t> data;
    std::size_t offset = 0;
    std::size_t callLeft = 0;
    std::uint32_t io = 0;
    bool blocked = false;
    bool busy = false;
    std::function<void()> done;
  };
  std::optional<SendJob> sendJob;
  struct RecvJob {
    std::uint64_t want = 0;
    std::uint32_t io = 0;
    std::vector<std::uint8_t> got;
    bool inCall = false;
    bool sleeping = false;
    bool busy = false;
    std::function<void(std::vector<std::uint8_t>)> done;
  };
  std::optional<RecvJob> recvJob;

  std::int64_t nowNs() const override { return net->scheduler_.nowPs() / 1000; }
  void transmit(const TcpSegment& segment) override { net->transmit(index, segment); }
  void setTimer(TcpTimer timer, std::int64_t delayNs) override {
    clearTimer(timer);
    const auto slot = static_cast<std::size_t>(timer);
    timers[slot] = net->scheduler_.schedule(delayNs * 1000, [this, timer, slot] {
      timers[slot].reset();
      tcb->onTimer(timer);
    });
  }
  void clearTimer(TcpTimer timer) override {
    auto& id = timers[static_cast<std::size_t>(timer)];
    if (id) net->scheduler_.cancel(*id);
    id.reset();
  }
  void onEvent(TcpEvent event) override { net->onTcpEvent(index, event); }
};

TcpNetwork::TcpNetwork(EventScheduler& scheduler, TcpNetworkConfig config)
    : scheduler_(scheduler), config_(std::move(config)) {
  config_.tcp.mss = config_.costs.mss();
  for (int i = 0; i < 2; ++i) {
    auto h = std::make_unique<Host>();
    h->net = this;
    h->index = i;
    const std::uint16_t myPort = i == 0 ? config_.clientPort : config_.serverPort;
    const std::uint16_t peerPort = i == 0 ? config_.serverPort : config_.clientPort;
    h->self = hostAddress(i, myPort);
    h->peer = hostAddress(1 - i, peerPort);
    h->tcb = std::make_unique<TcpControlBlock>(config_.tcp, *h);
    hosts_[i] = std::move(h);
  }
}

TcpNetwork::~TcpNetwork() = default;

void TcpNetwork::connect() {
  hosts_[1]->tcb->setIsn(config_.serverIsn);
  hosts_[1]->tcb->listen();
  hosts_[0]->tcb->connect(config_.clientIsn);
}

TcpControlBlock& TcpNetwork::endpoint(int host) {
  return *hosts_[host]->tcb;
}

void TcpNetwork::setEventHandler(int host, std::function<void(TcpEvent)> handler) {
  hosts_[host]->handler = std::move(handler);
}

const TcpHostCounters& TcpNetwork::counters(int host) const {
  return hosts_[host]->counters;
}

std::vector<TcpCapturedFrame> TcpNetwork::captureAt(int host) const {
  std::vector<TcpCapturedFrame> out;
  for (const auto& f : frames_) {
    if (f.fromHost == host) {
      out.push_back(f);
    } else if (!f.lost) {
      out.push_back(f);
      out.back().timePs = f.arrivalPs;
    }
  }
  std::stable_sort(
      out.begin(), out.end(),
      [](const TcpCapturedFrame& a, const TcpCapturedFrame& b) { return a.timePs < b.timePs; });
  return out;
}

void TcpNetwork::note(int host, TraceKind kind, Narrative what, Reason reason, TraceArgs args,
                      std::uint64_t frameNumber, const std::vector<std::uint8_t>* bytes) {
  Trace* trace = scheduler_.trace();
  if (trace == nullptr) return;
  TraceEvent e;
  e.time = SimTime::ps(scheduler_.nowPs());
  e.host = host == 0 ? "host-a" : "host-b";
  e.kind = kind;
  e.what = what;
  e.reason = reason;
  e.args = std::move(args);
  e.frameNumber = frameNumber;
  if (bytes != nullptr) {
    e.bytes = *bytes;
    e.length = static_cast<std::uint32_t>(bytes->size());
  }
  trace->emit(std::move(e));
}

void TcpNetwork::noteBuffers(int host, Reason reason, std::uint64_t change) {
  if (scheduler_.trace() == nullptr) return;
  const TcpControlBlock& tcb = *hosts_[host]->tcb;
  TraceArgs a;
  a.bytes = change;
  a.sendQueued = tcb.unacknowledged();
  a.inFlight = tcb.bytesInFlight();
  a.recvQueued = tcb.readable();
  note(host, TraceKind::Note, Narrative::TcpSocketBuffers, reason, std::move(a));
}

void TcpNetwork::cpu(int host, double costNs, std::function<void()> then) {
  Host& h = *hosts_[host];
  const std::int64_t now = scheduler_.nowPs();
  const std::int64_t start = std::max(now, h.cpuFreeAtPs);
  h.cpuFreeAtPs = start + psOf(costNs);
  h.counters.cpuNs += costNs;
  scheduler_.schedule(h.cpuFreeAtPs - now, std::move(then));
}

void TcpNetwork::appCopy(int host, std::size_t n, double work, bool& asleep, bool& busy,
                         Reason sleepNote, Reason where, std::function<void()> copied) {
  if (n == 0) {
    asleep = true;
    note(host, TraceKind::Note, Narrative::TcpAppSleeps, sleepNote);
    if (work > 0) cpu(host, work, [] {});
    return;
  }
  Host& h = *hosts_[host];
  h.counters.cpuBytesCopied += n;
  ++h.counters.copyOperations;
  if (scheduler_.trace() != nullptr) {
    TraceArgs a;
    a.bytes = n;
    note(host, TraceKind::Note, Narrative::TcpCopy, where, std::move(a));
  }
  work += static_cast<double>(n) * 1e9 / config_.costs.memcpyBytesPerSec;
  busy = true;
  cpu(host, work, std::move(copied));
}

void TcpNetwork::transmit(int host, const TcpSegment& segment) {
  Host& h = *hosts_[host];
  const auto& c = config_.costs;
  packets::TcpSegmentSpec spec;
  spec.src = h.self;
  spec.dst = h.peer;
  spec.seq = segment.seq;
  spec.ack = segment.ack;
  spec.flags = segment.flags;
  spec.window = segment.window;
  spec.ipId = h.ipId++;
  auto frame = packets::buildTcpFrame(spec, segment.payload);
  const bool offloaded = config_.placement == TcpStackPlacement::Offloaded;
  const std::uint64_t dmaBytes = offloaded ? segment.payload.size() : frame.size();
  h.counters.nicDmaReadBytes += dmaBytes;
  const double dmaNs = (offloaded ? c.nicPacketNs : 0) + c.pcieLatencyNs +
                       static_cast<double>(dmaBytes) * 1e9 / c.nicDmaBytesPerSec;
  auto toLink = [this, host, dmaNs, frame = std::move(frame)]() mutable {
    const std::int64_t now = scheduler_.nowPs();
    const std::int64_t start = std::max(now + psOf(dmaNs), linkFreeAtPs_[host]);
    const double serNs =
        static_cast<double>(wireBytesOfFrame(frame.size() - kEthernetHeaderBytes)) * 8e9 /
        config_.costs.linkBitsPerSec;
    linkFreeAtPs_[host] = start + psOf(serNs);
    const std::uint64_t number = ++framesSent_;
    ++hosts_[host]->counters.framesSent;
    bool lost = std::find(config_.dropFrames.begin(), config_.dropFrames.end(), number) !=
                config_.dropFrames.end();
    if (!lost && config_.lossRate > 0 &&
        (config_.lossOnlyFromHost < 0 || config_.lossOnlyFromHost == host)) {
      lost = scheduler_.uniform() < config_.lossRate;
    }
    if (config_.captureFrames) frames_.push_back({start, 0, host, lost, frame});
    if (scheduler_.trace() != nullptr) {
      const auto seg = parseTcpFrame(frame);
      TraceArgs a;
      if (seg) {
        a.seq = seg->seq;
        a.ack = seg->ack;
        a.bytes = seg->payload.size();
        a.tcpFlags = seg->flags;
      }
      // As the HCA's FrameSent: at the frame's first bit on the wire (after the DMA and any
      // frame ahead of it on the link), not when it was handed to the NIC.
      TraceEvent e;
      e.time = SimTime::ps(start);
      e.host = host == 0 ? "host-a" : "host-b";
      e.kind = TraceKind::FrameSent;
      e.what = Narrative::TcpSegmentSent;
      e.args = std::move(a);
      e.frameNumber = number;
      e.bytes = frame;
      e.length = static_cast<std::uint32_t>(frame.size());
      scheduler_.trace()->emit(std::move(e));
      if (lost)
        note(host, TraceKind::FrameDropped, Narrative::TcpSegmentLost, Reason::None, {}, number,
             &frame);
    }
    if (lost) {
      ++framesLost_;
      return;
    }
    const std::int64_t arrive = linkFreeAtPs_[host] + psOf(config_.costs.propagationNs);
    if (config_.captureFrames) frames_.back().arrivalPs = arrive;
    scheduler_.schedule(arrive - now, [this, host, f = std::move(frame)]() mutable {
      deliver(1 - host, std::move(f));
    });
  };
  if (offloaded) {
    toLink();
    return;
  }
  ++h.counters.doorbells;
  const double work = (segment.payload.empty() ? c.tcpAckNs : c.tcpSegmentNs) + c.doorbellNs;
  TraceArgs transmitArgs;
  transmitArgs.bytes = segment.payload.size();
  note(host, TraceKind::Note, Narrative::TcpTransmitWork, Reason::None, std::move(transmitArgs));
  cpu(host, work, std::move(toLink));
}

void TcpNetwork::deliver(int host, std::vector<std::uint8_t> frame) {
  Host& h = *hosts_[host];
  const auto& c = config_.costs;
  ++h.counters.framesReceived;
  const bool offloaded = config_.placement == TcpStackPlacement::Offloaded;
  // An RNIC places only payload in host memory; a plain NIC writes the whole frame to its ring.
  std::uint64_t dmaBytes = frame.size();
  if (offloaded) {
    const auto seg = parseTcpFrame(frame);
    dmaBytes = seg ? seg->payload.size() : 0;
  }
  h.counters.nicDmaWriteBytes += dmaBytes;
  const double ns = c.nicPacketNs + c.pcieLatencyNs / 2 +
                    static_cast<double>(dmaBytes) * 1e9 / c.nicDmaBytesPerSec;
  scheduler_.schedule(
      psOf(ns), [this, host, f = std::move(frame)]() mutable { nicReceived(host, std::move(f)); });
}

void TcpNetwork::nicReceived(int host, std::vector<std::uint8_t> frame) {
  Host& h = *hosts_[host];
  if (config_.placement == TcpStackPlacement::Offloaded) {
    processFrame(host, frame);
    return;
  }
  h.rxRing.push_back(std::move(frame));
  const auto limit = static_cast<std::size_t>(std::max(1.0, config_.costs.interruptCoalesceFrames));
  if (h.rxRing.size() >= limit || config_.costs.interruptCoalesceUs <= 0) {
    raiseInterrupt(host);
  } else if (!h.coalesceTimer) {
    h.coalesceTimer =
        scheduler_.schedule(psOf(config_.costs.interruptCoalesceUs * 1000), [this, host] {
          hosts_[host]->coalesceTimer.reset();
          raiseInterrupt(host);
        });
  }
}

void TcpNetwork::raiseInterrupt(int host) {
  Host& h = *hosts_[host];
  if (h.coalesceTimer) {
    scheduler_.cancel(*h.coalesceTimer);
    h.coalesceTimer.reset();
  }
  if (h.rxRing.empty()) return;
  ++h.counters.interrupts;
  TraceArgs interruptArgs;
  interruptArgs.packets = static_cast<std::uint32_t>(h.rxRing.size());
  note(host, TraceKind::Note, Narrative::TcpInterrupt, Reason::None, std::move(interruptArgs));
  auto batch = std::move(h.rxRing);
  h.rxRing.clear();
  const auto& c = config_.costs;
  double work = c.interruptNs;
  std::vector<TcpSegment> segments;
  for (const auto& f : batch) {
    auto seg = parseTcpFrame(f);
    if (!seg) {
      ++h.counters.checksumDrops;
      note(host, TraceKind::FrameDropped, Narrative::TcpChecksumDropped);
      continue;
    }
    work += seg->payload.empty() ? c.tcpAckNs : c.tcpSegmentNs;
    segments.push_back(std::move(*seg));
  }
  cpu(host, work, [this, host, segs = std::move(segments)] {
    std::uint64_t payload = 0;
    for (const auto& s : segs) {
      hosts_[host]->tcb->onSegment(s);
      payload += s.payload.size();
    }
    noteBuffers(host, Reason::None, payload);
  });
}

void TcpNetwork::processFrame(int host, const std::vector<std::uint8_t>& frame) {
  Host& h = *hosts_[host];
  auto seg = parseTcpFrame(frame);
  if (!seg) {
    ++h.counters.checksumDrops;
    return;
  }
  h.tcb->onSegment(*seg);
  noteBuffers(host, Reason::None, seg->payload.size());
}

void TcpNetwork::onTcpEvent(int host, TcpEvent event) {
  Host& h = *hosts_[host];
  const auto& c = config_.costs;
  if (event == TcpEvent::Writable && h.sendJob && h.sendJob->blocked &&
      h.tcb->sendSpace() * 3 >= config_.tcp.sendBufferBytes) {
    // Linux wakes a writer once a third of the send buffer is free (sk_stream_is_writeable).
    h.sendJob->blocked = false;
    ++h.counters.contextSwitches;
    note(host, TraceKind::Note, Narrative::TcpWriterWoken);
    h.sendJob->busy = true;
    cpu(host, c.contextSwitchNs, [this, host] {
      hosts_[host]->sendJob->busy = false;
      sendStep(host);
    });
  }
  if (event == TcpEvent::Readable && h.recvJob && h.recvJob->sleeping) {
    h.recvJob->sleeping = false;
    ++h.counters.contextSwitches;
    note(host, TraceKind::Note, Narrative::TcpReaderWoken);
    h.recvJob->busy = true;
    cpu(host, c.contextSwitchNs, [this, host] {
      hosts_[host]->recvJob->busy = false;
      recvStep(host);
    });
  }
  if (event == TcpEvent::Established) note(host, TraceKind::Note, Narrative::TcpEstablished);
  if (event == TcpEvent::Reset) note(host, TraceKind::Note, Narrative::TcpReset);
  if (event == TcpEvent::Closed) note(host, TraceKind::Note, Narrative::TcpClosed);
  if (h.handler) h.handler(event);
}

void TcpNetwork::appSend(int host, std::vector<std::uint8_t> data, std::uint32_t ioSize,
                         std::function<void()> done) {
  Host::SendJob job;
  job.data = std::move(data);
  job.io = std::max(1u, ioSize);
  job.done = std::move(done);
  hosts_[host]->sendJob = std::move(job);
  sendStep(host);
}

void TcpNetwork::sendStep(int host) {
  Host& h = *hosts_[host];
  auto& job = *h.sendJob;
  const auto& c = config_.costs;
  if (job.offset == job.data.size()) {
    auto done = std::move(job.done);
    h.sendJob.reset();
    if (done) done();
    return;
  }
  double work = 0;
  if (job.callLeft == 0) {
    ++h.counters.syscalls;
    job.callLeft = std::min<std::size_t>(job.io, job.data.size() - job.offset);
    work += c.syscallNs;
  }
  if (work > 0) {
    TraceArgs a;
    a.bytes = job.callLeft;
    note(host, TraceKind::Note, Narrative::TcpSendCall, Reason::None, std::move(a));
  }
  const std::size_t n = std::min(job.callLeft, h.tcb->sendSpace());
  appCopy(host, n, work, job.blocked, job.busy, Reason::SendBufferFull,
          Reason::CopyIntoSocketBuffer, [this, host, n] {
            Host& hh = *hosts_[host];
            auto& j = *hh.sendJob;
            j.busy = false;
            const std::span<const std::uint8_t> chunk(j.data.data() + j.offset, n);
            const std::size_t took = hh.tcb->write(chunk);
            j.offset += took;
            j.callLeft -= took;
            noteBuffers(host, Reason::CopyIntoSocketBuffer, took);
            sendStep(host);
          });
}

void TcpNetwork::appReceive(int host, std::uint64_t bytes, std::uint32_t ioSize,
                            std::function<void(std::vector<std::uint8_t>)> done) {
  Host::RecvJob job;
  job.want = bytes;
  job.io = std::max(1u, ioSize);
  job.done = std::move(done);
  hosts_[host]->recvJob = std::move(job);
  recvStep(host);
}

void TcpNetwork::recvStep(int host) {
  Host& h = *hosts_[host];
  auto& job = *h.recvJob;
  const auto& c = config_.costs;
  if (job.got.size() == job.want) {
    auto done = std::move(job.done);
    auto got = std::move(job.got);
    h.recvJob.reset();
    if (done) done(std::move(got));
    return;
  }
  double work = 0;
  if (!job.inCall) {
    ++h.counters.syscalls;
    job.inCall = true;
    work += c.syscallNs;
  }
  const std::size_t n =
      std::min<std::size_t>({static_cast<std::size_t>(job.io), h.tcb->readable(),
                             static_cast<std::size_t>(job.want - job.got.size())});
  if (work > 0) note(host, TraceKind::Note, Narrative::TcpRecvCall);
  appCopy(host, n, work, job.sleeping, job.busy, Reason::NothingToRead, Reason::CopyIntoAppBuffer,
          [this, host, n] {
            Host& hh = *hosts_[host];
            auto& j = *hh.recvJob;
            j.busy = false;
            const std::size_t before = j.got.size();
            j.got.resize(before + n);
            const std::size_t took =
                hh.tcb->read(std::span<std::uint8_t>(j.got.data() + before, n));
            j.got.resize(before + took);
            j.inCall = false;
            noteBuffers(host, Reason::CopyIntoAppBuffer, took);
            recvStep(host);
          });
}

}  // namespace rdmascope::sim
