#pragma once
/// @file simulator.h
/// The discrete-event engine: small event records in time order, one seeded PRNG, a trace.
/// Deterministic for a seed: events at the same time run in the order they were scheduled.

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <random>
#include <unordered_set>
#include <vector>

#include "rdmascope/sim/sim_time.h"
#include "rdmascope/sim/trace.h"

namespace rdmascope::sim {

using EventId = std::uint64_t;

/// Receiver of hot-path events (frames, timers) without a std::function per event.
class EventTarget {
 public:
  virtual ~EventTarget() = default;
  virtual void onEvent(std::uint32_t code, std::uint64_t arg) = 0;
};

class Simulator {
 public:
  explicit Simulator(std::uint64_t seed = 1);

  SimTime now() const { return now_; }
  std::uint64_t seed() const { return seed_; }

  /// Runs `fn` after `delay`; returns an id for cancel().
  EventId schedule(SimTime delay, std::function<void()> fn);
  /// Calls target->onEvent(code, arg) after `delay` (no allocation).
  EventId schedule(SimTime delay, EventTarget* target, std::uint32_t code, std::uint64_t arg);
  /// Cancels a pending event; false if it already ran or was cancelled.
  bool cancel(EventId id);

  /// Runs the next event; false when none is pending.
  bool step();
  /// Runs until no event is pending.
  void run();
  /// Runs events whose time is <= `until`, then sets now to `until` if it is later.
  void runUntil(SimTime until);
  /// Runs until `done()` is true or no event is pending or `limit` is reached; returns done().
  bool runWhile(const std::function<bool()>& done, SimTime limit = SimTime::max());

  std::size_t pendingEvents() const;
  /// Number of events run so far.
  std::uint64_t eventsRun() const { return eventsRun_; }
  /// Time of the next pending event (SimTime::max() if none).
  SimTime nextEventTime();

  std::mt19937_64& rng() { return rng_; }
  /// Uniform in [0, 1).
  double uniform();

  Trace& trace() { return trace_; }
  bool tracing() const { return trace_.enabled(); }

 private:
  struct Event {
    SimTime at;
    std::uint64_t seq;
    EventTarget* target;  ///< null: run functions_[arg]
    std::uint32_t code;
    std::uint64_t arg;
  };
  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      return a.at != b.at ? a.at > b.at : a.seq > b.seq;
    }
  };
  static constexpr int kLanes = 4, kHeap = -1, kNone = -2;
  void push(const Event& e);
  /// Where the earliest pending event (cancelled or not) waits: a lane, kHeap or kNone.
  int earliest() const;
  const Event& eventAt(int source) const;
  void pop(int source);
  void popCancelled();

  SimTime now_;
  std::uint64_t seed_;
  std::uint64_t nextSeq_ = 1;
  std::uint64_t eventsRun_ = 0;
  // Most events come in time order per source (frame arrivals in each direction, timers, work
  // run now): an event is appended to the first lane whose last event is no later, else it
  // goes to the binary heap. The earliest front of them all runs next, so the order is exactly
  // (time, sequence) as with one heap, at the cost of a few comparisons.
  std::array<std::deque<Event>, kLanes> lanes_;
  std::vector<Event> heap_;
  std::unordered_set<EventId> cancelled_;
  std::unordered_set<EventId> pendingFunctions_;
  std::vector<std::function<void()>> functions_;
  std::vector<std::uint32_t> freeFunctions_;
  std::mt19937_64 rng_;
  Trace trace_;
};

}  // namespace rdmascope::sim
