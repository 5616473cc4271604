#include <gtest/gtest.h>

#include "rdmascope/sim/host_cost_model.h"
#include "rdmascope/sim/transfer_cost.h"

namespace rdmascope::sim {
namespace {

constexpr RdmaOp kOps[] = {RdmaOp::Send, RdmaOp::Write, RdmaOp::Read};
constexpr Transport kRdma[] = {Transport::RoceV2, Transport::Iwarp};

TEST(RdmaCostModel, NoCpuCopiesNoSystemCallsWhenPolling) {
  const HostCostSettings s;
  for (auto t : kRdma) {
    for (auto op : kOps) {
      for (std::uint64_t size : {1ull, 4096ull, 65536ull, 1ull << 20, 1ull << 30}) {
        const auto e = estimateTransfer(t, size, s, {op});
        const auto& k = e.counters;
        EXPECT_EQ(k.cpuBytesCopied, 0u);
        EXPECT_EQ(k.copiesPerByte, 0u);
        EXPECT_EQ(k.copyOperations, 0u);
        EXPECT_EQ(k.syscalls, 0u);
        EXPECT_EQ(k.interrupts, 0u);
        EXPECT_EQ(k.contextSwitches, 0u);
        // The NICs read the payload once and write it once; only WQEs and CQEs besides.
        EXPECT_GE(k.nicDmaReadBytes, size);
        EXPECT_LE(k.nicDmaReadBytes, size + 2 * kWqeBytes);
        EXPECT_GE(k.nicDmaWriteBytes, size);
        EXPECT_LE(k.nicDmaWriteBytes, size + 2 * kCqeBytes);
        EXPECT_EQ(k.memoryBusBytes, k.nicDmaReadBytes + k.nicDmaWriteBytes);
      }
    }
  }
}

TEST(RdmaCostModel, EventCompletionsCostAnInterruptASyscallAndASwitchEach) {
  HostCostSettings s;
  ASSERT_FALSE(applyCostSetting(s, "completion=event"));
  for (auto t : kRdma) {
    // Send completes on both hosts; Write and Read only at the requester.
    const auto send = estimateTransfer(t, 65536, s, {RdmaOp::Send});
    EXPECT_EQ(send.counters.interrupts, 2u);
    EXPECT_EQ(send.counters.syscalls, 2u);
    EXPECT_EQ(send.counters.contextSwitches, 2u);
    EXPECT_EQ(send.counters.doorbells, 1u + 1u + 2u);  // post_send, post_recv, two re-arms
    const auto write = estimateTransfer(t, 65536, s, {RdmaOp::Write});
    EXPECT_EQ(write.counters.interrupts, 1u);
    EXPECT_EQ(write.counters.syscalls, 1u);
    EXPECT_EQ(write.counters.contextSwitches, 1u);
    EXPECT_EQ(write.counters.cpuBytesCopied, 0u);
  }
}

TEST(RdmaCostModel, RocePacketsFollowThePathMtu) {
  HostCostSettings s;
  ASSERT_FALSE(applyCostSetting(s, "roce_mtu=1024"));
  ASSERT_FALSE(applyCostSetting(s, "roce_ack_every=64"));
  const auto e = estimateTransfer(Transport::RoceV2, 1 << 20, s, {RdmaOp::Write});
  EXPECT_EQ(e.counters.frames, 1024u);
  EXPECT_EQ(e.counters.ackFrames, 16u);
  // Frame: 14 Ethernet + 20 IP + 8 UDP + 12 BTH + payload + 4 ICRC + 4 FCS + 20 preamble/gap,
  // RETH on the first; ACKs carry an AETH and are padded to 64 bytes.
  const std::uint64_t dataWire = 1024 * (14 + 20 + 8 + 12 + 1024 + 4 + 4 + 20) + 16;
  EXPECT_EQ(e.counters.wireBytes, dataWire + 16 * (14 + 48 + 4 + 20));
  // A bulk Write is paced by the wire: the latency is the wire time plus a fixed lead.
  const double wireNs = dataWire * 8e9 / s.linkBitsPerSec;
  EXPECT_GT(e.latencyNs, wireNs);
  EXPECT_LT(e.latencyNs, wireNs + 10000);
}

TEST(RdmaCostModel, MpaMulpduFollowsRfc5044) {
  EXPECT_EQ(mpaMulpdu(1460, false), 1454u);
  EXPECT_EQ(mpaMulpdu(1460, true), 1460u - (6 + 4 * 3));
  EXPECT_EQ(mpaMulpdu(1461, false), 1461u - 7);
  EXPECT_EQ(mpaMulpdu(4, false), 0u);
}

TEST(RdmaCostModel, IwarpFpdusFitTheMssWithAndWithoutMarkers) {
  for (bool markers : {false, true}) {
    const HostCostSettings s;
    TransferOptions o;
    o.op = RdmaOp::Write;
    o.mpaMarkers = markers;
    const std::uint64_t size = 1 << 20;
    const auto e = estimateTransfer(Transport::Iwarp, size, s, o);
    const std::uint64_t perFpdu = mpaMulpdu(s.mss(), markers) - kDdpTaggedHeaderBytes;
    EXPECT_EQ(e.counters.frames, (size + perFpdu - 1) / perFpdu);
    // No frame is larger than a full MTU: total data wire bytes bounded by frames * max.
    const std::uint64_t acks = (e.counters.frames + 1) / 2;
    const std::uint64_t dataWire = e.counters.wireBytes - acks * (64 + 20);
    EXPECT_LE(dataWire, e.counters.frames * (14 + 1500 + 4 + 20));
    EXPECT_GT(dataWire, size);
  }
}

TEST(RdmaCostModel, RdmaBeatsTcpOnCpuForEverySize) {
  const HostCostSettings s;
  for (std::uint64_t size : {4096ull, 65536ull, 1ull << 20, 1ull << 30}) {
    const auto tcp = estimateTransfer(Transport::Tcp, size, s);
    for (auto t : kRdma) {
      const auto rdma = estimateTransfer(t, size, s, {RdmaOp::Send});
      EXPECT_LT(rdma.counters.cpuNs(), tcp.counters.cpuNs()) << size;
      EXPECT_LT(rdma.counters.memoryBusBytes, tcp.counters.memoryBusBytes) << size;
    }
  }
}

TEST(RdmaCostModel, SmallSendLatencyIsTheSumOfItsStages) {
  const HostCostSettings s;
  const auto e = estimateTransfer(Transport::RoceV2, 64, s, {RdmaOp::Send});
  double sum = 0;
  for (const auto& st : e.stages)
    sum += st.firstNs;
  EXPECT_DOUBLE_EQ(e.latencyNs, sum);
  // WQE fetch, payload fetch and the receive WQE fetch each cost a PCIe read round trip.
  EXPECT_GT(e.latencyNs, 3 * s.pcieLatencyNs + s.propagationNs);
}

}  // namespace
}  // namespace rdmascope::sim
