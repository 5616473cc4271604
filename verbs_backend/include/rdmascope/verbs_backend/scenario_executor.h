#pragma once
/// @file scenario_executor.h
/// The one scenario engine: a HostExecutor holds one host's verbs objects (PD, MRs, CQs, QPs)
/// and is the only implementation of each step kind (modify_qp with the peer's values,
/// post_send/post_recv and their SGEs, poll_cq and its expectation check, the expected errno,
/// run_us, compare_memory, the published values of an exchange). What crosses to the other
/// host goes through a PeerLink: in one process (the simulator, a device's --loopback run: two
/// executors side by side) or over the out-of-band TCP connection (one executor per machine).
/// How the QPs learn the peer's values is a Connector: the exchange steps by default, the
/// simulated rdma_cm (sim --cm) or librdmacm (verbs --cm) in their place.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "rdmascope/verbs_backend/backend.h"
#include "rdmascope/verbs_backend/oob_exchange.h"
#include "rdmascope/verbs_backend/scenario_types.h"

namespace rdmascope::verbs_backend {

/// What one step did.
struct StepOutcome {
  std::size_t index = 0;
  int host = 0;
  std::string text;
  bool ok = true;
  /// The step could not take part with the peer (cancelled, or the peer link failed): the run
  /// stops here. Other failures are recorded and the run goes on.
  bool fatal = false;
  std::string message;  ///< error or result text
  std::vector<WorkCompletion> completions;
};

/// "step N host-a: ok|FAIL: message" with the completions: one line per outcome, the form in
/// which runs in different modes are compared.
std::string formatStepOutcome(const Scenario& scenario, const StepOutcome& outcome);

/// How one host's executor reaches the other host.
class PeerLink {
 public:
  virtual ~PeerLink() = default;
  /// Sends what this host publishes at an exchange step.
  virtual Status publish(const PeerInfo& info) = 0;
  /// What the peer published at its exchange step; `what` says what is awaited.
  virtual Result<PeerInfo> receive(const std::string& what) = 0;
  /// Returns once the peer has reached the barrier `name` too (`what`: "before step 4").
  virtual Status barrier(const std::string& name, const std::string& what) = 0;
  /// A compare_memory step spanning both hosts: `mine` is this host's range of it. Returns the
  /// offset of the first byte that differs from the peer's range, or nothing when all are equal.
  virtual Result<std::optional<std::uint64_t>> compareMemory(
      const CompareMemoryStep& step, std::span<const std::uint8_t> mine) = 0;
};

class HostExecutor;

/// A way of connecting the QPs that replaces the exchange steps (an rdma_cm). The default
/// (no connector) publishes and receives over the PeerLink.
class Connector {
 public:
  virtual ~Connector() = default;
  /// Runs this host's part of an exchange step.
  virtual Status exchange(HostExecutor& host, const ExchangeStep& step, StepOutcome& out) = 0;
  /// Runs a modify_qp step in its place, or returns nothing for the plain modify_qp.
  virtual std::optional<Status> modifyQp(HostExecutor& host, const ModifyQpStep& step,
                                         StepOutcome& out) = 0;
  /// Before a post_send that uses the peer's published values (remote_offset, ud_peer).
  virtual Status needPeer(HostExecutor& host) = 0;
  /// Before every step this host takes part in.
  virtual Status beforeStep(HostExecutor& host, const Step& step) = 0;
};

/// What an executor reports while it runs, and how it is stopped.
struct ExecutorHooks {
  std::function<void(const std::string&)> note;           ///< each setup call
  std::function<void(const WorkCompletion&)> completion;  ///< each completion polled
  std::function<void(const std::string&)> waiting;        ///< what a poll waits for
  /// When it becomes true (another thread), a poll_cq or run_us step ends with ECANCELED within
  /// 100 ms of the backend's time.
  const std::atomic<bool>* stop = nullptr;
};

/// One host of a scenario: its objects and the semantics of every step.
class HostExecutor {
 public:
  HostExecutor(const Scenario& scenario, int side, Backend& backend, PeerLink& link,
               ExecutorHooks hooks = {});
  HostExecutor(const HostExecutor&) = delete;
  HostExecutor& operator=(const HostExecutor&) = delete;

  /// Creates the PD, the MRs (filled as the scenario says), the CQs and the QPs. Returns an
  /// empty string, or "host-a: ibv_reg_mr(buf) failed: ..." (one line).
  std::string setup();
  /// Whether this host has a part in `step`: its own steps, both ends of an exchange, and a
  /// compare_memory with a range here.
  bool takesPart(const Step& step) const;
  /// Runs this host's part of `step` (number `index`), the errno expectation applied.
  StepOutcome run(const Step& step, std::size_t index);

