// rdmascope-cli's numeric options: every subcommand checks its numbers in one place
// (app/cli/src/numeric_options.cpp). A bad value exits with status 2 and one line naming the
// option, the value and the allowed range, and `--help` states the same range. Also the
// other argument errors: unknown commands and options are named, with status 2.
#include <gtest/gtest.h>

#include "cli_runner.h"

namespace rdmascope::cli::test {
namespace {

const std::string kAnyCount = "an integer from 1 to 18446744073709551615";
const std::string kAnySeed = "an integer from 0 to 18446744073709551615";
const std::string kPort = "an integer from 1 to 65535";
const std::string kLoss = "a number from 0 to below 1";
const std::string kSize =
    "a size from 1 to 1T (bytes, or K, M, G, T: 2^10, 2^20, 2^30, 2^40 bytes)";

struct BadValue {
  std::vector<std::string> args;  ///< the command line, the bad value last but for a file
  std::string option;             ///< as the message names it
  std::string value;              ///< as the message quotes it
  std::string range;              ///< as the message and --help state it
};

std::string golden0() {
  return golden("rocev2-mixed.pcap");
}

// Each bad value: status 2, exactly "rdmascope-cli: OPTION: 'VALUE' is not RANGE", nothing on
// stdout, and the subcommand's --help states RANGE for the option.
void expectRejected(const BadValue& b) {
  const auto r = runCli(b.args);
  std::string cmd;
  for (const auto& a : b.args)
    cmd += a + ' ';
  EXPECT_EQ(r.exitCode, 2) << cmd << r.out << r.err;
  EXPECT_EQ(r.err, "rdmascope-cli: " + b.option + ": '" + b.value + "' is not " + b.range + "\n")
      << cmd;
  EXPECT_EQ(r.out, "") << cmd;
  // The subcommand's help: its words are the arguments before the first option or file.
  std::vector<std::string> help;
  for (const auto& a : b.args) {
    if (a.empty() || a[0] == '-' || a.find('/') != std::string::npos) break;
    help.push_back(a);
  }
  help.resize(std::min<std::size_t>(help.size(), b.args[0] == "lab" ? 2 : 1));
  help.push_back("--help");
  const auto h = runCli(help);
  ASSERT_EQ(h.exitCode, 0) << h.err;
  bool stated = false;
  for (const auto& line : lines(h.out))
    if (line.find(b.option) != std::string::npos && line.find(b.range) != std::string::npos)
      stated = true;
  EXPECT_TRUE(stated) << b.option << " with '" << b.range << "' not in:\n" << h.out;
}

TEST(NumericOptions, PacketCountsAreWholeNumbersFromOne) {
  for (const std::string v : {"-1", "99999999999999999999999", "18446744073709551616", "0", "1.5",
                              "ten", "0x10", " 5", "5 "}) {
    expectRejected({{"decode", golden0(), "-c", v}, "-c", v, kAnyCount});
    expectRejected({{"capture", "-i", "lo", "-c", v}, "-c", v, kAnyCount});
  }
}

TEST(NumericOptions, LeadingZerosAreDecimalNotOctal) {
  // The capture holds 9 frames: "-c 010" is ten, so all of them (CLI11 alone reads octal 8).
  const auto all = runCli({"decode", golden0()});
  ASSERT_EQ(all.exitCode, 0) << all.err;
  ASSERT_EQ(lines(all.out).size(), 9u) << all.out;
  const auto r = runCli({"decode", golden0(), "-c", "010"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, all.out);
  const auto seven = runCli({"decode", golden0(), "-c", "0007"});
  ASSERT_EQ(seven.exitCode, 0) << seven.err;
  EXPECT_EQ(lines(seven.out).size(), 7u) << seven.out;
  const auto most = runCli({"decode", golden0(), "-c", "18446744073709551615"});
  EXPECT_EQ(most.exitCode, 0) << most.err;
  EXPECT_EQ(most.out, all.out);
}

TEST(NumericOptions, LossIsAProbabilityBelowOne) {
  for (const std::string v : {"nan", "NaN", "inf", "-inf", "-0.1", "1", "1.5", "50", "1e400", ""})
    expectRejected({{"sim", "rc-write", "--loss", v}, "--loss", v, kLoss});
  expectRejected({{"sim", "tcp-stream", "--loss", "nan"}, "--loss", "nan", kLoss});
  expectRejected({{"lab", "run", "rc-write", "--out", tempPath("lab"), "--loss", "nan"},
                  "--loss",
                  "nan",
                  kLoss});
  expectRejected(
      {{"lab", "run", "rc-write", "--out", tempPath("lab"), "--loss", "1"}, "--loss", "1", kLoss});
  // The ends of the range: 0 runs without loss, just below 1 is accepted.
  const auto clean = runCli({"sim", "rc-write", "--trace", "text"});
  const auto zero = runCli({"sim", "rc-write", "--trace", "text", "--loss", "0"});
  ASSERT_EQ(zero.exitCode, 0) << zero.err;
  EXPECT_EQ(zero.out, clean.out);
  const auto lossy = runCli({"sim", "tcp-stream", "--loss", "0.3", "--seed", "3"});
  EXPECT_EQ(lossy.exitCode, 0) << lossy.err;
  EXPECT_EQ(lossy.out.find(" 0 lost"), std::string::npos) << lossy.out;
}

TEST(NumericOptions, SeedIsAny64BitValue) {
  for (const std::string v : {"-1", "18446744073709551616", "1e3", "seven"})
    expectRejected({{"sim", "rc-write", "--seed", v}, "--seed", v, kAnySeed});
  for (const std::string v : {"0", "18446744073709551615"}) {
    const auto r = runCli({"sim", "rc-write", "--trace", "none", "--seed", v});
    EXPECT_EQ(r.exitCode, 0) << v << ": " << r.err;
  }
}

TEST(NumericOptions, RocePortIsCheckedAlikeByDecodeCaptureAndAnalyze) {
  for (const std::string v : {"0", "65536", "-1", "4791x"}) {
    expectRejected({{"analyze", golden0(), "--roce-port", v}, "--roce-port", v, kPort});
    expectRejected({{"decode", golden0(), "--roce-port", v}, "--roce-port", v, kPort});
    expectRejected({{"capture", "-i", "lo", "--roce-port", v}, "--roce-port", v, kPort});
  }
  EXPECT_EQ(runCli({"analyze", golden0(), "--roce-port", "65535"}).exitCode, 0);
}

TEST(NumericOptions, DurationsAndWidthsAreFinite) {
  for (const std::string v : {"nan", "inf", "0", "-1", "1000001"})
    expectRejected({{"capture", "-i", "lo", "--duration", v},
                    "--duration",
                    v,
                    "a number above 0 up to 1000000"});
  expectRejected({{"capture", "-i", "lo", "-a", "nan"},
                  "--duration",
                  "nan",
                  "a number above 0 up to 1000000"});
  for (const std::string v : {"nan", "inf", "0", "-0.001", "1e-10", "86401"})
    expectRejected({{"analyze", golden0(), "--series-width", v},
                    "--series-width",
                    v,
                    "a number from 1e-09 up to 86400"});
}

TEST(NumericOptions, VerbsAndLabNumbers) {
  for (const std::string v : {"0", "65536", "-1"})
    expectRejected({{"verbs", "--bench", "write", "--sim", "--port", v}, "--port", v, kPort});
  for (const std::string v : {"256", "-1"})
    expectRejected({{"verbs", "--bench", "write", "--sim", "--gid-index", v},
                    "--gid-index",
                    v,
                    "an integer from 0 to 255"});
  for (const std::string v : {"0", "1073741825", "-8"})
    expectRejected({{"verbs", "--bench", "write", "--sim", "--size", v},
                    "--size",
                    v,
                    "an integer from 1 to 1073741824"});
  for (const std::string v : {"0", "100001", "-1"})
    expectRejected({{"verbs", "--bench", "write", "--sim", "--iters", v},
                    "--iters",
                    v,
                    "an integer from 1 to 100000"});
  for (const std::string v : {"5", "3601", "-5", "nan"})
    expectRejected({{"lab", "run", "rc-write", "--out", tempPath("lab"), "--timeout", v},
                    "--timeout",
                    v,
                    "an integer from 10 to 3600"});
}

TEST(NumericOptions, CompareSizesAreEachChecked) {
  expectRejected({{"compare", "--size", "4K,,64K"},
                  "--size",
                  "4K,,64K",
                  "a comma separated list without empty items"});
  for (const std::string list : {",4K", "4K,", ""})
    expectRejected({{"compare", "--size", list},
                    "--size",
                    list,
                    "a comma separated list without empty items"});
  for (const std::string item : {"0", "-4K", "99999999999T", "2T", "99999999999999999999999", "4X",
                                 "K", "1.5K", "1099511627777"}) {
    const auto r = runCli({"compare", "--size", "4K," + item});
    EXPECT_EQ(r.exitCode, 2) << item;
    EXPECT_EQ(r.err, "rdmascope-cli: --size: '" + item + "' is not " + kSize + "\n");
  }
  const auto h = runCli({"compare", "--help"});
  EXPECT_NE(h.out.find("each " + kSize), std::string::npos) << h.out;
  const auto r =
      runCli({"compare", "--size", "4K,1T,1099511627776", "--transports", "rocev2", "--csv"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lines(r.out).size(), 4u) << r.out;
  const auto t = runCli({"compare", "--transports", "tcp,,rocev2"});
  EXPECT_EQ(t.exitCode, 2);
  EXPECT_EQ(t.err,
            "rdmascope-cli: --transports: 'tcp,,rocev2' is not a comma separated list without "
            "empty items\n");
}

TEST(NumericOptions, UnknownCommandsAndOptionsAreNamed) {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"frobnicate"}, "unknown command 'frobnicate'"},
      {{"decode", "--frob", golden0()}, "decode: unknown option '--frob'"},
      {{"sim", "rc-write", "--bogus"}, "sim: unknown option '--bogus'"},
      {{"sim", "rc-write", "-Z"}, "sim: unknown option '-Z'"},
      {{"bench", "tcp", "--bogus"}, "bench tcp: unknown option '--bogus'"},
      {{"bench", "frob"}, "bench: unknown command 'frob'"},
      {{"lab", "frob"}, "lab: unknown command 'frob'"},
      {{"analyze", golden0(), "extra"}, "analyze: unexpected argument 'extra'"},
  };
  for (const auto& c : cases) {
    const auto r = runCli(c.args);
    EXPECT_EQ(r.exitCode, 2) << c.message;
    EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
    EXPECT_EQ(r.err.rfind("rdmascope-cli: " + c.message, 0), 0u) << r.err;
  }
  const auto none = runCli({});
  EXPECT_EQ(none.exitCode, 2);
  EXPECT_EQ(lines(none.err).size(), 1u) << none.err;
}

}  // namespace
}  // namespace rdmascope::cli::test
