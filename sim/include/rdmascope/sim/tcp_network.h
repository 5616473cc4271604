#pragma once
/// @file tcp_network.h
/// Two hosts joined by one full-duplex Ethernet link, carrying one TCP connection as real
/// Ethernet/IPv4/TCP frames (built with packets' TCP frame builder, checksums included; the
/// receiver parses the bytes it gets and drops a frame whose checksum fails).
///
/// Each host is modelled stage by stage with the times of HostCostSettings:
/// - host stack (the socket path): the application's send() and recv() system calls and their
///   copies, TCP/IP work per segment and per ACK, the doorbell, the NIC's DMA, interrupt
///   coalescing, the interrupt and softirq, the reader's wakeup. Each host has one CPU: work
///   queues behind the work before it, and every item is counted.
/// - offloaded (an iWARP RNIC): TCP runs in the NIC; frames cost NIC time and DMA only.
///
/// The scheduling comes from an EventScheduler, the seam to the discrete-event engine.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "rdmascope/sim/host_cost_model.h"
#include "rdmascope/sim/tcp_control_block.h"
#include "rdmascope/sim/trace.h"

namespace rdmascope::sim {

/// What the TCP model needs from a discrete-event engine: a clock in picoseconds, one-shot
/// events that can be cancelled, and a seeded uniform random source.
class EventScheduler {
 public:
  virtual ~EventScheduler() = default;
  virtual std::int64_t nowPs() const = 0;
  virtual std::uint64_t schedule(std::int64_t delayPs, std::function<void()> fn) = 0;
  virtual bool cancel(std::uint64_t id) = 0;
  /// Uniform in [0, 1), deterministic for the engine's seed.
  virtual double uniform() = 0;
  /// The trace stream to report to, or null when tracing is off.
  virtual Trace* trace() { return nullptr; }
};

/// Where TCP runs on a host.
enum class TcpStackPlacement : std::uint8_t {
  HostKernel,  ///< the socket path: CPU does TCP/IP, copies, syscalls, interrupts
  Offloaded,   ///< an RNIC runs TCP (iWARP): no host CPU work per segment
};

struct TcpNetworkConfig {
  HostCostSettings costs;  ///< timing of every stage, link rate, MTU, coalescing
  TcpConfig tcp;           ///< mss is set from costs.mtu
  TcpStackPlacement placement = TcpStackPlacement::HostKernel;
  double lossRate = 0;                    ///< chance each frame is lost (seeded)
  std::vector<std::uint64_t> dropFrames;  ///< 1-based frame numbers to lose
  int lossOnlyFromHost = -1;              ///< restrict lossRate to one direction (-1 both)
  bool captureFrames = true;              ///< keep every frame sent (for pcap)
  std::uint16_t clientPort = 40000;
  std::uint16_t serverPort = 5001;
  std::uint32_t clientIsn = 1000;
  std::uint32_t serverIsn = 500000;
};

/// A frame on the link.
struct TcpCapturedFrame {
  std::int64_t timePs = 0;     ///< when the sender put it on the wire
  std::int64_t arrivalPs = 0;  ///< when it reached the other host (0 if lost)
  int fromHost = 0;
  bool lost = false;  ///< dropped on the link (still captured at the sender)
  std::vector<std::uint8_t> bytes;
};

/// Per-host counters of the path.
struct TcpHostCounters {
  std::uint64_t syscalls = 0;
  std::uint64_t cpuBytesCopied = 0;
  std::uint64_t copyOperations = 0;
  std::uint64_t contextSwitches = 0;
  std::uint64_t interrupts = 0;
  std::uint64_t doorbells = 0;
  std::uint64_t nicDmaReadBytes = 0;
  std::uint64_t nicDmaWriteBytes = 0;
  std::uint64_t framesSent = 0;
  std::uint64_t framesReceived = 0;
  std::uint64_t checksumDrops = 0;
  double cpuNs = 0;
};

class TcpNetwork {
 public:
  TcpNetwork(EventScheduler& scheduler, TcpNetworkConfig config);
  ~TcpNetwork();
  TcpNetwork(const TcpNetwork&) = delete;
  TcpNetwork& operator=(const TcpNetwork&) = delete;

