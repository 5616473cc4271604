#pragma once
/// @file analysis_plot.h
/// Throughput and latency of one connection over time: payload bytes per second of each
/// direction (DirectionStats::series), each message's latency (the report's message records)
/// with the per-bucket mean, and the connection's anomalies as markers on the time axis.
/// Clicking a marker selects its frame.

#include <QWidget>
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "rdmascope/ui/capture_analysis.h"

namespace rdmascope::ui {

/// Payload throughput of one connection over time, per direction the bytes travel (a READ's
/// response data counts for the responder that sends it, not the requester that asked), in
/// equal bins whose width follows the connection's timescale: about the square root of the
/// number of data frames bins over its duration, each 1, 2 or 5 times a power of ten seconds.
struct ThroughputSeries {
  double start = 0.0;     ///< seconds: the first bin's start (the connection's first frame)
  double binWidth = 0.0;  ///< seconds per bin
  std::array<std::vector<std::uint64_t>, 2> bytes;  ///< [0] sent by endpoint a, [1] by b
  /// Bytes per second of bin `bin` of direction `dir`.
  double rate(int dir, std::size_t bin) const {
    return binWidth > 0 ? static_cast<double>(bytes[static_cast<std::size_t>(dir)][bin]) / binWidth
                        : 0.0;
  }
};

/// The series of connection row `row` (RoCE and InfiniBand: from its frames; iWARP: the
/// analyzer's own per-direction series).
ThroughputSeries throughputSeries(const CaptureAnalysis& analysis, std::size_t row);

class AnalysisPlot : public QWidget {
  Q_OBJECT
 public:
  explicit AnalysisPlot(QWidget* parent = nullptr);

  void setAnalysis(std::shared_ptr<const CaptureAnalysis> analysis);
  /// Plots the connection with ConnectionReport::id `id` (-1: none).
  void setConnection(int id);
  int connection() const { return connection_; }

  /// Markers on the time axis (one per anomaly of the connection).
  int markerCount() const { return static_cast<int>(markers_.size()); }
  /// The centre of a marker, in widget coordinates.
  QPoint markerPoint(int marker) const;
  /// The marker at a point, or -1.
  int markerAt(const QPoint& pos) const;
  /// The 0-based store frame of a marker's anomaly.
  qint64 markerFrame(int marker) const;
  /// Latency points drawn (messages of the connection with an end).
  int latencyPointCount() const { return static_cast<int>(latencies_.size()); }
  /// The throughput drawn.
  const ThroughputSeries& throughput() const { return throughput_; }

  QSize sizeHint() const override { return {640, 420}; }
  QSize minimumSizeHint() const override { return {320, 240}; }

 Q_SIGNALS:
  void frameClicked(qint64 frame);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;

 private:
  struct Layout {
    QRectF throughput, latency, markers;
  };
  Layout layout() const;
  double xOf(double time, const QRectF& area) const;

  std::shared_ptr<const CaptureAnalysis> analysis_;
  int connection_ = -1;
  int row_ = -1;
  double t0_ = 0.0, t1_ = 0.0;
  std::vector<std::size_t> markers_;                  // anomaly indexes
  std::vector<std::pair<double, double>> latencies_;  // (completion time, seconds)
  ThroughputSeries throughput_;
};

}  // namespace rdmascope::ui
