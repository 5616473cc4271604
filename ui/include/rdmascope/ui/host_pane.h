#pragma once
/// @file host_pane.h
/// One simulated host at the current event: its QP (state, PSNs, counters) with the QP state
/// diagram, the send and receive queues with each WQE's state, the completion queue, its
/// memory regions with their lkey, rkey and access flags, and its registered memory as hex
/// with the bytes the NIC just wrote or read highlighted.

#include <QWidget>
#include <optional>

#include "rdmascope/ui/scenario_player.h"

class QLabel;
class QTableView;

namespace rdmascope::ui {

class HexView;
class HostTableModel;
class QpStateDiagram;

class HostPane : public QWidget {
  Q_OBJECT
 public:
  explicit HostPane(const QString& title, QWidget* parent = nullptr);

  /// Shows a snapshot (null: nothing) and marks what changed since `previous`.
  void setSnapshot(const HostSnapshot* snapshot, const HostSnapshot* previous);
  /// Lights the QP state diagram (`lit`: the transition from `from` just happened).
  void setQpState(sim::QpState current, sim::QpState from, bool lit);
  /// Highlights the bytes of the buffer the NIC just accessed (length 0: none).
  /// Highlights the last DMA access of the current step; `now` when the current event is that
  /// access itself (otherwise the header says it happened earlier in the step).
  void setMemoryAccess(std::uint32_t offset, std::uint32_t length, bool write, bool now = true);
  void setTitle(const QString& title);

  HostTableModel* qpModel() const { return qpModel_; }
  HostTableModel* sendQueueModel() const { return sqModel_; }
  HostTableModel* recvQueueModel() const { return rqModel_; }
  HostTableModel* completionModel() const { return cqModel_; }
  HostTableModel* mrModel() const { return mrModel_; }
  QTableView* mrTable() const { return mrTable_; }
  /// Brings MR `mr` (an index of the snapshot's MR list) into view and marks it (-1: none).
  void showMr(int mr);
  /// The pane's sections, top to bottom.
  enum class Section { Qp, StateDiagram, Queues, Completions, Memory };
  /// When the pane is too short for every section (it scrolls), scrolls so that `section` is
  /// in view; the controller passes the section the current event changes.
  void bringIntoView(Section section);
  /// The section an event of this host changes (nullopt: none in particular).
  static std::optional<Section> sectionOf(const sim::TraceEvent& event);
  HexView* memoryView() const { return memory_; }
  QpStateDiagram* stateDiagram() const { return diagram_; }
  QLabel* memoryLabel() const { return memoryLabel_; }

 private:
  QWidget* section(Section s) const;

  QLabel* title_;
  QWidget* qpBox_ = nullptr;
  QWidget* queuesBox_ = nullptr;
  QWidget* cqBox_ = nullptr;
  QWidget* memBox_ = nullptr;
  QLabel* memoryLabel_;
  HostTableModel* qpModel_;
  HostTableModel* sqModel_;
  HostTableModel* rqModel_;
  HostTableModel* cqModel_;
  HostTableModel* mrModel_;
  QTableView* mrTable_;
  QpStateDiagram* diagram_;
  HexView* memory_;
  std::uint64_t bufferAddr_ = 0;
};

}  // namespace rdmascope::ui
