// The simulated librdmacm's CM state machine between two engines on a wire that can lose MADs:
// the handshakes rdma_cm makes (REQ/REP/RTU, REJ, DREQ/DREP, SIDR), the bytes of the MADs,
// and the retransmission on the CM response timeout that lets a lossy fabric still connect.
#include <gtest/gtest.h>

#include <cerrno>
#include <random>

#include "cm_engine.h"
#include "rdmascope/packets/ib_opcodes.h"

namespace rdmascope::simdev::rdmacm {
namespace {

namespace pk = packets;
using std::chrono::milliseconds;

constexpr auto kTimeout = milliseconds(100);

Gid gidOf(std::uint8_t host) {
  Gid g{};
  g[10] = g[11] = 0xff;
  g[12] = 10;
  g[13] = 9;
  g[15] = host;
  return g;
}

pk::IpAddress ipOf(std::uint8_t host) {
  return pk::IpAddress::v4(10, 9, 0, host);
}

// Two hosts' engines and the wire between them, on a clock the test moves.
struct Pair {
  std::mt19937 rng{7};
  std::uint32_t next = 0x1000;
  CmEngine a{config()};
  CmEngine b{config()};
  Clock::time_point now{};
  double loss = 0;
  std::vector<pk::CmMessage> sentByA, sentByB;
  std::vector<CmUpcall> upA, upB;
  int dropped = 0;
  int listenerB = 0;
  int ownerA = 0, ownerB = 0;

  CmEngine::Config config() {
    CmEngine::Config c;
    c.responseTimeout = kTimeout;
    c.maxRetries = 15;
    c.timewait = milliseconds(200);
    c.random = [this] { return next++; };
    c.gidOfIp = [](const pk::IpAddress& ip) -> std::optional<Gid> { return gidOf(ip.bytes[3]); };
    return c;
  }

  // Moves the MADs each engine sent to the other until the wire is quiet.
  void deliver() {
    for (int round = 0; round < 100; ++round) {
      auto fromA = a.takeOutbox();
      auto fromB = b.takeOutbox();
      if (fromA.empty() && fromB.empty()) break;
      carry(fromA, b, gidOf(2), sentByA);
      carry(fromB, a, gidOf(1), sentByB);
      collect();
    }
    collect();
  }

  void carry(std::vector<OutgoingMad>& out, CmEngine& to, const Gid& toGid,
             std::vector<pk::CmMessage>& log) {
    for (const OutgoingMad& m : out) {
      EXPECT_EQ(m.dgid, toGid);
      EXPECT_EQ(m.packet.bth.destQp, 1u);
      ASSERT_TRUE(m.packet.deth);
      EXPECT_EQ(m.packet.deth->qkey, pk::kGsiQkey);
      EXPECT_EQ(m.packet.deth->srcQp, 1u);
      ASSERT_EQ(m.packet.payload.size(), pk::kMadSize);
      const auto h = pk::decodeMadHeader(m.packet.payload);
      log.push_back(*pk::decodeCmMessage(h.attributeId,
                                         std::span(m.packet.payload).subspan(pk::kMadHeaderSize)));
      if (std::uniform_real_distribution<>(0, 1)(rng) < loss) {
        ++dropped;
        continue;
      }
      to.receive(m.packet.payload, now);
    }
  }

  void collect() {
    for (auto& u : a.takeUpcalls())
      upA.push_back(std::move(u));
    for (auto& u : b.takeUpcalls())
      upB.push_back(std::move(u));
  }

  void advance(Clock::duration d) {
    now += d;
    a.tick(now);
    b.tick(now);
    deliver();
  }

