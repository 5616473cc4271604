#pragma once
/// @file fabric_view.h
/// The main window's fabric mode: a running fabric's controls (Pause/Resume, Step frame, how
/// many frames the switch holds), one FabricHostPane per host a program attached to, the ladder
/// of the fabric's frames among those hosts, and the timeline of verbs calls, log lines and
/// frames, so the user sees which call produced which packet. The packet list, detail tree and
/// hex view below are the main window's, over the same FrameStore.

#include <QWidget>
#include <map>
#include <vector>

#include "rdmascope/ui/ladder_view.h"

class QLabel;
class QPushButton;
class QSplitter;
class QTableView;

namespace rdmascope::ui {

class FabricHostPane;
class FabricSession;
class FabricTimelineModel;
class FrameStore;

class FabricView : public QWidget {
  Q_OBJECT
 public:
  /// Shows `session`, whose frames are in `store`; both must outlive the view.
  FabricView(FabricSession* session, const FrameStore* store, QWidget* parent = nullptr);

  /// Marks a frame in the ladder and the timeline (-1: none).
  void setCurrentFrame(qint64 frame);

  /// The pane of host `host` (1-based), or null when no program attached to it yet.
  FabricHostPane* hostPane(int host) const;
  LadderView* ladder() const { return ladder_; }
  QTableView* timelineView() const { return timeline_; }
  FabricTimelineModel* timelineModel() const { return timelineModel_; }
  QPushButton* pauseButton() const { return pause_; }
  QPushButton* stepFrameButton() const { return stepFrame_; }
  QLabel* statusLabel() const { return status_; }
  QLabel* heldLabel() const { return held_; }

 Q_SIGNALS:
  /// The user picked a frame in the ladder or the timeline.
  void frameActivated(qint64 frame);

 private:
  void reset();
  void hostChanged(int host);
  void framesAppended();
  void holdChanged();
  void relayLadder();
  void nameLanes();
  LadderFrame ladderFrame(std::size_t frame) const;
  void updateStatus();

  FabricSession* session_;
  const FrameStore* store_;
  QLabel* status_;
  QLabel* held_;
  QPushButton* pause_;
  QPushButton* stepFrame_;
  QSplitter* hostSplit_;
  QLabel* placeholder_;
  std::map<int, FabricHostPane*> panes_;
  LadderView* ladder_;
  QTableView* timeline_;
  FabricTimelineModel* timelineModel_;
  std::vector<int> lanes_;  ///< host number of each ladder lifeline
  std::vector<LadderFrame> ladderFrames_;
};

}  // namespace rdmascope::ui
