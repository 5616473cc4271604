#pragma once
// Helpers for simulator tests: two connected QPs with registered buffers.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "rdmascope/sim/network.h"

namespace rdmascope::sim::testing {

struct Side {
  std::uint32_t pd = 0, cq = 0, qpn = 0;
  MemoryRegionInfo mr;
  std::uint64_t buf = 0;
};

struct Pair {
  std::unique_ptr<Network> net;
  Side a, b;
  Host& ha() { return net->host(0); }
  Host& hb() { return net->host(1); }
  std::span<std::uint8_t> mem(int host, std::uint64_t off, std::uint64_t len) {
    Side& s = host == 0 ? a : b;
    return net->host(host).memory(s.buf + off, len);
  }
};

struct PairOptions {
  QpType type = QpType::RC;
  Mtu mtu = Mtu::Mtu1024;
  std::uint64_t bufSize = 1 << 20;
  std::uint8_t timeout = 14, retryCnt = 7, rnrRetry = 7, minRnrTimer = 12;
  std::uint32_t psnA = 0x100, psnB = 0x200;
  int cqDepth = 4096;
  std::uint32_t maxWr = 1024;
  NetworkConfig config = Network::defaultConfig();
};

inline Side makeSide(Host& h, const PairOptions& o) {
  Side s;
  s.pd = h.allocPd().value;
  s.cq = h.createCq(o.cqDepth).value;
  s.buf = h.allocate(o.bufSize);
  auto mr = h.regMr(
      s.pd, s.buf, o.bufSize,
      access::kLocalWrite | access::kRemoteWrite | access::kRemoteRead | access::kRemoteAtomic);
  EXPECT_TRUE(mr.ok()) << mr.status.message;
  s.mr = mr.value;
  QpInitAttr init;
  init.qpType = o.type;
  init.sendCq = init.recvCq = s.cq;
  init.cap.maxSendWr = init.cap.maxRecvWr = o.maxWr;
  auto q = h.createQp(s.pd, init);
  EXPECT_TRUE(q.ok()) << q.status.message;
  s.qpn = q.value;
  return s;
}

inline void bringUp(Host& h, Side& s, Host& peer, Side& ps, const PairOptions& o,
                    std::uint32_t myPsn, std::uint32_t peerPsn) {
  namespace m = attr_mask;
  QpAttr a;
  a.qpState = QpState::Init;
  a.pkeyIndex = 0;
  a.portNum = 1;
  a.qkey = 0x11111111;
  a.qpAccessFlags = access::kRemoteWrite | access::kRemoteRead | access::kRemoteAtomic;
  unsigned mask = m::kState | m::kPkeyIndex | m::kPort;
  mask |= o.type == QpType::UD ? m::kQkey : m::kAccessFlags;
  ASSERT_TRUE(h.modifyQp(s.qpn, a, mask).ok());
  a.qpState = QpState::Rtr;
  if (o.type == QpType::UD) {
    mask = m::kState;
  } else {
    a.pathMtu = o.mtu;
    a.destQpNum = ps.qpn;
    a.rqPsn = peerPsn;
    a.ahAttr.isGlobal = true;
    a.ahAttr.dgid = peer.gid();
    a.ahAttr.dlid = peer.config().lid;
    a.maxDestRdAtomic = 16;
    a.minRnrTimer = o.minRnrTimer;
    mask = m::kState | m::kAv | m::kPathMtu | m::kDestQpn | m::kRqPsn;
    if (o.type == QpType::RC) mask |= m::kMaxDestRdAtomic | m::kMinRnrTimer;
  }
  auto st = h.modifyQp(s.qpn, a, mask);
  ASSERT_TRUE(st.ok()) << st.message;
  a.qpState = QpState::Rts;
  a.sqPsn = myPsn;
  a.timeout = o.timeout;
  a.retryCnt = o.retryCnt;
  a.rnrRetry = o.rnrRetry;
  a.maxRdAtomic = 16;
  mask = m::kState | m::kSqPsn;
  if (o.type == QpType::RC) mask |= m::kTimeout | m::kRetryCnt | m::kRnrRetry | m::kMaxQpRdAtomic;
  st = h.modifyQp(s.qpn, a, mask);
  ASSERT_TRUE(st.ok()) << st.message;
}

inline Pair makePair(PairOptions o) {
  Pair p;
  o.config.captureFrames = true;
  p.net = std::make_unique<Network>(o.config);
  p.a = makeSide(p.ha(), o);
  p.b = makeSide(p.hb(), o);
  bringUp(p.ha(), p.a, p.hb(), p.b, o, o.psnA, o.psnB);
  bringUp(p.hb(), p.b, p.ha(), p.a, o, o.psnB, o.psnA);
  return p;
}

inline std::vector<PacketSummary> packets(Network& net) {
  std::vector<PacketSummary> out;
  for (const CapturedFrame& f : net.frames()) {
    out.push_back(summarizeFrame(net.config().wire, f.bytes));
  }
  return out;
}

inline std::vector<std::string> opcodeNames(Network& net) {
  std::vector<std::string> out;
  for (const auto& p : packets(net))
    out.push_back(p.opcodeName);
  return out;
}

inline SendWr sendWr(std::uint64_t id, WrOpcode op, const Side& s, std::uint64_t off,
                     std::uint32_t len, const Side& remote, std::uint64_t roff = 0) {
  SendWr wr;
  wr.wrId = id;
  wr.opcode = op;
  wr.sendFlags = send_flags::kSignaled;
  wr.sgList = {Sge{s.buf + off, len, s.mr.lkey}};
  wr.remoteAddr = remote.buf + roff;
  wr.rkey = remote.mr.rkey;
  return wr;
}

inline RecvWr recvWr(std::uint64_t id, const Side& s, std::uint64_t off, std::uint32_t len) {
  RecvWr wr;
  wr.wrId = id;
  wr.sgList = {Sge{s.buf + off, len, s.mr.lkey}};
  return wr;
}

inline void fill(std::span<std::uint8_t> m, std::uint8_t seed) {
  for (std::size_t i = 0; i < m.size(); ++i)
    m[i] = static_cast<std::uint8_t>(seed + i * 7);
}

/// A's one completion is a success and B's first `len` bytes equal A's (a WRITE that landed).
inline void expectWriteLanded(Pair& p, std::uint64_t len) {
  auto wc = p.ha().pollCq(p.a.cq, 4);
  ASSERT_EQ(wc.size(), 1u);
  EXPECT_EQ(wc[0].status, WcStatus::Success);
  auto a = p.mem(0, 0, len), b = p.mem(1, 0, len);
  EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin()));
}

}  // namespace rdmascope::sim::testing
