#include "rdmascope/sim/tcp_network.h"

#include <gtest/gtest.h>

#include <numeric>

#include "rdmascope/sim/transfer_cost.h"
#include "tcp_test_scheduler.h"

namespace rdmascope::sim {
namespace {

using testing::TestScheduler;

std::vector<std::uint8_t> pattern(std::size_t n, std::uint32_t seed = 7) {
  std::vector<std::uint8_t> v(n);
  std::uint32_t x = seed;
  for (auto& b : v) {
    x = x * 1664525u + 1013904223u;
    b = static_cast<std::uint8_t>(x >> 24);
  }
  return v;
}

TcpNetworkConfig baseConfig() {
  TcpNetworkConfig c;
  c.tcp.receiveBufferBytes = 65535;
  return c;
}

bool connectAndWait(TestScheduler& sched, TcpNetwork& net) {
  net.connect();
  return sched.run([&] {
    return net.endpoint(0).state() == TcpState::Established &&
           net.endpoint(1).state() == TcpState::Established;
  });
}

// Sends `data` from host 0 to host 1 over the socket path; returns what host 1 received.
std::vector<std::uint8_t> transfer(TestScheduler& sched, TcpNetwork& net,
                                   const std::vector<std::uint8_t>& data, std::uint32_t io) {
  std::vector<std::uint8_t> received;
  bool done = false;
  net.appReceive(1, data.size(), io, [&](std::vector<std::uint8_t> got) {
    received = std::move(got);
    done = true;
  });
  net.appSend(0, data, io);
  sched.run([&] { return done; });
  return received;
}

TEST(TcpNetwork, ThreeWayHandshakeAsRealFrames) {
  TestScheduler sched;
  TcpNetwork net(sched, baseConfig());
  ASSERT_TRUE(connectAndWait(sched, net));
  sched.run();
  ASSERT_GE(net.frames().size(), 3u);
  const auto syn = parseTcpFrame(net.frames()[0].bytes);
  const auto synAck = parseTcpFrame(net.frames()[1].bytes);
  const auto ack = parseTcpFrame(net.frames()[2].bytes);
  ASSERT_TRUE(syn && synAck && ack);
  EXPECT_EQ(syn->flags, tcp_flag::kSyn);
  EXPECT_EQ(syn->seq, 1000u);
  EXPECT_EQ(synAck->flags, tcp_flag::kSyn | tcp_flag::kAck);
  EXPECT_EQ(synAck->seq, 500000u);
  EXPECT_EQ(synAck->ack, 1001u);
  EXPECT_EQ(ack->flags, tcp_flag::kAck);
  EXPECT_EQ(ack->ack, 500001u);
  EXPECT_EQ(net.frames()[1].fromHost, 1);
}

TEST(TcpNetwork, FrameWithABadChecksumIsRejected) {
  TestScheduler sched;
  TcpNetwork net(sched, baseConfig());
  ASSERT_TRUE(connectAndWait(sched, net));
  auto bytes = net.frames()[0].bytes;
  ASSERT_TRUE(parseTcpFrame(bytes));
  bytes.back() ^= 0x01;
  EXPECT_FALSE(parseTcpFrame(bytes));
  EXPECT_FALSE(parseTcpFrame(std::span<const std::uint8_t>(bytes.data(), 20)));
}

TEST(TcpNetwork, StreamArrivesIntactWithTwoCpuCopiesOfEveryByte) {
  TestScheduler sched;
  TcpNetwork net(sched, baseConfig());
  ASSERT_TRUE(connectAndWait(sched, net));
  const auto data = pattern(1 << 20);
  const auto got = transfer(sched, net, data, 131072);
  EXPECT_EQ(got, data);
  EXPECT_EQ(net.counters(0).cpuBytesCopied, data.size());
  EXPECT_EQ(net.counters(1).cpuBytesCopied, data.size());
  EXPECT_EQ(net.counters(0).syscalls, 8u);  // 1 MiB in 128 KiB send() calls
  for (const auto& f : net.frames()) {
    const auto seg = parseTcpFrame(f.bytes);
    ASSERT_TRUE(seg);
    EXPECT_LE(seg->payload.size(), 1460u);
  }
  EXPECT_EQ(net.endpoint(0).stats().retransmittedSegments, 0u);
}

TEST(TcpNetwork, LossIsRepairedByRetransmission) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    TestScheduler sched(seed);
    auto cfg = baseConfig();
    cfg.lossRate = 0.03;
    TcpNetwork net(sched, cfg);
    ASSERT_TRUE(connectAndWait(sched, net));
    const auto data = pattern(300000, static_cast<std::uint32_t>(seed));
    const auto got = transfer(sched, net, data, 65536);
    EXPECT_EQ(got, data) << "seed " << seed;
    EXPECT_GT(net.framesLost(), 0u);
    EXPECT_GT(net.endpoint(0).stats().retransmittedSegments, 0u);
    EXPECT_EQ(net.endpoint(1).stats().bytesDelivered, data.size());
  }
}

