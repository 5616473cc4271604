#pragma once
// perftest-style benchmarks on the simulator: both hosts in one process, times in simulated
// microseconds, so the figures follow from the link settings (rate, latency, MTU).

#include <cstdint>
#include <string>
#include <vector>

#include "perftest_report.h"
#include "rdmascope/sim/network.h"

namespace rdmascope::cli {

enum class BenchOp : std::uint8_t { Write, Read, Send, Atomic };

struct BenchConfig {
  BenchOp op = BenchOp::Write;
  std::uint64_t size = 65536;
  std::uint64_t iterations = 1000;
  bool latency = false;
  unsigned txDepth = 128;  ///< outstanding WRs in a bandwidth run (perftest's default)
  sim::Mtu mtu = sim::Mtu::Mtu4096;
};

struct SimBenchResult {
  bool ok = false;
  std::string error;
  std::vector<double> postedUs, completedUs;  ///< bandwidth runs
  std::vector<double> latenciesUs;            ///< latency runs
  sim::LinkConfig link;
};

/// Runs the benchmark on a fresh simulated network with `config`.
SimBenchResult runSimBench(const BenchConfig& bench, const sim::NetworkConfig& config);

}  // namespace rdmascope::cli
