#include <gtest/gtest.h>

#include <vector>

#include "rdmascope/packets/decode.h"

namespace rdmascope::packets {
namespace {

// Ethernet II / IPv4 / UDP 1234 -> 5678 with 4 payload bytes, checksum computed by hand.
const std::vector<std::uint8_t> kUdpFrame = {
    0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00,  // eth
    0x45, 0x00, 0x00, 0x20, 0x00, 0x01, 0x40, 0x00, 0x40, 0x11, 0x26, 0xca,              // ip
    0x0a, 0x00, 0x00, 0x01, 0x0a, 0x00, 0x00, 0x02,                                      //
    0x04, 0xd2, 0x16, 0x2e, 0x00, 0x0c, 0x00, 0x00,                                      // udp
    0xde, 0xad, 0xbe, 0xef};

TEST(NetDissector, DecodesEthernetIpv4Udp) {
  const auto d = decodeFrame(kUdpFrame, LinkType::Ethernet);
  ASSERT_NE(d.find("ip.src"), nullptr);
  EXPECT_EQ(d.find("eth.src")->value, "02:00:00:00:00:01");
  EXPECT_EQ(d.find("eth.type")->value, "0x0800");
  EXPECT_EQ(d.find("ip.src")->value, "10.0.0.1");
  EXPECT_EQ(d.find("ip.dst")->value, "10.0.0.2");
  EXPECT_EQ(d.find("ip.hdr_len")->value, "20");
  EXPECT_EQ(d.find("ip.flags.df")->value, "1");
  EXPECT_EQ(d.find("udp.srcport")->value, "1234");
  EXPECT_EQ(d.find("udp.dstport")->value, "5678");
  EXPECT_EQ(d.find("data.data")->value, "deadbeef");
  EXPECT_TRUE(d.diagnostics.empty()) << d.diagnostics.front().message;
  EXPECT_EQ(d.summary.source, "10.0.0.1");
}

TEST(NetDissector, ReportsBadIpChecksumAndTruncation) {
  auto bad = kUdpFrame;
  bad[25] ^= 1;
  auto d = decodeFrame(bad, LinkType::Ethernet);
  ASSERT_FALSE(d.diagnostics.empty());
  EXPECT_NE(d.diagnostics[0].message.find("checksum"), std::string::npos);
  for (std::size_t n = 0; n < kUdpFrame.size(); ++n) {
    std::vector<std::uint8_t> cut(kUdpFrame.begin(), kUdpFrame.begin() + n);
    d = decodeFrame(cut, LinkType::Ethernet);
    EXPECT_TRUE(d.hasErrors()) << "length " << n;
  }
}

}  // namespace
}  // namespace rdmascope::packets
