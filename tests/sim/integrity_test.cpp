#include <gtest/gtest.h>

#include <map>
#include <random>

#include "rdmascope/packets/ib_builder.h"
#include "rdmascope/packets/ib_crc.h"
#include "rdmascope/sim/narration.h"
#include "sim_test_support.h"

namespace rdmascope::sim {
namespace {

using namespace testing;

struct Params {
  std::uint64_t seed;
  double loss, reorder, dup, corrupt;
};

// Every posted WR completes exactly once and the receiver's memory equals what was sent.
void runMixedTraffic(const Params& prm) {
  PairOptions o;
  o.config.seed = prm.seed;
  o.config.faults.lossRate = prm.loss;
  o.config.faults.reorderRate = prm.reorder;
  o.config.faults.duplicateRate = prm.dup;
  o.config.faults.corruptRate = prm.corrupt;
  o.timeout = 8;  // ~1 ms
  o.bufSize = 1 << 20;
  Pair p = makePair(o);
  std::mt19937_64 rng(prm.seed);
  fill(p.mem(0, 0, 1 << 19), static_cast<std::uint8_t>(prm.seed));
  fill(p.mem(1, 1 << 19, 1 << 19), static_cast<std::uint8_t>(prm.seed + 5));
  std::map<std::uint64_t, int> seen;
  int posted = 0;
  std::uint64_t off = 0;
  std::vector<std::tuple<std::uint64_t, std::uint64_t, std::uint32_t, bool>> checks;
  for (int i = 0; i < 12; ++i) {
    const std::uint32_t len = 1 + static_cast<std::uint32_t>(rng() % 9000);
    const int kind = static_cast<int>(rng() % 3);
    SendWr wr;
    if (kind == 0) {
      wr = sendWr(i, WrOpcode::RdmaWrite, p.a, off, len, p.b, off);
      checks.emplace_back(off, off, len, true);
    } else if (kind == 1) {
      ASSERT_TRUE(p.hb().postRecv(p.b.qpn, recvWr(1000 + i, p.b, off, len)).ok());
      ++posted;
      wr = sendWr(i, WrOpcode::Send, p.a, off, len, p.b);
      checks.emplace_back(off, off, len, true);
    } else {
      const std::uint64_t roff = (1 << 19) + off;
      wr = sendWr(i, WrOpcode::RdmaRead, p.a, roff, len, p.b, roff);
      checks.emplace_back(roff, roff, len, false);
    }
    ASSERT_TRUE(p.ha().postSend(p.a.qpn, wr).ok());
    ++posted;
    off += (len + 63) / 64 * 64;
  }
  p.net->sim().runUntil(SimTime::ms(60000));
  for (int h = 0; h < 2; ++h) {
    Side& s = h == 0 ? p.a : p.b;
    for (const auto& wc : p.net->host(h).pollCq(s.cq, 1000)) {
      EXPECT_EQ(wc.status, WcStatus::Success) << "seed " << prm.seed << " wr " << wc.wrId;
      ++seen[wc.wrId];
    }
  }
  EXPECT_EQ(static_cast<int>(seen.size()), posted) << "seed " << prm.seed;
  for (const auto& [id, n] : seen)
    EXPECT_EQ(n, 1) << "wr " << id;
  for (const auto& [src, dst, len, aToB] : checks) {
    auto a = aToB ? p.mem(0, src, len) : p.mem(1, src, len);
    auto b = aToB ? p.mem(1, dst, len) : p.mem(0, dst, len);
    EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin())) << "seed " << prm.seed;
  }
}

TEST(Integrity, CleanLink) {
  runMixedTraffic({1, 0, 0, 0, 0});
}

TEST(Integrity, RandomSeedsWithFaultsUpTo30Percent) {
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const double r = 0.05 * static_cast<double>(seed % 7);  // 0 .. 0.30
    runMixedTraffic({seed, r, r / 2, r / 3, r / 4});
  }
}

TEST(Integrity, HighLossThirtyPercent) {
  for (std::uint64_t seed = 20; seed < 24; ++seed)
    runMixedTraffic({seed, 0.3, 0.3, 0.1, 0.05});
}

class WireFormats : public ::testing::TestWithParam<WireFormat> {};

TEST_P(WireFormats, FramesVerifyInThePacketsModule) {
  PairOptions o;
  o.config.wire = GetParam();
  Pair p = makePair(o);
  ASSERT_TRUE(p.hb().postRecv(p.b.qpn, recvWr(1, p.b, 0, 4096)).ok());
  SendWr wr = sendWr(1, WrOpcode::SendWithImm, p.a, 0, 2501, p.b);
  wr.immData = 0xabcdef01;
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, wr).ok());
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, sendWr(2, WrOpcode::RdmaRead, p.a, 0, 3000, p.b)).ok());
  SendWr cas = sendWr(3, WrOpcode::AtomicCmpAndSwp, p.a, 8192, 8, p.b, 8192);
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, cas).ok());
  p.net->sim().run();
  const auto link = GetParam() == WireFormat::InfiniBand ? packets::LinkType::InfiniBand
                                                         : packets::LinkType::Ethernet;
  ASSERT_GE(p.net->frames().size(), 8u);
  for (const CapturedFrame& f : p.net->frames()) {
    EXPECT_EQ(packets::verifyFrameCrc(f.bytes, link), packets::CrcStatus::Good);
    auto parsed = packets::parseIbFrame(f.bytes, link);
    ASSERT_TRUE(parsed.has_value());
    const PacketSummary s = summarizeFrame(GetParam(), f.bytes);
    ASSERT_TRUE(s.ok) << s.error;
    EXPECT_EQ(parsed->packet.bth.opcode, s.opcode);
    EXPECT_EQ(parsed->packet.bth.psn, s.psn);
    EXPECT_EQ(parsed->packet.payload.size(), s.payloadLen);
  }
  auto wb = p.hb().pollCq(p.b.cq, 4);
  ASSERT_EQ(wb.size(), 1u);
  EXPECT_EQ(wb[0].immData, 0xabcdef01u);
  EXPECT_EQ(p.ha().pollCq(p.a.cq, 4).size(), 3u);
}

