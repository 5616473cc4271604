// The fabric's shared-memory data path: frames go in order, wrap around the ring, a full ring
// refuses, another process sees what one pushed, and a corrupt mapping never makes a reader
// leave it.
#include "rdmascope/simdev/frame_rings.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <random>
#include <vector>

namespace rdmascope::simdev {
namespace {

std::vector<std::uint8_t> frameOf(std::size_t size, std::uint8_t seed) {
  std::vector<std::uint8_t> f(size);
  for (std::size_t i = 0; i < size; ++i)
    f[i] = static_cast<std::uint8_t>(seed + i * 7);
  return f;
}

struct Got {
  int from;
  std::vector<std::uint8_t> bytes;
  std::int64_t ns;
  bool lost;
};

std::vector<Got> drainAll(FrameRings& r, int to, std::int64_t notAfter = INT64_MAX) {
  std::vector<Got> got;
  r.drain(
      to,
      [&](const FrameRings::Frame& f) {
        got.push_back({f.from, {f.bytes.begin(), f.bytes.end()}, f.unixNs, f.lost});
      },
      notAfter);
  return got;
}

TEST(FrameRings, FramesArriveInOrderWithTheirSenderAndTime) {
  std::string error;
  auto r = FrameRings::create(3, 0.25, 7, error);
  ASSERT_TRUE(r) << error;
  EXPECT_EQ(r->hosts(), 3);
  EXPECT_DOUBLE_EQ(r->lossRate(), 0.25);
  EXPECT_EQ(r->seed(), 7u);
  EXPECT_FALSE(r->pending(2));
  ASSERT_TRUE(r->push(1, 2, frameOf(60, 1), 100));
  ASSERT_TRUE(r->push(3, 2, frameOf(1000, 2), 50));
  ASSERT_TRUE(r->push(1, 2, frameOf(61, 3), 200, true));
  ASSERT_TRUE(r->push(1, 3, frameOf(62, 4), 300));
  EXPECT_TRUE(r->pending(2));
  const auto got = drainAll(*r, 2);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].from, 1);
  EXPECT_EQ(got[0].bytes, frameOf(60, 1));
  EXPECT_EQ(got[0].ns, 100);
  EXPECT_FALSE(got[0].lost);
  EXPECT_EQ(got[1].from, 1);
  EXPECT_EQ(got[1].bytes, frameOf(61, 3));
  EXPECT_TRUE(got[1].lost);
  EXPECT_EQ(got[2].from, 3);
  EXPECT_EQ(got[2].bytes, frameOf(1000, 2));
  EXPECT_FALSE(r->pending(2));
  EXPECT_TRUE(r->pending(3));  // host 3's frame is still there
  EXPECT_EQ(drainAll(*r, 3).size(), 1u);
}

TEST(FrameRings, LaterFramesWaitForALaterDrain) {
  std::string error;
  auto r = FrameRings::create(2, 0, 1, error);
  ASSERT_TRUE(r) << error;
  ASSERT_TRUE(r->push(1, 0, frameOf(64, 1), 10));
  ASSERT_TRUE(r->push(1, 0, frameOf(64, 2), 20));
  ASSERT_TRUE(r->push(2, 0, frameOf(64, 3), 15));
  auto got = drainAll(*r, 0, 15);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].ns, 10);
  EXPECT_EQ(got[1].ns, 15);
  got = drainAll(*r, 0);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].ns, 20);
}

TEST(FrameRings, WrapsAroundAndRefusesWhenFull) {
  std::string error;
  auto r = FrameRings::create(2, 0, 1, error);
  ASSERT_TRUE(r) << error;
  // Fill until refused, drain, and go round several times with frames of odd sizes.
  std::mt19937 rng(3);
  std::uint64_t sent = 0;
  std::uint64_t received = 0;
  std::vector<std::vector<std::uint8_t>> inFlight;
  for (int round = 0; round < 6; ++round) {
    int pushed = 0;
    for (;;) {
      auto f = frameOf(60 + rng() % 9000, static_cast<std::uint8_t>(sent));
      if (!r->push(1, 2, f, static_cast<std::int64_t>(sent))) break;
      inFlight.push_back(std::move(f));
      ++sent;
      ++pushed;
    }
    EXPECT_GT(pushed, 100) << "round " << round;
    for (const Got& g : drainAll(*r, 2)) {
      ASSERT_LT(received, sent);
      EXPECT_EQ(g.ns, static_cast<std::int64_t>(received));
      EXPECT_EQ(g.bytes, inFlight[received]);
      ++received;
    }
    EXPECT_EQ(received, sent);
  }
  std::vector<std::uint8_t> huge(64u << 20);
  EXPECT_FALSE(r->push(1, 2, huge, 0));            // larger than a ring holds
  EXPECT_FALSE(r->push(0, 2, frameOf(60, 0), 0));  // no host 0 sends
  EXPECT_FALSE(r->push(1, 3, frameOf(60, 0), 0));  // no host 3
}

