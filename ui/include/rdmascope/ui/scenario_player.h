#pragma once
/// @file scenario_player.h
/// Runs a scenario of verbs_backend (a built-in or a JSON file) once, with verbs_backend's
/// scenario engine (ScenarioRun) over two SimBackends, and records it as a timeline: every
/// trace event of the simulator, the frames it put on the wire (into a FrameStore), and a
/// snapshot of both hosts (QPs, WQEs, CQs, memory) as each event leaves them, so that views
/// can step forward and back through it without re-running. What the GUI shows is therefore
/// the very program `rdmascope-cli sim`, `verbs` and `lab run` execute. Qt-free.
///
/// Narration comes from the scenario (docs/scenario-format.md), which the runner ignores: its
/// "title" names it, its "explanation" describes the setup, and a step with a "title" or an
/// "explanation" starts a phase there. A scenario without narrated steps gets one phase per
/// step.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rdmascope/sim/ceph_messenger.h"
#include "rdmascope/sim/host.h"
#include "rdmascope/sim/network.h"
#include "rdmascope/sim/trace.h"
#include "rdmascope/ui/frame_store.h"
#include "rdmascope/ui/transport_host_state.h"

namespace rdmascope::ui {

/// A completion queue as a view shows it: every CQE produced, the first `polled` of them
/// already taken by ibv_poll_cq.
struct CqSnapshot {
  std::uint32_t id = 0;
  std::vector<sim::WorkCompletion> entries;
  std::size_t polled = 0;
};

/// A memory region a host registered, with the keys the NIC gave it.
struct MrSnapshot {
  std::string name;  ///< the scenario's name for it ("buf")
  std::uint64_t addr = 0;
  std::uint64_t length = 0;
  std::uint32_t lkey = 0;
  std::uint32_t rkey = 0;
  unsigned access = 0;  ///< IBV_ACCESS_* bits
  bool operator==(const MrSnapshot&) const = default;
};

/// One host after a simulator step.
struct HostSnapshot {
  std::vector<sim::QpView> qps;
  std::vector<MrSnapshot> mrs;  ///< in registration order
  std::vector<CqSnapshot> cqs;
  std::uint64_t bufferAddr = 0;  ///< the host's (first) registered buffer
  /// Its bytes; shared between consecutive snapshots while they do not change.
  std::shared_ptr<const std::vector<std::uint8_t>> buffer;
};

struct Snapshot {
  std::array<HostSnapshot, 2> hosts;
  std::size_t frames = 0;  ///< frames on the wire so far
};

/// One message of the out-of-band exchange: a line over the TCP side channel (rc_pingpong's
/// socket), not an RDMA frame. It tells the peer what its QP needs to reach the publisher's.
struct OobMessage {
  int from = 0;  ///< the publishing host (the message goes to the other)
  std::uint32_t qpn = 0;
  std::uint32_t psn = 0;
  std::uint16_t lid = 0;
  std::array<std::uint8_t, 16> gid{};
  std::string mr;  ///< the region published for one-sided operations (empty: none)
  std::uint64_t addr = 0;
  std::uint32_t rkey = 0;
  std::uint64_t length = 0;
};

/// Which region of the other host a one-sided request names: the remote address and rkey of a
/// posted WRITE, READ or atomic, or of a RETH (or AtomicETH) on the wire.
struct RemoteTarget {
  int host = 1;  ///< the host that owns the memory (the responder)
  std::uint64_t addr = 0;
  std::uint32_t rkey = 0;
  std::uint64_t length = 0;
  int mr = -1;  ///< index into that host's MrSnapshot list, -1 when no MR has this rkey
};

/// One event of the timeline.
struct ScenarioEvent {
  sim::TraceEvent trace;     ///< frame bytes moved into the FrameStore (trace.bytes empty)
  int host = -1;             ///< 0 host A, 1 host B, -1 the link
  std::size_t snapshot = 0;  ///< index of the state as this event left it
  std::int64_t frame = -1;   ///< frame events: 0-based index in the FrameStore
  std::size_t phase = 0;     ///< index into ScenarioRecording::phases
  sim::QpState fromState = sim::QpState::Reset;  ///< QpState events: the state left
  sim::QpState toState = sim::QpState::Reset;    ///< QpState events: the state entered
  /// The exchange step's message, on the note that reports it ("  -> QPN ... rkey ...").
  std::optional<OobMessage> oob;
  /// A post_send of a one-sided operation (its note) and a frame carrying a RETH or AtomicETH:
  /// the remote region named.
  std::optional<RemoteTarget> remote;
  /// Ceph messenger recordings (ceph_recording.h): the messenger's own step (trace.kind is
  /// Note then); frames and the NIC's placements are trace events as elsewhere.
  std::optional<sim::CephStep> ceph;
};

/// A named part of a scenario ("Connect the queue pairs", "A multi-packet SEND", ...).
struct ScenarioPhase {
  std::string title;
  std::string text;  ///< the step's own "explanation" (empty when the step has none)
};

/// What a recording ran on: verbs over the simulated HCA (RoCE or InfiniBand, the out-of-band
/// exchange or the rdma_cm), the TCP socket path, iWARP (transport_recording.h), or Ceph's
/// async messenger over its RDMA or its POSIX stack (ceph_recording.h).
enum class RecordingTransport : std::uint8_t { Verbs, TcpSockets, Iwarp, CephRdma, CephPosix };

/// True for the two Ceph messenger recordings.
inline bool isCeph(RecordingTransport t) {
  return t == RecordingTransport::CephRdma || t == RecordingTransport::CephPosix;
}

/// Everything a run produced.
struct ScenarioRecording {
  RecordingTransport transport = RecordingTransport::Verbs;
  bool cm = false;  ///< verbs: the RC QP was connected by the simulated rdma_cm
  std::string name;
  std::string title;  ///< the scenario's "title", else its name
  /// The scenario's one-line description and its setup explanation (what --list prints):
  /// the explanation pane never repeats them as an event's text.
  std::string summary;
  std::string source;  ///< what it was recorded from: the built-in's name or the file's path
  /// The scenario as JSON text, as File > Save Scenario As writes it (and `sim --show`).
  std::string scenarioText;
  sim::WireFormat wire = sim::WireFormat::RoceV2Ipv4;
  std::array<std::string, 2> hostNames;
  std::vector<ScenarioPhase> phases;
  std::vector<ScenarioEvent> events;
  std::vector<Snapshot> snapshots;
  std::uint64_t bufferSize = 0;
  std::string problem;  ///< a step that did not do what the scenario expected, if any
  /// Every completion the hosts polled, in order, as `rdmascope-cli sim` prints them
  /// (verbs_backend::formatCompletion): what a real run of the program is compared with.
  std::vector<std::string> completions;
  /// TCP and iWARP recordings: both hosts' socket buffers and iWARP state as each event leaves
  /// them (one entry per event), and each frame's ladder label (empty for verbs recordings).
  std::vector<std::array<TransportHostState, 2>> hostStates;
  std::vector<std::string> frameLabels;
};

/// A built-in scenario.
struct ScenarioInfo {
  std::string id;     ///< e.g. "tour"
  std::string title;  ///< e.g. "Tour: SEND, WRITE, READ, RNR"
  std::string description;
};

/// A fresh recording of built-in `id` of `list` over `transport`: its name, title, summary and
/// source from the list, the two host names, and the snapshot before the first event. The
/// recorders of the TCP, iWARP and Ceph built-ins start from it.
ScenarioRecording startRecording(RecordingTransport transport, const std::string& id,
                                 const std::vector<ScenarioInfo>& list,
                                 std::array<std::string, 2> hostNames);

/// The built-in scenarios as `rdmascope-cli sim --list` lists them: those of verbs_backend
/// (rc-send-recv, ..., the tour), then the transfers over TCP and iWARP (tcp-stream,
/// iwarp-send-recv, iwarp-write, iwarp-read), then Ceph's messenger (ceph-messenger,
/// ceph-messenger-tcp).
const std::vector<ScenarioInfo>& builtInScenarios();

/// Runs a built-in scenario on the simulator with the given wire format, filling `frames`
/// (cleared first) with every frame sent. With `cm` the RC QP is connected by the simulated
/// rdma_cm (verbs_backend RunOptions::cm: CM REQ/REP/RTU and DREQ/DREP on the wire). The TCP
/// and iWARP transfers run on the TCP model (transport_recording.h; `wire` and `cm` do not
/// apply). Returns false and sets `error` for an unknown id, a setup that failed, or a
/// scenario the rdma_cm cannot connect.
bool recordScenario(const std::string& id, sim::WireFormat wire, ScenarioRecording& out,
                    FrameStore& frames, std::string& error, bool cm = false);
/// The same for a scenario JSON file (verbs_backend's format); errors name the file.
bool recordScenarioFile(const std::string& path, sim::WireFormat wire, ScenarioRecording& out,
                        FrameStore& frames, std::string& error, bool cm = false);

/// The index of the MR of `host` whose rkey is `rkey` (the responder looks a request's region
/// up by it; whether the range fits is a later check), or -1.
int findMr(const HostSnapshot& host, std::uint32_t rkey);

/// Name of a QP state as the diagram shows it ("RESET", "INIT", ...).
std::string_view qpStateName(sim::QpState state);

}  // namespace rdmascope::ui
