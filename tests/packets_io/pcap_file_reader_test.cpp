// The classic pcap reader's ring buffer: frames read in order and intact, and views that stay
// valid for as long as mayReadKeeping() says, on files larger than the ring with records of
// every size (empty ones, the largest the ring takes, and larger ones read on their own).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <deque>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "rdmascope/packets_io/capture_reader.h"

namespace rdmascope::packets_io {
namespace {

// The largest record (its 16-byte header included) the reader keeps in its ring.
constexpr std::uint32_t kRingRecord = 256u << 10;

std::string tempPath(const std::string& name) {
  return "/tmp/rdmascope_ring_" + std::to_string(::getpid()) + "_" + name;
}

void put32(std::string& out, std::uint32_t v) {
  out.append(reinterpret_cast<const char*>(&v), 4);
}

// Frame i's byte k: a pattern no other frame shares at the same offset.
std::uint8_t patternByte(std::size_t frame, std::size_t k) {
  return static_cast<std::uint8_t>(frame * 131 + k * 7 + (k >> 8));
}

// A classic pcap (host byte order, microseconds, Ethernet) of frames with these lengths.
std::size_t writeCapture(const std::string& path, const std::vector<std::uint32_t>& lengths) {
  std::ofstream out(path, std::ios::binary);
  std::string head;
  put32(head, 0xa1b2c3d4);
  put32(head, 0x00040002);
  put32(head, 0);
  put32(head, 0);
  put32(head, 0x40000);
  put32(head, 1);
  out << head;
  std::size_t size = head.size();
  std::string rec;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    rec.clear();
    put32(rec, static_cast<std::uint32_t>(i));
    put32(rec, 7);
    put32(rec, lengths[i]);
    put32(rec, lengths[i]);
    for (std::size_t k = 0; k < lengths[i]; ++k)
      rec.push_back(static_cast<char>(patternByte(i, k)));
    out << rec;
    size += rec.size();
  }
  return size;
}

bool intact(std::span<const std::uint8_t> data, std::size_t frame, std::uint32_t length) {
  if (data.size() != length) return false;
  for (std::size_t k = 0; k < length; ++k)
    if (data[k] != patternByte(frame, k)) return false;
  return true;
}

struct Held {
  std::uint64_t mark;
  std::size_t frame;
  std::span<const std::uint8_t> data;
};

// Reads every frame, holding each view while the reader allows reading on with it kept, and
// checks every held view after every read.
void readHoldingViews(const std::string& path, const std::vector<std::uint32_t>& lengths) {
  std::string error;
  auto r = CaptureReader::open(path, error);
  ASSERT_TRUE(r) << error;
  ASSERT_TRUE(r->keepsViews());
  std::deque<Held> held;
  FrameView v;
  std::size_t n = 0;
  std::size_t checks = 0;
  while (true) {
    // Drop the oldest views until the reader may read on keeping the rest.
    while (!held.empty() && !r->mayReadKeeping(held.front().mark))
      held.pop_front();
    const std::uint64_t mark = r->position();
    if (!r->next(v)) break;
    ASSERT_LT(n, lengths.size());
    ASSERT_EQ(v.timestampNs, static_cast<std::int64_t>(n) * 1'000'000'000 + 7000) << n;
    held.push_back({mark, n, v.data});
    // Every held view, each time for small files, and a sample of them for large ones.
    for (std::size_t i = held.size() > 64 ? n % 61 : 0; i < held.size();
         i += 1 + held.size() / 64) {
      ASSERT_TRUE(intact(held[i].data, held[i].frame, lengths[held[i].frame]))
          << "frame " << held[i].frame << " overwritten after frame " << n;
      ++checks;
    }
    // The newest and the oldest view, always.
    ASSERT_TRUE(intact(held.front().data, held.front().frame, lengths[held.front().frame]))
        << "frame " << held.front().frame << " overwritten after frame " << n;
    ++n;
  }
  EXPECT_EQ(r->error(), "");
  EXPECT_EQ(n, lengths.size());
  EXPECT_GT(checks, n);
}

// About 20 MiB of frames (the ring holds 4 MiB): mostly small, with runs of the largest frames the
// ring takes, empty ones, and (when `large`) ones too large for the ring, read on their own.
std::vector<std::uint32_t> mixedLengths(bool large) {
  std::mt19937 engine(large ? 12 : 13);
  auto random = [&engine] { return static_cast<std::uint32_t>(engine()); };
  std::vector<std::uint32_t> lengths;
  std::size_t total = 0;
  while (total < (std::size_t{20} << 20)) {
    const unsigned kind = random() % 100;
    std::uint32_t len = 0;
    if (kind < 70)
      len = 60 + random() % 1500;
    else if (kind < 80)
      len = 9000 + random() % 60000;
    else if (kind < 85)
      len = kRingRecord - 16 - random() % 3;  // the largest records the ring holds
    else if (kind < 88)
      len = large ? kRingRecord - 15 : 100;  // the smallest it does not
    else if (kind < 91)
      len = large ? kRingRecord + random() % (3u << 20) : 100000;
    else if (kind < 95)
      len = 0;
    else
      len = 20000 + random() % 200000;
    lengths.push_back(len);
    total += 16 + len;
  }
  return lengths;
}

TEST(PcapFileReader, ViewsLastAsLongAsTheReaderSaysOnAFileLargerThanTheRing) {
  for (const bool large : {false, true}) {
    SCOPED_TRACE(large ? "with records too large for the ring" : "every record in the ring");
    const auto lengths = mixedLengths(large);
    const std::string path = tempPath("big.pcap");
    writeCapture(path, lengths);
    readHoldingViews(path, lengths);
    std::remove(path.c_str());
  }
}

TEST(PcapFileReader, AFileThatFitsKeepsEveryView) {
  std::vector<std::uint32_t> lengths;
  for (std::uint32_t i = 0; i < 3000; ++i)
    lengths.push_back(i % 7 == 0 ? 0 : 60 + i % 2000);
  const std::string path = tempPath("small.pcap");
  writeCapture(path, lengths);
  std::string error;
  auto r = CaptureReader::open(path, error);
  ASSERT_TRUE(r) << error;
  EXPECT_TRUE(r->mayReadKeeping(0));
  std::vector<std::span<const std::uint8_t>> views;
  for (FrameView v; r->next(v);) {
    EXPECT_TRUE(r->mayReadKeeping(0));
    views.push_back(v.data);
  }
  ASSERT_EQ(views.size(), lengths.size());
  for (std::size_t i = 0; i < views.size(); ++i)
    ASSERT_TRUE(intact(views[i], i, lengths[i])) << i;
  std::remove(path.c_str());
}

TEST(PcapFileReader, AFileThatShrinksWhileReadIsReportedAtTheFrame) {
  std::vector<std::uint32_t> lengths(30000, 1000);  // 30 MB: read chunk by chunk
  const std::string path = tempPath("shrinks.pcap");
  writeCapture(path, lengths);
  std::string error;
  auto r = CaptureReader::open(path, error);
  ASSERT_TRUE(r) << error;
  FrameView v;
  ASSERT_TRUE(r->next(v));
  ASSERT_EQ(::truncate(path.c_str(), 24 + 1016 * 20000 + 500), 0);
  std::size_t n = 1;
  while (r->next(v))
    ASSERT_TRUE(intact(v.data, n++, 1000));
  EXPECT_EQ(n, 20000u);
  EXPECT_EQ(r->error(), path +
                            ": truncated record at frame 20001 (the file shrank while being read: "
                            "record needs 1016 bytes)");
  std::remove(path.c_str());
}

TEST(PcapFileReader, AFileThatGrowsWhileReadIsReadToItsSizeAtOpen) {
  std::vector<std::uint32_t> lengths(100, 100);
  const std::string path = tempPath("grows.pcap");
  writeCapture(path, lengths);
  std::string error;
  auto r = CaptureReader::open(path, error);
  ASSERT_TRUE(r) << error;
  std::ofstream(path, std::ios::binary | std::ios::app) << std::string(5000, 'x');
  std::size_t n = 0;
  for (FrameView v; r->next(v);)
    ASSERT_TRUE(intact(v.data, n++, 100));
  EXPECT_EQ(n, 100u);
  EXPECT_EQ(r->error(), "");
  std::remove(path.c_str());
}

}  // namespace
}  // namespace rdmascope::packets_io
