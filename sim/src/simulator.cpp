#include "rdmascope/sim/simulator.h"

#include <algorithm>

namespace rdmascope::sim {

Simulator::Simulator(std::uint64_t seed) : seed_(seed), rng_(seed) {}

EventId Simulator::schedule(SimTime delay, std::function<void()> fn) {
  std::uint32_t slot;
  if (!freeFunctions_.empty()) {
    slot = freeFunctions_.back();
    freeFunctions_.pop_back();
    functions_[slot] = std::move(fn);
  } else {
    slot = static_cast<std::uint32_t>(functions_.size());
    functions_.push_back(std::move(fn));
  }
  const EventId id = nextSeq_++;
  heap_.push_back(Event{now_ + delay, id, nullptr, 0, slot});
  std::push_heap(heap_.begin(), heap_.end(), Later{});
  pendingFunctions_.insert(id);
  return id;
}

EventId Simulator::schedule(SimTime delay, EventTarget* target, std::uint32_t code,
                            std::uint64_t arg) {
  const EventId id = nextSeq_++;
  heap_.push_back(Event{now_ + delay, id, target, code, arg});
  std::push_heap(heap_.begin(), heap_.end(), Later{});
  return id;
}

bool Simulator::cancel(EventId id) {
  if (pendingFunctions_.erase(id) == 0) return false;
  cancelled_.insert(id);
  return true;
}

void Simulator::popCancelled() {
  while (!heap_.empty() && !heap_.front().target && cancelled_.count(heap_.front().seq)) {
    cancelled_.erase(heap_.front().seq);
    const auto slot = static_cast<std::uint32_t>(heap_.front().arg);
    functions_[slot] = nullptr;
    freeFunctions_.push_back(slot);
    std::pop_heap(heap_.begin(), heap_.end(), Later{});
    heap_.pop_back();
  }
}

SimTime Simulator::nextEventTime() {
  popCancelled();
  return heap_.empty() ? SimTime::max() : heap_.front().at;
}

bool Simulator::step() {
  popCancelled();
  if (heap_.empty()) return false;
  std::pop_heap(heap_.begin(), heap_.end(), Later{});
  const Event e = heap_.back();
  heap_.pop_back();
  now_ = e.at;
  ++eventsRun_;
  if (e.target) {
    e.target->onEvent(e.code, e.arg);
  } else {
    pendingFunctions_.erase(e.seq);
    const auto slot = static_cast<std::uint32_t>(e.arg);
    std::function<void()> fn = std::move(functions_[slot]);
    functions_[slot] = nullptr;
    freeFunctions_.push_back(slot);
    fn();
  }
  return true;
}

void Simulator::run() {
  while (step()) {
  }
}

void Simulator::runUntil(SimTime until) {
  while (nextEventTime() <= until)
    step();
  if (now_ < until) now_ = until;
}

bool Simulator::runWhile(const std::function<bool()>& done, SimTime limit) {
  while (!done()) {
    if (nextEventTime() > limit) return done();
    step();
  }
  return true;
}

std::size_t Simulator::pendingEvents() const {
  return heap_.size() - cancelled_.size();
}

double Simulator::uniform() {
  return static_cast<double>(rng_() >> 11) * (1.0 / 9007199254740992.0);
}

}  // namespace rdmascope::sim
