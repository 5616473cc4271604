#pragma once
/// @file transport_recording.h
/// Records the built-in transfers that run on the simulator's TCP model rather than on the
/// HCA (sim::runTransportScenario with its trace kept: "tcp-stream", "iwarp-send-recv",
/// "iwarp-write", "iwarp-read", as `rdmascope-cli sim` runs them) as a steppable
/// ScenarioRecording: every trace event is a step, every frame goes into the FrameStore, and
/// each step keeps both hosts' socket buffers and iWARP state (transport_host_state.h) for the
/// host panes. Qt-free.

#include <string>
#include <vector>

#include "rdmascope/ui/scenario_player.h"

namespace rdmascope::ui {

/// The four transfers over TCP and iWARP, with their titles and descriptions.
const std::vector<ScenarioInfo>& transportScenarios();

/// True for a built-in that runs on the TCP model (tcp-stream, iwarp-*).
bool isTransportScenario(const std::string& id);

/// What a built-in runs on: TcpSockets for tcp-stream, Iwarp for iwarp-*, CephRdma and
/// CephPosix for ceph-messenger and ceph-messenger-tcp (ceph_recording.h), else Verbs.
RecordingTransport transportOfScenario(const std::string& id);

/// Runs one of transportScenarios() with the CLI's defaults (64 KiB, seed 1, no loss) and
/// records it; `frames` is cleared first (Ethernet). False with `error` for another id or a
/// run that failed.
bool recordTransportScenario(const std::string& id, ScenarioRecording& out, FrameStore& frames,
                             std::string& error);

/// The state a trace event leaves one host in, given the state before it (`sendCapacity` is
/// kept). The fold transport_recording.cpp applies to every event of the host that emitted it.
void applyTransportEvent(const sim::TraceEvent& event, TransportHostState& state);

}  // namespace rdmascope::ui
