#pragma once
/// @file analysis_plot.h
/// Throughput and latency of one connection over time: payload bytes per second of each
/// direction (DirectionStats::series), each message's latency (the report's message records)
/// with the per-bucket mean, and the connection's anomalies as markers on the time axis.
/// Clicking a marker selects its frame.

#include <QWidget>
#include <memory>
#include <vector>

#include "rdmascope/ui/capture_analysis.h"

namespace rdmascope::ui {

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
};

}  // namespace rdmascope::ui
