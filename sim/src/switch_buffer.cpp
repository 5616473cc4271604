#include "rdmascope/sim/switch_buffer.h"

#include <algorithm>

namespace rdmascope::sim {

SwitchBuffer::SwitchBuffer(const SwitchBufferConfig& config, std::vector<std::uint64_t> headroom)
    : config_(config), headroom_(std::move(headroom)) {
  ingress_.resize(headroom_.size() * kPriorities);
  const auto lossless = static_cast<std::uint64_t>(
      std::count(config_.lossless.begin(), config_.lossless.end(), true));
  std::uint64_t reserved = 0;
  for (std::uint64_t h : headroom_)
    reserved += h * lossless + config_.reserve * kPriorities;
  sharedPool_ = config_.bufferBytes > reserved ? config_.bufferBytes - reserved : 0;
}

std::uint64_t SwitchBuffer::xoffThreshold() const {
  if (!config_.pfc.dynamic) return config_.pfc.xoff;
  const std::uint64_t free = sharedPool_ > sharedUsed_ ? sharedPool_ - sharedUsed_ : 0;
  return static_cast<std::uint64_t>(config_.pfc.alpha * static_cast<double>(free));
}

std::uint64_t SwitchBuffer::sharedUse(int port, int prio) const {
  const std::uint64_t b = at(port, prio).bytes;
  return b > config_.reserve ? b - config_.reserve : 0;
}

Admission SwitchBuffer::admit(int port, int prio, std::uint32_t bytes) {
  Ingress& in = at(port, prio);
  const std::uint64_t after = in.bytes + bytes;
  if (after <= config_.reserve) {
    in.bytes = after;
    return Admission::Reserve;
  }
  const std::uint64_t sharedAfter = after - config_.reserve;
  const std::uint64_t fromShared = std::min<std::uint64_t>(bytes, sharedAfter);
  const bool lossless = config_.lossless[static_cast<std::size_t>(prio)];
  const bool fits = sharedUsed_ + fromShared <= sharedPool_;
  // A lossless ingress that sent PAUSE puts what is still in flight into its headroom.
  if (fits && sharedAfter <= xoffThreshold() && !(lossless && in.headroom > 0)) {
    in.bytes = after;
    sharedUsed_ += fromShared;
    return Admission::Shared;
  }
  if (lossless && in.headroom + bytes <= headroom_[static_cast<std::size_t>(port)]) {
    in.headroom += bytes;
    return Admission::Headroom;
  }
  return Admission::Dropped;
}

void SwitchBuffer::release(int port, int prio, std::uint32_t bytes) {
  Ingress& in = at(port, prio);
  const std::uint64_t fromHeadroom = std::min<std::uint64_t>(in.headroom, bytes);
  in.headroom -= fromHeadroom;
  const std::uint64_t rest = bytes - fromHeadroom;
  const std::uint64_t shared = in.bytes > config_.reserve ? in.bytes - config_.reserve : 0;
  sharedUsed_ -= std::min(rest, shared);
  in.bytes -= std::min(rest, in.bytes);
}

bool SwitchBuffer::shouldPause(int port, int prio) const {
  const Ingress& in = at(port, prio);
  if (in.paused || !config_.lossless[static_cast<std::size_t>(prio)]) return false;
  return in.headroom > 0 || sharedUse(port, prio) >= xoffThreshold();
}

bool SwitchBuffer::shouldResume(int port, int prio) const {
  const Ingress& in = at(port, prio);
  if (!in.paused || in.headroom > 0) return false;
  const std::uint64_t used = sharedUse(port, prio);
  return used == 0 || used + config_.pfc.xonOffset <= xoffThreshold();
}

void SwitchBuffer::setPaused(int port, int prio, bool paused) {
  at(port, prio).paused = paused;
}

}  // namespace rdmascope::sim
