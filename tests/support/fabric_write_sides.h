#pragma once
/// @file fabric_write_sides.h
/// The two sides of a one-sided RDMA WRITE between two programs on the simulated fabric, for
/// tests that run them as processes (forked by nic_fabric_test, spawned as fabric_test_program
/// by fabric_session_test). Host 1 (the target) registers a buffer for remote writes and
/// waits, making no verbs call, until the writer's bytes are there; host 2 (the writer) writes
/// them and polls for the completion. Both connect QP 17 to the peer's QP 17 over RC.

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "rdmascope/simdev/nic.h"

namespace rdmascope::testing {

/// How a side runs.
struct WriteSideOptions {
  std::size_t bytes = 65536;
  /// Each step a NIC session named after its verbs call, as the drop-in libibverbs makes them
  /// (an observer sees the calls, and a paused fabric holds them); else unnamed sessions.
  bool namedCalls = false;
  /// How long the target waits for the bytes and the writer for its completion.
  std::chrono::seconds wait{20};
  /// The target exits (its host detaches) as soon as it has sent its address and rkey.
  bool targetLeaves = false;
  /// The QPs' retry_cnt. rxe (and so the simulated NIC) retries for ever at 7.
  std::uint8_t retryCnt = 7;
  /// The completion status the writer expects.
  sim::WcStatus expect = sim::WcStatus::Success;
};

namespace fabric_write_detail {

inline std::uint8_t patternByte(std::size_t i) {
  return static_cast<std::uint8_t>(i * 7 + 1);
}

/// A NIC session for one step, named `call` when the options ask for named calls.
class Step {
 public:
  Step(simdev::Nic& nic, const WriteSideOptions& o, std::string_view call) {
    if (o.namedCalls) {
      session_.emplace(nic, call);
    } else {
      session_.emplace(nic);
    }
  }
  sim::Host& host() { return session_->host(); }

