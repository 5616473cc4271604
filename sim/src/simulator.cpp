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
  push(Event{now_ + delay, id, nullptr, 0, slot});
  pendingFunctions_.insert(id);
  return id;
}

EventId Simulator::schedule(SimTime delay, EventTarget* target, std::uint32_t code,
                            std::uint64_t arg) {
  const EventId id = nextSeq_++;
  push(Event{now_ + delay, id, target, code, arg});
  return id;
}

void Simulator::push(const Event& e) {
  // Sequence numbers only grow, so an event no earlier than the last of a lane is that lane's
  // latest: lanes stay sorted without any work.
  for (std::deque<Event>& lane : lanes_) {
    if (lane.empty() || e.at >= lane.back().at) {
      lane.push_back(e);
      return;
    }
  }
  heap_.push_back(e);
  std::push_heap(heap_.begin(), heap_.end(), Later{});
}

int Simulator::earliest() const {
  int best = heap_.empty() ? kNone : kHeap;
  const Event* bestEvent = heap_.empty() ? nullptr : &heap_.front();
  for (int i = 0; i < kLanes; ++i) {
    const std::deque<Event>& lane = lanes_[static_cast<std::size_t>(i)];
    if (!lane.empty() && (!bestEvent || Later{}(*bestEvent, lane.front()))) {
      best = i;
      bestEvent = &lane.front();
    }
  }
  return best;
}

const Simulator::Event& Simulator::eventAt(int source) const {
  return source == kHeap ? heap_.front() : lanes_[static_cast<std::size_t>(source)].front();
}

void Simulator::pop(int source) {
  if (source == kHeap) {
    std::pop_heap(heap_.begin(), heap_.end(), Later{});
    heap_.pop_back();
  } else {
    lanes_[static_cast<std::size_t>(source)].pop_front();
  }
}

bool Simulator::cancel(EventId id) {
  if (pendingFunctions_.erase(id) == 0) return false;
  cancelled_.insert(id);
  return true;
}

void Simulator::popCancelled() {
  if (cancelled_.empty()) return;
  for (int src = earliest(); src != kNone; src = earliest()) {
    const Event& e = eventAt(src);
    if (e.target || !cancelled_.count(e.seq)) return;
    cancelled_.erase(e.seq);
    const auto slot = static_cast<std::uint32_t>(e.arg);
    functions_[slot] = nullptr;
    freeFunctions_.push_back(slot);
    pop(src);
  }
}

SimTime Simulator::nextEventTime() {
  popCancelled();
  const int src = earliest();
  return src == kNone ? SimTime::max() : eventAt(src).at;
}

bool Simulator::step() {
  popCancelled();
  const int src = earliest();
  if (src == kNone) return false;
  const Event e = eventAt(src);
  pop(src);
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
  std::size_t n = heap_.size();
  for (const std::deque<Event>& lane : lanes_)
    n += lane.size();
  return n - cancelled_.size();
}

double Simulator::uniform() {
  return static_cast<double>(rng_() >> 11) * (1.0 / 9007199254740992.0);
}

}  // namespace rdmascope::sim
