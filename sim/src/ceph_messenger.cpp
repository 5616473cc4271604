#include "rdmascope/sim/ceph_messenger.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <functional>
#include <memory>

#include "rdmascope/sim/network.h"
#include "rdmascope/sim/tcp_engine.h"

namespace rdmascope::sim {

namespace {

constexpr std::uint64_t kTxTag = 1ull << 32;
constexpr std::uint64_t kRxTag = 2ull << 32;
constexpr std::uint64_t kFinWrId = 3ull << 32;
const SimTime kLimit = SimTime::ms(60 * 1000);

std::vector<std::uint8_t> messageBytes(std::uint64_t n, std::uint64_t seed, std::uint32_t index) {
  std::vector<std::uint8_t> v(n);
  std::uint64_t x = (seed + index) * 0x9e3779b97f4a7c15ull + 7;
  for (auto& b : v) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    b = static_cast<std::uint8_t>(x);
  }
  return v;
}

std::int64_t psOf(double ns) {
  return static_cast<std::int64_t>(ns * 1000.0 + 0.5);
}

MacAddress macOf(int host) {
  // The TCP model's MACs, so that both halves of the RDMA stack's capture agree.
  return {0x02, 0x00, 0x00, 0x00, 0x00, static_cast<std::uint8_t>(host + 1)};
}

void addTcpCounters(CephHostCounters& c, const TcpHostCounters& t, bool withCopies) {
  if (withCopies) {
    c.copies += t.copyOperations;
    c.copyBytes += t.cpuBytesCopied;
  }
  c.syscalls += t.syscalls;
  c.contextSwitches += t.contextSwitches;
  c.interrupts += t.interrupts;
  c.cpuNs += t.cpuNs;
}

void finishFrames(CephStackReport& r) {
  std::stable_sort(
      r.frames.begin(), r.frames.end(),
      [](const TcpCapturedFrame& a, const TcpCapturedFrame& b) { return a.timePs < b.timePs; });
  for (const auto& f : r.frames)
    r.wireBytes += f.bytes.size();
  std::stable_sort(r.steps.begin(), r.steps.end(),
                   [](const CephStep& a, const CephStep& b) { return a.time < b.time; });
}

// The RDMA stack: RDMAConnectedSocketImpl on both ends, with the dispatcher that polls the
// CQs and the worker that reads, on one CPU per host.
class RdmaRun {
 public:
  RdmaRun(const CephMessengerOptions& o, CephStackReport& r) : o_(o), r_(r) {}

  bool run(std::string& error);

 private:
  struct Side {
    std::uint32_t pd = 0, txCq = 0, rxCq = 0, srq = 0, qpn = 0, psn = 0;
    std::uint64_t txBase = 0, rxBase = 0;
    MemoryRegionInfo txMr, rxMr;
    std::deque<int> freeTx;
    std::int64_t cpuFreeAtPs = 0;
    bool dispatcherQueued = false;
    bool workerBusy = false;
    std::deque<std::pair<int, std::uint32_t>> received;  // chunk, bytes
  };

  Host& host(int h) { return net_->host(h); }
  Simulator& sim() { return net_->sim(); }
  void step(int h, CephStepKind kind, std::uint32_t message = 0, int chunk = -1,
            std::uint64_t bytes = 0, std::uint32_t chunks = 0, std::string text = {}) {
    CephStep s;
    s.time = sim().now();
    s.host = h;
    s.kind = kind;
    s.message = message;
    s.chunk = chunk;
    s.bytes = bytes;
    s.chunks = chunks;
    s.qpn = side_[h].qpn;
    s.text = std::move(text);
    r_.steps.push_back(std::move(s));
  }
  // Work on host h's CPU, after the work queued before it.
  void cpu(int h, double ns, std::function<void()> then) {
    Side& s = side_[h];
    const std::int64_t now = sim().now().picos();
    const std::int64_t start = std::max(now, s.cpuFreeAtPs);
    s.cpuFreeAtPs = start + psOf(ns);
    r_.hosts[h].cpuNs += ns;
    sim().schedule(SimTime::ps(s.cpuFreeAtPs - now), std::move(then));
  }
  double copyNs(std::uint64_t bytes) const {
    return static_cast<double>(bytes) * 1e9 / o_.costs.memcpyBytesPerSec;
  }

  bool setUp(std::string& error);
  bool exchange(std::string& error);
  bool activate(int h, const CephQpInfo& peer, std::string& error);
  void submit();
  void dispatch(int h);
  void work(int h);
  void delivered();