  /// Host 1 listens, host 0 connects (SYN, SYN-ACK, ACK).
  void connect();
  [[nodiscard]] TcpControlBlock& endpoint(int host);
  /// Called on every TCP event of a host (after the model's own handling).
  void setEventHandler(int host, std::function<void(TcpEvent)> handler);

  /// The application on `host` sends `data` with send() calls of at most ioSize bytes each,
  /// blocking while the socket send buffer is full; `done` runs when the last call returns.
  void appSend(int host, std::vector<std::uint8_t> data, std::uint32_t ioSize,
               std::function<void()> done = {});
  /// The application on `host` receives `bytes` with recv() calls of at most ioSize bytes,
  /// sleeping while nothing is readable; `done` gets the bytes when the last call returns.
  void appReceive(int host, std::uint64_t bytes, std::uint32_t ioSize,
                  std::function<void(std::vector<std::uint8_t>)> done);

  [[nodiscard]] const TcpHostCounters& counters(int host) const;
  /// Every frame sent, in sending order, lost ones included.
  [[nodiscard]] const std::vector<TcpCapturedFrame>& frames() const { return frames_; }
  /// The frames as a capture on `host` sees them, in time order: its own when it sends them
  /// (lost ones included), the peer's when they arrive (lost ones never appear), each with
  /// timePs set to that moment. This is what tcpdump on one host records.
  [[nodiscard]] std::vector<TcpCapturedFrame> captureAt(int host) const;
  [[nodiscard]] const TcpNetworkConfig& config() const { return config_; }
  [[nodiscard]] std::uint64_t framesLost() const { return framesLost_; }
  [[nodiscard]] EventScheduler& scheduler() { return scheduler_; }

 private:
  struct Host;
  struct Hooks;
  void transmit(int host, const TcpSegment& segment);
  void deliver(int host, std::vector<std::uint8_t> frame);
  void nicReceived(int host, std::vector<std::uint8_t> frame);
  void raiseInterrupt(int host);
  void processFrame(int host, const std::vector<std::uint8_t>& frame);
  void cpu(int host, double costNs, std::function<void()> then);
  void sendStep(int host);
  void recvStep(int host);
  /// One system call's copy of `n` bytes between the application and a socket buffer `where`;
  /// with none to copy the call sleeps (`asleep`; its cost `work` is still charged). `copied`
  /// runs when the CPU has copied them.
  void appCopy(int host, std::size_t n, double work, bool& asleep, bool& busy, Reason sleepNote,
               Reason where, std::function<void()> copied);
  void onTcpEvent(int host, TcpEvent event);
  /// Reports the socket buffers of `host` after a copy or after segments were processed.
  void noteBuffers(int host, Reason reason, std::uint64_t change);
  void note(int host, TraceKind kind, Narrative what, Reason reason = Reason::None,
            TraceArgs args = {}, std::uint64_t frameNumber = 0,
            const std::vector<std::uint8_t>* bytes = nullptr);

  EventScheduler& scheduler_;
  TcpNetworkConfig config_;
  std::unique_ptr<Host> hosts_[2];
  std::vector<TcpCapturedFrame> frames_;
  std::uint64_t framesSent_ = 0;
  std::uint64_t framesLost_ = 0;
  std::int64_t linkFreeAtPs_[2] = {0, 0};
};

/// Parses an Ethernet/IPv4/TCP frame into a segment. Nullopt when it is not one, is cut
/// short, or its IPv4 header or TCP checksum is wrong.
std::optional<TcpSegment> parseTcpFrame(std::span<const std::uint8_t> frame);

}  // namespace rdmascope::sim
