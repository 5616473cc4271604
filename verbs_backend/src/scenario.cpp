#include "rdmascope/verbs_backend/scenario.h"

#include <cstdio>
#include <memory>

#include "rdmascope/verbs_backend/sim_backend.h"

namespace rdmascope::verbs_backend {

// ---------------------------------------------------------------------------------------
// running in one process

ScenarioRun::ScenarioRun(const Scenario& scenario, Backend& host0, Backend& host1,
                         std::function<void(int, const std::string&)> note)
    : scenario_(scenario), note_(std::move(note)) {
  Backend* backends[2] = {&host0, &host1};
  for (int i = 0; i < 2; ++i) {
    ExecutorHooks hooks;
    if (note_) hooks.note = [this, i](const std::string& line) { note_(i, line); };
    hosts_[i] = std::make_unique<HostExecutor>(scenario_, i, *backends[i], links_[i], hooks);
  }
  InProcessLink::pair(links_[0], *hosts_[0], links_[1], *hosts_[1]);
  for (int i = 0; i < 2 && !setupError_; ++i)
    if (std::string e = hosts_[i]->setup(); !e.empty()) setupError_ = e;
}

void ScenarioRun::setStop(const std::atomic<bool>* stop) {
  for (auto& h : hosts_)
    h->setStop(stop);
}

const MemoryRegion* ScenarioRun::mr(int host, const std::string& name) const {
  return hosts_[host]->mr(name);
}

std::optional<std::uint32_t> ScenarioRun::qpNum(int host, const std::string& name) const {
  auto qp = hosts_[host]->qp(name);
  if (!qp) return std::nullopt;
  return qp->qpNum;
}

StepOutcome ScenarioRun::step() {
  if (done()) {
    StepOutcome out;
    out.ok = false;
    out.message = setupError_ ? *setupError_ : "no more steps";
    return out;
  }
  const std::size_t index = next_++;
  const Step& s = scenario_.steps[index];
  if (note_) note_(s.host, s.text);
  StepOutcome out;
  if (const auto* x = std::get_if<ExchangeStep>(&s.action)) {
    // The publisher's part, then the receiver's: what the first publishes the second reads.
    out = hosts_[x->from]->run(s, index);
    const StepOutcome received = hosts_[1 - x->from]->run(s, index);
    if (!received.ok && out.ok) {
      out.ok = false;
      out.fatal = received.fatal;
      out.message = received.message;
    }
  } else if (const auto* c = std::get_if<CompareMemoryStep>(&s.action)) {
    out = hosts_[c->hostA]->run(s, index);  // the in-process link reads host B's bytes
  } else {
    out = hosts_[s.host]->run(s, index);
  }
  for (const auto& wc : out.completions)
    completions_.emplace_back(s.host, wc);
  if (out.fatal) stopped_ = true;
  if (note_ && !out.message.empty()) note_(s.host, "  -> " + out.message);
  return out;
}

// ---------------------------------------------------------------------------------------
// simulated runs

sim::NetworkConfig simNetworkConfig(const Scenario& scenario, const RunOptions& options) {
  sim::NetworkConfig cfg = sim::Network::defaultConfig();
  cfg.seed = options.seed.value_or(scenario.seed);
  cfg.wire = options.wire.value_or(scenario.wire);
  cfg.link = scenario.link;
  cfg.faults = scenario.faults;
  if (options.loss) cfg.faults.lossRate = *options.loss;
  cfg.captureFrames = options.captureFrames;
  for (int i = 0; i < 2; ++i)
    cfg.hosts[i].name = scenario.hosts[i].name;
  return cfg;
}

void arrangeStepsForCm(Scenario& scenario) {
  // With the rdma_cm the passive side (host 0) goes RTS when the RTU arrives, after the
  // active side's RTS: its RTS step moves there.
  if (auto qp = cmConnectedQp(scenario); qp.ok()) {
    auto rts = [&](int host) {
      for (std::size_t i = 0; i < scenario.steps.size(); ++i) {
        const Step& st = scenario.steps[i];
        const auto* m = std::get_if<ModifyQpStep>(&st.action);
        if (st.host == host && m != nullptr && m->qp == qp.value && m->attr.qpState == QpState::Rts)
          return static_cast<std::ptrdiff_t>(i);
      }
      return std::ptrdiff_t{-1};
    };
    for (Step& st : scenario.steps)
      if (const auto* x = std::get_if<ExchangeStep>(&st.action); x != nullptr)
        st.text = scenario.hosts[x->from].name + ": publishes " +
                  (x->mr.empty() ? std::string("no region") : "the address and rkey of " + x->mr) +
                  " in the private data of its CM " + (x->from == 1 ? "REQ" : "REP") +
                  " (rdma_cm; QPN, PSN and GID travel in the CM messages themselves)";
    const std::ptrdiff_t passive = rts(0), active = rts(1);
    if (passive >= 0 && active > passive) {
      Step moved = scenario.steps[static_cast<std::size_t>(passive)];
      moved.text += " (rdma_cm: after the RTU arrives)";
      scenario.steps.erase(scenario.steps.begin() + passive);
      scenario.steps.insert(scenario.steps.begin() + active, std::move(moved));
    }
  }
}

SimScenarioSession::SimScenarioSession(const Scenario& scenario, const RunOptions& options)
    : scenario_(scenario) {
  if (options.cm) arrangeStepsForCm(scenario_);
  network_ = std::make_shared<sim::Network>(simNetworkConfig(scenario_, options));
  network_->sim().trace().setEnabled(options.trace);
  for (int i = 0; i < 2; ++i)
    backends_[i] = std::make_unique<SimBackend>(network_, i);
  sim::Network* net = network_.get();
  run_ = std::make_unique<ScenarioRun>(scenario_, *backends_[0], *backends_[1],
                                       [net](int host, const std::string& line) {
                                         if (net->sim().tracing())
                                           net->host(host).emit(sim::TraceKind::Note, 0, line);
                                       });
  if (options.cm) run_->useSimCm();
}

RunResult SimScenarioSession::runToEnd(sim::SimTime drain) {
  RunResult r;
  r.wire = network_->config().wire;
  for (int i = 0; i < 2; ++i)
    r.hostNames[i] = network_->host(i).name();
  if (run_->setupError()) {
    r.ok = false;
    r.error = *run_->setupError();
  }
  while (!run_->done()) {
    StepOutcome o = run_->step();
    if (!o.ok && r.ok) {
      r.ok = false;
      r.error =
          scenario_.file + ": step " + std::to_string(o.index) + " (" + o.text + "): " + o.message;
    }
    r.steps.push_back(std::move(o));
  }
  if (Status st = run_->simCmDisconnect(); !st.ok() && r.ok) {
    r.ok = false;
    r.error = scenario_.file + ": rdma_disconnect: " + st.message;
  }
  sim::Simulator& s = network_->sim();
  s.runUntil(s.now() + drain);
  r.completions = run_->completions();
  r.trace = s.trace().events();
  r.frames = network_->frames();
  r.stats = network_->stats();
  return r;
}

RunResult runScenarioInSim(const Scenario& scenario, const RunOptions& options) {
  SimScenarioSession session(scenario, options);
  return session.runToEnd();
}

std::string RunResult::traceText() const {
  std::string out;
  for (const auto& e : trace) {
    out += sim::formatTraceLine(e);
    out += '\n';
  }
  return out;
}

std::string RunResult::traceJson() const {
  std::string out = "[";
  for (std::size_t i = 0; i < trace.size(); ++i) {
    if (i) out += ",\n";
    out += sim::formatTraceJson(trace[i]);
  }
  out += "]\n";
  return out;
}

std::string formatCompletion(const std::string& hostName, const WorkCompletion& wc) {
  std::string line = hostName;
  line.append(" wr_id ").append(std::to_string(wc.wrId)).append(" ");
  line.append(wcStatusName(wc.status));
  // ibv_poll_cq(3): with an error status only wr_id, status, qp_num and vendor_err are valid.
  if (wc.status != sim::WcStatus::Success) return line;
  line.append(" ").append(sim::toString(wc.opcode)).append(" byte_len ");
  line.append(std::to_string(wc.byteLen));
  if (wc.wcFlags & sim::wc_flags::kWithImm) {
    char imm[24];
    std::snprintf(imm, sizeof imm, " imm 0x%08x", wc.immData);
    line += imm;
  }
  return line;
}

std::string RunResult::completionsText() const {
  std::string out;
  for (const auto& [host, wc] : completions)
    out += formatCompletion(hostNames[host], wc) + "\n";
  return out;
}

}  // namespace rdmascope::verbs_backend
