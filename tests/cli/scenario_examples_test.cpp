// examples/scenarios: each exercise runs as shipped, and the change its comment asks for shows
// what its comment says to watch for (run with `rdmascope-cli sim`).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_runner.h"

namespace rdmascope::cli::test {
namespace {

using nlohmann::json;

std::string example(const std::string& name) {
  return std::string(RDMASCOPE_SOURCE_DIR) + "/examples/scenarios/" + name + ".json";
}

json load(const std::string& name) {
  return json::parse(readFile(example(name)));
}

struct SimRun {
  int exitCode;
  std::string trace;
  std::vector<std::string> completions;
};

SimRun split(const RunResult& r) {
  SimRun out{r.exitCode, r.out, {}};
  const std::size_t at = r.out.find("# completions\n");
  if (at != std::string::npos) {
    out.trace = r.out.substr(0, at);
    out.completions = lines(r.out.substr(at + 14));
  }
  return out;
}

SimRun runShipped(const std::string& name) {
  return split(runCli({"sim", example(name)}));
}

SimRun runEdited(const std::string& name, const json& edited) {
  const std::string p = tempPath(name + ".json");
  std::ofstream(p) << edited.dump(2);
  SimRun r = split(runCli({"sim", p}));
  std::remove(p.c_str());
  return r;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (const auto& l : lines(text))
    n += l.find(what) != std::string::npos;
  return n;
}

// host-a's packets of a SEND on the wire.
std::size_t sendPackets(const std::string& trace) {
  std::size_t n = 0;
  for (const auto& l : lines(trace))
    n += l.find(" host-a ") != std::string::npos && l.find("frame-sent") != std::string::npos &&
         l.find(" RC SEND ") != std::string::npos;
  return n;
}

TEST(ScenarioExamples, EveryExampleSaysWhatToChangeAndWhatToWatchFor) {
  for (const char* name :
       {"write-access", "late-receive", "mtu-packets", "lost-packet", "short-receive"}) {
    const json j = load(name);
    ASSERT_TRUE(j.at("comment").is_array()) << name;
    const std::string comment = j.at("comment").dump();
    EXPECT_NE(comment.find("Exercise: "), std::string::npos) << name;
    EXPECT_NE(comment.find("Watch for: "), std::string::npos) << name;
    EXPECT_EQ(j.at("name"), name);
  }
}

TEST(ScenarioExamples, WriteAccessWithoutRemoteWriteIsARemoteAccessError) {
  const SimRun shipped = runShipped("write-access");
  ASSERT_EQ(shipped.exitCode, 0);
  EXPECT_EQ(shipped.completions,
            (std::vector<std::string>{"host-a wr_id 1 SUCCESS RDMA_WRITE byte_len 1024"}));
  json j = load("write-access");
  auto& access = j["hosts"][1]["mrs"][0]["access"];
  access.erase(std::find(access.begin(), access.end(), "REMOTE_WRITE"));
  const SimRun edited = runEdited("write-access", j);
  EXPECT_EQ(count(edited.trace, "NAK remote access error"), 1u) << edited.trace;
  EXPECT_EQ(edited.completions, (std::vector<std::string>{"host-a wr_id 1 REM_ACCESS_ERR"}));
}

TEST(ScenarioExamples, LateReceiveMeetsAnRnrNakAndTheResendSucceeds) {
  const SimRun shipped = runShipped("late-receive");
  ASSERT_EQ(shipped.exitCode, 0);
  EXPECT_EQ(count(shipped.trace, "RNR NAK"), 0u);
  json j = load("late-receive");
  auto& steps = j["steps"];
  ASSERT_TRUE(steps[8].contains("post_recv"));
  const json recv = steps[8];
  steps.erase(8);
  const auto run = std::find(steps.begin(), steps.end(), json{{"run_us", 100}});
  ASSERT_NE(run, steps.end());
  steps.insert(run + 1, recv);
  const SimRun edited = runEdited("late-receive", j);
  EXPECT_EQ(edited.exitCode, 0);
  EXPECT_EQ(count(edited.trace, "frame-sent"), count(shipped.trace, "frame-sent") + 2)
      << "the RNR NAK and the SEND again";
  std::size_t rnrNaks = 0;
  for (const auto& l : lines(edited.trace))
    rnrNaks += l.find("frame-sent") != std::string::npos && l.find("RNR NAK") != std::string::npos;
  EXPECT_EQ(rnrNaks, 1u) << edited.trace;
  EXPECT_EQ(edited.completions, shipped.completions);
  EXPECT_EQ(shipped.completions,
            (std::vector<std::string>{"host-a wr_id 1 SUCCESS SEND byte_len 256",
                                      "host-b wr_id 100 SUCCESS RECV byte_len 256"}));
}

TEST(ScenarioExamples, MtuPacketsCountsTheSegments) {
  const SimRun shipped = runShipped("mtu-packets");
  ASSERT_EQ(shipped.exitCode, 0);
  EXPECT_EQ(sendPackets(shipped.trace), 4u) << shipped.trace;
  for (const auto& [mtu, packets] : {std::pair{4096, 1u}, std::pair{256, 16u}}) {
    json j = load("mtu-packets");
    for (int step : {4, 5}) {
      ASSERT_EQ(j["steps"][step]["modify_qp"]["state"], "RTR");
      j["steps"][step]["modify_qp"]["path_mtu"] = mtu;
    }
    const SimRun edited = runEdited("mtu-packets", j);
    EXPECT_EQ(edited.exitCode, 0) << mtu;
    EXPECT_EQ(sendPackets(edited.trace), packets) << mtu;
    EXPECT_EQ(edited.completions, shipped.completions) << mtu;
  }
}

TEST(ScenarioExamples, LostPacketGoesBackN) {
  const SimRun shipped = runShipped("lost-packet");
  ASSERT_EQ(shipped.exitCode, 0);
  EXPECT_EQ(count(shipped.trace, "NAK"), 0u);
  json j = load("lost-packet");
  j["faults"]["drop_psns"].push_back({{"psn", 4099}, {"from", 0}});
  const SimRun edited = runEdited("lost-packet", j);
  EXPECT_EQ(edited.exitCode, 0);  // the memory comparison holds
  EXPECT_EQ(count(edited.trace, "NAK PSN sequence error (got PSN 0x1004, expected 0x1003"), 1u)
      << edited.trace;
  EXPECT_EQ(edited.completions, shipped.completions);
  EXPECT_EQ(shipped.completions,
            (std::vector<std::string>{"host-a wr_id 1 SUCCESS RDMA_WRITE byte_len 8192"}));
}

TEST(ScenarioExamples, ShortReceiveIsALengthError) {
  const SimRun shipped = runShipped("short-receive");
  ASSERT_EQ(shipped.exitCode, 0);
  json j = load("short-receive");
  j["steps"][8]["post_recv"]["sge"][0]["length"] = 1000;
  const SimRun edited = runEdited("short-receive", j);
  EXPECT_EQ(count(edited.trace, "NAK invalid request"), 1u) << edited.trace;
  EXPECT_EQ(edited.completions, (std::vector<std::string>{"host-a wr_id 1 REM_INV_REQ_ERR",
                                                          "host-b wr_id 100 LOC_LEN_ERR"}));
}

}  // namespace
}  // namespace rdmascope::cli::test
