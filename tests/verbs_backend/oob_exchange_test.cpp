#include "rdmascope/verbs_backend/oob_exchange.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <thread>

namespace rdmascope::verbs_backend {
namespace {

using namespace std::chrono_literals;

PeerInfo sample(std::uint32_t qpn) {
  PeerInfo p;
  p.lid = 0;
  p.qpn = qpn;
  p.psn = 0x5d30ae;
  p.gid = {0, 0, 0,    0,    0,  0, 0, 0,
           0, 0, 0xff, 0xff, 10, 9, 0, static_cast<std::uint8_t>(qpn & 0xff)};
  p.addr = 0x7f00deadbeef000ull;
  p.rkey = 0x1234abcd;
  p.length = 65536;
  return p;
}

TEST(OobExchange, PeerInfoLineRoundTrips) {
  const PeerInfo p = sample(0x11);
  const std::string line = formatPeerInfo(p);
  EXPECT_EQ(line,
            "rdmascope-oob 1 lid 0000 qpn 000011 psn 5d30ae gid 00000000000000000000ffff0a090011 "
            "addr 07f00deadbeef000 rkey 1234abcd len 10000");
  auto parsed = parsePeerInfo(line);
  ASSERT_TRUE(parsed.ok()) << parsed.status.message;
  EXPECT_EQ(parsed.value, p);
}

TEST(OobExchange, MalformedLinesAreProtocolErrors) {
  for (std::string_view bad :
       {"", "hello", "rdmascope-oob 1 lid 0000",
        "rdmascope-oob 1 lid 0000 qpn 000011 psn 5d30ae gid 00 addr 0 rkey 0 len 0",
        "rdmascope-oob 1 lid 0000 qpn 1000000 psn 0 gid 00000000000000000000ffff0a090011 addr 0 "
        "rkey 0 len 0",
        "rdmascope-oob 1 lid 0000 qpn 11 psn 0 gid 00000000000000000000ffff0a09001x addr 0 rkey 0 "
        "len 0",
        "rdmascope-oob 1 qpn 0000 lid 11 psn 0 gid 00000000000000000000ffff0a090011 addr 0 rkey 0 "
        "len 0"}) {
    auto r = parsePeerInfo(bad);
    EXPECT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status.errnum, EPROTO) << bad;
    EXPECT_NE(r.status.message.find("bad out-of-band message"), std::string::npos);
  }
}

TEST(OobExchange, ExchangesAndSynchronisesOverLoopbackTcp) {
  auto listener = OobListener::listen(0);
  ASSERT_TRUE(listener.ok()) << listener.status.message;
  ASSERT_NE(listener.value.port(), 0);
  Result<PeerInfo> clientGot;
  Status clientBarrier;
  std::thread client([&] {
    auto c = OobConnection::connect("127.0.0.1", listener.value.port(), 5s);
    if (!c.ok()) {
      clientGot.status = c.status;
      return;
    }
    clientGot = c.value.exchange(sample(0x22), 5s);
    clientBarrier = c.value.barrier("done", 5s);
  });
  auto server = listener.value.accept(5s);
  ASSERT_TRUE(server.ok()) << server.status.message;
  auto serverGot = server.value.exchange(sample(0x11), 5s);
  Status serverBarrier = server.value.barrier("done", 5s);
  client.join();
  ASSERT_TRUE(serverGot.ok()) << serverGot.status.message;
  ASSERT_TRUE(clientGot.ok()) << clientGot.status.message;
  EXPECT_EQ(serverGot.value, sample(0x22));
  EXPECT_EQ(clientGot.value, sample(0x11));
  EXPECT_TRUE(serverBarrier.ok()) << serverBarrier.message;
  EXPECT_TRUE(clientBarrier.ok()) << clientBarrier.message;
}

TEST(OobExchange, MismatchedBarriersAndClosedPeersAreErrors) {
  auto listener = OobListener::listen(0);
  ASSERT_TRUE(listener.ok());
  Status clientBarrier;
  std::thread client([&] {
    auto c = OobConnection::connect("127.0.0.1", listener.value.port(), 5s);
    if (c.ok()) clientBarrier = c.value.barrier("write-done", 5s);
  });
  auto server = listener.value.accept(5s);
  ASSERT_TRUE(server.ok());
  Status s = server.value.barrier("read-done", 5s);
  client.join();
  EXPECT_EQ(s.errnum, EPROTO);
  EXPECT_NE(s.message.find("the peer sent 'barrier write-done'"), std::string::npos) << s.message;
  EXPECT_EQ(clientBarrier.errnum, EPROTO);
  server.value = OobConnection();
  auto line = server.value.readLine(10ms);
  EXPECT_EQ(line.status.errnum, ENOTCONN);
}

TEST(OobExchange, TimeoutsAndRefusalsAreReported) {
  auto listener = OobListener::listen(0);
  ASSERT_TRUE(listener.ok());
  auto none = listener.value.accept(50ms);
  EXPECT_EQ(none.status.errnum, ETIMEDOUT);
  const std::uint16_t port = listener.value.port();
  listener.value = OobListener();
  auto refused = OobConnection::connect("127.0.0.1", port, 200ms);
  EXPECT_FALSE(refused.ok());
  EXPECT_EQ(refused.status.errnum, ECONNREFUSED);
  EXPECT_NE(refused.status.message.find("connecting to 127.0.0.1:"), std::string::npos);
}

}  // namespace
}  // namespace rdmascope::verbs_backend
