#pragma once
/// @file scenario_file.h
/// Reading a scenario from JSON (the format: docs/scenario-format.md, scenario_format.h). Every
/// error is one line naming the file, the line and column when read from text, and the JSON
/// path, e.g. "s.json:12:24: /hosts/0/qps/0/max_send_wr: expected an integer from 0 to
/// 4294967295, got 4294967301"; every number is checked against its range in one place (the
/// reader), a key the format does not have is refused, names of MRs, CQs, QPs and hosts must be
/// unique, a reference to an undefined one names those defined, and a value nested deeper than
/// kMaxScenarioDepth is refused before anything walks it.

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "rdmascope/verbs_backend/scenario_types.h"

namespace rdmascope::verbs_backend {

/// A scenario that cannot be read: "file: /json/path: expected ..., got ...".
class ScenarioError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The deepest nesting of arrays and objects a scenario file may have (the format needs 6).
inline constexpr int kMaxScenarioDepth = 32;

/// Parses a scenario; `file` names it in error messages. Throws ScenarioError.
Scenario parseScenario(const nlohmann::json& json, const std::string& file);
/// Parses the JSON text of a scenario file. Throws ScenarioError.
Scenario parseScenarioText(std::string_view text, const std::string& file);
/// Reads and parses a JSON file. Throws ScenarioError.
Scenario loadScenarioFile(const std::string& path);

/// A scenario's JSON as a file holds it: indented by two spaces, ending in a newline. What
/// `rdmascope-cli sim --show` prints and the GUI's File > Save Scenario As writes.
std::string scenarioJsonText(const nlohmann::json& scenario);

/// At most `limit` characters of `value` as JSON ("..." when cut), for error messages; never
/// walks more of the value than it prints.
std::string quoteJson(const nlohmann::json& value, std::size_t limit = 60);

/// Names used in scenario JSON ("SUCCESS", "RETRY_EXC_ERR"...).
std::optional<sim::WcStatus> wcStatusFromName(const std::string& name);
std::string wcStatusName(sim::WcStatus status);

}  // namespace rdmascope::verbs_backend