  const CephMessengerOptions& o_;
  CephStackReport& r_;
  std::unique_ptr<Network> net_;
  std::unique_ptr<SimulatorScheduler> scheduler_;
  std::unique_ptr<TcpNetwork> side_channel_;
  std::array<Side, 2> side_;
  std::vector<std::vector<std::uint8_t>> sent_;
  std::vector<std::uint8_t> reading_;
  std::uint32_t current_ = 0;    // 0-based message being sent
  std::uint64_t submitted_ = 0;  // bytes of it handed to chunks
  bool waitingForChunks_ = false;
  SimTime messageStart_;
  SimTime firstStart_;
  bool allDelivered_ = false;
  bool finSent_ = false;
  bool finCompleted_ = false;
  bool intact_ = true;
};

bool RdmaRun::setUp(std::string& error) {
  NetworkConfig cfg = Network::defaultConfig();
  cfg.seed = o_.seed;
  cfg.captureFrames = true;
  cfg.link.gbps = o_.costs.linkBitsPerSec / 1e9;
  cfg.link.latency = SimTime::ps(psOf(o_.costs.propagationNs));
  cfg.link.mtu = static_cast<std::uint32_t>(o_.costs.mtu);
  for (int h = 0; h < 2; ++h) {
    cfg.hosts[h].mac = macOf(h);
    cfg.hosts[h].lid = 0;  // RoCE ports have no LID: Ceph sends 0000
  }
  cfg.hosts[0].name = "client";
  cfg.hosts[1].name = "osd";
  net_ = std::make_unique<Network>(cfg);
  sim().trace().setEnabled(o_.trace);
  for (int h = 0; h < 2; ++h) {
    Host& x = host(h);
    Side& s = side_[h];
    s.pd = x.allocPd().value;
    const int depth = static_cast<int>(o_.sendBuffers + o_.receiveBuffers + 2);
    s.txCq = x.createCq(depth).value;
    s.rxCq = x.createCq(depth).value;
    const std::uint64_t txBytes = std::uint64_t{o_.bufferSize} * o_.sendBuffers;
    const std::uint64_t rxBytes = std::uint64_t{o_.bufferSize} * o_.receiveBuffers;
    s.txBase = x.allocate(txBytes);
    s.rxBase = x.allocate(rxBytes);
    auto tx = x.regMr(s.pd, s.txBase, txBytes, access::kLocalWrite);
    auto rx = x.regMr(s.pd, s.rxBase, rxBytes, access::kLocalWrite);
    if (!tx.ok() || !rx.ok()) {
      error = "registering the chunk pools failed: " + tx.status.message + rx.status.message;
      return false;
    }
    s.txMr = tx.value;
    s.rxMr = rx.value;
    SrqAttr sa;
    sa.maxWr = o_.receiveBuffers;
    sa.maxSge = 1;
    auto srq = x.createSrq(s.pd, sa);
    if (!srq.ok()) {
      error = "creating the shared receive queue failed: " + srq.status.message;
      return false;
    }
    s.srq = srq.value;
    QpInitAttr init;
    init.qpType = QpType::RC;
    init.sendCq = s.txCq;
    init.recvCq = s.rxCq;
    init.srq = s.srq;
    init.cap.maxSendWr = o_.sendBuffers + 1;
    init.cap.maxSendSge = 1;
    auto qp = x.createQp(s.pd, init);
    if (!qp.ok()) {
      error = "creating the QP failed: " + qp.status.message;
      return false;
    }
    s.qpn = qp.value;
    s.psn = static_cast<std::uint32_t>(sim().rng()() & 0xffffff);
    QpAttr a;
    a.qpState = QpState::Init;
    a.pkeyIndex = 0;
    a.portNum = 1;
    a.qpAccessFlags = access::kRemoteWrite | access::kLocalWrite;
    namespace m = attr_mask;
    if (auto st = x.modifyQp(s.qpn, a, m::kState | m::kPkeyIndex | m::kPort | m::kAccessFlags);
        !st.ok()) {
      error = "moving the QP to INIT failed: " + st.message;
      return false;
    }
    for (std::uint32_t i = 0; i < o_.sendBuffers; ++i)
      s.freeTx.push_back(static_cast<int>(i));
    for (std::uint32_t i = 0; i < o_.receiveBuffers; ++i) {
      RecvWr wr;
      wr.wrId = kRxTag | i;
      wr.sgList.push_back(
          {s.rxBase + std::uint64_t{i} * o_.bufferSize, o_.bufferSize, s.rxMr.lkey});
      if (auto st = x.postSrqRecv(s.srq, wr); !st.ok()) {
        error = "posting receive chunks failed: " + st.message;
        return false;
      }
    }
    r_.hosts[h].doorbells += o_.receiveBuffers;
    r_.hosts[h].cpuNs += o_.costs.doorbellNs * o_.receiveBuffers;
    step(h, CephStepKind::ReceivesPosted, 0, -1, std::uint64_t{o_.bufferSize} * o_.receiveBuffers,
         o_.receiveBuffers);
    x.setCompletionHook([this, h](std::uint32_t) {
      Side& sd = side_[h];
      if (sd.dispatcherQueued) return;
      sd.dispatcherQueued = true;
      const std::int64_t now = sim().now().picos();
      sim().schedule(SimTime::ps(std::max<std::int64_t>(0, sd.cpuFreeAtPs - now)),
                     [this, h] { dispatch(h); });
    });
  }
  TcpNetworkConfig tc;
  tc.costs = o_.costs;
  tc.serverPort = kCephOsdPort;
  scheduler_ = std::make_unique<SimulatorScheduler>(sim());
  side_channel_ = std::make_unique<TcpNetwork>(*scheduler_, tc);
  return true;
}

bool RdmaRun::activate(int h, const CephQpInfo& peer, std::string& error) {
  Side& s = side_[h];
  namespace m = attr_mask;
  QpAttr a;
  a.qpState = QpState::Rtr;
  a.pathMtu = Mtu::Mtu1024;
  a.destQpNum = peer.qpn;
  a.rqPsn = peer.psn;
  a.maxDestRdAtomic = 1;
  a.minRnrTimer = 12;
  a.ahAttr.isGlobal = true;
  a.ahAttr.hopLimit = 6;
  a.ahAttr.dgid = peer.gid;
  a.ahAttr.sgidIndex = 1;
  a.ahAttr.dlid = peer.lid;
  a.ahAttr.portNum = 1;
  auto st = host(h).modifyQp(s.qpn, a,
                             m::kState | m::kAv | m::kPathMtu | m::kDestQpn | m::kRqPsn |
                                 m::kMinRnrTimer | m::kMaxDestRdAtomic);
  if (st.ok()) {
    a.qpState = QpState::Rts;
    a.timeout = 14;
    a.retryCnt = 7;
    a.rnrRetry = 7;
    a.sqPsn = s.psn;
    a.maxRdAtomic = 1;
    st = host(h).modifyQp(
        s.qpn, a,
        m::kState | m::kTimeout | m::kRetryCnt | m::kRnrRetry | m::kSqPsn | m::kMaxQpRdAtomic);
  }
  if (!st.ok()) {
    error = "activating the QP failed: " + st.message;
    return false;
  }
  step(h, CephStepKind::QpReady);
  return true;
}

bool RdmaRun::exchange(std::string& error) {
  TcpNetwork& tcp = *side_channel_;
  tcp.connect();
  if (!sim().runWhile([&] { return tcp.endpoint(1).state() == TcpState::Established; }, kLimit)) {
    error = "the TCP side channel did not connect";
    return false;
  }
  step(0, CephStepKind::SideChannelConnected);
  // Client: its info with peer_qpn 0; OSD: its own with the client's QPN; client: the ack.
  const int senders[3] = {0, 1, 0};
  CephQpInfo learned[2];
  for (int i = 0; i < 3; ++i) {
    const int from = senders[i];
    const int to = 1 - from;
    const Side& s = side_[from];
    const std::uint32_t peerQpn = i == 0 ? 0 : side_[to].qpn;
    const std::string text =
        formatCephQpInfo(host(from).config().lid, s.qpn, s.psn, peerQpn, host(from).gid());
    r_.qpInfo[static_cast<std::size_t>(i)] = text;
    std::vector<std::uint8_t> bytes(text.begin(), text.end());
    bytes.push_back(0);
    bool got = false;
    std::vector<std::uint8_t> in;
    tcp.appReceive(to, kCephQpInfoBytes, kCephQpInfoBytes, [&](std::vector<std::uint8_t> b) {
      in = std::move(b);
      got = true;
    });
    step(from, CephStepKind::QpInfoSent, 0, -1, kCephQpInfoBytes, 0, text);
    tcp.appSend(from, std::move(bytes), kCephQpInfoBytes);
    if (!sim().runWhile([&] { return got; }, kLimit) || in.size() != kCephQpInfoBytes) {
      error = "the QP information message did not arrive";
      return false;
    }
    const std::string received(in.begin(), in.end() - 1);
    step(to, CephStepKind::QpInfoReceived, 0, -1, kCephQpInfoBytes, 0, received);
    const auto info = parseCephQpInfo(received);
    if (!info) {
      error = "the QP information message is malformed: '" + received + "'";
      return false;
    }
    learned[to] = *info;
    // The OSD activates on the client's first message, the client on the OSD's reply.
    if (i < 2 && !activate(to, *info, error)) return false;
  }
  return learned[1].peerQpn == side_[1].qpn && learned[0].peerQpn == side_[0].qpn;
}

void RdmaRun::submit() {
  Side& s = side_[0];
  const auto& msg = sent_[current_];
  const std::uint32_t number = current_ + 1;
  std::uint64_t left = msg.size() - submitted_;
  const std::uint64_t need = (left + o_.bufferSize - 1) / o_.bufferSize;
  const auto take = static_cast<std::uint32_t>(std::min<std::uint64_t>(need, s.freeTx.size()));
  if (take == 0) {
    waitingForChunks_ = true;
    step(0, CephStepKind::PoolEmpty, number, -1, left);
    return;
  }
  struct Piece {
    int chunk;
    std::uint64_t offset;
    std::uint32_t length;
  };
  auto pieces = std::make_shared<std::vector<Piece>>();
  for (std::uint32_t i = 0; i < take; ++i) {
    const int chunk = s.freeTx.front();
    s.freeTx.pop_front();
    const auto len = static_cast<std::uint32_t>(std::min<std::uint64_t>(left, o_.bufferSize));
    pieces->push_back({chunk, submitted_, len});
    submitted_ += len;
    left -= len;
    step(0, CephStepKind::ChunkTaken, number, chunk, len);
  }
  if (left > 0) {
    // Ceph's submit() sends what fits and leaves the rest pending (-EAGAIN).
    waitingForChunks_ = true;
    step(0, CephStepKind::PoolEmpty, number, -1, left);
  }
  // Each chunk is filled (copied, or built there by the client), then one post of the chain.
  for (const Piece& p : *pieces) {
    const std::uint64_t addr =
        s.txBase + std::uint64_t{static_cast<std::uint32_t>(p.chunk)} * o_.bufferSize;
    auto fill = [this, p, addr, number] {
      const auto& m = sent_[number - 1];
      auto dst = host(0).memory(addr, p.length);
      std::copy_n(m.begin() + static_cast<std::ptrdiff_t>(p.offset), p.length, dst.begin());
    };
    if (o_.preRegistered) {
      fill();
      step(0, CephStepKind::ChunkInPlace, number, p.chunk, p.length);
    } else {
      ++r_.hosts[0].copies;
      r_.hosts[0].copyBytes += p.length;
      cpu(0, copyNs(p.length), [this, fill, p, number] {
        fill();
        step(0, CephStepKind::CopyIntoChunk, number, p.chunk, p.length);
      });
    }
  }
  cpu(0, o_.costs.doorbellNs * take, [this, pieces, number] {
    Side& sd = side_[0];
    std::uint64_t bytes = 0;
    for (const Piece& p : *pieces) {
      SendWr wr;
      wr.wrId = kTxTag | static_cast<std::uint32_t>(p.chunk);
      wr.opcode = WrOpcode::Send;
      wr.sendFlags = send_flags::kSignaled;
      wr.sgList.push_back(
          {sd.txBase + std::uint64_t{static_cast<std::uint32_t>(p.chunk)} * o_.bufferSize, p.length,
           sd.txMr.lkey});
      host(0).postSend(sd.qpn, wr);
      bytes += p.length;
    }
    r_.sendWrs += pieces->size();
    r_.hosts[0].doorbells += pieces->size();
    ++r_.postSendCalls;
    step(0, CephStepKind::PostSend, number, -1, bytes, static_cast<std::uint32_t>(pieces->size()));
  });
}

void RdmaRun::dispatch(int h) {
  Side& s = side_[h];
  s.dispatcherQueued = false;
  auto tx = host(h).pollCq(s.txCq, 1 << 16);
  auto rx = host(h).pollCq(s.rxCq, 1 << 16);
  if (tx.empty() && rx.empty()) return;
  const std::size_t n = tx.size() + rx.size();
  r_.hosts[h].cqPolls += n;
  double ns = o_.costs.pollCqNs * static_cast<double>(n);
  bool data = false;
  for (const auto& wc : rx)
    data = data || wc.byteLen > 0;
  if (data) {
    ++r_.hosts[h].syscalls;  // eventfd_write: wake the connection's worker
    ns += o_.costs.syscallNs;
  }
  cpu(h, ns, [this, h, tx = std::move(tx), rx = std::move(rx), data] {
    Side& sd = side_[h];
    for (const auto& wc : tx) {
      if (wc.wrId == kFinWrId) {
        finCompleted_ = true;
        step(h, CephStepKind::SendCompletion);
        continue;
      }
      const int chunk = static_cast<int>(wc.wrId & 0xffffffffu);
      step(h, CephStepKind::SendCompletion, 0, chunk);
      sd.freeTx.push_back(chunk);
      step(h, CephStepKind::ChunkReturned, 0, chunk);
    }
    for (const auto& wc : rx) {
      const int chunk = static_cast<int>(wc.wrId & 0xffffffffu);
      if (wc.status != WcStatus::Success) {
        intact_ = false;
        continue;
      }
      step(h, CephStepKind::RecvCompletion, 0, chunk, wc.byteLen);
      if (wc.byteLen == 0) {
        r_.finReceived = true;
        step(h, CephStepKind::FinReceived, 0, chunk);
        // The fin's chunk goes back to the pool and to the SRQ at once.
        cpu(h, o_.costs.doorbellNs, [this, h, chunk] {
          Side& x = side_[h];
          RecvWr wr;
          wr.wrId = kRxTag | static_cast<std::uint32_t>(chunk);
          wr.sgList.push_back(
              {x.rxBase + std::uint64_t{static_cast<std::uint32_t>(chunk)} * o_.bufferSize,
               o_.bufferSize, x.rxMr.lkey});
          host(h).postSrqRecv(x.srq, wr);
          ++r_.hosts[h].doorbells;
          ++r_.chunksReposted;
          step(h, CephStepKind::ChunkReposted, 0, chunk);
        });
        continue;
      }
      sd.received.emplace_back(chunk, wc.byteLen);
    }
    if (waitingForChunks_ && h == 0 && !sd.freeTx.empty()) {
      waitingForChunks_ = false;
      submit();
    }
    if (data && !sd.workerBusy) {
      sd.workerBusy = true;
      ++r_.hosts[h].contextSwitches;
      ++r_.hosts[h].syscalls;  // eventfd_read in the woken worker
      cpu(h, o_.costs.contextSwitchNs + o_.costs.syscallNs, [this, h] {
        step(h, CephStepKind::Notified);
        work(h);
      });
    }
  });
}

void RdmaRun::work(int h) {
  Side& s = side_[h];
  if (s.received.empty()) {
    s.workerBusy = false;
    return;
  }
  const auto [chunk, len] = s.received.front();
  s.received.pop_front();
  ++r_.hosts[h].copies;
  r_.hosts[h].copyBytes += len;
  ++r_.hosts[h].doorbells;
  cpu(h, copyNs(len) + o_.costs.doorbellNs, [this, h, chunk = chunk, len = len] {
    Side& x = side_[h];
    const std::uint64_t addr =
        x.rxBase + std::uint64_t{static_cast<std::uint32_t>(chunk)} * o_.bufferSize;
    const auto src = host(h).memory(addr, len);
    reading_.insert(reading_.end(), src.begin(), src.end());
    step(h, CephStepKind::CopyOut, current_ + 1, chunk, len);
    RecvWr wr;
    wr.wrId = kRxTag | static_cast<std::uint32_t>(chunk);
    wr.sgList.push_back({addr, o_.bufferSize, x.rxMr.lkey});
    host(h).postSrqRecv(x.srq, wr);
    ++r_.chunksReposted;
    step(h, CephStepKind::ChunkReposted, current_ + 1, chunk);
    if (reading_.size() >= sent_[current_].size()) delivered();
    work(h);
  });
}

void RdmaRun::delivered() {
  const auto& want = sent_[current_];
  if (reading_ != want) intact_ = false;
  r_.payloadBytes += reading_.size();
  step(1, CephStepKind::MessageDelivered, current_ + 1, -1, reading_.size());
  r_.latencyUs.push_back((sim().now() - messageStart_).micros());
  reading_.clear();
  ++current_;
  if (current_ == sent_.size()) {
    allDelivered_ = true;
    r_.elapsedUs = (sim().now() - firstStart_).micros();
    // close(): the fin, a zero-length signalled SEND with no SGE.
    cpu(0, o_.costs.doorbellNs, [this] {
      SendWr wr;
      wr.wrId = kFinWrId;
      wr.opcode = WrOpcode::Send;
      wr.sendFlags = send_flags::kSignaled;
      host(0).postSend(side_[0].qpn, wr);
      ++r_.sendWrs;
      ++r_.postSendCalls;
      ++r_.hosts[0].doorbells;
      finSent_ = true;
      step(0, CephStepKind::FinSent, 0, -1, 0, 1);
    });
    return;
  }
  submitted_ = 0;
  messageStart_ = sim().now();
  step(0, CephStepKind::MessageSubmitted, current_ + 1, -1, sent_[current_].size());
  submit();
}

bool RdmaRun::run(std::string& error) {
  if (!setUp(error)) return false;
  if (!exchange(error)) {
    if (error.empty()) error = "the QP information exchange named the wrong QPs";
    return false;
  }
  for (std::uint32_t i = 0; i < o_.messages; ++i)
    sent_.push_back(messageBytes(o_.messageBytes, o_.seed, i));
  firstStart_ = messageStart_ = sim().now();
  step(0, CephStepKind::MessageSubmitted, 1, -1, sent_[0].size());
  submit();
  if (!sim().runWhile([&] { return r_.finReceived && finCompleted_; }, kLimit)) {
    error = "the RDMA stack's run did not finish (" + std::to_string(current_) + " of " +
            std::to_string(o_.messages) + " messages delivered)";
    return false;
  }
  // The side channel closes with the socket.
  step(0, CephStepKind::SocketClosed);
  side_channel_->endpoint(0).close();
  side_channel_->endpoint(1).close();
  sim().runUntil(sim().now() + SimTime::ms(1));
  r_.dataIntact = intact_ && allDelivered_;
  for (const auto& f : net_->frames()) {
    TcpCapturedFrame c;
    c.timePs = f.time.picos();
    c.fromHost = f.fromHost;
    c.bytes = f.bytes;
    r_.frames.push_back(std::move(c));
  }
  r_.roceFrames = net_->frames().size();
  for (const auto& f : side_channel_->frames())
    r_.frames.push_back(f);
  r_.tcpFrames = side_channel_->frames().size();
  for (int h = 0; h < 2; ++h)
    addTcpCounters(r_.hosts[h], side_channel_->counters(h), false);
  if (o_.trace) r_.trace = sim().trace().events();
  return true;
}

// The POSIX stack: PosixConnectedSocketImpl's send() and read() on a TCP socket.
bool runPosix(const CephMessengerOptions& o, CephStackReport& r, std::string& error) {
  Simulator sim(o.seed);
  sim.trace().setEnabled(true);
  sim.trace().setRetain(o.trace);
  SimulatorScheduler scheduler(sim);
  TcpNetworkConfig cfg;
  cfg.costs = o.costs;
  cfg.serverPort = kCephOsdPort;
  cfg.tcp.sendBufferBytes = static_cast<std::uint32_t>(std::min(o.costs.sndbufBytes, 1e9));
  TcpNetwork net(scheduler, cfg);
  std::uint32_t current = 0;
  sim.trace().subscribe([&](const TraceEvent& e) {
    CephStep s;
    s.time = e.time;
    s.host = e.host == "host-a" ? 0 : 1;
    s.message = current + 1;
    s.bytes = e.args.bytes.value_or(0);
    switch (e.what) {
      case Narrative::TcpSendCall:
        s.kind = CephStepKind::SocketSend;
        break;
      case Narrative::TcpRecvCall:
        s.kind = CephStepKind::SocketRecv;
        break;
      case Narrative::TcpCopy:
        s.kind = e.reason == Reason::CopyIntoSocketBuffer ? CephStepKind::SocketCopyIn
                                                          : CephStepKind::SocketCopyOut;
        break;
      default:
        return;
    }
    r.steps.push_back(std::move(s));
  });
  net.connect();
  if (!sim.runWhile([&] { return net.endpoint(1).state() == TcpState::Established; }, kLimit)) {
    error = "the TCP connection did not establish";
    return false;
  }
  auto stepAt = [&](int h, CephStepKind kind, std::uint32_t message, std::uint64_t bytes) {
    CephStep s;
    s.time = sim.now();
    s.host = h;
    s.kind = kind;
    s.message = message;
    s.bytes = bytes;
    r.steps.push_back(std::move(s));
  };
  stepAt(0, CephStepKind::SideChannelConnected, 0, 0);
  const SimTime first = sim.now();
  bool intact = true;
  for (current = 0; current < o.messages; ++current) {
    auto data = messageBytes(o.messageBytes, o.seed, current);
    bool got = false;
    std::vector<std::uint8_t> in;
    const SimTime start = sim.now();
    stepAt(0, CephStepKind::MessageSubmitted, current + 1, data.size());
    const auto io = static_cast<std::uint32_t>(o.messageBytes);
    net.appReceive(1, data.size(), io, [&](std::vector<std::uint8_t> b) {
      in = std::move(b);
      got = true;
    });
    net.appSend(0, data, io);
    if (!sim.runWhile([&] { return got; }, kLimit)) {
      error = "message " + std::to_string(current + 1) + " did not arrive over TCP";
      return false;
    }
    intact = intact && in == data;
    r.payloadBytes += in.size();
    r.latencyUs.push_back((sim.now() - start).micros());
    stepAt(1, CephStepKind::MessageDelivered, current + 1, in.size());
  }
  r.elapsedUs = (sim.now() - first).micros();
  stepAt(0, CephStepKind::SocketClosed, 0, 0);
  net.endpoint(0).close();
  net.endpoint(1).close();
  sim.runUntil(sim.now() + SimTime::ms(1));
  r.dataIntact = intact;
  r.frames = net.frames();
  r.tcpFrames = r.frames.size();
  for (int h = 0; h < 2; ++h)
    addTcpCounters(r.hosts[h], net.counters(h), true);
  if (o.trace) r.trace = sim.trace().events();
  return true;
}

}  // namespace

