#include "rdmascope/sim/transfer_cost.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace rdmascope::sim {

namespace {

std::uint64_t ceilDiv(std::uint64_t a, std::uint64_t b) {
  return b == 0 ? 0 : (a + b - 1) / b;
}

std::uint64_t asCount(double v) {
  return v < 1 ? 1 : static_cast<std::uint64_t>(std::floor(v));
}

struct Costs {
  const HostCostSettings& s;
  [[nodiscard]] double wireNs(std::uint64_t wireBytes) const {
    return static_cast<double>(wireBytes) * 8e9 / s.linkBitsPerSec;
  }
  [[nodiscard]] double dmaNs(std::uint64_t bytes) const {
    return static_cast<double>(bytes) * 1e9 / s.nicDmaBytesPerSec;
  }
  [[nodiscard]] double copyNs(std::uint64_t bytes) const {
    return static_cast<double>(bytes) * 1e9 / s.memcpyBytesPerSec;
  }
  // DMA writes are posted: they reach memory after about half a read's round trip.
  [[nodiscard]] double writeLatencyNs() const { return s.pcieLatencyNs / 2; }
};

class StageList {
 public:
  void add(std::string name, Place place, Worker worker, std::uint64_t count, double firstNs,
           double totalNs) {
    stages_.push_back(Stage{std::move(name), place, worker, count, firstNs, totalNs});
  }
  std::vector<Stage> take() { return std::move(stages_); }
  [[nodiscard]] const std::vector<Stage>& stages() const { return stages_; }

