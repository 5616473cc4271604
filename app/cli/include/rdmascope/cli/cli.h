#pragma once
/// @file cli.h
/// rdmascope-cli: subcommands decode, capture, analyze, sim, verbs and lab.

#include <ostream>

namespace rdmascope::cli {

/// Exit codes of rdmascope-cli.
enum ExitCode : int {
  kExitOk = 0,
  kExitBadCrc = 1,   ///< decode --verify found a bad ICRC/CRC
  kExitFailure = 1,  ///< sim, verbs or lab: a scenario step or run failed (reason on stderr)
  kExitUsage = 2,    ///< bad arguments or unreadable input (one line on stderr)
};

/// Parses the arguments and runs the subcommand, writing results to `out` and errors
/// ("rdmascope-cli: cannot open x.pcap: No such file or directory") to `err`.
int run(int argc, char** argv, std::ostream& out, std::ostream& err);

}  // namespace rdmascope::cli
