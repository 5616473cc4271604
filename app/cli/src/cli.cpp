#include "rdmascope/cli/cli.h"

#include <CLI/CLI.hpp>

#include "commands.h"
#include "output_options.h"
#include "rdmascope/install/install_paths.h"

namespace rdmascope::cli {
namespace {

std::string commandNames(const CLI::App& app) {
  std::string names;
  const auto commands = app.get_subcommands([](const CLI::App*) { return true; });
  for (std::size_t i = 0; i < commands.size(); ++i)
    names += (i == 0 ? "" : i + 1 == commands.size() ? " or " : ", ") + commands[i]->get_name();
  return names;
}

// CLI11 says "The following argument was not expected: X" or "A subcommand is required"; this
// names the command the argument was given to and what it was taken for: an unknown command,
// an unknown option or a surplus argument.
std::string unexpectedArgument(const CLI::App& app, const std::string& fallback) {
  std::vector<const CLI::App*> chain{&app};
  for (auto chosen = app.get_subcommands(); !chosen.empty();
       chosen = chain.back()->get_subcommands())
    chain.push_back(chosen.front());
  // The innermost command with arguments left over; with none, the innermost command.
  std::vector<std::string> extras;
  for (std::size_t i = chain.size(); i-- > 0;) {
    if (!(extras = chain[i]->remaining(false)).empty()) {
      chain.resize(i + 1);
      break;
    }
  }
  const CLI::App& at = *chain.back();
  std::string where;
  for (std::size_t i = 1; i < chain.size(); ++i)
    where += chain[i]->get_name() + (i + 1 == chain.size() ? ": " : " ");
  const bool needsCommand = at.get_require_subcommand_min() > 0 && at.get_subcommands().empty();
  if (extras.empty()) {
    if (!needsCommand) return where + fallback;
    return where + "no command given (" + commandNames(at) + "; see --help)";
  }
  const std::string& arg = extras.front();
  if (arg.size() > 1 && arg[0] == '-') return where + "unknown option '" + arg + "' (see --help)";
  if (at.get_require_subcommand_min() > 0)
    return where + "unknown command '" + arg + "' (" + commandNames(at) + ")";
  return where + "unexpected argument '" + arg + "' (see --help)";
}

}  // namespace

int run(int argc, char** argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"rdmascope-cli: decode, verify and capture RDMA traffic", "rdmascope-cli"};
  app.require_subcommand(1);
  Action action;
  addDecodeCommand(app, action);
  addCaptureCommand(app, action);
  addAnalyzeCommand(app, action);
  addCompareCommand(app, action);
  addBenchCommand(app, action);
  addSimCommand(app, action);
  addVerbsCommand(app, action);
  addLabCommand(app, action);
  addFabricCommand(app, action);
  addFieldsCommand(app, action);
  addCongestionCommand(app, action);
  app.set_version_flag("--version", install::versionLine("rdmascope-cli"),
                       "Print the version and the commit it was built from, and exit");
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version: CLI11 prints them
    app.exit(e, out, err);
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    const bool unexpected =
        dynamic_cast<const CLI::ExtrasError*>(&e) || dynamic_cast<const CLI::RequiredError*>(&e);
    reportError(err, unexpected ? unexpectedArgument(app, e.what()) : std::string(e.what()));
    return kExitUsage;
  }
  if (!action) {
    reportError(err, "no command given (" + commandNames(app) + "; see --help)");
    return kExitUsage;
  }
  return action(out, err);
}

}  // namespace rdmascope::cli
