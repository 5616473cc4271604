#pragma once
// Runs the built rdmascope-cli (or any program) and collects its exit code and output.

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace rdmascope::cli::test {

struct RunResult {
  int exitCode = -1;
  std::string out;
  std::string err;
};

inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::string shellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

inline std::string tempPath(const std::string& name) {
  const char* dir = std::getenv("TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/rdmascope_cli_" + std::to_string(::getpid()) + "_" +
         name;
}

/// Runs `program args...` through the shell with stdout and stderr captured.
inline RunResult runProgram(const std::string& program, const std::vector<std::string>& args) {
  std::string cmd = shellQuote(program);
  for (const auto& a : args)
    cmd += " " + shellQuote(a);
  const std::string outPath = tempPath("out"), errPath = tempPath("err");
  cmd += " >" + outPath + " 2>" + errPath;
  const int status = std::system(cmd.c_str());
  RunResult r;
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = readFile(outPath);
  r.err = readFile(errPath);
  std::remove(outPath.c_str());
  std::remove(errPath.c_str());
  return r;
}

inline RunResult runCli(const std::vector<std::string>& args) {
  return runProgram(RDMASCOPE_CLI, args);
}

inline std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    out.push_back(l);
  return out;
}

inline std::string golden(const std::string& name) {
  return std::string(RDMASCOPE_SOURCE_DIR) + "/tests/golden/" + name;
}

}  // namespace rdmascope::cli::test
