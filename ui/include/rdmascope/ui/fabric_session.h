#pragma once
/// @file fabric_session.h
/// The GUI's side of a running fabric (`rdmascope-cli fabric`): a simdev::FabricObserver read
/// whenever its socket is readable, keeping what the views show. Each host's program and its
/// latest NIC state (a host that detached keeps its last state, marked detached, until another
/// program attaches to it), every frame at the switch (appended to the window's FrameStore, so
/// the packet list, detail tree, hex view and analysis work as for a capture), and one timeline
/// of verbs calls, log lines, frames and attach/detach in the order the fabric reported them:
/// which call came before which frame. Pause, resume, step one frame, step one verbs call.

#include <QObject>
#include <QString>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rdmascope/simdev/fabric_observer.h"
#include "rdmascope/simdev/host_state.h"

class QSocketNotifier;

namespace rdmascope::ui {

class FrameStore;

/// One host of the fabric as the GUI knows it.
struct FabricHostView {
  int number = 0;       ///< 1-based
  std::string name;     ///< "host1"
  std::string program;  ///< empty: no program attached yet
  long pid = 0;
  bool attached = false;  ///< false once its program left (the state stays, greyed)
  bool hasState = false;
  simdev::HostState state;
};

/// One row of the fabric's timeline.
struct FabricTimelineEntry {
  enum class Kind : std::uint8_t { Attached, Detached, Call, Log, Frame, Paused, Resumed, Closed };
  Kind kind = Kind::Log;
  int host = 0;             ///< 0: the fabric itself
  std::int64_t timeNs = 0;  ///< wall clock (frames and calls: when made; others: when told)
  std::string text;         ///< the call, the log line, the program
  std::int64_t frame = -1;  ///< Frame: 0-based index in the FrameStore
};

class FabricSession : public QObject {
  Q_OBJECT
 public:
  /// Frames go into `store`, which must outlive the session.
  explicit FabricSession(FrameStore* store, QObject* parent = nullptr);
  ~FabricSession() override;

  /// Connects to the fabric at `socketPath` (the default socket when empty), forgetting a
  /// previous fabric and clearing the store. The programs already attached and a pause already
  /// in force show at once (hosts and timeline). False with a one-line `error` when none runs
  /// there.
  bool attach(const QString& socketPath, QString& error);
  /// Disconnects (what was seen stays).
  void detach();
  bool attached() const { return observer_ != nullptr; }
  QString socketPath() const { return socketPath_; }
  const simdev::FabricInfo& info() const { return info_; }

  /// Every host of the fabric, index number-1.
  const std::vector<FabricHostView>& hosts() const { return hosts_; }
  /// The host a frame came from and the host it is addressed to (1-based; 0 unknown).
  int frameSource(std::size_t frame) const;
  int frameDestination(std::size_t frame) const;
  const std::vector<FabricTimelineEntry>& timeline() const { return timeline_; }

  bool paused() const { return paused_; }
  /// True while the frame waits at the paused switch.
  bool frameHeld(std::size_t frame) const;
  std::size_t heldCount() const { return held_.size(); }

  void pause();
  void resume();
  /// Lets the oldest held frame through.
  void stepFrame();
  /// Lets host `host`'s program make one verbs call.
  void stepCall(int host);

  /// Reads and applies the events that arrived (the socket notifier calls it). Returns how many.
  std::size_t poll();

 Q_SIGNALS:
  /// The store is about to be cleared (readers of it must stop now).
  void storeAboutToChange();
  /// The store was cleared for a new fabric.
  void storeReset();
  /// `count` frames were appended to the store.
  void framesAppended(std::size_t count);
  /// A host's program, attachment or state changed (1-based).
  void hostChanged(int host);
  /// Rows were appended to the timeline.
  void timelineAppended(std::size_t first, std::size_t count);
  /// Paused, resumed, or a held frame went through.
  void holdChanged();
  /// The fabric went away (`why` says how).
  void closed(const QString& why);

 private:
  void apply(simdev::FabricEvent& event);
  void addTimeline(FabricTimelineEntry entry);
  FabricHostView* host(int number);

  FrameStore* store_;
  std::unique_ptr<simdev::FabricObserver> observer_;
  QSocketNotifier* notifier_ = nullptr;
  QString socketPath_;
  simdev::FabricInfo info_;
  std::vector<FabricHostView> hosts_;
  struct FrameHosts {
    std::uint8_t from = 0;
    std::uint8_t to = 0;
  };
  std::vector<FrameHosts> frameHosts_;
  std::vector<FabricTimelineEntry> timeline_;
  std::vector<std::size_t> held_;  ///< frames at the switch, oldest first
  bool paused_ = false;
};

}  // namespace rdmascope::ui
