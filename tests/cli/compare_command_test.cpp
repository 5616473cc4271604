// rdmascope-cli compare and bench tcp: the table's numbers are the cost model's for the
// settings given, bad input gets one line naming what was wrong, the loopback bench measures.

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_runner.h"
#include "rdmascope/sim/host_cost_model.h"
#include "rdmascope/sim/transfer_cost.h"

namespace rdmascope::cli::test {
namespace {

std::vector<std::string> splitCsv(const std::string& line) {
  std::vector<std::string> cols;
  std::stringstream ss(line);
  for (std::string c; std::getline(ss, c, ',');)
    cols.push_back(c);
  return cols;
}

TEST(CompareCommand, CsvNumbersAreTheModelsForTheGivenSettings) {
  const auto r =
      runCli({"compare", "--csv", "--size", "4K,1M,1G", "--transports", "tcp,rocev2,iwarp", "--set",
              "coalesce_us=4", "--set", "app_io=64K", "--op", "write"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto rows = lines(r.out);
  ASSERT_EQ(rows.size(), 1u + 9u);
  const auto header = splitCsv(rows[0]);
  ASSERT_EQ(header[0], "transport");
  sim::HostCostSettings s;
  ASSERT_FALSE(sim::applyCostSetting(s, "coalesce_us=4"));
  ASSERT_FALSE(sim::applyCostSetting(s, "app_io=64K"));
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto c = splitCsv(rows[i]);
    ASSERT_EQ(c.size(), header.size()) << rows[i];
    sim::Transport t{};
    ASSERT_TRUE(sim::parseTransport(c[0], t));
    const auto e = sim::estimateTransfer(t, std::stoull(c[2]), s, {sim::RdmaOp::Write});
    const auto& k = e.counters;
    EXPECT_DOUBLE_EQ(std::stod(c[3]), e.latencyNs) << rows[i];
    EXPECT_DOUBLE_EQ(std::stod(c[4]), e.throughputBytesPerSec) << rows[i];
    EXPECT_DOUBLE_EQ(std::stod(c[5]), k.cpuNs()) << rows[i];
    EXPECT_EQ(std::stoull(c[8]), k.cpuBytesCopied) << rows[i];
    EXPECT_EQ(std::stoull(c[9]), k.copiesPerByte) << rows[i];
    EXPECT_EQ(std::stoull(c[11]), k.syscalls) << rows[i];
    EXPECT_EQ(std::stoull(c[12]), k.contextSwitches) << rows[i];
    EXPECT_EQ(std::stoull(c[13]), k.interrupts) << rows[i];
    EXPECT_EQ(std::stoull(c[18]), k.memoryBusBytes) << rows[i];
    // The identities the comparison is about.
    if (t == sim::Transport::Tcp) {
      EXPECT_EQ(std::stoull(c[8]), 2 * std::stoull(c[2]));
      EXPECT_EQ(c[1], "send/recv");
    } else {
      EXPECT_EQ(std::stoull(c[8]), 0u);
      EXPECT_EQ(std::stoull(c[11]), 0u);
      EXPECT_EQ(c[1], "write");
    }
  }
}

TEST(CompareCommand, JsonCarriesSettingsAndStages) {
  const auto r = runCli({"compare", "--json", "--stages", "--size", "64K", "--events"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  for (const auto& info : sim::costSettingTable()) {
    EXPECT_TRUE(j["settings"].contains(std::string(info.name))) << info.name;
  }
  EXPECT_EQ(j["settings"]["completion"], "event");
  ASSERT_EQ(j["results"].size(), 3u);
  for (const auto& res : j["results"]) {
    EXPECT_FALSE(res["stages"].empty());
    if (res["transport"] == "tcp") {
      EXPECT_EQ(res["copies_per_byte"], 2);
    } else {
      EXPECT_EQ(res["copies_per_byte"], 0);
      EXPECT_EQ(res["interrupts"], 2);  // a Send completes on both hosts, by event
    }
  }
}

TEST(CompareCommand, TableShowsEveryTransportAndSize) {
  const auto r = runCli({"compare", "--settings"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  for (const char* word : {"tcp", "rocev2", "iwarp", "4K", "64K", "1M", "1G", "memcpy_bw",
                           "source:", "syscalls", "interrupts"}) {
    EXPECT_NE(r.out.find(word), std::string::npos) << word;
  }
}

TEST(CompareCommand, BadInputGetsOneLineNamingIt) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"compare", "--size", "4Q"}, "4Q"},
      {{"compare", "--transports", "tcp,ib"}, "ib"},
      {{"compare", "--set", "syscall=fast"}, "syscall"},
      {{"compare", "--set", "warp_speed=9"}, "warp_speed"},
      {{"compare", "--op", "atomic"}, "atomic"},
      {{"compare", "--csv", "--json"}, "--csv"},
      {{"compare", "--calibration", "/nonexistent/costs.json"}, "/nonexistent/costs.json"},
  };
  for (const auto& [args, word] : cases) {
    const auto r = runCli(args);
    EXPECT_EQ(r.exitCode, 2) << word;
    EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find(word), std::string::npos) << r.err;
  }
}

TEST(CompareCommand, CalibrationFileFeedsTheModel) {
  const auto path = tempPath("costs.json");
  {
    std::ofstream o(path);
    o << R"({"memcpy_bytes_per_sec": 4e9, "syscall_ns": 300, "send_call_ns": 1300,
             "recv_call_ns": 900, "round_trip_ns": 9000})";
  }
  const auto r =
      runCli({"compare", "--json", "--calibration", path, "--transports", "tcp", "--size", "4K"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_DOUBLE_EQ(j["settings"]["memcpy_bw"].get<double>(), 4e9);
  EXPECT_DOUBLE_EQ(j["settings"]["syscall"].get<double>(), 300);
  EXPECT_DOUBLE_EQ(j["settings"]["tcp_segment"].get<double>(), (1300 + 900) / 2.0 - 300);
  {
    std::ofstream o(path);
    o << R"({"memcpy_bytes_per_sec": 4e9})";
  }
  const auto bad = runCli({"compare", "--calibration", path});
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_NE(bad.err.find("syscall_ns"), std::string::npos) << bad.err;
  std::remove(path.c_str());
}

TEST(BenchTcp, MeasuresLoopback) {
  const auto r = runCli({"bench", "tcp", "--json", "--quick"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  for (const char* key : {"memcpy_bytes_per_sec", "syscall_ns", "send_call_ns", "recv_call_ns",
                          "round_trip_ns", "bulk_bytes_per_sec"}) {
    ASSERT_TRUE(j.contains(key)) << key;
    EXPECT_GT(j[key].get<double>(), 0) << key;
  }
  // A round trip needs at least two sends and two receives.
  EXPECT_GT(j["round_trip_ns"].get<double>(), j["recv_call_ns"].get<double>());
}

}  // namespace
}  // namespace rdmascope::cli::test
