#pragma once
/// @file scenario.h
/// Scenarios: two hosts, their link and faults, and the verbs calls of each host in order,
/// including the out-of-band exchange of QPN/PSN/GID/rkey that rc_pingpong does over TCP.
/// A scenario is JSON (scenario_file.h); it runs on two SimBackends (one simulated network) or
/// on any two Backends. Built-in scenarios are generated in C++ as the same JSON.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "rdmascope/sim/network.h"
#include "rdmascope/verbs_backend/backend.h"
#include "rdmascope/verbs_backend/oob_exchange.h"
#include "rdmascope/verbs_backend/scenario_executor.h"
#include "rdmascope/verbs_backend/scenario_file.h"

namespace rdmascope::verbs_backend {

/// rc-send-recv, rc-write, rc-write-imm, rc-read, rc-atomic, uc-write, ud-send, rnr-retry,
/// lossy-go-back-n, remote-access-error, retry-exceeded, rc-lossy-stream, tour.
std::vector<std::string> builtinScenarioNames();
/// The JSON of a built-in scenario; throws ScenarioError for an unknown name.
nlohmann::json builtinScenarioJson(const std::string& name);
Scenario builtinScenario(const std::string& name);
/// The built-in scenario of that name, or else the scenario file at that path. Throws
/// ScenarioError ("'X' is neither a built-in scenario nor a file", or the file's error).
Scenario findScenario(const std::string& nameOrFile);

/// Executes a scenario over two backends in one process, one step at a time: two HostExecutors
/// joined by an InProcessLink (the simulator's two hosts, or both hosts on one device).
class ScenarioRun {
 public:
  /// Creates each host's PD, MRs, CQs and QPs. `note` receives a line per call (may be empty).
  ScenarioRun(const Scenario& scenario, Backend& host0, Backend& host1,
              std::function<void(int host, const std::string& line)> note = {});

  /// Setup failed (no step can run); the message says why.
  const std::optional<std::string>& setupError() const { return setupError_; }
  /// No step left, or setup failed, or a step was cancelled.
  bool done() const {
    return setupError_.has_value() || stopped_ || next_ >= scenario_.steps.size();
  }
  std::size_t nextStep() const { return next_; }
  /// Runs the next step.
  StepOutcome step();
  /// When `*stop` becomes true (another thread), a waiting step ends with ECANCELED and the
  /// run is done.
  void setStop(const std::atomic<bool>* stop);
  /// Every completion seen by either host, in order.
  const std::vector<std::pair<int, WorkCompletion>>& completions() const { return completions_; }
  const MemoryRegion* mr(int host, const std::string& name) const;
  std::optional<std::uint32_t> qpNum(int host, const std::string& name) const;
  /// The executor of host 0 or 1.
  HostExecutor& host(int index) { return *hosts_[index]; }
  ~ScenarioRun();

  /// Simulated runs only (both backends SimBackends): the QP cmConnectedQp names is connected
  /// as Linux's rdma_cm does over rxe instead of by the exchange steps: host 1 (active) sends
  /// the REQ at its first exchange step, host 0 (passive) answers with the REP when its QP
  /// reaches RTR, host 1 sends the RTU when its QP reaches RTS (SimScenarioSession puts host
  /// 0's RTS step after that). The messages are UD SEND ONLY MADs between the QP 1s, with
  /// the fields ib_cm and rdma_cm put there and the published regions as "RSC1" private data.
  /// A scenario cmConnectedQp refuses becomes a setup error with its sentence.
  void useSimCm(std::uint16_t port = 18515);
  /// rdma_disconnect at the end of a CM run: host 1's DREQ, host 0's DREP (no-op without CM).
  Status simCmDisconnect();

 private:
  class SimCm;
  std::shared_ptr<SimCm> cm_;  // shared: SimCm is complete only in sim_cm.cpp