 private:
  std::optional<simdev::Nic::Session> session_;
};

}  // namespace fabric_write_detail

/// Connects QP 17 of this host (RC, `cq` for both queues) to QP 17 of host `peer`: INIT, then
/// RTR and RTS with PSNs from 100 and path MTU 1024, addressed by the peer's IPv4-mapped GID
/// (index 1). The QPN, or 0 when a step failed.
inline std::uint32_t connectQp17(simdev::Nic& nic, const WriteSideOptions& o, int peer,
                                 std::uint32_t cq) {
  using namespace rdmascope::sim;
  using fabric_write_detail::Step;
  std::uint32_t pd, qpn;
  {
    Step s(nic, o, "ibv_alloc_pd");
    pd = s.host().allocPd().value;
  }
  {
    Step s(nic, o, "ibv_create_qp(RC)");
    QpInitAttr init;
    init.qpType = QpType::RC;
    init.sendCq = cq;
    init.recvCq = cq;
    qpn = s.host().createQp(pd, init).value;
  }
  QpAttr a;
  a.qpState = QpState::Init;
  a.qpAccessFlags = access::kRemoteWrite | access::kLocalWrite;
  {
    Step s(nic, o, "ibv_modify_qp(INIT)");
    if (!s.host()
             .modifyQp(qpn, a,
                       attr_mask::kState | attr_mask::kPkeyIndex | attr_mask::kPort |
                           attr_mask::kAccessFlags)
             .ok())
      return 0;
  }
  a.qpState = QpState::Rtr;
  a.pathMtu = Mtu::Mtu1024;
  a.destQpNum = 17;
  a.rqPsn = 100;
  const std::uint32_t ip = nic.info().hosts[static_cast<std::size_t>(peer - 1)].ipv4;
  a.ahAttr.dgid = {};
  a.ahAttr.dgid[10] = a.ahAttr.dgid[11] = 0xff;  // ::ffff:10.9.0.N
  for (int i = 0; i < 4; ++i)
    a.ahAttr.dgid[static_cast<std::size_t>(12 + i)] = static_cast<std::uint8_t>(ip >> (24 - 8 * i));
  a.ahAttr.isGlobal = true;
  a.ahAttr.sgidIndex = 1;
  {
    Step s(nic, o, "ibv_modify_qp(RTR)");
    if (!s.host()
             .modifyQp(qpn, a,
                       attr_mask::kState | attr_mask::kAv | attr_mask::kPathMtu |
                           attr_mask::kDestQpn | attr_mask::kRqPsn | attr_mask::kMaxDestRdAtomic |
                           attr_mask::kMinRnrTimer)
             .ok())
      return 0;
  }
  a.qpState = QpState::Rts;
  a.sqPsn = 100;
  a.retryCnt = o.retryCnt;
  Step s(nic, o, "ibv_modify_qp(RTS)");
  if (!s.host()
           .modifyQp(qpn, a,
                     attr_mask::kState | attr_mask::kSqPsn | attr_mask::kTimeout |
                         attr_mask::kRetryCnt | attr_mask::kRnrRetry | attr_mask::kMaxQpRdAtomic)
           .ok())
    return 0;
  return qpn;
}

/// Host 1: registers a buffer for remote writes, writes its address and rkey to `toWriter`,
/// waits (no verbs call) until the writer's bytes are there, then, when `quit` is not -1,
/// until a byte arrives on it. Exit status 0 when the bytes arrived.
inline int writeTarget(const WriteSideOptions& o, int toWriter, int quit = -1) {
  using namespace rdmascope::sim;
  using fabric_write_detail::Step;
  std::string error;
  simdev::Nic* nic = simdev::Nic::get(error);
  if (!nic) return 10;
  std::vector<std::uint8_t> buf(o.bytes, 0);
  std::uint32_t cq;
  {
    Step s(*nic, o, "ibv_create_cq(64)");
    cq = s.host().createCq(64).value;
  }
  if (connectQp17(*nic, o, 2, cq) != 17) return 11;
  MemoryRegionInfo mr;
  {
    const std::string call =
        "ibv_reg_mr(" + std::to_string(o.bytes) + ", LOCAL_WRITE | REMOTE_WRITE)";
    Step s(*nic, o, call);
    auto r = s.host().regMr(1, reinterpret_cast<std::uint64_t>(buf.data()), buf.size(),
                            access::kLocalWrite | access::kRemoteWrite);
    if (!r.ok()) return 12;
    mr = r.value;
  }
  const std::uint64_t where[2] = {mr.addr, mr.rkey};
  if (::write(toWriter, where, sizeof where) != sizeof where) return 13;
  if (o.targetLeaves) return 0;
  const auto deadline = std::chrono::steady_clock::now() + o.wait;
  bool all = false;
  while (!all && std::chrono::steady_clock::now() < deadline) {
    all = true;
    for (std::size_t i = 0; i < buf.size() && all; ++i)
      all = reinterpret_cast<volatile std::uint8_t*>(buf.data())[i] ==
            fabric_write_detail::patternByte(i);
    if (!all) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (!all) return 14;
  if (quit < 0) return 0;
  char c;
  return ::read(quit, &c, 1) == 1 ? 0 : 15;
}

/// Host 2: reads the target's address and rkey from `fromTarget`, connects, waits for a byte on
/// `go` (when not -1), writes the bytes with one signaled RDMA WRITE (wr_id 7) and polls for
/// its completion. Exit status 0 when it completed with the status the options expect.
inline int writeWriter(const WriteSideOptions& o, int fromTarget, int go = -1) {
  using namespace rdmascope::sim;
  using fabric_write_detail::Step;
  std::uint64_t where[2];
  if (::read(fromTarget, where, sizeof where) != sizeof where) return 20;
  std::string error;
  simdev::Nic* nic = simdev::Nic::get(error);
  if (!nic) return 21;
  std::vector<std::uint8_t> src(o.bytes);
  for (std::size_t i = 0; i < src.size(); ++i)
    src[i] = fabric_write_detail::patternByte(i);
  std::uint32_t cq;
  {
    Step s(*nic, o, "ibv_create_cq(64)");
    cq = s.host().createCq(64).value;
  }
  if (connectQp17(*nic, o, 1, cq) != 17) return 22;
  SendWr wr;
  {
    Step s(*nic, o, "ibv_reg_mr(" + std::to_string(o.bytes) + ", LOCAL_WRITE)");
    auto mr = s.host().regMr(1, reinterpret_cast<std::uint64_t>(src.data()), src.size(),
                             access::kLocalWrite);
    if (!mr.ok()) return 23;
    wr.wrId = 7;
    wr.opcode = WrOpcode::RdmaWrite;
    wr.sendFlags = send_flags::kSignaled;
    wr.sgList.push_back(Sge{mr.value.addr, static_cast<std::uint32_t>(src.size()), mr.value.lkey});
    wr.remoteAddr = where[0];
    wr.rkey = static_cast<std::uint32_t>(where[1]);
  }
  char c;
  if (go >= 0 && ::read(go, &c, 1) != 1) return 24;
  {
    Step s(*nic, o, "ibv_post_send(QP 0x11, RDMA_WRITE, " + std::to_string(o.bytes) + " B)");
    if (!s.host().postSend(17, wr).ok()) return 25;
  }
  const auto deadline = std::chrono::steady_clock::now() + o.wait;
  while (std::chrono::steady_clock::now() < deadline) {
    simdev::Nic::Session s(*nic);
    auto wcs = s.host().pollCq(cq, 1);
    if (!wcs.empty()) return wcs[0].status == o.expect && wcs[0].wrId == 7 ? 0 : 26;
  }
  return 27;
}

}  // namespace rdmascope::testing
