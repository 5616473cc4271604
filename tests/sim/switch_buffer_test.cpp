// The switch buffer's admission, XOFF and XON per ingress port and priority.
#include "rdmascope/sim/switch_buffer.h"

#include <gtest/gtest.h>

namespace rdmascope::sim {
namespace {

SwitchBufferConfig staticConfig() {
  SwitchBufferConfig c;
  c.bufferBytes = 1 << 20;
  c.reserve = 1000;
  c.pfc.dynamic = false;
  c.pfc.xoff = 5000;
  c.pfc.xonOffset = 2000;
  return c;
}

TEST(SwitchBuffer, ReserveThenSharedThenHeadroomThenDrop) {
  SwitchBuffer b(staticConfig(), {3000, 3000});
  EXPECT_EQ(b.admit(0, 3, 1000), Admission::Reserve);
  EXPECT_FALSE(b.shouldPause(0, 3));
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(b.admit(0, 3, 1000), Admission::Shared);
  EXPECT_FALSE(b.shouldPause(0, 3));
  EXPECT_EQ(b.admit(0, 3, 1000), Admission::Shared);  // shared use 5000: at XOFF
  EXPECT_TRUE(b.shouldPause(0, 3));
  b.setPaused(0, 3, true);
  EXPECT_FALSE(b.shouldPause(0, 3));
  EXPECT_EQ(b.admit(0, 3, 1000), Admission::Headroom);
  EXPECT_EQ(b.admit(0, 3, 1000), Admission::Headroom);
  EXPECT_EQ(b.admit(0, 3, 1000), Admission::Headroom);
  EXPECT_EQ(b.admit(0, 3, 1000), Admission::Dropped);  // headroom 3000 full
  EXPECT_EQ(b.headroomBytes(0, 3), 3000u);
  // another ingress is unaffected
  EXPECT_EQ(b.admit(1, 3, 1000), Admission::Reserve);
}

TEST(SwitchBuffer, XonWhenHeadroomEmptyAndSharedUseBelowXoffMinusOffset) {
  SwitchBuffer b(staticConfig(), {3000});
  for (int i = 0; i < 6; ++i)
    b.admit(0, 3, 1000);
  b.setPaused(0, 3, true);
  b.admit(0, 3, 1000);  // headroom
  EXPECT_FALSE(b.shouldResume(0, 3));
  b.release(0, 3, 1000);  // the headroom empties first
  EXPECT_EQ(b.headroomBytes(0, 3), 0u);
  EXPECT_FALSE(b.shouldResume(0, 3));  // shared 5000 + 2000 > 5000
  b.release(0, 3, 1000);
  EXPECT_FALSE(b.shouldResume(0, 3));  // 4000 + 2000 > 5000
  b.release(0, 3, 1000);
  EXPECT_TRUE(b.shouldResume(0, 3));  // 3000 + 2000 <= 5000
}

TEST(SwitchBuffer, LossyPriorityDropsInsteadOfPausing) {
  SwitchBuffer b(staticConfig(), {3000});
  for (int i = 0; i < 6; ++i)
    EXPECT_NE(b.admit(0, 0, 1000), Admission::Dropped);
  EXPECT_FALSE(b.shouldPause(0, 0));
  EXPECT_EQ(b.admit(0, 0, 1000), Admission::Dropped);
}

TEST(SwitchBuffer, DynamicThresholdIsAlphaTimesFreeSharedBuffer) {
  SwitchBufferConfig c;
  c.bufferBytes = 100000;
  c.reserve = 0;
  c.pfc.dynamic = true;
  c.pfc.alpha = 0.5;
  SwitchBuffer b(c, {10000, 10000});  // pool: 100000 - 2 x 10000 headroom = 80000
  EXPECT_EQ(b.xoffThreshold(), 40000u);
  for (int i = 0; i < 20; ++i)
    b.admit(0, 3, 1000);
  EXPECT_EQ(b.xoffThreshold(), 30000u);  // (80000 - 20000) / 2
  EXPECT_FALSE(b.shouldPause(0, 3));
  for (int i = 0; i < 7; ++i)
    b.admit(0, 3, 1000);
  // 27000 used: threshold (80000 - 27000) / 2 = 26500
  EXPECT_TRUE(b.shouldPause(0, 3));
}

}  // namespace
}  // namespace rdmascope::sim