std::string_view toString(CephStack stack) {
  return stack == CephStack::Rdma ? "async+rdma" : "async+posix";
}

std::string_view toString(CephStepKind kind) {
  switch (kind) {
    case CephStepKind::SideChannelConnected:
      return "tcp-connected";
    case CephStepKind::QpInfoSent:
      return "qp-info-sent";
    case CephStepKind::QpInfoReceived:
      return "qp-info-received";
    case CephStepKind::QpReady:
      return "qp-ready";
    case CephStepKind::ReceivesPosted:
      return "receives-posted";
    case CephStepKind::MessageSubmitted:
      return "message-submitted";
    case CephStepKind::ChunkTaken:
      return "chunk-taken";
    case CephStepKind::CopyIntoChunk:
      return "copy-into-chunk";
    case CephStepKind::ChunkInPlace:
      return "chunk-in-place";
    case CephStepKind::PostSend:
      return "post-send";
    case CephStepKind::SendCompletion:
      return "send-completion";
    case CephStepKind::ChunkReturned:
      return "chunk-returned";
    case CephStepKind::PoolEmpty:
      return "pool-empty";
    case CephStepKind::RecvCompletion:
      return "recv-completion";
    case CephStepKind::Notified:
      return "notified";
    case CephStepKind::CopyOut:
      return "copy-out";
    case CephStepKind::ChunkReposted:
      return "chunk-reposted";
    case CephStepKind::MessageDelivered:
      return "message-delivered";
    case CephStepKind::FinSent:
      return "fin-sent";
    case CephStepKind::FinReceived:
      return "fin-received";
    case CephStepKind::SocketSend:
      return "send";
    case CephStepKind::SocketCopyIn:
      return "copy-into-socket";
    case CephStepKind::SocketRecv:
      return "recv";
    case CephStepKind::SocketCopyOut:
      return "copy-out-of-socket";
    case CephStepKind::SocketClosed:
      return "closed";
  }
  return "?";
}

