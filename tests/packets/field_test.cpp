#include "rdmascope/packets/field.h"

#include <gtest/gtest.h>

#include <array>

namespace rdmascope::packets {
namespace {

constexpr FieldDef kNibble{"t.nibble", "Nibble", 4, 4};
constexpr FieldDef kStraddle{"t.straddle", "Straddle", 12, 24, FieldType::UInt, Base::Hex, 24};
constexpr FieldDef kWide{"t.wide", "Wide", 8, 64, FieldType::UInt, Base::Hex, 64};

TEST(Field, ReadsBitsMostSignificantFirst) {
  const std::array<std::uint8_t, 10> b{0xab, 0xcd, 0xef, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde};
  EXPECT_EQ(readField(kNibble, b), 0xbu);
  EXPECT_EQ(readField(kStraddle, b), 0xdef123u);
  EXPECT_EQ(readField(kWide, b), 0xcdef123456789abcull);
}

TEST(Field, WritesWithoutTouchingNeighbours) {
  std::array<std::uint8_t, 10> b{};
  b.fill(0xff);
  writeField(kStraddle, b, 0);
  EXPECT_EQ(b[1], 0xf0);
  EXPECT_EQ(b[2], 0x00);
  EXPECT_EQ(b[3], 0x00);
  EXPECT_EQ(b[4], 0x0f);
  writeField(kStraddle, b, 0xabcdef);
  EXPECT_EQ(readField(kStraddle, b), 0xabcdefu);
  writeField(kWide, b, 0x0102030405060708ull);
  EXPECT_EQ(readField(kWide, b), 0x0102030405060708ull);
  EXPECT_EQ(b[0], 0xff);
}

TEST(Field, FormatsAsTsharkDoes) {
  EXPECT_EQ(formatFieldValue(kStraddle, 0x11), "0x000011");
  EXPECT_EQ(formatFieldValue(kNibble, 7), "7");
  constexpr FieldDef flag{"t.flag", "Flag", 0, 1, FieldType::Bool};
  EXPECT_EQ(formatFieldValue(flag, 1), "1");
}

}  // namespace
}  // namespace rdmascope::packets