INSTANTIATE_TEST_SUITE_P(All, WireFormats,
                         ::testing::Values(WireFormat::RoceV2Ipv4, WireFormat::RoceV2Ipv6,
                                           WireFormat::RoceV1, WireFormat::InfiniBand));

}  // namespace
}  // namespace rdmascope::sim

namespace rdmascope::sim {
namespace {

using namespace testing;

TEST(Integrity, CorruptedFramesFailTheIcrcAndAreRecovered) {
  PairOptions o;
  o.config.faults.corruptRate = 0.3;
  o.timeout = 8;
  Pair p = makePair(o);
  fill(p.mem(0, 0, 65536), 11);
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, sendWr(1, WrOpcode::RdmaWrite, p.a, 0, 65536, p.b)).ok());
  p.net->sim().runUntil(SimTime::ms(1000));
  EXPECT_GT(p.net->stats().icrcDrops + p.net->stats().framesCorrupted, 0u);
  EXPECT_GT(p.net->stats().icrcDrops, 0u);
  expectWriteLanded(p, 65536);
}

TEST(Trace, OffRetainsNothingOnRetainsAndNotifiesSubscribers) {
  Pair off = makePair({});
  ASSERT_TRUE(off.hb().postRecv(off.b.qpn, recvWr(1, off.b, 0, 64)).ok());
  ASSERT_TRUE(off.ha().postSend(off.a.qpn, sendWr(1, WrOpcode::Send, off.a, 0, 64, off.b)).ok());
  off.net->sim().run();
  EXPECT_TRUE(off.net->sim().trace().events().empty());

  Pair on = makePair({});
  on.net->sim().trace().setEnabled(true);
  int frames = 0;
  on.net->sim().trace().subscribe([&](const TraceEvent& e) {
    if (e.kind == TraceKind::FrameSent) {
      ++frames;
      EXPECT_EQ(e.bytes.size(), e.length);
    }
  });
  ASSERT_TRUE(on.hb().postRecv(on.b.qpn, recvWr(1, on.b, 0, 64)).ok());
  ASSERT_TRUE(on.ha().postSend(on.a.qpn, sendWr(1, WrOpcode::Send, on.a, 0, 64, on.b)).ok());
  std::uint64_t steps = 0;
  while (on.net->sim().step())
    ++steps;
  EXPECT_EQ(frames, 2);
  EXPECT_GT(steps, 2u);
  bool sawCqe = false, sawMemWrite = false, sawWqe = false;
  for (const auto& e : on.net->sim().trace().events()) {
    EXPECT_FALSE(describe(e).empty());
    sawCqe |= e.kind == TraceKind::CqeProduced;
    sawMemWrite |= e.kind == TraceKind::MemoryWritten;
    sawWqe |= e.kind == TraceKind::WqeCompleted;
  }
  EXPECT_TRUE(sawCqe && sawMemWrite && sawWqe);
}

TEST(Ud, ReceiveBufferStartsWithTheGrh) {
  PairOptions o;
  o.type = QpType::UD;
  Pair p = makePair(o);
  fill(p.mem(0, 0, 100), 3);
  ASSERT_TRUE(p.hb().postRecv(p.b.qpn, recvWr(5, p.b, 0, 40 + 100)).ok());
  SendWr wr = sendWr(1, WrOpcode::Send, p.a, 0, 100, p.b);
  wr.remoteQpn = p.b.qpn;
  wr.remoteQkey = 0x11111111;
  wr.ah.dgid = p.hb().gid();
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, wr).ok());
  // a wrong Q_Key is dropped silently
  wr.wrId = 2;
  wr.remoteQkey = 0x22;
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, wr).ok());
  p.net->sim().run();
  auto wb = p.hb().pollCq(p.b.cq, 4);
  ASSERT_EQ(wb.size(), 1u);
  EXPECT_EQ(wb[0].byteLen, 140u);
  EXPECT_EQ(wb[0].srcQp, p.a.qpn);
  EXPECT_TRUE(wb[0].wcFlags & wc_flags::kGrh);
  auto grh = p.mem(1, 0, 40);
  EXPECT_TRUE(std::all_of(grh.begin(), grh.begin() + 20, [](std::uint8_t x) { return x == 0; }));
  EXPECT_EQ(grh[20], 0x45);  // the IPv4 header follows 20 zero bytes
  auto a = p.mem(0, 0, 100), b = p.mem(1, 40, 100);
  EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin()));
  EXPECT_EQ(p.ha().pollCq(p.a.cq, 4).size(), 2u);  // UD sends complete when sent
}

}  // namespace
}  // namespace rdmascope::sim