 private:
  std::vector<Stage> stages_;
};

// A run of packets in one direction: how many, their wire bytes, the first one's sizes.
struct PacketRun {
  std::uint64_t packets = 0;
  std::uint64_t wireBytes = 0;
  std::uint64_t firstWireBytes = 0;
  std::uint64_t firstPayload = 0;
  void add(std::uint64_t ipBytes, std::uint64_t payload) {
    const auto w = wireBytesOfFrame(ipBytes);
    if (packets == 0) {
      firstWireBytes = w;
      firstPayload = payload;
    }
    ++packets;
    wireBytes += w;
  }
};

enum Resource : std::size_t {
  kACpu,
  kADma,
  kANic,
  kWireAB,
  kWireBA,
  kBNic,
  kBDma,
  kBCpu,
  kATimer,
  kBTimer,
  kResources
};

Resource resourceOf(const Stage& st) {
  const bool a = st.place == Place::HostA;
  switch (st.worker) {
    case Worker::Cpu:
      return a ? kACpu : kBCpu;
    case Worker::Dma:
      return a ? kADma : kBDma;
    case Worker::Nic:
      return a ? kANic : kBNic;
    case Worker::Wire:
      return st.place == Place::WireAtoB ? kWireAB : kWireBA;
    case Worker::Timer:
      return a ? kATimer : kBTimer;
  }
  return kACpu;
}

constexpr std::array<std::string_view, kResources> kResourceNames{
    "host A CPU", "host A PCIe DMA", "host A NIC", "wire A to B",  "wire B to A",
    "host B NIC", "host B PCIe DMA", "host B CPU", "host A timer", "host B timer"};

void finish(TransferEstimate& e) {
  std::array<double, kResources> total{};
  std::array<double, kResources> onPath{};
  std::array<double, kResources> first{};
  double sumFirst = 0;
  for (const auto& st : e.stages) {
    const auto r = resourceOf(st);
    total[r] += st.totalNs;
    first[r] += st.firstNs;
    if (st.firstNs > 0) onPath[r] += st.totalNs;
    sumFirst += st.firstNs;
  }
  double pathTail = 0;
  std::size_t busiest = 0;
  for (std::size_t r = 0; r < kResources; ++r) {
    pathTail = std::max(pathTail, onPath[r] - first[r]);
    if (r < kATimer && total[r] > total[busiest]) busiest = r;
  }
  e.latencyNs = std::max(sumFirst + pathTail, total[busiest]);
  e.throughputBytesPerSec = e.latencyNs > 0 ? static_cast<double>(e.bytes) * 1e9 / e.latencyNs : 0;
  e.bottleneck = std::string(kResourceNames[busiest]);
  e.counters.hostACpuNs = total[kACpu];
  e.counters.hostBCpuNs = total[kBCpu];
}

TransferEstimate estimateTcp(std::uint64_t bytes, const HostCostSettings& s) {
  const Costs c{s};
  TransferEstimate e;
  e.transport = Transport::Tcp;
  e.bytes = bytes;
  const std::uint64_t mss = s.mss();
  const std::uint64_t hdr = kIpv4HeaderBytes + kTcpHeaderBytes;
  const std::uint64_t n = ceilDiv(bytes, mss);
  const std::uint64_t firstPayload = std::min<std::uint64_t>(bytes, mss);

  PacketRun data;
  for (std::uint64_t sent = 0; sent < bytes; sent += mss) {
    const auto p = std::min<std::uint64_t>(mss, bytes - sent);
    data.add(hdr + p, p);
  }
  const std::uint64_t frameMem = kEthernetHeaderBytes + hdr;  // headers the NICs DMA per frame
  const std::uint64_t dataMem = bytes + n * frameMem;
  const double frameNs = c.wireNs(wireBytesOfFrame(hdr + firstPayload));
  const auto fpi = framesPerInterrupt(frameNs, s);
  const std::uint64_t rxInterrupts = ceilDiv(n, fpi);
  const auto ackEvery = asCount(s.delayedAckSegments);
  const std::uint64_t acks = ceilDiv(n, ackEvery);
  const std::uint64_t ackWire = acks * wireBytesOfFrame(hdr);
  const std::uint64_t ackMem = acks * frameMem;
  const std::uint64_t ackInterrupts =
      coalescedInterrupts(acks, frameNs * static_cast<double>(ackEvery), s);
  const auto appIo = asCount(s.appIoBytes);
  const std::uint64_t sendCalls = ceilDiv(bytes, appIo);
  const auto sndbuf = asCount(s.sndbufBytes);
  const std::uint64_t sendBlocks = bytes > sndbuf ? ceilDiv(bytes, sndbuf) - 1 : 0;
  const std::uint64_t batchBytes = fpi * mss;
  const std::uint64_t recvCalls =
      (bytes / batchBytes) * ceilDiv(batchBytes, appIo) + ceilDiv(bytes % batchBytes, appIo);
  const std::uint64_t lastBatch = n - (rxInterrupts - 1) * fpi;
  const double coalesceNs = s.interruptCoalesceUs * 1000;
  const double coalesceWait =
      lastBatch >= asCount(s.interruptCoalesceFrames)
          ? 0.0
          : std::max(0.0, coalesceNs - static_cast<double>(lastBatch - 1) * frameNs);
  const auto dn = static_cast<double>(n);

  StageList st;
  const auto A = Place::HostA;
  const auto B = Place::HostB;
  st.add("send() system call", A, Worker::Cpu, sendCalls, s.syscallNs,
         static_cast<double>(sendCalls) * s.syscallNs);
  st.add("copy into the socket send buffer", A, Worker::Cpu, sendCalls, c.copyNs(firstPayload),
         c.copyNs(bytes));
  st.add("TCP/IP transmit processing per segment", A, Worker::Cpu, n, s.tcpSegmentNs,
         dn * s.tcpSegmentNs);
  st.add("doorbell to the NIC", A, Worker::Cpu, n, s.doorbellNs, dn * s.doorbellNs);
  st.add("sleep while the send buffer is full", A, Worker::Cpu, sendBlocks, 0,
         static_cast<double>(sendBlocks) * s.contextSwitchNs);
  st.add(
      "ACK interrupts and ACK processing", A, Worker::Cpu, acks, 0,
      static_cast<double>(ackInterrupts) * s.interruptNs + static_cast<double>(acks) * s.tcpAckNs);
  st.add("NIC DMA read of the segment", A, Worker::Dma, n,
         s.pcieLatencyNs + c.dmaNs(firstPayload + frameMem), s.pcieLatencyNs + c.dmaNs(dataMem));
  st.add("NIC transmits the frame", A, Worker::Nic, n, s.nicPacketNs, dn * s.nicPacketNs);
  st.add("wire", Place::WireAtoB, Worker::Wire, n, c.wireNs(data.firstWireBytes) + s.propagationNs,
         c.wireNs(data.wireBytes) + s.propagationNs);
  st.add("NIC receives the frame", B, Worker::Nic, n, s.nicPacketNs, dn * s.nicPacketNs);
  st.add("NIC DMA into the receive ring", B, Worker::Dma, n,
         c.writeLatencyNs() + c.dmaNs(firstPayload + frameMem),
         c.writeLatencyNs() + c.dmaNs(dataMem));
  st.add("interrupt coalescing wait", B, Worker::Timer, rxInterrupts, coalesceWait, coalesceWait);
  st.add("interrupt and softirq", B, Worker::Cpu, rxInterrupts, s.interruptNs,
         static_cast<double>(rxInterrupts) * s.interruptNs);
  // The DMA'd buffer itself is queued on the socket: no CPU copy until recv().
  st.add("TCP/IP receive processing, queue on the socket receive buffer", B, Worker::Cpu, n,
         s.tcpSegmentNs, dn * s.tcpSegmentNs);
  st.add("ACKs built and sent", B, Worker::Cpu, acks, 0,
         static_cast<double>(acks) * (s.tcpAckNs + s.doorbellNs));
  st.add("wakeup and context switch", B, Worker::Cpu, rxInterrupts, s.contextSwitchNs,
         static_cast<double>(rxInterrupts) * s.contextSwitchNs);
  st.add("recv() system call", B, Worker::Cpu, recvCalls, s.syscallNs,
         static_cast<double>(recvCalls) * s.syscallNs);
  st.add("copy into the application buffer", B, Worker::Cpu, recvCalls, c.copyNs(firstPayload),
         c.copyNs(bytes));
  st.add("NIC DMA read of ACKs", B, Worker::Dma, acks, 0, c.dmaNs(ackMem));
  st.add("NIC transmits ACKs", B, Worker::Nic, acks, 0, static_cast<double>(acks) * s.nicPacketNs);
  st.add("ACKs on the wire", Place::WireBtoA, Worker::Wire, acks, 0,
         c.wireNs(ackWire) + s.propagationNs);
  st.add("NIC receives ACKs", A, Worker::Nic, acks, 0, static_cast<double>(acks) * s.nicPacketNs);
  st.add("NIC DMA of ACKs into the receive ring", A, Worker::Dma, acks, 0, c.dmaNs(ackMem));
  e.stages = st.take();

  auto& k = e.counters;
  k.payloadBytes = bytes;
  k.cpuBytesCopied = 2 * bytes;
  k.copiesPerByte = 2;
  k.copyOperations = sendCalls + recvCalls;
  k.syscalls = sendCalls + recvCalls;
  k.contextSwitches = sendBlocks + rxInterrupts;
  k.interrupts = rxInterrupts + ackInterrupts;
  k.doorbells = n + acks;
  k.frames = n;
  k.ackFrames = acks;
  k.wireBytes = data.wireBytes + ackWire;
  k.nicDmaReadBytes = dataMem + ackMem;
  k.nicDmaWriteBytes = dataMem + ackMem;
  k.memoryBusBytes = 2 * k.cpuBytesCopied + k.nicDmaReadBytes + k.nicDmaWriteBytes;
  finish(e);
  return e;
}

// The data-carrying packets of an RDMA message, per transport and operation.
struct RdmaFraming {
  PacketRun data;                    // data packets (A to B, or B to A for Read responses)
  std::uint64_t requestIpBytes = 0;  // Read Request packet (A to B), 0 if none
  std::uint64_t ackIpBytes = 0;      // one acknowledgement packet
  std::uint64_t acks = 0;            // acknowledgement packets for the data packets
};

RdmaFraming roceFraming(std::uint64_t bytes, RdmaOp op, const HostCostSettings& s) {
  RdmaFraming f;
  const std::uint64_t mtu = asCount(s.roceMtu);
  const std::uint64_t base = kIpv4HeaderBytes + kUdpHeaderBytes + kBthBytes + kIcrcBytes;
  const std::uint64_t packets = std::max<std::uint64_t>(1, ceilDiv(bytes, mtu));
  for (std::uint64_t i = 0; i < packets; ++i) {
    const std::uint64_t payload = std::min(mtu, bytes - i * mtu);
    std::uint64_t ext = 0;
    if (op == RdmaOp::Write && i == 0) ext = kRethBytes;
    if (op == RdmaOp::Read && (i == 0 || i + 1 == packets)) ext = kAethBytes;
    f.data.add(base + ext + payload, payload);
  }
  f.ackIpBytes = base + kAethBytes;
  if (op == RdmaOp::Read) {
    f.requestIpBytes = base + kRethBytes;
  } else {
    f.acks = ceilDiv(packets, asCount(s.roceAckEveryPackets));
  }
  return f;
}

// Length on the wire of one FPDU carrying an ULPDU of ulpdu bytes that starts at stream offset
// pos (from the marker origin); markers sit at every multiple of 512.
std::uint64_t fpduLength(std::uint64_t pos, std::uint64_t ulpdu, bool markers) {
  const std::uint64_t body = 2 + ulpdu;
  const std::uint64_t plain = body + (4 - body % 4) % 4 + 4;
  if (!markers) return plain;
  std::uint64_t end = pos;
  std::uint64_t remaining = plain;
  while (remaining > 0) {
    if (end % 512 == 0) {
      end += 4;
      continue;
    }
    const std::uint64_t chunk = std::min(remaining, 512 - end % 512);
    end += chunk;
    remaining -= chunk;
  }
  return end - pos;
}

RdmaFraming iwarpFraming(std::uint64_t bytes, RdmaOp op, const HostCostSettings& s,
                         const TransferOptions& o) {
  RdmaFraming f;
  const std::uint64_t hdr = kIpv4HeaderBytes + kTcpHeaderBytes;
  const std::uint64_t ddp = op == RdmaOp::Send ? kDdpUntaggedHeaderBytes : kDdpTaggedHeaderBytes;
  const std::uint64_t mulpdu = mpaMulpdu(s.mss(), o.mpaMarkers);
  const std::uint64_t perFpdu = mulpdu > ddp ? mulpdu - ddp : 1;
  std::uint64_t pos = 0;
  if (op == RdmaOp::Read) {
    const auto len = fpduLength(0, kDdpUntaggedHeaderBytes + kRdmapReadRequestBytes, o.mpaMarkers);
    f.requestIpBytes = hdr + len;
  }
  const std::uint64_t segments = std::max<std::uint64_t>(1, ceilDiv(bytes, perFpdu));
  for (std::uint64_t i = 0; i < segments; ++i) {
    const std::uint64_t payload = std::min(perFpdu, bytes - i * perFpdu);
    const auto len = fpduLength(pos, ddp + payload, o.mpaMarkers);
    pos += len;
    f.data.add(hdr + len, payload);
  }
  f.ackIpBytes = hdr;
  f.acks = ceilDiv(segments, asCount(s.delayedAckSegments));
  return f;
}

// The CPU stages of waiting for one completion, by polling or by event.
void addCompletion(StageList& st, Place host, const std::string& what, bool onPath,
                   const HostCostSettings& s, TransferCounters& k) {
  auto first = [&](double v) { return onPath ? v : 0.0; };
  if (s.completion == CompletionMode::Poll) {
    st.add("ibv_poll_cq finds the " + what, host, Worker::Cpu, 1, first(s.pollCqNs), s.pollCqNs);
    return;
  }
  st.add("completion interrupt for the " + what, host, Worker::Cpu, 1, first(s.interruptNs),
         s.interruptNs);
  st.add("wakeup and context switch", host, Worker::Cpu, 1, first(s.contextSwitchNs),
         s.contextSwitchNs);
  st.add("ibv_get_cq_event (read() system call)", host, Worker::Cpu, 1, first(s.syscallNs),
         s.syscallNs);
  st.add("ibv_poll_cq finds the " + what, host, Worker::Cpu, 1, first(s.pollCqNs), s.pollCqNs);
  st.add("ibv_req_notify_cq re-arms the CQ", host, Worker::Cpu, 1, 0, s.doorbellNs);
  k.interrupts += 1;
  k.contextSwitches += 1;
  k.syscalls += 1;
  k.doorbells += 1;
}

TransferEstimate estimateRdma(Transport transport, std::uint64_t bytes, const HostCostSettings& s,
                              const TransferOptions& o) {
  const Costs c{s};
  TransferEstimate e;
  e.transport = transport;
  e.op = o.op;
  e.bytes = bytes;
  const RdmaFraming f = transport == Transport::RoceV2 ? roceFraming(bytes, o.op, s)
                                                       : iwarpFraming(bytes, o.op, s, o);
  const bool iwarp = transport == Transport::Iwarp;
  const auto A = Place::HostA;
  const auto B = Place::HostB;
  const Place dataSrc = o.op == RdmaOp::Read ? B : A;
  const Place dataDst = o.op == RdmaOp::Read ? A : B;
  const Place dataWire = o.op == RdmaOp::Read ? Place::WireBtoA : Place::WireAtoB;
  const Place ackWire = o.op == RdmaOp::Read ? Place::WireAtoB : Place::WireBtoA;
  const auto packets = f.data.packets;
  const auto dp = static_cast<double>(packets);
  const std::string packetWord = iwarp ? "FPDU" : "packet";
  auto& k = e.counters;

  StageList st;
  st.add("post_send: write the WQE, ring the doorbell", A, Worker::Cpu, 1, s.doorbellNs,
         s.doorbellNs);
  st.add("NIC fetches the WQE (DMA read)", A, Worker::Dma, 1, s.pcieLatencyNs + c.dmaNs(kWqeBytes),
         s.pcieLatencyNs + c.dmaNs(kWqeBytes));
  std::uint64_t wire = 0;
  if (o.op == RdmaOp::Read) {
    st.add("NIC builds the Read Request", A, Worker::Nic, 1, s.nicPacketNs, s.nicPacketNs);
    const auto w = wireBytesOfFrame(f.requestIpBytes);
    st.add("Read Request on the wire", Place::WireAtoB, Worker::Wire, 1,
           c.wireNs(w) + s.propagationNs, c.wireNs(w) + s.propagationNs);
    wire += w;
  }
  const std::string segWork = iwarp ? ", DDP/MPA framing, TCP in the RNIC" : ", packet build";
  st.add("NIC DMA read of the payload", dataSrc, Worker::Dma, packets,
         s.pcieLatencyNs + c.dmaNs(f.data.firstPayload), s.pcieLatencyNs + c.dmaNs(bytes));
  st.add("NIC builds and transmits each " + packetWord + segWork, dataSrc, Worker::Nic, packets,
         s.nicPacketNs, dp * s.nicPacketNs);
  st.add("wire", dataWire, Worker::Wire, packets, c.wireNs(f.data.firstWireBytes) + s.propagationNs,
         c.wireNs(f.data.wireBytes) + s.propagationNs);
  wire += f.data.wireBytes;
  if (o.op == RdmaOp::Send) {
    st.add("post_recv: the receive WQE (posted beforehand)", B, Worker::Cpu, 1, 0, s.doorbellNs);
    st.add("NIC fetches the receive WQE", B, Worker::Dma, 1, s.pcieLatencyNs + c.dmaNs(kWqeBytes),
           s.pcieLatencyNs + c.dmaNs(kWqeBytes));
    k.doorbells += 1;
  }
  const std::string placeWhat = o.op == RdmaOp::Send    ? "into the posted receive buffer"
                                : o.op == RdmaOp::Write ? "to the remote address (no CPU)"
                                                        : "of the Read Response into the sink";
  st.add("NIC receives and checks each " + packetWord, dataDst, Worker::Nic, packets, s.nicPacketNs,
         dp * s.nicPacketNs);
  st.add("NIC DMA write " + placeWhat, dataDst, Worker::Dma, packets,
         c.writeLatencyNs() + c.dmaNs(f.data.firstPayload), c.writeLatencyNs() + c.dmaNs(bytes));
  std::uint64_t dmaWrite = bytes;
  std::uint64_t dmaRead = bytes + kWqeBytes;

  // Acknowledgements: for Write they are on the path to the requester's completion.
  const auto ackW = wireBytesOfFrame(f.ackIpBytes);
  if (f.acks > 0) {
    const bool ackOnPath = o.op == RdmaOp::Write;
    const double ackFirstWire = ackOnPath ? c.wireNs(ackW) + s.propagationNs : 0;
    st.add(iwarp ? "TCP ACKs built by the RNIC" : "ACKs built by the NIC", dataDst, Worker::Nic,
           f.acks, ackOnPath ? s.nicPacketNs : 0, static_cast<double>(f.acks) * s.nicPacketNs);
    st.add("ACKs on the wire", ackWire, Worker::Wire, f.acks, ackFirstWire,
           c.wireNs(f.acks * ackW) + s.propagationNs);
    wire += f.acks * ackW;
  }
  if (o.op == RdmaOp::Send) {
    st.add("NIC writes the receive CQE", B, Worker::Dma, 1, c.writeLatencyNs() + c.dmaNs(kCqeBytes),
           c.writeLatencyNs() + c.dmaNs(kCqeBytes));
    dmaWrite += kCqeBytes;
    dmaRead += kWqeBytes;
    addCompletion(st, B, "receive completion", true, s, k);
  }
  st.add("NIC writes the send CQE", A, Worker::Dma, 1,
         o.op == RdmaOp::Send ? 0 : c.writeLatencyNs() + c.dmaNs(kCqeBytes),
         c.writeLatencyNs() + c.dmaNs(kCqeBytes));
  dmaWrite += kCqeBytes;
  addCompletion(st, A, "send completion", o.op != RdmaOp::Send, s, k);
  e.stages = st.take();

  k.payloadBytes = bytes;
  k.doorbells += 1;
  k.frames = packets + (f.requestIpBytes > 0 ? 1 : 0);
  k.ackFrames = f.acks;
  k.wireBytes = wire;
  k.nicDmaReadBytes = dmaRead;
  k.nicDmaWriteBytes = dmaWrite;
  k.memoryBusBytes = dmaRead + dmaWrite;
  finish(e);
  return e;
}

}  // namespace

