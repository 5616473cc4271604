#pragma once
/// @file sim_time.h
/// Simulated time: an integer count of picoseconds (no wall clock anywhere in the simulator).

#include <compare>
#include <cstdint>
#include <string>

namespace rdmascope::sim {

/// A point in, or a span of, simulated time with picosecond resolution.
class SimTime {
 public:
  constexpr SimTime() = default;
  static constexpr SimTime ps(std::int64_t v) { return SimTime(v); }
  static constexpr SimTime ns(std::int64_t v) { return SimTime(v * 1000); }
  static constexpr SimTime us(std::int64_t v) { return SimTime(v * 1000 * 1000); }
  static constexpr SimTime ms(std::int64_t v) { return SimTime(v * 1000 * 1000 * 1000); }
  static constexpr SimTime max() { return SimTime(INT64_MAX); }

  constexpr std::int64_t picos() const { return ps_; }
  constexpr double seconds() const { return static_cast<double>(ps_) * 1e-12; }
  constexpr double micros() const { return static_cast<double>(ps_) * 1e-6; }

  constexpr SimTime operator+(SimTime o) const { return SimTime(ps_ + o.ps_); }
  constexpr SimTime operator-(SimTime o) const { return SimTime(ps_ - o.ps_); }
  constexpr SimTime& operator+=(SimTime o) {
    ps_ += o.ps_;
    return *this;
  }
  constexpr SimTime operator*(std::int64_t k) const { return SimTime(ps_ * k); }
  constexpr auto operator<=>(const SimTime&) const = default;

  /// "12.345678 us" style text with microsecond units (what the trace prints).
  std::string toString() const;

 private:
  constexpr explicit SimTime(std::int64_t v) : ps_(v) {}
  std::int64_t ps_ = 0;
};

}  // namespace rdmascope::sim
