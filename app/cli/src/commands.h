#pragma once
// The subcommands of rdmascope-cli, each adding itself to the CLI11 application.

#include <functional>
#include <ostream>

namespace CLI {
class App;
}

namespace rdmascope::cli {

/// Registered subcommands store their action here; run() calls the one selected.
using Action = std::function<int(std::ostream& out, std::ostream& err)>;

void addDecodeCommand(CLI::App& app, Action& action);
void addCaptureCommand(CLI::App& app, Action& action);
void addAnalyzeCommand(CLI::App& app, Action& action);
void addCompareCommand(CLI::App& app, Action& action);
void addBenchCommand(CLI::App& app, Action& action);
void addSimCommand(CLI::App& app, Action& action);
void addVerbsCommand(CLI::App& app, Action& action);
void addLabCommand(CLI::App& app, Action& action);
void addFabricCommand(CLI::App& app, Action& action);
void addFieldsCommand(CLI::App& app, Action& action);
void addCongestionCommand(CLI::App& app, Action& action);

}  // namespace rdmascope::cli
