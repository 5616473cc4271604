// The fact pipeline (analysis/fact_pipeline.h) hands every frame of a source to its consumer in
// capture order with the facts FlowAnalyzer::readFacts gives it, in one thread or two. The
// source here keeps its frames in a small ring, as the CLI's capture reader does, and wipes a
// frame's bytes when its slot is reused: a frame used after the source let go of it would
// change what the consumer sees.
#include "rdmascope/analysis/fact_pipeline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../support/large_capture.h"

namespace rdmascope::analysis {
namespace {

using Frames = std::vector<std::vector<std::uint8_t>>;

// Frames copied into a ring of `slots` fixed slots; a slot is wiped (0xee) before it takes the
// next frame, and mayReadKeeping says no while the frames read since the mark fill the ring.
// With no slots, the frames are handed out where they are (a store in memory).
class RingSource final : public FrameSource {
 public:
  static constexpr std::size_t kSlotBytes = 1 << 16;
  RingSource(const Frames& frames, std::size_t slots, std::size_t throwAt = 0)
      : frames_(frames), slots_(slots), ring_(slots * kSlotBytes), throwAt_(throwAt) {}
  packets::LinkType linkType() const override { return packets::LinkType::Ethernet; }
  bool next(SourceFrame& frame) override {
    if (read_ >= frames_.size()) return false;
    if (throwAt_ != 0 && read_ + 1 == throwAt_) throw std::runtime_error("frame 'unreadable'");
    frame.number = read_ + 1;
    frame.time = static_cast<double>(read_ + 1) * 1e-6;
    if (slots_ == 0) {
      frame.data = frames_[read_++];
      return true;
    }
    std::uint8_t* slot = ring_.data() + (read_ % slots_) * kSlotBytes;
    std::memset(slot, 0xee, kSlotBytes);
    const auto& f = frames_[read_];
    std::memcpy(slot, f.data(), std::min(f.size(), kSlotBytes));
    ++read_;
    frame.data = {slot, std::min(f.size(), kSlotBytes)};
    return true;
  }
  std::uint64_t position() const override { return read_; }
  bool mayReadKeeping(std::uint64_t mark) const override {
    return slots_ == 0 || read_ - mark < slots_;
  }

 private:
  const Frames& frames_;
  std::size_t slots_;
  std::vector<std::uint8_t> ring_;
  std::size_t throwAt_;
  std::size_t read_ = 0;
};

// What the consumer saw of each frame: its number, time, bytes and facts.
struct Seen {
  std::uint64_t number = 0;
  double time = 0;
  std::vector<std::uint8_t> bytes;
  std::optional<PacketFacts> facts;
};

class Recorder final : public FactConsumer {
 public:
  explicit Recorder(std::uint64_t stopAfter = 0, std::uint64_t throwAt = 0)
      : stopAfter_(stopAfter), throwAt_(throwAt) {}
  void add(const SourceFrame& frame, const PacketFacts* facts) override {
    if (throwAt_ != 0 && frame.number == throwAt_) throw std::runtime_error("consumer failed");
    Seen s;
    s.number = frame.number;
    s.time = frame.time;
    s.bytes.assign(frame.data.begin(), frame.data.end());
    if (facts) s.facts = *facts;
    seen.push_back(std::move(s));
  }
  bool proceed(std::uint64_t added) override {
    EXPECT_EQ(added, seen.size());
    ++calls;
    return stopAfter_ == 0 || added < stopAfter_;
  }
  std::vector<Seen> seen;
  std::size_t calls = 0;

 private:
  std::uint64_t stopAfter_;
  std::uint64_t throwAt_;
};

Frames manyFrames() {
  const Frames roce = ::rdmascope::test::repositoryEthernetFrames();
  Frames out;
  for (std::size_t i = 0; out.size() < 20000 && !roce.empty(); ++i)
    out.push_back(roce[i % roce.size()]);
  return out;
}

void expectSame(const std::vector<Seen>& a, const std::vector<Seen>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].number, i + 1);
    ASSERT_EQ(a[i].number, b[i].number);
    ASSERT_EQ(a[i].time, b[i].time) << "frame " << a[i].number;
    ASSERT_TRUE(a[i].bytes == b[i].bytes) << "frame " << a[i].number;
    ASSERT_TRUE(a[i].facts == b[i].facts) << "frame " << a[i].number;
  }
}

