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
  std::int64_t timeNs = 0;  ///< wall clock (Unix epoch) of a frame at the switch
  std::vector<std::uint8_t> bytes;
  bool held = false;
  std::string text;
  HostState state;
};

class FabricObserver {
 public:
  /// Connects to the fabric at `socketPath` (defaultFabricSocket() when empty). Null with a
  /// one-line `error` when no fabric runs there.
  static std::unique_ptr<FabricObserver> connect(const std::string& socketPath, std::string& error);
  ~FabricObserver();
  FabricObserver(const FabricObserver&) = delete;
  FabricObserver& operator=(const FabricObserver&) = delete;

  /// The fabric as it described itself on connecting (hosts, wire format, MTU; `self` is 0).
  const FabricInfo& info() const { return info_; }
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
  FabricInfo info_;
  std::vector<std::uint8_t> buf_;
};

}  // namespace rdmascope::simdev
