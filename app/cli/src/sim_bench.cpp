#include "sim_bench.h"

#include <cstring>

namespace rdmascope::cli {
namespace {

struct Side {
  sim::Host* host = nullptr;
  std::uint32_t pd = 0, cq = 0, qpn = 0;
  sim::MemoryRegionInfo mr;
};

std::string fail(const std::string& what, const sim::VerbsStatus& st) {
  return what + " failed: " + st.message;
}

class Bench {
 public:
  Bench(const BenchConfig& b, const sim::NetworkConfig& cfg) : b_(b), net_(cfg) {}

  SimBenchResult run() {
    SimBenchResult r;
    r.link = net_.config().link;
    if (std::string e = setup(); !e.empty()) {
      r.error = e;
      return r;
    }
    r.error = b_.latency ? runLatency(r.latenciesUs) : runBandwidth(r.postedUs, r.completedUs);
    r.ok = r.error.empty();
    return r;
  }

 private:
  double nowUs() { return net_.sim().now().micros(); }

  std::string setup() {
    const std::uint64_t len = std::max<std::uint64_t>(b_.size, 8);
    for (int i = 0; i < 2; ++i) {
      Side& s = sides_[i];
      s.host = &net_.host(i);
      auto pd = s.host->allocPd();
      if (!pd.ok()) return fail("ibv_alloc_pd", pd.status);
      s.pd = pd.value;
      auto cq = s.host->createCq(16384);
      if (!cq.ok()) return fail("ibv_create_cq", cq.status);
      s.cq = cq.value;
      const std::uint64_t addr = s.host->allocate(len);
      auto mr = s.host->regMr(s.pd, addr, len,
                              sim::access::kLocalWrite | sim::access::kRemoteWrite |
                                  sim::access::kRemoteRead | sim::access::kRemoteAtomic);
      if (!mr.ok()) return fail("ibv_reg_mr", mr.status);
      s.mr = mr.value;
      sim::QpInitAttr init;
      init.sendCq = init.recvCq = s.cq;
      init.cap.maxSendWr = b_.txDepth + 1;
      init.cap.maxRecvWr = kRxDepth;
      auto qp = s.host->createQp(s.pd, init);
      if (!qp.ok()) return fail("ibv_create_qp", qp.status);
      s.qpn = qp.value;
    }
    for (int i = 0; i < 2; ++i) {
      if (std::string e = connect(sides_[i], sides_[1 - i]); !e.empty()) return e;
    }
    return {};
  }

  std::string connect(Side& s, const Side& peer) {
    namespace m = sim::attr_mask;
    sim::QpAttr at;
    at.qpState = sim::QpState::Init;
    at.qpAccessFlags =
        sim::access::kRemoteWrite | sim::access::kRemoteRead | sim::access::kRemoteAtomic;
    if (auto st =
            s.host->modifyQp(s.qpn, at, m::kState | m::kPkeyIndex | m::kPort | m::kAccessFlags);
        !st.ok())
      return fail("modify_qp(INIT)", st);
    at.qpState = sim::QpState::Rtr;
    at.pathMtu = b_.mtu;
    at.destQpNum = peer.qpn;
    at.rqPsn = 0;
    at.ahAttr.dgid = peer.host->gid();
    at.ahAttr.isGlobal = true;
    at.maxDestRdAtomic = 16;
    at.minRnrTimer = 12;
    if (auto st = s.host->modifyQp(s.qpn, at,
                                   m::kState | m::kAv | m::kPathMtu | m::kDestQpn | m::kRqPsn |
                                       m::kMaxDestRdAtomic | m::kMinRnrTimer);
        !st.ok())
      return fail("modify_qp(RTR)", st);
    at.qpState = sim::QpState::Rts;
    at.sqPsn = 0;
    at.timeout = 14;
    at.retryCnt = 7;
    at.rnrRetry = 7;
    at.maxRdAtomic = 16;
    if (auto st = s.host->modifyQp(
            s.qpn, at,
            m::kState | m::kSqPsn | m::kTimeout | m::kRetryCnt | m::kRnrRetry | m::kMaxQpRdAtomic);
        !st.ok())
      return fail("modify_qp(RTS)", st);
    return {};
  }

