#include "report_sink.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rdmascope::analysis {

Anomaly makeAnomaly(AnomalyKind kind, std::uint64_t frame, double time, int direction,
                    std::uint32_t psn, DetailPhrase phrase) {
  Anomaly a;
  a.kind = kind;
  a.frame = frame;
  a.time = time;
  a.direction = direction;
  a.psn = psn;
  a.what.phrase = phrase;
  return a;
}

SeriesBucket& seriesBucket(DirectionStats& s, double origin, double t,
                           const AnalyzerOptions& options) {
  if (s.seriesWidth <= 0) s.seriesWidth = options.seriesWidth > 0 ? options.seriesWidth : 1e-3;
  const double offset = std::max(0.0, t - origin);
  auto index = static_cast<std::size_t>(offset / s.seriesWidth);
  const std::size_t limit = std::max<std::size_t>(options.maxSeriesBuckets, 2);
  while (index >= limit) {
    // Twice as wide: pairs of buckets merge, so the series stays within the limit.
    std::vector<SeriesBucket> merged;
    for (std::size_t i = 0; i < s.series.size(); i += 2) {
      SeriesBucket m = s.series[i];
      m.start = origin + static_cast<double>(i / 2) * s.seriesWidth * 2;
      if (i + 1 < s.series.size()) {
        const SeriesBucket& o = s.series[i + 1];
        m.frames += o.frames;
        m.bytes += o.bytes;
        m.messages += o.messages;
        m.latencyCount += o.latencyCount;
        m.latencySum += o.latencySum;
        m.latencyMax = std::max(m.latencyMax, o.latencyMax);
        m.anomalies += o.anomalies;
      }
      merged.push_back(m);
    }
    s.series = std::move(merged);
    s.seriesWidth *= 2;
    index = static_cast<std::size_t>(offset / s.seriesWidth);
  }
  while (s.series.size() <= index) {
    SeriesBucket b;
    b.start = origin + static_cast<double>(s.series.size()) * s.seriesWidth;
    s.series.push_back(b);
  }
  return s.series[index];
}

void countMessage(DirectionStats& s, double origin, const MessageRecord& r, bool timed,
                  AnalysisSummary& summary, const AnalyzerOptions& options) {
  switch (r.outcome) {
    case Outcome::Completed: {
      ++s.messages;
      ++summary.completedMessages;
      SeriesBucket& b = seriesBucket(s, origin, r.end, options);
      ++b.messages;
      if (!timed) break;
      const double lat = std::max(0.0, r.end - r.start);
      s.latency.add(static_cast<std::uint64_t>(std::llround(lat * 1e9)));
      ++b.latencyCount;
      b.latencySum += lat;
      b.latencyMax = std::max(b.latencyMax, lat);
      break;
    }
    case Outcome::Failed:
      ++s.failedMessages;
      ++summary.failedMessages;
      break;
    case Outcome::Incomplete:
      ++s.incompleteMessages;
      ++summary.incompleteMessages;
      break;
  }
}

}  // namespace rdmascope::analysis
