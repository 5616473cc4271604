#include "rdmascope/packets/net_builder.h"

#include <gtest/gtest.h>

#include <vector>

#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/net_headers.h"

namespace rdmascope::packets {
namespace {

TcpEndpoint a() {
  return {{2, 0, 0, 0, 0, 1}, IpAddress::v4(192, 168, 1, 1), 1234};
}
TcpEndpoint b() {
  return {{2, 0, 0, 0, 0, 2}, IpAddress::v4(192, 168, 1, 2), 80};
}

TEST(NetBuilder, Ipv4TcpFrameFieldsLengthsAndChecksums) {
  TcpSegmentSpec s{a(), b(), 0x01020304, 0x0a0b0c0d, tcp_flags::kAck | tcp_flags::kPsh};
  s.ipId = 7;
  const std::vector<std::uint8_t> payload = {'h', 'i', '!'};
  const auto f = buildTcpFrame(s, payload);
  ASSERT_EQ(f.size(), 14u + 20 + 20 + 3);
  const std::vector<std::uint8_t> head = {2,    0,    0,    0, 0, 2,  2, 0, 0,    0, 0,  1,
                                          0x08, 0x00, 0x45, 0, 0, 43, 0, 7, 0x40, 0, 64, 6};
  EXPECT_EQ(std::vector<std::uint8_t>(f.begin(), f.begin() + 24), head);
  const auto d = decodeFrame(f, LinkType::Ethernet);
  EXPECT_TRUE(d.diagnostics.empty()) << d.diagnostics.front().message;
  EXPECT_EQ(d.find("tcp.seq")->number, 0x01020304u);
  EXPECT_EQ(d.find("tcp.ack")->number, 0x0a0b0c0du);
  EXPECT_EQ(d.find("tcp.flags")->number, 0x18u);
  EXPECT_EQ(d.find("tcp.len")->number, 3u);
  EXPECT_EQ(d.find("ip.len")->number, 43u);
  // A correct segment sums, with its pseudo-header, to all ones.
  EXPECT_EQ(tcpChecksum(s.src.ip, s.dst.ip, std::span(f).subspan(34)), 0u);
  auto bad = f;
  bad.back() ^= 1;
  EXPECT_NE(tcpChecksum(s.src.ip, s.dst.ip, std::span(bad).subspan(34)), 0u);
}

TEST(NetBuilder, Ipv6TcpFrame) {
  auto x = a(), y = b();
  x.ip = IpAddress::v6Address({0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1});
  y.ip = IpAddress::v6Address({0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2});
  const auto f = buildTcpFrame({x, y, 5, 6, tcp_flags::kSyn}, std::vector<std::uint8_t>(10, 1));
  ASSERT_EQ(f.size(), 14u + 40 + 20 + 10);
  const auto d = decodeFrame(f, LinkType::Ethernet);
  EXPECT_TRUE(d.diagnostics.empty());
  EXPECT_EQ(d.find("ipv6.plen")->number, 30u);
  EXPECT_EQ(d.find("ipv6.src")->value, "fe80::1");
  EXPECT_EQ(tcpChecksum(x.ip, y.ip, std::span(f).subspan(54)), 0u);
  EXPECT_THROW(buildTcpFrame({x, b()}, {}), std::invalid_argument);
  EXPECT_THROW(buildTcpFrame({a(), b()}, std::vector<std::uint8_t>(70000)), std::invalid_argument);
}

TEST(NetBuilder, ConversationTracksSequenceNumbersAcrossTheWrap) {
  TcpConversation c(a(), b(), 0xfffffff0u, 100);
  const auto hs = c.handshake();
  ASSERT_EQ(hs.size(), 3u);
  EXPECT_EQ(c.nextSeq(TcpConversation::Side::Client), 0xfffffff1u);
  EXPECT_EQ(c.nextSeq(TcpConversation::Side::Server), 101u);
  const auto syn = decodeFrame(hs[1], LinkType::Ethernet);
  EXPECT_EQ(syn.find("tcp.flags")->number, 0x12u);
  EXPECT_EQ(syn.find("tcp.ack")->number, 0xfffffff1u);
  const auto data = c.send(TcpConversation::Side::Client, std::vector<std::uint8_t>(25, 9), 10);
  ASSERT_EQ(data.size(), 3u);
  EXPECT_EQ(decodeFrame(data[2], LinkType::Ethernet).find("tcp.seq")->number, 0x00000005u);
  EXPECT_EQ(decodeFrame(data[2], LinkType::Ethernet).find("tcp.flags.push")->number, 1u);
  EXPECT_EQ(decodeFrame(data[1], LinkType::Ethernet).find("tcp.flags.push")->number, 0u);
  EXPECT_EQ(c.nextSeq(TcpConversation::Side::Client), 0x0000000au);
  EXPECT_THROW(c.send(TcpConversation::Side::Client, std::vector<std::uint8_t>(1), 0),
               std::invalid_argument);
}

}  // namespace
}  // namespace rdmascope::packets