  pk::CmReq req(std::uint16_t port = 7174) {
    pk::CmReq r;
    r.serviceId = pk::rdmaIpServiceId(0x06, port);
    r.localQpn = 0x11;
    r.startingPsn = 0xabcdef;
    r.primary.localGid = gidOf(1);
    r.primary.remoteGid = gidOf(2);
    pk::IpCmPrivateData ip;
    ip.srcPort = 40000;
    ip.src = ipOf(1);
    ip.dst = ipOf(2);
    ip.consumerData = {1, 2, 3};
    r.privateData = pk::encodeIpCmPrivateData(ip);
    return r;
  }
};

std::vector<std::string> names(const std::vector<pk::CmMessage>& ms) {
  std::vector<std::string> out;
  for (const auto& m : ms)
    out.emplace_back(cmMessageName(m));
  return out;
}

using Names = std::vector<std::string>;

// Runs the whole RC handshake of rdma_connect/rdma_accept; returns the two connections.
std::pair<std::uint32_t, std::uint32_t> connectPair(Pair& p) {
  EXPECT_TRUE(p.b.listen(pk::rdmaIpServiceId(0x06, 7174), &p.listenerB));
  const auto ca = p.a.connect(gidOf(2), p.req(), &p.ownerA, p.now);
  p.deliver();
  for (int i = 0; i < 40 && p.upB.empty(); ++i)
    p.advance(kTimeout);
  EXPECT_FALSE(p.upB.empty());
  if (p.upB.empty()) return {ca, 0};
  const CmUpcall request = p.upB.front();
  p.upB.clear();
  p.b.adopt(request.conn, &p.ownerB);
  pk::CmRep rep;
  rep.localQpn = 0x12;
  rep.startingPsn = 0x123456;
  EXPECT_TRUE(p.b.accept(request.conn, rep, p.now));
  p.deliver();
  for (int i = 0; i < 40 && p.upA.empty(); ++i)
    p.advance(kTimeout);
  EXPECT_FALSE(p.upA.empty());
  p.upA.clear();
  EXPECT_TRUE(p.a.establish(ca, p.now));
  p.deliver();
  for (int i = 0; i < 40 && p.upB.empty(); ++i)
    p.advance(kTimeout);
  EXPECT_FALSE(p.upB.empty());
  if (!p.upB.empty()) {
    EXPECT_EQ(p.upB.front().kind, CmUpcall::Kind::Established);
  }
  p.upB.clear();
  return {ca, request.conn};
}

TEST(RdmacmEngine, ConnectsWithReqRepRtu) {
  Pair p;
  ASSERT_TRUE(p.b.listen(pk::rdmaIpServiceId(0x06, 7174), &p.listenerB));
  const auto ca = p.a.connect(gidOf(2), p.req(), &p.ownerA, p.now);
  EXPECT_EQ(p.a.state(ca), CmEngine::State::ReqSent);
  p.deliver();
  ASSERT_EQ(p.upB.size(), 1u);
  const CmUpcall& r = p.upB[0];
  EXPECT_EQ(r.kind, CmUpcall::Kind::ConnectRequest);
  EXPECT_EQ(r.owner, &p.listenerB);
  EXPECT_EQ(r.peer, gidOf(1));
  const auto& got = std::get<pk::CmReq>(*r.message);
  EXPECT_EQ(got.localCommId, ca);
  EXPECT_EQ(got.localQpn, 0x11u);
  EXPECT_EQ(got.startingPsn, 0xabcdefu);
  EXPECT_EQ(got.maxCmRetries, 15);
  const auto ip = pk::decodeIpCmPrivateData(got.privateData);
  ASSERT_TRUE(ip);
  EXPECT_EQ(ip->srcPort, 40000);
  EXPECT_EQ(ip->consumerData[2], 3);
  const std::uint32_t cb = r.conn;
  p.b.adopt(cb, &p.ownerB);
  p.upB.clear();

  pk::CmRep rep;
  rep.localQpn = 0x12;
  rep.startingPsn = 0x123456;
  rep.privateData = {9, 8};
  ASSERT_TRUE(p.b.accept(cb, rep, p.now));
  p.deliver();
  ASSERT_EQ(p.upA.size(), 1u);
  EXPECT_EQ(p.upA[0].kind, CmUpcall::Kind::ConnectResponse);
  EXPECT_EQ(p.upA[0].owner, &p.ownerA);
  const auto& gotRep = std::get<pk::CmRep>(*p.upA[0].message);
  EXPECT_EQ(gotRep.localQpn, 0x12u);
  EXPECT_EQ(gotRep.remoteCommId, ca);
  EXPECT_EQ(gotRep.localCommId, cb);
  EXPECT_EQ(gotRep.privateData[1], 8);
  EXPECT_EQ(p.a.remoteId(ca), cb);

  ASSERT_TRUE(p.a.establish(ca, p.now));
  p.deliver();
  ASSERT_EQ(p.upB.size(), 1u);
  EXPECT_EQ(p.upB[0].kind, CmUpcall::Kind::Established);
  EXPECT_EQ(p.a.state(ca), CmEngine::State::Established);
  EXPECT_EQ(p.b.state(cb), CmEngine::State::Established);
  EXPECT_EQ(names(p.sentByA), (Names{"REQ", "RTU"}));
  EXPECT_EQ(names(p.sentByB), (Names{"REP"}));
  // REQ, REP and RTU share the REQ's transaction ID, as Linux's CM numbers them.
  EXPECT_FALSE(p.a.nextDeadline());
}

TEST(RdmacmEngine, NoListenerRejectsWithInvalidServiceId) {
  Pair p;
  const auto ca = p.a.connect(gidOf(2), p.req(9999), &p.ownerA, p.now);
  p.deliver();
  EXPECT_TRUE(p.upA.empty());  // the REQ waits the grace period for a listener
  p.advance(std::chrono::milliseconds(499));
  EXPECT_TRUE(p.upA.empty());
  p.advance(std::chrono::milliseconds(1));
  ASSERT_EQ(p.upA.size(), 1u);
  EXPECT_EQ(p.upA[0].kind, CmUpcall::Kind::Rejected);
  EXPECT_EQ(p.upA[0].status, kRejInvalidServiceId);
  EXPECT_EQ(p.upA[0].conn, ca);
  EXPECT_EQ(names(p.sentByB), (Names{"REJ"}));
  EXPECT_TRUE(p.upB.empty());
}

TEST(RdmacmEngine, AReqJustBeforeTheListenerIsServedWhenItListens) {
  Pair p;
  p.a.connect(gidOf(2), p.req(), &p.ownerA, p.now);
  p.deliver();
  p.advance(std::chrono::milliseconds(100));
  EXPECT_TRUE(p.upA.empty());
  EXPECT_TRUE(p.upB.empty());
  ASSERT_TRUE(p.b.listen(pk::rdmaIpServiceId(0x06, 7174), &p.listenerB));
  p.collect();
  ASSERT_EQ(p.upB.size(), 1u);
  EXPECT_EQ(p.upB[0].kind, CmUpcall::Kind::ConnectRequest);
  p.advance(std::chrono::seconds(1));  // past the grace period: no REJ goes out
  for (const auto& name : names(p.sentByB))
    EXPECT_NE(name, "REJ");
}

TEST(RdmacmEngine, ConsumerRejectCarriesPrivateData) {
  Pair p;
  ASSERT_TRUE(p.b.listen(pk::rdmaIpServiceId(0x06, 7174), &p.listenerB));
  p.a.connect(gidOf(2), p.req(), &p.ownerA, p.now);
  p.deliver();
  ASSERT_EQ(p.upB.size(), 1u);
  p.b.adopt(p.upB[0].conn, &p.ownerB);
  const std::uint8_t why[] = {0x42, 0x43};
  ASSERT_TRUE(p.b.reject(p.upB[0].conn, kRejConsumer, why, p.now));
  p.deliver();
  ASSERT_EQ(p.upA.size(), 1u);
  EXPECT_EQ(p.upA[0].kind, CmUpcall::Kind::Rejected);
  EXPECT_EQ(p.upA[0].status, 28);
  const auto& rej = std::get<pk::CmRej>(*p.upA[0].message);
  EXPECT_EQ(rej.privateData[0], 0x42);
  EXPECT_EQ(rej.messageRejected, 0);
  // A second accept of the rejected request fails.
  EXPECT_FALSE(p.b.accept(p.upB[0].conn, pk::CmRep{}, p.now));
}

TEST(RdmacmEngine, LostReqIsSentAgainAfterTheResponseTimeout) {
  Pair p;
  ASSERT_TRUE(p.b.listen(pk::rdmaIpServiceId(0x06, 7174), &p.listenerB));
  p.a.connect(gidOf(2), p.req(), &p.ownerA, p.now);
  p.a.takeOutbox();  // the wire loses the first REQ
  p.advance(kTimeout / 2);
  EXPECT_TRUE(p.upB.empty());
  p.advance(kTimeout / 2);
  ASSERT_EQ(p.upB.size(), 1u);
  EXPECT_EQ(names(p.sentByA), (Names{"REQ"}));
}

TEST(RdmacmEngine, DuplicateReqGetsTheRepAgainAndLostRtuIsRecovered) {
  Pair p;
  ASSERT_TRUE(p.b.listen(pk::rdmaIpServiceId(0x06, 7174), &p.listenerB));
  const auto ca = p.a.connect(gidOf(2), p.req(), &p.ownerA, p.now);
  p.deliver();
  const auto cb = p.upB.at(0).conn;
  p.b.adopt(cb, &p.ownerB);
  p.upB.clear();
  p.advance(kTimeout / 2);
  pk::CmRep rep;
  rep.localQpn = 0x12;
  ASSERT_TRUE(p.b.accept(cb, rep, p.now));
  p.b.takeOutbox();  // the REP is lost: A sends the REQ again, B answers it with the REP
  p.advance(kTimeout / 2);
  ASSERT_EQ(p.upA.size(), 1u);
  EXPECT_EQ(p.upA[0].kind, CmUpcall::Kind::ConnectResponse);
  EXPECT_TRUE(p.upB.empty());  // the duplicate REQ made no second request
  ASSERT_TRUE(p.a.establish(ca, p.now));
  p.a.takeOutbox();  // the RTU is lost: B's REP comes again and A answers it with the RTU
  p.advance(kTimeout / 2);
  ASSERT_EQ(p.upB.size(), 1u);
  EXPECT_EQ(p.upB[0].kind, CmUpcall::Kind::Established);
  EXPECT_EQ(names(p.sentByA), (Names{"REQ", "REQ", "RTU"}));
  EXPECT_EQ(names(p.sentByB), (Names{"REP", "REP"}));
}

TEST(RdmacmEngine, DisconnectWithDreqDrepThenTimewait) {
  Pair p;
  const auto [ca, cb] = connectPair(p);
  ASSERT_TRUE(p.a.disconnect(ca, p.now));
  p.deliver();
  ASSERT_EQ(p.upB.size(), 1u);
  EXPECT_EQ(p.upB[0].kind, CmUpcall::Kind::Disconnected);
  EXPECT_TRUE(p.upA.empty());  // A waits for the DREP
  ASSERT_TRUE(p.b.disconnect(cb, p.now));
  p.deliver();
  ASSERT_EQ(p.upA.size(), 1u);
  EXPECT_EQ(p.upA[0].kind, CmUpcall::Kind::Disconnected);
  EXPECT_EQ(p.a.state(ca), CmEngine::State::TimeWait);
  p.upA.clear();
  p.upB.clear();
  p.advance(milliseconds(210));
  ASSERT_EQ(p.upA.size(), 1u);
  EXPECT_EQ(p.upA[0].kind, CmUpcall::Kind::TimewaitExit);
  ASSERT_EQ(p.upB.size(), 1u);
  EXPECT_EQ(p.upB[0].kind, CmUpcall::Kind::TimewaitExit);
  EXPECT_EQ(p.a.state(ca), CmEngine::State::Closed);
}

TEST(RdmacmEngine, ReleasedEstablishedConnectionSendsDreqAndAnswersWithoutUpcalls) {
  Pair p;
  const auto [ca, cb] = connectPair(p);
  p.a.release(ca, p.now);
  EXPECT_TRUE(p.a.waiting(ca));
  p.deliver();
  ASSERT_EQ(p.upB.size(), 1u);
  p.b.release(cb, p.now);  // B's owner goes too: the DREP is sent on its own
  p.deliver();
  EXPECT_FALSE(p.a.waiting(ca));
  EXPECT_TRUE(p.upA.empty());
  EXPECT_EQ(names(p.sentByB), (Names{"REP", "DREP"}));
}

TEST(RdmacmEngine, SidrResolvesTheServingQp) {
  Pair p;
  ASSERT_TRUE(p.b.listen(pk::rdmaIpServiceId(0x11, 7174), &p.listenerB));
  pk::CmSidrReq q;
  q.serviceId = pk::rdmaIpServiceId(0x11, 7174);
  pk::IpCmPrivateData ip;
  ip.src = ipOf(1);
  ip.dst = ipOf(2);
  q.privateData = pk::encodeIpCmPrivateData(ip);
  const auto ca = p.a.resolveSidr(gidOf(2), q, &p.ownerA, p.now);
  p.deliver();
  ASSERT_EQ(p.upB.size(), 1u);
  EXPECT_EQ(p.upB[0].kind, CmUpcall::Kind::SidrRequest);
  EXPECT_EQ(p.upB[0].peer, gidOf(1));
  pk::CmSidrRep rep;
  rep.qpn = 0x33;
  rep.qkey = 0x01234567;
  const auto cb = p.upB[0].conn;
  p.b.adopt(cb, &p.ownerB);
  // The first SIDR_REP is lost; the SIDR_REQ comes again and gets the same answer.
  ASSERT_TRUE(p.b.answerSidr(cb, rep, p.now));
  p.b.takeOutbox();
  p.advance(kTimeout);
  ASSERT_EQ(p.upA.size(), 1u);
  EXPECT_EQ(p.upA[0].kind, CmUpcall::Kind::SidrResolved);
  EXPECT_EQ(p.upA[0].conn, ca);
  EXPECT_EQ(p.upA[0].status, 0);
  const auto& got = std::get<pk::CmSidrRep>(*p.upA[0].message);
  EXPECT_EQ(got.qpn, 0x33u);
  EXPECT_EQ(got.qkey, 0x01234567u);
  EXPECT_EQ(names(p.sentByA), (Names{"SIDR_REQ", "SIDR_REQ"}));
  EXPECT_EQ(p.upB.size(), 1u);
  // B stays for a SIDR_REQ sent again after the one it answered last.
  ASSERT_TRUE(p.b.lingerUntil());
  EXPECT_EQ(*p.b.lingerUntil(), p.now + kTimeout + std::chrono::nanoseconds(kTimeout) / 8);
}

TEST(RdmacmEngine, SidrWithoutListenerAnswersUnsupported) {
  Pair p;
  pk::CmSidrReq q;
  q.serviceId = pk::rdmaIpServiceId(0x11, 1);
  pk::IpCmPrivateData ip;
  ip.src = ipOf(1);
  ip.dst = ipOf(2);
  q.privateData = pk::encodeIpCmPrivateData(ip);
  p.a.resolveSidr(gidOf(2), q, &p.ownerA, p.now);
  p.deliver();
  ASSERT_EQ(p.upA.size(), 1u);
  EXPECT_EQ(p.upA[0].kind, CmUpcall::Kind::SidrResolved);
  EXPECT_EQ(p.upA[0].status, kSidrUnsupported);
}

TEST(RdmacmEngine, UnansweredReqEndsUnreachableAfterEveryRetry) {
  Pair p;
  p.loss = 1.0;
  const auto ca = p.a.connect(gidOf(2), p.req(), &p.ownerA, p.now);
  p.deliver();
  for (int i = 0; i < 15; ++i)
    p.advance(kTimeout);
  EXPECT_TRUE(p.upA.empty());
  p.advance(kTimeout);
  ASSERT_EQ(p.upA.size(), 1u);
  EXPECT_EQ(p.upA[0].kind, CmUpcall::Kind::Unreachable);
  EXPECT_EQ(p.upA[0].status, -ETIMEDOUT);
  EXPECT_EQ(p.sentByA.size(), 16u);  // the REQ and 15 retries
  EXPECT_EQ(p.a.state(ca), CmEngine::State::Closed);
}

TEST(RdmacmEngine, TenPercentLossStillConnectsAndDisconnectsEveryTime) {
  for (int run = 0; run < 50; ++run) {
    Pair p;
    p.rng.seed(static_cast<unsigned>(run));
    p.loss = 0.1;
    const auto [ca, cb] = connectPair(p);
    ASSERT_NE(cb, 0u) << "run " << run;
    EXPECT_EQ(p.a.state(ca), CmEngine::State::Established) << "run " << run;
    ASSERT_TRUE(p.a.disconnect(ca, p.now));
    p.deliver();
    for (int i = 0; i < 40 && p.upB.empty(); ++i)
      p.advance(kTimeout);
    ASSERT_EQ(p.upB.size(), 1u) << "run " << run;
    EXPECT_EQ(p.upB[0].kind, CmUpcall::Kind::Disconnected);
    ASSERT_TRUE(p.b.disconnect(cb, p.now));
    p.deliver();
    for (int i = 0; i < 40 && p.upA.empty(); ++i)
      p.advance(kTimeout);
    ASSERT_EQ(p.upA.size(), 1u) << "run " << run;
    EXPECT_EQ(p.upA[0].kind, CmUpcall::Kind::Disconnected);
  }
}

}  // namespace
}  // namespace rdmascope::simdev::rdmacm

