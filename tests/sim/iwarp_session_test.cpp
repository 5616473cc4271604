#include "rdmascope/sim/iwarp_session.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "rdmascope/sim/transfer_cost.h"
#include "tcp_test_scheduler.h"

namespace rdmascope::sim {
namespace {

using packets::RdmapOpcode;
using testing::TestScheduler;

constexpr unsigned kAll = access::kLocalWrite | access::kRemoteWrite | access::kRemoteRead;

std::vector<std::uint8_t> pattern(std::size_t n, std::uint32_t seed = 11) {
  std::vector<std::uint8_t> v(n);
  std::uint32_t x = seed;
  for (auto& b : v) {
    x = x * 1103515245u + 12345u;
    b = static_cast<std::uint8_t>(x >> 16);
  }
  return v;
}

struct Rig {
  explicit Rig(bool markers = false, bool crc = true, double loss = 0, std::uint64_t seed = 1)
      : sched(seed),
        net(sched, config(loss)),
        session(net, side(markers, crc, "ini"), side(markers, crc, "resp")) {
    session.connect();
    sched.run([&] { return session.established(); });
  }
  static TcpNetworkConfig config(double loss) {
    TcpNetworkConfig c;
    c.placement = TcpStackPlacement::Offloaded;
    c.lossRate = loss;
    c.serverPort = 20049;
    return c;
  }
  static MpaSettings side(bool markers, bool crc, std::string_view pd) {
    MpaSettings s;
    s.markers = markers;
    s.crc = crc;
    s.privateData.assign(pd.begin(), pd.end());
    return s;
  }
  std::size_t count(int host, WcOpcode op, WcStatus status = WcStatus::Success) const {
    return static_cast<std::size_t>(std::count_if(
        session.completions().begin(), session.completions().end(), [&](const IwarpCompletion& c) {
          return c.host == host && c.opcode == op && c.status == status;
        }));
  }
  TestScheduler sched;
  TcpNetwork net;
  IwarpSession session;
};

TEST(IwarpSession, MpaExchangeCarriesPrivateDataAndNegotiates) {
  Rig rig(true, true);
  ASSERT_TRUE(rig.session.established());
  const auto& pd0 = rig.session.peerPrivateData(0);
  const auto& pd1 = rig.session.peerPrivateData(1);
  EXPECT_EQ(std::string(pd0.begin(), pd0.end()), "resp");
  EXPECT_EQ(std::string(pd1.begin(), pd1.end()), "ini");
  EXPECT_TRUE(rig.session.markersFrom(0));
  EXPECT_TRUE(rig.session.markersFrom(1));
  EXPECT_TRUE(rig.session.crcInUse());
  // SYN, SYN-ACK, ACK, then the MPA Request from the initiator and the Reply.
  const auto& f = rig.net.frames();
  ASSERT_GE(f.size(), 5u);
  const auto req = parseTcpFrame(f[3].bytes);
  ASSERT_TRUE(req);
  EXPECT_EQ(std::string(req->payload.begin(), req->payload.begin() + 16), "MPA ID Req Frame");
}

class IwarpOps : public ::testing::TestWithParam<bool> {};

TEST_P(IwarpOps, SendLandsInThePostedBufferOnce) {
  Rig rig(GetParam());
  const auto data = pattern(100000);
  const auto src = rig.session.registerMemory(0, data.size(), kAll);
  const auto dst = rig.session.registerMemory(1, data.size() + 16, kAll);
  std::copy(data.begin(), data.end(), rig.session.memory(0, src).begin());
  rig.session.postRecv(1, 77, dst, 16, static_cast<std::uint32_t>(data.size()));
  rig.session.postSend(0, 5, src, 0, static_cast<std::uint32_t>(data.size()), RdmapOpcode::SendSe);
  rig.sched.run();
  const auto out = rig.session.memory(1, dst).subspan(16);
  EXPECT_TRUE(std::equal(data.begin(), data.end(), out.begin()));
  ASSERT_EQ(rig.count(1, WcOpcode::Recv), 1u);
  ASSERT_EQ(rig.count(0, WcOpcode::Send), 1u);
  for (const auto& c : rig.session.completions()) {
    if (c.opcode == WcOpcode::Recv) {
      EXPECT_EQ(c.wrId, 77u);
      EXPECT_EQ(c.byteLen, data.size());
      EXPECT_TRUE(c.solicited);
    }
  }
  // The RNICs move the data: the hosts' CPUs copy nothing and make no system calls.
  for (int h = 0; h < 2; ++h) {
    EXPECT_EQ(rig.net.counters(h).cpuBytesCopied, 0u);
    EXPECT_EQ(rig.net.counters(h).syscalls, 0u);
    EXPECT_EQ(rig.net.counters(h).interrupts, 0u);
  }
  EXPECT_EQ(rig.session.stats(1).bytesPlaced, data.size());
  const std::uint64_t perFpdu = mpaMulpdu(1460, GetParam()) - 18;
  EXPECT_EQ(rig.session.stats(0).fpdusSent, (data.size() + perFpdu - 1) / perFpdu);
  EXPECT_EQ(rig.session.stats(0).markersSent > 0, GetParam());
}

TEST_P(IwarpOps, WriteAndReadMoveTheBytes) {
  Rig rig(GetParam());
  const auto data = pattern(1 << 20, 3);
  const auto a = rig.session.registerMemory(0, data.size(), kAll);
  const auto b = rig.session.registerMemory(1, data.size(), kAll);
  std::copy(data.begin(), data.end(), rig.session.memory(0, a).begin());
  rig.session.postWrite(0, 1, a, 0, static_cast<std::uint32_t>(data.size()), b, 0);
  rig.sched.run();
  EXPECT_TRUE(std::equal(data.begin(), data.end(), rig.session.memory(1, b).begin()));
  EXPECT_EQ(rig.count(0, WcOpcode::RdmaWrite), 1u);
  EXPECT_EQ(rig.count(1, WcOpcode::Recv), 0u);  // a Write completes nothing at the target

  const auto c = rig.session.registerMemory(0, 300000, kAll);
  rig.session.postRead(0, 2, c, 0, 300000, b, 4096);
  rig.sched.run();
  EXPECT_TRUE(std::equal(data.begin() + 4096, data.begin() + 4096 + 300000,
                         rig.session.memory(0, c).begin()));
  ASSERT_EQ(rig.count(0, WcOpcode::RdmaRead), 1u);
  EXPECT_EQ(rig.session.completions().back().byteLen, 300000u);
  EXPECT_FALSE(rig.session.inError(0));
  EXPECT_FALSE(rig.session.inError(1));
}

INSTANTIATE_TEST_SUITE_P(Markers, IwarpOps, ::testing::Bool());

TEST(IwarpSession, ExactlyOnceUnderLossWhileTcpRetransmits) {
  for (std::uint64_t seed : {1u, 2u, 3u, 4u}) {
    Rig rig(seed % 2 == 0, true, 0.04, seed);
    ASSERT_TRUE(rig.session.established()) << seed;
    const auto data = pattern(64 * 1024, static_cast<std::uint32_t>(seed));
    const auto src = rig.session.registerMemory(0, data.size(), kAll);
    std::copy(data.begin(), data.end(), rig.session.memory(0, src).begin());
    constexpr int kMessages = 8;
    std::vector<std::uint32_t> sinks;
    for (int i = 0; i < kMessages; ++i) {
      sinks.push_back(rig.session.registerMemory(1, data.size(), kAll));
      rig.session.postRecv(1, 100 + i, sinks.back(), 0, static_cast<std::uint32_t>(data.size()));
    }
    for (int i = 0; i < kMessages; ++i) {
      rig.session.postSend(0, i, src, 0, static_cast<std::uint32_t>(data.size()));
    }
    const auto wsink = rig.session.registerMemory(1, data.size(), kAll);
    rig.session.postWrite(0, 50, src, 0, static_cast<std::uint32_t>(data.size()), wsink, 0);
    const auto rsink = rig.session.registerMemory(0, data.size(), kAll);
    rig.session.postRead(0, 60, rsink, 0, static_cast<std::uint32_t>(data.size()), wsink, 0);
    rig.sched.run();
    EXPECT_GT(rig.net.framesLost(), 0u) << seed;
    EXPECT_GT(rig.net.endpoint(0).stats().retransmittedSegments, 0u) << seed;
    EXPECT_EQ(rig.count(1, WcOpcode::Recv), static_cast<std::size_t>(kMessages)) << seed;
    EXPECT_EQ(rig.count(0, WcOpcode::Send), static_cast<std::size_t>(kMessages)) << seed;
    EXPECT_EQ(rig.count(0, WcOpcode::RdmaWrite), 1u) << seed;
    EXPECT_EQ(rig.count(0, WcOpcode::RdmaRead), 1u) << seed;
    EXPECT_EQ(rig.session.completions().size(), 2u * kMessages + 2) << seed;
    // Receives complete in posting order, each with the whole message.
    std::uint64_t expect = 100;
    for (const auto& c : rig.session.completions()) {
      if (c.opcode != WcOpcode::Recv) continue;
      EXPECT_EQ(c.wrId, expect++);
      EXPECT_EQ(c.byteLen, data.size());
    }
    for (auto s : sinks) {
      EXPECT_TRUE(std::equal(data.begin(), data.end(), rig.session.memory(1, s).begin())) << seed;
    }
    EXPECT_TRUE(std::equal(data.begin(), data.end(), rig.session.memory(0, rsink).begin()));
    EXPECT_EQ(rig.session.stats(0).crcErrors + rig.session.stats(1).crcErrors, 0u);
    EXPECT_TRUE(rig.session.terminates().empty());
  }
}

TEST(IwarpSession, WriteToAnInvalidStagIsTerminated) {
  Rig rig;
  const auto a = rig.session.registerMemory(0, 4096, kAll);
  rig.session.postWrite(0, 1, a, 0, 4096, 0xdead00, 0);
  rig.sched.run();
  ASSERT_EQ(rig.session.terminates().size(), 2u);  // sent by host 1, received by host 0
  for (const auto& t : rig.session.terminates()) {
    EXPECT_EQ(t.fromHost, 1);
    EXPECT_EQ(t.layer, 1);      // DDP
    EXPECT_EQ(t.errorType, 1);  // tagged buffer error
    EXPECT_EQ(t.errorCode, 0);  // invalid STag
  }
  EXPECT_TRUE(rig.session.inError(0));
  EXPECT_TRUE(rig.session.inError(1));
}

TEST(IwarpSession, WriteWithoutRemoteWriteAccessIsARemoteProtectionError) {
  Rig rig;
  const auto a = rig.session.registerMemory(0, 512, kAll);
  const auto b = rig.session.registerMemory(1, 512, access::kLocalWrite | access::kRemoteRead);
  rig.session.postWrite(0, 1, a, 0, 512, b, 0);
  rig.sched.run();
  ASSERT_FALSE(rig.session.terminates().empty());
  const auto& t = rig.session.terminates().front();
  EXPECT_EQ(t.layer, 0);      // RDMAP
  EXPECT_EQ(t.errorType, 1);  // remote protection error
  EXPECT_EQ(t.errorCode, 2);  // access rights violation
  EXPECT_TRUE(std::all_of(rig.session.memory(1, b).begin(), rig.session.memory(1, b).end(),
                          [](std::uint8_t v) { return v == 0; }));
}

TEST(IwarpSession, SendWithoutAPostedReceiveIsTerminated) {
  Rig rig;
  const auto a = rig.session.registerMemory(0, 100, kAll);
  rig.session.postSend(0, 1, a, 0, 100);
  rig.sched.run();
  ASSERT_FALSE(rig.session.terminates().empty());
  EXPECT_EQ(rig.session.terminates().front().errorType, 2);  // untagged buffer error
  EXPECT_EQ(rig.session.terminates().front().errorCode, 2);  // no buffer available
}

TEST(IwarpSession, SendWithInvalidateInvalidatesThePeersStag) {
  Rig rig;
  const auto a = rig.session.registerMemory(0, 64, kAll);
  const auto rbuf = rig.session.registerMemory(1, 64, kAll);
  const auto victim = rig.session.registerMemory(1, 64, kAll);
  rig.session.postRecv(1, 9, rbuf, 0, 64);
  rig.session.postSend(0, 1, a, 0, 64, RdmapOpcode::SendInvalidate, victim);
  rig.sched.run();
  EXPECT_FALSE(rig.session.stagValid(1, victim));
  ASSERT_EQ(rig.count(1, WcOpcode::Recv), 1u);
  for (const auto& c : rig.session.completions()) {
    if (c.opcode == WcOpcode::Recv) {
      ASSERT_TRUE(c.invalidatedStag);
      EXPECT_EQ(*c.invalidatedStag, victim);
      EXPECT_FALSE(c.solicited);
    }
  }
}

// Every marker sits at a multiple of 512 octets from the first FPDU of its direction, in
// whatever segment that position falls, and points back to its FPDU's header.
TEST(IwarpSession, MarkerPositionsAreExactAcrossSegments) {
  Rig rig(true);
  const auto data = pattern(20000);
  const auto a = rig.session.registerMemory(0, data.size(), kAll);
  const auto b = rig.session.registerMemory(1, data.size(), kAll);
  std::copy(data.begin(), data.end(), rig.session.memory(0, a).begin());
  rig.session.postWrite(0, 1, a, 0, static_cast<std::uint32_t>(data.size()), b, 0);
  rig.session.postRead(0, 2, a, 0, 5000, b, 100);
  rig.sched.run();
  ASSERT_EQ(rig.count(0, WcOpcode::RdmaRead), 1u);
  std::map<int, std::uint32_t> firstFpduSeq;
  std::map<int, int> seenStart;
  std::size_t markersChecked = 0;
  std::set<std::pair<int, std::uint32_t>> seen;
  for (const auto& f : rig.net.frames()) {
    const auto seg = parseTcpFrame(f.bytes);
    ASSERT_TRUE(seg);
    if (seg->payload.empty() || !seen.insert({f.fromHost, seg->seq}).second) continue;
    if (seenStart[f.fromHost]++ == 0) {  // the MPA start frame: FPDUs start after it
      firstFpduSeq[f.fromHost] = seg->seq + static_cast<std::uint32_t>(seg->payload.size());
      continue;
    }
    const std::uint32_t start = seg->seq - firstFpduSeq[f.fromHost];
    ASSERT_LE(seg->payload.size(), 1460u);
    const std::uint32_t header = start % 512 == 0 ? start + 4 : start;
    for (std::uint32_t i = 0; i < seg->payload.size(); ++i) {
      if ((start + i) % 512 != 0) continue;
      const auto* m = seg->payload.data() + i;
      EXPECT_EQ(m[0], 0);
      EXPECT_EQ(m[1], 0);
      const std::uint32_t pointer = (m[2] << 8) | m[3];
      EXPECT_EQ(pointer, start + i == start ? 0u : start + i - header);
      ++markersChecked;
    }
  }
  EXPECT_GT(markersChecked, 40u);
}

}  // namespace
}  // namespace rdmascope::sim
