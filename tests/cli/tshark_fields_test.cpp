// rdmascope-cli decode -T fields against tshark on the same capture (without tshark: skipped,
// or failed under RDMASCOPE_REQUIRE_ORACLES=1).
#include <gtest/gtest.h>

#include "../support/oracle.h"
#include "cli_runner.h"

namespace rdmascope::cli::test {
namespace {

std::string tshark() {
  return rdmascope::testing::oraclePath(rdmascope::testing::Oracle::Tshark);
}

// Runs both tools with the same -e list and compares every cell.
void compareFields(const std::string& capture, const std::vector<std::string>& keys) {
  std::vector<std::string> ours = {"decode", capture, "-T", "fields"};
  std::vector<std::string> theirs = {"-r", capture, "-o", "tcp.relative_sequence_numbers:FALSE",
                                     "-T", "fields"};
  for (const auto& k : keys) {
    ours.insert(ours.end(), {"-e", k});
    theirs.insert(theirs.end(), {"-e", k});
  }
  const auto a = runCli(ours);
  const auto b = runProgram(tshark(), theirs);
  ASSERT_EQ(a.exitCode, 0) << a.err;
  ASSERT_EQ(b.exitCode, 0) << b.err;
  const auto la = lines(a.out), lb = lines(b.out);
  ASSERT_EQ(la.size(), lb.size());
  ASSERT_FALSE(la.empty());
  for (std::size_t i = 0; i < la.size(); ++i) {
    auto split = [](const std::string& l) {
      std::vector<std::string> cells;
      std::size_t start = 0;
      for (std::size_t tab; (tab = l.find('\t', start)) != std::string::npos; start = tab + 1)
        cells.push_back(l.substr(start, tab - start));
      cells.push_back(l.substr(start));
      return cells;
    };
    const auto ca = split(la[i]), cb = split(lb[i]);
    ASSERT_EQ(ca.size(), keys.size());
    ASSERT_EQ(cb.size(), keys.size());
    for (std::size_t k = 0; k < keys.size(); ++k)
      EXPECT_EQ(ca[k], cb[k]) << "frame " << i + 1 << ", " << keys[k];
  }
}

TEST(TsharkFields, EthernetIpUdpTcpKeysAgree) {
  RDMASCOPE_NEED_ORACLES(Tshark);
  compareFields(golden("net-mixed.pcap"),
                {"frame.number", "frame.len", "frame.time_relative", "eth.src", "eth.dst", "ip.src",
                 "ip.dst", "ipv6.src", "ipv6.dst", "udp.srcport", "udp.dstport", "tcp.srcport",
                 "tcp.dstport", "tcp.seq"});
}

TEST(TsharkFields, MoreHeaderFieldsAndAggregatesAgree) {
  RDMASCOPE_NEED_ORACLES(Tshark);
  // clang-format off
  compareFields(golden("net-mixed.pcap"),
                {"frame.cap_len", "frame.time_epoch", "eth.type", "vlan.id", "vlan.etype",
                 "ip.len", "ip.ttl", "ip.proto", "ip.checksum", "ip.id", "ip.flags", "ip.dsfield",
                 "ip.hdr_len", "ipv6.plen", "ipv6.nxt", "ipv6.hlim", "ipv6.flow", "ipv6.tclass",
                 "udp.length", "udp.checksum", "tcp.ack", "tcp.flags", "tcp.hdr_len",
                 "tcp.window_size_value", "tcp.len", "tcp.checksum", "ip.addr", "tcp.port",
                 "udp.port", "eth.addr"});
  // clang-format on
}

TEST(TsharkFields, RoceCarrierKeysAgree) {
  RDMASCOPE_NEED_ORACLES(Tshark);
  compareFields(golden("rocev2-mixed.pcap"),
                {"frame.number", "frame.len", "frame.time_relative", "eth.src", "ip.src", "ip.dst",
                 "ipv6.src", "udp.srcport", "udp.dstport", "udp.length"});
}

TEST(TsharkFields, SummaryColumnsAgree) {
  RDMASCOPE_NEED_ORACLES(Tshark);
  // Number, time, source, destination and length columns; protocol and info differ where
  // tshark decodes application protocols rdmascope does not.
  const auto a = runCli({"decode", golden("net-mixed.pcap"), "-Y", "ip || ipv6"});
  const auto b = runProgram(tshark(), {"-r", golden("net-mixed.pcap"), "-Y", "ip || ipv6"});
  const auto la = lines(a.out), lb = lines(b.out);
  ASSERT_EQ(la.size(), lb.size());
  for (std::size_t i = 0; i < la.size(); ++i) {
    // The first 46 bytes hold the number, the time and both addresses.
    EXPECT_EQ(la[i].substr(0, 46), lb[i].substr(0, 46)) << la[i] << "\n" << lb[i];
  }
}

}  // namespace
}  // namespace rdmascope::cli::test
