// RC RDMA WRITEs over one simulated 100 Gb/s link at MTU 4096, tracing off, payload copied into
// every frame as rxe copies it into its skb (--reference: frames reference host memory instead).
// Prints the simulation loop's wall and CPU time, the set-up's CPU time and the frames sent.
//
// Usage: sim_write_bench [--bytes N] [--message N] [--qps N] [--depth N] [--loss P] [--reference]
//   --bytes    bytes written in all (default 1 GiB)
//   --message  bytes per WRITE (default: bytes / qps, one WRITE per QP); each QP writes from one
//              registered buffer of this size into one on the peer, again and again, as
//              ib_write_bw does
//   --qps      RC connections sharing the link (default 1)
//   --depth    WRITEs each QP keeps outstanding (default 128, ib_write_bw's tx depth)
//   --loss     chance that a frame is lost, both directions (default 0): go-back-N recovers

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "rdmascope/sim/network.h"

using namespace rdmascope::sim;

namespace {

struct Options {
  std::uint64_t bytes = 1ull << 30;
  std::uint64_t message = 0;
  std::uint32_t qps = 1;
  std::uint32_t depth = 128;
  double loss = 0.0;
  bool reference = false;
};

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr, "sim_write_bench: %s\n", why.c_str());
  std::exit(2);
}

std::uint64_t number(const char* option, const char* text, std::uint64_t lo, std::uint64_t hi) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text, &end, 0);
  if (errno != 0 || end == text || *end != '\0' || text[0] == '-' || v < lo || v > hi)
    usage(std::string(option) + " takes a whole number from " + std::to_string(lo) + " to " +
          std::to_string(hi) + ", not '" + text + "'");
  return v;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--reference") {
      o.reference = true;
      continue;
    }
    if (i + 1 >= argc) usage("unknown option or missing value: " + a);
    const char* v = argv[++i];
    if (a == "--bytes") {
      o.bytes = number("--bytes", v, 1, 1ull << 36);
    } else if (a == "--message") {
      o.message = number("--message", v, 1, 1ull << 31);
    } else if (a == "--qps") {
      o.qps = static_cast<std::uint32_t>(number("--qps", v, 1, 1024));
    } else if (a == "--depth") {
      o.depth = static_cast<std::uint32_t>(number("--depth", v, 1, 1024));
    } else if (a == "--loss") {
      char* end = nullptr;
      o.loss = std::strtod(v, &end);
      if (end == v || *end != '\0' || !(o.loss >= 0.0 && o.loss < 0.5))
        usage(std::string("--loss takes a probability from 0 to 0.5, not '") + v + "'");
    } else {
      usage("unknown option: " + a);
    }
  }
  if (o.message == 0) o.message = o.bytes / o.qps;
  if (o.message == 0 || o.bytes % (o.message * o.qps) != 0)
    usage("--bytes must be a multiple of --message times --qps");
  return o;
}

double cpuNow() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct Pair {
  std::uint32_t qpA = 0, qpB = 0;
  MemoryRegionInfo src, dst;
  std::uint64_t toPost = 0;
  std::uint64_t outstanding = 0;
};

