#include "rdmascope/ui/tcp_data_path.h"

#include <algorithm>
#include <string_view>

#include "rdmascope/sim/tcp_network.h"
#include "rdmascope/sim/transport_scenarios.h"

namespace rdmascope::ui {

namespace {

std::string plural(std::uint64_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

// Layers of the TCP stack (layer_stacks.cpp): 0 app buffer, 1 socket API, 2 socket buffer,
// 3 TCP, 4 IP, 5 Ethernet driver, 6 NIC.
constexpr std::uint8_t kApp = 0, kApi = 1, kSock = 2, kDrv = 5, kNic = 6;

}  // namespace

TcpDataPath runTcpDataPath(std::uint64_t bytes, const sim::HostCostSettings& costs) {
  TcpDataPath path;
  path.bytes = std::max<std::uint64_t>(1, bytes);
  path.modelled = std::min(path.bytes, sim::kMaxTransportScenarioBytes);
  sim::TransportScenarioOptions o;
  o.bytes = path.modelled;
  o.costs = costs;
  o.trace = true;
  std::string error;
  const auto r = sim::runTransportScenario("tcp-stream", o, error);
  if (!r) {
    path.error = error;
    return path;
  }
  TcpTransferCounts& c = path.counts;
  c.elapsedUs = r->elapsedUs;
  // The transfer runs from the reader's first recv() (the model posts it first) for
  // elapsedUs; the handshake before it and the close after it are not part of the message.
  double start = -1;
  for (const auto& e : r->trace) {
    const double t = e.time.micros();
    const bool hostA = e.host == "host-a";
    using N = sim::Narrative;
    if (start < 0) {
      if (!hostA && e.what == N::TcpRecvCall) start = t;
      if (start < 0) continue;
    }
    if (t > start + r->elapsedUs + 1e-6) continue;  // frames carry their time on the wire
    if (e.kind == sim::TraceKind::FrameSent) {
      const auto seg = sim::parseTcpFrame(e.bytes);
      if (!seg) continue;
      if (hostA && !seg->payload.empty()) {
        ++c.dataSegments;
        c.payloadBytes += seg->payload.size();
        c.dataFrameBytes += e.bytes.size();
      } else if (!hostA && seg->payload.empty()) {
        ++c.ackFrames;
      }
      continue;
    }
    const std::uint64_t n = e.args.bytes.value_or(0);
    if (e.what == N::TcpSendCall) {
      ++c.sendCalls;
    } else if (e.what == N::TcpRecvCall) {
      ++c.recvCalls;
    } else if (e.what == N::TcpCopy && e.reason == sim::Reason::CopyIntoSocketBuffer) {
      ++c.copiesA;
      c.bytesCopiedA += n;
    } else if (e.what == N::TcpCopy && e.reason == sim::Reason::CopyIntoAppBuffer) {
      ++c.copiesB;
      c.bytesCopiedB += n;
    } else if (e.what == N::TcpAppSleeps && e.reason == sim::Reason::SendBufferFull) {
      ++c.writerSleeps;
    } else if (e.what == N::TcpAppSleeps && e.reason == sim::Reason::NothingToRead) {
      ++c.readerSleeps;
    } else if (e.what == N::TcpInterrupt) {
      ++(hostA ? c.interruptsA : c.interruptsB);
    }
  }

  const std::uint32_t mss = static_cast<std::uint32_t>(costs.mtu) - 40;
  auto add = [&path](TcpStage stage, PathKind kind, bool fromB, std::uint8_t from, bool toB,
                     std::uint8_t to, std::string text) {
    path.steps.push_back({stage, kind, fromB, from, toB, to, std::move(text)});
  };
  std::string size = std::to_string(path.modelled) + " bytes";
  if (path.modelled < path.bytes)
    size += " (the model's largest message; the transfer has " + std::to_string(path.bytes) + ")";
  add(TcpStage::SendCall, PathKind::Syscall, false, kApi, false, kSock,
      "send() for " + size + ": " + plural(c.sendCalls, "system call", "system calls") +
          " (at most " + std::to_string(o.ioSize) + " bytes each) enter the kernel.");
  add(TcpStage::SendCopy, PathKind::CpuCopy, false, kApp, false, kSock,
      "The CPU copies " + std::to_string(c.bytesCopiedA) +
          " bytes from the application buffer into the socket send buffer (" +
          plural(c.copiesA, "copy", "copies") + ").");
  if (c.writerSleeps > 0)
    add(TcpStage::WriterSleep, PathKind::Syscall, false, kSock, false, kApi,
        "The socket send buffer is full: send() sleeps " + plural(c.writerSleeps, "time", "times") +
            " until ACKs free room, and each wakeup is a context switch.");
  add(TcpStage::Segments, PathKind::Processing, false, kSock, false, kDrv,
      "The kernel's TCP/IP code cuts the stream into " +
          plural(c.dataSegments, "segment", "segments") + " of at most " + std::to_string(mss) +
          " bytes (" + std::to_string(c.payloadBytes) +
          " payload bytes), builds their headers and rings the NIC's doorbell for each.");
  add(TcpStage::NicRead, PathKind::Dma, false, kDrv, false, kNic,
      "The NIC reads the " + plural(c.dataSegments, "frame", "frames") + " (" +
          std::to_string(c.dataFrameBytes) +
          " bytes, headers included) from kernel memory by DMA.");
  add(TcpStage::Wire, PathKind::Wire, false, kNic, true, kNic,
      plural(c.dataSegments, "data frame crosses", "data frames cross") + " the link; " +
          plural(c.ackFrames, "ACK comes", "ACKs come") + " back.");
  add(TcpStage::NicWrite, PathKind::Dma, true, kNic, true, kDrv,
      "The receiving NIC writes the frames into its receive ring by DMA and raises " +
          plural(c.interruptsB, "interrupt", "interrupts") +
          " (coalesced): each one enters the kernel.");
  add(TcpStage::RxKernel, PathKind::Processing, true, kDrv, true, kSock,
      "The interrupt handler and softirq parse Ethernet, IP and TCP of " +
          plural(c.dataSegments, "segment", "segments") +
          ", queue the payload in the socket receive buffer and send " +
          plural(c.ackFrames, "ACK", "ACKs") + ".");
  std::string recv = "recv(): " + plural(c.recvCalls, "system call", "system calls");
  if (c.readerSleeps > 0)
    recv += "; the reader sleeps " + plural(c.readerSleeps, "time", "times") +
            " with nothing to read and is woken by the data (a context switch each)";
  add(TcpStage::RecvCall, PathKind::Syscall, true, kApi, true, kSock, recv + ".");
  add(TcpStage::RecvCopy, PathKind::CpuCopy, true, kSock, true, kApp,
      "The CPU copies " + std::to_string(c.bytesCopiedB) +
          " bytes from the socket receive buffer into the application buffer (" +
          plural(c.copiesB, "copy", "copies") + ").");
  if (c.interruptsA > 0)
    add(TcpStage::AckInterrupts, PathKind::Processing, false, kNic, false, kSock,
        "Host A's NIC raises " + plural(c.interruptsA, "interrupt", "interrupts") +
            " for the ACKs; its kernel frees the acknowledged bytes from the send buffer.");
  return path;
}

int tcpStepForRdmaStep(const TcpDataPath& path, int rdmaStep) {
  if (rdmaStep < 0 || path.steps.empty()) return -1;
  static constexpr TcpStage kUpTo[] = {
      TcpStage::SendCall, TcpStage::WriterSleep, TcpStage::Segments,     TcpStage::NicRead,
      TcpStage::Wire,     TcpStage::RxKernel,    TcpStage::AckInterrupts};
  const TcpStage target = kUpTo[std::min<std::size_t>(static_cast<std::size_t>(rdmaStep), 6)];
  int step = -1;
  for (std::size_t i = 0; i < path.steps.size(); ++i)
    if (path.steps[i].stage <= target) step = static_cast<int>(i);
  return step;
}

}  // namespace rdmascope::ui
