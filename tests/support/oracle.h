#pragma once
/// @file oracle.h
/// The external programs the tests check rdmascope against (tshark, editcap, the built
/// rdmascope-cli) and the Soft-RoCE lab: where each is found, what is missing, and what a test
/// does without it. Outside CI a missing oracle skips the check and the skip names what is
/// missing; with RDMASCOPE_REQUIRE_ORACLES=1 (scripts/test.sh, i.e. CI) it fails the test
/// instead, so no check passes silently for want of its oracle.
///
/// Each program can be pointed elsewhere by an environment variable (RDMASCOPE_TSHARK,
/// RDMASCOPE_EDITCAP, RDMASCOPE_CLI): its value must name an executable file, so
/// RDMASCOPE_TSHARK=/nonexistent makes tshark missing. The lab needs what
/// tests/support/lab_prerequisites.txt lists; RDMASCOPE_SKIP_LAB=1 counts as a missing lab.
/// tests/support/oracle.sh and tests/support/oracle.py follow the same rules.
///
/// Usage: `RDMASCOPE_NEED_ORACLES(Tshark, Cli);` at the top of a test, or
/// `if (haveOracles({Oracle::Tshark})) { ... }` around the part of a test that needs it.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rdmascope::testing {

/// An external program a test compares with or runs, or the lab (two qemu guests).
enum class Oracle { Tshark, Editcap, Cli, Lab };

/// The program's name as installed ("tshark", "rdmascope-cli", ...).
inline std::string_view oracleName(Oracle o) {
  switch (o) {
    case Oracle::Tshark:
      return "tshark";
    case Oracle::Editcap:
      return "editcap";
    case Oracle::Cli:
      return "rdmascope-cli";
    case Oracle::Lab:
      return "the Soft-RoCE lab";
  }
  return "?";
}

/// The environment variable that overrides where the oracle is found (for the lab: skips it).
inline const char* oracleVariable(Oracle o) {
  switch (o) {
    case Oracle::Tshark:
      return "RDMASCOPE_TSHARK";
    case Oracle::Editcap:
      return "RDMASCOPE_EDITCAP";
    case Oracle::Cli:
      return "RDMASCOPE_CLI";
    case Oracle::Lab:
      return "RDMASCOPE_SKIP_LAB";
  }
  return "";
}

/// How to get the oracle when it is missing.
inline std::string_view oracleRemedy(Oracle o) {
  switch (o) {
    case Oracle::Tshark:
      return "install the Debian package tshark";
    case Oracle::Editcap:
      return "install the Debian package wireshark-common";
    case Oracle::Cli:
      return "build the rdmascope-cli target";
    case Oracle::Lab:
      return "install what tests/support/lab_prerequisites.txt names";
  }
  return "";
}

/// Where an oracle was found (path), or why not (missing: one phrase naming it).
struct OracleLookup {
  std::string path;
  std::string missing;
};

namespace detail {

inline bool isExecutableFile(const std::string& path) {
  return !path.empty() && ::access(path.c_str(), X_OK) == 0 &&
         std::ifstream(path).good();  // a directory is not a program
}

inline std::string searchPath(std::string_view program) {
  const char* env = std::getenv("PATH");
  const std::string path = env ? env : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t end = std::min(path.find(':', start), path.size());
    // Built by append: gcc 12's -Wrestrict misfires on assigning or adding short strings here.
    std::string candidate;
    if (end > start)
      candidate.append(path, start, end - start);
    else
      candidate.push_back('.');
    candidate.push_back('/');
    candidate.append(program);
    if (isExecutableFile(candidate)) return candidate;
    start = end + 1;
  }
  return {};
}

inline std::string trimmed(std::string line) {
  line = line.substr(0, line.find('#'));
  const auto b = line.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  return line.substr(b, line.find_last_not_of(" \t\r") + 1 - b);
}

/// The non-comment lines of a list under tests/support.
inline std::vector<std::string> supportList(const std::string& name) {
  std::vector<std::string> lines;
  std::ifstream in(std::string(RDMASCOPE_SOURCE_DIR) + "/tests/support/" + name);
  for (std::string line; std::getline(in, line);)
    if (std::string t = trimmed(line); !t.empty()) lines.push_back(std::move(t));
  return lines;
}

/// What of tests/support/lab_prerequisites.txt is missing, joined with ", ".
inline std::string missingLabPrerequisites() {
  const auto list = supportList("lab_prerequisites.txt");
  if (list.empty()) return "tests/support/lab_prerequisites.txt (unreadable)";
  std::string missing;
  for (const auto& line : list) {
    std::istringstream words(line);
    std::string what, package;
    words >> what >> package;
    const bool found =
        what.starts_with('/') ? std::ifstream(what).good() : !searchPath(what).empty();
    if (!found)
      missing += (missing.empty() ? "" : ", ") + what + " (Debian package " + package + ")";
  }
  return missing;
}

inline std::string builtCli() {
#ifdef RDMASCOPE_CLI
  return RDMASCOPE_CLI;
#else
  return {};
#endif
}

}  // namespace detail

