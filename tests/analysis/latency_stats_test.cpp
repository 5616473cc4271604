#include "rdmascope/analysis/latency_stats.h"

#include <gtest/gtest.h>

namespace rdmascope::analysis {
namespace {

TEST(LatencyStats, ExactNearestRankPercentiles) {
  LatencyStats s;
  for (std::uint64_t v = 1; v <= 100; ++v)
    s.add(v * 1000);
  EXPECT_TRUE(s.exact());
  EXPECT_EQ(s.count(), 100u);
  EXPECT_EQ(s.percentile(50), 50000u);
  EXPECT_EQ(s.percentile(99), 99000u);
  EXPECT_EQ(s.percentile(100), 100000u);
  EXPECT_EQ(s.min(), 1000u);
  EXPECT_EQ(s.max(), 100000u);
  EXPECT_DOUBLE_EQ(s.mean(), 50500.0);
}

TEST(LatencyStats, HistogramKeepsMemoryBoundedWithin4Percent) {
  LatencyStats s(256);
  for (std::uint64_t i = 1; i <= 200000; ++i)
    s.add(1000 + (i % 1000) * 10);  // 1..11 us
  EXPECT_FALSE(s.exact());
  EXPECT_LT(s.retainedEntries(), 300u);
  const double p50 = static_cast<double>(s.percentile(50));
  EXPECT_NEAR(p50, 6000.0, 6000.0 * 0.04);
  const double p99 = static_cast<double>(s.percentile(99));
  EXPECT_NEAR(p99, 10900.0, 10900.0 * 0.04);
  EXPECT_EQ(s.max(), 10990u);
}

TEST(LatencyStats, EmptyIsZero) {
  LatencyStats s;
  EXPECT_EQ(s.percentile(50), 0u);
  EXPECT_EQ(s.max(), 0u);
}

}  // namespace
}  // namespace rdmascope::analysis
