#pragma once
// Measures this machine's own costs of the TCP socket path over loopback (127.0.0.1 only,
// bounded loops): memcpy bandwidth, a trivial system call, one small send() and recv(), a
// 1-byte round trip, and bulk throughput. The figures calibrate the host cost model.

#include <optional>
#include <string>

#include "rdmascope/sim/host_cost_model.h"

namespace rdmascope::cli {

struct TcpBenchOptions {
  bool quick = false;  ///< fewer iterations (tests)
};

struct TcpBenchResult {
  double memcpyBytesPerSec = 0;
  double syscallNs = 0;
  double sendCallNs = 0;       ///< one 64-byte send() with TCP_NODELAY
  double recvCallNs = 0;       ///< one 64-byte recv() of data already queued
  double roundTripNs = 0;      ///< a 1-byte ping-pong between two threads
  double bulkBytesPerSec = 0;  ///< one connection, 128 KiB send() calls
  std::uint64_t bulkBytes = 0;

  [[nodiscard]] sim::MeasuredHostCosts measured() const;
};

/// Runs the measurements; nullopt and a one-line error when a socket call fails.
std::optional<TcpBenchResult> runTcpBench(const TcpBenchOptions& options, std::string& error);

/// The result as a JSON object (keys as in `rdmascope-cli bench tcp --json`).
std::string tcpBenchJson(const TcpBenchResult& r);

/// Reads what tcpBenchJson wrote; nullopt and an error naming what is wrong otherwise.
std::optional<TcpBenchResult> parseTcpBenchJson(const std::string& text, std::string& error);

}  // namespace rdmascope::cli
