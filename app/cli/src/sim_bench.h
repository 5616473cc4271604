#pragma once
// perftest-style benchmarks on the simulator: both hosts in one process, times in simulated
// microseconds, so the figures follow from the link settings (rate, latency, MTU).

#include <cstdint>
#include <functional>
#include <span>
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

/// The signaled work request of iteration `id`, as perftest posts it: `bench.op` over
/// bench.size bytes (8 for an atomic) at `localAddr` (key `lkey`), aimed at the peer's buffer.
sim::SendWr benchWr(const BenchConfig& bench, std::uint64_t id, std::uint64_t localAddr,
                    std::uint32_t lkey, std::uint64_t remoteAddr, std::uint32_t rkey);

/// Counts polled completions as the benchmarks do: receives and sends apart, and the time
/// `nowUs()` of each send in `completed` when given. Returns what the first unsuccessful
/// completion says (counting stops there), else an empty string.
std::string countCompletions(std::span<const sim::WorkCompletion> completions, std::uint64_t& sends,
                             std::uint64_t& recvs, std::vector<double>* completed,
                             const std::function<double()>& nowUs);

}  // namespace rdmascope::cli
