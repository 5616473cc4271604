#pragma once
// Running tshark (and other commands) from the oracle tests. Finding tshark and rdmascope-cli,
// and what a test does without them, is tests/support/oracle.h's.

#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "../support/oracle.h"
#include "rdmascope/packets_io/capture_writer.h"

namespace rdmascope::testing {

/// The tshark command line start: its path (shell-quoted) and the options that disable the
/// heuristic dissectors which claim RDMA payloads (tests/support/tshark_disabled_protocols.txt).
inline std::string tsharkCommand() {
  return oracleCommand(Oracle::Tshark) + tsharkDisableOptions();
}

/// The built rdmascope-cli (shell-quoted), as tests/support/oracle.h finds it.
inline std::string cliCommand() {
  return oracleCommand(Oracle::Cli);
}

/// Runs a shell command and returns its standard output.
inline std::string runCommand(const std::string& cmd) {
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0)
      out.append(buf, n);
    pclose(p);
  }
  return out;
}

/// What a command printed on standard output and how it exited.
struct CommandOutput {
  int exitCode = -1;
  std::string out;
};

/// Runs a shell command (standard error discarded) and returns its output and exit code.
inline CommandOutput runCommandStatus(const std::string& cmd) {
  CommandOutput r;
  if (FILE* p = popen((cmd + " 2>/dev/null").c_str(), "r")) {
    char buf[65536];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0)
      r.out.append(buf, n);
    const int status = pclose(p);
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  return r;
}

/// The tab-separated cells of one line.
inline std::vector<std::string> splitTabs(const std::string& line) {
  std::vector<std::string> cells;
  std::size_t start = 0;
  for (std::size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1)
    cells.push_back(line.substr(start, tab - start));
  cells.push_back(line.substr(start));
  return cells;
}

/// Every field name tshark knows (`tshark -G fields`: "F<TAB>name<TAB>key<TAB>...").
inline std::set<std::string> tsharkFieldKeys() {
  std::set<std::string> keys;
  std::istringstream lines(runCommandStatus(oracleCommand(Oracle::Tshark) + " -G fields").out);
  for (std::string line; std::getline(lines, line);) {
    const auto cells = splitTabs(line);
    if (cells.size() > 2 && cells[0] == "F") keys.insert(cells[2]);
  }
  return keys;
}

/// One frame of `-T fields` output: key -> every occurrence joined by ','.
using FieldRow = std::map<std::string, std::string>;

/// Parses `-T fields` output printed for `keys` (empty cells are left out of the rows).
inline std::vector<FieldRow> parseFieldRows(const std::string& text,
                                            const std::vector<std::string>& keys) {
  std::vector<FieldRow> rows;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const auto cells = splitTabs(line);
    FieldRow row;
    for (std::size_t i = 0; i < keys.size() && i < cells.size(); ++i)
      if (!cells[i].empty()) row[keys[i]] = cells[i];
    rows.push_back(std::move(row));
  }
  return rows;
}

/// The `-T fields` arguments (tab separated, every occurrence joined by ',') for `keys`; the
/// same for tshark and rdmascope-cli decode.
inline std::string fieldArgs(const std::vector<std::string>& keys) {
  std::string args = " -T fields -E separator=/t -E occurrence=a -E aggregator=,";
  for (const auto& k : keys)
    args += " -e " + k;
  return args;
}

/// A capture path in the temporary directory; the process id keeps concurrent runs (ctest -j,
/// several build trees) apart.
inline std::string tempCapturePath(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("rdmascope_" + name + "_" + std::to_string(::getpid()) + ".pcap"))
      .string();
}

/// Writes Ethernet frames to a nanosecond pcap for tshark. `timeNs(frame, index)` gives each
/// frame's time stamp. False (with a test failure message from the caller) when writing fails.
template <typename Frames, typename Bytes, typename TimeNs>
bool writeEthernetPcap(const std::string& path, const Frames& frames, Bytes bytes, TimeNs timeNs,
                       std::string& error) {
  auto w = packets_io::CaptureWriter::open(path, packets::LinkType::Ethernet, error);
  if (!w) return false;
  std::int64_t index = 0;
  for (const auto& f : frames) {
    const std::span<const std::uint8_t> b = bytes(f);
    if (!w->write(b, timeNs(f, index++))) break;
  }
  if (!w->close()) {
    error = w->error();
    return false;
  }
  return true;
}

}  // namespace rdmascope::testing
