#pragma once
/// @file scenario_types.h
/// The data of a scenario: two hosts with their MRs, CQs and QPs, the link and its faults, and
/// the steps (verbs calls, the out-of-band exchange, waits and memory comparisons) in order.
/// scenario_file.h reads it from JSON; scenario_executor.h runs it.

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "rdmascope/sim/network.h"
#include "rdmascope/verbs_backend/backend.h"

namespace rdmascope::verbs_backend {

/// A memory region a host registers at setup.
struct MrSpec {
  std::string name;
  std::uint64_t size = 4096;
  unsigned access = 0;
  std::string fill = "zero";  ///< "zero", "pattern", "text:<text>"
};

/// A completion queue a host creates at setup.
struct CqSpec {
  std::string name;
  int depth = 16;
};

/// A queue pair a host creates at setup.
struct QpSpec {
  std::string name;
  QpType type = QpType::RC;
  std::string sendCq, recvCq;
  QpCap cap;
  bool sqSigAll = false;
  std::uint32_t psn = 0;  ///< the PSN this side publishes and sends from
};

/// One host: its name and the objects it creates before the first step.
struct HostSpec {
  std::string name;
  std::vector<MrSpec> mrs;
  std::vector<CqSpec> cqs;
  std::vector<QpSpec> qps;
};

/// A scatter/gather element: `length` bytes at `offset` into the host's MR `mr`.
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
  /// Whether the step takes any value from the peer's published ones.
  bool usesPeer() const { return destQpnFromPeer || rqPsnFromPeer || dgidFromPeer || dlidFromPeer; }
};

/// post_send of one work request.
struct PostSendStep {
  std::string qp;
  SendWr wr;  ///< sgList, remoteAddr and rkey are filled from `sges` and `remoteOffset`
  std::vector<SgeSpec> sges;
  std::optional<std::uint64_t> remoteOffset;  ///< into the peer's published MR
  bool udToPeer = false;                      ///< UD: address the peer's published QP
};

/// post_recv of one work request.
struct PostRecvStep {
  std::string qp;
  std::uint64_t wrId = 0;
  std::vector<SgeSpec> sges;
};

/// What a polled completion must be; unset fields are not compared. ibv_poll_cq(3): with an
/// error status only wr_id and status are valid, so opcode, byte_len and imm are compared only
/// on successful completions.
struct ExpectedCompletion {
  std::optional<std::uint64_t> wrId;
  std::optional<sim::WcStatus> status;
  std::optional<sim::WcOpcode> opcode;
  std::optional<std::uint32_t> byteLen;
  std::optional<std::uint32_t> immData;
};

/// poll_cq until `count` completions or `timeout` (the backend's time: simulated or wall).
struct PollCqStep {
  std::string cq;
  int count = 1;
  std::chrono::milliseconds timeout{1000};
  std::vector<ExpectedCompletion> expect;
};

/// The out-of-band exchange (rc_pingpong's TCP socket): host `from` publishes its QP's
/// number, PSN, GID and LID, and optionally an MR's address and rkey, to the other host.
struct ExchangeStep {
  int from = 0;
  std::string qp;
  std::string mr;
};

/// Let time pass: simulated time on the simulator, wall-clock time on a real device.
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

/// One step of a scenario.
struct Step {
  int host = 0;                    ///< who acts (exchange: the publisher)
  std::string path;                ///< JSON path, for messages
  std::string text;                ///< one-line description
  std::string title;               ///< narration: starts a part of the scenario so titled
  std::string explanation;         ///< narration: what that part shows
  std::optional<int> expectErrno;  ///< the call must fail with this errno
  std::variant<ModifyQpStep, PostSendStep, PostRecvStep, PollCqStep, ExchangeStep, RunStep,
               CompareMemoryStep>
      action;
};

/// A whole scenario.
struct Scenario {
  std::string name;
  std::string description;
  std::string title;        ///< narration: "title", else the name
  std::string explanation;  ///< narration of the setup ("explanation")
  std::string file;         ///< where it came from ("<builtin NAME>" for built-ins)
  std::uint64_t seed = 1;
  sim::WireFormat wire = sim::WireFormat::RoceV2Ipv4;
  sim::LinkConfig link;
  sim::FaultConfig faults;
  HostSpec hosts[2];
  std::vector<Step> steps;
  nlohmann::json json;  ///< the source
};

}  // namespace rdmascope::verbs_backend