TEST(TcpNetwork, LostLastSegmentIsResentAfterTheTimeout) {
  TestScheduler sched;
  auto cfg = baseConfig();
  // Frames 1-3 are the handshake; the message is 3 segments: frames 4, 5, 6; lose frame 6.
  cfg.dropFrames = {6};
  TcpNetwork net(sched, cfg);
  ASSERT_TRUE(connectAndWait(sched, net));
  const auto data = pattern(1460 * 3);
  const auto got = transfer(sched, net, data, 65536);
  EXPECT_EQ(got, data);
  EXPECT_EQ(net.endpoint(0).stats().timeouts, 1u);
  EXPECT_EQ(net.endpoint(0).stats().retransmittedSegments, 1u);
  EXPECT_GE(sched.nowPs(), 200'000'000'000);  // the RTO is at least 200 ms
}

TEST(TcpNetwork, CountersMatchTheCostModelFormulas) {
  // Ten segments fit the initial window; coalescing by a long timer gives one interrupt
  // per direction; every count and the CPU time must equal estimateTransfer's.
  auto cfg = baseConfig();
  ASSERT_FALSE(applyCostSetting(cfg.costs, "coalesce_us=1000"));
  ASSERT_FALSE(applyCostSetting(cfg.costs, "coalesce_frames=64"));
  TestScheduler sched;
  TcpNetwork net(sched, cfg);
  ASSERT_TRUE(connectAndWait(sched, net));
  sched.run();
  const TcpHostCounters a0 = net.counters(0);
  const TcpHostCounters b0 = net.counters(1);
  const std::uint64_t size = 1460 * 10;
  const auto data = pattern(size);
  EXPECT_EQ(transfer(sched, net, data, 131072), data);
  sched.run();
  const auto& a = net.counters(0);
  const auto& b = net.counters(1);
  const auto e = estimateTransfer(Transport::Tcp, size, cfg.costs);
  const auto& k = e.counters;
  EXPECT_EQ(a.cpuBytesCopied - a0.cpuBytesCopied + b.cpuBytesCopied - b0.cpuBytesCopied,
            k.cpuBytesCopied);
  EXPECT_EQ(a.syscalls - a0.syscalls + b.syscalls - b0.syscalls, k.syscalls);
  EXPECT_EQ(a.interrupts - a0.interrupts + b.interrupts - b0.interrupts, k.interrupts);
  EXPECT_EQ(a.contextSwitches - a0.contextSwitches + b.contextSwitches - b0.contextSwitches,
            k.contextSwitches);
  EXPECT_EQ(a.doorbells - a0.doorbells + b.doorbells - b0.doorbells, k.doorbells);
  EXPECT_EQ(a.framesSent - a0.framesSent, k.frames);
  EXPECT_EQ(b.framesSent - b0.framesSent, k.ackFrames);
  EXPECT_NEAR(a.cpuNs - a0.cpuNs, k.hostACpuNs, 1e-6);
  EXPECT_NEAR(b.cpuNs - b0.cpuNs, k.hostBCpuNs, 1e-6);
  EXPECT_EQ(a.nicDmaReadBytes - a0.nicDmaReadBytes + b.nicDmaReadBytes - b0.nicDmaReadBytes,
            k.nicDmaReadBytes);
}

TEST(TcpNetwork, ConnectionClosesWithFinHandshake) {
  TestScheduler sched;
  TcpNetwork net(sched, baseConfig());
  ASSERT_TRUE(connectAndWait(sched, net));
  const auto data = pattern(5000);
  EXPECT_EQ(transfer(sched, net, data, 65536), data);
  net.endpoint(0).close();
  sched.run();
  EXPECT_EQ(net.endpoint(0).state(), TcpState::FinWait2);
  EXPECT_EQ(net.endpoint(1).state(), TcpState::CloseWait);
  net.endpoint(1).close();
  sched.run();
  EXPECT_EQ(net.endpoint(1).state(), TcpState::Closed);
  EXPECT_EQ(net.endpoint(0).state(), TcpState::TimeWait);
}

TEST(TcpCongestion, SlowStartThenAdditiveIncrease) {
  TcpCongestionControl cc(1000, 10);
  EXPECT_EQ(cc.cwnd(), 10000u);
  EXPECT_TRUE(cc.inSlowStart());
  for (int i = 0; i < 10; ++i)
    cc.onNewAck(1000);
  EXPECT_EQ(cc.cwnd(), 20000u);  // one window of ACKs doubles it
  cc.onTimeout(20000);
  EXPECT_EQ(cc.ssthresh(), 10000u);
  EXPECT_EQ(cc.cwnd(), 1000u);
  while (cc.inSlowStart())
    cc.onNewAck(1000);
  EXPECT_EQ(cc.cwnd(), 10000u);
  for (int i = 0; i < 10; ++i)
    cc.onNewAck(1000);  // a window's worth: +1 MSS
  EXPECT_EQ(cc.cwnd(), 11000u);
}

TEST(TcpCongestion, FastRecoveryHalvesTheWindow) {
  TcpCongestionControl cc(1000, 10);
  for (int i = 0; i < 30; ++i)
    cc.onNewAck(1000);
  const std::uint32_t flight = cc.cwnd();
  cc.onTripleDupAck(flight);
  EXPECT_TRUE(cc.inRecovery());
  EXPECT_EQ(cc.ssthresh(), flight / 2);
  EXPECT_EQ(cc.cwnd(), flight / 2 + 3000);
  cc.onDupAckInRecovery();
  EXPECT_EQ(cc.cwnd(), flight / 2 + 4000);
  cc.onNewAck(1000);
  EXPECT_FALSE(cc.inRecovery());
  EXPECT_EQ(cc.cwnd(), flight / 2);
}

TEST(TcpCongestion, RtoFollowsRfc6298) {
  TcpRtoEstimator rto(1000, 1'000'000, 100'000'000);
  EXPECT_EQ(rto.rtoNs(), 1'000'000);
  rto.onSample(10'000);
  EXPECT_EQ(rto.srttNs(), 10'000);
  EXPECT_EQ(rto.rtoNs(), 10'000 + 4 * 5'000);
  rto.onSample(10'000);
  EXPECT_EQ(rto.srttNs(), 10'000);
  EXPECT_EQ(rto.rtoNs(), 10'000 + 4 * 3'750);
  rto.backOff();
  EXPECT_EQ(rto.rtoNs(), 2 * (10'000 + 4 * 3'750));
}

}  // namespace
}  // namespace rdmascope::sim
