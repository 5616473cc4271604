#pragma once
// Output options shared by decode and capture (-V, -T, -e, -E, -Y, --roce-port).

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "packet_printer.h"
#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/display_filter.h"

namespace CLI {
class App;
}

namespace rdmascope::cli {

struct OutputArgs {
  bool verbose = false;
  std::string format;  ///< -T: fields or json (empty: summary or tree)
  std::vector<std::string> fields;
  std::vector<std::string> fieldOptions;  ///< -E name=value
  std::string displayFilter;
  unsigned rocePort = 4791;
};

/// Adds -V, -T, -e, -E, -Y and --roce-port to a subcommand.
void addOutputOptions(CLI::App& command, OutputArgs& args);

/// Adds --roce-port (1 to 65535, as every subcommand that decodes checks it).
void addRocePortOption(CLI::App& command, unsigned& port);

/// Checks the options and builds what the printer and filter need; on an error writes the
/// one-line message to `err` and returns false.
bool prepareOutput(const OutputArgs& args, PrintOptions& print,
                   std::optional<packets::DisplayFilter>& filter,
                   packets::DecodeOptions& decodeOptions, std::ostream& err);

/// Writes "rdmascope-cli: MESSAGE" to err.
void reportError(std::ostream& err, const std::string& message);

}  // namespace rdmascope::cli
