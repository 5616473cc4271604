// rdmascope-cli congestion: a fabric scenario's summary, its pcap and time series, and one-line
// errors for bad scenario files and options.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "rdmascope/packets_io/capture_reader.h"

namespace rdmascope::cli::test {
namespace {

const std::string kExamples = std::string(RDMASCOPE_SOURCE_DIR) + "/examples/congestion/";

TEST(CongestionCommand, PrintsTheSummaryAndWritesThePcapAndTheSeries) {
  const std::string pcap = tempPath("congestion.pcap"), series = tempPath("congestion.json");
  const RunResult r =
      runCli({"congestion", kExamples + "incast-pfc.json", "--duration-us", "300", "--pcap", pcap,
              "--capture", "l1:1", "--series", series, "--explain"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("head-of-line blocking"), std::string::npos);  // the explanation
  EXPECT_NE(r.out.find("scenario incast-pfc: 11 hosts, 3 switches, 13 links, 0.300 ms simulated"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("drops: 0 (lossy priority buffer full 0, lossless headroom overflow 0)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("sp0:1 priority 3 paused"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("victim (h9 -> h10): goodput"), std::string::npos) << r.out;
  std::string error;
  auto reader = packets_io::CaptureReader::open(pcap, error);
  ASSERT_TRUE(reader) << error;
  int frames = 0, pauses = 0;
  packets_io::CapturedFrame p;
  while (reader->next(p)) {
    ++frames;
    if (p.data.size() > 14 && p.data[12] == 0x88 && p.data[13] == 0x08) ++pauses;
  }
  EXPECT_GT(frames, 100);
  EXPECT_GT(pauses, 0);  // the scenario's own l1:0 (towards the spine) is captured too
  const auto j = nlohmann::json::parse(readFile(series));
  EXPECT_EQ(j["scenario"], "incast-pfc");
  EXPECT_EQ(j["timesUs"].size(), 30u);
  EXPECT_FALSE(j["pauses"].empty());
  EXPECT_EQ(j["flows"].size(), 8u);
  std::remove(pcap.c_str());
  std::remove(series.c_str());
}

TEST(CongestionCommand, BadScenarioFilesAndOptionsAreOneLineErrors) {
  const std::string bad = tempPath("bad_scenario.json");
  std::ofstream(bad)
      << R"({"topology": {"shape": "star", "hosts": 2}, "flows": [{"src": "h0", "dst": "h5"}]})";
  RunResult r = runCli({"congestion", bad});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err, "congestion: " + bad + ": /flows/0/dst: \"h5\" is no node\n");
  r = runCli({"congestion", kExamples + "incast-pfc.json", "--capture", "l1:x"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err, "congestion: --capture l1:x: expected a port such as s0:1 or h0\n");
  r = runCli(
      {"congestion", kExamples + "incast-pfc.json", "--capture", "l1:7", "--duration-us", "10"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err, "congestion: " + kExamples +
                       "incast-pfc.json: capture port \"l1:7\": l1 has 3 ports\n");
  r = runCli({"congestion", tempPath("missing.json")});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err, "congestion: cannot read " + tempPath("missing.json") + "\n");
  std::remove(bad.c_str());
}

// A buffer that the reserves and headrooms use up leaves PFC nothing to work with: one line
// says so (per switch), and the run still happens. The examples are not degenerate.
TEST(CongestionCommand, WarnsOnceWhenPfcHasNoSharedBuffer) {
  const std::string tiny = tempPath("tiny_buffer.json");
  std::ofstream(tiny) << R"({"topology": {"shape": "star", "hosts": 3},
    "switch": {"pfc": true, "bufferBytes": 65536},
    "flows": [{"src": "h0", "dst": "h2"}], "durationUs": 20})";
  RunResult r = runCli({"congestion", tiny});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("congestion: warning: switch s0: no shared buffer with PFC on (65536 "
                        "bytes of buffer",
                        0),
            0u)
      << r.err;
  r = runCli({"congestion", kExamples + "incast-pfc.json", "--duration-us", "10"});
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_EQ(r.err, "");
  std::remove(tiny.c_str());
}

}  // namespace
}  // namespace rdmascope::cli::test

namespace rdmascope::cli::test {
namespace {

// The fabric's own account of a run and the capture analysis of its pcap agree: the analysis,
// which sees only the frames of the captured link, finds the victim flow the scenario built,
// times the spine's pauses of that link as the fabric counted them, and sees no loss.
TEST(CongestionCommand, TheCaptureAnalysisOfARunAgreesWithTheFabric) {
  const std::string pcap = tempPath("congestion_analyzed.pcap");
  const RunResult run = runCli({"congestion", kExamples + "incast-pfc.json", "--pcap", pcap});
  ASSERT_EQ(run.exitCode, 0) << run.err;
  // "  sp0:1 priority 3 paused 1706.6 us in 122 period(s)": the spine's port towards l1, whose
  // PAUSE frames travel on the captured link l1:0.
  const auto at = run.out.find("sp0:1 priority 3 paused ");
  ASSERT_NE(at, std::string::npos) << run.out;
  const double fabricUs = std::stod(run.out.substr(at + 24));
  const RunResult an = runCli({"analyze", pcap, "--json"});
  std::remove(pcap.c_str());
  ASSERT_EQ(an.exitCode, 0) << an.err;
  const auto j = nlohmann::json::parse(an.out);
  EXPECT_EQ(j["summary"]["psn_gaps"], 0);
  EXPECT_EQ(j["summary"]["resent_frames"], 0);
  EXPECT_EQ(j["summary"]["victim_flows"], 1);
  ASSERT_EQ(j["pauses"].size(), 1u);
  EXPECT_EQ(j["pauses"][0]["priority"], 3);
  EXPECT_NEAR(j["pauses"][0]["paused_s"].get<double>() * 1e6, fabricUs, fabricUs * 0.01);
  bool victim = false;
  for (const auto& a : j["anomalies"])
    if (a["kind"] == "victim_flow") {
      victim = true;
      EXPECT_NE(a["detail"].get<std::string>().find("flow to 10.10.0.11 held"), std::string::npos)
          << a["detail"];  // h10, the victim's idle receiver
      EXPECT_NE(a["detail"].get<std::string>().find("the 7 paused flows to 10.10.0.9"),
                std::string::npos)
          << a["detail"];  // h8, the incast's receiver
    }
  EXPECT_TRUE(victim);
}

}  // namespace
}  // namespace rdmascope::cli::test
