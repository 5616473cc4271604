#include "rdmascope/ui/scenario_player.h"

#include <cstring>
#include <map>
#include <memory>

namespace rdmascope::ui {

namespace {

using sim::SimTime;

constexpr std::uint64_t kBufferSize = 8192;

struct Side {
  std::uint32_t pd = 0, cq = 0, qpn = 0;
  std::uint64_t buf = 0;
  sim::MemoryRegionInfo mr;
};

/// One verbs-level action of a script, run at a simulated time.
struct Action {
  SimTime at;
  std::size_t phase;
  int host;
  std::string what;  // the note shown for the action
  std::function<sim::VerbsStatus()> run;
};

class Script {
 public:
  Script(sim::Network& net, ScenarioRecording& rec) : net_(net), rec_(rec) {}

  std::size_t phase(std::string title, std::string text) {
    rec_.phases.push_back({std::move(title), std::move(text)});
    return rec_.phases.size() - 1;
  }
  void add(SimTime at, std::size_t phase, int host, std::string what,
           std::function<sim::VerbsStatus()> run) {
    actions_.push_back({at, phase, host, std::move(what), std::move(run)});
  }
  std::vector<Action>& actions() { return actions_; }

  Side side[2];
  sim::Network& net_;

 private:
  ScenarioRecording& rec_;
  std::vector<Action> actions_;
};

sim::VerbsStatus modifyTo(sim::Network& net, int h, Side (&s)[2], sim::QpState to) {
  namespace m = sim::attr_mask;
  sim::Host& host = net.host(h);
  const Side& me = s[h];
  const Side& peer = s[1 - h];
  sim::QpAttr a;
  a.qpState = to;
  unsigned mask = m::kState;
  switch (to) {
    case sim::QpState::Init:
      a.pkeyIndex = 0;
      a.portNum = 1;
      a.qpAccessFlags = sim::access::kRemoteWrite | sim::access::kRemoteRead |
                        sim::access::kRemoteAtomic | sim::access::kLocalWrite;
      mask |= m::kPkeyIndex | m::kPort | m::kAccessFlags;
      break;
    case sim::QpState::Rtr:
      a.pathMtu = sim::Mtu::Mtu1024;
      a.destQpNum = peer.qpn;
      a.rqPsn = h == 0 ? 0x200 : 0x100;
      a.ahAttr.isGlobal = true;
      a.ahAttr.dgid = net.host(1 - h).gid();
      a.ahAttr.dlid = net.host(1 - h).config().lid;
      a.maxDestRdAtomic = 16;
      a.minRnrTimer = 1;  // 0.01 ms: the RNR retry comes back quickly
      mask |=
          m::kAv | m::kPathMtu | m::kDestQpn | m::kRqPsn | m::kMaxDestRdAtomic | m::kMinRnrTimer;
      break;
    case sim::QpState::Rts:
      a.sqPsn = h == 0 ? 0x100 : 0x200;
      a.timeout = 14;
      a.retryCnt = 7;
      a.rnrRetry = 7;
      a.maxRdAtomic = 16;
      mask |= m::kSqPsn | m::kTimeout | m::kRetryCnt | m::kRnrRetry | m::kMaxQpRdAtomic;
      break;
    default:
      break;
  }
  return host.modifyQp(me.qpn, a, mask);
}

sim::SendWr sendWr(std::uint64_t id, sim::WrOpcode op, const Side& s, std::uint64_t off,
                   std::uint32_t len, const Side& remote, std::uint64_t roff) {
  sim::SendWr wr;
  wr.wrId = id;
  wr.opcode = op;
  wr.sendFlags = sim::send_flags::kSignaled;
  wr.sgList = {sim::Sge{s.buf + off, len, s.mr.lkey}};
  wr.remoteAddr = remote.buf + roff;
  wr.rkey = remote.mr.rkey;
  return wr;
}

sim::RecvWr recvWr(std::uint64_t id, const Side& s, std::uint64_t off, std::uint32_t len) {
  sim::RecvWr wr;
  wr.wrId = id;
  wr.sgList = {sim::Sge{s.buf + off, len, s.mr.lkey}};
  return wr;
}

void fillText(std::span<std::uint8_t> m, const std::string& text) {
  for (std::size_t i = 0; i < m.size(); ++i)
    m[i] = static_cast<std::uint8_t>(text[i % text.size()]);
}

void addSetup(Script& sc) {
  sim::Network& net = sc.net_;
  const std::size_t p = sc.phase(
      "Set up both hosts",
      "Each host opens its device, allocates a protection domain, creates a completion queue, "
      "registers 8 KiB of memory (getting an lkey for itself and an rkey for its peer), and "
      "creates an RC queue pair, which starts in RESET.");
  for (int h = 0; h < 2; ++h) {
    sc.add(SimTime::us(0), p, h,
           "ibv_alloc_pd, ibv_create_cq and ibv_reg_mr of 8 KiB (local write, remote read/write)",
           [&sc, &net, h]() -> sim::VerbsStatus {
             sim::Host& host = net.host(h);
             Side& s = sc.side[h];
             auto pd = host.allocPd();
             if (!pd.ok()) return pd.status;
             s.pd = pd.value;
             auto cq = host.createCq(64);
             if (!cq.ok()) return cq.status;
             s.cq = cq.value;
             s.buf = host.allocate(kBufferSize);
             auto mr = host.regMr(s.pd, s.buf, kBufferSize,
                                  sim::access::kLocalWrite | sim::access::kRemoteWrite |
                                      sim::access::kRemoteRead | sim::access::kRemoteAtomic);
             if (!mr.ok()) return mr.status;
             s.mr = mr.value;
             return {};
           });
  }
  for (int h = 0; h < 2; ++h) {
    sc.add(SimTime::us(0), p, h, "ibv_create_qp: an RC QP with this CQ for sends and receives",
           [&sc, &net, h]() -> sim::VerbsStatus {
             sim::QpInitAttr init;
             init.qpType = sim::QpType::RC;
             init.sendCq = init.recvCq = sc.side[h].cq;
             init.cap.maxSendWr = init.cap.maxRecvWr = 16;
             auto q = net.host(h).createQp(sc.side[h].pd, init);
             if (!q.ok()) return q.status;
             sc.side[h].qpn = q.value;
             return {};
           });
  }
  const std::size_t c = sc.phase(
      "Connect the queue pairs",
      "The QPs are exchanged out of band (QP number, PSN, GID) and each is moved RESET -> INIT "
      "-> RTR (ready to receive: it knows its peer) -> RTS (ready to send), each step with an "
      "explicit attribute mask, as rc_pingpong does.");
  const struct {
    sim::QpState to;
    const char* what;
  } steps[] = {
      {sim::QpState::Init, "ibv_modify_qp to INIT: P_Key index, port, remote access rights"},
      {sim::QpState::Rtr,
       "ibv_modify_qp to RTR: peer's QP number and GID, path MTU 1024, expected PSN"},
      {sim::QpState::Rts, "ibv_modify_qp to RTS: own starting PSN, timeout, retry counts"},
  };
  for (const auto& st : steps)
    for (int h = 0; h < 2; ++h)
      sc.add(SimTime::us(1), c, h, st.what,
             [&sc, &net, h, to = st.to] { return modifyTo(net, h, sc.side, to); });
}

void addTour(Script& sc) {
  sim::Network& net = sc.net_;
  addSetup(sc);
  Side* s = sc.side;

  const std::size_t send = sc.phase(
      "A multi-packet SEND",
      "Host B posts a receive; host A sends 3000 bytes. With a path MTU of 1024 the NIC cuts the "
      "message into SEND FIRST, MIDDLE and LAST, one PSN each. B's NIC places each payload in "
      "the receive buffer by DMA and acknowledges; both sides get a completion.");
  sc.add(SimTime::us(3), send, 1, "ibv_post_recv: 4096 bytes at offset 0 (wr_id 1)",
         [&net, s] { return net.host(1).postRecv(s[1].qpn, recvWr(1, s[1], 0, 4096)); });
  sc.add(SimTime::us(4), send, 0, "ibv_post_send: SEND of 3000 bytes from offset 0 (wr_id 101)",
         [&net, s] {
           fillText(net.host(0).memory(s[0].buf, 3000),
                    "Hello from host A: this SEND spans three packets. ");
           return net.host(0).postSend(s[0].qpn,
                                       sendWr(101, sim::WrOpcode::Send, s[0], 0, 3000, s[1], 0));
         });

  const std::size_t write = sc.phase(
      "An RDMA WRITE",
      "Host A writes 1500 bytes straight into host B's memory at an address and rkey B gave it. "
      "B's CPU does nothing and B gets no completion: only A learns, from the ACK, that the "
      "write is done.");
  sc.add(SimTime::us(20), write, 0,
         "ibv_post_send: RDMA WRITE of 1500 bytes to B's buffer at offset 4096 (wr_id 102)",
         [&net, s] {
           fillText(net.host(0).memory(s[0].buf + 4096, 1500), "WRITE by A, no CPU on B. ");
           return net.host(0).postSend(
               s[0].qpn, sendWr(102, sim::WrOpcode::RdmaWrite, s[0], 4096, 1500, s[1], 4096));
         });

  const std::size_t read = sc.phase(
      "An RDMA READ",
      "Host A reads 2000 bytes from host B's memory. One READ REQUEST goes out; B's NIC answers "
      "with READ RESPONSE FIRST and LAST, which carry the data and acknowledge the request.");
  sc.add(SimTime::us(40), read, 1, "host B's application leaves data in its buffer",
         [&net, s]() -> sim::VerbsStatus {
           fillText(net.host(1).memory(s[1].buf + 6144, 2000), "Data READ from host B. ");
           return {};
         });
  sc.add(SimTime::us(41), read, 0,
         "ibv_post_send: RDMA READ of 2000 bytes from B's offset 6144 into offset 6144 "
         "(wr_id 103)",
         [&net, s] {
           return net.host(0).postSend(
               s[0].qpn, sendWr(103, sim::WrOpcode::RdmaRead, s[0], 6144, 2000, s[1], 6144));
         });

  const std::size_t rnr = sc.phase(
      "Receiver not ready (RNR NAK)",
      "Host A sends again, but host B has no receive posted. B's NIC answers with an RNR NAK "
      "carrying a timer; A waits that long and retries the SEND, which succeeds once B has "
      "posted a receive.");
  sc.add(SimTime::us(60), rnr, 0, "ibv_post_send: SEND of 200 bytes (wr_id 104), no receive at B",
         [&net, s] {
           fillText(net.host(0).memory(s[0].buf + 3072, 200), "Are you ready? ");
           return net.host(0).postSend(s[0].qpn,
                                       sendWr(104, sim::WrOpcode::Send, s[0], 3072, 200, s[1], 0));
         });
  sc.add(SimTime::us(66), rnr, 1, "ibv_post_recv: 1024 bytes at offset 3072 (wr_id 2)",
         [&net, s] { return net.host(1).postRecv(s[1].qpn, recvWr(2, s[1], 3072, 1024)); });

  const std::size_t poll = sc.phase(
      "Poll the completions",
      "Each application calls ibv_poll_cq, in user space, and takes its completions from the CQ.");
  for (int h = 0; h < 2; ++h)
    sc.add(SimTime::us(120), poll, h, "ibv_poll_cq: take every completion",
           [&net, s, h]() -> sim::VerbsStatus {
             net.host(h).pollCq(s[h].cq, 16);
             return {};
           });
}

const std::map<std::string, void (*)(Script&)>& scripts() {
  static const std::map<std::string, void (*)(Script&)> m{{"tour", addTour}};
  return m;
}

// Completions as an application sees them over time: the simulator forgets a CQE once every
// queued one was polled, the view keeps it (greyed) so a learner sees what was taken.
struct CqHistory {
  std::vector<sim::WorkCompletion> all;
  std::size_t cleared = 0;  // entries the simulator dropped after they were all polled
};

HostSnapshot snapshotHost(sim::Host& host, const Side& s, CqHistory& history) {
  HostSnapshot h;
  for (std::uint32_t q : host.qpNumbers())
    h.qps.push_back(host.qpView(q));
  if (s.cq) {
    if (sim::Host::Cq* cq = host.cq(s.cq)) {
      if (cq->entries.size() < history.all.size() - history.cleared)
        history.cleared = history.all.size();
      for (std::size_t i = history.all.size() - history.cleared; i < cq->entries.size(); ++i)
        history.all.push_back(cq->entries[i]);
      CqSnapshot c;
      c.id = cq->id;
      c.entries = history.all;
      c.polled = history.cleared + cq->head;
      h.cqs.push_back(std::move(c));
    }
  }
  if (s.buf) {
    h.bufferAddr = s.buf;
    auto m = host.memory(s.buf, kBufferSize);
    h.buffer.assign(m.begin(), m.end());
  }
  return h;
}

}  // namespace

const std::vector<ScenarioInfo>& builtInScenarios() {
  static const std::vector<ScenarioInfo> list{
      {"tour", "Tour: SEND, WRITE, READ, RNR NAK",
       "Two hosts connect RC queue pairs, then a multi-packet SEND, an RDMA WRITE, an RDMA READ "
       "and a SEND that meets a receiver not ready."}};
  return list;
}

std::string_view qpStateName(sim::QpState state) {
  switch (state) {
    case sim::QpState::Reset:
      return "RESET";
    case sim::QpState::Init:
      return "INIT";
    case sim::QpState::Rtr:
      return "RTR";
    case sim::QpState::Rts:
      return "RTS";
    case sim::QpState::Sqd:
      return "SQD";
    case sim::QpState::Sqe:
      return "SQE";
    case sim::QpState::Err:
      return "ERR";
  }
  return "?";
}

bool recordScenario(const std::string& id, sim::WireFormat wire, ScenarioRecording& out,
                    FrameStore& frames, std::string& error) {
  const auto it = scripts().find(id);
  if (it == scripts().end()) {
    error = "unknown scenario '" + id + "' (built in: tour)";
    return false;
  }
  out = ScenarioRecording{};
  out.name = id;
  out.wire = wire;
  out.bufferSize = kBufferSize;
  sim::NetworkConfig cfg = sim::Network::defaultConfig();
  cfg.wire = wire;
  frames.clear(wire == sim::WireFormat::InfiniBand ? packets::LinkType::InfiniBand
                                                   : packets::LinkType::Ethernet);
  auto net = std::make_unique<sim::Network>(cfg);
  for (int h = 0; h < 2; ++h)
    out.hostNames[static_cast<std::size_t>(h)] = net->host(h).name();
  Script script(*net, out);
  it->second(script);

  std::size_t currentPhase = 0;
  std::map<std::pair<int, std::uint32_t>, sim::QpState> lastState;
  sim::Simulator& simulator = net->sim();
  simulator.trace().setEnabled(true);
  simulator.trace().setRetain(false);
  CqHistory history[2];
  simulator.trace().subscribe([&](const sim::TraceEvent& e) {
    ScenarioEvent ev;
    ev.trace = e;
    ev.host = e.host == out.hostNames[0] ? 0 : e.host == out.hostNames[1] ? 1 : -1;
    ev.phase = currentPhase;
    if (e.kind == sim::TraceKind::FrameSent) {
      frames.append(e.bytes, e.time.picos() / 1000);
      ev.frame = static_cast<std::int64_t>(frames.size()) - 1;
    } else if (e.frameNumber > 0 && e.frameNumber <= frames.size()) {
      ev.frame = static_cast<std::int64_t>(e.frameNumber) - 1;
    }
    ev.trace.bytes.clear();
    if (e.kind == sim::TraceKind::QpState && ev.host >= 0) {
      auto& last = lastState[{ev.host, e.qpn}];
      ev.fromState = last;
      ev.toState = net->host(ev.host).qpView(e.qpn).state;
      last = ev.toState;
    }
    // The state as the event leaves it (the simulator emits after each change).
    Snapshot snap;
    for (int h = 0; h < 2; ++h)
      snap.hosts[static_cast<std::size_t>(h)] =
          snapshotHost(net->host(h), script.side[h], history[h]);
    snap.frames = frames.size();
    ev.snapshot = out.snapshots.size();
    out.snapshots.push_back(std::move(snap));
    out.events.push_back(std::move(ev));
  });

  std::string failure;
  for (auto& a : script.actions()) {
    simulator.schedule(a.at, [&, act = &a] {
      currentPhase = act->phase;
      net->host(act->host).emit(sim::TraceKind::Note, script.side[act->host].qpn,
                                "application: " + act->what);
      const sim::VerbsStatus st = act->run();
      if (!st.ok() && failure.empty())
        failure = out.phases[act->phase].title + ": " + act->what + " failed: " + st.message;
    });
  }
  // A scenario lasts microseconds; the bound stops a script whose retries never end.
  simulator.runUntil(SimTime::ms(50));
  if (!failure.empty()) {
    error = failure;
    return false;
  }
  return true;
}

}  // namespace rdmascope::ui
