#pragma once
/// @file host_state_models.h
/// Table models over one host's snapshot of a scenario recording: its QPs, a QP's send or
/// receive queue, its completion queue and its memory regions (lkey, rkey, access flags).
/// PSNs are written in the base of PsnBase and follow its switch. They point into the recording
/// (never copy it); setSnapshot() switches to another step.

#include <QAbstractTableModel>

#include "rdmascope/ui/scenario_player.h"

namespace rdmascope::ui {

/// What a HostTableModel lists: the QPs, the first QP's send or receive queue, the first
/// CQ, or the registered memory regions with their keys and access flags.
enum class HostTable { Qps, SendQueue, RecvQueue, Completions, Mrs };

class HostTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  explicit HostTableModel(HostTable table, QObject* parent = nullptr);

  /// Shows a snapshot (null: nothing); `previous` (may be null) marks rows that changed.
  void setSnapshot(const HostSnapshot* snapshot, const HostSnapshot* previous = nullptr);
  HostTable table() const { return table_; }
  /// An MR table: marks row `mr` (-1 none), the MR a RETH's rkey named.
  void setHighlightedMr(int mr);
  int highlightedMr() const { return highlightedMr_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  const std::vector<sim::WqeView>* queue(const HostSnapshot* s) const;
  bool rowChanged(int row) const;

  HostTable table_;
  const HostSnapshot* snapshot_ = nullptr;
  const HostSnapshot* previous_ = nullptr;
  int highlightedMr_ = -1;
};

/// The timeline of a recording: one row per event (time, host, kind, explanation).
class EventListModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Index, Time, Host, Kind, Explanation, ColumnCount };
  explicit EventListModel(QObject* parent = nullptr);

  /// Shows a recording (null: nothing); it must outlive the model or be replaced first.
  void setRecording(const ScenarioRecording* recording);
  /// Marks the current event (bold); -1 none.
  void setCurrent(int event);
  int current() const { return current_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  const ScenarioRecording* rec_ = nullptr;
  int current_ = -1;
};

}  // namespace rdmascope::ui
