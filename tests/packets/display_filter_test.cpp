#include "rdmascope/packets/display_filter.h"

#include <gtest/gtest.h>

#include <vector>

#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/field_registry.h"

namespace rdmascope::packets {
namespace {

// Ethernet II / IPv4 10.0.0.1 -> 10.0.0.2 / UDP 1234 -> 5678 / deadbeef.
const std::vector<std::uint8_t> kUdpFrame = {
    0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00, 0x45, 0x00,
    0x00, 0x20, 0x00, 0x01, 0x40, 0x00, 0x40, 0x11, 0x26, 0xca, 0x0a, 0x00, 0x00, 0x01, 0x0a, 0x00,
    0x00, 0x02, 0x04, 0xd2, 0x16, 0x2e, 0x00, 0x0c, 0x00, 0x00, 0xde, 0xad, 0xbe, 0xef};

// Ethernet / IPv6 fd00::1 -> fd00::2 / TCP 443 -> 50000 with no payload.
std::vector<std::uint8_t> tcpV6Frame() {
  std::vector<std::uint8_t> f = {0x02, 0,    0,    0,    0, 1, 0x02, 0, 0,  0, 0,
                                 2,    0x86, 0xdd, 0x60, 0, 0, 0,    0, 20, 6, 64};
  for (int side = 1; side <= 2; ++side) {
    f.insert(f.end(), {0xfd, 0});
    f.insert(f.end(), 13, 0);
    f.push_back(static_cast<std::uint8_t>(side));
  }
  f.insert(f.end(),
           {0x01, 0xbb, 0xc3, 0x50, 0, 0, 0, 5, 0, 0, 0, 0, 0x50, 0x12, 0xff, 0xff, 0, 0, 0, 0});
  return f;
}

class DisplayFilterTest : public testing::Test {
 protected:
  Dissection udp = decodeFrame(kUdpFrame, LinkType::Ethernet, FrameInfo{3, 0.5, 0, 0});
  Dissection tcp = decodeFrame(tcpV6Frame(), LinkType::Ethernet, FrameInfo{4, 1.25, 0, 0});

