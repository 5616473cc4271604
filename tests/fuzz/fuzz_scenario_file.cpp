// libFuzzer target: the scenario file reader (JSON text to Scenario). Any input ends in a
// Scenario or one ScenarioError line; anything else escaping, a crash or a sanitizer report is
// a finding. Seeded with the built-in scenarios and deeply nested files.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "rdmascope/verbs_backend/scenario_file.h"
#include "rdmascope/verbs_backend/scenario_side.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rdmascope::verbs_backend;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const Scenario s = parseScenarioText(text, "fuzz.json");
    // What a side announces to its peer serialises the whole accepted value.
    (void)scenarioHello(s, 0);
  } catch (const ScenarioError& e) {
    const std::string_view line = e.what();
    if (line.find('\n') != std::string_view::npos) __builtin_trap();
  }
  return 0;
}
