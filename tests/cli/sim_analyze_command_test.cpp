// `rdmascope-cli sim NAME --analyze --json` analyses the run from the simulator's own trace as
// frames go on the wire; `rdmascope-cli analyze` reads the pcap the same run wrote. For every
// built-in scenario, with and without loss, the two reports are the same JSON: summary,
// connections, anomalies with their frame numbers, and messages.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_runner.h"

namespace rdmascope::cli::test {
namespace {

// The built-ins as scenario.h lists them; BuiltinListIsCovered keeps this list complete.
const std::vector<std::string> kScenarios{
    "rc-send-recv",   "rc-write",        "rc-write-imm", "rc-read",         "rc-atomic",
    "uc-write",       "ud-send",         "rnr-retry",    "lossy-go-back-n", "remote-access-error",
    "retry-exceeded", "rc-lossy-stream", "tour"};

struct Reports {
  nlohmann::json fromTrace;
  nlohmann::json fromPcap;
};

Reports bothWays(const std::string& scenario, std::vector<std::string> extra) {
  const std::string pcap = tempPath(scenario + "_analyze.pcap");
  std::vector<std::string> args{"sim", scenario, "--analyze", "--json", "--pcap", pcap};
  args.insert(args.end(), extra.begin(), extra.end());
  const RunResult sim = runCli(args);
  Reports r;
  // A scenario whose verbs fail on purpose (retry-exceeded, remote-access-error) exits 1.
  EXPECT_TRUE(sim.exitCode == 0 || sim.exitCode == 1) << sim.err;
  const RunResult analyze = runCli({"analyze", pcap, "--json"});
  EXPECT_EQ(analyze.exitCode, 0) << analyze.err;
  std::remove(pcap.c_str());
  r.fromTrace = nlohmann::json::parse(sim.out, nullptr, false);
  r.fromPcap = nlohmann::json::parse(analyze.out, nullptr, false);
  EXPECT_FALSE(r.fromTrace.is_discarded()) << sim.out.substr(0, 400);
  EXPECT_FALSE(r.fromPcap.is_discarded()) << analyze.out.substr(0, 400);
  return r;
}

void expectSame(const Reports& r) {
  for (const char* part : {"summary", "connections", "anomalies", "messages"})
    EXPECT_EQ(r.fromTrace[part], r.fromPcap[part]) << part;
  EXPECT_EQ(r.fromTrace, r.fromPcap);
  EXPECT_GE(r.fromTrace["summary"]["connections"].get<int>(), 1);
  EXPECT_GE(r.fromTrace["summary"]["messages"].get<int>(), 1);
}

class SimAnalyze : public ::testing::TestWithParam<std::string> {};

TEST_P(SimAnalyze, TraceAnalysisEqualsThePcapsWithoutLoss) {
  expectSame(bothWays(GetParam(), {}));
}

TEST_P(SimAnalyze, TraceAnalysisEqualsThePcapsWithLoss) {
  const Reports r = bothWays(GetParam(), {"--loss", "0.15", "--seed", "7"});
  expectSame(r);
}

INSTANTIATE_TEST_SUITE_P(Builtins, SimAnalyze, ::testing::ValuesIn(kScenarios),
                         [](const auto& param) {
                           std::string n = param.param;
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

TEST(SimAnalyzeCommand, BuiltinListIsCovered) {
  const RunResult list = runCli({"sim", "--list"});
  ASSERT_EQ(list.exitCode, 0);
  std::vector<std::string> names;
  std::istringstream in(list.out);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) names.push_back(line.substr(0, line.find('\t')));
  std::vector<std::string> all = kScenarios;
  for (const char* t : {"tcp-stream", "iwarp-send-recv", "iwarp-write", "iwarp-read",
                        "ceph-messenger", "ceph-messenger-tcp"})
    all.push_back(t);
  EXPECT_EQ(names, all);
}

// The iWARP transfers run on the TCP model: `sim NAME --analyze` analyses the frames the run
// captured, as `analyze` does the pcap it wrote, losses, resends and timeouts included.
TEST(SimAnalyzeCommand, IwarpTransfersAgreeWithTheirPcaps) {
  int timeouts = 0;
  for (const char* name : {"iwarp-send-recv", "iwarp-write", "iwarp-read"}) {
    for (const char* loss : {"0", "0.1"}) {
      SCOPED_TRACE(std::string(name) + " loss " + loss);
      const Reports r = bothWays(name, {"--loss", loss, "--seed", "2"});
      expectSame(r);
      EXPECT_EQ(r.fromTrace["summary"]["iwarp_frames"], r.fromTrace["summary"]["frames"]);
      EXPECT_EQ(r.fromTrace["summary"]["completed_messages"].get<int>(), 1);
      timeouts += r.fromTrace["summary"]["timeouts"].get<int>();
    }
  }
  EXPECT_GT(timeouts, 0);  // the lossy runs resent after the retransmission timer
}

TEST(SimAnalyzeCommand, TransfersOverTcpRefuseAWireFormat) {
  const RunResult r = runCli({"sim", "iwarp-write", "--wire", "rocev2"});
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_NE(r.err.find("--wire does not apply to 'iwarp-write'"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(SimAnalyzeCommand, EveryWireFormatAgreesUnderLoss) {
  int resent = 0;
  for (const char* wire : {"rocev2", "rocev2-ipv6", "rocev1", "ib"}) {
    SCOPED_TRACE(wire);
    const Reports r = bothWays("rc-write", {"--wire", wire, "--loss", "0.2", "--seed", "3"});
    expectSame(r);
    resent += r.fromTrace["summary"]["resent_frames"].get<int>();
  }
  EXPECT_GT(resent, 0);  // the loss did make the requester resend
}

TEST(SimAnalyzeCommand, TextAnalysisAloneWithoutTheTrace) {
  const RunResult r = runCli({"sim", "lossy-go-back-n", "--analyze"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out.rfind("Conversations (", 0), 0u) << r.out.substr(0, 200);
  EXPECT_NE(r.out.find("Anomalies ("), std::string::npos);
  EXPECT_NE(r.out.find("\nSummary: "), std::string::npos);
  EXPECT_EQ(r.out.find("# completions"), std::string::npos);
}

// sim --cm: the run opens with the rdma_cm handshake and closes with the disconnect; the
// analysis of the trace recognises it (client host-b, server host-a, the QPNs the data uses)
// and equals that of the pcap. Scenarios --cm refuses fail with verbs --cm's one-line error.
TEST(SimAnalyzeCommand, CmHandshakeIsAnalysedFromTheTraceAsFromThePcap) {
  for (const std::string name :
       {"rc-send-recv", "rc-read", "rc-atomic", "lossy-go-back-n", "tour"}) {
    SCOPED_TRACE(name);
    const Reports r = bothWays(name, {"--cm"});
    expectSame(r);
    const auto& hs = r.fromTrace["cm_handshakes"];
    ASSERT_EQ(hs.size(), 1u);
    EXPECT_EQ(hs[0]["client"], "10.9.0.2");
    EXPECT_EQ(hs[0]["port"], 18515);
    EXPECT_TRUE(hs[0]["established"].get<bool>());
    EXPECT_TRUE(hs[0]["disconnected"].get<bool>());
    std::string steps;
    for (const auto& st : hs[0]["steps"])
      steps += st["message"].get<std::string>() + " ";
    EXPECT_EQ(steps, "REQ REP RTU DREQ DREP ");
  }
  const RunResult text = runCli({"sim", "rc-write", "--cm", "--analyze"});
  ASSERT_EQ(text.exitCode, 0) << text.err;
  EXPECT_NE(text.out.find("CM REQ 1 -> REP 2 -> RTU 3 -> DREQ"), std::string::npos) << text.out;
  const RunResult ud = runCli({"sim", "ud-send", "--cm"});
  EXPECT_EQ(ud.exitCode, 2);
  EXPECT_EQ(
      ud.err,
      "rdmascope-cli: --cm connects RC QPs (RDMA_PS_TCP), but ud-send's QP 'qp' is UD: run it "
      "without --cm\n");
  EXPECT_TRUE(ud.out.empty());
}

}  // namespace
}  // namespace rdmascope::cli::test
