#include "scenario_source.h"

#include "output_options.h"

namespace rdmascope::cli {

std::optional<verbs_backend::Scenario> loadScenario(const std::string& nameOrFile,
                                                    std::ostream& err) {
  try {
    return verbs_backend::findScenario(nameOrFile);
  } catch (const verbs_backend::ScenarioError& e) {
    std::string message = e.what();
    if (message.ends_with("nor a file")) message.append(" (--list shows the built-ins)");
    reportError(err, message);
  }
  return std::nullopt;
}

std::vector<std::string> scenarioFiles(const std::string& nameOrFile) {
  for (const auto& name : verbs_backend::builtinScenarioNames())
    if (name == nameOrFile) return {};
  return {nameOrFile};
}

}  // namespace rdmascope::cli
