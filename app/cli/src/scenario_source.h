#pragma once
// What `sim` and `verbs` share: finding a scenario by name or file, and the one-line
// completion format both print so that their outputs can be diffed line by line.

#include <optional>
#include <ostream>
#include <string>

#include "rdmascope/verbs_backend/scenario.h"

namespace rdmascope::cli {

/// A built-in scenario by name, or a scenario file. On failure writes the one-line error
/// (file, JSON path, expectation) to `err` and returns nothing.
std::optional<verbs_backend::Scenario> loadScenario(const std::string& nameOrFile,
                                                    std::ostream& err);

/// "HOST wr_id N STATUS OPCODE byte_len N[ imm 0xX]": no QPN, which differs between runs.
std::string formatCompletion(const std::string& hostName, const verbs_backend::WorkCompletion& wc);

}  // namespace rdmascope::cli
