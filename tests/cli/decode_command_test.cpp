#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../support/oracle.h"
#include "cli_runner.h"

namespace rdmascope::cli::test {
namespace {

TEST(DecodeCommand, PrintsOneSummaryLinePerPacket) {
  const auto r = runCli({"decode", golden("net-mixed.pcap")});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto l = lines(r.out);
  ASSERT_EQ(l.size(), 8u);
  EXPECT_EQ(
      l[0].rfind("    1 0.000000000  192.168.0.1 \u2192 192.168.0.2  UDP 60 5353 \u2192 53", 0), 0u)
      << l[0];
  EXPECT_NE(l[1].find("TCP 60 40000 \u2192 80 [SYN] Len=0"), std::string::npos) << l[1];
  EXPECT_NE(l[2].find("[SYN, ACK]"), std::string::npos) << l[2];
  EXPECT_NE(l[4].find("fd00::1 \u2192 fd00::2      UDP 82 1234 \u2192 5678 Len=20"),
            std::string::npos)
      << l[4];
}

TEST(DecodeCommand, FieldsJoinOccurrencesAndLeaveAbsentFieldsEmpty) {
  const auto r = runCli({"decode", golden("net-mixed.pcap"), "-T", "fields", "-e", "frame.number",
                         "-e", "ip.src", "-e", "tcp.srcport", "-e", "ip.addr", "-E", "header=y"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto l = lines(r.out);
  ASSERT_EQ(l.size(), 9u);
  EXPECT_EQ(l[0], "frame.number\tip.src\ttcp.srcport\tip.addr");
  EXPECT_EQ(l[1], "1\t192.168.0.1\t\t192.168.0.1,192.168.0.2");
  EXPECT_EQ(l[2], "2\t192.168.0.1\t40000\t192.168.0.1,192.168.0.2");
  EXPECT_EQ(l[5], "5\t\t\t");
}

TEST(DecodeCommand, ReadsPcapngAndTakesTsharksDashR) {
  const auto a = runCli({"decode", golden("net-mixed.pcap")});
  const auto b = runCli({"decode", "-r", golden("net-mixed.pcap")});
  EXPECT_EQ(b.exitCode, 0) << b.err;
  EXPECT_EQ(a.out, b.out);
  RDMASCOPE_NEED_ORACLES(Editcap);
  const std::string ng = tempPath("net.pcapng");
  ASSERT_EQ(std::system((rdmascope::testing::oracleCommand(rdmascope::testing::Oracle::Editcap) +
                         " -F pcapng " + golden("net-mixed.pcap") + " " + ng)
                            .c_str()),
            0);
  const auto c = runCli({"decode", ng});
  std::remove(ng.c_str());
  EXPECT_EQ(c.exitCode, 0) << c.err;
  EXPECT_EQ(a.out, c.out);
}

TEST(DecodeCommand, DisplayFilterAndCount) {
  auto r = runCli({"decode", golden("net-mixed.pcap"), "-Y", "tcp && !(ipv6)", "-T", "fields", "-e",
                   "frame.number"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, "2\n3\n4\n");
  r = runCli({"decode", golden("net-mixed.pcap"), "-Y", "tcp.flags.syn == 1 or udp.port == 7", "-c",
              "2", "-T", "fields", "-e", "frame.number"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, "2\n3\n");
  r = runCli({"decode", golden("net-mixed.pcap"), "-c", "1"});
  EXPECT_EQ(lines(r.out).size(), 1u);
}

TEST(DecodeCommand, VerboseTreeIsIndentedByDepth) {
  const auto r = runCli({"decode", golden("net-mixed.pcap"), "-V", "-c", "1"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out.rfind("Frame 1: 60 bytes on wire", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("\nEthernet II\n    Destination: 02:00:00:00:00:02\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\n    Source Port: 5353\n"), std::string::npos) << r.out;
}

TEST(DecodeCommand, JsonIsAnArrayOfPacketsWithLayers) {
  const auto r = runCli({"decode", golden("net-mixed.pcap"), "-T", "json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.is_array());
  ASSERT_EQ(j.size(), 8u);
  const auto& layers = j[1]["_source"]["layers"];
  EXPECT_EQ(layers["frame"]["frame.number"], "2");
  EXPECT_EQ(layers["eth"]["eth.src"], "02:00:00:00:00:01");
  EXPECT_EQ(layers["ip"]["ip.dst"], "192.168.0.2");
  EXPECT_EQ(layers["tcp"]["tcp.srcport"], "40000");
  EXPECT_EQ(j[0]["_index"], "packets-2023-11-14");
  const auto empty =
      runCli({"decode", golden("net-mixed.pcap"), "-T", "json", "-Y", "frame.len > 9999"});
  EXPECT_TRUE(nlohmann::json::parse(empty.out).empty());
}

TEST(DecodeCommand, VerifyCountsCrcsAndFailsOnABadOne) {
  auto r = runCli({"decode", golden("rocev2-mixed.pcap"), "--verify"});
  EXPECT_EQ(r.exitCode, 1) << r.err;
  EXPECT_EQ(r.out, "frame 8: bad CRC\n9 frames: 8 good CRC, 1 bad CRC, 0 without CRC\n");
  r = runCli({"decode", golden("net-mixed.pcap"), "--verify"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, "8 frames: 0 good CRC, 0 bad CRC, 8 without CRC\n");
  // On another port nothing is RoCEv2 any more; RoCEv1 (frame 9) still is.
  r = runCli({"decode", golden("rocev2-mixed.pcap"), "--verify", "--roce-port", "4792"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, "9 frames: 1 good CRC, 0 bad CRC, 8 without CRC\n");
}

TEST(DecodeCommand, InputErrorsAreOneLineWithExitCode2) {
  auto r = runCli({"decode", "/nonexistent/x.pcap"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err, "rdmascope-cli: cannot open /nonexistent/x.pcap: No such file or directory\n");
  EXPECT_EQ(r.out, "");
  const std::string notCapture = std::string(RDMASCOPE_SOURCE_DIR) + "/tests/cli/CMakeLists.txt";
  r = runCli({"decode", notCapture});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err, "rdmascope-cli: " + notCapture + " is not a pcap or pcapng capture\n");
  r = runCli({"decode", golden("net-mixed.pcap"), "-Y", "ip.src == "});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err,
            "rdmascope-cli: invalid display filter 'ip.src == ': column 11: expected a value "
            "after '=='\n");
  r = runCli({"decode", golden("net-mixed.pcap"), "-T", "fields", "-e", "ip.sorce"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err, "rdmascope-cli: unknown field 'ip.sorce' in -e\n");
  r = runCli({"decode"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
  r = runCli({"frobnicate"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
}

// A long filter is not echoed whole: the error quotes the part at fault with its column.
TEST(DecodeCommand, LongFilterErrorsQuoteThePartAtFault) {
  std::string filter;
  for (int i = 0; i < 3000; ++i)
    filter += "udp.srcport == 1234 && ";
  filter += "ip.sorc == 1.2.3.4";
  auto r = runCli({"decode", golden("net-mixed.pcap"), "-Y", filter});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err,
            "rdmascope-cli: invalid display filter: column 69001: unknown field 'ip.sorc' (near "
            "\"... udp.srcport == 1234 && ip.sorc == 1.2.3.4\")\n");
  r = runCli({"decode", golden("net-mixed.pcap"), "-Y", std::string(15000, '(') + "udp"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err,
            "rdmascope-cli: invalid display filter: column 257: parentheses nested more than 256 "
            "levels deep (near \"...((((((((((((((((((((((((((((((((((((((((((((((((...\")\n");
  r = runCli({"decode", golden("net-mixed.pcap"), "-Y", std::string(100000, '!') + "udp", "-T",
              "fields", "-e", "frame.number"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, "1\n5\n7\n");
  r = runCli({"decode", golden("net-mixed.pcap"), "-Y", "frame.len < 1e19", "-T", "fields", "-e",
              "frame.number"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(lines(r.out).size(), 8u);
}

TEST(DecodeCommand, TruncatedFileDecodesWhatIsThereThenFails) {
  const std::string full = readFile(golden("net-mixed.pcap"));
  const std::string cut = tempPath("cut.pcap");
  {
    std::ofstream o(cut, std::ios::binary);
    o << full.substr(0, full.size() - 10);
  }
  const auto r = runCli({"decode", cut});
  std::remove(cut.c_str());
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(lines(r.out).size(), 7u);
  EXPECT_EQ(r.err, "rdmascope-cli: " + cut +
                       ": truncated record at frame 8 (frame needs 60 bytes, file has 50)\n");
}

TEST(GoldenCaptures, RegenerateByteForByte) {
  const std::string dir = tempPath("golden");
  ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
  const auto r = runProgram(RDMASCOPE_MAKE_GOLDEN, {dir});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  for (const char* name : {"rocev2-mixed.pcap", "net-mixed.pcap"})
    EXPECT_EQ(readFile(dir + "/" + name), readFile(golden(name))) << name;
  std::system(("rm -rf " + dir).c_str());
}

}  // namespace
}  // namespace rdmascope::cli::test
