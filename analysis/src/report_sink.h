#pragma once
// What the RoCE/IB and the iWARP analyses share: the capture-wide summary, the kept anomalies
// and messages with their observers, connection numbering, and the time series of a direction.

#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>

#include "rdmascope/analysis/flow_analyzer.h"

namespace rdmascope::analysis {

class ReportSink {
 public:
  virtual ~ReportSink() = default;
  virtual const AnalyzerOptions& analyzerOptions() const = 0;
  virtual AnalysisSummary& totals() = 0;
  /// The next connection id (ids number connections of every carrier in creation order).
  virtual int newConnectionId() = 0;
  /// Calls the observer and keeps the anomaly (up to maxAnomalies).
  virtual void anomaly(Anomaly a) = 0;
  /// Calls the observer and keeps the message (up to maxMessages).
  virtual void message(const MessageRecord& m) = 0;
  /// Calls the observer of TCP segments.
  virtual void tcpSegment(const TcpSegmentEnds& segment) = 0;
};

/// The name of an enum value from a table in enum order ("?" beyond it).
template <std::size_t N, class Enum>
constexpr std::string_view nameOf(const std::string_view (&names)[N], Enum value) {
  const auto i = static_cast<std::size_t>(value);
  return i < N ? names[i] : std::string_view("?");
}

/// An anomaly found at a frame, its detail the phrase (the sink renders the English detail).
Anomaly makeAnomaly(AnomalyKind kind, std::uint64_t frame, double time, int direction,
                    std::uint32_t psn, DetailPhrase phrase = DetailPhrase::None);

/// The series bucket of time t for a direction whose series starts at `origin`; the buckets
/// double in width (pairs merge) to stay within options.maxSeriesBuckets.
SeriesBucket& seriesBucket(DirectionStats& s, double origin, double t,
                           const AnalyzerOptions& options);

/// Counts a completed, failed or incomplete message in a direction's statistics, latency and
/// series (latency only when `timed`).
void countMessage(DirectionStats& s, double origin, const MessageRecord& r, bool timed,
                  AnalysisSummary& summary, const AnalyzerOptions& options);

}  // namespace rdmascope::analysis
