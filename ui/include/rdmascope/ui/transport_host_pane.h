#pragma once
/// @file transport_host_pane.h
/// A host of a TCP or iWARP recording at the current event, in place of the verbs host pane:
/// for TCP its socket send and receive buffers filling and draining (bytes queued, in flight,
/// acknowledged, copied to the application) with the system calls and copies so far; for
/// iWARP its rdma_cm and MPA connection steps, the DDP segments its RNIC framed and placed and
/// the TCP underneath.

#include <QWidget>

#include "rdmascope/ui/scenario_player.h"

class QLabel;
class QListWidget;
class QProgressBar;
class QTableView;

namespace rdmascope::ui {

class TransportStateModel;

class TransportHostPane : public QWidget {
  Q_OBJECT
 public:
  explicit TransportHostPane(const QString& title, QWidget* parent = nullptr);

  void setTitle(const QString& title);
  /// Shows `state` (null: before the first event) of a recording over `transport`;
  /// `previous` is the state before the current event (changes are marked).
  void setState(RecordingTransport transport, const TransportHostState* state,
                const TransportHostState* previous);

  /// The name of an iWARP connection step (rdma_cm call or event, MPA frame) as listed.
  static QString connectionStepName(sim::Narrative step, const IwarpHostState& state);

  QProgressBar* sendBuffer() const { return sendBar_; }
  QProgressBar* receiveBuffer() const { return recvBar_; }
  QListWidget* connectionSteps() const { return steps_; }
  TransportStateModel* model() const { return model_; }

 private:
  void setCephState(RecordingTransport transport, const TransportHostState* state);

  QLabel* title_;
  QLabel* sendLabel_;
  QProgressBar* sendBar_;
  QLabel* recvLabel_;
  QProgressBar* recvBar_;
  QLabel* stepsLabel_;
  QListWidget* steps_;
  TransportStateModel* model_;
  QTableView* table_;
};

}  // namespace rdmascope::ui