void connect(Host& h, std::uint32_t qpn, Host& peer, std::uint32_t peerQpn) {
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
  at.timeout = 10;  // 4.096 us << 10 = 4.2 ms: a lost tail is retried quickly
  at.retryCnt = 7;
  at.rnrRetry = 7;
  at.maxRdAtomic = 1;
  h.modifyQp(qpn, at,
             m::kState | m::kSqPsn | m::kTimeout | m::kRetryCnt | m::kRnrRetry | m::kMaxQpRdAtomic);
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  NetworkConfig cfg = Network::defaultConfig();
  cfg.copyPayload = !o.reference;
  cfg.faults.lossRate = o.loss;
  Network net(cfg);
  Host& a = net.host(0);
  Host& b = net.host(1);
  const std::uint32_t pdA = a.allocPd().value;
  const std::uint32_t pdB = b.allocPd().value;
  const std::uint32_t cqA = a.createCq((1 << 15) - 1).value;
  const std::uint32_t cqB = b.createCq(16).value;
  std::vector<Pair> pairs(o.qps);
  const std::uint64_t writesPerQp = o.bytes / o.qps / o.message;
  for (std::uint32_t q = 0; q < o.qps; ++q) {
    Pair& p = pairs[q];
    QpInitAttr init;
    init.sendCq = init.recvCq = cqA;
    init.cap.maxSendWr = o.depth;
    p.qpA = a.createQp(pdA, init).value;
    init.sendCq = init.recvCq = cqB;
    p.qpB = b.createQp(pdB, init).value;
    p.src = a.regMr(pdA, a.allocate(o.message), o.message, access::kLocalWrite).value;
    p.dst =
        b.regMr(pdB, b.allocate(o.message), o.message, access::kLocalWrite | access::kRemoteWrite)
            .value;
    connect(a, p.qpA, b, p.qpB);
    connect(b, p.qpB, a, p.qpA);
    std::memset(a.memory(p.src.addr, o.message).data(), 0x5a ^ static_cast<int>(q & 0xff),
                o.message);
    // the receiver's first touch of its buffer (the OS's page faults) belongs to the set-up,
    // as ib_write_bw's memset of its buffer does
    std::memset(b.memory(p.dst.addr, o.message).data(), 0, o.message);
    p.toPost = writesPerQp;
  }
  auto post = [&](std::uint32_t q) {
    Pair& p = pairs[q];
    SendWr wr;
    wr.wrId = q;
    wr.opcode = WrOpcode::RdmaWrite;
    wr.sendFlags = send_flags::kSignaled;
    wr.sgList = {Sge{p.src.addr, static_cast<std::uint32_t>(o.message), p.src.lkey}};
    wr.remoteAddr = p.dst.addr;
    wr.rkey = p.dst.rkey;
    const auto st = a.postSend(p.qpA, wr);
    if (!st.ok()) {
      std::fprintf(stderr, "sim_write_bench: post_send: %s\n", st.message.c_str());
      std::exit(1);
    }
    --p.toPost;
    ++p.outstanding;
  };
  const double setupCpu = cpuNow();
  const double c0 = cpuNow();
  const auto t0 = std::chrono::steady_clock::now();
  for (std::uint32_t q = 0; q < o.qps; ++q)
    while (pairs[q].toPost > 0 && pairs[q].outstanding < o.depth)
      post(q);
  std::uint64_t completed = 0;
  const std::uint64_t total = writesPerQp * o.qps;
  std::string failure;
  while (completed < total && failure.empty()) {
    if (!net.sim().runWhile([&] { return a.cqCount(cqA) > 0; })) {
      failure = "the simulation ran out of events with " + std::to_string(total - completed) +
                " WRITEs unfinished";
      break;
    }
    for (const WorkCompletion& wc : a.pollCq(cqA, 256)) {
      if (wc.status != WcStatus::Success) {
        failure = "completion " + std::string(toString(wc.status));
        break;
      }
      ++completed;
      Pair& p = pairs[static_cast<std::uint32_t>(wc.wrId)];
      --p.outstanding;
      if (p.toPost > 0) post(static_cast<std::uint32_t>(wc.wrId));
    }
  }
  const auto t1 = std::chrono::steady_clock::now();
  const double cpu = cpuNow() - c0;
  const double secs = std::chrono::duration<double>(t1 - t0).count();
  bool same = failure.empty();
  for (std::uint32_t q = 0; q < o.qps && same; ++q)
    same = std::memcmp(a.memory(pairs[q].src.addr, o.message).data(),
                       b.memory(pairs[q].dst.addr, o.message).data(), o.message) == 0;
  const LinkStats& st = net.stats();
  std::printf(
      "bytes %llu writes %llu qps %u loss %g frames %llu lost %llu events %llu wall %.3f s cpu "
      "%.3f s (%.0f frames/cpu-s) setup_cpu %.3f s sim %.3f ms payload %s completion %s data "
      "%s\n",
      static_cast<unsigned long long>(o.bytes), static_cast<unsigned long long>(total), o.qps,
      o.loss, static_cast<unsigned long long>(st.framesSent),
      static_cast<unsigned long long>(st.framesLost),
      static_cast<unsigned long long>(net.sim().eventsRun()), secs, cpu,
      static_cast<double>(st.framesSent) / cpu, setupCpu, net.sim().now().seconds() * 1e3,
      o.reference ? "referenced" : "copied", failure.empty() ? "success" : failure.c_str(),
      same ? "equal" : "DIFFERENT");
  return failure.empty() && same ? 0 : 1;
}