std::string_view toString(Transport t) {
  switch (t) {
    case Transport::Tcp:
      return "tcp";
    case Transport::RoceV2:
      return "rocev2";
    case Transport::Iwarp:
      return "iwarp";
  }
  return "?";
}

std::string_view toString(RdmaOp op) {
  switch (op) {
    case RdmaOp::Send:
      return "send";
    case RdmaOp::Write:
      return "write";
    case RdmaOp::Read:
      return "read";
  }
  return "?";
}

std::string_view toString(Worker w) {
  switch (w) {
    case Worker::Cpu:
      return "CPU";
    case Worker::Nic:
      return "NIC";
    case Worker::Dma:
      return "DMA";
    case Worker::Timer:
      return "timer";
    case Worker::Wire:
      return "wire";
  }
  return "?";
}

std::string_view toString(Place p) {
  switch (p) {
    case Place::HostA:
      return "host A";
    case Place::HostB:
      return "host B";
    case Place::WireAtoB:
      return "A->B";
    case Place::WireBtoA:
      return "B->A";
  }
  return "?";
}

bool parseTransport(std::string_view text, Transport& out) {
  if (text == "tcp") {
    out = Transport::Tcp;
  } else if (text == "rocev2" || text == "roce") {
    out = Transport::RoceV2;
  } else if (text == "iwarp") {
    out = Transport::Iwarp;
  } else {
    return false;
  }
  return true;
}

