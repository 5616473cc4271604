#pragma once
/// @file topology.h
/// A switched fabric scenario as data: hosts and switches, links with speed and delay,
/// static routes, the switches' buffer, PFC and ECN settings, the NICs' DCQCN settings and the
/// flows to run, read from a JSON scenario file (examples/congestion/*.json).
///
/// A topology is either listed ("nodes", "links") or generated from a shape:
/// `{"shape": "star", "hosts": 17}` (one switch "s0", hosts "h0".."h16"), or
/// `{"shape": "leaf-spine", "leaves": 2, "spines": 2, "hostsPerLeaf": 4}` (leaves "l0"..,
/// spines "sp0"..; each leaf links to every spine). Ports are numbered per node from 0 in the
/// order its links are listed (generated: hosts first, then uplinks). Routes are the shortest
/// paths (equal-cost next hops chosen per flow by a hash of its addresses and UDP source
/// port), unless a "routes" entry names the next hop a switch takes towards a host.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rdmascope/sim/dcqcn.h"
#include "rdmascope/sim/sim_time.h"
#include "rdmascope/sim/switch_buffer.h"

namespace rdmascope::sim {

struct NodeSpec {
  std::string name;
  bool isSwitch = false;
};

struct LinkSpec {
  std::string a, b;
  double gbps = 100.0;
  SimTime delay = SimTime::us(1);
};

/// Switch `at` sends frames for host `to` out of its port towards node `via`.
struct RouteSpec {
  std::string at, to, via;
};

/// An RC connection whose requester writes `messageBytes` RDMA WRITEs, `depth` outstanding,
/// from `start` until `bytes` are written (0: until the run ends).
struct FlowSpec {
  std::string name;
  std::string src, dst;
  int dscp = 26;  ///< the common RoCE marking: DSCP 26, priority 3
  SimTime start;
  std::uint64_t bytes = 0;
  std::uint32_t messageBytes = 64 * 1024;
  int depth = 4;
};

struct SwitchSettings {
  SwitchBufferConfig buffer;
  bool pfc = true;
  /// Quanta of an XOFF PAUSE (units of 512 bit times); the switch repeats it while the ingress
  /// stays above XON, when half of it has run out.
  std::uint16_t pauseQuanta = 0xffff;
  /// Headroom per ingress port and lossless priority; unset: computed from the link's round
  /// trip (Fabric::requiredHeadroom).
  std::optional<std::uint64_t> headroom;
  bool ecn = false;
  EcnMarking marking;
  /// Where a switch finds a frame's priority: "dscp" (DSCP / 8) or "pcp" (the 802.1Q tag the
  /// NICs then add).
  bool classifyByPcp = false;
};

struct NicSettings {
  bool dcqcn = false;  ///< ECN-capable transport (ECT(0)) and the NP/RP roles
  DcqcnParams params;
  int cnpDscp = 48;  ///< CNPs go at priority 6
};

/// A port to capture: "s0:3" (port 3 of switch s0) or "h2" (host h2's only port).
struct PortRef {
  std::string node;
  int port = 0;
};

struct ScenarioSpec {
  std::string name;
  std::string description;
  std::vector<std::string> explanation;  ///< one paragraph per effect the scenario shows
  std::vector<NodeSpec> nodes;
  std::vector<LinkSpec> links;
  std::vector<RouteSpec> routes;
  std::vector<FlowSpec> flows;
  SwitchSettings switches;
  NicSettings nics;
  SimTime duration = SimTime::ms(1);
  SimTime sampleInterval = SimTime::us(10);
  std::uint32_t linkMtu = 1500;  ///< IP MTU: 1500 gives RoCE MTU 1024, 9000 gives 4096
  std::uint8_t qpTimeout = 14;   ///< the RC retransmit timeout exponent
  std::uint64_t seed = 1;
  std::vector<PortRef> capture;
  bool detectDeadlock = true;
};

/// Reads a scenario from JSON text. On error returns nullopt and sets `error` to one line
/// naming the key (as a JSON pointer such as /flows/2/src), the bad value and why, or the
/// parser's byte position for malformed JSON.
std::optional<ScenarioSpec> parseScenario(const std::string& json, std::string& error);
/// Reads a scenario file (the error names the file).
std::optional<ScenarioSpec> loadScenario(const std::string& path, std::string& error);

/// "s0:3" or "h2" into a PortRef; nullopt for anything else.
std::optional<PortRef> parsePortRef(const std::string& text);

}  // namespace rdmascope::sim