TEST(FrameRings, AnotherProcessSeesTheFramesAndTheSwitchState) {
  std::string error;
  auto r = FrameRings::create(2, 0, 1, error);
  ASSERT_TRUE(r) << error;
  r->setAttached(2, true);
  r->setPaused(true);
  r->setSleeping(1, true);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::string e;
    auto mine = FrameRings::map(r->fd(), e);
    bool ok = mine && mine->attached(2) && !mine->attached(1) && mine->paused();
    for (int i = 0; ok && i < 1000; ++i) {
      while (!mine->push(2, 1, frameOf(100 + i, static_cast<std::uint8_t>(i)), i))
        ::sched_yield();
    }
    ok = ok && mine->announce(1) && !mine->announce(1);  // only the first wakes the sleeper
    mine->count(2, 1000, 990, 10, 0);
    ::_exit(ok ? 0 : 1);
  }
  int received = 0;
  while (received < 1000) {
    for (const Got& g : drainAll(*r, 1)) {
      ASSERT_EQ(g.bytes, frameOf(100 + received, static_cast<std::uint8_t>(received)));
      ++received;
    }
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  const FabricCounters c = r->counters();
  EXPECT_EQ(c.frames, 1000u);
  EXPECT_EQ(c.forwarded, 990u);
  EXPECT_EQ(c.lost, 10u);
}

TEST(FrameRings, AMappingThatIsNotAFabricsIsRefused) {
  const int fd = ::memfd_create("not-a-fabric", MFD_CLOEXEC);
  ASSERT_GE(fd, 0);
  std::string error;
  EXPECT_FALSE(FrameRings::map(fd, error));  // empty
  EXPECT_NE(error.find("shared memory"), std::string::npos) << error;
  ASSERT_EQ(::ftruncate(fd, 1 << 20), 0);
  error.clear();
  EXPECT_FALSE(FrameRings::map(fd, error));  // zeros
  EXPECT_NE(error.find("not a fabric"), std::string::npos) << error;
  ::close(fd);
}

TEST(FrameRings, ACorruptRingDropsFramesWithoutLeavingTheMapping) {
  std::string error;
  auto r = FrameRings::create(2, 0, 1, error);
  ASSERT_TRUE(r) << error;
  auto view = FrameRings::map(r->fd(), error);
  ASSERT_TRUE(view) << error;
  std::mt19937_64 rng(11);
  // Scribble over everything after the fixed header and drain:
  // whatever the bytes, the reader stays inside the mapping (ASan would catch it otherwise).
  const off_t size = ::lseek(r->fd(), 0, SEEK_END);
  auto* p = static_cast<std::uint8_t*>(::mmap(nullptr, static_cast<std::size_t>(size),
                                              PROT_READ | PROT_WRITE, MAP_SHARED, r->fd(), 0));
  ASSERT_NE(p, MAP_FAILED);
  for (int trial = 0; trial < 200; ++trial) {
    for (int i = 0; i < 64; ++i) {
      const std::size_t at = 64 + rng() % (static_cast<std::size_t>(size) - 72);
      const std::uint64_t v = rng();
      std::memcpy(p + at, &v, 8);
    }
    (void)r->push(1, 2, frameOf(60, 1), 1);  // may be refused: the ring is garbage now
    std::size_t total = 0;
    view->drain(2, [&](const FrameRings::Frame& f) { total += f.bytes.size(); });
    view->drain(0, [&](const FrameRings::Frame& f) { total += f.bytes.size(); });
    EXPECT_LT(total, static_cast<std::size_t>(size));
  }
  ::munmap(p, static_cast<std::size_t>(size));
}

}  // namespace
}  // namespace rdmascope::simdev
