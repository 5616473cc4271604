#include "scenario_source.h"

#include <cstdio>
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

std::string formatCompletion(const std::string& hostName, const verbs_backend::WorkCompletion& wc) {
  std::string line = hostName;
  line.append(" wr_id ").append(std::to_string(wc.wrId)).append(" ");
  line.append(verbs_backend::wcStatusName(wc.status));
  // ibv_poll_cq(3): with an error status only wr_id, status, qp_num and vendor_err are valid.
  if (wc.status != sim::WcStatus::Success) return line;
  line.append(" ").append(sim::toString(wc.opcode)).append(" byte_len ");
  line.append(std::to_string(wc.byteLen));
  if (wc.wcFlags & sim::wc_flags::kWithImm) {
    char imm[24];
    std::snprintf(imm, sizeof imm, " imm 0x%08x", wc.immData);
    line += imm;
  }
  return line;
}

}  // namespace rdmascope::cli