// What one thread hands the consumer from the frames where they are, and two from a source
// keeping `slots` of them (0: all, where they are).
std::pair<std::vector<Seen>, std::vector<Seen>> oneThreadAndTwo(const Frames& frames,
                                                                std::size_t slots) {
  const FlowAnalyzer analyzer;
  Recorder one, two;
  RingSource whole(frames, 0), ring(frames, slots);
  EXPECT_TRUE(feedFacts(whole, one, analyzer.factOptions(), 1));
  EXPECT_TRUE(feedFacts(ring, two, analyzer.factOptions(), 2));
  return {std::move(one.seen), std::move(two.seen)};
}

TEST(FactPipeline, TwoThreadsHandTheConsumerWhatOneDoesInCaptureOrder) {
  const Frames frames = manyFrames();
  ASSERT_EQ(frames.size(), 20000u);
  const auto [oneSeen, twoSeen] = oneThreadAndTwo(frames, 0);
  expectSame(oneSeen, twoSeen);
  // Not vacuous: most frames of the repository's captures are RoCE or InfiniBand, with facts.
  std::size_t withFacts = 0;
  for (const auto& s : oneSeen)
    withFacts += s.facts.has_value();
  EXPECT_GT(withFacts, frames.size() / 2);
  EXPECT_LT(withFacts, frames.size());  // PFC, CM over UD MADs and others are not
  // Every frame's bytes as the source gave them.
  for (std::size_t i = 0; i < frames.size(); ++i)
    ASSERT_TRUE(twoSeen[i].bytes == frames[i]) << "frame " << i + 1;
}

// A source that keeps only 3000 frames (fewer than two batches of 2048): the reading thread
// ends its batches early and waits for the analysis to give them back; a frame used after its
// slot took another would show the wipe or the other frame.
TEST(FactPipeline, ASourceThatKeepsFewFramesIsNeverReadPastWhatItKeeps) {
  const auto [oneSeen, twoSeen] = oneThreadAndTwo(manyFrames(), 3000);
  expectSame(oneSeen, twoSeen);
}

TEST(FactPipeline, AConsumerThatSaysStopEndsThePassEarly) {
  const Frames frames = manyFrames();
  const FlowAnalyzer analyzer;
  for (const unsigned threads : {1u, 2u}) {
    Recorder r(5000);
    RingSource s(frames, 0);
    EXPECT_FALSE(feedFacts(s, r, analyzer.factOptions(), threads)) << threads;
    EXPECT_GE(r.seen.size(), 5000u) << threads;
    EXPECT_LT(r.seen.size(), 5000u + 2048u) << threads;  // within one batch of it
  }
}

TEST(FactPipeline, WhatTheSourceOrTheConsumerThrowsReachesTheCaller) {
  const Frames frames = manyFrames();
  const FlowAnalyzer analyzer;
  for (const unsigned threads : {1u, 2u}) {
    {
      Recorder r;
      RingSource s(frames, 0, 7777);
      EXPECT_THROW(feedFacts(s, r, analyzer.factOptions(), threads), std::runtime_error) << threads;
      EXPECT_LT(r.seen.size(), 7777u) << threads;
    }
    {
      Recorder r(0, 12345);
      RingSource s(frames, 0);
      EXPECT_THROW(feedFacts(s, r, analyzer.factOptions(), threads), std::runtime_error) << threads;
      EXPECT_EQ(r.seen.size(), 12344u) << threads;
    }
  }
}

// analyzeFrames gives the report a loop of FlowAnalyzer::addFrame gives.
TEST(FactPipeline, AnalyzeFramesReportsAsAddFrameDoes) {
  const Frames frames = manyFrames();
  FlowAnalyzer byFrame, piped;
  for (std::size_t i = 0; i < frames.size(); ++i)
    byFrame.addFrame(frames[i], packets::LinkType::Ethernet, i + 1,
                     static_cast<double>(i + 1) * 1e-6);
  RingSource s(frames, 2500);
  analyzeFrames(s, piped, 2);
  byFrame.finish();
  piped.finish();
  EXPECT_EQ(toJson(byFrame.report()), toJson(piped.report()));
  EXPECT_GT(byFrame.report().connections.size(), 0u);
}

}  // namespace
}  // namespace rdmascope::analysis
