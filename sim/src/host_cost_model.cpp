#include "rdmascope/sim/host_cost_model.h"

#include <array>
#include <charconv>
#include <cmath>

namespace rdmascope::sim {

namespace {

using S = HostCostSettings;

// Sources of the defaults. "This machine" is the project's machine kind (AMD EPYC, 2 vCPUs,
// a VM), measured with the same loops as `rdmascope-cli bench tcp`.
constexpr std::array kTable{
    CostSettingInfo{"memcpy_bw", "B/s", "CPU copy bandwidth for large buffers",
                    "7.3 GB/s measured for 64 MiB memcpy on this machine; one core copying "
                    "from DRAM to DRAM commonly reaches 5-10 GB/s",
                    &S::memcpyBytesPerSec},
    CostSettingInfo{"syscall", "ns", "entry and exit of one system call",
                    "232 ns measured for getppid() on this machine (a VM); lmbench's "
                    "lat_syscall null reports 50-100 ns on bare metal",
                    &S::syscallNs},
    CostSettingInfo{"tcp_segment", "ns", "TCP/IP protocol work per segment on each side",
                    "Linux without TSO/GRO handles about 1-2 M segments/s per core per "
                    "direction (0.5-1 us each); Clark et al., 'An Analysis of TCP Processing "
                    "Overhead' (IEEE Comm. 1989) for the protocol's own share",
                    &S::tcpSegmentNs},
    CostSettingInfo{"tcp_ack", "ns", "building or processing one pure ACK",
                    "an ACK skips the data path: about half a segment's protocol work",
                    &S::tcpAckNs},
    CostSettingInfo{"interrupt", "ns", "hard interrupt plus softirq (NAPI poll) entry and exit",
                    "1-2 us per interrupt on 10 GbE hosts in Larsen et al., 'Architectural "
                    "Breakdown of End-to-End Latency in a TCP/IP Network' (2009)",
                    &S::interruptNs},
    CostSettingInfo{"context_switch", "ns", "a thread sleeping, being woken and switched back in",
                    "lmbench lat_ctx and Tsuna's 'How long does it take to make a context "
                    "switch?' (2010): 1-5 us including cache effects",
                    &S::contextSwitchNs},
    CostSettingInfo{"doorbell", "ns", "writing a descriptor/WQE and ringing the NIC doorbell",
                    "an MMIO doorbell is a posted PCIe write costing the CPU about 100 ns "
                    "(Kalia, Kaminsky, Andersen, 'Design Guidelines for High Performance RDMA "
                    "Systems', USENIX ATC 2016)",
                    &S::doorbellNs},
    CostSettingInfo{"poll_cq", "ns", "one ibv_poll_cq call that returns a completion",
                    "reading a CQE from a cached ring: tens of ns (perftest's *_lat polling "
                    "loops)",
                    &S::pollCqNs},
    CostSettingInfo{"nic_packet", "ns", "NIC pipeline time per packet (not CPU time)",
                    "100 Gb/s RNICs process tens of millions of packets per second per queue",
                    &S::nicPacketNs},
    CostSettingInfo{"nic_dma_bw", "B/s", "PCIe DMA bandwidth of the NIC",
                    "PCIe 3.0 x16 carries 15.75 GB/s raw, 12-13 GB/s of payload after TLP "
                    "overheads (Neugebauer et al., 'Understanding PCIe performance for end "
                    "host networking', SIGCOMM 2018)",
                    &S::nicDmaBytesPerSec},
    CostSettingInfo{"pcie_latency", "ns", "one DMA read round trip across PCIe",
                    "Neugebauer et al. (SIGCOMM 2018) measure 400-900 ns per DMA read",
                    &S::pcieLatencyNs},
    CostSettingInfo{"link_rate", "bit/s", "Ethernet line rate",
                    "100 GbE, as the ns-3 benchmark peer of the simulator uses",
                    &S::linkBitsPerSec},
    CostSettingInfo{"propagation", "ns", "cable and switch latency, one way",
                    "a few metres of cable (5 ns/m) plus one switch (300-600 ns)",
                    &S::propagationNs},
    CostSettingInfo{"mtu", "bytes", "Ethernet MTU (the largest IP packet)",
                    "Ethernet's standard 1500 bytes (RFC 894)", &S::mtu},
    CostSettingInfo{"roce_mtu", "bytes", "RoCE path MTU (payload bytes per packet)",
                    "ibv_devinfo shows active_mtu 1024 for RoCE over a 1500-byte Ethernet MTU "
                    "(the largest IB MTU that fits)",
                    &S::roceMtu},
    CostSettingInfo{"coalesce_frames", "frames", "NIC raises an interrupt after this many frames",
                    "ethtool -C rx-frames; drivers default to tens of frames (ethtool -c shows "
                    "a machine's own)",
                    &S::interruptCoalesceFrames},
    CostSettingInfo{"coalesce_us", "us", "or this long after the first frame not yet signalled",
                    "ethtool -C rx-usecs; drivers default to a few microseconds",
                    &S::interruptCoalesceUs},
    CostSettingInfo{"sndbuf", "bytes", "socket send buffer",
                    "Linux net.ipv4.tcp_wmem maximum 4 MiB, which autotuning grows to "
                    "(Documentation/networking/ip-sysctl.rst)",
                    &S::sndbufBytes},
    CostSettingInfo{"rcvbuf", "bytes", "socket receive buffer",
                    "Linux net.ipv4.tcp_rmem maximum 6 MiB (ip-sysctl.rst)", &S::rcvbufBytes},
    CostSettingInfo{"app_io", "bytes", "bytes the application passes to one send() or recv()",
                    "iperf3's default TCP block size, 128 KiB", &S::appIoBytes},
    CostSettingInfo{"delayed_ack", "segments", "the receiver ACKs every this many segments",
                    "RFC 1122 4.2.3.2 and RFC 5681 4.2: an ACK at least every second "
                    "full-sized segment",
                    &S::delayedAckSegments},
    CostSettingInfo{"roce_ack_every", "packets", "RC responder ACKs at least every N packets",
                    "Linux Soft-RoCE's RXE_MAX_PKT_PER_ACK (rxe_param.h) is 64; hardware "
                    "coalesces similarly",
                    &S::roceAckEveryPackets},
};

bool isTimeOrRate(std::string_view unit) {
  return unit == "ns" || unit == "us" || unit == "B/s" || unit == "bit/s";
}

}  // namespace

std::uint32_t HostCostSettings::mss() const {
  const double m = std::floor(mtu) - 40.0;
  return m > 0 ? static_cast<std::uint32_t>(m) : 0;
}

std::span<const CostSettingInfo> costSettingTable() {
  return kTable;
}

const CostSettingInfo* findCostSetting(std::string_view name) {
  for (const auto& info : kTable) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

std::optional<std::string> applyCostSetting(HostCostSettings& settings,
                                            std::string_view assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    return "setting '" + std::string(assignment) + "' is not of the form name=value";
  }
  const auto name = assignment.substr(0, eq);
  auto value = assignment.substr(eq + 1);
  if (name == "completion") {
    if (value == "poll") {
      settings.completion = CompletionMode::Poll;
    } else if (value == "event") {
      settings.completion = CompletionMode::Event;
    } else {
      return "completion must be poll or event, not '" + std::string(value) + "'";
    }
    return std::nullopt;
  }
  const auto* info = findCostSetting(name);
  if (info == nullptr) return "unknown setting '" + std::string(name) + "'";
  double multiplier = 1;
  if (!value.empty()) {
    const char suffix = value.back();
    const double base = isTimeOrRate(info->unit) ? 1000.0 : 1024.0;
    if (suffix == 'K' || suffix == 'k') multiplier = base;
    if (suffix == 'M' || suffix == 'm') multiplier = base * base;
    if (suffix == 'G' || suffix == 'g') multiplier = base * base * base;
    if (multiplier != 1) value.remove_suffix(1);
  }
  double number = 0;
  const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (ec != std::errc{} || ptr != value.data() + value.size() || !std::isfinite(number)) {
    return "setting " + std::string(name) + ": '" + std::string(assignment.substr(eq + 1)) +
           "' is not a number";
  }
  settings.*(info->member) = number * multiplier;
  if (auto error = validate(settings)) return error;
  return std::nullopt;
}

std::optional<std::string> validate(const HostCostSettings& s) {
  for (const auto& info : kTable) {
    if (!(s.*(info.member) >= 0)) return "setting " + std::string(info.name) + " is negative";
  }
  auto positive = [](double v) { return v > 0; };
  if (!positive(s.memcpyBytesPerSec)) return "setting memcpy_bw must be positive";
  if (!positive(s.nicDmaBytesPerSec)) return "setting nic_dma_bw must be positive";
  if (!positive(s.linkBitsPerSec)) return "setting link_rate must be positive";
  if (s.mtu < 576 || s.mtu > 65535) return "setting mtu must lie in 576..65535";
  if (s.roceMtu < 256 || s.roceMtu > 4096) return "setting roce_mtu must lie in 256..4096";
  if (s.roceMtu + 14 + 20 + 8 + 12 + 16 + 4 > s.mtu + 14) {
    return "setting roce_mtu does not fit in the Ethernet mtu with its headers";
  }
  if (s.interruptCoalesceFrames < 1) return "setting coalesce_frames must be at least 1";
  if (s.sndbufBytes < 1) return "setting sndbuf must be at least 1";
  if (s.rcvbufBytes < 1) return "setting rcvbuf must be at least 1";
  if (s.appIoBytes < 1) return "setting app_io must be at least 1";
  if (s.delayedAckSegments < 1) return "setting delayed_ack must be at least 1";
  if (s.roceAckEveryPackets < 1) return "setting roce_ack_every must be at least 1";
  return std::nullopt;
}

HostCostSettings calibrated(HostCostSettings base, const MeasuredHostCosts& m) {
  if (m.memcpyBytesPerSec && *m.memcpyBytesPerSec > 0) {
    base.memcpyBytesPerSec = *m.memcpyBytesPerSec;
  }
  if (m.syscallNs && *m.syscallNs > 0) base.syscallNs = *m.syscallNs;
  // A small send() over loopback is a system call, a small copy and the transmit half of the
  // stack; recv() the receive half. What is left after the syscall is the per-segment work.
  if (m.sendCallNs && m.recvCallNs) {
    const double stack = (*m.sendCallNs + *m.recvCallNs) / 2.0 - base.syscallNs;
    if (stack > 0) base.tcpSegmentNs = stack;
  }
  // A ping-pong round trip is two sends, two receives and two wakeups of a sleeping reader.
  if (m.roundTripNs && m.sendCallNs && m.recvCallNs) {
    const double wakeup = (*m.roundTripNs - 2.0 * (*m.sendCallNs + *m.recvCallNs)) / 2.0;
    if (wakeup > 0) base.contextSwitchNs = wakeup;
  }
  return base;
}

}  // namespace rdmascope::sim
