#pragma once
/// @file congestion_plots.h
/// The plots of a congestion run (congestion_run_view.h), each over the run's simulated time
/// with a cursor line at the current step: a time series plot (lines of values per sample, with
/// threshold lines such as XOFF/XON and Kmin/Kmax) for queue depths and flow rates, and the
/// run's pause timeline (a row per paused port and priority, a bar per pause).

#include <QColor>
#include <QString>
#include <QWidget>
#include <vector>

namespace rdmascope::ui {

/// Lines over the sample times; values in the plot's unit.
class TimeSeriesPlot : public QWidget {
  Q_OBJECT
 public:
  struct Line {
    QString name;
    QColor colour;
    std::vector<double> values;  ///< one per sample time
    bool dashed = false;         ///< a threshold that moves (e.g. a dynamic XOFF)
  };
  struct Threshold {
    QString name;
    QColor colour;
    double value = 0;
  };
  explicit TimeSeriesPlot(const QString& title, const QString& unit, QWidget* parent = nullptr);
  void setData(std::vector<double> timesUs, std::vector<Line> lines,
               std::vector<Threshold> thresholds, double durationUs);
  void setCursor(double us);
  void setTitle(const QString& title);
  /// The top of the value axis; 0: from the values (lines above it are cut at the top).
  void setCeiling(double top);
  const std::vector<Line>& lines() const { return lines_; }
  const std::vector<Threshold>& thresholds() const { return thresholds_; }

  QSize sizeHint() const override { return {420, 170}; }
  QSize minimumSizeHint() const override { return {200, 90}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  QString title_, unit_;
  std::vector<double> times_;
  std::vector<Line> lines_;
  std::vector<Threshold> thresholds_;
  double duration_ = 1;
  double cursor_ = 0;
  double ceiling_ = 0;
};

/// Pauses from the simulator: a row per (paused port, priority), a bar per pause.
class PauseRowsPlot : public QWidget {
  Q_OBJECT
 public:
  struct Row {
    QString label;                                ///< "sp0:1 P3"
    std::vector<std::pair<double, double>> bars;  ///< [start, end) in microseconds
  };
  explicit PauseRowsPlot(QWidget* parent = nullptr);
  void setRows(std::vector<Row> rows, double durationUs);
  void setCursor(double us);
  const std::vector<Row>& rows() const { return rows_; }

  QSize sizeHint() const override { return {420, 120}; }
  QSize minimumSizeHint() const override { return {200, 60}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  std::vector<Row> rows_;
  double duration_ = 1;
  double cursor_ = 0;
};

}  // namespace rdmascope::ui