std::string describe(const CephStep& s) {
  const std::string who = s.host == 0 ? "client" : "OSD";
  switch (s.kind) {
    case CephStepKind::SideChannelConnected:
      return "the TCP connection between client and OSD is established";
    case CephStepKind::QpInfoSent:
      return fmt::format("{} writes its QP information to the TCP socket: \"{}\"", who, s.text);
    case CephStepKind::QpInfoReceived:
      return fmt::format("{} reads the peer's QP information: \"{}\"", who, s.text);
    case CephStepKind::QpReady:
      return fmt::format("{} moves QP {:#x} to RTR and RTS with the peer's QPN, PSN and GID", who,
                         s.qpn);
    case CephStepKind::ReceivesPosted:
      return fmt::format("{} posts {} registered chunks ({} bytes) to its shared receive queue",
                         who, s.chunks, s.bytes);
    case CephStepKind::MessageSubmitted:
      return fmt::format("{} sends message {} ({} bytes)", who, s.message, s.bytes);
    case CephStepKind::ChunkTaken:
      return fmt::format("{} takes send chunk {} from the pool for {} bytes", who, s.chunk,
                         s.bytes);
    case CephStepKind::CopyIntoChunk:
      return fmt::format("{}'s CPU copies {} bytes of the bufferlist into registered chunk {}", who,
                         s.bytes, s.chunk);
    case CephStepKind::ChunkInPlace:
      return fmt::format("the bufferlist already lives in registered chunk {}: no copy", s.chunk);
    case CephStepKind::PostSend:
      return fmt::format("{} posts {} signalled SEND(s) of {} bytes with one ibv_post_send", who,
                         s.chunks, s.bytes);
    case CephStepKind::SendCompletion:
      return s.chunk < 0 ? fmt::format("{} polls the fin's send completion", who)
                         : fmt::format("{} polls the send completion of chunk {}", who, s.chunk);
    case CephStepKind::ChunkReturned:
      return fmt::format("send chunk {} goes back to {}'s pool", s.chunk, who);
    case CephStepKind::PoolEmpty:
      return fmt::format("{}'s send pool is empty: {} bytes wait for completions", who, s.bytes);
    case CephStepKind::RecvCompletion:
      return fmt::format("{} polls a receive completion: chunk {} holds {} bytes", who, s.chunk,
                         s.bytes);
    case CephStepKind::Notified:
      return fmt::format("{}'s dispatcher wakes the connection (eventfd write, read)", who);
    case CephStepKind::CopyOut:
      return fmt::format("{}'s CPU copies {} bytes out of chunk {} to the reader", who, s.bytes,
                         s.chunk);
    case CephStepKind::ChunkReposted:
      return fmt::format("{} posts chunk {} back to the shared receive queue", who, s.chunk);
    case CephStepKind::MessageDelivered:
      return fmt::format("{} holds all {} bytes of message {}", who, s.bytes, s.message);
    case CephStepKind::FinSent:
      return fmt::format("{} closes: a zero-length signalled SEND (the fin)", who);
    case CephStepKind::FinReceived:
      return fmt::format("{} gets a zero-length receive: the peer closed", who);
    case CephStepKind::SocketSend:
      return fmt::format("{} calls send() with {} bytes", who, s.bytes);
    case CephStepKind::SocketCopyIn:
      return fmt::format("{}'s kernel copies {} bytes into the socket send buffer", who, s.bytes);
    case CephStepKind::SocketRecv:
      return fmt::format("{} calls recv()", who);
    case CephStepKind::SocketCopyOut:
      return fmt::format("{}'s kernel copies {} bytes from the socket to the reader", who, s.bytes);
    case CephStepKind::SocketClosed:
      return "the TCP connection closes";
  }
  return {};
}