  const Scenario& scenario_;
  InProcessLink links_[2];
  std::unique_ptr<HostExecutor> hosts_[2];
  std::function<void(int, const std::string&)> note_;
  std::optional<std::string> setupError_;
  std::size_t next_ = 0;
  bool stopped_ = false;
  std::vector<std::pair<int, WorkCompletion>> completions_;
};

/// Overrides for a simulated run.
struct RunOptions {
  std::optional<std::uint64_t> seed;
  std::optional<double> loss;
  std::optional<sim::WireFormat> wire;
  bool trace = true;
  bool captureFrames = true;
  /// Connect the scenario's RC QP with a simulated rdma_cm (REQ/REP/RTU, DREQ/DREP on the wire)
  /// instead of the out-of-band exchange; the scenario must pass cmConnectedQp.
  bool cm = false;
};

/// Checks that `scenario` can be connected by the rdma_cm (verbs --cm, sim --cm): one RC QP per
/// host named by every exchange step, with what each host publishes fitting its CM message.
/// Returns the QP's name, or an error sentence.
Result<std::string> cmConnectedQp(const Scenario& scenario);

/// Rewrites a scenario's steps for a simulated rdma_cm run (RunOptions::cm): the exchange
/// steps say what travels in the CM messages instead, and the passive side's RTS step moves
/// after the active side's (it goes RTS when the RTU arrives). A scenario cmConnectedQp
/// refuses stays as it is.
void arrangeStepsForCm(Scenario& scenario);

/// What a host's rdma_connect/rdma_accept passes (rdma_conn_param), from the scenario's own
/// RTR/RTS steps of the connected QP; librdmacm's usual values where it gives none.
struct CmConnectParams {
  std::uint8_t responderResources = 1;  ///< max_dest_rd_atomic
  std::uint8_t initiatorDepth = 1;      ///< max_rd_atomic
  std::uint8_t retryCount = 7;
  std::uint8_t rnrRetry = 7;
};
CmConnectParams cmConnectParams(const Scenario& scenario, int side, const std::string& qp);

/// Everything a simulated run produced.
struct RunResult {
  bool ok = true;
  std::string error;  ///< first failing step, if any
  std::vector<StepOutcome> steps;
  std::vector<std::pair<int, WorkCompletion>> completions;
  std::vector<sim::TraceEvent> trace;
  std::vector<sim::CapturedFrame> frames;
  sim::WireFormat wire = sim::WireFormat::RoceV2Ipv4;
  sim::LinkStats stats;
  std::string hostNames[2];

  /// One line per trace event: time, host, kind, explanation.
  std::string traceText() const;
  /// A JSON array of trace events.
  std::string traceJson() const;
  /// One line per completion (formatCompletion).
  std::string completionsText() const;
};

/// The simulated network a scenario runs on: its seed, wire format, link, faults and host
/// names, with the options' overrides.
sim::NetworkConfig simNetworkConfig(const Scenario& scenario, const RunOptions& options = {});

/// A scenario over two SimBackends sharing one simulated network, for stepping (GUI).
class SimScenarioSession {
 public:
  explicit SimScenarioSession(const Scenario& scenario, const RunOptions& options = {});
  sim::Network& network() { return *network_; }
  std::shared_ptr<sim::Network> sharedNetwork() { return network_; }
  Backend& backend(int host) { return *backends_[host]; }
  ScenarioRun& run() { return *run_; }
  const Scenario& scenario() const { return scenario_; }
  /// Runs every remaining step, then lets the network go idle (at most `drain` more).
  RunResult runToEnd(sim::SimTime drain = sim::SimTime::ms(100));

 private:
  Scenario scenario_;
  std::shared_ptr<sim::Network> network_;
  std::unique_ptr<Backend> backends_[2];
  std::unique_ptr<ScenarioRun> run_;
};

/// Runs a scenario on the simulator with optional overrides.
RunResult runScenarioInSim(const Scenario& scenario, const RunOptions& options = {});

/// "HOST wr_id N STATUS OPCODE byte_len N[ imm 0xX]" (an error status: "HOST wr_id N STATUS",
/// the other fields are not valid then): no QPN, which differs between runs. The simulator's
/// and a real run's completions are compared line by line in this format.
std::string formatCompletion(const std::string& hostName, const WorkCompletion& wc);

}  // namespace rdmascope::verbs_backend
