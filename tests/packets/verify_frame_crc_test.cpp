#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <vector>

#include "rdmascope/packets/ib_crc.h"

namespace rdmascope::packets {
namespace {

using Bytes = std::vector<std::uint8_t>;

// The frames of a classic little-endian pcap file.
std::vector<Bytes> pcapFrames(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const Bytes file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<Bytes> out;
  std::size_t at = 24;
  while (at + 16 <= file.size()) {
    const std::size_t len = file[at + 8] | (file[at + 9] << 8) | (file[at + 10] << 16);
    out.emplace_back(file.begin() + static_cast<long>(at + 16),
                     file.begin() + static_cast<long>(at + 16 + len));
    at += 16 + len;
  }
  return out;
}

std::vector<Bytes> roceFrames() {
  return pcapFrames(std::string(RDMASCOPE_SOURCE_DIR) + "/tests/golden/rocev2-mixed.pcap");
}

// The ICRC rule written out plainly: a bitwise CRC-32 over a masked copy of the whole packet.
std::uint32_t referenceIcrc(const Bytes& frame) {
  Bytes p(8, 0xff);
  std::size_t ip = 14, end;
  const bool v1 = frame[12] == 0x89 && frame[13] == 0x15;
  const bool v6 = v1 || (frame[ip] >> 4) == 6;
  Bytes net(frame.begin() + static_cast<long>(ip), frame.end());
  std::size_t bth;
  if (v6) {
    net[0] |= 0x0f;
    net[1] = net[2] = net[3] = 0xff;
    net[7] = 0xff;
    end = 40 + ((net[4] << 8) | net[5]);
    bth = 40;
  } else {
    net[1] = net[8] = net[10] = net[11] = 0xff;
    end = (net[2] << 8) | net[3];
    bth = 20;
  }
  if (!v1) {
    net[bth + 6] = net[bth + 7] = 0xff;
    bth += 8;
  }
  net[bth + 4] = 0xff;
  p.insert(p.end(), net.begin(), net.begin() + static_cast<long>(end - 4));
  std::uint32_t crc = 0xffffffff;
  for (std::uint8_t b : p) {
    crc ^= b;
    for (int k = 0; k < 8; ++k)
      crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
  }
  return ~crc;
}

TEST(VerifyFrameCrc, AgreesWithThePlainRuleOnEveryGoldenFrame) {
  const auto frames = roceFrames();
  ASSERT_EQ(frames.size(), 9u);
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const auto& f = frames[i];
    IbCrcLocation loc;
    ASSERT_TRUE(locateIbPacket(f, LinkType::Ethernet, {}, loc)) << "frame " << i + 1;
    EXPECT_EQ(computeIcrc(f, loc.layout), referenceIcrc(f)) << "frame " << i + 1;
    EXPECT_EQ(verifyFrameCrc(f, LinkType::Ethernet), i == 7 ? CrcStatus::Bad : CrcStatus::Good)
        << "frame " << i + 1;
  }
}

TEST(VerifyFrameCrc, VariantFieldsAreMaskedInvariantOnesAreNot) {
  const auto frames = roceFrames();
  const Bytes& v4 = frames[0];  // RoCEv2 over IPv4, SEND ONLY
  const Bytes& v6 = frames[6];  // RoCEv2 over IPv6
  // IPv4 TOS, TTL, header checksum; UDP checksum; BTH byte 4.
  for (std::size_t at : {15u, 22u, 24u, 25u, 40u, 41u, 46u}) {
    Bytes f = v4;
    f[at] ^= 0x5a;
    EXPECT_EQ(verifyFrameCrc(f, LinkType::Ethernet), CrcStatus::Good) << at;
  }
  // IPv6 traffic class and flow label, hop limit.
  for (std::size_t at : {14u, 15u, 16u, 17u, 21u}) {
    Bytes f = v6;
    f[at] ^= (at == 14 ? 0x0a : 0x5a);
    EXPECT_EQ(verifyFrameCrc(f, LinkType::Ethernet), CrcStatus::Good) << at;
  }
  // Addresses, ports, opcode, P_Key, QP, PSN, payload and the ICRC itself.
  for (std::size_t at :
       std::initializer_list<std::size_t>{26, 33, 34, 35, 42, 44, 47, 50, 53, 60, v4.size() - 1}) {
    Bytes f = v4;
    f[at] ^= 0x01;
    EXPECT_EQ(verifyFrameCrc(f, LinkType::Ethernet), CrcStatus::Bad) << at;
  }
}

TEST(VerifyFrameCrc, NonRoceAndUndecidableFrames) {
  const auto frames = roceFrames();
  Bytes otherPort = frames[0];
  otherPort[37] = 0xb8;  // UDP destination 4792
  EXPECT_EQ(verifyFrameCrc(otherPort, LinkType::Ethernet), CrcStatus::Absent);
  DecodeOptions o;
  o.roceV2Port = 4792;
  // Seen as RoCEv2 on that port, but the ICRC covers the changed port.
  EXPECT_EQ(verifyFrameCrc(otherPort, LinkType::Ethernet, o), CrcStatus::Bad);
  Bytes tcp = frames[0];
  tcp[23] = 6;
  EXPECT_EQ(verifyFrameCrc(tcp, LinkType::Ethernet), CrcStatus::Absent);
  // An Ethernet frame read as native IB or ERF is not a packet with a good CRC.
  EXPECT_NE(verifyFrameCrc(frames[0], LinkType::InfiniBand), CrcStatus::Good);
  EXPECT_NE(verifyFrameCrc(frames[0], LinkType::Erf), CrcStatus::Good);
  const Bytes raw(frames[0].begin() + 14, frames[0].end());
  EXPECT_EQ(verifyFrameCrc(raw, LinkType::Raw), CrcStatus::Good);
  EXPECT_EQ(verifyFrameCrc(raw, LinkType::Ipv4), CrcStatus::Good);
}

TEST(VerifyFrameCrc, EveryTruncationIsSafeAndNeverGood) {
  for (const auto& f : roceFrames()) {
    for (std::size_t n = 0; n < f.size(); ++n) {
      const Bytes cut(f.begin(), f.begin() + static_cast<long>(n));
      const auto s = verifyFrameCrc(cut, LinkType::Ethernet);
      // Cutting only Ethernet padding (ACK frames are padded to 60 bytes) keeps it whole.
      if (s == CrcStatus::Good) {
        const std::size_t ipEnd = 14 + static_cast<std::size_t>((f[16] << 8) | f[17]);
        EXPECT_GE(n, ipEnd);
      }
    }
  }
}

TEST(VerifyFrameCrc, AgreesWithTheDecoderWhereItVerifies) {
  for (const auto& f : roceFrames()) {
    const auto d = decodeFrame(f, LinkType::Ethernet);
    ASSERT_NE(d.crc, CrcStatus::Absent);
    EXPECT_EQ(verifyFrameCrc(f, LinkType::Ethernet), d.crc);
  }
}

}  // namespace
}  // namespace rdmascope::packets

namespace rdmascope::packets {
namespace {

// Found by fuzz_frame_decode: an IPv4 RoCEv2 packet on an IPv6 link. The decoder reads it as
// (broken) IPv6, so the fast check must not verify it as IPv4.
TEST(VerifyFrameCrc, TheLinkTypeFixesTheIpVersion) {
  const auto frames = roceFrames();
  const Bytes v4(frames[0].begin() + 14, frames[0].end());
  EXPECT_EQ(verifyFrameCrc(v4, LinkType::Ipv4), CrcStatus::Good);
  EXPECT_EQ(verifyFrameCrc(v4, LinkType::Ipv6), CrcStatus::Absent);
  EXPECT_EQ(decodeFrame(v4, LinkType::Ipv6).crc, CrcStatus::Absent);
  const Bytes v6(frames[6].begin() + 14, frames[6].end());
  EXPECT_EQ(verifyFrameCrc(v6, LinkType::Ipv6), CrcStatus::Good);
  EXPECT_EQ(verifyFrameCrc(v6, LinkType::Ipv4), CrcStatus::Absent);
}

}  // namespace
}  // namespace rdmascope::packets
