// Simulates one RC RDMA WRITE of N bytes (default 1 GiB) at MTU 4096 over a 100 Gb/s link with
// tracing off and prints wall time, packets and simulated time.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "rdmascope/sim/network.h"

using namespace rdmascope::sim;

int main(int argc, char** argv) {
  std::uint64_t bytes = 1ull << 30;
  bool copy = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--copy") == 0) {
      copy = true;
    } else {
      bytes = std::strtoull(argv[i], nullptr, 0);
    }
  }
  NetworkConfig cfg = Network::defaultConfig();
  cfg.copyPayload = copy;
  Network net(cfg);
  Host& a = net.host(0);
  Host& b = net.host(1);
  auto setup = [&](Host& h, std::uint32_t& pd, std::uint32_t& cq, std::uint32_t& qpn,
                   MemoryRegionInfo& mr) {
    pd = h.allocPd().value;
    cq = h.createCq(16).value;
    const std::uint64_t buf = h.allocate(bytes);
    mr = h.regMr(pd, buf, bytes, access::kLocalWrite | access::kRemoteWrite).value;
    QpInitAttr init;
    init.sendCq = init.recvCq = cq;
    qpn = h.createQp(pd, init).value;
  };
  std::uint32_t pdA, cqA, qpA, pdB, cqB, qpB;
  MemoryRegionInfo mrA, mrB;
  setup(a, pdA, cqA, qpA, mrA);
  setup(b, pdB, cqB, qpB, mrB);
  auto connect = [&](Host& h, std::uint32_t qpn, Host& peer, std::uint32_t peerQpn) {
    namespace m = attr_mask;
    QpAttr at;
    at.qpState = QpState::Init;
    at.qpAccessFlags = access::kRemoteWrite;
    h.modifyQp(qpn, at, m::kState | m::kPkeyIndex | m::kPort | m::kAccessFlags);
    at.qpState = QpState::Rtr;
    at.pathMtu = Mtu::Mtu4096;
    at.destQpNum = peerQpn;
    at.rqPsn = 0;
    at.ahAttr.dgid = peer.gid();
    at.maxDestRdAtomic = 1;
    at.minRnrTimer = 12;
    h.modifyQp(qpn, at,
               m::kState | m::kAv | m::kPathMtu | m::kDestQpn | m::kRqPsn | m::kMaxDestRdAtomic |
                   m::kMinRnrTimer);
    at.qpState = QpState::Rts;
    at.sqPsn = 0;
    at.timeout = 14;
    at.retryCnt = 7;
    at.rnrRetry = 7;
    at.maxRdAtomic = 1;
    return h.modifyQp(
        qpn, at,
        m::kState | m::kSqPsn | m::kTimeout | m::kRetryCnt | m::kRnrRetry | m::kMaxQpRdAtomic);
  };
  connect(a, qpA, b, qpB);
  connect(b, qpB, a, qpA);
  std::memset(a.memory(mrA.addr, bytes).data(), 0x5a, bytes);
  SendWr wr;
  wr.wrId = 1;
  wr.opcode = WrOpcode::RdmaWrite;
  wr.sendFlags = send_flags::kSignaled;
  wr.sgList = {Sge{mrA.addr, static_cast<std::uint32_t>(bytes), mrA.lkey}};
  wr.remoteAddr = mrB.addr;
  wr.rkey = mrB.rkey;
  // touch the receiver's buffer first: first-touch page faults are the OS's cost, not the
  // simulator's
  std::memset(b.memory(mrB.addr, bytes).data(), 0, bytes);
  auto cpuNow = [] {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  };
  const double c0 = cpuNow();
  const auto t0 = std::chrono::steady_clock::now();
  auto st = a.postSend(qpA, wr);
  if (!st.ok()) {
    std::fprintf(stderr, "post_send: %s\n", st.message.c_str());
    return 1;
  }
  net.sim().runWhile([&] { return a.cqCount(cqA) > 0; });
  const auto t1 = std::chrono::steady_clock::now();
  const double cpu = cpuNow() - c0;
  auto wc = a.pollCq(cqA, 4);
  const double secs = std::chrono::duration<double>(t1 - t0).count();
  const bool same =
      std::memcmp(a.memory(mrA.addr, bytes).data(), b.memory(mrB.addr, bytes).data(), bytes) == 0;
  std::printf(
      "bytes %llu frames %llu events %llu wall %.3f s cpu %.3f s (%.0f frames/cpu-s) sim %.3f ms "
      "completion %s data %s\n",
      static_cast<unsigned long long>(bytes),
      static_cast<unsigned long long>(net.stats().framesSent),
      static_cast<unsigned long long>(net.sim().eventsRun()), secs, cpu,
      static_cast<double>(net.stats().framesSent) / cpu, net.sim().now().seconds() * 1e3,
      wc.size() == 1 ? std::string(toString(wc[0].status)).c_str() : "missing",
      same ? "equal" : "DIFFERENT");
  return wc.size() == 1 && wc[0].status == WcStatus::Success && same ? 0 : 1;
}
