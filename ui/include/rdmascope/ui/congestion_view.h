#pragma once
/// @file congestion_view.h
/// The Congestion page of a capture's analysis: what kept the fabric lossless and what it
/// cost. A pause timeline (one row per sending port and priority, a bar per pause), the PFC
/// statistics per port and priority, and every CNP with the ECN-marked packets it answers.
/// Clicking a bar or a row asks for its frame.

#include <QAbstractTableModel>
#include <QWidget>
#include <memory>

#include "rdmascope/ui/capture_analysis.h"

class QLabel;
class QTableView;

namespace rdmascope::ui {

/// PFC/PAUSE statistics, one row per sending port and priority.
class PauseStatsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Port, Priority, Frames, Xoff, Xon, Paused, Longest, Storms, ColumnCount };
  explicit PauseStatsModel(QObject* parent = nullptr);
  void setAnalysis(std::shared_ptr<const CaptureAnalysis> analysis);
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation o, int role) const override;
  /// The first pause frame of a row, or -1.
  qint64 frameAt(int row) const;

 private:
  std::shared_ptr<const CaptureAnalysis> analysis_;
};

/// Each CNP with the CE-marked packets of its flow that caused it.
class CnpMatchModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Frame, Time, Connection, DestQp, Marked, MarkedFrames, Reaction, ColumnCount };
  explicit CnpMatchModel(QObject* parent = nullptr);
  void setAnalysis(std::shared_ptr<const CaptureAnalysis> analysis);
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation o, int role) const override;
  qint64 frameAt(int row) const;

 private:
  std::shared_ptr<const CaptureAnalysis> analysis_;
};

/// Pauses over time: a row per (port, priority) as in PauseStatsModel, a bar from each
/// pause's start to its end on the capture's time axis.
class PauseTimeline : public QWidget {
  Q_OBJECT
 public:
  explicit PauseTimeline(QWidget* parent = nullptr);
  void setAnalysis(std::shared_ptr<const CaptureAnalysis> analysis);
  QSize sizeHint() const override;
  /// The pause under a point (its first frame), or -1: what a click selects.
  qint64 frameAt(QPoint p) const;

 Q_SIGNALS:
  void frameClicked(qint64 frame);

 protected:
  void paintEvent(QPaintEvent*) override;
  void mousePressEvent(QMouseEvent* e) override;

 private:
  struct Layout {
    QRect plot;
    double t0 = 0.0, t1 = 1.0;
    int rowHeight = 0;
  };
  Layout layout() const;
  int rowOf(const std::string& port, int priority) const;
  std::shared_ptr<const CaptureAnalysis> analysis_;
};

/// The page: a summary line, the timeline, and the two tables side by side.
class CongestionView : public QWidget {
  Q_OBJECT
 public:
  explicit CongestionView(QWidget* parent = nullptr);
  void setAnalysis(std::shared_ptr<const CaptureAnalysis> analysis);
  PauseTimeline* timeline() const { return timeline_; }
  PauseStatsModel* pauseModel() const { return pauses_; }
  CnpMatchModel* cnpModel() const { return cnps_; }
  QString summaryText() const;

 Q_SIGNALS:
  void frameActivated(qint64 frame);

 private:
  QLabel* summary_;
  PauseTimeline* timeline_;
  PauseStatsModel* pauses_;
  CnpMatchModel* cnps_;
  QTableView* pauseView_;
  QTableView* cnpView_;
};

}  // namespace rdmascope::ui
