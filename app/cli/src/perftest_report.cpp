#include "perftest_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace rdmascope::cli {

BandwidthReport bandwidthReport(std::uint64_t bytes, const std::vector<double>& posted,
                                const std::vector<double>& completed) {
  BandwidthReport r;
  r.bytes = bytes;
  const std::size_t n = std::min(posted.size(), completed.size());
  r.iterations = n;
  if (n == 0) return r;
  constexpr double kMB = 1024.0 * 1024.0;
  // perftest's peak: the smallest mean time per WR over any run of consecutive WRs i..j.
  double best = std::numeric_limits<double>::max();
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i; j < n; ++j) {
      best = std::min(best, (completed[j] - posted[i]) / static_cast<double>(j - i + 1));
    }
  }
  const double total = completed[n - 1] - posted[0];
  if (best > 0) r.peakMBps = static_cast<double>(bytes) / best * 1e6 / kMB;
  if (total > 0) {
    r.averageMBps = static_cast<double>(bytes) * static_cast<double>(n) / total * 1e6 / kMB;
    r.msgRateMpps = static_cast<double>(n) / total;
  }
  return r;
}

LatencyReport latencyReport(std::uint64_t bytes, std::vector<double> t) {
  LatencyReport r;
  r.bytes = bytes;
  r.iterations = t.size();
  if (t.empty()) return r;
  std::sort(t.begin(), t.end());
  const double n = static_cast<double>(t.size());
  r.min = t.front();
  r.max = t.back();
  r.typical = t[t.size() / 2];
  double sum = 0;
  for (double v : t)
    sum += v;
  r.average = sum / n;
  double var = 0;
  for (double v : t)
    var += (v - r.average) * (v - r.average);
  r.stdev = std::sqrt(var / n);
  auto pct = [&](double p) {
    const auto k = static_cast<std::size_t>(std::ceil(p * n));
    return t[std::min(t.size() - 1, k == 0 ? 0 : k - 1)];
  };
  r.p99 = pct(0.99);
  r.p999 = pct(0.999);
  return r;
}

std::string bandwidthHeader() {
  return " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]";
}

std::string formatBandwidth(const BandwidthReport& r) {
  char line[160];
  std::snprintf(line, sizeof line, " %-7llu    %-10llu       %-7.2f            %-7.2f\t\t   %-7.6f",
                static_cast<unsigned long long>(r.bytes),
                static_cast<unsigned long long>(r.iterations), r.peakMBps, r.averageMBps,
                r.msgRateMpps);
  return line;
}

std::string latencyHeader() {
  return " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    "
         "t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec]";
}

std::string formatLatency(const LatencyReport& r) {
  char line[200];
  std::snprintf(
      line, sizeof line,
      " %-7llu %-10llu      %-7.2f        %-7.2f      %-7.2f     \t%-7.2f     \t%-7.2f\t\t"
      "%-7.2f   \t\t%-7.2f",
      static_cast<unsigned long long>(r.bytes), static_cast<unsigned long long>(r.iterations),
      r.min, r.max, r.typical, r.average, r.stdev, r.p99, r.p999);
  return line;
}

}  // namespace rdmascope::cli
