#include "rdmascope/sim/ceph_messenger.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "rdmascope/sim/network.h"

namespace rdmascope::sim {
namespace {

CephStackReport run(CephStack stack, CephMessengerOptions o = {}) {
  std::string error;
  auto r = runCephMessenger(stack, o, error);
  EXPECT_TRUE(r.has_value()) << error;
  return r ? *r : CephStackReport{};
}

std::vector<CephStep> stepsOf(const CephStackReport& r, CephStepKind kind, int host = -1) {
  std::vector<CephStep> out;
  for (const auto& s : r.steps)
    if (s.kind == kind && (host < 0 || s.host == host)) out.push_back(s);
  return out;
}

// The RoCEv2 frames among a run's frames (UDP port 4791), parsed.
std::vector<PacketSummary> roce(const CephStackReport& r) {
  std::vector<PacketSummary> out;
  for (const auto& f : r.frames) {
    auto p = summarizeFrame(WireFormat::RoceV2Ipv4, f.bytes);
    if (p.ok) out.push_back(p);
  }
  return out;
}

TEST(CephMessenger, QpInfoIsCephsFixedTextFormat) {
  Gid gid{};
  gid[10] = 0xff;
  gid[11] = 0xff;
  gid[12] = 10;
  gid[15] = 1;
  const std::string t = formatCephQpInfo(0, 0x11, 0xabcdef, 0, gid);
  EXPECT_EQ(t, "0000:00000011:00abcdef:00000000:00000000000000000000ffff0a000001");
  EXPECT_EQ(t.size() + 1, kCephQpInfoBytes);
  const auto back = parseCephQpInfo(t);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->qpn, 0x11u);
  EXPECT_EQ(back->psn, 0xabcdefu);
  EXPECT_EQ(back->gid, gid);
  EXPECT_FALSE(parseCephQpInfo("0000:00000011:00abcdef:00000000"));
  EXPECT_FALSE(parseCephQpInfo(std::string(64, 'g')));
}

TEST(CephMessenger, QpInfoTravelsOverTheTcpSideChannel) {
  const auto r = run(CephStack::Rdma);
  ASSERT_EQ(stepsOf(r, CephStepKind::QpInfoSent).size(), 3u);
  const auto client = parseCephQpInfo(r.qpInfo[0]);
  const auto osd = parseCephQpInfo(r.qpInfo[1]);
  const auto ack = parseCephQpInfo(r.qpInfo[2]);
  ASSERT_TRUE(client && osd && ack);
  EXPECT_EQ(client->peerQpn, 0u);
  EXPECT_EQ(osd->peerQpn, client->qpn);
  EXPECT_EQ(ack->peerQpn, osd->qpn);
  // The messages are TCP payload on port 6800, and the SENDs go to the QPN they named.
  int seen = 0;
  for (const auto& f : r.frames) {
    const std::string bytes(f.bytes.begin(), f.bytes.end());
    for (const auto& text : r.qpInfo)
      if (bytes.find(text + '\0') != std::string::npos) ++seen;
  }
  EXPECT_EQ(seen, 3);
  EXPECT_GT(r.tcpFrames, 6u);  // handshake, three messages, their ACKs, the close
  for (const auto& p : roce(r)) {
    if (p.opcodeName.find("SEND") != std::string::npos) {
      EXPECT_EQ(p.destQp, osd->qpn);
    }
  }
}

TEST(CephMessenger, ChunkSizeSplitsA300KiBMessageIntoThreeSends) {
  CephMessengerOptions o;
  o.messages = 1;
  o.messageBytes = 300 * 1024;
  const auto r = run(CephStack::Rdma, o);
  EXPECT_TRUE(r.dataIntact);
  const auto posts = stepsOf(r, CephStepKind::PostSend);
  ASSERT_EQ(posts.size(), 1u);
  EXPECT_EQ(posts[0].chunks, 3u);
  EXPECT_EQ(r.sendWrs, 4u);  // three chunks and the fin
  // 128 KiB, 128 KiB and 44 KiB: RoCE MTU 1024 gives 128 + 128 + 44 packets.
  int firsts = 0, onlies = 0;
  std::uint64_t payload = 0;
  for (const auto& p : roce(r)) {
    if (p.opcodeName == "RC SEND FIRST") ++firsts;
    if (p.opcodeName == "RC SEND ONLY") ++onlies;
    if (p.opcodeName.find("SEND") != std::string::npos) payload += p.payloadLen;
  }
  EXPECT_EQ(firsts, 3);
  EXPECT_EQ(onlies, 1);  // the fin
  EXPECT_EQ(payload, 300u * 1024);
  const auto copies = stepsOf(r, CephStepKind::CopyIntoChunk, 0);
  ASSERT_EQ(copies.size(), 3u);
  EXPECT_EQ(copies[0].bytes, kCephRdmaBufferSize);
  EXPECT_EQ(copies[2].bytes, 300u * 1024 - 2 * kCephRdmaBufferSize);
  EXPECT_EQ(r.hosts[0].copies, 3u);
  EXPECT_EQ(r.hosts[0].copyBytes, 300u * 1024);
  EXPECT_EQ(r.hosts[1].copies, 3u);
  EXPECT_EQ(r.hosts[1].copyBytes, 300u * 1024);
}

TEST(CephMessenger, MessageInRegisteredChunkIsNotCopied) {
  CephMessengerOptions o;
  o.preRegistered = true;
  const auto r = run(CephStack::Rdma, o);
  EXPECT_TRUE(r.dataIntact);
  EXPECT_EQ(r.hosts[0].copies, 0u);
  EXPECT_EQ(r.hosts[0].copyBytes, 0u);
  EXPECT_TRUE(stepsOf(r, CephStepKind::CopyIntoChunk).empty());
  EXPECT_EQ(stepsOf(r, CephStepKind::ChunkInPlace).size(), 9u);
  // The receiver still copies out of its chunks.
  EXPECT_EQ(r.hosts[1].copyBytes, 3u * 300 * 1024);
  const auto copied = run(CephStack::Rdma);
  EXPECT_LT(r.hosts[0].cpuNs, copied.hosts[0].cpuNs);
}

TEST(CephMessenger, CloseIsAZeroLengthSend) {
  const auto r = run(CephStack::Rdma);
  ASSERT_EQ(stepsOf(r, CephStepKind::FinSent, 0).size(), 1u);
  ASSERT_EQ(stepsOf(r, CephStepKind::FinReceived, 1).size(), 1u);
  EXPECT_TRUE(r.finReceived);
  const auto packets = roce(r);
  const auto last = std::find_if(packets.rbegin(), packets.rend(), [](const PacketSummary& p) {
    return p.opcodeName.find("SEND") != std::string::npos;
  });
  ASSERT_NE(last, packets.rend());
  EXPECT_EQ(last->opcodeName, "RC SEND ONLY");
  EXPECT_EQ(last->payloadLen, 0u);
  const auto fin = stepsOf(r, CephStepKind::FinReceived, 1)[0];
  const auto recv = stepsOf(r, CephStepKind::RecvCompletion, 1);
  EXPECT_EQ(recv.back().bytes, 0u);
  EXPECT_LE(recv.back().time, fin.time);
}

TEST(CephMessenger, ReceiveChunksAreReposted) {
  CephMessengerOptions o;
  o.receiveBuffers = 4;  // 9 chunks of data and a fin through an SRQ of 4
  const auto r = run(CephStack::Rdma, o);
  EXPECT_TRUE(r.dataIntact);
  const auto recv = stepsOf(r, CephStepKind::RecvCompletion, 1);
  const auto reposted = stepsOf(r, CephStepKind::ChunkReposted, 1);
  EXPECT_EQ(recv.size(), 10u);
  EXPECT_EQ(reposted.size(), 10u);
  EXPECT_EQ(r.chunksReposted, 10u);
  // Only 4 chunks exist: chunks are used again once reposted.
  for (const auto& s : recv)
    EXPECT_LT(s.chunk, 4);
  // Every copy out is followed by the repost of the same chunk.
  const auto outs = stepsOf(r, CephStepKind::CopyOut, 1);
  ASSERT_EQ(outs.size(), 9u);
  for (std::size_t i = 0; i < outs.size(); ++i)
    EXPECT_EQ(outs[i].chunk, reposted[i].chunk);
}

TEST(CephMessenger, SmallSendPoolWaitsForCompletions) {
  CephMessengerOptions o;
  o.messages = 1;
  o.sendBuffers = 2;
  const auto r = run(CephStack::Rdma, o);
  EXPECT_TRUE(r.dataIntact);
  EXPECT_FALSE(stepsOf(r, CephStepKind::PoolEmpty).empty());
  EXPECT_EQ(stepsOf(r, CephStepKind::PostSend).size(), 2u);
}

TEST(CephMessenger, TcpStackCopiesEachMessageTwice) {
  CephMessengerOptions o;
  o.messageBytes = 1000;
  o.messages = 5;
  const auto r = run(CephStack::Posix, o);
  EXPECT_TRUE(r.dataIntact);
  EXPECT_EQ(r.hosts[0].copies + r.hosts[1].copies, 2u * 5);
  EXPECT_EQ(r.hosts[0].copyBytes, 5000u);
  EXPECT_EQ(r.hosts[1].copyBytes, 5000u);
  EXPECT_EQ(stepsOf(r, CephStepKind::SocketSend).size(), 5u);
  // Large messages: every byte is still copied exactly twice, once into and once out of the
  // kernel, however many recv() calls it takes.
  o.messageBytes = 300 * 1024;
  o.messages = 3;
  const auto big = run(CephStack::Posix, o);
  EXPECT_TRUE(big.dataIntact);
  EXPECT_EQ(big.hosts[0].copyBytes, 3u * 300 * 1024);
  EXPECT_EQ(big.hosts[1].copyBytes, 3u * 300 * 1024);
  EXPECT_GE(big.hosts[1].syscalls, 3u);
  EXPECT_GT(big.hosts[1].interrupts, 0u);
}

TEST(CephMessenger, BothStacksDeliverTheSameBytes) {
  const auto rdma = run(CephStack::Rdma);
  const auto tcp = run(CephStack::Posix);
  EXPECT_TRUE(rdma.dataIntact);
  EXPECT_TRUE(tcp.dataIntact);
  EXPECT_EQ(rdma.payloadBytes, 3u * 300 * 1024);
  EXPECT_EQ(tcp.payloadBytes, rdma.payloadBytes);
  ASSERT_EQ(rdma.latencyUs.size(), 3u);
  ASSERT_EQ(tcp.latencyUs.size(), 3u);
  EXPECT_GT(rdma.roceFrames, 300u * 3);
  EXPECT_EQ(rdma.roceFrames + rdma.tcpFrames, rdma.frames.size());
  // The RDMA stack's data path makes no system call per byte: only eventfd wakeups and the
  // side channel; the TCP stack's receiver takes interrupts for its segments.
  EXPECT_LT(rdma.hosts[1].cpuNs, tcp.hosts[1].cpuNs);
  for (std::size_t i = 1; i < rdma.frames.size(); ++i)
    EXPECT_LE(rdma.frames[i - 1].timePs, rdma.frames[i].timePs);
}

TEST(CephMessenger, BadOptionsAreRejected) {
  std::string error;
  CephMessengerOptions o;
  o.messageBytes = 0;
  EXPECT_FALSE(runCephMessenger(CephStack::Rdma, o, error));
  EXPECT_NE(error.find("message size"), std::string::npos);
  o = {};
  o.messages = 0;
  EXPECT_FALSE(runCephMessenger(CephStack::Posix, o, error));
  EXPECT_NE(error.find("message count"), std::string::npos);
  o = {};
  o.receiveBuffers = 5000;
  EXPECT_FALSE(runCephMessenger(CephStack::Rdma, o, error));
  EXPECT_NE(error.find("receive buffers"), std::string::npos);
}

}  // namespace
}  // namespace rdmascope::sim
