#pragma once
/// @file fabric_observer.h
/// Watching and steering a running fabric from another process (the GUI's `--fabric`): every
/// frame as the switch sees it, hosts attaching and leaving, each program's verbs calls and
/// NIC state, the fabric's log; and the controls: pause (frames are held at the switch and
/// every program blocks inside its next verbs call, with simulated time stopped), resume, let
/// one held frame through, let one verbs call of one host through.
///
/// Non-blocking: poll fd() for input, then read() the events that arrived. No Qt here; the
/// GUI wraps it in a QSocketNotifier.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "rdmascope/simdev/host_state.h"
#include "rdmascope/simdev/nic.h"

namespace rdmascope::simdev {

struct FabricEvent {
  enum class Kind : std::uint8_t {
    Attached,  ///< host, program, pid
    Detached,  ///< host
    Frame,     ///< host (sender), timeNs, bytes, held (waiting at the paused switch)
    Call,      ///< host, text: the verbs call a program made ("ibv_post_send(QP 0x11 ...)")
    State,     ///< host, state
    Log,       ///< text: one line of the fabric's log (what a verbs call did wrong, ...)
    Paused,
    Resumed,
    Closed,  ///< the fabric went away (text says why)
  };
  Kind kind = Kind::Log;
  int host = 0;
  std::string program;
  long pid = 0;
  std::int64_t timeNs = 0;  ///< wall clock (Unix epoch): when a frame was sent, a call made
                            ///< (0: not said)
  std::vector<std::uint8_t> bytes;
  bool held = false;
  std::string text;
  HostState state;
};

/// A program attached to the fabric when an observer connected.
struct AttachedProgram {
  int host = 0;
  std::string program;
  long pid = 0;
};

/// What the fabric tells a new observer (its Observing message): itself (`self` is 0), the
/// programs attached at that moment, and whether it is paused.
struct ObserverWelcome {
  FabricInfo info;
  std::vector<AttachedProgram> attached;
  bool paused = false;
};

/// Parses the fabric's answer to an observer; nullopt (with a one-line `error`) when the
/// datagram is not an Observing message describing a fabric. Attached entries that are not
/// an object with a host of the fabric are left out.
std::optional<ObserverWelcome> decodeObserverWelcome(std::span<const std::uint8_t> datagram,
                                                     std::string& error);

/// Parses one datagram the fabric sends an observer (an Event or an ObservedFrame); nullopt for
/// any other message and for one that is malformed.
std::optional<FabricEvent> decodeObserverEvent(std::span<const std::uint8_t> datagram);

class FabricObserver {
 public:
  /// Connects to the fabric at `socketPath` (defaultFabricSocket() when empty). Null with a
  /// one-line `error` when no fabric runs there.
  static std::unique_ptr<FabricObserver> connect(const std::string& socketPath, std::string& error);
  ~FabricObserver();
  FabricObserver(const FabricObserver&) = delete;
  FabricObserver& operator=(const FabricObserver&) = delete;

  /// The fabric as it described itself on connecting (hosts, wire format, MTU; `self` is 0).
  const FabricInfo& info() const { return welcome_.info; }
  /// The programs attached when the observer connected (later ones come as Attached events).
  const std::vector<AttachedProgram>& attachedAtConnect() const { return welcome_.attached; }
  /// Whether the fabric was paused when the observer connected.
  bool pausedAtConnect() const { return welcome_.paused; }
  const std::string& socketPath() const { return path_; }
  /// Readable when events are waiting.
  int fd() const { return fd_; }
  /// The events that arrived (non-blocking). After a Closed event nothing more comes.
  std::vector<FabricEvent> read();
  bool connected() const { return fd_ >= 0; }

  void pause();
  void resume();
  /// While paused: forwards the oldest held frame.
  void stepFrame();
  /// While paused: lets host `host`'s program make one verbs call.
  void stepCall(int host);

 private:
  FabricObserver() = default;
  void send(const std::string& control);
  int fd_ = -1;
  std::string path_;
  ObserverWelcome welcome_;
  std::vector<std::uint8_t> buf_;
};

}  // namespace rdmascope::simdev
