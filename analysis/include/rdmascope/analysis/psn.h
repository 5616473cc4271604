#pragma once
/// @file psn.h
/// 24-bit Packet Sequence Number arithmetic and a bounded record of recently seen PSNs.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rdmascope::analysis {

inline constexpr std::uint32_t kPsnMask = 0xffffff;

/// PSN a + n, wrapped to 24 bits.
constexpr std::uint32_t psnAdd(std::uint32_t a, std::int64_t n) {
  return static_cast<std::uint32_t>((static_cast<std::int64_t>(a) + n) & kPsnMask);
}

/// Signed distance a - b on the 24-bit circle, in [-2^23, 2^23): positive when a is after b.
constexpr std::int32_t psnDiff(std::uint32_t a, std::uint32_t b) {
  const std::uint32_t d = (a - b) & kPsnMask;
  return d >= 0x800000 ? static_cast<std::int32_t>(d) - 0x1000000 : static_cast<std::int32_t>(d);
}

/// The set of PSNs seen within a sliding window behind the highest PSN seen. PSNs further
/// behind than the window are forgotten (they read as unseen), so memory is fixed by the
/// window size whatever the length of the capture, and the 24-bit wrap is handled.
class PsnWindow {
 public:
  /// @param windowBits how many PSNs behind the highest are remembered (rounded up to 64).
  explicit PsnWindow(std::uint32_t windowBits = 16384);

  /// True when the PSN was inserted and is still inside the window.
  bool contains(std::uint32_t psn) const;
  /// Records the PSN; returns true when it was already present.
  bool insert(std::uint32_t psn);
  /// True once a PSN was inserted.
  bool empty() const { return !started_; }
  /// The highest PSN inserted (meaningful when not empty).
  std::uint32_t highest() const { return highest_; }
  /// Bits of memory the window holds (fixed).
  std::size_t capacity() const { return bits_.size() * 64; }

 private:
  bool test(std::uint32_t psn) const;
  void set(std::uint32_t psn, bool on);

  std::vector<std::uint64_t> bits_;
  std::uint32_t highest_ = 0;
  bool started_ = false;
};

}  // namespace rdmascope::analysis