std::string formatCephQpInfo(std::uint16_t lid, std::uint32_t qpn, std::uint32_t psn,
                             std::uint32_t peerQpn, const Gid& gid) {
  std::string text = fmt::format("{:04x}:{:08x}:{:08x}:{:08x}:", lid, qpn, psn, peerQpn);
  for (const std::uint8_t b : gid)
    text += fmt::format("{:02x}", b);
  return text;
}

std::optional<CephQpInfo> parseCephQpInfo(std::string_view t) {
  if (t.size() != kCephQpInfoBytes - 1 || t[4] != ':' || t[13] != ':' || t[22] != ':' ||
      t[31] != ':')
    return std::nullopt;
  auto hex = [&](std::size_t at, std::size_t n, std::uint64_t& v) {
    v = 0;
    for (std::size_t i = at; i < at + n; ++i) {
      const char c = t[i];
      int d = -1;
      if (c >= '0' && c <= '9') d = c - '0';
      if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
      if (d < 0) return false;
      v = v * 16 + static_cast<std::uint64_t>(d);
    }
    return true;
  };
  CephQpInfo info;
  std::uint64_t v = 0;
  if (!hex(0, 4, v)) return std::nullopt;
  info.lid = static_cast<std::uint16_t>(v);
  if (!hex(5, 8, v)) return std::nullopt;
  info.qpn = static_cast<std::uint32_t>(v);
  if (!hex(14, 8, v)) return std::nullopt;
  info.psn = static_cast<std::uint32_t>(v);
  if (!hex(23, 8, v)) return std::nullopt;
  info.peerQpn = static_cast<std::uint32_t>(v);
  for (std::size_t i = 0; i < info.gid.size(); ++i) {
    if (!hex(32 + 2 * i, 2, v)) return std::nullopt;
    info.gid[i] = static_cast<std::uint8_t>(v);
  }
  return info;
}

