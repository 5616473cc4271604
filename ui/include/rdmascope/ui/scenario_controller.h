#pragma once
/// @file scenario_controller.h
/// Keeps every view in step with one current event of a scenario recording: host panes (QP,
/// WQEs, CQ, memory, state diagram), ladder, packet pane (frames on the wire so far, the
/// frame of the event selected), layer stacks and the event list.

#include <QObject>
#include <QString>
#include <QStringList>
#include <array>
#include <memory>
#include <optional>

#include "rdmascope/ui/detail_tree_model.h"
#include "rdmascope/ui/ladder_view.h"
#include "rdmascope/ui/scenario_player.h"

namespace rdmascope::ui {

class EventListModel;
class HostPane;
class LadderView;
class LayerStacksView;
class PacketPane;
class TransportHostPane;

class ScenarioController : public QObject {
  Q_OBJECT
 public:
  ScenarioController(FrameStore* store, PacketPane* packets, std::array<HostPane*, 2> hosts,
                     LadderView* ladder, LayerStacksView* stacks, EventListModel* events,
                     QObject* parent = nullptr);
  ~ScenarioController() override;

  /// The panes that show the hosts of TCP and iWARP recordings (the verbs host panes show
  /// QPs, WQEs, CQs and memory, which those transfers do not have).
  void setTransportPanes(std::array<TransportHostPane*, 2> panes) { transportPanes_ = panes; }
  /// Record verbs scenarios with the RC QP connected by the simulated rdma_cm (CM REQ, REP,
  /// RTU on the wire) instead of the out-of-band exchange.
  void setConnectWithCm(bool on) { cm_ = on; }
  bool connectWithCm() const { return cm_; }

  /// Records a built-in scenario and shows it before its first event. False with `error` set
  /// when it cannot run.
  bool load(const std::string& id, sim::WireFormat wire, QString& error);
  /// Records a scenario JSON file (verbs_backend's format) the same way.
  bool loadFile(const std::string& path, sim::WireFormat wire, QString& error);
  /// Forgets the scenario (a capture file replaced the frames).
  void unload();
  bool loaded() const { return static_cast<bool>(rec_); }
  const ScenarioRecording* recording() const { return rec_.get(); }

  int eventCount() const;
  /// The current event, -1 before the first.
  int current() const { return current_; }
  /// Makes `event` current (clamped to -1 .. eventCount()-1) and updates every view.
  void goTo(int event);
  bool stepForward();
  bool stepBack();
  /// Holds stepping at `last`: no later event becomes current (a move past it stops there and
  /// emits held()); -2 lifts the hold. A lesson holds before an unanswered checkpoint.
  void holdAt(int last);
  int holdLimit() const { return hold_; }
  /// Makes the event that sent `frame` current (a frame clicked in a view).
  void goToFrame(std::size_t frame);
  /// The frame the views show for the current event (-1 none).
  std::int64_t currentFrame() const { return currentFrame_; }
  /// Frames on the wire by the current event.
  std::size_t framesShown() const;
  /// The ladder's row of a frame (rows of the TCP side channel come between frames), or -1.
  int ladderRowOfFrame(std::size_t frame) const;
  /// The MR a frame's RETH (or AtomicETH) names, as "→ host-b MR #1 buf (rkey 0x..., access)",
  /// with the host and MR index (-1 when no MR has that rkey); nothing for a frame without one.
  std::optional<MrLink> mrLinkOfFrame(std::size_t frame) const;

  /// Title and text of the current event, as the explanation pane shows them.
  QString title() const;
  QString explanation() const;
  /// The full text the title abbreviates (a modify_qp mask), for a tooltip; empty if none.
  QString explanationDetail() const;
  /// Glossary terms the current explanation uses.
  QStringList explanationTerms() const;

 Q_SIGNALS:
  void currentChanged(int event);
  /// A new recording is about to replace the store's frames (readers of it must stop now).
  void storeAboutToChange();
  /// A move to `requested` stopped at the hold.
  void held(int requested);

 private:
  void update();
  void adopt(std::unique_ptr<ScenarioRecording> rec, FrameStore frames);
  /// The ladder's rows (frames, side-channel messages, drops marked) and the row maps.
  std::vector<LadderFrame> buildLadder();

  FrameStore* store_;
  PacketPane* packets_;
  std::array<HostPane*, 2> hosts_;
  std::array<TransportHostPane*, 2> transportPanes_{};
  bool cm_ = false;
  LadderView* ladder_;
  LayerStacksView* stacks_;
  EventListModel* events_;
  std::unique_ptr<ScenarioRecording> rec_;
  std::vector<std::size_t> framesUpTo_;  // frames sent by each event (inclusive)
  std::vector<std::size_t> rowsUpTo_;    // ladder rows drawn by each event (inclusive)
  std::vector<int> rowEvent_;            // the event each ladder row stands for
  std::vector<int> rowOfFrame_;          // the ladder row of each frame
  std::vector<int> eventOfFrame_;        // the event that sent each frame
  int current_ = -1;
  std::int64_t currentFrame_ = -1;
  bool syncing_ = false;
  int hold_ = -2;
};

}  // namespace rdmascope::ui
