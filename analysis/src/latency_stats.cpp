#include "rdmascope/analysis/latency_stats.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace rdmascope::analysis {

namespace {
constexpr std::uint32_t kSubBits = 5;  // 32 sub-buckets per power of two
}

std::uint32_t LatencyStats::bucketOf(std::uint64_t v) {
  if (v < (1U << kSubBits)) return static_cast<std::uint32_t>(v);
  const auto exp = static_cast<std::uint32_t>(63 - std::countl_zero(v));
  const auto sub = static_cast<std::uint32_t>((v >> (exp - kSubBits)) & ((1U << kSubBits) - 1));
  return ((exp - kSubBits + 1) << kSubBits) | sub;
}

std::uint64_t LatencyStats::bucketLow(std::uint32_t b) {
  if (b < (1U << kSubBits)) return b;
  const std::uint32_t exp = (b >> kSubBits) + kSubBits - 1;
  const std::uint64_t sub = b & ((1U << kSubBits) - 1);
  return (std::uint64_t{1} << exp) | (sub << (exp - kSubBits));
}

void LatencyStats::spill() {
  for (std::uint64_t v : samples_)
    ++histogram_[bucketOf(v)];
  samples_.clear();
  samples_.shrink_to_fit();
}

void LatencyStats::add(std::uint64_t v) {
  min_ = count_ ? std::min(min_, v) : v;
  max_ = std::max(max_, v);
  ++count_;
  sum_ += v;
  if (histogram_.empty() && samples_.size() < exactLimit_) {
    samples_.push_back(v);
    sorted_ = false;
    return;
  }
  if (!samples_.empty()) spill();
  ++histogram_[bucketOf(v)];
}

void LatencyStats::merge(const LatencyStats& other) {
  if (other.count_ == 0) return;
  if (!other.histogram_.empty()) {
    spill();
    for (const auto& [b, n] : other.histogram_)
      histogram_[b] += n;
  } else {
    for (std::uint64_t v : other.samples_) {
      if (histogram_.empty() && samples_.size() < exactLimit_) {
        samples_.push_back(v);
      } else {
        if (!samples_.empty()) spill();
        ++histogram_[bucketOf(v)];
      }
    }
    sorted_ = false;
  }
  min_ = count_ ? std::min(min_, other.min_) : other.min_;
  max_ = std::max(max_, other.max_);
  count_ += other.count_;
  sum_ += other.sum_;
}

std::uint64_t LatencyStats::percentile(double p) const {
  if (count_ == 0) return 0;
  const double clamped = std::clamp(p, 0.0, 100.0);
  auto rank = static_cast<std::uint64_t>(std::ceil(clamped / 100.0 * static_cast<double>(count_)));
  rank = std::clamp<std::uint64_t>(rank, 1, count_);
  if (histogram_.empty()) {
    if (!sorted_) {
      std::sort(samples_.begin(), samples_.end());
      sorted_ = true;
    }
    return samples_[rank - 1];
  }
  std::uint64_t seen = 0;
  for (const auto& [b, n] : histogram_) {
    seen += n;
    if (seen >= rank) {
      const std::uint64_t low = bucketLow(b);
      const std::uint64_t high = bucketLow(b + 1);
      return std::clamp<std::uint64_t>(low + (high - low) / 2, min_, max_);
    }
  }
  return max_;
}

}  // namespace rdmascope::analysis