/// Looks the oracle up: its environment variable when set, else the build's rdmascope-cli or
/// the program on PATH. The lab is there when every prerequisite is (its path is then
/// lab/run-pair.sh).
inline OracleLookup findOracle(Oracle o) {
  const std::string name(oracleName(o));
  OracleLookup r;
  if (o == Oracle::Lab) {
    if (const char* skip = std::getenv("RDMASCOPE_SKIP_LAB"); skip && std::string_view(skip) == "1")
      r.missing = name + " (RDMASCOPE_SKIP_LAB=1)";
    else if (std::string m = detail::missingLabPrerequisites(); !m.empty())
      r.missing = name + " (missing " + m + ")";
    else
      r.path = std::string(RDMASCOPE_SOURCE_DIR) + "/lab/run-pair.sh";
    return r;
  }
  if (const char* over = std::getenv(oracleVariable(o)); over && *over) {
    if (detail::isExecutableFile(over))
      r.path = over;
    else
      r.missing = name + " (" + oracleVariable(o) + "=" + over + " is not an executable file)";
    return r;
  }
  if (o == Oracle::Cli) {
    r.path = detail::builtCli();
    if (r.path.empty())
      r.missing =
          name + " (this test target was built without it: " + std::string(oracleRemedy(o)) + ")";
    else if (!detail::isExecutableFile(r.path))
      r.missing = name + " (" + std::exchange(r.path, {}) +
                  " is not built: " + std::string(oracleRemedy(o)) + ")";
    return r;
  }
  r.path = detail::searchPath(name);
  if (r.path.empty()) r.missing = name + " (not on PATH: " + std::string(oracleRemedy(o)) + ")";
  return r;
}

/// The oracle's path, empty when it is missing.
inline std::string oraclePath(Oracle o) {
  return findOracle(o).path;
}

/// The oracle's path quoted for a shell command line ("'/usr/bin/tshark'").
inline std::string oracleCommand(Oracle o) {
  std::string q = "'";
  for (char c : oraclePath(o))
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// What is missing of `oracles`, joined with "; " (empty when all are there).
inline std::string missingOracles(std::initializer_list<Oracle> oracles) {
  std::string all;
  for (Oracle o : oracles)
    if (std::string m = findOracle(o).missing; !m.empty()) all += (all.empty() ? "" : "; ") + m;
  return all;
}

/// True when RDMASCOPE_REQUIRE_ORACLES=1: a missing oracle fails the test.
inline bool oraclesRequired() {
  const char* v = std::getenv("RDMASCOPE_REQUIRE_ORACLES");
  return v && std::string_view(v) == "1";
}

/// Records that `what` (a missing oracle or other prerequisite, named) keeps a check from
/// running: a failure under RDMASCOPE_REQUIRE_ORACLES=1, else a skip naming it. Either way the
/// caller decides whether the test goes on.
inline void reportMissingOracle(const std::string& what) {
  if (oraclesRequired())
    ADD_FAILURE() << "RDMASCOPE_REQUIRE_ORACLES=1 and the check needs what is missing: " << what;
  else
    GTEST_SKIP() << "missing: " << what;
}

/// True when every oracle is there; otherwise reports what is missing (reportMissingOracle)
/// and returns false.
inline bool haveOracles(std::initializer_list<Oracle> oracles) {
  const std::string missing = missingOracles(oracles);
  if (missing.empty()) return true;
  reportMissingOracle(missing);
  return false;
}

/// The heuristic dissectors every tshark comparison disables, read from
/// tests/support/tshark_disabled_protocols.txt (the one list, shared with the Python checkers).
inline const std::vector<std::string>& tsharkDisabledProtocols() {
  static const std::vector<std::string> list = detail::supportList("tshark_disabled_protocols.txt");
  if (list.empty())
    ADD_FAILURE() << "no protocol read from tests/support/tshark_disabled_protocols.txt";
  return list;
}

/// tshark's `--disable-protocol NAME` options for tsharkDisabledProtocols(), each with a
/// leading space, for a shell command line.
inline std::string tsharkDisableOptions() {
  std::string options;
  for (const auto& p : tsharkDisabledProtocols())
    options += " --disable-protocol " + p;
  return options;
}

/// The same options as separate arguments (for a program run without a shell).
inline std::vector<std::string> tsharkDisableArgs() {
  std::vector<std::string> args;
  for (const auto& p : tsharkDisabledProtocols()) {
    args.push_back("--disable-protocol");
    args.push_back(p);
  }
  return args;
}

}  // namespace rdmascope::testing

/// Ends the test unless every listed oracle is there: skipped naming what is missing, or
/// failed under RDMASCOPE_REQUIRE_ORACLES=1. Arguments: rdmascope::testing::Oracle enumerators
/// without their scope (Tshark, Editcap, Cli, Lab).
#define RDMASCOPE_NEED_ORACLES(...)                                \
  do {                                                             \
    using enum ::rdmascope::testing::Oracle;                       \
    if (!::rdmascope::testing::haveOracles({__VA_ARGS__})) return; \
  } while (0)
