#include <gtest/gtest.h>

#include <cmath>

#include "rdmascope/sim/host_cost_model.h"
#include "rdmascope/sim/transfer_cost.h"

namespace rdmascope::sim {
namespace {

HostCostSettings with(std::initializer_list<std::string_view> assignments) {
  HostCostSettings s;
  for (auto a : assignments) {
    auto error = applyCostSetting(s, a);
    EXPECT_FALSE(error.has_value()) << *error;
  }
  return s;
}

double stageTotal(const TransferEstimate& e, std::string_view name) {
  for (const auto& st : e.stages) {
    if (st.name == name) return st.totalNs;
  }
  ADD_FAILURE() << "no stage " << name;
  return 0;
}

TEST(HostCostSettings, EveryDefaultHasAUnitAndASource) {
  const HostCostSettings s;
  EXPECT_FALSE(validate(s).has_value());
  ASSERT_GE(costSettingTable().size(), 20u);
  for (const auto& info : costSettingTable()) {
    EXPECT_FALSE(info.unit.empty()) << info.name;
    EXPECT_GT(info.source.size(), 20u) << info.name;
    EXPECT_GT(s.*(info.member), 0) << info.name;
    EXPECT_EQ(findCostSetting(info.name), &info);
  }
  EXPECT_EQ(s.mss(), 1460u);
}

TEST(HostCostSettings, AppliesNamedSettingsWithSuffixes) {
  HostCostSettings s;
  EXPECT_FALSE(applyCostSetting(s, "memcpy_bw=10G"));
  EXPECT_DOUBLE_EQ(s.memcpyBytesPerSec, 10e9);
  EXPECT_FALSE(applyCostSetting(s, "sndbuf=64K"));
  EXPECT_DOUBLE_EQ(s.sndbufBytes, 65536);
  EXPECT_FALSE(applyCostSetting(s, "syscall=120"));
  EXPECT_DOUBLE_EQ(s.syscallNs, 120);
  EXPECT_FALSE(applyCostSetting(s, "completion=event"));
  EXPECT_EQ(s.completion, CompletionMode::Event);
}

TEST(HostCostSettings, RejectsBadInputWithTheNameInTheMessage) {
  HostCostSettings s;
  auto e1 = applyCostSetting(s, "memcpy_bandwidth=1");
  ASSERT_TRUE(e1);
  EXPECT_NE(e1->find("memcpy_bandwidth"), std::string::npos);
  auto e2 = applyCostSetting(s, "syscall=fast");
  ASSERT_TRUE(e2);
  EXPECT_NE(e2->find("syscall"), std::string::npos);
  EXPECT_TRUE(applyCostSetting(s, "mtu=100"));
  EXPECT_TRUE(applyCostSetting(s, "completion=sometimes"));
  EXPECT_TRUE(applyCostSetting(s, "novalue"));
}

TEST(HostCostSettings, CalibrationReplacesTheMeasuredFigures) {
  MeasuredHostCosts m;
  m.memcpyBytesPerSec = 5e9;
  m.syscallNs = 100;
  m.sendCallNs = 1100;
  m.recvCallNs = 900;
  m.roundTripNs = 10000;
  const auto s = calibrated(HostCostSettings{}, m);
  EXPECT_DOUBLE_EQ(s.memcpyBytesPerSec, 5e9);
  EXPECT_DOUBLE_EQ(s.syscallNs, 100);
  EXPECT_DOUBLE_EQ(s.tcpSegmentNs, (1100 + 900) / 2.0 - 100);
  EXPECT_DOUBLE_EQ(s.contextSwitchNs, (10000 - 2 * 2000) / 2.0);
  const auto unchanged = calibrated(HostCostSettings{}, MeasuredHostCosts{});
  EXPECT_DOUBLE_EQ(unchanged.tcpSegmentNs, HostCostSettings{}.tcpSegmentNs);
}

TEST(TcpCostModel, EveryPayloadByteIsCopiedTwiceByTheCpu) {
  const HostCostSettings s;
  for (std::uint64_t size : {1ull, 100ull, 1460ull, 4096ull, 65536ull, 1ull << 20, 1ull << 30}) {
    const auto e = estimateTransfer(Transport::Tcp, size, s);
    EXPECT_EQ(e.counters.cpuBytesCopied, 2 * size) << size;
    EXPECT_EQ(e.counters.copiesPerByte, 2u);
    // Memory bus: each copy reads and writes, the NICs read and write each frame once.
    EXPECT_EQ(e.counters.memoryBusBytes,
              4 * size + e.counters.nicDmaReadBytes + e.counters.nicDmaWriteBytes);
    EXPECT_GE(e.counters.nicDmaReadBytes, size);
  }
}

TEST(TcpCostModel, CountsFollowFromSizesAndSettings) {
  // mss 1460; 100 segments; coalescing by count only (10 frames); ACK every 2 segments.
  const auto s = with({"mtu=1500", "coalesce_frames=10", "coalesce_us=1000000", "app_io=4096",
                       "sndbuf=65536", "delayed_ack=2"});
  const std::uint64_t size = 146000;
  const auto e = estimateTransfer(Transport::Tcp, size, s);
  const auto& k = e.counters;
  EXPECT_EQ(k.frames, 100u);
  EXPECT_EQ(k.ackFrames, 50u);
  const std::uint64_t sendCalls = 36;  // ceil(146000 / 4096)
  const std::uint64_t recvCalls = 40;  // 10 wakeups, each reads 14600 bytes in 4 calls
  EXPECT_EQ(k.syscalls, sendCalls + recvCalls);
  EXPECT_EQ(k.copyOperations, sendCalls + recvCalls);
  EXPECT_EQ(k.interrupts, 10u + 5u);       // 100 data frames / 10, 50 ACKs / 10
  EXPECT_EQ(k.contextSwitches, 2u + 10u);  // send buffer full twice, 10 reader wakeups
  EXPECT_EQ(k.doorbells, 100u + 50u);
  EXPECT_EQ(k.wireBytes, 100 * (14 + 1500 + 4 + 20) + 50 * (64 + 20));
}

TEST(TcpCostModel, InterruptsFollowCoalescingByTime) {
  // 1538 wire bytes per full frame at 10 Gb/s: 1230.4 ns; 5 us covers 1 + 4 frames.
  const auto s = with({"link_rate=10G", "coalesce_frames=64", "coalesce_us=5"});
  const double frameNs = 1538 * 8 / 10.0;
  EXPECT_EQ(framesPerInterrupt(frameNs, s), 5u);
  const auto e = estimateTransfer(Transport::Tcp, 1460 * 20, s);
  EXPECT_EQ(stageTotal(e, "interrupt and softirq"), 4 * s.interruptNs);
}

TEST(TcpCostModel, OneSegmentLatencyIsTheSumOfItsStages) {
  const auto s = with({"memcpy_bw=1G", "syscall=200", "tcp_segment=500", "interrupt=1000",
                       "context_switch=2000", "doorbell=100", "nic_packet=10", "nic_dma_bw=1G",
                       "pcie_latency=400", "link_rate=8G", "propagation=1000", "coalesce_us=4",
                       "coalesce_frames=64"});
  const std::uint64_t size = 100;
  const auto e = estimateTransfer(Transport::Tcp, size, s);
  const double frameMem = 14 + 40 + 100;                    // bytes the NIC DMAs
  const double wire = (14 + 140 + 4 + 20);                  // 178 bytes at 1 byte/ns
  const double expected = 200 + 100 + 500 + 100             // send, copy, TCP, doorbell
                          + 400 + frameMem + 10             // NIC DMA read
                          + wire + 1000                     // wire
                          + 200 + frameMem + 10             // NIC DMA write (posted)
                          + 4000                            // coalescing timer
                          + 1000 + 500 + 2000 + 200 + 100;  // IRQ, TCP, wakeup, recv, copy
  EXPECT_NEAR(e.latencyNs, expected, 1e-6);
  EXPECT_NEAR(e.throughputBytesPerSec, size * 1e9 / expected, 1e-3);
  const double hostA = 200 + 100 + 500 + 100 + 250 /* one ACK */ + 1000 /* its IRQ */;
  EXPECT_NEAR(e.counters.hostACpuNs, hostA, 1e-6);
  const double hostB = 1000 + 500 + 250 + 100 /* ACK + doorbell */ + 2000 + 200 + 100;
  EXPECT_NEAR(e.counters.hostBCpuNs, hostB, 1e-6);
}

TEST(TcpCostModel, BulkTransferRunsAtTheBusiestResource) {
  const HostCostSettings s;
  const auto e = estimateTransfer(Transport::Tcp, 1ull << 30, s);
  const double busiest = std::max(e.counters.hostACpuNs, e.counters.hostBCpuNs);
  // At 100 Gb/s with these CPU costs a core is the limit, not the wire.
  EXPECT_NE(e.bottleneck.find("CPU"), std::string::npos);
  EXPECT_NEAR(e.latencyNs, busiest, busiest * 0.001);
  EXPECT_LT(e.throughputBytesPerSec, s.linkBitsPerSec / 8);
}

}  // namespace
}  // namespace rdmascope::sim
