#pragma once
/// @file latency_stats.h
/// Bounded-memory latency statistics: exact percentiles while few samples exist, then a
/// log-linear histogram (32 sub-buckets per power of two, about 3% relative error), so a
/// connection's memory never grows with the number of messages.

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace rdmascope::analysis {

class LatencyStats {
 public:
  /// @param exactLimit samples kept exactly before switching to the histogram.
  explicit LatencyStats(std::size_t exactLimit = 4096) : exactLimit_(exactLimit) {}

  void add(std::uint64_t nanoseconds);
  std::uint64_t count() const { return count_; }
  std::uint64_t min() const { return count_ ? min_ : 0; }
  std::uint64_t max() const { return max_; }
  double mean() const {
    return count_ ? static_cast<double>(sum_) / static_cast<double>(count_) : 0;
  }
  /// Nearest-rank percentile (0 < p <= 100); exact while the sample count is within the exact
  /// limit, otherwise the histogram bucket's midpoint clamped to [min, max]. 0 when empty.
  std::uint64_t percentile(double p) const;
  /// True while percentiles are exact.
  bool exact() const { return histogram_.empty(); }
  /// Entries retained (samples plus histogram buckets): bounded by exactLimit + buckets.
  std::size_t retainedEntries() const { return samples_.size() + histogram_.size(); }
  /// Merges another's samples (used for the totals of several connections).
  void merge(const LatencyStats& other);

 private:
  static std::uint32_t bucketOf(std::uint64_t v);
  static std::uint64_t bucketLow(std::uint32_t b);
  void spill();

  std::size_t exactLimit_;
  mutable std::vector<std::uint64_t> samples_;
  mutable bool sorted_ = true;
  std::map<std::uint32_t, std::uint64_t> histogram_;
  std::uint64_t count_ = 0, sum_ = 0, min_ = 0, max_ = 0;
};

}  // namespace rdmascope::analysis
