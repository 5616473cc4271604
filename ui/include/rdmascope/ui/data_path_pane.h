#pragma once
/// @file data_path_pane.h
/// The layer stacks view with its own controls: pick a stack and walk (or play) the data path
/// of one message step by step. The scenario player drives the same view during a scenario.

#include <QWidget>

#include "rdmascope/ui/layer_stacks.h"

class QComboBox;
class QTimer;
class QToolButton;

namespace rdmascope::ui {

class LayerStacksView;

class DataPathPane : public QWidget {
  Q_OBJECT
 public:
  explicit DataPathPane(QWidget* parent = nullptr);

  LayerStacksView* view() const { return view_; }
  /// Moves the chosen stack's path one step forward or back.
  void stepForward();
  void stepBack();
  /// Plays the chosen stack's path from the start, one step per interval.
  void play();
  bool playing() const;

 Q_SIGNALS:
  void explanationChanged(const QString& text);

 private:
  Stack chosen() const;

  LayerStacksView* view_;
  QComboBox* stack_;
  QToolButton* back_;
  QToolButton* forward_;
  QToolButton* play_;
  QTimer* timer_;
};

}  // namespace rdmascope::ui
