// The rdma_cm connection without a device: private data round trip and size limits, reject
// reason names, and the clear error where rdma_cm is not available (this machine has no RDMA).
#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>

#include "rdmascope/verbs_backend/ibv_cm_connection.h"

namespace rdmascope::verbs_backend {
namespace {

PeerInfo region(std::uint64_t addr, std::uint32_t rkey, std::uint64_t length) {
  PeerInfo p;
  p.addr = addr;
  p.rkey = rkey;
  p.length = length;
  return p;
}

TEST(CmPrivateData, RoundTripKeepsAddressRkeyAndLength) {
  const std::vector<PeerInfo> mine = {region(0x00005602f4604000ull, 0x292, 0x10000),
                                      region(0xffffffffffffffffull, 0xdeadbeef, 1)};
  auto bytes = encodeCmPrivateData(mine, kCmReqPrivateDataMax, "host-b's CM REQ");
  ASSERT_TRUE(bytes.ok()) << bytes.status.message;
  ASSERT_EQ(bytes.value.size(), 5u + 2 * 20);
  EXPECT_EQ(std::string(bytes.value.begin(), bytes.value.begin() + 4), "RSC1");
  // Big-endian, as it shows in tshark's private data field.
  EXPECT_EQ(bytes.value[5], 0x00);
  EXPECT_EQ(bytes.value[7], 0x56);
  // The CM pads private data to its full size: trailing zeros do not matter.
  std::vector<std::uint8_t> padded = bytes.value;
  padded.resize(kCmReqPrivateDataMax, 0);
  auto back = decodeCmPrivateData(padded);
  ASSERT_TRUE(back.ok()) << back.status.message;
  ASSERT_EQ(back.value.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(back.value[i].addr, mine[i].addr);
    EXPECT_EQ(back.value[i].rkey, mine[i].rkey);
    EXPECT_EQ(back.value[i].length, mine[i].length);
    EXPECT_EQ(back.value[i].qpn, 0u);  // the QPN travels in the CM message itself
  }
}

TEST(CmPrivateData, NothingPublishedIsAnEmptyList) {
  auto bytes = encodeCmPrivateData({}, kCmReqPrivateDataMax, "REQ");
  ASSERT_TRUE(bytes.ok());
  auto back = decodeCmPrivateData(bytes.value);
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(back.value.empty());
}

TEST(CmPrivateData, TheReqHoldsTwoRegionsAndTheRepNine) {
  const std::vector<PeerInfo> two(2), three(3), nine(9), ten(10);
  EXPECT_TRUE(encodeCmPrivateData(two, kCmReqPrivateDataMax, "REQ").ok());
  auto tooBig = encodeCmPrivateData(three, kCmReqPrivateDataMax, "host-b's CM REQ");
  ASSERT_FALSE(tooBig.ok());
  EXPECT_EQ(tooBig.status.errnum, EMSGSIZE);
  EXPECT_EQ(tooBig.status.message,
            "host-b's CM REQ needs 65 bytes of CM private data for 3 published region(s), but 56 "
            "fit (2 region(s)): use the TCP exchange (without --cm)");
  EXPECT_TRUE(encodeCmPrivateData(nine, kCmRepPrivateDataMax, "REP").ok());
  auto repTooBig = encodeCmPrivateData(ten, kCmRepPrivateDataMax, "host-a's CM REP");
  ASSERT_FALSE(repTooBig.ok());
  EXPECT_NE(repTooBig.status.message.find("205 bytes"), std::string::npos)
      << repTooBig.status.message;
}

TEST(CmPrivateData, ForeignOrShortDataIsAProtocolError) {
  const std::vector<std::uint8_t> foreign = {'h', 'e', 'l', 'l', 'o', 0, 0, 0};
  auto a = decodeCmPrivateData(foreign);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status.errnum, EPROTO);
  EXPECT_NE(a.status.message.find("not rdmascope's"), std::string::npos);
  EXPECT_FALSE(decodeCmPrivateData({}).ok());
  const std::vector<std::uint8_t> shortData = {'R', 'S', 'C', '1', 2, 0, 0, 0};
  auto b = decodeCmPrivateData(shortData);
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status.message, "the peer's CM private data announces 2 region(s) but holds 8 bytes");
}

TEST(CmRejectReason, NamesTheCommonReasons) {
  EXPECT_EQ(cmRejectReasonName(28), "consumer reject (the peer application refused)");
  EXPECT_EQ(cmRejectReasonName(8), "invalid service ID (nothing listens on that port)");
  EXPECT_EQ(cmRejectReasonName(99), "reason 99");
}

bool hostHasRdmaCm() {
  std::error_code ec;
  return std::filesystem::exists("/dev/infiniband/rdma_cm", ec);
}

TEST(CmAvailable, NamesTheMissingModule) {
  if (hostHasRdmaCm()) GTEST_SKIP() << "this host has /dev/infiniband/rdma_cm";
  const Status s = cmAvailable();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.errnum, ENODEV);
  EXPECT_EQ(s.message,
            "rdma_cm is not available: /dev/infiniband/rdma_cm does not exist (load the rdma_ucm "
            "kernel module, or run the Soft-RoCE lab: rdmascope-cli lab)");
}

#ifdef RDMASCOPE_HAVE_RDMACM
TEST(CmConnection, ListenAndResolveFailWithTheSameSentenceWithoutRdmaCm) {
  if (hostHasRdmaCm()) GTEST_SKIP() << "this host has /dev/infiniband/rdma_cm";
  auto l = CmConnection::listen(18515);
  ASSERT_FALSE(l.ok());
  EXPECT_EQ(l.value, nullptr);
  EXPECT_EQ(l.status.message, cmAvailable().message);
  auto r = CmConnection::resolve("127.0.0.1", 18515, std::chrono::milliseconds(100));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status.message, cmAvailable().message);
}
#endif

}  // namespace
}  // namespace rdmascope::verbs_backend