namespace rdmascope::simdev::rdmacm {
namespace {

TEST(RdmacmEngine, ResponseTimeoutIsRdmaCmsFourPointThreeSeconds) {
  // CMA_CM_RESPONSE_TIMEOUT 20: 4.096 us x 2^20.
  EXPECT_EQ(kCmResponseTimeout.count(), 4096LL * 1048576);
  EXPECT_EQ(CmEngine::Config{}.responseTimeout, kCmResponseTimeout);
  EXPECT_GT(CmEngine::Config{}.timewait, kCmResponseTimeout);
}

}  // namespace
}  // namespace rdmascope::simdev::rdmacm

namespace rdmascope::simdev::rdmacm {
namespace {

TEST(RdmacmEngine, AnsweringADreqKeepsTheProcessForItsRetransmission) {
  Pair p;
  const auto [ca, cb] = connectPair(p);
  EXPECT_FALSE(p.b.lingerUntil());
  ASSERT_TRUE(p.a.disconnect(ca, p.now));
  p.deliver();
  const auto arrived = p.now;
  ASSERT_TRUE(p.b.disconnect(cb, p.now));
  p.b.takeOutbox();  // B's DREP is lost
  ASSERT_TRUE(p.b.lingerUntil());
  EXPECT_GT(*p.b.lingerUntil(), arrived + kTimeout);
  EXPECT_FALSE(p.a.lingerUntil());  // A sent the DREQ: it waits in rdma_destroy_id instead
  p.upA.clear();
  p.advance(kTimeout);  // A's DREQ again: B, in timewait, answers it
  ASSERT_EQ(p.upA.size(), 1u);
  EXPECT_EQ(p.upA[0].kind, CmUpcall::Kind::Disconnected);
  EXPECT_EQ(*p.b.lingerUntil(), p.now + kTimeout + std::chrono::nanoseconds(kTimeout) / 8);
}

}  // namespace
}  // namespace rdmascope::simdev::rdmacm