bool parseRdmaOp(std::string_view text, RdmaOp& out) {
  if (text == "send") {
    out = RdmaOp::Send;
  } else if (text == "write") {
    out = RdmaOp::Write;
  } else if (text == "read") {
    out = RdmaOp::Read;
  } else {
    return false;
  }
  return true;
}

std::uint64_t wireBytesOfFrame(std::uint64_t ipBytes) {
  const std::uint64_t frame =
      std::max<std::uint64_t>(kMinFrameBytes, kEthernetHeaderBytes + ipBytes + kEthernetFcsBytes);
  return frame + kPreambleAndGapBytes;
}

std::uint32_t mpaMulpdu(std::uint32_t mss, bool markers) {
  std::uint32_t overhead = 6 + mss % 4;
  if (markers) overhead += 4 * ((mss + 511) / 512);
  return mss > overhead ? mss - overhead : 0;
}

std::uint64_t framesPerInterrupt(double frameWireNs, const HostCostSettings& s) {
  const auto limit = asCount(s.interruptCoalesceFrames);
  if (frameWireNs <= 0) return limit;
  const double byTime = 1 + std::floor(s.interruptCoalesceUs * 1000 / frameWireNs);
  return std::min<std::uint64_t>(limit, asCount(byTime));
}

std::uint64_t coalescedInterrupts(std::uint64_t frames, double frameWireNs,
                                  const HostCostSettings& s) {
  return ceilDiv(frames, framesPerInterrupt(frameWireNs, s));
}

TransferEstimate estimateTransfer(Transport transport, std::uint64_t bytes,
                                  const HostCostSettings& settings,
                                  const TransferOptions& options) {
  bytes = std::max<std::uint64_t>(bytes, 1);
  if (transport == Transport::Tcp) return estimateTcp(bytes, settings);
  return estimateRdma(transport, bytes, settings, options);
}

}  // namespace rdmascope::sim
