#include "rdmascope/ui/scenario_player.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>

#include "rdmascope/ui/ceph_recording.h"
#include "rdmascope/ui/transport_recording.h"
#include "rdmascope/verbs_backend/scenario.h"
#include "rdmascope/verbs_backend/sim_backend.h"

namespace rdmascope::ui {

namespace {

// At most this much of a host's first MR is shown (and kept per snapshot).
constexpr std::uint64_t kWatchedBytes = 1 << 16;

// Completions as an application sees them over time: the simulator forgets a CQE once every
// queued one was polled, the view keeps it (greyed) so a learner sees what was taken. Each
// CqeProduced event appends its entry; whatever the CQ no longer holds was polled.
struct CqHistory {
  std::vector<sim::WorkCompletion> all;
};

// What of a host the views show: its first registered buffer and its first CQ.
struct Watch {
  std::uint64_t buf = 0;
  std::uint64_t length = 0;
  std::uint32_t cq = 0;
};

HostSnapshot snapshotHost(sim::Host& host, const Watch& w, CqHistory& history,
                          const HostSnapshot* previous, const verbs_backend::HostSpec& spec) {
  HostSnapshot h;
  for (std::uint32_t q : host.qpNumbers())
    h.qps.push_back(host.qpView(q));
  const auto& regions = host.memoryRegions();
  for (std::size_t i = 0; i < regions.size(); ++i) {
    const sim::MemoryRegionInfo& r = regions[i];
    h.mrs.push_back({i < spec.mrs.size() ? spec.mrs[i].name : std::string(), r.addr, r.length,
                     r.lkey, r.rkey, r.access});
  }
  if (w.cq) {
    if (const sim::Host::Cq* cq = host.cq(w.cq)) {
      CqSnapshot c;
      c.id = cq->id;
      c.entries = history.all;
      c.polled = history.all.size() - std::min(history.all.size(), cq->size());
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
  Recorder(sim::Network& net, const verbs_backend::Scenario& scenario, ScenarioRecording& out,
           FrameStore& frames)
      : net_(net), scenario_(scenario), out_(out), frames_(frames) {}

  std::size_t phase = 0;

  void record(const sim::TraceEvent& e) {
    ScenarioEvent ev;
    ev.trace = e;
    ev.host = e.host == out_.hostNames[0] ? 0 : e.host == out_.hostNames[1] ? 1 : -1;
    ev.phase = phase;
    if (e.kind == sim::TraceKind::FrameSent) {
      frames_.append(e.bytes, e.time.picos() / 1000);
      ev.frame = static_cast<std::int64_t>(frames_.size()) - 1;
      const sim::PacketSummary s = sim::summarizeFrame(out_.wire, e.bytes);
      if (s.ok && s.hasReth && ev.host >= 0) {
        RemoteTarget t;
        t.host = 1 - ev.host;
        t.addr = s.va;
        t.rkey = s.rkey;
        t.length = s.dmaLen;
        ev.remote = t;
      }
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
    if (e.kind == sim::TraceKind::CqeProduced && ev.host >= 0) {
      const Watch& w = watch(ev.host);
      const sim::Host::Cq* cq = net_.host(ev.host).cq(w.cq);
      if (cq && e.args.cq.value_or(0) == w.cq && !cq->entries.empty())
        history_[ev.host].all.push_back(cq->entries.back());
    }
    // The state as the event leaves it (the simulator emits after each change).
    Snapshot snap;
    const Snapshot* prev = out_.snapshots.empty() ? nullptr : &out_.snapshots.back();
    for (int h = 0; h < 2; ++h) {
      const auto hi = static_cast<std::size_t>(h);
      snap.hosts[hi] = snapshotHost(net_.host(h), watch(h), history_[h],
                                    prev ? &prev->hosts[hi] : nullptr, scenario_.hosts[h]);
    }
    if (ev.remote) {
      ev.remote->mr =
          findMr(snap.hosts[static_cast<std::size_t>(ev.remote->host)], ev.remote->rkey);
    }
    snap.frames = frames_.size();
    ev.snapshot = out_.snapshots.size();
    out_.snapshots.push_back(std::move(snap));
    out_.events.push_back(std::move(ev));
  }

 private:
  // A host's first MR and first CQ, once setup has created them.
  const Watch& watch(int h) {
    Watch& w = watch_[h];
    sim::Host& host = net_.host(h);
    if (!w.buf && !host.memoryRegions().empty()) {
      const sim::MemoryRegionInfo& mr = host.memoryRegions().front();
      w.buf = mr.addr;
      w.length = std::min<std::uint64_t>(mr.length, kWatchedBytes);
      out_.bufferSize = std::max(out_.bufferSize, w.length);
    }
    for (std::uint32_t id = 1; id < 64 && !w.cq; ++id)
      if (host.cq(id)) w.cq = id;
    return w;
  }

  sim::Network& net_;
  const verbs_backend::Scenario& scenario_;
  ScenarioRecording& out_;
  FrameStore& frames_;
  Watch watch_[2];
  CqHistory history_[2];
  std::map<std::pair<int, std::uint32_t>, sim::QpState> lastState_;
};

packets::LinkType linkTypeOf(sim::WireFormat wire) {
  return wire == sim::WireFormat::InfiniBand ? packets::LinkType::InfiniBand
                                             : packets::LinkType::Ethernet;
}

// Puts what a step told or named in typed form on the notes that report it: an exchange's
// message on its "  -> QPN ..." note, a one-sided post's remote region on its call's note.
void attachStepValues(ScenarioRecording& out, std::size_t first, const verbs_backend::Step& step,
                      verbs_backend::ScenarioRun& run, const std::optional<RemoteTarget>& remote) {
  auto noteOf = [&](int host, bool last) -> ScenarioEvent* {
    ScenarioEvent* found = nullptr;
    for (std::size_t i = first; i < out.events.size(); ++i) {
      ScenarioEvent& e = out.events[i];
      if (e.host != host || e.trace.kind != sim::TraceKind::Note) continue;
      found = &e;
      if (!last) break;
    }
    return found;
  };
  if (const auto* x = std::get_if<verbs_backend::ExchangeStep>(&step.action)) {
    ScenarioEvent* note = noteOf(x->from, true);
    if (note == nullptr) return;
    const verbs_backend::PeerInfo info = run.host(x->from).published(*x);
    OobMessage m;
    m.from = x->from;
    m.qpn = info.qpn;
    m.psn = info.psn;
    m.lid = info.lid;
    m.gid = info.gid;
    m.mr = x->mr;
    m.addr = info.addr;
    m.rkey = info.rkey;
    m.length = info.length;
    note->oob = m;
  } else if (remote) {
    ScenarioEvent* note = noteOf(step.host, false);
    if (note == nullptr) return;
    note->remote = remote;
    const Snapshot& snap = out.snapshots[note->snapshot];
    note->remote->mr = findMr(snap.hosts[static_cast<std::size_t>(remote->host)], remote->rkey);
  }
}

bool narrated(const verbs_backend::Step& step) {
  return !step.title.empty() || !step.explanation.empty();
}

/// The phases of a scenario and the phase of each step (see scenario_player.h).
std::vector<std::size_t> planPhases(const verbs_backend::Scenario& scenario,
                                    std::vector<ScenarioPhase>& phases) {
  phases.push_back({"Set up both hosts",
                    scenario.explanation.empty() ? scenario.description : scenario.explanation});
  const bool marked = std::any_of(scenario.steps.begin(), scenario.steps.end(), narrated);
  std::vector<std::size_t> of;
  for (const verbs_backend::Step& step : scenario.steps) {
    if (narrated(step) || !marked) {
      phases.push_back({step.title.empty() ? step.text : step.title, step.explanation});
    }
    of.push_back(phases.size() - 1);
  }
  return of;
}

// Both hosts on one simulated network, configured as verbs_backend's SimScenarioSession does
// (the GUI's wire format instead of the scenario's); the trace is subscribed to before setup
// so that every verbs call of the setup has its own snapshot too.
bool recordVerbsScenario(const verbs_backend::Scenario& given, const std::string& source,
                         sim::WireFormat wire, bool cm, ScenarioRecording& out, FrameStore& frames,
                         std::string& error) {
  verbs_backend::Scenario scenario = given;
  if (cm) {
    if (auto qp = verbs_backend::cmConnectedQp(scenario); !qp.ok()) {
      error = scenario.name + " cannot be connected by the rdma_cm: " + qp.status.message;
      return false;
    }
    verbs_backend::arrangeStepsForCm(scenario);
  }
  out = ScenarioRecording{};
  out.cm = cm;
  out.name = scenario.name;
  out.title = scenario.title;
  out.summary = scenario.description;
  out.source = source;
  out.scenarioText = verbs_backend::scenarioJsonText(scenario.json);
  out.wire = wire;
  const std::vector<std::size_t> stepPhase = planPhases(scenario, out.phases);

  sim::NetworkConfig cfg = sim::Network::defaultConfig();
  cfg.seed = scenario.seed;
  cfg.wire = wire;
  cfg.link = scenario.link;
  cfg.faults = scenario.faults;
  cfg.captureFrames = false;
  for (int h = 0; h < 2; ++h)
    cfg.hosts[h].name = scenario.hosts[h].name;
  auto net = std::make_shared<sim::Network>(cfg);
  frames.clear(linkTypeOf(wire));
  for (int h = 0; h < 2; ++h)
    out.hostNames[static_cast<std::size_t>(h)] = net->host(h).name();

  Recorder rec(*net, scenario, out, frames);
  verbs_backend::SimBackend host0(net, 0), host1(net, 1);
  std::optional<verbs_backend::ScenarioRun> run;
  sim::Trace& trace = net->sim().trace();
  trace.setEnabled(true);
  trace.setRetain(false);
  // Destroyed before the run and the recorder: nothing is recorded after the drain.
  const struct Subscription {
    sim::Trace& trace;
    int id;
    ~Subscription() { trace.unsubscribe(id); }
  } subscription{trace, trace.subscribe([&rec](const sim::TraceEvent& e) { rec.record(e); })};
  run.emplace(scenario, host0, host1, [&net](int host, const std::string& line) {
    net->host(host).emit(sim::TraceKind::Note, 0, line);
  });
  if (cm && !run->setupError()) run->useSimCm();
  if (run->setupError()) {
    error = scenario.name + ": " + *run->setupError();
    return false;
  }
  while (!run->done()) {
    const std::size_t index = run->nextStep();
    const verbs_backend::Step& step = scenario.steps[index];
    rec.phase = stepPhase[index];
    const std::size_t first = out.events.size();
    // A one-sided post names the peer's region with the values the exchange delivered.
    std::optional<RemoteTarget> remote;
    if (const auto* p = std::get_if<verbs_backend::PostSendStep>(&step.action);
        p != nullptr && p->remoteOffset) {
      if (const auto& peer = run->host(step.host).peer(); peer && peer->length != 0) {
        RemoteTarget t;
        t.host = 1 - step.host;
        t.addr = peer->addr + *p->remoteOffset;
        t.rkey = p->wr.rkey != 0 ? p->wr.rkey : peer->rkey;
        for (const auto& s : p->sges)
          t.length += s.length;
        remote = t;
      }
    }
    const auto outcome = run->step();
    attachStepValues(out, first, step, *run, remote);
    if (!outcome.ok && out.problem.empty())
      out.problem = "step " + std::to_string(outcome.index + 1) + " (" + outcome.text +
                    "): " + outcome.message;
  }
  // rdma_disconnect: host 1's DREQ, host 0's DREP (as `sim --cm` ends).
  if (const auto st = run->simCmDisconnect(); !st.ok() && out.problem.empty())
    out.problem = "rdma_disconnect: " + st.message;
  // As SimScenarioSession::runToEnd: the network goes idle (last ACKs, RNR and retry timers).
  net->sim().runUntil(net->sim().now() + sim::SimTime::ms(100));
  for (const auto& [host, wc] : run->completions())
    out.completions.push_back(
        verbs_backend::formatCompletion(out.hostNames[static_cast<std::size_t>(host)], wc));
  return true;
}

}  // namespace

ScenarioRecording startRecording(RecordingTransport transport, const std::string& id,
                                 const std::vector<ScenarioInfo>& list,
                                 std::array<std::string, 2> hostNames) {
  ScenarioRecording out;
  out.transport = transport;
  out.name = id;
  out.source = id;
  for (const auto& info : list)
    if (info.id == id) {
      out.title = info.title;
      out.summary = info.description;
    }
  out.hostNames = std::move(hostNames);
  out.snapshots.emplace_back();
  return out;
}

const std::vector<ScenarioInfo>& builtInScenarios() {
  static const std::vector<ScenarioInfo> list = [] {
    std::vector<ScenarioInfo> l;
    for (const auto& name : verbs_backend::builtinScenarioNames()) {
      ScenarioInfo info{name, name, {}};
      try {
        const auto sc = verbs_backend::builtinScenario(name);
        info.title = sc.title;
        info.description = sc.description;
      } catch (const std::exception& e) {
        // Listed all the same: opening it names the error (verbs_backend's tests catch it).
        info.description = e.what();
      }
      l.push_back(std::move(info));
    }
    for (const auto& info : transportScenarios())
      l.push_back(info);
    for (const auto& info : cephScenarios())
      l.push_back(info);
    return l;
  }();
  return list;
}

bool recordScenario(const std::string& id, sim::WireFormat wire, ScenarioRecording& out,
                    FrameStore& frames, std::string& error, bool cm) {
  if (isTransportScenario(id)) return recordTransportScenario(id, out, frames, error);
  if (isCephScenario(id)) return recordCephScenario(id, out, frames, error);
  verbs_backend::Scenario scenario;
  try {
    scenario = verbs_backend::builtinScenario(id);
  } catch (const std::exception& e) {
    error = "unknown scenario '" + id + "': " + e.what();
    return false;
  }
  return recordVerbsScenario(scenario, id, wire, cm, out, frames, error);
}

bool recordScenarioFile(const std::string& path, sim::WireFormat wire, ScenarioRecording& out,
                        FrameStore& frames, std::string& error, bool cm) {
  verbs_backend::Scenario scenario;
  try {
    scenario = verbs_backend::loadScenarioFile(path);
  } catch (const std::exception& e) {
    error = e.what();
    return false;
  }
  return recordVerbsScenario(scenario, path, wire, cm, out, frames, error);
}

int findMr(const HostSnapshot& host, std::uint32_t rkey) {
  for (std::size_t i = 0; i < host.mrs.size(); ++i)
    if (host.mrs[i].rkey == rkey && rkey != 0) return static_cast<int>(i);
  return -1;
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

}  // namespace rdmascope::ui
