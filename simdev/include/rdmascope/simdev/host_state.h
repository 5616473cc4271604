#pragma once
/// @file host_state.h
/// What an observer (the GUI) sees of one attached program's simulated NIC: its protection
/// domains, memory regions with keys and access, completion queues and queue pairs with their
/// states, PSNs and send/receive WQEs. The NIC sends it to the fabric as JSON whenever it
/// changed (at most every few tens of milliseconds, and at once while paused).

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "rdmascope/sim/host.h"

namespace rdmascope::simdev {

struct CqState {
  std::uint32_t id = 0;
  int depth = 0;
  std::uint32_t waiting = 0;  ///< completions not yet polled
};

struct HostState {
  int host = 0;  ///< 1-based fabric host number
  std::string program;
  long pid = 0;
  std::vector<std::uint32_t> pds;
  std::vector<sim::MemoryRegionInfo> mrs;
  std::vector<CqState> cqs;
  std::vector<sim::QpView> qps;
};

/// The state of `host` now (call under the NIC's session lock).
HostState captureHostState(sim::Host& host);

nlohmann::json toJson(const HostState& state);
/// Null (with a one-line `error`) when a field is missing or has the wrong type.
std::optional<HostState> hostStateFromJson(const nlohmann::json& j, std::string& error);

}  // namespace rdmascope::simdev
