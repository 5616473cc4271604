#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>

#include "sim_test_support.h"

namespace rdmascope::sim {
namespace {

using namespace testing;

std::uint64_t load64(Pair& p, int host, std::uint64_t off) {
  std::uint64_t v = 0;
  std::memcpy(&v, p.mem(host, off, 8).data(), 8);
  return v;
}

void store64(Pair& p, int host, std::uint64_t off, std::uint64_t v) {
  std::memcpy(p.mem(host, off, 8).data(), &v, 8);
}

SendWr atomic(std::uint64_t id, WrOpcode op, Pair& p, std::uint64_t localOff,
              std::uint64_t remoteOff, std::uint64_t compareAdd, std::uint64_t swap = 0) {
  SendWr wr = sendWr(id, op, p.a, localOff, 8, p.b, remoteOff);
  wr.compareAdd = compareAdd;
  wr.swap = swap;
  return wr;
}

// ib_atomic_bw's two operations on 8-byte buffers: the old value lands in the requester's
// buffer, the responder's memory holds the result (a native 64-bit word, as rxe's responder
// updates it with the CPU's own atomics).
TEST(Atomics, FetchAndAddAndCompareAndSwapEndToEnd) {
  Pair p = makePair({});
  store64(p, 1, 4096, 10);
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, atomic(1, WrOpcode::AtomicFetchAndAdd, p, 0, 4096, 5)).ok());
  p.net->sim().run();
  auto wc = p.ha().pollCq(p.a.cq, 4);
  ASSERT_EQ(wc.size(), 1u);
  EXPECT_EQ(wc[0].status, WcStatus::Success);
  EXPECT_EQ(wc[0].opcode, WcOpcode::FetchAdd);
  EXPECT_EQ(wc[0].byteLen, 8u);
  EXPECT_EQ(load64(p, 0, 0), 10u);
  EXPECT_EQ(load64(p, 1, 4096), 15u);

  // CAS that matches swaps; one that does not leaves memory alone; both return the old value
  ASSERT_TRUE(
      p.ha().postSend(p.a.qpn, atomic(2, WrOpcode::AtomicCmpAndSwp, p, 8, 4096, 15, 99)).ok());
  ASSERT_TRUE(
      p.ha().postSend(p.a.qpn, atomic(3, WrOpcode::AtomicCmpAndSwp, p, 16, 4096, 15, 7)).ok());
  p.net->sim().run();
  wc = p.ha().pollCq(p.a.cq, 4);
  ASSERT_EQ(wc.size(), 2u);
  EXPECT_EQ(wc[0].opcode, WcOpcode::CompSwap);
  EXPECT_EQ(wc[1].status, WcStatus::Success);
  EXPECT_EQ(load64(p, 0, 8), 15u);
  EXPECT_EQ(load64(p, 0, 16), 99u);
  EXPECT_EQ(load64(p, 1, 4096), 99u);
  // the wire carries ATOMIC ACKs with the original data
  int atomicAcks = 0;
  for (const auto& s : packets(*p.net))
    atomicAcks += s.hasAtomicAck;
  EXPECT_EQ(atomicAcks, 3);
}

// Many atomics in flight (ib_atomic_bw keeps its send queue full): each is applied once, in
// order, under the QP's max_rd_atomic window.
TEST(Atomics, ManyOutstandingFetchAddsAreEachAppliedOnce) {
  PairOptions o;
  o.maxWr = 512;
  Pair p = makePair(o);
  store64(p, 1, 0, 0);
  const int n = 300;
  for (int i = 0; i < n; ++i) {
    ASSERT_TRUE(
        p.ha()
            .postSend(p.a.qpn, atomic(static_cast<std::uint64_t>(i), WrOpcode::AtomicFetchAndAdd, p,
                                      8 * static_cast<std::uint64_t>(i) + 8192, 0, 1))
            .ok());
  }
  p.net->sim().run();
  auto wc = p.ha().pollCq(p.a.cq, 1000);
  ASSERT_EQ(wc.size(), static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(wc[static_cast<std::size_t>(i)].status, WcStatus::Success);
    EXPECT_EQ(load64(p, 0, 8192 + 8 * static_cast<std::uint64_t>(i)),
              static_cast<std::uint64_t>(i));
  }
  EXPECT_EQ(load64(p, 1, 0), static_cast<std::uint64_t>(n));
}

