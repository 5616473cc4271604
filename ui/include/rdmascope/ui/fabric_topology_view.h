#pragma once
/// @file fabric_topology_view.h
/// The fabric of a congestion run drawn from its topology (fabric_topology_model.h): switches
/// and hosts in layers, each link as two lanes (one per direction) coloured and widened by its
/// load at the run's cursor, and a pause mark ("|| P3") at the end of each lane whose sender is
/// paused, naming the priorities.

#include <QWidget>

namespace rdmascope::ui {

class FabricTopologyModel;

class FabricTopologyView : public QWidget {
  Q_OBJECT
 public:
  explicit FabricTopologyView(const FabricTopologyModel* model, QWidget* parent = nullptr);
  /// The caption's time (the view repaints when the model's data changes).
  void setTimeText(const QString& text);
  /// Where a node is drawn (its centre), for tests.
  QPointF nodeCentre(int node) const;

  QSize sizeHint() const override { return {520, 320}; }
  QSize minimumSizeHint() const override { return {240, 160}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  const FabricTopologyModel* model_;
  QString time_;
};

}  // namespace rdmascope::ui
