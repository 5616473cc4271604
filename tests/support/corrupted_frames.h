#pragma once
/// @file corrupted_frames.h
/// Damaged copies of frames for the tests that hold a fast path to the full one: each frame cut
/// short every 7 bytes and flipped one bit at a time every 13 bits.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rdmascope::test {

inline std::vector<std::vector<std::uint8_t>> corruptedFrames(
    const std::vector<std::vector<std::uint8_t>>& frames) {
  std::vector<std::vector<std::uint8_t>> out;
  for (const auto& f : frames) {
    for (std::size_t cut = 0; cut < f.size(); cut += 7)
      out.emplace_back(f.begin(), f.begin() + static_cast<std::ptrdiff_t>(cut));
    for (std::size_t bit = 0; bit < f.size() * 8; bit += 13) {
      auto g = f;
      g[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
      out.push_back(std::move(g));
    }
  }
  return out;
}

}  // namespace rdmascope::test
