#include "rdmascope/analysis/psn.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

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

// The window clears the slots a jump skips a word at a time: the same answers as remembering
// every PSN in a set, over random walks with small steps, jumps across word and ring
// boundaries, jumps past the window, repeats and the 24-bit wrap.
TEST(PsnWindow, AgreesWithASetOfEveryPsnSeen) {
  for (const std::uint32_t bits : {64u, 128u, 16384u}) {
    PsnWindow w(bits);
    std::set<std::uint32_t> seen;
    std::uint32_t highest = 0xfffff0;
    std::mt19937 rng(bits);
    for (int i = 0; i < 20000; ++i) {
      std::uint32_t psn = highest;
      switch (rng() % 5) {
        case 0:
          psn = psnAdd(highest, 1);
          break;
        case 1:
          psn = psnAdd(highest, static_cast<std::int64_t>(rng() % (2 * bits)));
          break;
        case 2:
          psn = psnAdd(highest, -static_cast<std::int64_t>(rng() % bits));
          break;
        case 3:
          psn = psnAdd(highest, static_cast<std::int64_t>(rng() % 200));
          break;
        default:
          psn = psnAdd(highest, static_cast<std::int64_t>(rng() % 70) - 5);
          break;
      }
      const bool inside = i > 0 && psnDiff(psn, highest) <= 0 &&
                          static_cast<std::uint32_t>(-psnDiff(psn, highest)) < w.capacity();
      const bool expected = inside && seen.contains(psn);
      ASSERT_EQ(w.insert(psn), expected) << bits << " step " << i << " psn " << psn;
      if (i == 0 || psnDiff(psn, highest) > 0) {
        // Everything the window can no longer hold is forgotten.
        const std::uint32_t newest = psn;
        std::erase_if(seen, [&](std::uint32_t p) {
          const std::int32_t behind = psnDiff(newest, p);
          return behind < 0 || static_cast<std::uint32_t>(behind) >= w.capacity();
        });
        highest = psn;
      }
      seen.insert(psn);
      for (int k = 0; k < 4; ++k) {
        const std::uint32_t probe = psnAdd(highest, -static_cast<std::int64_t>(rng() % (bits + 8)));
        const std::int32_t behind = psnDiff(highest, probe);
        const bool held = behind >= 0 && static_cast<std::uint32_t>(behind) < w.capacity();
        ASSERT_EQ(w.contains(probe), held && seen.contains(probe)) << bits << " probe " << probe;
      }
    }
  }
}

}  // namespace
}  // namespace rdmascope::analysis
