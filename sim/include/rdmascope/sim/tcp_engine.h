#pragma once
/// @file tcp_engine.h
/// Runs the TCP model on the simulator's discrete-event engine: the EventScheduler seam
/// served by a Simulator (its clock, events, seeded PRNG and trace stream).

#include "rdmascope/sim/simulator.h"
#include "rdmascope/sim/tcp_network.h"

namespace rdmascope::sim {

class SimulatorScheduler final : public EventScheduler {
 public:
  explicit SimulatorScheduler(Simulator& sim) : sim_(sim) {}

  std::int64_t nowPs() const override { return sim_.now().picos(); }
  std::uint64_t schedule(std::int64_t delayPs, std::function<void()> fn) override {
    return sim_.schedule(SimTime::ps(delayPs), std::move(fn));
  }
  bool cancel(std::uint64_t id) override { return sim_.cancel(id); }
  double uniform() override { return sim_.uniform(); }
  Trace* trace() override { return sim_.tracing() ? &sim_.trace() : nullptr; }

 private:
  Simulator& sim_;
};

}  // namespace rdmascope::sim
