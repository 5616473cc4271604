#pragma once
/// @file scenario.h
/// Scenarios: two hosts, their link and faults, and the verbs calls of each host in order,
/// including the out-of-band exchange of QPN/PSN/GID/rkey that rc_pingpong does over TCP.
/// A scenario is JSON; it runs on two SimBackends (one simulated network) or on any two
/// Backends. Built-in scenarios are generated in C++ as the same JSON.

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

namespace rdmascope::verbs_backend {

/// A scenario that cannot be read: "file: /json/path: expected ..., got ...".
class ScenarioError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct MrSpec {
  std::string name;
  std::uint64_t size = 4096;
  unsigned access = 0;
  std::string fill = "zero";  ///< "zero", "pattern", "text:<text>"
};

struct CqSpec {
  std::string name;
  int depth = 16;
};

struct QpSpec {
  std::string name;
  QpType type = QpType::RC;
  std::string sendCq, recvCq;
  QpCap cap;
  bool sqSigAll = false;
  std::uint32_t psn = 0;  ///< the PSN this side publishes and sends from
};

struct HostSpec {
  std::string name;
  std::vector<MrSpec> mrs;
  std::vector<CqSpec> cqs;
  std::vector<QpSpec> qps;
};

struct SgeSpec {
  std::string mr;
  std::uint64_t offset = 0;
  std::uint32_t length = 0;
};

/// modify_qp: the mask is the set of attributes given (or an explicit "mask" list).
struct ModifyQpStep {
  std::string qp;
  QpAttr attr;
  unsigned mask = 0;
  bool destQpnFromPeer = false, rqPsnFromPeer = false, dgidFromPeer = false, sqPsnOwn = false,
       dlidFromPeer = false;
};

struct PostSendStep {
  std::string qp;
  SendWr wr;  ///< sgList, remoteAddr and rkey are filled from `sges` and `remoteOffset`
  std::vector<SgeSpec> sges;
  std::optional<std::uint64_t> remoteOffset;  ///< into the peer's published MR
  bool udToPeer = false;                      ///< UD: address the peer's published QP
};

struct PostRecvStep {
  std::string qp;
  std::uint64_t wrId = 0;
  std::vector<SgeSpec> sges;
};

struct ExpectedCompletion {
  std::optional<std::uint64_t> wrId;
  std::optional<sim::WcStatus> status;
  std::optional<sim::WcOpcode> opcode;
  std::optional<std::uint32_t> byteLen;
  std::optional<std::uint32_t> immData;
};

struct PollCqStep {
  std::string cq;
  int count = 1;
  std::chrono::milliseconds timeout{1000};
  std::vector<ExpectedCompletion> expect;
};

/// The out-of-band exchange (rc_pingpong's TCP socket): host `from` publishes its QP's
/// number, PSN, GID and LID, and optionally an MR's address and rkey, to host `to`.
struct ExchangeStep {
  int from = 0;
  std::string qp;
  std::string mr;
};

/// Advance simulated time (SimBackend only; a real backend sleeps).
struct RunStep {
  std::chrono::microseconds duration{0};
};

/// Compare bytes of two MRs (data integrity at the end of a scenario).
struct CompareMemoryStep {
  int hostA = 0;
  std::string mrA;
  std::uint64_t offsetA = 0;
  int hostB = 1;
  std::string mrB;
  std::uint64_t offsetB = 0;
  std::uint64_t length = 0;
};

struct Step {
  int host = 0;                    ///< who acts (exchange: the publisher)
  std::string path;                ///< JSON path, for messages
  std::string text;                ///< one-line description
  std::optional<int> expectErrno;  ///< the call must fail with this errno
  std::variant<ModifyQpStep, PostSendStep, PostRecvStep, PollCqStep, ExchangeStep, RunStep,
               CompareMemoryStep>
      action;
};

struct Scenario {
  std::string name;
  std::string description;
  std::string file;  ///< where it came from ("<builtin>" for built-ins)
  std::uint64_t seed = 1;
  sim::WireFormat wire = sim::WireFormat::RoceV2Ipv4;
  sim::LinkConfig link;
  sim::FaultConfig faults;
  HostSpec hosts[2];
  std::vector<Step> steps;
  nlohmann::json json;  ///< the source
};

/// Parses a scenario; `file` names it in error messages. Throws ScenarioError.
Scenario parseScenario(const nlohmann::json& json, const std::string& file);
/// Reads and parses a JSON file. Throws ScenarioError.
Scenario loadScenarioFile(const std::string& path);

/// rc-send-recv, rc-write, rc-write-imm, rc-read, rc-atomic, uc-write, ud-send, rnr-retry,
/// lossy-go-back-n, remote-access-error, retry-exceeded, rc-lossy-stream, tour.
std::vector<std::string> builtinScenarioNames();
/// The JSON of a built-in scenario; throws ScenarioError for an unknown name.
nlohmann::json builtinScenarioJson(const std::string& name);
Scenario builtinScenario(const std::string& name);
/// The built-in scenario of that name, or else the scenario file at that path. Throws
/// ScenarioError ("'X' is neither a built-in scenario nor a file", or the file's error).
Scenario findScenario(const std::string& nameOrFile);

/// What one step did.
struct StepOutcome {
  std::size_t index = 0;
  int host = 0;
  std::string text;
  bool ok = true;
  std::string message;  ///< error or result text
  std::vector<WorkCompletion> completions;
};

/// Executes a scenario over two backends, one step at a time.
class ScenarioRun {
 public:
  /// Creates each host's PD, MRs, CQs and QPs. `note` receives a line per call (may be empty).
  ScenarioRun(const Scenario& scenario, Backend& host0, Backend& host1,
              std::function<void(int host, const std::string& line)> note = {});

