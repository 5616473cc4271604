#include "rdmascope/verbs_backend/qp_connect.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <vector>

namespace rdmascope::verbs_backend {
namespace {

namespace m = verbs::attr_mask;

// Records modifyQp calls; every other call is outside what qp_connect may use.
class RecordingBackend final : public Backend {
 public:
  struct Call {
    Handle qp;
    QpAttr attr;
    unsigned mask;
  };
  std::vector<Call> calls;
  int failAt = -1;

  std::string name() const override { return "recording"; }
  Result<DeviceInfo> queryDevice() override { return unused<DeviceInfo>(); }
  Result<Handle> allocPd() override { return unused<Handle>(); }
  Result<MemoryRegion> regMr(Handle, std::uint64_t, unsigned) override {
    return unused<MemoryRegion>();
  }
  std::span<std::uint8_t> memory(const MemoryRegion&) override { return {}; }
  Result<Handle> createCq(int) override { return unused<Handle>(); }
  Result<QueuePair> createQp(Handle, const QpInitAttr&) override { return unused<QueuePair>(); }
  Status modifyQp(Handle qp, const QpAttr& attr, unsigned mask) override {
    calls.push_back({qp, attr, mask});
    if (static_cast<int>(calls.size()) - 1 == failAt) return Status::error(EINVAL, "refused");
    return Status::success();
  }
  Result<QpAttr> queryQp(Handle) override { return unused<QpAttr>(); }
  Status postSend(Handle, const SendWr&) override { return Status::error(ENOSYS, "unused"); }
  Status postRecv(Handle, const RecvWr&) override { return Status::error(ENOSYS, "unused"); }
  Result<std::vector<WorkCompletion>> pollCq(Handle, int) override {
    return unused<std::vector<WorkCompletion>>();
  }
  Result<std::vector<WorkCompletion>> waitCq(Handle, int, std::chrono::milliseconds) override {
    return unused<std::vector<WorkCompletion>>();
  }

 private:
  template <class T>
  static Result<T> unused() {
    Result<T> r;
    r.status = Status::error(ENOSYS, "unused");
    return r;
  }
};

PeerInfo peerInfo(std::uint32_t qpn, std::uint32_t psn) {
  PeerInfo p;
  p.qpn = qpn;
  p.psn = psn;
  p.lid = 0;
  p.gid = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 9, 0, 1};
  return p;
}

TEST(QpConnect, RcInitCarriesAccessFlags) {
  RecordingBackend b;
  ASSERT_TRUE(modifyQpToInit(b, 3, verbs::QpType::RC, 1,
                             verbs::access::kRemoteWrite | verbs::access::kRemoteRead)
                  .ok());
  ASSERT_EQ(b.calls.size(), 1u);
  EXPECT_EQ(b.calls[0].qp, 3u);
  EXPECT_EQ(b.calls[0].mask, m::kState | m::kPkeyIndex | m::kPort | m::kAccessFlags);
  EXPECT_EQ(b.calls[0].attr.qpState, QpState::Init);
  EXPECT_EQ(b.calls[0].attr.qpAccessFlags,
            verbs::access::kRemoteWrite | verbs::access::kRemoteRead);
  EXPECT_EQ(b.calls[0].attr.portNum, 1);
}

TEST(QpConnect, UdInitCarriesTheQkey) {
  RecordingBackend b;
  ASSERT_TRUE(modifyQpToInit(b, 4, verbs::QpType::UD, 1, 0, 0x11111111).ok());
  ASSERT_EQ(b.calls.size(), 1u);
  EXPECT_EQ(b.calls[0].mask, m::kState | m::kPkeyIndex | m::kPort | m::kQkey);
  EXPECT_EQ(b.calls[0].attr.qkey, 0x11111111u);
}

TEST(QpConnect, RcGoesToRtrThenRtsWithRcPingpongsMasks) {
  RecordingBackend b;
  PathOptions path;
  path.pathMtu = verbs::Mtu::Mtu2048;
  path.sgidIndex = 1;
  ASSERT_TRUE(
      connectQp(b, 7, verbs::QpType::RC, peerInfo(0x11, 0x100), peerInfo(0x22, 0x200), path).ok());
  ASSERT_EQ(b.calls.size(), 2u);
  const auto& rtr = b.calls[0];
  EXPECT_EQ(rtr.attr.qpState, QpState::Rtr);
  EXPECT_EQ(rtr.mask, m::kState | m::kAv | m::kPathMtu | m::kDestQpn | m::kRqPsn |
                          m::kMaxDestRdAtomic | m::kMinRnrTimer);
  EXPECT_EQ(rtr.attr.destQpNum, 0x22u);
  EXPECT_EQ(rtr.attr.rqPsn, 0x200u);
  EXPECT_EQ(rtr.attr.pathMtu, verbs::Mtu::Mtu2048);
  EXPECT_TRUE(rtr.attr.ahAttr.isGlobal);
  EXPECT_EQ(rtr.attr.ahAttr.dgid, peerInfo(0, 0).gid);
  EXPECT_EQ(rtr.attr.ahAttr.sgidIndex, 1);
  const auto& rts = b.calls[1];
  EXPECT_EQ(rts.attr.qpState, QpState::Rts);
  EXPECT_EQ(rts.mask,
            m::kState | m::kTimeout | m::kRetryCnt | m::kRnrRetry | m::kSqPsn | m::kMaxQpRdAtomic);
  EXPECT_EQ(rts.attr.sqPsn, 0x100u);
  EXPECT_EQ(rts.attr.timeout, 14);
}

TEST(QpConnect, UcLeavesOutTheRcOnlyAttributes) {
  RecordingBackend b;
  ASSERT_TRUE(connectQp(b, 7, verbs::QpType::UC, peerInfo(0x11, 1), peerInfo(0x22, 2)).ok());
  ASSERT_EQ(b.calls.size(), 2u);
  EXPECT_EQ(b.calls[0].mask, m::kState | m::kAv | m::kPathMtu | m::kDestQpn | m::kRqPsn);
  EXPECT_EQ(b.calls[1].mask, m::kState | m::kSqPsn);
}

TEST(QpConnect, UdNeedsNoPeer) {
  RecordingBackend b;
  ASSERT_TRUE(activateUdQp(b, 9, 0x42).ok());
  ASSERT_EQ(b.calls.size(), 2u);
  EXPECT_EQ(b.calls[0].mask, m::kState);
  EXPECT_EQ(b.calls[0].attr.qpState, QpState::Rtr);
  EXPECT_EQ(b.calls[1].mask, m::kState | m::kSqPsn);
  EXPECT_EQ(b.calls[1].attr.sqPsn, 0x42u);
  Status s = connectQp(b, 9, verbs::QpType::UD, peerInfo(1, 1), peerInfo(2, 2));
  EXPECT_EQ(s.errnum, EINVAL);
}

TEST(QpConnect, AFailedRtrStopsBeforeRts) {
  RecordingBackend b;
  b.failAt = 0;
  Status s = connectQp(b, 7, verbs::QpType::RC, peerInfo(0x11, 1), peerInfo(0x22, 2));
  EXPECT_EQ(s.errnum, EINVAL);
  EXPECT_EQ(b.calls.size(), 1u);
}

}  // namespace
}  // namespace rdmascope::verbs_backend
