// 802.3x PAUSE and 802.1Qbb PFC frames: built, parsed back, dissected into the macc.* keys
// tshark uses, filtered on, and short or odd frames reported rather than misread.
#include "rdmascope/packets/mac_control.h"

#include <gtest/gtest.h>

#include <string>

#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/display_filter.h"

namespace rdmascope::packets {
namespace {

constexpr std::array<std::uint8_t, 6> kSwitchPort = {0x02, 0x5e, 0, 0, 0x01, 0x03};

PfcPause xoffThreeXonFive() {
  PfcPause p;
  p.enableVector = (1u << 3) | (1u << 5);
  p.quanta[3] = 0xffff;
  p.quanta[4] = 77;  // not enabled: ignored by a receiver, still on the wire
  return p;
}

TEST(MacControl, PfcFrameHasTheStandardLayout) {
  const auto f = buildPfcFrame(kSwitchPort, xoffThreeXonFive());
  ASSERT_EQ(f.size(), kMacControlFrameLength);
  EXPECT_EQ(std::vector<std::uint8_t>(f.begin(), f.begin() + 6),
            std::vector<std::uint8_t>({0x01, 0x80, 0xc2, 0x00, 0x00, 0x01}));
  EXPECT_EQ(f[12], 0x88);
  EXPECT_EQ(f[13], 0x08);
  EXPECT_EQ(f[14], 0x01);
  EXPECT_EQ(f[15], 0x01);
  EXPECT_EQ(f[16], 0x00);
  EXPECT_EQ(f[17], 0x28);  // classes 3 and 5
  EXPECT_EQ(f[18 + 6], 0xff);
  EXPECT_EQ(f[18 + 7], 0xff);
  EXPECT_EQ(f[18 + 9], 77);
  for (std::size_t i = 34; i < f.size(); ++i)
    EXPECT_EQ(f[i], 0) << i;
}

TEST(MacControl, ParseReadsBackWhatWasBuilt) {
  const auto m = parseMacControl(buildPfcFrame(kSwitchPort, xoffThreeXonFive()));
  ASSERT_TRUE(m);
  EXPECT_EQ(m->opcode, kMacControlPfc);
  EXPECT_EQ(m->source, kSwitchPort);
  ASSERT_TRUE(m->pfc);
  EXPECT_TRUE(m->pfc->enabled(3));
  EXPECT_TRUE(m->pfc->enabled(5));
  EXPECT_FALSE(m->pfc->enabled(4));
  EXPECT_EQ(m->pfc->quanta[3], 0xffff);
  EXPECT_EQ(m->pfc->quanta[5], 0);
  EXPECT_EQ(m->pfc->quanta[4], 77);

  const auto pause = parseMacControl(buildPauseFrame(kSwitchPort, 256));
  ASSERT_TRUE(pause);
  EXPECT_EQ(pause->opcode, kMacControlPause);
  ASSERT_TRUE(pause->pauseTime);
  EXPECT_EQ(*pause->pauseTime, 256);
  EXPECT_FALSE(pause->pfc);
}

TEST(MacControl, ParseRefusesOtherAndShortFrames) {
  auto f = buildPfcFrame(kSwitchPort, xoffThreeXonFive());
  EXPECT_FALSE(parseMacControl(std::span(f).first(33)));
  EXPECT_TRUE(parseMacControl(std::span(f).first(34)));
  EXPECT_FALSE(parseMacControl(std::span(f).first(15)));
  f[13] = 0x00;  // EtherType 0x8800
  EXPECT_FALSE(parseMacControl(f));
}

TEST(MacControl, QuantaAreFiveHundredTwelveBitTimes) {
  EXPECT_DOUBLE_EQ(pauseQuantaSeconds(0xffff, 100e9), 0xffff * 512 / 100e9);  // 335.5 us
  EXPECT_DOUBLE_EQ(pauseQuantaSeconds(1, 25e9), 20.48e-9);
  EXPECT_DOUBLE_EQ(pauseQuantaSeconds(100, 0), 0.0);
}

TEST(MacControl, DissectorShowsEveryClassAndSummarisesTheEnabledOnes) {
  const auto d = decodeFrame(buildPfcFrame(kSwitchPort, xoffThreeXonFive()), LinkType::Ethernet);
  EXPECT_EQ(d.summary.protocol, "MAC CTRL");
  EXPECT_EQ(d.summary.info, "Class Based Flow Control [CBFC] Pause: C3 XOFF 65535 quanta, C5 XON");
  ASSERT_NE(d.find("macc.opcode"), nullptr);
  EXPECT_EQ(d.find("macc.opcode")->value, "0x0101");
  EXPECT_EQ(d.find("macc.cbfc.enbv")->value, "0x0028");
  EXPECT_EQ(d.find("macc.cbfc.enbv.c3")->value, "1");
  EXPECT_EQ(d.find("macc.cbfc.enbv.c4")->value, "0");
  EXPECT_EQ(d.find("macc.cbfc.enbv.c5")->value, "1");
  EXPECT_EQ(d.find("macc.cbfc.pause_time.c3")->value, "65535");
  EXPECT_EQ(d.find("macc.cbfc.pause_time.c4")->value, "77");
  EXPECT_EQ(d.find("macc.cbfc.pause_time.c7")->value, "0");
  EXPECT_EQ(d.find("eth.type")->value, "0x8808");
  for (const auto& diag : d.diagnostics)
    ADD_FAILURE() << diag.message;

  const auto p = decodeFrame(buildPauseFrame(kSwitchPort, 256), LinkType::Ethernet);
  EXPECT_EQ(p.summary.info, "Pause: pause_time: 256 quanta");
  EXPECT_EQ(p.find("macc.pause_time")->value, "256");
  EXPECT_EQ(p.find("macc.cbfc.enbv"), nullptr);
}

TEST(MacControl, FiltersSelectPausedPriorities) {
  const auto d = decodeFrame(buildPfcFrame(kSwitchPort, xoffThreeXonFive()), LinkType::Ethernet);
  const auto matches = [&](const char* text) {
    std::string error;
    const auto f = DisplayFilter::compile(text, error);
    EXPECT_TRUE(f) << text << ": " << error;
    return f && f->matches(d);
  };
  EXPECT_TRUE(matches("macc.opcode == 0x0101"));
  EXPECT_TRUE(matches("macc.cbfc.enbv.c3 && macc.cbfc.pause_time.c3 > 0"));
  EXPECT_TRUE(matches("macc.cbfc.enbv.c5 == 1 && macc.cbfc.pause_time.c5 == 0"));
  EXPECT_FALSE(matches("macc.cbfc.enbv.c4 == 1"));
  EXPECT_FALSE(matches("macc.pause_time"));
}

TEST(MacControl, ShortReservedAndUnknownFramesAreReported) {
  auto f = buildPfcFrame(kSwitchPort, xoffThreeXonFive());
  const auto cut = decodeFrame(std::span(f).first(25), LinkType::Ethernet);
  ASSERT_FALSE(cut.diagnostics.empty());
  EXPECT_NE(cut.diagnostics.front().message.find("PFC class vector"), std::string::npos)
      << cut.diagnostics.front().message;

  f[16] = 0x01;  // a reserved bit of the enable vector
  const auto reserved = decodeFrame(f, LinkType::Ethernet);
  ASSERT_EQ(reserved.diagnostics.size(), 1u);
  EXPECT_NE(reserved.diagnostics.front().message.find("reserved bits"), std::string::npos);

  f[15] = 0x02;  // opcode 0x0102: not one this decoder knows
  const auto unknown = decodeFrame(f, LinkType::Ethernet);
  EXPECT_EQ(unknown.summary.protocol, "MAC CTRL");
  EXPECT_EQ(unknown.summary.info, "MAC Control opcode 0x0102");
  EXPECT_NE(unknown.find("data"), nullptr);
}

}  // namespace
}  // namespace rdmascope::packets
