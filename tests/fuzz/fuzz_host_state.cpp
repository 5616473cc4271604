// libFuzzer target: a program's NIC state as the GUI observer reads it (host_state.h's JSON:
// PDs, MRs, CQs, QPs with their WQEs). Any JSON text ends in a HostState or a refusal with one
// line; what was accepted writes out and reads back to the same state. A crash, an exception
// escaping or a sanitizer report is a finding. Seeded with states of real programs.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "rdmascope/simdev/host_state.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rdmascope::simdev;
  const nlohmann::json j =
      nlohmann::json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return 0;
  std::string error;
  const auto state = hostStateFromJson(j, error);
  if (!state) {
    if (error.empty() || error.find('\n') != std::string::npos) __builtin_trap();
    return 0;
  }
  // Written out (long queues cut), the state reads back, and then stays the same.
  const nlohmann::json once = toJson(*state);
  const auto back = hostStateFromJson(once, error);
  if (!back) __builtin_trap();
  const nlohmann::json twice = toJson(*back);
  const auto again = hostStateFromJson(twice, error);
  if (!again || toJson(*again) != twice) __builtin_trap();
  return 0;
}
