#pragma once
/// @file host_cost_model.h
/// The named parameters of the host and NIC cost model shared by the TCP socket path and the
/// RDMA data paths (RoCEv2, iWARP). Every parameter has a default and a note saying where the
/// default comes from, so the comparison can be checked, argued with and recalibrated
/// (`rdmascope-cli bench tcp` measures the machine's own figures; `compare --calibrated` uses
/// them).

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace rdmascope::sim {

/// How an RDMA consumer learns of a completion.
enum class CompletionMode : std::uint8_t {
  Poll,   ///< busy-polls the CQ with ibv_poll_cq: no system call, no interrupt
  Event,  ///< arms the CQ and sleeps in ibv_get_cq_event: interrupt, read(), context switch
};

/// Every cost parameter of the model, as plain numbers so they can be listed, set by name and
/// printed. Times in nanoseconds, rates in bytes (or bits) per second, sizes in bytes.
struct HostCostSettings {
  double memcpyBytesPerSec = 7.0e9;     ///< CPU copy bandwidth (copy_to/from_user)
  double syscallNs = 250;               ///< entry + exit of one system call
  double tcpSegmentNs = 600;            ///< TCP/IP protocol work per segment, per side
  double tcpAckNs = 250;                ///< building or processing one pure ACK
  double interruptNs = 1500;            ///< hard IRQ + softirq (NAPI poll) entry and exit
  double contextSwitchNs = 2000;        ///< sleep, wakeup and switch back to a thread
  double doorbellNs = 100;              ///< writing a WQE/descriptor and ringing the doorbell
  double pollCqNs = 50;                 ///< one ibv_poll_cq call that returns a CQE
  double nicPacketNs = 30;              ///< NIC pipeline time per packet (not CPU time)
  double nicDmaBytesPerSec = 12.0e9;    ///< PCIe DMA bandwidth of the NIC
  double pcieLatencyNs = 500;           ///< one DMA read round trip across PCIe
  double linkBitsPerSec = 100e9;        ///< Ethernet line rate
  double propagationNs = 1000;          ///< cable + switch latency, one way
  double mtu = 1500;                    ///< Ethernet MTU (IP packet size)
  double roceMtu = 1024;                ///< RoCE path MTU (payload bytes per packet)
  double interruptCoalesceFrames = 64;  ///< NIC raises an IRQ after this many frames ...
  double interruptCoalesceUs = 8;       ///< ... or this long after the first unsignalled one
  double sndbufBytes = 4194304;         ///< socket send buffer (SO_SNDBUF)
  double rcvbufBytes = 6291456;         ///< socket receive buffer (SO_RCVBUF)
  double appIoBytes = 131072;           ///< bytes the application asks for per send()/recv()
  double delayedAckSegments = 2;        ///< the receiver ACKs every this many segments
  double roceAckEveryPackets = 128;     ///< RC responder ACKs at least every this many PSNs
  CompletionMode completion = CompletionMode::Poll;  ///< RDMA completion by polling or events

  /// TCP maximum segment size: MTU minus 20 bytes of IPv4 and 20 of TCP header.
  [[nodiscard]] std::uint32_t mss() const;
};

/// One named setting: its command-line name, unit, meaning and the source of its default.
struct CostSettingInfo {
  std::string_view name;         ///< e.g. "memcpy_bw"
  std::string_view unit;         ///< e.g. "B/s", "ns", "bytes"
  std::string_view description;  ///< what it means
  std::string_view source;       ///< where the default comes from
  double HostCostSettings::*member;
};

/// The table of every numeric setting, in display order.
std::span<const CostSettingInfo> costSettingTable();

/// The entry of a setting by name, or nullptr.
const CostSettingInfo* findCostSetting(std::string_view name);

/// Applies "name=value" (value may carry a K/M/G suffix, powers of 1024 for sizes and of 1000
/// for rates and times), or "completion=poll|event". Returns an error message or nullopt.
std::optional<std::string> applyCostSetting(HostCostSettings& settings,
                                            std::string_view assignment);

/// Checks the settings are usable (positive rates, MTU large enough for headers, ...).
/// Returns an error message naming the first bad setting, or nullopt.
std::optional<std::string> validate(const HostCostSettings& settings);

/// Figures measured on a real machine (by `rdmascope-cli bench tcp`) that replace defaults.
struct MeasuredHostCosts {
  std::optional<double> memcpyBytesPerSec;  ///< large-buffer memcpy bandwidth
  std::optional<double> syscallNs;          ///< cost of a trivial system call
  std::optional<double> sendCallNs;         ///< one send() of a small message over loopback
  std::optional<double> recvCallNs;         ///< one recv() of a small message over loopback
  std::optional<double> roundTripNs;        ///< a 1-byte ping-pong over loopback TCP
};

/// Settings with the measured figures applied: memcpy bandwidth and syscall cost directly; the
/// per-segment cost as what a small send()+recv() costs beyond two system calls and two small
/// copies, split between the two sides.
HostCostSettings calibrated(HostCostSettings base, const MeasuredHostCosts& measured);

}  // namespace rdmascope::sim
