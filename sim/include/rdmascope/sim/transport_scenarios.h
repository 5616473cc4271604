#pragma once
/// @file transport_scenarios.h
/// The same transfer over the TCP socket path and over iWARP, run on the simulator's engine:
/// "tcp-stream" (send()/recv() through the host stack), "iwarp-send-recv", "iwarp-write" and
/// "iwarp-read" (an RNIC moves the bytes). Every frame is kept for pcap, every step can be
/// traced, and the host counters show where the CPU time went.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rdmascope/sim/host_cost_model.h"
#include "rdmascope/sim/iwarp_session.h"
#include "rdmascope/sim/tcp_network.h"
#include "rdmascope/sim/trace.h"

namespace rdmascope::sim {

struct TransportScenarioOptions {
  std::uint64_t bytes = 65536;  ///< size of the message (1 .. kMaxTransportScenarioBytes)
  bool markers = false;         ///< iWARP: both sides ask for MPA markers
  bool crc = true;              ///< iWARP: both sides ask for MPA CRC
  double lossRate = 0;          ///< chance each frame is lost
  std::uint64_t seed = 1;
  HostCostSettings costs;
  std::uint32_t ioSize = 131072;  ///< tcp-stream: bytes per send()/recv() call
  bool trace = false;             ///< keep the trace events
};

inline constexpr std::uint64_t kMaxTransportScenarioBytes = 64ull << 20;

struct TransportScenarioResult {
  std::string name;
  std::vector<TcpCapturedFrame> frames;  ///< as a capture on host A sees them (captureAt(0))
  std::vector<IwarpCompletion> completions;
  std::array<TcpHostCounters, 2> counters{};
  std::array<TcpStats, 2> tcp{};
  std::vector<TraceEvent> trace;
  bool dataIntact = false;  ///< the destination buffer holds exactly the source bytes
  double elapsedUs = 0;     ///< from the first call after connection setup to completion
  std::uint64_t framesLost = 0;
};

/// "tcp-stream", "iwarp-send-recv", "iwarp-write", "iwarp-read".
std::span<const std::string_view> transportScenarioNames();

/// Runs one scenario. On bad options or an unknown name returns nullopt and a one-line error.
std::optional<TransportScenarioResult> runTransportScenario(std::string_view name,
                                                            const TransportScenarioOptions& options,
                                                            std::string& error);

}  // namespace rdmascope::sim
