// rdmascope-cli sim: every built-in scenario runs, its pcap verifies in our decoder and reads
// in tshark without malformed packets; bad scenario files get a one-line error.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "../support/oracle.h"
#include "cli_runner.h"

namespace rdmascope::cli::test {
namespace {

const std::vector<std::string> kBuiltins = {
    "rc-send-recv",   "rc-write",        "rc-write-imm", "rc-read",         "rc-atomic",
    "uc-write",       "ud-send",         "rnr-retry",    "lossy-go-back-n", "remote-access-error",
    "retry-exceeded", "rc-lossy-stream", "tour"};
// The transfers sim runs on the TCP model (listed after the verbs scenarios).
const std::vector<std::string> kTransfers = {"tcp-stream", "iwarp-send-recv", "iwarp-write",
                                             "iwarp-read"};

using rdmascope::testing::haveOracles;
using rdmascope::testing::Oracle;

std::string tshark() {
  return rdmascope::testing::oraclePath(Oracle::Tshark);
}

// tshark reading `pcap` with the heuristic dissectors that claim RDMA payloads disabled.
std::vector<std::string> tsharkArgs(const std::string& pcap) {
  std::vector<std::string> a = {"-r", pcap};
  for (const auto& d : rdmascope::testing::tsharkDisableArgs())
    a.push_back(d);
  return a;
}

TEST(SimCommand, ListNamesEveryBuiltin) {
  const auto r = runCli({"sim", "--list"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto l = lines(r.out);
  std::vector<std::string> all = kBuiltins;
  all.insert(all.end(), kTransfers.begin(), kTransfers.end());
  all.insert(all.end(), {"ceph-messenger", "ceph-messenger-tcp"});
  ASSERT_EQ(l.size(), all.size()) << r.out;
  for (std::size_t i = 0; i < l.size(); ++i) {
    EXPECT_EQ(l[i].substr(0, l[i].find('\t')), all[i]);
    EXPECT_GT(l[i].size(), all[i].size() + 10) << "no description: " << l[i];
  }
}

class EveryBuiltin : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryBuiltin, RunsAndWritesAVerifiedPcap) {
  const std::string pcap = tempPath(GetParam() + ".pcap");
  const auto r = runCli({"sim", GetParam(), "--pcap", pcap});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("frame-sent"), std::string::npos) << "no trace";
  const auto pos = r.out.find("# completions\n");
  ASSERT_NE(pos, std::string::npos);
  const auto completions = lines(r.out.substr(pos + 14));
  ASSERT_FALSE(completions.empty());
  for (const auto& c : completions)
    EXPECT_NE(c.find(" wr_id "), std::string::npos) << c;
  const auto v = runCli({"decode", "--verify", pcap});
  EXPECT_EQ(v.exitCode, 0) << v.out << v.err;
  EXPECT_NE(v.out.find(" 0 bad CRC"), std::string::npos) << v.out;
  if (haveOracles({Oracle::Tshark})) {
    const auto t = runProgram(tshark(), tsharkArgs(pcap));
    EXPECT_EQ(t.exitCode, 0) << t.err;
    EXPECT_FALSE(t.out.empty());
    EXPECT_EQ(t.out.find("Malformed"), std::string::npos) << t.out;
  }
  std::remove(pcap.c_str());
}

INSTANTIATE_TEST_SUITE_P(Sim, EveryBuiltin, ::testing::ValuesIn(kBuiltins), [](const auto& p) {
  std::string n = p.param;
  for (char& c : n)
    if (c == '-') c = '_';
  return n;
});

TEST(SimCommand, EveryWireFormatVerifies) {
  for (const std::string wire : {"rocev2", "rocev2-ipv6", "rocev1", "ib"}) {
    const std::string pcap = tempPath("wire-" + wire + ".pcap");
    const auto r = runCli({"sim", "tour", "--trace", "none", "--wire", wire, "--pcap", pcap});
    ASSERT_EQ(r.exitCode, 0) << wire << ": " << r.err;
    const auto v = runCli({"decode", "--verify", pcap});
    EXPECT_EQ(v.exitCode, 0) << wire << ": " << v.out;
    if (haveOracles({Oracle::Tshark})) {
      const auto t = runProgram(tshark(), tsharkArgs(pcap));
      EXPECT_EQ(t.out.find("Malformed"), std::string::npos) << wire << ": " << t.out;
      // tshark recognises the transport: InfiniBand BTH opcodes by name.
      EXPECT_NE(t.out.find("RC Send"), std::string::npos) << wire << ": " << t.out;
    }
    std::remove(pcap.c_str());
  }
}

TEST(SimCommand, TraceNonePrintsOnlyTheCompletions) {
  const auto r = runCli({"sim", "rc-send-recv", "--trace", "none"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out,
            "host-a wr_id 1 SUCCESS SEND byte_len 3000\n"
            "host-b wr_id 100 SUCCESS RECV byte_len 3000\n");
}

TEST(SimCommand, TraceJsonIsAnArray) {
  const auto r = runCli({"sim", "rc-write", "--trace", "json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  ASSERT_FALSE(r.out.empty());
  EXPECT_EQ(r.out[0], '[');
  EXPECT_NE(r.out.find("\"kind\""), std::string::npos) << r.out.substr(0, 300);
}

TEST(SimCommand, LossAndSeedChangeTheRun) {
  const auto clean = runCli({"sim", "rc-write", "--trace", "text"});
  const auto lossy = runCli({"sim", "rc-write", "--trace", "text", "--loss", "0.3", "--seed", "7"});
  ASSERT_EQ(clean.exitCode, 0) << clean.err;
  ASSERT_EQ(lossy.exitCode, 0) << lossy.err;
  EXPECT_EQ(clean.out.find("dropped"), std::string::npos);
  EXPECT_NE(lossy.out.find("frame-dropped"), std::string::npos) << lossy.out;
}

std::string writeTemp(const std::string& name, const std::string& text) {
  const std::string p = tempPath(name);
  std::ofstream(p) << text;
  return p;
}

TEST(SimCommand, UnknownNameIsAUsageError) {
  const auto r = runCli({"sim", "no-such-scenario"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("'no-such-scenario' is neither a built-in scenario nor a file"),
            std::string::npos)
      << r.err;
}

TEST(SimCommand, InvalidJsonNamesTheFile) {
  const std::string p = writeTemp("bad.json", "{\"name\": ");
  const auto r = runCli({"sim", p});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
  // The input ends where a value should follow: line 1, column 10.
  EXPECT_NE(r.err.find(p + ":1:10: not valid JSON: "), std::string::npos) << r.err;
  std::remove(p.c_str());
}

TEST(SimCommand, WrongTypeNamesFileAndJsonPath) {
  // A built-in's JSON with one field of the wrong type.
  const std::string p = writeTemp("wrong.json", R"({"name": "x", "hosts": 5, "steps": []})");
  const auto r = runCli({"sim", p});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find(p + ":1:24: /hosts: expected an array, got 5"), std::string::npos) << r.err;
  std::remove(p.c_str());
}

// A built-in shown as JSON is a scenario file that runs exactly as the built-in does: the same
// trace and the same completions.
TEST(SimCommand, ShowPrintsEachBuiltinAsTheFileThatRunsTheSame) {
  for (const auto& name : kBuiltins) {
    const auto shown = runCli({"sim", "--show", name});
    ASSERT_EQ(shown.exitCode, 0) << name << ": " << shown.err;
    const std::string p = writeTemp(name + ".json", shown.out);
    const auto fromFile = runCli({"sim", p});
    const auto builtin = runCli({"sim", name});
    EXPECT_EQ(fromFile.exitCode, builtin.exitCode) << name << ": " << fromFile.err;
    EXPECT_NE(builtin.out.find("# completions\n"), std::string::npos) << name;
    EXPECT_EQ(fromFile.out, builtin.out) << name;
    // Shown again, the file is the same JSON.
    EXPECT_EQ(runCli({"sim", "--show", p}).out, shown.out) << name;
    std::remove(p.c_str());
  }
}

TEST(SimCommand, ShowIsForScenariosNotForRuns) {
  auto r = runCli({"sim", "--show", "tcp-stream"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("'tcp-stream' runs over the TCP model and has no scenario file"),
            std::string::npos)
      << r.err;
  r = runCli({"sim", "--show", "tour", "--pcap", tempPath("x.pcap")});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err,
            "rdmascope-cli: --show prints the scenario and runs nothing: --pcap does not apply\n");
  EXPECT_EQ(r.out, "");
  r = runCli({"sim", "--show", "no-such-scenario"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("neither a built-in scenario nor a file"), std::string::npos) << r.err;
}

TEST(SimCommand, BadOptionValues) {
  EXPECT_EQ(runCli({"sim", "tour", "--wire", "ethernet"}).exitCode, 2);
  EXPECT_EQ(runCli({"sim", "tour", "--loss", "1.5"}).exitCode, 2);
  EXPECT_EQ(runCli({"sim", "tour", "--trace", "xml"}).exitCode, 2);
  const auto r = runCli({"sim", "tour", "--pcap", "/nonexistent-dir/x.pcap"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("/nonexistent-dir/x.pcap"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace rdmascope::cli::test
