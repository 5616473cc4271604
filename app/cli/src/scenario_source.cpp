#include "scenario_source.h"

#include <filesystem>

#include "output_options.h"

namespace rdmascope::cli {

std::optional<verbs_backend::Scenario> loadScenario(const std::string& nameOrFile,
                                                    std::ostream& err) {
  try {
    for (const auto& name : verbs_backend::builtinScenarioNames()) {
      if (name == nameOrFile) return verbs_backend::builtinScenario(name);
    }
    std::error_code ec;
    if (!std::filesystem::exists(nameOrFile, ec)) {
      // Appended piecewise: gcc 12 at -O3 warns falsely (-Wrestrict) on literal + string&&.
      std::string message = "'";
      message.append(nameOrFile)
          .append("' is neither a built-in scenario nor a file (--list shows the built-ins)");
      reportError(err, message);
      return std::nullopt;
    }
    return verbs_backend::loadScenarioFile(nameOrFile);
  } catch (const verbs_backend::ScenarioError& e) {
    reportError(err, e.what());
  }
  return std::nullopt;
}

}  // namespace rdmascope::cli
