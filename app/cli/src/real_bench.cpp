#include "real_bench.h"

#include <chrono>
#include <cstring>
#include <random>

#include "rdmascope/verbs_backend/qp_connect.h"

namespace rdmascope::cli {
namespace {

using namespace verbs_backend;
using namespace std::chrono_literals;

constexpr std::chrono::milliseconds kPeerTimeout{60000};
constexpr std::uint64_t kRxDepth = 512;

class RealBench {
 public:
  RealBench(const BenchConfig& b, Backend& be, OobConnection& oob, bool client)
      : b_(b), be_(be), oob_(oob), client_(client) {}

  std::string run(RealBenchResult& r) {
    if (std::string e = setup(); !e.empty()) return e;
    std::string e;
    if (b_.latency) {
      e = b_.op == BenchOp::Write  ? writePingPong(r.latenciesUs)
          : b_.op == BenchOp::Send ? sendPingPong(r.latenciesUs)
          : client_                ? oneSidedLatency(r.latenciesUs)
                                   : std::string();
    } else {
      e = client_ ? bandwidthClient(r.postedUs, r.completedUs) : bandwidthServer();
    }
    if (!e.empty()) return e;
    if (Status st = oob_.barrier("done", kPeerTimeout); !st.ok()) return "barrier: " + st.message;
    return {};
  }

 private:
  double nowUs() const {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0_)
        .count();
  }

  std::string setup() {
    auto dev = be_.queryDevice();
    if (!dev.ok()) return "ibv_query_device: " + dev.status.message;
    auto pd = be_.allocPd();
    if (!pd.ok()) return "ibv_alloc_pd: " + pd.status.message;
    const unsigned remote =
        sim::access::kRemoteWrite | sim::access::kRemoteRead | sim::access::kRemoteAtomic;
    auto mr =
        be_.regMr(pd.value, std::max<std::uint64_t>(b_.size, 8), sim::access::kLocalWrite | remote);
    if (!mr.ok()) return "ibv_reg_mr: " + mr.status.message;
    mr_ = mr.value;
    auto cq = be_.createCq(4096);
    if (!cq.ok()) return "ibv_create_cq: " + cq.status.message;
    cq_ = cq.value;
    QpInitAttr init;
    init.qpType = sim::QpType::RC;
    init.sendCq = init.recvCq = cq_;
    init.cap.maxSendWr = b_.txDepth + 1;
    init.cap.maxRecvWr = kRxDepth;
    init.cap.maxSendSge = init.cap.maxRecvSge = 1;
    init.cap.maxInlineData = 0;
    auto qp = be_.createQp(pd.value, init);
    if (!qp.ok()) return "ibv_create_qp: " + qp.status.message;
    qp_ = qp.value;
    if (Status st = modifyQpToInit(be_, qp_.handle, sim::QpType::RC, dev.value.port, remote);
        !st.ok())
      return "INIT: " + st.message;
    PeerInfo local;
    local.lid = dev.value.lid;
    local.qpn = qp_.qpNum;
    local.psn = std::random_device{}() & 0xffffff;
    local.gid = dev.value.gid;
    local.addr = mr_.addr;
    local.rkey = mr_.rkey;
    local.length = mr_.length;
    auto peer = oob_.exchange(local, kPeerTimeout);
    if (!peer.ok()) return "out-of-band exchange: " + peer.status.message;
    peer_ = peer.value;
    PathOptions path;
    path.pathMtu = dev.value.activeMtu;
    path.port = dev.value.port;
    path.sgidIndex = dev.value.gidIndex;
    path.maxRdAtomic = path.maxDestRdAtomic = 16;
    if (Status st = connectQp(be_, qp_.handle, sim::QpType::RC, local, peer_, path); !st.ok())
      return "RTR/RTS: " + st.message;
    if (b_.op == BenchOp::Send && !client_ && !b_.latency) {
      for (; recvPosted_ < std::min(b_.iterations, kRxDepth); ++recvPosted_) {
        if (Status st = postRecv(); !st.ok()) return "ibv_post_recv: " + st.message;
      }
    }
    if (b_.op == BenchOp::Send && b_.latency) {
      if (Status st = postRecv(); !st.ok()) return "ibv_post_recv: " + st.message;
    }
    if (Status st = oob_.barrier("ready", kPeerTimeout); !st.ok()) return "barrier: " + st.message;
    t0_ = std::chrono::steady_clock::now();
    return {};
  }

  Status postRecv() {
    RecvWr rw;
    rw.sgList = {sim::Sge{mr_.addr, static_cast<std::uint32_t>(b_.size), mr_.lkey}};
    return be_.postRecv(qp_.handle, rw);
  }

  SendWr makeWr(std::uint64_t id) const {
    return benchWr(b_, id, mr_.addr, mr_.lkey, peer_.addr, peer_.rkey);
  }