  /// Setup failed (no step can run); the message says why.
  const std::optional<std::string>& setupError() const { return setupError_; }
  bool done() const { return setupError_.has_value() || next_ >= scenario_.steps.size(); }
  std::size_t nextStep() const { return next_; }
  /// Runs the next step.
  StepOutcome step();
  /// Every completion seen by either host, in order.
  const std::vector<std::pair<int, WorkCompletion>>& completions() const { return completions_; }
  const MemoryRegion* mr(int host, const std::string& name) const;
  std::optional<std::uint32_t> qpNum(int host, const std::string& name) const;
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
  struct Peer {
    bool valid = false;
    std::uint32_t qpn = 0, psn = 0;
    Gid gid{};
    std::uint16_t lid = 0;
    bool hasMr = false;  ///< an MR was published (its rkey is 0 without remote access)
    std::uint64_t addr = 0;
    std::uint32_t rkey = 0;
  };
  struct HostState {
    Backend* backend = nullptr;
    Handle pd = 0;
    std::map<std::string, MemoryRegion> mrs;
    std::map<std::string, Handle> cqs;
    std::map<std::string, QueuePair> qps;
    std::map<std::string, std::uint32_t> psns;
    Peer peer;  ///< what the other host published
  };
  Status runStep(const Step& s, StepOutcome& out);
  struct SimCm;
  Status cmExchange(const ExchangeStep& a, StepOutcome& out);
  Status cmAfterModify(int host, const ModifyQpStep& a);
  std::vector<PeerInfo> cmPublished(int host) const;
  void cmAdjust(int host, const ModifyQpStep& a, QpAttr& attr, StepOutcome& out) const;
  std::shared_ptr<SimCm> cm_;  // shared: SimCm is complete only in sim_cm.cpp
  Status resolveSges(HostState& h, const std::vector<SgeSpec>& in, std::vector<sim::Sge>& out);

  const Scenario& scenario_;
  HostState hosts_[2];
  std::function<void(int, const std::string&)> note_;
  std::optional<std::string> setupError_;
  std::size_t next_ = 0;
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

/// Names used in scenario JSON ("SUCCESS", "RDMA_WRITE", "RTS", "RC", "roce-v2-ipv4"...).
std::optional<sim::WcStatus> wcStatusFromName(const std::string& name);
std::string wcStatusName(sim::WcStatus status);

}  // namespace rdmascope::verbs_backend
