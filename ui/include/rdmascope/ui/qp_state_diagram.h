#pragma once
/// @file qp_state_diagram.h
/// The QP state machine (RESET, INIT, RTR, RTS, SQD, SQE, ERR) with the current state and the
/// last transition lit.

#include <QWidget>

#include "rdmascope/sim/verbs_types.h"

namespace rdmascope::ui {

class QpStateDiagram : public QWidget {
  Q_OBJECT
 public:
  explicit QpStateDiagram(QWidget* parent = nullptr);

  /// Shows `current`; when `lit`, the transition from `from` is drawn highlighted.
  void setState(sim::QpState current, sim::QpState from, bool lit);
  /// No QP yet: nothing lit.
  void clearState();
  bool hasState() const { return has_; }
  sim::QpState state() const { return current_; }
  bool transitionLit() const { return lit_; }
  sim::QpState litFrom() const { return from_; }

  QSize sizeHint() const override { return {330, 150}; }
  QSize minimumSizeHint() const override { return {260, 120}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  QRectF stateRect(sim::QpState s) const;

  bool has_ = false;
  sim::QpState current_ = sim::QpState::Reset;
  sim::QpState from_ = sim::QpState::Reset;
  bool lit_ = false;
};

}  // namespace rdmascope::ui
