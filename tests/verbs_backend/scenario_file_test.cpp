#include "rdmascope/verbs_backend/scenario_file.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <regex>

#include "rdmascope/verbs_backend/scenario.h"

namespace rdmascope::verbs_backend {
namespace {

using nlohmann::json;

std::string parseError(const json& j) {
  try {
    parseScenario(j, "s.json");
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

std::string textError(const std::string& text) {
  try {
    parseScenarioText(text, "s.json");
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

json sendRecv() {
  return builtinScenarioJson("rc-send-recv");
}

TEST(ScenarioFile, IntegersOutOfTheirFieldAreRefusedWithTheRangeNotTruncated) {
  json j = sendRecv();
  j["hosts"][0]["qps"][0]["max_send_wr"] = (1ull << 32) + 5;
  EXPECT_EQ(parseError(j),
            "s.json: /hosts/0/qps/0/max_send_wr: expected an integer from 0 to 4294967295, got "
            "4294967301");
  j = sendRecv();
  j["hosts"][1]["qps"][0]["max_recv_wr"] = -1;
  EXPECT_EQ(parseError(j),
            "s.json: /hosts/1/qps/0/max_recv_wr: expected an integer from 0 to 4294967295, got -1");
  j = sendRecv();
  j["hosts"][0]["qps"][0]["max_inline_data"] = 1.5;
  EXPECT_EQ(parseError(j),
            "s.json: /hosts/0/qps/0/max_inline_data: expected an integer from 0 to 4294967295, "
            "got 1.5");
  j = sendRecv();
  j["hosts"][0]["mrs"][0]["size"] = 0;
  EXPECT_EQ(parseError(j),
            "s.json: /hosts/0/mrs/0/size: expected an integer from 1 to 4294967296, got 0");
  j = sendRecv();
  j["hosts"][0]["cqs"][0]["depth"] = 65537;
  EXPECT_EQ(parseError(j),
            "s.json: /hosts/0/cqs/0/depth: expected an integer from 1 to 65536, got 65537");
  j = sendRecv();
  j["steps"][0]["modify_qp"]["port"] = 256;
  EXPECT_EQ(parseError(j),
            "s.json: /steps/0/modify_qp/port: expected an integer from 0 to 255, got 256");
  j = sendRecv();
  j["steps"].push_back({{"run_us", 1e19}});
  EXPECT_EQ(parseError(j), "s.json: /steps/" + std::to_string(j["steps"].size() - 1) +
                               "/run_us: expected an integer from 0 to 3600000000, got 1e+19");
  j = sendRecv();
  j["seed"] = "7";
  EXPECT_EQ(parseError(j),
            "s.json: /seed: expected an integer from 0 to 18446744073709551615, got \"7\"");
}

TEST(ScenarioFile, LinkAndFaultNumbersAreFiniteAndInRange) {
  json j = sendRecv();
  j["link"] = {{"latency_us", -5}};
  EXPECT_EQ(parseError(j),
            "s.json: /link/latency_us: expected a latency in us between 0 and 1000000, got -5");
  j["link"] = {{"latency_us", 1e300}};
  EXPECT_EQ(parseError(j),
            "s.json: /link/latency_us: expected a latency in us between 0 and 1000000, got "
            "1e+300");
  j["link"] = {{"latency_us", std::nan("")}};
  EXPECT_EQ(parseError(j),
            "s.json: /link/latency_us: expected a latency in us between 0 and 1000000, got NaN");
  j["link"] = {{"gbps", 0}};
  EXPECT_EQ(parseError(j),
            "s.json: /link/gbps: expected a rate in Gb/s between 0.001 and 100000, got 0");
  j["link"] = {{"latency_us", 2.5}, {"gbps", 25}};
  const Scenario ok = parseScenario(j, "s.json");
  EXPECT_EQ(ok.link.latency, sim::SimTime::ns(2500));
  EXPECT_EQ(ok.link.gbps, 25);
  j = sendRecv();
  j["faults"] = {{"reorder_delay_us", -1}};
  EXPECT_NE(
      parseError(j).find("s.json: /faults/reorder_delay_us: expected a delay in us between 0 and"),
      std::string::npos)
      << parseError(j);
  j["faults"] = {{"pauses", {{{"start_us", 10}, {"duration_us", 1e300}}}}};
  EXPECT_NE(parseError(j).find("s.json: /faults/pauses/0/duration_us: expected a duration in us"),
            std::string::npos)
      << parseError(j);
  // JSON has no NaN; a number too large for a double is the reader's error, one line.
  const std::string big = textError(R"({"seed": 1e400})");
  EXPECT_EQ(big.rfind("s.json: not valid JSON: ", 0), 0u) << big;
  EXPECT_EQ(big.find('\n'), std::string::npos);
}

TEST(ScenarioFile, DuplicateNamesAreRefusedNamingTheFirst) {
  json j = sendRecv();
  j["hosts"][0]["mrs"].push_back(j["hosts"][0]["mrs"][0]);
  EXPECT_EQ(parseError(j),
            "s.json: /hosts/0/mrs/1/name: duplicate MR name \"buf\" (already /hosts/0/mrs/0/name)");
  j = sendRecv();
  j["hosts"][1]["cqs"].push_back({{"name", "cq"}});
  EXPECT_EQ(parseError(j),
            "s.json: /hosts/1/cqs/1/name: duplicate CQ name \"cq\" (already /hosts/1/cqs/0/name)");
  j = sendRecv();
  j["hosts"][0]["qps"].push_back(j["hosts"][0]["qps"][0]);
  EXPECT_EQ(parseError(j),
            "s.json: /hosts/0/qps/1/name: duplicate QP name \"qp\" (already /hosts/0/qps/0/name)");
  j = sendRecv();
  j["hosts"][1]["name"] = j["hosts"][0]["name"];
  EXPECT_EQ(parseError(j),
            "s.json: /hosts/1/name: duplicate host name \"host-a\" (already /hosts/0/name)");
  j = sendRecv();
  j["hosts"][0].erase("name");
  j["hosts"][1]["name"] = "host-a";
  EXPECT_EQ(parseError(j),
            "s.json: /hosts/1/name: duplicate host name \"host-a\" (already /hosts/0, by "
            "default)");
  // The same name on both hosts is how scenarios name their objects: fine.
  EXPECT_EQ(parseError(sendRecv()), "");
}

TEST(ScenarioFile, DeepNestingIsRefusedWithoutWalkingIt) {
  constexpr int kDepth = 100000;
  std::string deep(kDepth, '[');
  deep += std::string(kDepth, ']');
  const std::string e = textError(R"({"name": "x", "junk": )" + deep + "}");
  EXPECT_EQ(e,
            "s.json: /junk/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0...: nested "
            "deeper than 32 levels of arrays and objects");
  const std::string top = textError(deep);
  EXPECT_EQ(top.rfind("s.json: /0/0/0/", 0), 0u) << top;
  // As a whole file, through the same reader.
  const std::string path = std::string(RDMASCOPE_BINARY_DIR) + "/deep_scenario.json";
  std::ofstream(path) << deep;
  try {
    loadScenarioFile(path);
    FAIL();
  } catch (const ScenarioError& err) {
    EXPECT_NE(std::string(err.what()).find("nested deeper than 32 levels"), std::string::npos);
  }
  // A deep value where an object belongs: the message quotes a short piece of it.
  json j = sendRecv();
  json v = json::array();
  for (int i = 0; i < 20; ++i)
    v = json::array({v});
  j["hosts"][0]["qps"][0]["type"] = v;
  const std::string quoted = parseError(j);
  EXPECT_NE(quoted.find("expected one of RC, UC, UD, got [[[[[[[["), std::string::npos) << quoted;
  EXPECT_LT(quoted.size(), 200u);
}

TEST(ScenarioFile, QuoteJsonPrintsOnlyWhatFits) {
  EXPECT_EQ(quoteJson(json::array({1, 2, 3})), "[1,2,3]");
  EXPECT_EQ(quoteJson(json{{"a", 1}}), "{\"a\":1}");
  EXPECT_EQ(quoteJson(std::string(1000, 'x'), 10), "\"xxxxxx...");
  json big = json::array();
  for (int i = 0; i < 100000; ++i)
    big.push_back(i);
  const std::string q = quoteJson(big);
  EXPECT_EQ(q.size(), 60u);
  EXPECT_EQ(q.substr(57), "...");
}

TEST(ScenarioFile, CompareMemoryRangesMustLieInsideTheMrsEvenWhenTheSumWraps) {
  json j = sendRecv();
  j["steps"].push_back({{"compare_memory",
                         {{"host_a", 0},
                          {"mr_a", "buf"},
                          {"offset_a", 18446744073709551615ull},
                          {"host_b", 1},
                          {"mr_b", "buf"},
                          {"length", 1}}}});
  const std::string path = "/steps/" + std::to_string(j["steps"].size() - 1);
  EXPECT_EQ(parseError(j), "s.json: " + path +
                               "/compare_memory: host-a:buf has 65536 bytes: offset "
                               "18446744073709551615 length 1 lies outside");
  j["steps"].back()["compare_memory"]["offset_a"] = 65535;
  j["steps"].back()["compare_memory"]["length"] = 2;
  EXPECT_NE(parseError(j).find("offset 65535 length 2 lies outside"), std::string::npos);
  j["steps"].back()["compare_memory"]["offset_a"] = 65534;
  EXPECT_EQ(parseError(j), "");
}

// A small scenario as a user writes it; the tests below break one thing each and expect the
// error at its line and column.
constexpr std::string_view kSmall = R"({
  "name": "small",
  "hosts": [
    {"name": "a", "mrs": [{"name": "buf", "size": 4096}],
     "cqs": [{"name": "cq"}],
     "qps": [{"name": "qp", "type": "RC", "send_cq": "cq", "recv_cq": "cq"}]},
    {"name": "b", "cqs": [{"name": "cq"}],
     "qps": [{"name": "qp", "type": "RC", "send_cq": "cq", "recv_cq": "cq"}]}
  ],
  "steps": [
    {"host": 0, "modify_qp": {"qp": "qp", "state": "INIT", "port": 1}},
    {"host": 1, "poll_cq": {"cq": "cq", "count": 0}}
  ]
}
)";

std::string smallWith(std::string_view from, std::string_view to) {
  std::string text(kSmall);
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(ScenarioFile, TheSmallScenarioReadsAndKeepsItsNarration) {
  EXPECT_EQ(textError(std::string(kSmall)), "");
  const Scenario s =
      parseScenarioText(smallWith(R"("host": 1, "poll_cq")",
                                  R"("host": 1, "title": "Wait", "explanation": "B polls.",
    "comment": ["a note", "another"], "poll_cq")"),
                        "s.json");
  EXPECT_EQ(s.title, "small");
  EXPECT_EQ(s.steps[1].title, "Wait");
  EXPECT_EQ(s.steps[1].explanation, "B polls.");
  EXPECT_EQ(s.steps[0].title, "");
}

TEST(ScenarioFile, ASyntaxErrorNamesItsLineAndColumn) {
  // The comma after "type": "RC" is missing on line 6: the error is at the next key.
  EXPECT_EQ(textError(smallWith(R"("type": "RC", "send_cq": "cq", "recv_cq": "cq"}]},
    {"name": "b")",
                                R"("type": "RC" "send_cq": "cq", "recv_cq": "cq"}]},
    {"name": "b")")),
            "s.json:6:42: not valid JSON: syntax error while parsing object - unexpected string "
            "literal; expected '}'");
  // A column counts characters: the two-byte é is one.
  EXPECT_EQ(textError(smallWith(R"("name": "small",)", R"("name": "smallé" x)")),
            "s.json:2:20: not valid JSON: syntax error while parsing object - invalid literal; "
            "last read: '\"smallé\" x'; expected '}'");
  // Cut inside a string on line 4: the input ends there.
  EXPECT_EQ(textError(std::string(kSmall.substr(0, 40))),
            "s.json:4:7: not valid JSON: syntax error while parsing object key - invalid string: "
            "missing closing quote; last read: '\"'; expected string literal");
}

TEST(ScenarioFile, AWrongTypeNamesItsLineAndColumn) {
  EXPECT_EQ(textError(smallWith(R"("port": 1)", R"("port": "1")")),
            "s.json:11:68: /steps/0/modify_qp/port: expected an integer from 0 to 255, got \"1\"");
  EXPECT_EQ(textError(smallWith(R"("cqs": [{"name": "cq"}],
     "qps")",
                                R"("cqs": {"name": "cq"},
     "qps")")),
            "s.json:5:13: /hosts/0/cqs: expected an array, got {\"name\":\"cq\"}");
}

TEST(ScenarioFile, AnOutOfRangeValueNamesItsLineAndColumn) {
  EXPECT_EQ(textError(smallWith(R"("port": 1)", R"("port": 256)")),
            "s.json:11:68: /steps/0/modify_qp/port: expected an integer from 0 to 255, got 256");
  EXPECT_EQ(textError(smallWith(R"("host": 1)", R"("host": 2)")),
            "s.json:12:14: /steps/1/host: expected host 0 or 1, got 2");
}

TEST(ScenarioFile, AnUndefinedReferenceNamesTheDefinedOnesAndItsPlace) {
  EXPECT_EQ(textError(smallWith(R"({"qp": "qp", "state")", R"({"qp": "qp0", "state")")),
            "s.json:11:37: /steps/0/modify_qp/qp: expected the name of one of this host's QPs "
            "(qp), got \"qp0\"");
  EXPECT_EQ(textError(smallWith(R"("cq": "cq", "count")", R"("cq": "cqb", "count")")),
            "s.json:12:35: /steps/1/poll_cq/cq: expected the name of one of this host's CQs "
            "(cq), got \"cqb\"");
  // Host b has no MR at all.
  EXPECT_EQ(
      textError(smallWith(R"("poll_cq": {"cq": "cq", "count": 0})",
                          R"("post_recv": {"qp": "qp", "sge": [{"mr": "buf", "length": 8}]})")),
      "s.json:12:58: /steps/1/post_recv/sge/0/mr: expected the name of one of this host's "
      "MRs (none defined), got \"buf\"");
}

TEST(ScenarioFile, AnUnknownKeyIsRefusedAtTheKeyNamingTheKnownOnes) {
  EXPECT_EQ(textError(smallWith(R"("port": 1)", R"("prot": 1)")),
            "s.json:11:60: /steps/0/modify_qp: unknown key \"prot\" in a modify_qp (expected "
            "one of qp, state, cur_state, pkey_index, port, qkey, access, path_mtu, dest_qpn, "
            "rq_psn, sq_psn, av, timeout, retry_cnt, rnr_retry, max_rd_atomic, "
            "max_dest_rd_atomic, min_rnr_timer, mask)");
  json j = sendRecv();
  j["hosts"][0]["qps"][0]["max_send_wrs"] = 4;
  EXPECT_EQ(parseError(j).rfind("s.json: /hosts/0/qps/0: unknown key \"max_send_wrs\" in a qp", 0),
            0u)
      << parseError(j);
  EXPECT_EQ(
      textError(smallWith(R"({"host": 1, "poll_cq")", R"({"host": 1, "run_us": 5, "poll_cq")")),
      "s.json:12:5: /steps/1: a step does one thing: it has both poll_cq and run_us");
  EXPECT_EQ(textError(smallWith(R"("name": "small",)", R"("name": "small", "comment": 5,)")),
            "s.json:2:31: /comment: expected a string or an array of strings, got 5");
}

// Text broken anywhere (a character dropped, doubled or replaced) reads or gives one error
// line, whose line and column, when it has them, lie inside the text.
TEST(ScenarioFile, MangledTextIsOneLineWithAPlaceInsideTheText) {
  const std::string text = scenarioJsonText(builtinScenarioJson("tour"));
  const auto textLines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  const std::regex place("^s\\.json:([0-9]+):([0-9]+): .*");
  int errors = 0, placed = 0;
  for (std::size_t at = 0; at < text.size(); at += 61) {
    for (int how = 0; how < 3; ++how) {
      std::string t = text;
      if (how == 0) t.erase(at, 1);
      if (how == 1) t.insert(at, 1, t[at]);
      if (how == 2) t[at] = "{}[]:,\"x1"[at % 9];
      const std::string e = textError(t);
      if (e.empty()) continue;
      ++errors;
      EXPECT_EQ(e.find('\n'), std::string::npos) << e;
      std::smatch m;
      if (std::regex_match(e, m, place)) {
        ++placed;
        EXPECT_GE(std::stoul(m[1]), 1u) << e;
        EXPECT_LE(std::stoul(m[1]), textLines) << e;
        EXPECT_GE(std::stoul(m[2]), 1u) << e;
      }
    }
  }
  EXPECT_GT(errors, 100);
  EXPECT_GT(placed, errors * 9 / 10);  // only nlohmann's number overflow has no place
}

// Runs `body` in a child process under an address-space limit; returns its exit status.
template <class F>
int underMemoryLimit(std::uint64_t bytes, F body) {
  const pid_t pid = fork();
  if (pid == 0) {
    rlimit lim{bytes, bytes};
    setrlimit(RLIMIT_AS, &lim);
    _exit(body());
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

TEST(ScenarioFile, AFourGibMrUnderAMemoryLimitIsAOneLineSetupError) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "ASan reserves more address space than the limit allows";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  GTEST_SKIP() << "ASan reserves more address space than the limit allows";
#endif
#endif
  json j = sendRecv();
  j["hosts"][0]["mrs"][0]["size"] = 1ull << 32;
  const Scenario s = parseScenario(j, "s.json");
  const int status = underMemoryLimit(3ull << 30, [&] {
    const RunResult r = runScenarioInSim(s);
    if (r.ok) return 1;
    std::fprintf(stderr, "%s\n", r.error.c_str());
    return r.error ==
                   "host-a: ibv_reg_mr(buf) failed: cannot allocate 4294967296 bytes of host "
                   "memory for the MR"
               ? 0
               : 2;
  });
  EXPECT_EQ(status, 0);
}

}  // namespace
}  // namespace rdmascope::verbs_backend