  bool on(const Dissection& d, std::string_view text) {
    std::string error;
    auto f = DisplayFilter::compile(text, error);
    EXPECT_TRUE(f) << text << ": " << error;
    return f && f->matches(d);
  }
  std::string errorOf(std::string_view text) {
    std::string error;
    EXPECT_FALSE(DisplayFilter::compile(text, error)) << text;
    return error;
  }
};

TEST_F(DisplayFilterTest, PresenceOfFieldsAndProtocols) {
  EXPECT_TRUE(on(udp, "udp"));
  EXPECT_TRUE(on(udp, "ip.src"));
  EXPECT_FALSE(on(udp, "tcp"));
  EXPECT_TRUE(on(tcp, "ipv6 && tcp"));
  EXPECT_TRUE(on(udp, ""));  // the empty filter passes everything
}

TEST_F(DisplayFilterTest, EveryComparisonOperatorInBothSpellings) {
  const char* yes[] = {"udp.srcport == 1234", "udp.srcport eq 1234", "udp.srcport != 1235",
                       "udp.srcport ne 1235", "udp.srcport < 1235",  "udp.srcport lt 1235",
                       "udp.srcport > 1233",  "udp.srcport gt 1233", "udp.srcport <= 1234",
                       "udp.srcport le 1234", "udp.srcport >= 1234", "udp.srcport ge 1234",
                       "udp.srcport EQ 1234"};
  for (auto t : yes)
    EXPECT_TRUE(on(udp, t)) << t;
  const char* no[] = {"udp.srcport == 1235", "udp.srcport != 1234", "udp.srcport < 1234",
                      "udp.srcport > 1234",  "udp.srcport <= 1233", "udp.srcport >= 1235"};
  for (auto t : no)
    EXPECT_FALSE(on(udp, t)) << t;
}

TEST_F(DisplayFilterTest, LiteralsHexDecimalAddressesAndStrings) {
  EXPECT_TRUE(on(udp, "udp.srcport == 0x4d2"));
  EXPECT_TRUE(on(udp, "eth.type == 0x0800"));
  EXPECT_TRUE(on(udp, "eth.type == 2048"));
  EXPECT_TRUE(on(udp, "ip.proto == UDP"));  // a value name of the field
  EXPECT_TRUE(on(udp, "ip.src == 10.0.0.1"));
  EXPECT_TRUE(on(udp, "ip.src == 10.0.0.0/24"));
  EXPECT_FALSE(on(udp, "ip.src == 10.0.1.0/24"));
  EXPECT_TRUE(on(udp, "ip.dst > 10.0.0.1"));
  EXPECT_TRUE(on(udp, "eth.src == 02:00:00:00:00:01"));
  EXPECT_TRUE(on(udp, "eth.src == 02-00-00-00-00-01"));
  EXPECT_TRUE(on(udp, "eth.src == 0200.0000.0001"));
  EXPECT_TRUE(on(udp, "data.data == de:ad:be:ef"));
  EXPECT_TRUE(on(udp, "data.data == \"deadbeef\""));
  EXPECT_TRUE(on(udp, "ip.flags.df == 1 && ip.flags.mf == False"));
  EXPECT_TRUE(on(tcp, "ipv6.src == fd00::1"));
  EXPECT_TRUE(on(tcp, "ipv6.dst == fd00:0:0:0:0:0:0:2"));
  EXPECT_TRUE(on(tcp, "ipv6.dst > fd00::1"));
  EXPECT_TRUE(on(tcp, "tcp.seq == 5 && tcp.len == 0"));
  EXPECT_TRUE(on(tcp, "frame.number == 4 && frame.time_relative >= 1.25"));
  EXPECT_FALSE(on(tcp, "frame.time_relative > 1.25"));
}

TEST_F(DisplayFilterTest, MultipleOccurrencesAndAbsentFieldsFollowWireshark) {
  // ip.addr is ip.src or ip.dst: == holds when any does, != only when none does.
  EXPECT_TRUE(on(udp, "ip.addr == 10.0.0.2"));
  EXPECT_TRUE(on(udp, "ip.addr == 10.0.0.1"));
  EXPECT_FALSE(on(udp, "ip.addr != 10.0.0.1"));
  EXPECT_TRUE(on(udp, "ip.addr != 10.0.0.3"));
  EXPECT_TRUE(on(udp, "udp.port == 5678"));
  EXPECT_TRUE(on(tcp, "tcp.port == 443 and eth.addr == 02:00:00:00:00:02"));
  // A relation on an absent field is false, for != too.
  EXPECT_FALSE(on(udp, "tcp.srcport != 1"));
  EXPECT_FALSE(on(udp, "tcp.srcport == 1"));
  EXPECT_TRUE(on(udp, "!(tcp.srcport == 1)"));
}

TEST_F(DisplayFilterTest, LogicAndPrecedence) {
  EXPECT_TRUE(on(udp, "udp || tcp"));
  EXPECT_FALSE(on(udp, "udp && tcp"));
  EXPECT_TRUE(on(udp, "udp and not tcp"));
  EXPECT_TRUE(on(udp, "! tcp"));
  EXPECT_TRUE(on(udp, "!!udp"));
  // && binds tighter than ||: "tcp || udp && ip" is "tcp || (udp && ip)".
  EXPECT_TRUE(on(udp, "tcp || udp && ip"));
  EXPECT_FALSE(on(udp, "(tcp || udp) && ipv6"));
  EXPECT_TRUE(on(udp, "tcp || udp && !ipv6"));
  // ! binds tighter than &&: "!tcp && udp" is "(!tcp) && udp".
  EXPECT_TRUE(on(udp, "!tcp && udp"));
  EXPECT_FALSE(on(udp, "!(tcp || udp)"));
  EXPECT_TRUE(on(udp, "((udp.srcport == 1234))"));
  EXPECT_TRUE(on(udp, "udp.srcport==1234&&ip.ttl==64"));
}

TEST_F(DisplayFilterTest, ErrorsNameTheColumn) {
  EXPECT_EQ(errorOf("ip.src == "), "column 11: expected a value after '=='");
  EXPECT_EQ(errorOf("ip.src == && udp"), "column 11: expected a value after '=='");
  EXPECT_EQ(errorOf("ip.sorc == 1.2.3.4"), "column 1: unknown field 'ip.sorc'");
  EXPECT_EQ(errorOf("udp && foo"), "column 8: unknown field 'foo'");
  EXPECT_EQ(errorOf("ip.src == 1.2.3"),
            "column 11: '1.2.3' is not a valid value for ip.src (expected an IPv4 address)");
  EXPECT_EQ(errorOf("udp.srcport == abc"),
            "column 16: 'abc' is not a valid value for udp.srcport (expected an unsigned "
            "integer)");
  EXPECT_EQ(errorOf("eth.src == 02:00"),
            "column 12: '02:00' is not a valid value for eth.src (expected a MAC address)");
  EXPECT_EQ(errorOf("(udp"), "column 5: expected ')' before the end");
  EXPECT_EQ(errorOf("udp)"), "column 4: unmatched ')'");
  EXPECT_EQ(errorOf("udp tcp"), "column 5: unexpected 'tcp' (expected and, or or the end)");
  EXPECT_EQ(errorOf("udp &&"), "column 7: expected a field name at the end of the filter");
  EXPECT_EQ(errorOf("== 3"), "column 1: expected a field name but found '=='");
  EXPECT_EQ(errorOf("ip.src = 1.2.3.4"), "column 8: unexpected character '=' (use ==)");
  EXPECT_EQ(errorOf("udp & tcp"), "column 5: unexpected character '&' (use && or and)");
  EXPECT_EQ(errorOf("data.data == \"abc"), "column 14: unterminated string");
  EXPECT_EQ(errorOf("ip.flags.df == 2"),
            "column 16: '2' is not a valid value for ip.flags.df (expected a boolean (1, 0, "
            "True or False))");
}

std::string repeat(std::string_view piece, std::size_t n) {
  std::string s;
  s.reserve(piece.size() * n);
  for (std::size_t i = 0; i < n; ++i)
    s += piece;
  return s;
}

// The inputs that crashed the recursive parser: each is refused or matched with a clear answer
// and a bounded stack.
TEST_F(DisplayFilterTest, DeepNestingIsRefusedOrFoldedWithoutCrashing) {
  const std::string open15k = repeat("(", 15000) + "udp" + repeat(")", 15000);
  EXPECT_EQ(errorOf(open15k),
            "column 257: parentheses nested more than 256 levels deep (near "
            "\"...((((((((((((((((((((((((((((((((((((((((((((((((...\")");
  EXPECT_EQ(errorOf(repeat("(", 60000)),
            "column 257: parentheses nested more than 256 levels deep (near "
            "\"...((((((((((((((((((((((((((((((((((((((((((((((((...\")");
  // The deepest nesting allowed still works.
  EXPECT_TRUE(on(udp, repeat("(", 256) + "udp" + repeat(")", 256)));
  EXPECT_TRUE(on(udp, repeat("(!", 200) + "udp" + repeat(")", 200)));
  // A run of '!' folds to its parity.
  EXPECT_TRUE(on(udp, repeat("!", 100000) + "udp"));
  EXPECT_FALSE(on(udp, repeat("!", 100001) + "udp"));
  EXPECT_TRUE(on(udp, repeat("not ", 1001) + "tcp"));
  // Long chains of && and || are one term each: evaluation does not recurse along them.
  EXPECT_TRUE(on(udp, repeat("udp && ", 200000) + "udp.srcport == 1234"));
  EXPECT_FALSE(on(udp, repeat("udp && ", 20000) + "tcp"));
  EXPECT_TRUE(on(udp, repeat("tcp || ", 20000) + "udp"));
  EXPECT_TRUE(on(udp, "tcp || udp && !tcp || ip.ttl == 1"));
  EXPECT_FALSE(on(udp, "(tcp || udp) && (tcp || ip.ttl == 1)"));
}

TEST_F(DisplayFilterTest, NumbersInFloatNotationOrBeyond64BitsCompareByValue) {
  // frame.len is 46 here.
  EXPECT_TRUE(on(udp, "frame.len < 1e19"));
  EXPECT_FALSE(on(udp, "frame.len > 1e19"));
  EXPECT_TRUE(on(udp, "frame.len < 99999999999999999999"));
  EXPECT_TRUE(on(udp, "frame.len < 0x1ffffffffffffffffffff"));
  EXPECT_FALSE(on(udp, "frame.len == 99999999999999999999"));
  EXPECT_TRUE(on(udp, "frame.len == 4.6e1"));
  EXPECT_TRUE(on(udp, "frame.len > 45.5 && frame.len < 46.5"));
  EXPECT_FALSE(on(udp, "frame.len == 46.5"));
  EXPECT_TRUE(on(udp, "frame.len > -1"));
  EXPECT_TRUE(on(udp, "frame.len >= -1e300"));
  // Table fields the same way: udp.srcport is 1234.
  EXPECT_TRUE(on(udp, "udp.srcport < 1e19"));
  EXPECT_TRUE(on(udp, "udp.srcport == 1.234e3"));
  EXPECT_TRUE(on(udp, "udp.srcport != 99999999999999999999"));
  EXPECT_FALSE(on(udp, "udp.srcport >= 18446744073709551616"));
  // Exact around 2^64: 2^64-1 fits, 2^64 does not.
  EXPECT_TRUE(on(udp, "udp.srcport < 18446744073709551615"));
  // Decimal fractions still compare with text-valued numbers (frame.time_relative is 0.5).
  EXPECT_TRUE(on(udp, "frame.time_relative > 2.5e-1"));
  EXPECT_FALSE(on(udp, "frame.time_relative > 1e0"));
  EXPECT_EQ(errorOf("udp.srcport < 1e999"),
            "column 15: '1e999' is not a valid value for udp.srcport (expected a number within "
            "the range of a double)");
  EXPECT_EQ(errorOf("udp.srcport < 1e"),
            "column 15: '1e' is not a valid value for udp.srcport (expected an unsigned "
            "integer)");
}

TEST_F(DisplayFilterTest, LongFiltersAreQuotedByThePartAtFault) {
  const std::string prefix = repeat("udp.srcport == 1234 && ", 5000);
  const std::string error = errorOf(prefix + "ip.sorc == 1.2.3.4 && udp");
  EXPECT_EQ(error, "column " + std::to_string(prefix.size() + 1) +
                       ": unknown field 'ip.sorc' (near \"... udp.srcport == 1234 && ip.sorc == "
                       "1.2.3.4 && ud...\")");
  EXPECT_LT(error.size(), 160u);
  // A huge token is quoted by its start.
  const std::string word = "ip." + std::string(100000, 'x');
  const std::string e2 = errorOf(word);
  EXPECT_EQ(e2.rfind("column 1: unknown field 'ip.xxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' (100003 "
                     "characters) (near \"ip.xxxxxxxxxxxxxxxxxxxxx...\")",
                     0),
            0u)
      << e2;
  EXPECT_LT(e2.size(), 200u);
  const std::string e3 = errorOf("udp.srcport == " + std::string(5000, '9') + "x");
  EXPECT_LT(e3.size(), 250u) << e3;
  EXPECT_NE(e3.find("is not a valid value for udp.srcport"), std::string::npos) << e3;
  // Short filters keep the plain message.
  EXPECT_EQ(errorOf("ip.sorc == 1.2.3.4"), "column 1: unknown field 'ip.sorc'");
}

TEST(FieldRegistry, KnowsTablesSyntheticKeysAliasesAndRegistrations) {
  EXPECT_TRUE(isKnownFieldKey("eth.src"));
  EXPECT_TRUE(isKnownFieldKey("tcp.len"));
  EXPECT_TRUE(isKnownFieldKey("frame.time_relative"));
  EXPECT_TRUE(isKnownFieldKey("ip.addr"));
  EXPECT_FALSE(isKnownFieldKey("ip.sorc"));
  ASSERT_NE(findFieldDef("udp.srcport"), nullptr);
  EXPECT_EQ(findFieldDef("udp.srcport")->bitWidth, 16);
  EXPECT_EQ(findFieldDef("data.data"), nullptr);

  static constexpr FieldDef kFields[] = {{"test.proto.value", "Value", 0, 8}};
  static const HeaderDef kHeader{"test.proto", "Test", "T", 1, kFields};
  EXPECT_FALSE(isKnownFieldKey("test.proto.value"));
  registerHeader(kHeader);
  EXPECT_TRUE(isKnownFieldKey("test.proto"));
  EXPECT_EQ(findFieldDef("test.proto.value"), &kFields[0]);
  registerSyntheticKey("test.synthetic");
  EXPECT_TRUE(isKnownFieldKey("test.synthetic"));
  std::string error;
  EXPECT_TRUE(DisplayFilter::compile("test.proto.value == 3", error)) << error;
}

}  // namespace
}  // namespace rdmascope::packets
