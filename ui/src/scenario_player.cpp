#include "rdmascope/ui/scenario_player.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>

#include "rdmascope/verbs_backend/scenario.h"

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

// What of a host the views show: its first registered buffer and its first CQ.
struct Watch {
  std::uint64_t buf = 0;
  std::uint64_t length = 0;
  std::uint32_t cq = 0;
};

HostSnapshot snapshotHost(sim::Host& host, const Watch& w, CqHistory& history,
                          const HostSnapshot* previous) {
  HostSnapshot h;
  for (std::uint32_t q : host.qpNumbers())
    h.qps.push_back(host.qpView(q));
  if (w.cq) {
    if (sim::Host::Cq* cq = host.cq(w.cq)) {
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
  if (w.buf) {
    h.bufferAddr = w.buf;
    auto m = host.memory(w.buf, w.length);
    // Memory changes at few events: share the bytes with the previous snapshot when equal.
    if (previous && previous->buffer && previous->bufferAddr == w.buf &&
        previous->buffer->size() == m.size() &&
        std::equal(m.begin(), m.end(), previous->buffer->begin()))
      h.buffer = previous->buffer;
    else
      h.buffer = std::make_shared<const std::vector<std::uint8_t>>(m.begin(), m.end());
  }
  return h;
}

/// Turns trace events into timeline events with a snapshot each, and frames into the store.
class Recorder {
 public:
  Recorder(sim::Network& net, ScenarioRecording& out, FrameStore& frames)
      : net_(net), out_(out), frames_(frames) {}

  std::size_t phase = 0;
  Watch watch[2];

  void record(const sim::TraceEvent& e) {
    ScenarioEvent ev;
    ev.trace = e;
    ev.host = e.host == out_.hostNames[0] ? 0 : e.host == out_.hostNames[1] ? 1 : -1;
    ev.phase = phase;
    if (e.kind == sim::TraceKind::FrameSent) {
      frames_.append(e.bytes, e.time.picos() / 1000);
      ev.frame = static_cast<std::int64_t>(frames_.size()) - 1;
    } else if (e.frameNumber > 0 && e.frameNumber <= frames_.size()) {
      ev.frame = static_cast<std::int64_t>(e.frameNumber) - 1;
    }
    ev.trace.bytes.clear();
    if (e.kind == sim::TraceKind::QpState && ev.host >= 0) {
      auto& last = lastState_[{ev.host, e.qpn}];
      ev.fromState = last;
      ev.toState = net_.host(ev.host).qpView(e.qpn).state;
      last = ev.toState;
    }
    // The state as the event leaves it (the simulator emits after each change).
    Snapshot snap;
    const Snapshot* prev = out_.snapshots.empty() ? nullptr : &out_.snapshots.back();
    for (int h = 0; h < 2; ++h) {
      const auto hi = static_cast<std::size_t>(h);
      snap.hosts[hi] =
          snapshotHost(net_.host(h), watch[h], history_[h], prev ? &prev->hosts[hi] : nullptr);
    }
    snap.frames = frames_.size();
    ev.snapshot = out_.snapshots.size();
    out_.snapshots.push_back(std::move(snap));
    out_.events.push_back(std::move(ev));
  }

 private:
  sim::Network& net_;
  ScenarioRecording& out_;
  FrameStore& frames_;
  CqHistory history_[2];
  std::map<std::pair<int, std::uint32_t>, sim::QpState> lastState_;
};

packets::LinkType linkTypeOf(sim::WireFormat wire) {
  return wire == sim::WireFormat::InfiniBand ? packets::LinkType::InfiniBand
                                             : packets::LinkType::Ethernet;
}

// The scenarios of verbs_backend (JSON, run by ScenarioRun over two SimBackends).
bool recordVerbsScenario(const verbs_backend::Scenario& scenario, sim::WireFormat wire,
                         ScenarioRecording& out, FrameStore& frames, std::string& error) {
  out = ScenarioRecording{};
  out.name = scenario.name;
  out.wire = wire;
  verbs_backend::RunOptions options;
  options.wire = wire;
  options.trace = true;
  options.captureFrames = false;
  verbs_backend::SimScenarioSession session(scenario, options);
  sim::Network& net = session.network();
  frames.clear(linkTypeOf(wire));
  for (int h = 0; h < 2; ++h)
    out.hostNames[static_cast<std::size_t>(h)] = net.host(h).name();
  out.phases.push_back({"Set up both hosts: " + scenario.name, scenario.description});
  for (const auto& step : scenario.steps)
    out.phases.push_back({step.text, scenario.description});

  Recorder rec(net, out, frames);
  for (int h = 0; h < 2; ++h) {
    Watch& w = rec.watch[h];
    const auto& spec = scenario.hosts[h];
    if (!spec.mrs.empty())
      if (const auto* mr = session.run().mr(h, spec.mrs.front().name)) {
        w.buf = mr->addr;
        w.length = std::min<std::uint64_t>(mr->length, 1 << 16);
      }
    for (std::uint32_t id = 1; id < 64 && !w.cq; ++id)
      if (net.host(h).cq(id)) w.cq = id;
  }
  out.bufferSize = std::max(rec.watch[0].length, rec.watch[1].length);
  sim::Trace& trace = net.sim().trace();
  // Setup ran in the session's constructor; its events were retained.
  const std::vector<sim::TraceEvent> setup = trace.events();
  for (const auto& e : setup)
    rec.record(e);
  trace.clear();
  trace.setRetain(false);
  trace.subscribe([&rec](const sim::TraceEvent& e) { rec.record(e); });
  if (session.run().setupError()) {
    error = scenario.name + ": " + *session.run().setupError();
    return false;
  }
  while (!session.run().done()) {
    rec.phase = session.run().nextStep() + 1;
    const auto outcome = session.run().step();
    if (!outcome.ok && out.problem.empty())
      out.problem = "step " + std::to_string(outcome.index + 1) + " (" + outcome.text +
                    "): " + outcome.message;
  }
  net.sim().runUntil(net.sim().now() + SimTime::ms(1));
  return true;
}

}  // namespace

const std::vector<ScenarioInfo>& builtInScenarios() {
  static const std::vector<ScenarioInfo> list = [] {
    std::vector<ScenarioInfo> l{
        {"tour", "Tour: SEND, WRITE, READ, RNR NAK",
         "Two hosts connect RC queue pairs, then a multi-packet SEND, an RDMA WRITE, an RDMA "
         "READ and a SEND that meets a receiver not ready."}};
    // The scenarios of the verbs backend; its own "tour" is covered by the one above.
    for (const auto& name : verbs_backend::builtinScenarioNames()) {
      if (name == "tour") continue;
      try {
        const auto sc = verbs_backend::builtinScenario(name);
        l.push_back({name, name, sc.description});
      } catch (const std::exception&) {
        // A built-in that does not parse is a bug of verbs_backend's tests, not shown here.
      }
    }
    return l;
  }();
  return list;
}

bool recordScenarioFile(const std::string& path, sim::WireFormat wire, ScenarioRecording& out,
                        FrameStore& frames, std::string& error) {
  try {
    return recordVerbsScenario(verbs_backend::loadScenarioFile(path), wire, out, frames, error);
  } catch (const std::exception& e) {
    error = e.what();
    return false;
  }
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
    try {
      return recordVerbsScenario(verbs_backend::builtinScenario(id), wire, out, frames, error);
    } catch (const std::exception& e) {
      error = "unknown scenario '" + id + "': " + e.what();
      return false;
    }
  }
  out = ScenarioRecording{};
  out.name = id;
  out.wire = wire;
  out.bufferSize = kBufferSize;
  sim::NetworkConfig cfg = sim::Network::defaultConfig();
  cfg.wire = wire;
  frames.clear(linkTypeOf(wire));
  auto net = std::make_unique<sim::Network>(cfg);
  for (int h = 0; h < 2; ++h)
    out.hostNames[static_cast<std::size_t>(h)] = net->host(h).name();
  Script script(*net, out);
  it->second(script);

  Recorder recorder(*net, out, frames);
  sim::Simulator& simulator = net->sim();
  simulator.trace().setEnabled(true);
  simulator.trace().setRetain(false);
  simulator.trace().subscribe([&](const sim::TraceEvent& e) {
    for (int h = 0; h < 2; ++h) {
      const Side& sd = script.side[h];
      recorder.watch[h] = Watch{sd.buf, sd.buf ? kBufferSize : 0, sd.cq};
    }
    recorder.record(e);
  });

  std::string failure;
  for (auto& a : script.actions()) {
    simulator.schedule(a.at, [&, act = &a] {
      recorder.phase = act->phase;
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
