// A program for fabric_session_test: attaches to the fabric named by RDMASCOPE_FABRIC as host
// RDMASCOPE_HOST with the simulated NIC (each step a named verbs call, as the drop-in
// libibverbs makes them) and plays one side of a 16 KiB RDMA WRITE. Spawned, not forked, so
// that it starts clean of the test's threads.
//
//   fabric_test_program target TO_WRITER_FD QUIT_FD   host 1: the buffer written into
//   fabric_test_program writer FROM_TARGET_FD GO_FD    host 2: the writer
// Exit status 0 when its side worked.
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "rdmascope/simdev/nic.h"

namespace {

using namespace rdmascope::sim;
using rdmascope::simdev::Nic;

/// QP 17 of this host connected to QP 17 of `peer`, in RTS; each step a named verbs call.
std::uint32_t connectedQp(Nic& nic, int peer, std::uint32_t cq) {
  std::uint32_t pd, qpn;
  {
    Nic::Session s(nic, "ibv_alloc_pd");
    pd = s.host().allocPd().value;
  }
  {
    Nic::Session s(nic, "ibv_create_qp(RC)");
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
    Nic::Session s(nic, "ibv_modify_qp(INIT)");
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
  a.ahAttr.dgid[10] = a.ahAttr.dgid[11] = 0xff;
  for (int i = 0; i < 4; ++i)
    a.ahAttr.dgid[static_cast<std::size_t>(12 + i)] = static_cast<std::uint8_t>(ip >> (24 - 8 * i));
  a.ahAttr.isGlobal = true;
  a.ahAttr.sgidIndex = 1;
  {
    Nic::Session s(nic, "ibv_modify_qp(RTR)");
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
  Nic::Session s(nic, "ibv_modify_qp(RTS)");
  if (!s.host()
           .modifyQp(qpn, a,
                     attr_mask::kState | attr_mask::kSqPsn | attr_mask::kTimeout |
                         attr_mask::kRetryCnt | attr_mask::kRnrRetry | attr_mask::kMaxQpRdAtomic)
           .ok())
    return 0;
  return qpn;
}

constexpr std::size_t kBytes = 16384;  // 16 WRITE packets of 1024 bytes

/// Host 1: a buffer registered for remote writes; tells the writer where it is, waits for the
/// bytes (no verbs call), then waits for `quit` before leaving.
int target(int toWriter, int quit) {
  std::string error;
  Nic* nic = Nic::get(error);
  if (!nic) return 10;
  std::vector<std::uint8_t> buf(kBytes, 0);
  std::uint32_t cq;
  {
    Nic::Session s(*nic, "ibv_create_cq(64)");
    cq = s.host().createCq(64).value;
  }
  if (connectedQp(*nic, 2, cq) != 17) return 11;
  MemoryRegionInfo mr;
  {
    Nic::Session s(*nic, "ibv_reg_mr(16384, LOCAL_WRITE | REMOTE_WRITE)");
    auto r = s.host().regMr(1, reinterpret_cast<std::uint64_t>(buf.data()), buf.size(),
                            access::kLocalWrite | access::kRemoteWrite);
    if (!r.ok()) return 12;
    mr = r.value;
  }
  const std::uint64_t where[2] = {mr.addr, mr.rkey};
  if (::write(toWriter, where, sizeof where) != sizeof where) return 13;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  bool all = false;
  while (!all && std::chrono::steady_clock::now() < deadline) {
    all = true;
    for (std::size_t i = 0; i < buf.size() && all; ++i)
      all = reinterpret_cast<volatile std::uint8_t*>(buf.data())[i] ==
            static_cast<std::uint8_t>(i * 7 + 1);
    if (!all) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (!all) return 14;
  char c;
  return ::read(quit, &c, 1) == 1 ? 0 : 15;
}

/// Host 2: connects, then waits for `go` and writes the bytes into host 1's buffer.
int writer(int fromTarget, int go) {
  std::uint64_t where[2];
  if (::read(fromTarget, where, sizeof where) != sizeof where) return 20;
  std::string error;
  Nic* nic = Nic::get(error);
  if (!nic) return 21;
  std::vector<std::uint8_t> src(kBytes);
  for (std::size_t i = 0; i < src.size(); ++i)
    src[i] = static_cast<std::uint8_t>(i * 7 + 1);
  std::uint32_t cq;
  {
    Nic::Session s(*nic, "ibv_create_cq(64)");
    cq = s.host().createCq(64).value;
  }
  if (connectedQp(*nic, 1, cq) != 17) return 22;
  SendWr wr;
  {
    Nic::Session s(*nic, "ibv_reg_mr(16384, LOCAL_WRITE)");
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
  if (::read(go, &c, 1) != 1) return 24;
  {
    Nic::Session s(*nic, "ibv_post_send(QP 0x11, RDMA_WRITE, 16384 B)");
    if (!s.host().postSend(17, wr).ok()) return 25;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    Nic::Session s(*nic);
    auto wcs = s.host().pollCq(cq, 1);
    if (!wcs.empty()) return wcs[0].status == WcStatus::Success && wcs[0].wrId == 7 ? 0 : 26;
  }
  return 27;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) return 2;
  const std::string role = argv[1];
  const int a = std::atoi(argv[2]);
  const int b = std::atoi(argv[3]);
  if (role == "target") return target(a, b);
  if (role == "writer") return writer(a, b);
  return 2;
}