  sim::SendWr makeWr(const Side& s, const Side& peer, std::uint64_t id) const {
    return benchWr(b_, id, s.mr.addr, s.mr.lkey, peer.mr.addr, peer.mr.rkey);
  }

  sim::VerbsStatus postRecv(Side& s) {
    sim::RecvWr rw;
    rw.sgList = {sim::Sge{s.mr.addr, static_cast<std::uint32_t>(b_.size), s.mr.lkey}};
    return s.host->postRecv(s.qpn, rw);
  }

  // Polls every completion of `s`; counts receives and sends, fails on an error status.
  std::string drain(Side& s, std::uint64_t& sends, std::uint64_t& recvs,
                    std::vector<double>* completed) {
    return countCompletions(s.host->pollCq(s.cq, 1 << 14), sends, recvs, completed,
                            [this] { return nowUs(); });
  }

  std::string runBandwidth(std::vector<double>& posted, std::vector<double>& completed) {
    Side& a = sides_[0];
    Side& b = sides_[1];
    std::uint64_t recvPosted = 0, recvsB = 0, sendsB = 0, sendsA = 0, recvsA = 0;
    auto topUpRecvs = [&]() -> std::string {
      while (b_.op == BenchOp::Send && recvPosted < b_.iterations &&
             recvPosted - recvsB < kRxDepth) {
        if (auto st = postRecv(b); !st.ok()) return fail("post_recv", st);
        ++recvPosted;
      }
      return {};
    };
    if (std::string e = topUpRecvs(); !e.empty()) return e;
    while (completed.size() < b_.iterations) {
      while (posted.size() < b_.iterations && posted.size() - completed.size() < b_.txDepth) {
        posted.push_back(nowUs());
        if (auto st = a.host->postSend(a.qpn, makeWr(a, b, posted.size())); !st.ok())
          return fail("post_send", st);
      }
      if (!net_.sim().runWhile([&] { return a.host->cqCount(a.cq) > 0; }))
        return "the simulation went idle before a completion";
      if (std::string e = drain(a, sendsA, recvsA, &completed); !e.empty()) return e;
      if (std::string e = drain(b, sendsB, recvsB, nullptr); !e.empty()) return e;
      if (std::string e = topUpRecvs(); !e.empty()) return e;
    }
    return {};
  }

