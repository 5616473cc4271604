#include "rdmascope/cli/cli.h"

#include <CLI/CLI.hpp>

#include "commands.h"
#include "output_options.h"

namespace rdmascope::cli {

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
