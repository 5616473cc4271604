#include <gtest/gtest.h>

#include "rdmascope/packets/decode.h"

namespace rdmascope::packets {
namespace {

// Found by fuzz_frame_decode: an IPv4 header whose IHL (52 bytes) runs past a 32-byte frame
// gave the "ip" node a range beyond the frame.
TEST(DecodeBounds, NodeRangesStayInsideTheFrameForFuzzInput) {
  const std::uint8_t frame[] = {0x4d, 0x3c, 0xb2, 0xa1, 0x02, 0x00, 0x00, 0x0a, 0x00, 0xff, 0xff,
                                0x00, 0x00, 0x00, 0x11, 0x80, 0x00, 0x00, 0x4d, 0x3c, 0xb2, 0x65,
                                0x00, 0x00, 0x7f, 0x00, 0x12, 0x01, 0x00, 0x34, 0x00, 0x00};
  for (LinkType link : {LinkType::Ethernet, LinkType::Raw, LinkType::Ipv4, LinkType::Ipv6,
                        LinkType::InfiniBand, LinkType::Erf}) {
    const auto d = decodeFrame(frame, link);
    for (const auto& n : d.nodes)
      EXPECT_LE(n.offset + n.length, sizeof frame) << static_cast<int>(link) << " " << n.key;
    if (link == LinkType::Ipv4) {
      EXPECT_TRUE(d.hasErrors());
    }
  }
}

}  // namespace
}  // namespace rdmascope::packets
