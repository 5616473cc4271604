#pragma once
// The frames of a simulated iWARP conversation under loss (rdma_cm, MPA, DDP/RDMAP over TCP):
// the stateful input that the tests of the fast and parallel passes mix into their captures.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "rdmascope/sim/transport_scenarios.h"

namespace rdmascope::test {

/// The frames of the built-in transport scenario `scenario` (e.g. "iwarp-read") moving `bytes`
/// with `lossRate` of its frames lost (seeded); none, with a test failure, when it cannot run.
inline std::vector<std::vector<std::uint8_t>> iwarpFrames(const char* scenario,
                                                          std::uint64_t bytes = 20000,
                                                          double lossRate = 0.1,
                                                          std::uint64_t seed = 7) {
  sim::TransportScenarioOptions o;
  o.bytes = bytes;
  o.lossRate = lossRate;
  o.seed = seed;
  std::string error;
  const auto run = sim::runTransportScenario(scenario, o, error);
  EXPECT_TRUE(run) << scenario << ": " << error;
  std::vector<std::vector<std::uint8_t>> frames;
  if (run)
    for (const auto& f : run->frames)
      frames.push_back(f.bytes);
  return frames;
}

}  // namespace rdmascope::test
