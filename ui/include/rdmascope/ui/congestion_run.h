#pragma once
/// @file congestion_run.h
/// A congestion scenario (examples/congestion/*.json, sim/topology.h) run in the GUI: the
/// switched fabric runs once to its end, keeping its typed events (sim/fabric_events.h), the
/// frames of its captured ports and its sampled time series; then a time cursor steps through
/// the recorded run, in fixed slices of simulated time (the scenario's sample interval) or to
/// the next notable event (an XOFF, the first ECN mark of a queue, the first CNP and the first
/// rate cut of a flow, an XON, a drop, a deadlock). The views (congestion_run_view.h) follow the
/// cursor. No widget here: tests drive it directly.

#include <QObject>
#include <QString>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "rdmascope/sim/fabric.h"
#include "rdmascope/sim/fabric_events.h"
#include "rdmascope/sim/topology.h"

namespace rdmascope::ui {

class FrameStore;

/// What "next event" looks for.
enum class CongestionStepTarget {
  Notable,  ///< any notable event (see congestion_run.h)
  Xoff,
  EcnMark,
  Cnp,
  RateCut,
  Xon,
  Drop,
};

class CongestionRun : public QObject {
  Q_OBJECT
 public:
  explicit CongestionRun(QObject* parent = nullptr);
  ~CongestionRun() override;

  /// Reads and runs a scenario file; false with a one-line `error` (naming the file) when it
  /// cannot be read or run. The cursor starts at time 0.
  bool load(const QString& path, QString& error);
  /// Runs a scenario already read (`path` only names it).
  bool run(const sim::ScenarioSpec& spec, const QString& path, QString& error);
  bool loaded() const { return static_cast<bool>(fabric_); }
  QString path() const { return path_; }

  const sim::ScenarioSpec& spec() const { return spec_; }
  const sim::Fabric& fabric() const { return *fabric_; }
  const sim::FabricSeries& series() const { return series_; }
  const std::vector<sim::FabricPortInfo>& ports() const { return ports_; }
  const std::vector<sim::PauseInterval>& pauses() const { return pauses_; }
  const std::vector<sim::FabricEvent>& events() const { return events_; }
  /// Whether event `i` is notable (what CongestionStepTarget::Notable visits).
  bool notable(std::size_t i) const { return notable_[i]; }
  /// The frames of the captured ports, in the order sent.
  struct Frame {
    sim::SimTime time;
    int port = 0;  ///< index into ports(): the sending port
    std::vector<std::uint8_t> bytes;
  };
  const std::vector<Frame>& frames() const { return frames_; }
  /// Fills `store` with frames() (times from 0 ns).
  void fillStore(FrameStore& store) const;

  // --- the cursor ---------------------------------------------------------------------
  sim::SimTime time() const { return time_; }
  sim::SimTime duration() const { return spec_.duration; }
  sim::SimTime slice() const { return spec_.sampleInterval; }
  /// The number of slices (the last one ends at the duration).
  int sliceCount() const;
  /// The slice the cursor is in or at the end of (0 at time 0).
  int sliceIndex() const;
  /// The event the cursor stands on (after a next-event step), or -1 (a slice step).
  int currentEvent() const { return current_; }
  /// The sample (index into series().times) holding the cursor's time, or -1 before the first.
  int sampleIndex() const;
  /// Frames sent up to the cursor's time.
  std::size_t framesUpTo() const;

  /// Moves to the end of the next slice; false at the end.
  bool stepForward();
  /// Moves to the end of the previous slice (to 0 from the first); false at time 0.
  bool stepBack();
  /// Moves to the first event of `target` after the cursor; false when there is none.
  bool nextEvent(CongestionStepTarget target = CongestionStepTarget::Notable);
  /// Moves to the last event of `target` before the cursor; false when there is none.
  bool previousEvent(CongestionStepTarget target = CongestionStepTarget::Notable);
  /// Moves to a time (clamped to the run), standing on no event.
  void setTime(sim::SimTime t);
  /// Moves to slice `n` (its end; 0: time 0).
  void goToSlice(int n);

  /// Whether event `i` is one of `target`.
  bool matches(std::size_t i, CongestionStepTarget target) const;

  /// The title and one-line explanation of the cursor's step (congestion_step_text.h).
  QString stepTitle() const;
  QString stepExplanation() const;

  /// The depth of an egress queue (series().queues index) at the cursor's sample.
  std::uint64_t queueBytesNow(std::size_t queue) const;
  /// A switch's XOFF threshold at the cursor's sample (0 before the first sample).
  std::uint64_t xoffNow(const std::string& switchName) const;
  /// Whether `port`'s `priority` is paused at the cursor's time.
  bool pausedNow(const std::string& port, int priority) const;

 Q_SIGNALS:
  /// The cursor moved (or a run was loaded).
  void timeChanged();

 private:
  void moveTo(sim::SimTime t, int event);

  QString path_;
  sim::ScenarioSpec spec_;
  std::unique_ptr<sim::Fabric> fabric_;
  sim::FabricSeries series_;
  std::vector<sim::FabricPortInfo> ports_;
  std::vector<sim::PauseInterval> pauses_;
  std::vector<sim::FabricEvent> events_;
  std::vector<bool> notable_;
  std::vector<Frame> frames_;
  sim::SimTime time_;
  int current_ = -1;
  /// The slice of the previous slice step (its explanation counts the events in it).
  sim::SimTime sliceStart_;
};

}  // namespace rdmascope::ui
