#pragma once
/// @file scenario_side.h
/// One host's half of a scenario on a real device, with the other host on a peer machine:
/// the steps of this host run on its Backend, the out-of-band exchange travels over TCP as in
/// rc_pingpong, and a barrier at every change of acting host keeps the two processes in the
/// scenario's order. `rdmascope-cli verbs --scenario` and the GUI's device run both use it.
///
/// The side that waits for the peer (`--server`) plays host 0, the side that connects plays
/// host 1. Before anything else both sides say which scenario they run ("scenario NAME HASH
/// host N"), so a peer running another scenario (or another version of it) is named at once.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "rdmascope/verbs_backend/backend.h"
#include "rdmascope/verbs_backend/ibv_cm_connection.h"
#include "rdmascope/verbs_backend/oob_exchange.h"
#include "rdmascope/verbs_backend/scenario.h"

namespace rdmascope::verbs_backend {

/// The TCP port of the out-of-band exchange unless one is given (rc_pingpong's).
inline constexpr std::uint16_t kDefaultOobPort = 18515;

/// How this side finds its peer.
struct PeerEndpoint {
  bool serve = false;  ///< true: wait for the peer on `port` (host 0); false: connect (host 1)
  std::string host;    ///< the peer to connect to (unused when serving)
  std::uint16_t port = kDefaultOobPort;
};

/// The scenario host a side plays: 0 when it serves, 1 when it connects.
inline int scenarioSideOf(const PeerEndpoint& peer) {
  return peer.serve ? 0 : 1;
}

/// What a side reports while it runs, and how it is stopped.
struct SideHooks {
  std::function<void(const std::string&)> completion;  ///< each completion (formatCompletion)
  std::function<void(const std::string&)> note;        ///< each step this side runs
  /// What the side waits for now ("the peer to connect to TCP port 18515", "the peer to reach
  /// the barrier before step 4"...); may be empty.
  std::function<void(const std::string&)> waiting;
  /// When set from another thread, every wait for the peer ends with ECANCELED within 100 ms
  /// (a completion wait ends at its step's timeout).
  const std::atomic<bool>* stop = nullptr;
  /// How long one wait for the peer may take.
  std::chrono::milliseconds peerTimeout{30000};
};

/// Waits for the peer on `peer.port` (serve) or connects to `peer.host`:`peer.port`, for up to
/// `timeout`. Errors: "connecting to HOST:PORT failed: Connection refused", "no peer connected
/// to TCP port P within T ms", "cancelled while ...".
Result<OobConnection> connectScenarioPeer(const PeerEndpoint& peer,
                                          std::chrono::milliseconds timeout,
                                          const SideHooks& hooks = {});

/// The line a side announces its scenario with; `side` is the host it plays.
std::string scenarioHello(const Scenario& scenario, int side);
/// Checks the peer's announcement against ours; empty when they fit, otherwise one sentence
/// ("the peer runs scenario 'rc-write', not 'rc-send-recv'").
std::string checkScenarioHello(const Scenario& scenario, int side, const std::string& peerLine);

/// Sends this side's announcement and checks the peer's; empty when they fit, otherwise one
/// sentence. runScenarioSide does this itself unless it runs with the rdma_cm: there the passive
/// side says hello before the REQ arrives (the REQ picks its device), and the active side sends
/// its hello (scenarioHello) before and reads the answer in runScenarioSide after the REQ, so a
/// REJ is named as the reason when the peer hangs up.
std::string exchangeScenarioHello(const Scenario& scenario, int side, OobConnection& oob,
                                  const SideHooks& hooks = {});

struct SideRunResult {
  bool ok = true;
  std::string error;               ///< the first failing step, or why the peer does not fit
  std::vector<StepOutcome> steps;  ///< every step this side took part in
};

/// The rdma_cm in place of the exchange (verbs --cm). Host 1 is the active side: right after
/// setup it sends the REQ, carrying what host 1 publishes; host 0 received that REQ before its
/// setup (the REQ picks its device), and answers with the REP at its QP's RTR step, carrying
/// what host 0 publishes; host 1 sends the RTU at its QP's RTR->RTS step. Every INIT/RTR/RTS
/// step of the connected QP takes the attributes of rdma_init_qp_attr, with the scenario's own
/// values where it gives them (the peer's QPN, PSN and address always come from the CM).
/// The CM connects one RC QP per host (RDMA_PS_TCP).
struct CmLink {
  CmConnection& cm;
  std::vector<std::uint8_t> requestPrivateData;  ///< host 0: the REQ's
};

/// Runs host `side` (0 or 1) of `scenario` on `backend`, talking to the peer over `oob` (and
/// the rdma_cm when `cm` is given: the TCP connection then only carries the barriers). The steps
/// run on a HostExecutor over an OobPeerLink: the same semantics as ScenarioRun's in-process
/// run. A failed step is recorded and the run goes on (both sides stay in step); a cancelled
/// wait or a broken link ends it.
SideRunResult runScenarioSide(const Scenario& scenario, int side, Backend& backend,
                              OobConnection& oob, const SideHooks& hooks = {},
                              CmLink* cm = nullptr);

}  // namespace rdmascope::verbs_backend