  void setConnector(Connector* connector) { connector_ = connector; }
  void setStop(const std::atomic<bool>* stop) { hooks_.stop = stop; }

  int side() const { return side_; }
  const Scenario& scenario() const { return scenario_; }
  const std::string& name() const { return scenario_.hosts[side_].name; }
  Backend& backend() { return backend_; }
  const DeviceInfo& device() const { return device_; }
  const MemoryRegion* mr(const std::string& name) const;
  std::optional<QueuePair> qp(const std::string& name) const;
  /// The PSN the scenario gives QP `name` (what this host publishes and sends from).
  std::uint32_t psn(const std::string& name) const;
  /// The bytes of MR `name` from `offset`, `length` long; empty with an error when the range
  /// does not lie inside the MR (offset + length may not wrap around 2^64).
  Result<std::span<std::uint8_t>> range(const std::string& mr, std::uint64_t offset,
                                        std::uint64_t length);

  /// What the peer published (nothing before an exchange or a CM message delivered it).
  std::optional<PeerInfo>& peer() { return peer_; }
  /// What this host publishes at exchange step `step`.
  PeerInfo published(const ExchangeStep& step) const;
  /// Fills a modify_qp's peer-derived attributes (dest_qpn, rq_psn, dgid, dlid, own sq_psn).
  Status fillFromPeer(const ModifyQpStep& step, QpAttr& attr) const;

 private:
  Status runAction(const Step& step, StepOutcome& out);
  Status modify(const ModifyQpStep& a, StepOutcome& out);
  Status postSend(const PostSendStep& a);
  Status sges(const std::vector<SgeSpec>& in, std::vector<sim::Sge>& out) const;
  Status poll(const PollCqStep& a, StepOutcome& out);
  Status exchange(const ExchangeStep& a, StepOutcome& out);
  Status compare(const CompareMemoryStep& a, StepOutcome& out);
  bool stopped() const { return hooks_.stop != nullptr && hooks_.stop->load(); }

  const Scenario& scenario_;
  int side_;
  Backend& backend_;
  PeerLink& link_;
  ExecutorHooks hooks_;
  Connector* connector_ = nullptr;
  DeviceInfo device_;
  Handle pd_ = 0;
  std::map<std::string, MemoryRegion> mrs_;
  std::map<std::string, Handle> cqs_;
  std::map<std::string, QueuePair> qps_;
  std::map<std::string, std::uint32_t> psns_;
  std::optional<PeerInfo> peer_;
};

/// The peer link between two executors in one process, stepped by one thread (ScenarioRun):
/// a published value waits in the receiver's inbox, barriers are already met, and a memory
/// comparison reads the other executor's bytes.
class InProcessLink final : public PeerLink {
 public:
  /// Connects `a`'s and `b`'s links to each other and to the executors they serve.
  static void pair(InProcessLink& a, HostExecutor& hostA, InProcessLink& b, HostExecutor& hostB);
  Status publish(const PeerInfo& info) override;
  Result<PeerInfo> receive(const std::string& what) override;
  Status barrier(const std::string& name, const std::string& what) override;
  Result<std::optional<std::uint64_t>> compareMemory(const CompareMemoryStep& step,
                                                     std::span<const std::uint8_t> mine) override;

 private:
  InProcessLink* other_ = nullptr;
  HostExecutor* self_ = nullptr;
  HostExecutor* peerHost_ = nullptr;
  std::deque<PeerInfo> inbox_;
};

/// The peer link over the out-of-band TCP connection (rc_pingpong's): a published value is
/// one formatPeerInfo line, a barrier is OobConnection::barrier, and a memory comparison
/// exchanges FNV-1a hashes of the ranges, halving the range while they differ until the first
/// differing byte is found (so the answer equals the in-process one without sending the bytes).
class OobPeerLink final : public PeerLink {
 public:
  OobPeerLink(OobConnection& oob, std::chrono::milliseconds timeout,
              std::function<void(const std::string&)> waiting = {})
      : oob_(oob), timeout_(timeout), waiting_(std::move(waiting)) {}
  Status publish(const PeerInfo& info) override;
  Result<PeerInfo> receive(const std::string& what) override;
  Status barrier(const std::string& name, const std::string& what) override;
  Result<std::optional<std::uint64_t>> compareMemory(const CompareMemoryStep& step,
                                                     std::span<const std::uint8_t> mine) override;

 private:
  OobConnection& oob_;
  std::chrono::milliseconds timeout_;
  std::function<void(const std::string&)> waiting_;
};

/// FNV-1a over `bytes` (the scenario hello's and the memory comparison's hash).
std::uint64_t fnv1a(std::span<const std::uint8_t> bytes);

}  // namespace rdmascope::verbs_backend
