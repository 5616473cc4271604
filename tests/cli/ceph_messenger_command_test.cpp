// rdmascope-cli sim ceph-messenger / ceph-messenger-tcp: Ceph's async messenger on both of its
// network stacks, printed side by side; the pcap holds the named stack's frames, the JSON trace
// its steps, and options outside the model are refused with one line.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "rdmascope/packets_io/capture_reader.h"
#include "rdmascope/sim/network.h"

namespace rdmascope::cli::test {
namespace {

int countSteps(const nlohmann::json& steps, const std::string& kind) {
  int n = 0;
  for (const auto& s : steps)
    if (s["step"] == kind) ++n;
  return n;
}

TEST(CephMessengerCommand, PrintsBothStacksSideBySide) {
  const auto r = runCli({"sim", "ceph-messenger"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  for (const char* want :
       {"async+rdma", "async+posix", "zero-length SEND", "TCP FIN", "latency of message 3 (us)",
        "bytes copied (client / OSD)", "921600 / 921600", "client ack "})
    EXPECT_NE(r.out.find(want), std::string::npos) << want << " in\n" << r.out;
  // data intact on both stacks
  const auto data = r.out.find("\ndata ");
  ASSERT_NE(data, std::string::npos);
  const std::string line = r.out.substr(data + 1, r.out.find('\n', data + 1) - data - 1);
  EXPECT_EQ(line.find("NOT"), std::string::npos) << line;
  EXPECT_NE(line.find("intact"), line.rfind("intact")) << line;
}

TEST(CephMessengerCommand, PcapHoldsTheRdmaStacksSendsAndSideChannel) {
  const std::string pcap = tempPath("ceph.pcap");
  const auto r = runCli(
      {"sim", "ceph-messenger", "--messages", "1", "--message-size", "300K", "--pcap", pcap});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::string error;
  auto reader = packets_io::CaptureReader::open(pcap, error);
  ASSERT_TRUE(reader) << error;
  packets_io::CapturedFrame f;
  int firsts = 0, onlies = 0, tcp = 0, qpInfo = 0;
  while (reader->next(f)) {
    const auto p = sim::summarizeFrame(sim::WireFormat::RoceV2Ipv4, f.data);
    if (!p.ok) {
      ++tcp;
      const std::string bytes(f.data.begin(), f.data.end());
      if (bytes.find(":00000000000000000000ffff0a09000") != std::string::npos) ++qpInfo;
      continue;
    }
    if (p.opcodeName == "RC SEND FIRST") ++firsts;
    if (p.opcodeName == "RC SEND ONLY" && p.payloadLen == 0) ++onlies;
  }
  EXPECT_EQ(firsts, 3);  // 300 KiB in 128 KiB chunks
  EXPECT_EQ(onlies, 1);  // the fin
  EXPECT_EQ(qpInfo, 3);
  EXPECT_GT(tcp, 6);
  std::remove(pcap.c_str());
}

TEST(CephMessengerCommand, TraceJsonListsTheSteps) {
  auto r = runCli({"sim", "ceph-messenger", "--trace", "json"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto steps = nlohmann::json::parse(r.out);
  ASSERT_TRUE(steps.is_array());
  EXPECT_EQ(countSteps(steps, "qp-info-sent"), 3);
  EXPECT_EQ(countSteps(steps, "copy-into-chunk"), 9);
  EXPECT_EQ(countSteps(steps, "copy-out"), 9);
  EXPECT_EQ(countSteps(steps, "chunk-reposted"), 10);
  EXPECT_EQ(countSteps(steps, "fin-sent"), 1);
  EXPECT_FALSE(steps[0]["text"].get<std::string>().empty());

  r = runCli({"sim", "ceph-messenger", "--trace", "json", "--registered"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  steps = nlohmann::json::parse(r.out);
  EXPECT_EQ(countSteps(steps, "copy-into-chunk"), 0);
  EXPECT_EQ(countSteps(steps, "chunk-in-place"), 9);

  r = runCli({"sim", "ceph-messenger-tcp", "--trace", "json", "--message-size", "1000"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  steps = nlohmann::json::parse(r.out);
  EXPECT_EQ(countSteps(steps, "copy-into-socket"), 3);
  EXPECT_EQ(countSteps(steps, "copy-out-of-socket"), 3);
  EXPECT_EQ(countSteps(steps, "post-send"), 0);
}

TEST(CephMessengerCommand, BadOptionsGetOneLine) {
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"sim", "ceph-messenger", "--message-size", "17M"}, "--message-size"},
      {{"sim", "ceph-messenger", "--messages", "0"}, "--messages"},
      {{"sim", "ceph-messenger", "--wire", "rocev1"}, "--wire does not apply"},
      {{"sim", "ceph-messenger", "--loss", "0.1"}, "--loss does not apply"},
      {{"sim", "rc-write", "--registered"}, "apply to ceph-messenger"},
      {{"sim", "--show", "ceph-messenger"}, "has no scenario file"},
  };
  for (const auto& c : cases) {
    const auto r = runCli(c.args);
    EXPECT_EQ(r.exitCode, 2) << c.args.back();
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
  }
}

}  // namespace
}  // namespace rdmascope::cli::test
