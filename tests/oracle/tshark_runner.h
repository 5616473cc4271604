#pragma once
// Running tshark (and other commands) from the oracle tests.

#include <cstdio>
#include <cstdlib>
#include <string>

namespace rdmascope::testing {

/// True when tshark is installed (tests skip with that reason otherwise).
inline bool haveTshark() {
  return std::system("tshark -v > /dev/null 2>&1") == 0;
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

}  // namespace rdmascope::testing
