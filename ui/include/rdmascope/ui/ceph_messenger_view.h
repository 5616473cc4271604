#pragma once
/// @file ceph_messenger_view.h
/// Ceph's async messenger on both of its network stacks, side by side (sim/ceph_messenger.h):
/// the same messages from a client to an OSD over async+rdma (QP information over a TCP side
/// channel, an SRQ of registered chunks, signalled SENDs, copies into and out of the chunks,
/// a zero-length SEND as the close) and over async+posix (send(), recv(), the socket copies).
/// Each stack's steps in a tab (the selected step's whole sentence below), the figures of both
/// (copies, system calls, CPU time, latency) in a table, and the frames of the chosen stack in
/// a packet list with its detail tree and bytes. A window of its own: File > Built-in Scenario
/// > Ceph Messenger (RDMA and TCP Stacks); `rdmascope --scenario ceph-messenger` steps one
/// stack in the main window instead (ceph_recording.h).

#include <QWidget>
#include <memory>
#include <optional>

#include "rdmascope/sim/ceph_messenger.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableView;

namespace rdmascope::ui {

class CephComparisonModel;
class CephStepsModel;
class FrameStore;
class PacketPane;

class CephMessengerView : public QWidget {
  Q_OBJECT
 public:
  explicit CephMessengerView(QWidget* parent = nullptr);
  ~CephMessengerView() override;

  /// Runs both stacks with `options`; false (and the error shown in the view) when the model
  /// refuses them.
  bool run(const sim::CephMessengerOptions& options);
  /// Runs both stacks with the options the controls show.
  bool runFromControls();
  /// Which stack's frames the packet list shows.
  void showFramesOf(sim::CephStack stack);

  const std::optional<sim::CephStackReport>& rdma() const { return rdma_; }
  const std::optional<sim::CephStackReport>& posix() const { return posix_; }
  CephComparisonModel* comparison() const { return comparison_; }
  CephStepsModel* rdmaSteps() const { return rdmaSteps_; }
  CephStepsModel* posixSteps() const { return posixSteps_; }
  PacketPane* packets() const { return packets_; }
  QTableView* comparisonTable() const { return table_; }
  /// The step tables (one tab each) and the selected step's whole sentence below them.
  QTableView* rdmaStepsTable() const { return rdmaTable_; }
  QTableView* posixStepsTable() const { return posixTable_; }
  QLabel* stepTextLabel() const { return stepText_; }
  QString stepSentence() const;
  QString errorText() const;

 private:
  void showStepText();

  QSpinBox* size_ = nullptr;
  QSpinBox* count_ = nullptr;
  QCheckBox* registered_ = nullptr;
  QPushButton* runButton_ = nullptr;
  QComboBox* framesOf_ = nullptr;
  QLabel* summary_ = nullptr;
  QTableView* table_ = nullptr;
  QTabWidget* stepTabs_ = nullptr;
  QTableView* rdmaTable_ = nullptr;
  QTableView* posixTable_ = nullptr;
  QLabel* stepText_ = nullptr;
  CephComparisonModel* comparison_ = nullptr;
  CephStepsModel* rdmaSteps_ = nullptr;
  CephStepsModel* posixSteps_ = nullptr;
  std::unique_ptr<FrameStore> store_;
  PacketPane* packets_ = nullptr;
  std::optional<sim::CephStackReport> rdma_, posix_;
};

}  // namespace rdmascope::ui
