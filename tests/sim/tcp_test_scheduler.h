#pragma once
// A small deterministic event queue for the TCP model's tests, standing in for the
// discrete-event engine behind the EventScheduler seam.

#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <utility>

#include "rdmascope/sim/tcp_network.h"

namespace rdmascope::sim::testing {

class TestScheduler final : public EventScheduler {
 public:
  explicit TestScheduler(std::uint64_t seed = 1) : rng_(seed) {}

  std::int64_t nowPs() const override { return now_; }
  std::uint64_t schedule(std::int64_t delayPs, std::function<void()> fn) override {
    const std::uint64_t id = nextId_++;
    queue_.emplace(std::make_pair(now_ + std::max<std::int64_t>(0, delayPs), id), std::move(fn));
    return id;
  }
  bool cancel(std::uint64_t id) override {
    for (auto it = queue_.begin(); it != queue_.end(); ++it) {
      if (it->first.second == id) {
        queue_.erase(it);
        return true;
      }
    }
    return false;
  }
  double uniform() override { return std::uniform_real_distribution<double>(0.0, 1.0)(rng_); }

  /// Runs events until none is left, `done` holds, or `limit` events have run.
  bool run(const std::function<bool()>& done = {}, std::uint64_t limit = 50'000'000) {
    std::uint64_t count = 0;
    while (!queue_.empty() && count++ < limit) {
      if (done && done()) return true;
      auto node = queue_.extract(queue_.begin());
      now_ = node.key().first;
      node.mapped()();
    }
    return done ? done() : queue_.empty();
  }

 private:
  std::int64_t now_ = 0;
  std::uint64_t nextId_ = 1;
  std::map<std::pair<std::int64_t, std::uint64_t>, std::function<void()>> queue_;
  std::mt19937_64 rng_;
};

}  // namespace rdmascope::sim::testing
