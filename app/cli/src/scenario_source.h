#pragma once
// What `sim` and `verbs` share: finding a scenario by name or file. (The one-line completion
// format both print is verbs_backend::formatCompletion.)

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "rdmascope/verbs_backend/scenario.h"

namespace rdmascope::cli {

/// A built-in scenario by name, or a scenario file. On failure writes the one-line error
/// (file, JSON path, expectation) to `err` and returns nothing.
std::optional<verbs_backend::Scenario> loadScenario(const std::string& nameOrFile,
                                                    std::ostream& err);

/// The files loadScenario() reads for `nameOrFile`: none for a built-in name, else the file
/// (for outputs that must not overwrite it).
std::vector<std::string> scenarioFiles(const std::string& nameOrFile);

}  // namespace rdmascope::cli