std::optional<std::string> validate(const CephMessengerOptions& o) {
  if (o.messageBytes == 0 || o.messageBytes > kCephMaxMessageBytes)
    return "message size must lie in 1..16M bytes, not " + std::to_string(o.messageBytes);
  if (o.messages == 0 || o.messages > kCephMaxMessages)
    return "message count must lie in 1..1000, not " + std::to_string(o.messages);
  if (o.bufferSize < 1024 || o.bufferSize > (16u << 20))
    return "RDMA buffer size must lie in 1K..16M bytes, not " + std::to_string(o.bufferSize);
  if (o.sendBuffers == 0 || o.sendBuffers > 1024)
    return "send buffers must lie in 1..1024, not " + std::to_string(o.sendBuffers);
  if (o.receiveBuffers == 0 || o.receiveBuffers > 1024)
    return "receive buffers must lie in 1..1024, not " + std::to_string(o.receiveBuffers);
  if (std::uint64_t{o.bufferSize} * std::max(o.sendBuffers, o.receiveBuffers) > (256ull << 20))
    return "a chunk pool may hold at most 256 MiB (buffer size times buffers)";
  return validate(o.costs);
}

std::optional<CephStackReport> runCephMessenger(CephStack stack, const CephMessengerOptions& o,
                                                std::string& error) {
  if (auto bad = validate(o)) {
    error = *bad;
    return std::nullopt;
  }
  CephStackReport r;
  r.stack = stack;
  if (stack == CephStack::Rdma) {
    RdmaRun run(o, r);
    if (!run.run(error)) return std::nullopt;
  } else if (!runPosix(o, r, error)) {
    return std::nullopt;
  }
  finishFrames(r);
  return r;
}

}  // namespace rdmascope::sim