// With loss, a lost atomic ACK makes the requester resend: the responder replays the saved
// result instead of adding twice (rxe's resp_res for atomics).
TEST(Atomics, DuplicateAfterLostAckIsNotAppliedTwice) {
  PairOptions o;
  o.timeout = 8;
  o.config.faults.dropFrames = {2};  // the first ATOMIC ACK
  Pair p = makePair(o);
  store64(p, 1, 0, 40);
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, atomic(1, WrOpcode::AtomicFetchAndAdd, p, 0, 0, 2)).ok());
  p.net->sim().run();
  auto wc = p.ha().pollCq(p.a.cq, 4);
  ASSERT_EQ(wc.size(), 1u);
  EXPECT_EQ(wc[0].status, WcStatus::Success);
  EXPECT_EQ(load64(p, 0, 0), 40u);
  EXPECT_EQ(load64(p, 1, 0), 42u);
  EXPECT_GE(p.net->frames().size(), 4u);  // request, lost ACK, resent request, replayed ACK
}

// rxe's provider checks an atomic WR before queueing it (validate_send_wr): a remote address
// that is not 8-byte aligned, or less than 8 bytes of local buffer, is EINVAL from
// ibv_post_send. Several SGEs adding up to 8 bytes are fine: the old value is scattered.
TEST(Atomics, AlignmentAndLengthAreCheckedAtPostAsRxesProviderDoes) {
  Pair p = makePair({});
  const VerbsStatus mis =
      p.ha().postSend(p.a.qpn, atomic(1, WrOpcode::AtomicFetchAndAdd, p, 0, 4100, 1));
  EXPECT_EQ(mis.errnum, EINVAL);
  EXPECT_NE(mis.message.find("aligned"), std::string::npos) << mis.message;
  SendWr small = atomic(2, WrOpcode::AtomicCmpAndSwp, p, 0, 4096, 0, 1);
  small.sgList[0].length = 4;
  EXPECT_EQ(p.ha().postSend(p.a.qpn, small).errnum, EINVAL);

  store64(p, 1, 4096, 0x1122334455667788ull);
  SendWr split = atomic(3, WrOpcode::AtomicFetchAndAdd, p, 0, 4096, 0);
  split.sgList = {Sge{p.a.buf + 100, 3, p.a.mr.lkey}, Sge{p.a.buf + 200, 5, p.a.mr.lkey}};
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, split).ok());
  p.net->sim().run();
  auto wc = p.ha().pollCq(p.a.cq, 4);
  ASSERT_EQ(wc.size(), 1u);
  EXPECT_EQ(wc[0].status, WcStatus::Success);
  std::uint8_t got[8];
  std::memcpy(got, p.mem(0, 100, 3).data(), 3);
  std::memcpy(got + 3, p.mem(0, 200, 5).data(), 5);
  std::uint64_t v = 0;
  std::memcpy(&v, got, 8);
  EXPECT_EQ(v, 0x1122334455667788ull);
}

// An atomic on a QP or MR without remote atomic access is refused by the responder.
TEST(Atomics, MrWithoutRemoteAtomicGivesRemoteAccessError) {
  Pair p = makePair({});
  auto mr = p.hb().regMr(p.b.pd, p.b.buf, 4096, access::kLocalWrite | access::kRemoteWrite);
  ASSERT_TRUE(mr.ok());
  SendWr wr = atomic(1, WrOpcode::AtomicFetchAndAdd, p, 0, 0, 1);
  wr.rkey = mr.value.rkey;
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, wr).ok());
  p.net->sim().run();
  auto wc = p.ha().pollCq(p.a.cq, 4);
  ASSERT_EQ(wc.size(), 1u);
  EXPECT_EQ(wc[0].status, WcStatus::RemAccessErr);
}

}  // namespace
}  // namespace rdmascope::sim
