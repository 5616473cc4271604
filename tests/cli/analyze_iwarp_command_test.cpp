// `rdmascope-cli analyze` on an iWARP capture: the conversation is the TCP connection, with its
// MPA negotiation, messages, TCP resends and the iWARP counts in text and JSON.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "rdmascope/packets_io/capture_writer.h"
#include "rdmascope/sim/transport_scenarios.h"

namespace rdmascope::cli::test {
namespace {

std::string writeIwarpCapture(double loss) {
  sim::TransportScenarioOptions o;
  o.bytes = 30000;
  o.lossRate = loss;
  o.seed = 4;
  std::string error;
  const auto run = sim::runTransportScenario("iwarp-read", o, error);
  EXPECT_TRUE(run) << error;
  const std::string path = tempPath("iwarp.pcap");
  auto w = packets_io::CaptureWriter::open(path, packets::LinkType::Ethernet, error);
  EXPECT_TRUE(w) << error;
  if (!run || !w) return path;
  for (const auto& f : run->frames)
    w->write(f.bytes, 1'700'000'000'000'000'000 + f.timePs / 1000);
  w->close();
  return path;
}

TEST(AnalyzeIwarpCommand, JsonHasTheConnectionMpaMessagesAndIwarpCounts) {
  const std::string path = writeIwarpCapture(0.1);
  const RunResult r = runCli({"analyze", path, "--json"});
  std::remove(path.c_str());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const auto& s = j["summary"];
  EXPECT_EQ(s["connections"], 1);
  EXPECT_EQ(s["messages"], 1);
  EXPECT_EQ(s["completed_messages"], 1);
  EXPECT_GT(s["resent_frames"].get<int>(), 0);
  EXPECT_GT(s["iwarp_frames"].get<int>(), 0);
  for (const char* key : {"crc_failures", "terminates", "out_of_order_segments", "segment_gaps",
                          "mpa_rejects", "icrc_failures"})
    EXPECT_TRUE(s[key].is_number_integer()) << key;
  EXPECT_EQ(s["crc_failures"], 0);
  EXPECT_EQ(s["icrc_failures"], 0);  // stays RoCE's
  const auto& c = j["connections"][0];
  EXPECT_EQ(c["carrier"], "iWARP");
  EXPECT_EQ(c["transport"], "TCP");
  EXPECT_EQ(c["a"]["port"], 40000);
  EXPECT_TRUE(c["mpa"]["crc_in_use"].get<bool>());
  EXPECT_FALSE(c["mpa"]["rejected"].get<bool>());
  EXPECT_EQ(j["messages"][0]["kind"], "READ");
  EXPECT_EQ(j["messages"][0]["bytes"], 30000);
  EXPECT_TRUE(j["messages"][0].contains("stag"));
  bool sawResend = false;
  for (const auto& a : j["anomalies"])
    if (a["kind"] == "retransmission") sawResend = a["frame"].get<int>() > 0;
  EXPECT_TRUE(sawResend);
}

TEST(AnalyzeIwarpCommand, TextShowsTheTcpConnectionAndMpa) {
  const std::string path = writeIwarpCapture(0);
  const RunResult r = runCli({"analyze", path});
  std::remove(path.c_str());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("iWARP      TCP  10.9.0.1:40000"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("MPA Request (frame "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("CRC on"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Anomalies (0)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\niWARP: "), std::string::npos) << r.out;
}

}  // namespace
}  // namespace rdmascope::cli::test
