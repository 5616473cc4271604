#pragma once
// perftest's reports: the bandwidth line of ib_*_bw and the latency line of ib_*_lat, computed
// from per-iteration timestamps the way perftest computes them.

#include <cstdint>
#include <string>
#include <vector>

namespace rdmascope::cli {

/// ib_*_bw: `posted[i]` and `completed[i]` are the times (microseconds) WR i was posted and
/// its completion was seen. Peak is perftest's best run of consecutive WRs, average covers all;
/// MB = 2^20 bytes as in perftest.
struct BandwidthReport {
  std::uint64_t bytes = 0, iterations = 0;
  double peakMBps = 0, averageMBps = 0, msgRateMpps = 0;
};
BandwidthReport bandwidthReport(std::uint64_t bytes, const std::vector<double>& postedUs,
                                const std::vector<double>& completedUs);

/// ib_*_lat: one latency per iteration (microseconds; half the round trip for WRITE and SEND).
struct LatencyReport {
  std::uint64_t bytes = 0, iterations = 0;
  double min = 0, max = 0, typical = 0, average = 0, stdev = 0, p99 = 0, p999 = 0;
};
LatencyReport latencyReport(std::uint64_t bytes, std::vector<double> latenciesUs);

std::string bandwidthHeader();
std::string formatBandwidth(const BandwidthReport& r);
std::string latencyHeader();
std::string formatLatency(const LatencyReport& r);

}  // namespace rdmascope::cli
