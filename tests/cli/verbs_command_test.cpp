// rdmascope-cli verbs: perftest's columns from the simulated benchmark, with figures that
// follow from the default link (100 Gb/s, 1 us one way); the no-device error without RDMA.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "cli_runner.h"
#include "rdmascope/verbs_backend/scenario.h"

namespace rdmascope::cli::test {
namespace {

constexpr double kLinkMBps = 100e9 / 8 / (1024.0 * 1024.0);  // perftest's MB = 2^20 bytes
constexpr double kLinkLatencyUs = 1.0;

struct Table {
  std::string header;
  std::vector<double> values;
};

// The header line (starts with " #bytes") and the numbers of the line after it.
Table parse(const std::string& out) {
  Table t;
  const auto l = lines(out);
  for (std::size_t i = 0; i + 1 < l.size(); ++i) {
    if (l[i].rfind(" #bytes", 0) != 0) continue;
    t.header = l[i];
    std::istringstream in(l[i + 1]);
    for (double v; in >> v;)
      t.values.push_back(v);
  }
  return t;
}

TEST(VerbsBench, WriteBandwidthBelowTheLinkRate) {
  const auto r =
      runCli({"verbs", "--bench", "write", "--size", "65536", "--iters", "500", "--sim"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const Table t = parse(r.out);
  EXPECT_EQ(t.header,
            " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]");
  ASSERT_EQ(t.values.size(), 5u) << r.out;
  EXPECT_EQ(t.values[0], 65536);
  EXPECT_EQ(t.values[1], 500);
  const double peak = t.values[2], avg = t.values[3], rate = t.values[4];
  EXPECT_LT(peak, kLinkMBps);
  EXPECT_LE(avg, peak + 0.01);
  // 64 KiB messages in 4 KiB packets: headers cost a few percent, not more.
  EXPECT_GT(avg, 0.9 * kLinkMBps);
  EXPECT_NEAR(rate * 1e6 * 65536 / (1024.0 * 1024.0), avg, avg * 0.01);
}

TEST(VerbsBench, SmallSendsAreSlowerThanLargeOnes) {
  const auto small =
      parse(runCli({"verbs", "--bench", "send", "--size", "64", "--iters", "500", "--sim"}).out);
  const auto large =
      parse(runCli({"verbs", "--bench", "send", "--size", "8192", "--iters", "500", "--sim"}).out);
  ASSERT_EQ(small.values.size(), 5u);
  ASSERT_EQ(large.values.size(), 5u);
  EXPECT_LT(small.values[3], large.values[3]);
  EXPECT_GT(small.values[4], large.values[4]);  // more messages per second
  EXPECT_LT(large.values[3], kLinkMBps);
}

TEST(VerbsBench, ReadBandwidth) {
  const auto r = runCli({"verbs", "--bench", "read", "--size", "16384", "--iters", "300", "--sim"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const Table t = parse(r.out);
  ASSERT_EQ(t.values.size(), 5u) << r.out;
  EXPECT_GT(t.values[3], 0.5 * kLinkMBps);
  EXPECT_LT(t.values[3], kLinkMBps);
}

TEST(VerbsBench, LatencyColumnsAndFigures) {
  const std::string latHeader =
      " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    "
      "t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec]";
  struct Case {
    std::string op, size;
    double lowUs, highUs;
  };
  // WRITE and SEND: half a round trip, just above one link latency. READ and atomic: a whole
  // round trip, as ib_read_lat and ib_atomic_lat report.
  for (const Case& c : {Case{"write", "64", kLinkLatencyUs, 1.5 * kLinkLatencyUs},
                        Case{"send", "64", kLinkLatencyUs, 1.5 * kLinkLatencyUs},
                        Case{"read", "64", 2 * kLinkLatencyUs, 3 * kLinkLatencyUs},
                        Case{"atomic", "8", 2 * kLinkLatencyUs, 3 * kLinkLatencyUs}}) {
    const auto r =
        runCli({"verbs", "--bench", c.op, "--size", c.size, "--iters", "200", "--sim", "--lat"});
    ASSERT_EQ(r.exitCode, 0) << c.op << ": " << r.err;
    const Table t = parse(r.out);
    EXPECT_EQ(t.header, latHeader) << c.op;
    ASSERT_EQ(t.values.size(), 9u) << c.op << ": " << r.out;
    EXPECT_EQ(t.values[1], 200);
    const double tmin = t.values[2], tmax = t.values[3], typical = t.values[4], avg = t.values[5];
    EXPECT_GT(tmin, c.lowUs) << c.op;
    EXPECT_LT(tmax, c.highUs) << c.op;
    EXPECT_LE(tmin, typical);
    EXPECT_LE(typical, tmax);
    EXPECT_LE(tmin, avg);
    EXPECT_LE(t.values[7], t.values[8]);  // 99% <= 99.9%
  }
}

TEST(VerbsBench, LargerWritesTakeLonger) {
  const auto small = parse(
      runCli({"verbs", "--bench", "write", "--size", "64", "--iters", "50", "--sim", "--lat"}).out);
  const auto large = parse(
      runCli({"verbs", "--bench", "write", "--size", "65536", "--iters", "50", "--sim", "--lat"})
          .out);
  ASSERT_EQ(small.values.size(), 9u);
  ASSERT_EQ(large.values.size(), 9u);
  // 64 KiB at 100 Gb/s serialises in about 5.2 us.
  EXPECT_GT(large.values[4] - small.values[4], 5.0);
}

TEST(VerbsBench, AtomicNeedsEightBytes) {
  const auto r = runCli({"verbs", "--bench", "atomic", "--size", "64", "--sim"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("--size 8"), std::string::npos) << r.err;
}

TEST(Verbs, NeedsScenarioOrBench) {
  const auto r = runCli({"verbs", "--server"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("--scenario NAME or --bench"), std::string::npos) << r.err;
  const auto s = runCli({"verbs", "--scenario", "rc-write"});
  EXPECT_EQ(s.exitCode, 2);
  EXPECT_NE(s.err.find("--server or --connect"), std::string::npos) << s.err;
}

TEST(Verbs, NoDeviceIsAClearError) {
  std::error_code ec;
  if (std::filesystem::exists("/sys/class/infiniband", ec) &&
      !std::filesystem::is_empty("/sys/class/infiniband", ec))
    GTEST_SKIP() << "this machine has an RDMA device";
  const auto r = runCli({"verbs", "--device", "rxe0", "--scenario", "rc-write", "--server"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("no RDMA device found"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("lab"), std::string::npos) << r.err;
}

TEST(VerbsCm, ArgumentErrorsAreOneLine) {
  struct Case {
    std::vector<std::string> args;
    std::string error;
  };
  const std::vector<Case> cases = {
      {{"verbs", "--bench", "write", "--server", "--cm"},
       "rdmascope-cli: --cm runs scenarios (--scenario NAME); the benchmarks connect over TCP"},
      {{"verbs", "--scenario", "ud-send", "--server", "--cm"},
       "rdmascope-cli: --cm connects RC QPs (RDMA_PS_TCP), but ud-send's QP 'qp' is UD: run it "
       "without --cm"},
      {{"verbs", "--scenario", "uc-write", "--connect", "10.9.0.1", "--cm"},
       "rdmascope-cli: --cm connects RC QPs (RDMA_PS_TCP), but uc-write's QP 'qp' is UC: run it "
       "without --cm"},
      {{"verbs", "--scenario", "rc-write", "--cm"},
       "rdmascope-cli: verbs needs one of --server or --connect HOST"},
      {{"lab", "run", "rc_pingpong", "--cm", "--out", tempPath("lab-cm")},
       "rdmascope-cli: --cm runs rdmascope scenarios (a built-in name or a file), not the lab's "
       "own scenario \"rc_pingpong\""},
  };
  for (const Case& c : cases) {
    const auto r = runCli(c.args);
    EXPECT_EQ(r.exitCode, 2) << c.error;
    EXPECT_EQ(r.err, c.error + "\n");
  }
}

TEST(VerbsCm, PublishedDataThatDoesNotFitTheReqIsAClearError) {
  // rc-write with two more exchanges from host-b: three regions in the REQ, where two fit.
  nlohmann::json j = verbs_backend::builtinScenarioJson("rc-write");
  j["name"] = "rc-write-3";
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& st : j["steps"]) {
    steps.push_back(st);
    if (st.contains("exchange") && st["exchange"]["from"] == 1)
      for (int k = 0; k < 2; ++k)
        steps.push_back(st);
  }
  j["steps"] = steps;
  const std::string file = tempPath("cm3.json");
  std::ofstream(file) << j.dump(1);
  const auto r = runCli({"verbs", "--scenario", file, "--connect", "10.9.0.1", "--cm"});
  std::filesystem::remove(file);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err,
            "rdmascope-cli: rc-write-3: host-b's CM REQ needs 65 bytes of CM private data for 3 "
            "published region(s), but 56 fit (2 region(s)): use the TCP exchange (without --cm)\n");
}

TEST(VerbsCm, NoRdmaCmNamesTheKernelModule) {
  std::error_code ec;
  if (std::filesystem::exists("/dev/infiniband/rdma_cm", ec))
    GTEST_SKIP() << "this machine has /dev/infiniband/rdma_cm";
  for (const auto& side :
       {std::vector<std::string>{"--server"}, std::vector<std::string>{"--connect", "10.9.0.1"}}) {
    std::vector<std::string> args = {"verbs", "--scenario", "rc-send-recv", "--cm"};
    args.insert(args.end(), side.begin(), side.end());
    const auto r = runCli(args);
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(r.err,
              "rdmascope-cli: rdma_cm is not available: /dev/infiniband/rdma_cm does not exist "
              "(load the rdma_ucm kernel module, or run the Soft-RoCE lab: rdmascope-cli lab)\n");
  }
}

TEST(Lab, ListNamesBothKinds) {
  const auto r = runCli({"lab", "list"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("rc_pingpong\t"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rc-send-recv\t"), std::string::npos) << r.out;
}

TEST(Lab, RunNeedsOut) {
  const auto r = runCli({"lab", "run", "rc-write"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("--out"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace rdmascope::cli::test