  // Waits for completions; counts sends and receives; an error status ends the run.
  std::string collect(std::uint64_t& sends, std::uint64_t& recvs, std::vector<double>* completed,
                      bool block) {
    auto r = block ? be_.waitCq(cq_, 64, 5000ms) : be_.pollCq(cq_, 64);
    if (!r.ok()) return r.status.message;
    if (block && r.value.empty()) return "no completion within 5 s";
    return countCompletions(r.value, sends, recvs, completed, [this] { return nowUs(); });
  }

  std::string bandwidthClient(std::vector<double>& posted, std::vector<double>& completed) {
    std::uint64_t sends = 0, recvs = 0;
    while (completed.size() < b_.iterations) {
      while (posted.size() < b_.iterations && posted.size() - completed.size() < b_.txDepth) {
        posted.push_back(nowUs());
        if (Status st = be_.postSend(qp_.handle, makeWr(posted.size())); !st.ok())
          return "ibv_post_send: " + st.message;
      }
      if (std::string e = collect(sends, recvs, &completed, false); !e.empty()) return e;
    }
    return {};
  }

  std::string bandwidthServer() {
    if (b_.op != BenchOp::Send) return {};  // WRITE, READ, atomics need no responder software
    std::uint64_t sends = 0, recvs = 0;
    while (recvs < b_.iterations) {
      if (std::string e = collect(sends, recvs, nullptr, true); !e.empty()) return e;
      for (; recvPosted_ < b_.iterations && recvPosted_ - recvs < kRxDepth; ++recvPosted_) {
        if (Status st = postRecv(); !st.ok()) return "ibv_post_recv: " + st.message;
      }
    }
    return {};
  }

  std::string oneSidedLatency(std::vector<double>& lat) {
    std::uint64_t sends = 0, recvs = 0;
    for (std::uint64_t it = 1; it <= b_.iterations; ++it) {
      const double t = nowUs();
      if (Status st = be_.postSend(qp_.handle, makeWr(it)); !st.ok())
        return "ibv_post_send: " + st.message;
      while (sends < it) {
        if (std::string e = collect(sends, recvs, nullptr, false); !e.empty()) return e;
      }
      lat.push_back(nowUs() - t);
    }
    return {};
  }

  // ib_write_lat: each side writes when the peer's write has landed (last byte changes).
  std::string writePingPong(std::vector<double>& lat) {
    volatile std::uint8_t* mine = be_.memory(mr_).data();
    std::uint64_t sends = 0, recvs = 0;
    auto tag = [](std::uint64_t it, int dir) {
      return static_cast<std::uint8_t>((it * 2 + static_cast<std::uint64_t>(dir)) % 255 + 1);
    };
    for (std::uint64_t it = 1; it <= b_.iterations; ++it) {
      const double t = nowUs();
      const int me = client_ ? 0 : 1;
      for (int dir = 0; dir < 2; ++dir) {
        if (dir == me) {
          std::memset(const_cast<std::uint8_t*>(mine), tag(it, dir), b_.size);
          if (Status st = be_.postSend(qp_.handle, makeWr(it)); !st.ok())
            return "ibv_post_send: " + st.message;
        } else {
          const auto deadline = std::chrono::steady_clock::now() + 5s;
          while (mine[b_.size - 1] != tag(it, dir)) {
            if (std::chrono::steady_clock::now() > deadline) return "the peer's write never landed";
          }
        }
        if (std::string e = collect(sends, recvs, nullptr, false); !e.empty()) return e;
      }
      if (client_) lat.push_back((nowUs() - t) / 2);
    }
    while (sends < b_.iterations) {
      if (std::string e = collect(sends, recvs, nullptr, true); !e.empty()) return e;
    }
    return {};
  }

  std::string sendPingPong(std::vector<double>& lat) {
    std::uint64_t sends = 0, recvs = 0;
    for (std::uint64_t it = 1; it <= b_.iterations; ++it) {
      const double t = nowUs();
      const int me = client_ ? 0 : 1;
      for (int dir = 0; dir < 2; ++dir) {
        if (dir == me) {
          if (Status st = be_.postSend(qp_.handle, makeWr(it)); !st.ok())
            return "ibv_post_send: " + st.message;
          continue;
        }
        while (recvs < it) {
          if (std::string e = collect(sends, recvs, nullptr, false); !e.empty()) return e;
        }
        if (Status st = postRecv(); !st.ok()) return "ibv_post_recv: " + st.message;
      }
      if (client_) lat.push_back((nowUs() - t) / 2);
    }
    while (sends < b_.iterations) {
      if (std::string e = collect(sends, recvs, nullptr, true); !e.empty()) return e;
    }
    return {};
  }

  BenchConfig b_;
  Backend& be_;
  OobConnection& oob_;
  bool client_;
  MemoryRegion mr_;
  Handle cq_ = 0;
  QueuePair qp_;
  PeerInfo peer_;
  std::uint64_t recvPosted_ = 0;
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

}  // namespace

RealBenchResult runRealBench(const BenchConfig& bench, Backend& backend, OobConnection& oob,
                             bool client) {
  RealBenchResult r;
  RealBench b(bench, backend, oob, client);
  r.error = b.run(r);
  r.ok = r.error.empty();
  return r;
}

}  // namespace rdmascope::cli
