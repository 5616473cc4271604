#include "rdmascope/analysis/psn.h"

#include <gtest/gtest.h>

namespace rdmascope::analysis {
namespace {

TEST(Psn, DiffAndAddWrapAt24Bits) {
  EXPECT_EQ(psnDiff(5, 3), 2);
  EXPECT_EQ(psnDiff(3, 5), -2);
  EXPECT_EQ(psnDiff(0, 0xffffff), 1);
  EXPECT_EQ(psnDiff(0xffffff, 0), -1);
  EXPECT_EQ(psnAdd(0xffffff, 2), 1u);
  EXPECT_EQ(psnAdd(0, -1), 0xffffffu);
}

TEST(PsnWindow, RemembersPsnsInsideTheWindowOnly) {
  PsnWindow w(128);
  EXPECT_TRUE(w.empty());
  EXPECT_FALSE(w.insert(10));
  EXPECT_TRUE(w.contains(10));
  EXPECT_FALSE(w.contains(11));
  EXPECT_FALSE(w.insert(12));
  EXPECT_FALSE(w.contains(11));  // skipped, not seen
  EXPECT_TRUE(w.insert(10));
  EXPECT_FALSE(w.insert(11));  // a late PSN is recorded
  EXPECT_TRUE(w.contains(11));
  // Move far ahead: the old PSNs fall out of the window and read as unseen.
  EXPECT_FALSE(w.insert(10 + 1000));
  EXPECT_FALSE(w.contains(10));
  EXPECT_FALSE(w.contains(12));
  EXPECT_EQ(w.capacity(), 128u);
}

TEST(PsnWindow, HandlesTheWrap) {
  PsnWindow w(64);
  for (std::uint32_t p = 0xfffff0; p != 0x10; p = psnAdd(p, 1))
    EXPECT_FALSE(w.insert(p));
  EXPECT_TRUE(w.contains(0xfffffe));
  EXPECT_TRUE(w.contains(0x5));
  EXPECT_FALSE(w.contains(0x10));
  EXPECT_EQ(w.highest(), 0xfu);
  EXPECT_TRUE(w.insert(0xffffff));
}

TEST(PsnWindow, ClearsSlotsReusedAfterAJump) {
  PsnWindow w(64);
  w.insert(0);
  w.insert(1);
  // 65 maps onto the slot of 1; the jump must clear it so 65 is not "seen".
  w.insert(64);
  EXPECT_FALSE(w.contains(65));
  EXPECT_FALSE(w.insert(65));
  EXPECT_TRUE(w.contains(65));
}

}  // namespace
}  // namespace rdmascope::analysis
