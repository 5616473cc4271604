#pragma once
// Recording a built-in, and finding the events of a recorded scenario by what their frames
// carry.

#include <gtest/gtest.h>

#include <string>

#include "rdmascope/sim/network.h"
#include "rdmascope/ui/scenario_player.h"

namespace rdmascope::ui::test {

/// A built-in recorded on RoCEv2 (with the rdma_cm when `cm`), with its frames.
struct Recorded {
  ScenarioRecording rec;
  FrameStore frames;
};

inline Recorded record(const std::string& id, bool cm = false) {
  Recorded r;
  std::string error;
  EXPECT_TRUE(recordScenario(id, sim::WireFormat::RoceV2Ipv4, r.rec, r.frames, error, cm))
      << id << ": " << error;
  return r;
}

/// The first FrameSent event whose BTH opcode is `opcode`, or -1.
inline int findFrameEvent(const ScenarioRecording& rec, const FrameStore& store,
                          std::uint8_t opcode, int from = 0) {
  for (std::size_t i = static_cast<std::size_t>(from); i < rec.events.size(); ++i) {
    const auto& e = rec.events[i];
    if (e.trace.kind != sim::TraceKind::FrameSent) continue;
    const auto s = sim::summarizeFrame(rec.wire, store.bytes(static_cast<std::size_t>(e.frame)));
    if (s.ok && s.opcode == opcode) return static_cast<int>(i);
  }
  return -1;
}

/// The first FrameSent event carrying an RNR NAK, or -1.
inline int findRnrNakEvent(const ScenarioRecording& rec, const FrameStore& store) {
  for (std::size_t i = 0; i < rec.events.size(); ++i) {
    const auto& e = rec.events[i];
    if (e.trace.kind != sim::TraceKind::FrameSent) continue;
    const auto s = sim::summarizeFrame(rec.wire, store.bytes(static_cast<std::size_t>(e.frame)));
    if (s.ok && s.hasAeth && (s.syndrome & 0x60) == 0x20) return static_cast<int>(i);
  }
  return -1;
}

/// The first event of a kind on a host at or after `from`, or -1.
inline int findEvent(const ScenarioRecording& rec, sim::TraceKind kind, int host, int from = 0) {
  for (std::size_t i = static_cast<std::size_t>(from); i < rec.events.size(); ++i)
    if (rec.events[i].trace.kind == kind && (host < 0 || rec.events[i].host == host))
      return static_cast<int>(i);
  return -1;
}

}  // namespace rdmascope::ui::test