  // One message each way per iteration (WRITE, SEND: half the round trip) or one request and
  // its response (READ, atomic), as ib_*_lat measures.
  std::string runLatency(std::vector<double>& lat) {
    Side& a = sides_[0];
    Side& b = sides_[1];
    const bool pingPong = b_.op == BenchOp::Write || b_.op == BenchOp::Send;
    std::uint64_t sends[2] = {0, 0}, recvs[2] = {0, 0};
    if (b_.op == BenchOp::Send) {
      for (Side* s : {&a, &b}) {
        if (auto st = postRecv(*s); !st.ok()) return fail("post_recv", st);
      }
    }
    for (std::uint64_t it = 1; it <= b_.iterations; ++it) {
      const double t0 = nowUs();
      if (!pingPong) {
        if (auto st = a.host->postSend(a.qpn, makeWr(a, b, it)); !st.ok())
          return fail("post_send", st);
        if (!net_.sim().runWhile([&] { return a.host->cqCount(a.cq) > 0; }))
          return "the simulation went idle before a completion";
        if (std::string e = drain(a, sends[0], recvs[0], nullptr); !e.empty()) return e;
        lat.push_back(nowUs() - t0);
        continue;
      }
      for (int dir = 0; dir < 2; ++dir) {
        Side& from = sides_[dir];
        Side& to = sides_[1 - dir];
        const auto tag = static_cast<std::uint8_t>(it * 2 + static_cast<std::uint64_t>(dir));
        std::memset(from.host->memory(from.mr.addr, b_.size).data(), tag, b_.size);
        if (auto st = from.host->postSend(from.qpn, makeWr(from, to, it)); !st.ok())
          return fail("post_send", st);
        const std::uint64_t wantRecv = recvs[1 - dir] + 1;
        const int ti = 1 - dir;
        // WRITE: the peer polls the last byte of its buffer; SEND: its receive completion.
        const bool arrived = net_.sim().runWhile([&] {
          if (b_.op == BenchOp::Send) {
            if (to.host->cqCount(to.cq) == 0) return false;
            drain(to, sends[ti], recvs[ti], nullptr);
            return recvs[ti] >= wantRecv;
          }
          return to.host->memory(to.mr.addr + b_.size - 1, 1)[0] == tag;
        });
        if (!arrived) return "the simulation went idle before the message arrived";
        if (b_.op == BenchOp::Send) {
          if (auto st = postRecv(to); !st.ok()) return fail("post_recv", st);
        }
        if (std::string e = drain(from, sends[dir], recvs[dir], nullptr); !e.empty()) return e;
      }
      lat.push_back((nowUs() - t0) / 2);
    }
    // Let the last ACKs land so every WR completes.
    net_.sim().runUntil(net_.sim().now() + sim::SimTime::ms(1));
    for (int i = 0; i < 2; ++i) {
      if (std::string e = drain(sides_[i], sends[i], recvs[i], nullptr); !e.empty()) return e;
    }
    return {};
  }

  static constexpr std::uint64_t kRxDepth = 512;
  BenchConfig b_;
  sim::Network net_;
  Side sides_[2];
};

}  // namespace

sim::SendWr benchWr(const BenchConfig& bench, std::uint64_t id, std::uint64_t localAddr,
                    std::uint32_t lkey, std::uint64_t remoteAddr, std::uint32_t rkey) {
  sim::SendWr wr;
  wr.wrId = id;
  wr.sendFlags = sim::send_flags::kSignaled;
  const auto len = static_cast<std::uint32_t>(bench.op == BenchOp::Atomic ? 8 : bench.size);
  wr.sgList = {sim::Sge{localAddr, len, lkey}};
  wr.remoteAddr = remoteAddr;
  wr.rkey = rkey;
  switch (bench.op) {
    case BenchOp::Write:
      wr.opcode = sim::WrOpcode::RdmaWrite;
      break;
    case BenchOp::Read:
      wr.opcode = sim::WrOpcode::RdmaRead;
      break;
    case BenchOp::Send:
      wr.opcode = sim::WrOpcode::Send;
      break;
    case BenchOp::Atomic:
      wr.opcode = sim::WrOpcode::AtomicFetchAndAdd;
      wr.compareAdd = 1;
      break;
  }
  return wr;
}

std::string countCompletions(std::span<const sim::WorkCompletion> completions, std::uint64_t& sends,
                             std::uint64_t& recvs, std::vector<double>* completed,
                             const std::function<double()>& nowUs) {
  for (const auto& wc : completions) {
    if (wc.status != sim::WcStatus::Success) {
      return "completion of wr_id " + std::to_string(wc.wrId) + ": " +
             std::string(sim::toString(wc.status));
    }
    if (wc.opcode == sim::WcOpcode::Recv) {
      ++recvs;
    } else {
      ++sends;
      if (completed) completed->push_back(nowUs());
    }
  }
  return {};
}

SimBenchResult runSimBench(const BenchConfig& bench, const sim::NetworkConfig& config) {
  if (bench.size == 0 || (bench.op == BenchOp::Atomic && bench.size != 8)) {
    SimBenchResult r;
    r.error = bench.op == BenchOp::Atomic ? "atomic operations are 8 bytes: use --size 8"
                                          : "--size must be at least 1 byte";
    return r;
  }
  Bench b(bench, config);
  return b.run();
}

}  // namespace rdmascope::cli
