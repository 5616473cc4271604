// `rdmascope-cli sim NAME --trace json`: for every built-in scenario the whole output is one
// valid JSON document, and its events carry typed fields (what, reason, args) beside the
// sentence made from them. `--json` without `--analyze` is refused, not ignored.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_runner.h"

namespace rdmascope::cli::test {
namespace {

// The verbs scenarios as `sim --list` names them (the TCP transfers have no verbs trace).
std::vector<std::string> verbsScenarios() {
  const auto r = runCli({"sim", "--list"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  std::vector<std::string> names;
  for (const auto& line : lines(r.out)) {
    const std::string name = line.substr(0, line.find('\t'));
    if (name == "tcp-stream" || name.starts_with("iwarp-") || name.starts_with("ceph-")) continue;
    names.push_back(name);
  }
  return names;
}

nlohmann::json traceOf(const std::string& scenario) {
  const auto r = runCli({"sim", scenario, "--trace", "json"});
  // A scenario whose verbs fail on purpose (retry-exceeded, remote-access-error) exits 1.
  EXPECT_TRUE(r.exitCode == 0 || r.exitCode == 1) << scenario << ": " << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << scenario << ": not one JSON document:\n"
                                 << r.out.substr(r.out.size() > 300 ? r.out.size() - 300 : 0);
  return j;
}

TEST(SimTraceJson, EveryBuiltinIsOneDocumentOfTypedEvents) {
  const auto names = verbsScenarios();
  ASSERT_GE(names.size(), 13u);
  for (const auto& name : names) {
    SCOPED_TRACE(name);
    const nlohmann::json j = traceOf(name);
    ASSERT_TRUE(j.is_array());
    ASSERT_FALSE(j.empty());
    int frames = 0, states = 0, cqes = 0;
    for (const auto& e : j) {
      for (const char* key :
           {"time_ps", "host", "kind", "what", "qpn", "psn", "wr_id", "args", "explanation"})
        ASSERT_TRUE(e.contains(key)) << key << " in " << e.dump();
      EXPECT_TRUE(e["args"].is_object());
      EXPECT_FALSE(e["explanation"].get<std::string>().empty()) << e.dump();
      const std::string what = e["what"];
      if (what == "frame-sent") {
        ++frames;
        EXPECT_TRUE(e["args"].contains("opcode")) << e.dump();
        EXPECT_TRUE(e["args"].contains("peer")) << e.dump();
        EXPECT_GT(e["frame"].get<int>(), 0);
        EXPECT_FALSE(e["bytes"].get<std::string>().empty());
      } else if (what == "qp-state-changed") {
        ++states;
        EXPECT_TRUE(e["args"]["from_state"].is_string()) << e.dump();
        EXPECT_TRUE(e["args"]["to_state"].is_string()) << e.dump();
        EXPECT_TRUE(e.contains("reason")) << e.dump();
      } else if (what == "cqe-produced") {
        ++cqes;
        EXPECT_TRUE(e["args"]["status"].is_string()) << e.dump();
        EXPECT_TRUE(e["args"]["wc_opcode"].is_string()) << e.dump();
      } else if (what == "retry-started") {
        EXPECT_TRUE(e["args"]["retry_cause"].is_string()) << e.dump();
        EXPECT_TRUE(e["args"].contains("retries_left") || e["args"].contains("retries_unlimited"))
            << e.dump();
      } else if (what == "request-packet") {
        EXPECT_TRUE(e["args"]["opcode"].is_number()) << e.dump();
        EXPECT_TRUE(e["args"]["ack_req"].is_string()) << e.dump();
      }
    }
    EXPECT_GT(frames, 0);
    EXPECT_GE(states, 4);  // RESET, INIT, RTR, RTS at least
    EXPECT_GT(cqes, 0);
  }
}

TEST(SimTraceJson, RetriesNameTheirCauseAndBudget) {
  const nlohmann::json j = traceOf("lossy-go-back-n");
  int retries = 0;
  for (const auto& e : j) {
    if (e["what"] != "retry-started") continue;
    ++retries;
    EXPECT_TRUE(e["args"]["retry_cause"] == "timeout" ||
                e["args"]["retry_cause"] == "nak-psn-sequence-error")
        << e.dump();
  }
  EXPECT_GT(retries, 0);
}

TEST(SimTraceJson, JsonWithoutAnalyzeIsRefused) {
  const auto r = runCli({"sim", "rc-write", "--json"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("--json applies to --analyze"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(SimTraceJson, TraceJsonWithAnalyzeIsRefused) {
  const auto r = runCli({"sim", "rc-write", "--trace", "json", "--analyze", "--json"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

}  // namespace
}  // namespace rdmascope::cli::test
