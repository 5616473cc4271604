#pragma once
/// @file trace.h
/// The trace stream of the simulator: every state change, WQE step, frame, CQE, NIC memory
/// access and timer is one TraceEvent with a one-sentence explanation. Views and tests
/// subscribe; when tracing is off nothing per event is built or retained.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "rdmascope/sim/sim_time.h"

namespace rdmascope::sim {

enum class TraceKind : std::uint8_t {
  QpState,        ///< a QP changed state
  WqePosted,      ///< a send or receive WQE was posted
  WqeStarted,     ///< the requester began a send WQE
  WqePacket,      ///< the requester built one packet of a WQE
  WqeCompleted,   ///< a WQE finished (its CQE may or may not be produced)
  FrameSent,      ///< a frame left a host (bytes attached)
  FrameReceived,  ///< a frame was accepted by a host (bytes attached)
  FrameDropped,   ///< a frame was lost on the link or discarded by a receiver (bytes attached)
  CqeProduced,    ///< a completion entered a CQ
  MemoryRead,     ///< the NIC read host memory (DMA)
  MemoryWritten,  ///< the NIC wrote host memory (DMA)
  TimerArmed,
  TimerFired,
  Note,  ///< anything else worth a line (e.g. a scenario step)
};

std::string_view toString(TraceKind kind);

struct TraceEvent {
  SimTime time;  ///< when it happened; FrameSent and link losses: the frame's first bit on the wire
  std::uint64_t step = 0;  ///< number of the simulator event that produced it
  std::string host;
  TraceKind kind = TraceKind::Note;
  std::uint32_t qpn = 0;
  std::uint32_t psn = 0;
  std::uint64_t frameNumber = 0;  ///< 1-based frame number for frame events, else 0
  std::uint64_t wrId = 0;
  std::uint64_t address = 0;        ///< memory events
  std::uint32_t length = 0;         ///< memory events: bytes; frame events: frame length
  std::vector<std::uint8_t> bytes;  ///< frame events
  std::string explanation;
};

/// Text line "time host kind explanation".
std::string formatTraceLine(const TraceEvent& event);
/// One JSON object (no trailing newline) with every field; bytes as lowercase hex.
std::string formatTraceJson(const TraceEvent& event);

/// Distributes trace events to subscribers and optionally keeps them.
class Trace {
 public:
  using Subscriber = std::function<void(const TraceEvent&)>;

  /// Off by default: nothing is built per event until enabled.
  bool enabled() const { return enabled_; }
  void setEnabled(bool on) { enabled_ = on; }
  /// Keep every event in events() (on by default when enabled).
  void setRetain(bool on) { retain_ = on; }
  int subscribe(Subscriber s);
  void unsubscribe(int id);
  void emit(TraceEvent event);
  const std::vector<TraceEvent>& events() const { return events_; }
  void clear() { events_.clear(); }

 private:
  bool enabled_ = false;
  bool retain_ = true;
  int nextId_ = 1;
  std::vector<std::pair<int, Subscriber>> subscribers_;
  std::vector<TraceEvent> events_;
};

}  // namespace rdmascope::sim
