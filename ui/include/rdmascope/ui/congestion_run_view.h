#pragma once
/// @file congestion_run_view.h
/// A congestion scenario run in the GUI (congestion_run.h), stepped through: controls to step
/// a slice of simulated time or to the next event of a kind, a time slider, the fabric
/// (fabric_topology_view.h) lit by the load at the cursor, and beside it the egress queue
/// depths with the XOFF/XON and Kmin/Kmax lines, each flow's sending rate and the pauses per
/// port and priority, all with a cursor at the current time. The window shows the step's
/// explanation and the frames sent by then (main_window.h).

#include <QWidget>

#include "rdmascope/ui/congestion_run.h"

class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace rdmascope::ui {

class FabricTopologyModel;
class FabricTopologyView;
class PauseRowsPlot;
class TimeSeriesPlot;

class CongestionRunView : public QWidget {
  Q_OBJECT
 public:
  explicit CongestionRunView(QWidget* parent = nullptr);

  /// Runs a scenario file and shows it at time 0; false with a one-line `error`.
  bool open(const QString& path, QString& error);

  CongestionRun* run() const { return run_; }
  FabricTopologyModel* topology() const { return topology_; }
  FabricTopologyView* fabricView() const { return fabricView_; }
  TimeSeriesPlot* queuePlot() const { return queues_; }
  TimeSeriesPlot* ratePlot() const { return rates_; }
  PauseRowsPlot* pausePlot() const { return pauses_; }
  /// What "next event" looks for (the combo box's choice).
  CongestionStepTarget target() const;
  void setTarget(CongestionStepTarget target);

  bool stepForward() { return run_->stepForward(); }
  bool stepBack() { return run_->stepBack(); }
  bool nextEvent() { return run_->nextEvent(target()); }
  bool previousEvent() { return run_->previousEvent(target()); }

 Q_SIGNALS:
  /// The cursor moved: the window updates the explanation, the packets and the ladder.
  void stepped();

 private:
  void rebuildPlots();
  void follow();

  CongestionRun* run_;
  FabricTopologyModel* topology_;
  FabricTopologyView* fabricView_;
  TimeSeriesPlot* queues_;
  TimeSeriesPlot* rates_;
  PauseRowsPlot* pauses_;
  QComboBox* targetBox_;
  QSlider* slider_;
  QLabel* timeLabel_;
};

}  // namespace rdmascope::ui
