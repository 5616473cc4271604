// packets::crc32 against a bitwise CRC-32 (zlib's polynomial and conventions), over every
// length and alignment its wide path and its tail handling meet.

#include "rdmascope/packets/crc.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace rdmascope::packets {
namespace {

std::uint32_t bitwiseCrc32(const std::uint8_t* p, std::size_t n, std::uint32_t previous) {
  std::uint32_t c = ~previous;
  for (std::size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k)
      c = (c & 1) ? (c >> 1) ^ 0xedb88320u : c >> 1;
  }
  return ~c;
}

TEST(Crc32, KnownValue) {
  const std::string s = "123456789";
  EXPECT_EQ(crc32({reinterpret_cast<const std::uint8_t*>(s.data()), s.size()}), 0xcbf43926u);
}

TEST(Crc32, MatchesTheBitwiseDefinitionAtEveryLengthAlignmentAndStart) {
  std::mt19937_64 rng(7);
  std::vector<std::uint8_t> buf(9000 + 64);
  for (auto& b : buf)
    b = static_cast<std::uint8_t>(rng());
  for (std::size_t n = 0; n <= 1100; ++n) {
    const std::size_t off = n % 61;
    const auto previous = static_cast<std::uint32_t>(n % 3 == 0 ? 0 : rng());
    ASSERT_EQ(crc32({buf.data() + off, n}, previous), bitwiseCrc32(buf.data() + off, n, previous))
        << "length " << n << " offset " << off;
  }
  for (int i = 0; i < 200; ++i) {
    const std::size_t n = 1100 + rng() % 7900, off = rng() % 64;
    const auto previous = static_cast<std::uint32_t>(rng());
    ASSERT_EQ(crc32({buf.data() + off, n}, previous), bitwiseCrc32(buf.data() + off, n, previous))
        << "length " << n << " offset " << off;
  }
}

TEST(Crc32, ContinuesAcrossPieces) {
  std::vector<std::uint8_t> buf(4096 + 40);
  for (std::size_t i = 0; i < buf.size(); ++i)
    buf[i] = static_cast<std::uint8_t>(i * 7 + 3);
  const std::uint32_t whole = crc32(buf);
  for (std::size_t cut : {1u, 40u, 255u, 256u, 1000u, 4096u}) {
    const std::uint32_t first = crc32({buf.data(), cut});
    EXPECT_EQ(crc32({buf.data() + cut, buf.size() - cut}, first), whole) << "cut at " << cut;
  }
}

}  // namespace
}  // namespace rdmascope::packets
