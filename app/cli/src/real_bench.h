#pragma once
// perftest-style benchmarks between two processes on real devices: the client (--connect)
// measures with the steady clock and prints; the server serves (receives, answers ping-pongs).

#include <string>
#include <vector>

#include "rdmascope/verbs_backend/backend.h"
#include "rdmascope/verbs_backend/oob_exchange.h"
#include "sim_bench.h"

namespace rdmascope::cli {

struct RealBenchResult {
  bool ok = false;
  std::string error;
  std::vector<double> postedUs, completedUs, latenciesUs;  ///< client side only
};

/// Runs one side of the benchmark on `backend`, meeting the peer over `oob`.
RealBenchResult runRealBench(const BenchConfig& bench, verbs_backend::Backend& backend,
                             verbs_backend::OobConnection& oob, bool client);

}  // namespace rdmascope::cli
