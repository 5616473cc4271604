#include "rdmascope/cli/cli.h"

#include <CLI/CLI.hpp>

#include "commands.h"
#include "output_options.h"

namespace rdmascope::cli {
namespace {

// CLI11 says "The following argument was not expected: X"; this names the command the argument
// was given to and what it was taken for: an unknown command, option or surplus argument.
std::string unexpectedArgument(const CLI::App& app, const std::string& fallback) {
  const CLI::App* at = &app;
  std::string path;
  for (;;) {
    const auto chosen = at->get_subcommands();
    if (chosen.empty()) break;
    at = chosen.front();
    path += (path.empty() ? "" : " ") + at->get_name();
  }
  std::vector<std::string> extras;
  for (const CLI::App* a = at; a && extras.empty(); a = a->get_parent())
    extras = a->remaining(false);
  if (extras.empty()) return fallback;
  const std::string& arg = extras.front();
  const std::string where = path.empty() ? std::string() : path + ": ";
  if (arg.size() > 1 && arg[0] == '-') return where + "unknown option '" + arg + "' (see --help)";
  if (at->get_require_subcommand_min() > 0) {
    std::string names;
    const auto commands = at->get_subcommands([](const CLI::App*) { return true; });
    for (std::size_t i = 0; i < commands.size(); ++i)
      names += (i == 0 ? "" : i + 1 == commands.size() ? " or " : ", ") + commands[i]->get_name();
    return where + "unknown command '" + arg + "' (" + names + ")";
  }
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
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help: CLI11 prints the selected subcommand's help
    app.exit(e, out, err);
    return kExitOk;
  } catch (const CLI::ExtrasError& e) {
    reportError(err, unexpectedArgument(app, e.what()));
    return kExitUsage;
  } catch (const CLI::ParseError& e) {
    reportError(err, e.what());
    return kExitUsage;
  }
  if (!action) {
    reportError(err,
                "no command given (decode, capture, analyze, compare, bench, sim, verbs or lab; "
                "see --help)");
    return kExitUsage;
  }
  return action(out, err);
}

}  // namespace rdmascope::cli
