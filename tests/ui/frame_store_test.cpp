#include "rdmascope/ui/frame_store.h"

#include <gtest/gtest.h>

#include "rdmascope/ui/dissection_cache.h"
#include "test_frames.h"

namespace rdmascope::ui {
namespace {

TEST(FrameStore, HoldsFramesInOneBufferWithACompactIndex) {
  FrameStore store;
  const auto a = test::roceFrame(1);
  const auto b = test::tcpFrame(1, 2);
  EXPECT_EQ(store.append(a, 1'000'000'000), 0u);
  EXPECT_EQ(store.append(b, 1'500'000'000, 1500), 1u);
  ASSERT_EQ(store.size(), 2u);
  EXPECT_TRUE(std::equal(a.begin(), a.end(), store.bytes(0).begin(), store.bytes(0).end()));
  EXPECT_TRUE(std::equal(b.begin(), b.end(), store.bytes(1).begin(), store.bytes(1).end()));
  EXPECT_EQ(store.record(1).offset, a.size());
  EXPECT_EQ(store.record(0).originalLength, a.size());
  EXPECT_EQ(store.record(1).originalLength, 1500u);
  EXPECT_DOUBLE_EQ(store.timeRelative(1), 0.5);
  EXPECT_LE(sizeof(FrameRecord), 64u);
}

TEST(FrameStore, DecodeFillsFrameNumberAndWireLength) {
  FrameStore store;
  store.append(test::roceFrame(7), 0);
  store.append(test::roceFrame(8), 2'000'000, 200);
  const auto d = store.decode(1);
  const auto* number = d.find("frame.number");
  ASSERT_NE(number, nullptr);
  EXPECT_EQ(number->number, 2u);
  const auto* len = d.find("frame.len");
  ASSERT_NE(len, nullptr);
  EXPECT_EQ(len->number, 200u);
  EXPECT_EQ(d.summary.destination, "10.9.0.2");
}

TEST(DissectionCache, DecodesOnceAndEvictsTheLeastRecentlyUsed) {
  FrameStore store;
  for (std::uint32_t i = 0; i < 10; ++i)
    store.append(test::roceFrame(i), i);
  DissectionCache cache(&store, 4);
  auto first = cache.get(0);
  EXPECT_EQ(cache.get(0), first);
  EXPECT_EQ(cache.decodes(), 1u);
  for (std::size_t f = 1; f < 5; ++f)
    cache.get(f);
  EXPECT_EQ(cache.size(), 4u);
  EXPECT_EQ(cache.decodes(), 5u);
  cache.get(0);  // evicted by frames 1..4: decoded again
  EXPECT_EQ(cache.decodes(), 6u);
  cache.get(4);  // still cached
  EXPECT_EQ(cache.decodes(), 6u);
  // The old shared pointer stays valid after eviction.
  EXPECT_EQ(first->find("frame.number")->number, 1u);
}

}  // namespace
}  // namespace rdmascope::ui
