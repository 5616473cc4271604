#include "rdmascope/verbs_backend/scenario_side.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <optional>

#include "rdmascope/verbs_backend/scenario_executor.h"

namespace rdmascope::verbs_backend {
namespace {

// librdmacm in place of the exchange steps (verbs --cm): the REQ/REP private data carry what
// each side publishes, and the connected QP's INIT/RTR/RTS take rdma_init_qp_attr's values.
class RdmaCmConnector final : public Connector {
 public:
  RdmaCmConnector(HostExecutor& host, CmLink& cm, const SideHooks& hooks)
      : host_(host), sc_(host.scenario()), side_(host.side()), cm_(&cm), hooks_(hooks) {}

  Status exchange(HostExecutor&, const ExchangeStep& a, StepOutcome&) override {
    return cmExchange(a);
  }
  std::optional<Status> modifyQp(HostExecutor&, const ModifyQpStep& a, StepOutcome&) override {
    if (a.qp == cmQp_ && (a.mask & sim::attr_mask::kState) != 0 &&
        (a.attr.qpState == QpState::Init || a.attr.qpState == QpState::Rtr ||
         a.attr.qpState == QpState::Rts))
      return cmModify(a);
    return std::nullopt;
  }
  Status needPeer(HostExecutor&) override { return cmPeerArrived(); }
  Status beforeStep(HostExecutor&, const Step& s) override { return cmBeforeStep(s); }

  void note(const std::string& text) {
    if (hooks_.note) hooks_.note(text);
  }

  /// After setup: what this side publishes, encoded as CM private data; host 1 sends the REQ.
  Status cmStart() {
    auto qp = cmConnectedQp(sc_);
    if (!qp.ok()) return qp.status;
    cmQp_ = qp.value;
    std::vector<PeerInfo> mine;
    for (const Step& st : sc_.steps)
      if (const auto* x = std::get_if<ExchangeStep>(&st.action); x != nullptr && x->from == side_) {
        PeerInfo p;
        if (!x->mr.empty()) {
          const MemoryRegion& m = *host_.mr(x->mr);
          p.addr = m.addr;
          p.rkey = m.rkey;
          p.length = m.length;
        }
        mine.push_back(p);
      }
    const std::string what = sc_.hosts[side_].name + (side_ == 1 ? "'s CM REQ" : "'s CM REP");
    auto bytes =
        encodeCmPrivateData(mine, side_ == 1 ? kCmReqPrivateDataMax : kCmRepPrivateDataMax, what);
    if (!bytes.ok()) {
#ifdef RDMASCOPE_HAVE_RDMACM
      if (side_ == 0) cm_->cm.reject(bytes.status.message);
#endif
      return bytes.status;
    }
    cmMine_ = std::move(bytes.value);
    cmParams();
#ifdef RDMASCOPE_HAVE_RDMACM
    if (side_ == 0) {
      auto theirs = decodeCmPrivateData(cm_->requestPrivateData);
      if (!theirs.ok()) {
        cm_->cm.reject(theirs.status.message);
        return theirs.status;
      }
      cmPeer_ = std::move(theirs.value);
      cmPeerArrived_ = true;
      note("rdma_cm: the REQ brought " + std::to_string(cmPeer_.size()) +
           " published region(s) of " + sc_.hosts[1].name + " in its private data");
      return {};
    }
    if (Status st = cm_->cm.connect(host_.qp(cmQp_)->qpNum, cmMine_, respRes_, initDepth_,
                                    retryCnt_, rnrRetry_);
        !st.ok())
      return st;
    reqSent_ = std::chrono::steady_clock::now();
    note("rdma_cm: REQ sent for QP 0x" + hex(host_.qp(cmQp_)->qpNum, 6) + " to " +
         cm_->cm.peerAddress() + ", " + std::to_string(cmMine_.size()) +
         " bytes of private data: what " + sc_.hosts[side_].name + " publishes");
    return {};
#else
    return Status::error(ENOSYS, "this build has no librdmacm");
#endif
  }

  /// At the end: host 1 sends the DREQ, host 0 answers with the DREP.
  Status cmFinish() {
#ifdef RDMASCOPE_HAVE_RDMACM
    if (side_ == 0)
      if (Status st = cmEstablished(); !st.ok()) return st;
    if (Status st = cm_->cm.disconnect(side_ == 1, hooks_.peerTimeout); !st.ok()) return st;
    note(side_ == 1 ? "rdma_disconnect: DREQ sent, DREP received"
                    : "rdma_disconnect: DREQ received, DREP sent");
    return {};
#else
    return Status::error(ENOSYS, "this build has no librdmacm");
#endif
  }

 private:
  static std::string hex(std::uint64_t v, int digits) {
    char b[24];
    std::snprintf(b, sizeof b, "%0*llx", digits, static_cast<unsigned long long>(v));
    return b;
  }

  // REQ/REP parameters from the scenario's own RTR/RTS steps of the connected QP.
  void cmParams() {
    const CmConnectParams p = cmConnectParams(sc_, side_, cmQp_);
    respRes_ = p.responderResources;
    initDepth_ = p.initiatorDepth;
    retryCnt_ = p.retryCount;
    rnrRetry_ = p.rnrRetry;
  }

  Status cmEstablished() {
#ifdef RDMASCOPE_HAVE_RDMACM
    if (side_ != 0 || cmEstablished_ || !cmAccepted_) return {};
    if (Status st = cm_->cm.waitEstablished(hooks_.peerTimeout); !st.ok()) return st;
    cmEstablished_ = true;
    note("rdma_cm: RTU received, the connection is established");
#endif
    return {};
  }

  // Host 1 learns host 0's published regions from the REP.
  Status cmPeerArrived() {
#ifdef RDMASCOPE_HAVE_RDMACM
    if (Status st = cmEstablished(); !st.ok()) return st;
    if (!cmPeerArrived_) {
      auto rep = cm_->cm.waitResponse(hooks_.peerTimeout);
      if (!rep.ok()) return rep.status;
      auto theirs = decodeCmPrivateData(rep.value);
      if (!theirs.ok()) return theirs.status;
      cmPeer_ = std::move(theirs.value);
      cmPeerArrived_ = true;
      char after[48];
      std::snprintf(
          after, sizeof after, "%.1f ms after the REQ",
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - reqSent_)
              .count());
      note("rdma_cm: the REP arrived " + std::string(after) +
           " (the server's steps in between "
           "included); it brought " +
           std::to_string(cmPeer_.size()) + " published region(s) of " + sc_.hosts[0].name +
           " in its private data");
    }
    if (cmPeerIndex_ >= 0 && !host_.peer()) {
      if (static_cast<std::size_t>(cmPeerIndex_) >= cmPeer_.size())
        return Status::error(EPROTO, "the peer published " + std::to_string(cmPeer_.size()) +
                                         " region(s) in its CM private data; the scenario "
                                         "expects more");
      host_.peer() = cmPeer_[static_cast<std::size_t>(cmPeerIndex_)];
    }
    return {};
#else
    return Status::error(ENOSYS, "this build has no librdmacm");
#endif
  }

  Status cmExchange(const ExchangeStep& a) {
    if (a.from == side_) {
      note(std::string("  (rdma_cm) published in the ") + (side_ == 1 ? "REQ" : "REP") +
           "'s private data; the QPN and PSN travel in the CM message itself");
      return {};
    }
    ++cmPeerIndex_;
    host_.peer().reset();
    if (cmPeerArrived_) return cmPeerArrived();
    note("  (rdma_cm) arrives with the REP, which " + sc_.hosts[0].name + " sends at its RTR step");
    return {};
  }

  static void copyAttrs(QpAttr& to, const QpAttr& from, unsigned mask) {
    namespace m = sim::attr_mask;
    if (mask & m::kCurState) to.curQpState = from.curQpState;
    if (mask & m::kAccessFlags) to.qpAccessFlags = from.qpAccessFlags;
    if (mask & m::kPkeyIndex) to.pkeyIndex = from.pkeyIndex;
    if (mask & m::kPort) to.portNum = from.portNum;
    if (mask & m::kQkey) to.qkey = from.qkey;
    if (mask & m::kAv) to.ahAttr = from.ahAttr;
    if (mask & m::kPathMtu) to.pathMtu = from.pathMtu;
    if (mask & m::kTimeout) to.timeout = from.timeout;
    if (mask & m::kRetryCnt) to.retryCnt = from.retryCnt;
    if (mask & m::kRnrRetry) to.rnrRetry = from.rnrRetry;
    if (mask & m::kRqPsn) to.rqPsn = from.rqPsn;
    if (mask & m::kMaxQpRdAtomic) to.maxRdAtomic = from.maxRdAtomic;
    if (mask & m::kMinRnrTimer) to.minRnrTimer = from.minRnrTimer;
    if (mask & m::kSqPsn) to.sqPsn = from.sqPsn;
    if (mask & m::kMaxDestRdAtomic) to.maxDestRdAtomic = from.maxDestRdAtomic;
    if (mask & m::kCap) to.cap = from.cap;
    if (mask & m::kDestQpn) to.destQpNum = from.destQpNum;
  }

  static std::string maskNames(unsigned mask, const QpAttr& a) {
    namespace m = sim::attr_mask;
    std::string out;
    auto add = [&](unsigned bit, const std::string& text) {
      if ((mask & bit) != 0) out += " " + text;
    };
    add(m::kPkeyIndex, "pkey_index");
    add(m::kPort, "port");
    add(m::kAccessFlags, "access");
    add(m::kPathMtu, "path_mtu");
    add(m::kDestQpn, "dest_qpn=0x" + hex(a.destQpNum, 6));
    add(m::kRqPsn, "rq_psn=0x" + hex(a.rqPsn, 6));
    add(m::kAv, "av");
    add(m::kMaxDestRdAtomic, "max_dest_rd_atomic");
    add(m::kMinRnrTimer, "min_rnr_timer");
    add(m::kSqPsn, "sq_psn=0x" + hex(a.sqPsn, 6));
    add(m::kTimeout, "timeout");
    add(m::kRetryCnt, "retry_cnt");
    add(m::kRnrRetry, "rnr_retry");
    add(m::kMaxQpRdAtomic, "max_rd_atomic");
    return out.empty() ? " (none)" : out;
  }

  // INIT, RTR or RTS of the connected QP with rdma_init_qp_attr's attributes; the scenario's
  // own values win where it gives them, except what it takes from the peer (the CM has those).
  Status cmModify(const ModifyQpStep& a) {
#ifdef RDMASCOPE_HAVE_RDMACM
    namespace m = sim::attr_mask;
    const QpState to = a.attr.qpState;
    if (to == QpState::Rtr && side_ == 1)
      if (Status st = cmPeerArrived(); !st.ok()) return st;
    auto cmAttr = cm_->cm.qpAttributes(to);
    if (!cmAttr.ok()) return cmAttr.status;
    unsigned fromPeer = 0;
    if (a.destQpnFromPeer) fromPeer |= m::kDestQpn;
    if (a.rqPsnFromPeer) fromPeer |= m::kRqPsn;
    if (a.dgidFromPeer || a.dlidFromPeer) fromPeer |= m::kAv;
    if (a.sqPsnOwn) fromPeer |= m::kSqPsn;
    const unsigned own = a.mask & ~fromPeer & ~m::kState;
    QpAttr attr = cmAttr.value.attr;
    copyAttrs(attr, a.attr, own);
    attr.qpState = to;
    const unsigned mask = cmAttr.value.mask | a.mask;
    note("  rdma_init_qp_attr(" + std::string(sim::toString(to)) +
         "): from the CM:" + maskNames(cmAttr.value.mask & ~own & ~m::kState, attr) +
         "; from the scenario:" + maskNames(own, attr));
    if (Status st = host_.backend().modifyQp(host_.qp(a.qp)->handle, attr, mask); !st.ok())
      return st;
    if (to == QpState::Rtr && side_ == 0 && !cmAccepted_) {
      if (Status st =
              cm_->cm.accept(host_.qp(cmQp_)->qpNum, cmMine_, respRes_, initDepth_, rnrRetry_);
          !st.ok())
        return st;
      cmAccepted_ = true;
      note("  rdma_accept: REP sent for QP 0x" + hex(host_.qp(cmQp_)->qpNum, 6) + ", " +
           std::to_string(cmMine_.size()) + " bytes of private data: what " +
           sc_.hosts[side_].name + " publishes");
    }
    if (to == QpState::Rts && side_ == 1) {
      if (Status st = cm_->cm.establish(); !st.ok()) return st;
      note("  rdma_establish: RTU sent");
    }
    return {};
#else
    (void)a;
    return Status::error(ENOSYS, "this build has no librdmacm");
#endif
  }

  /// Host 0 waits for the RTU before its first step after the connection steps.
  Status cmBeforeStep(const Step& s) {
    if (cm_ == nullptr || side_ != 0) return {};
    if (std::holds_alternative<ModifyQpStep>(s.action) ||
        std::holds_alternative<ExchangeStep>(s.action))
      return {};
    return cmEstablished();
  }

  HostExecutor& host_;
  const Scenario& sc_;
  int side_;
  CmLink* cm_ = nullptr;
  const SideHooks& hooks_;
  std::string cmQp_;
  std::vector<std::uint8_t> cmMine_;
  std::vector<PeerInfo> cmPeer_;
  bool cmPeerArrived_ = false, cmAccepted_ = false, cmEstablished_ = false;
  int cmPeerIndex_ = -1;
  std::chrono::steady_clock::time_point reqSent_;
  std::uint8_t respRes_ = 1, initDepth_ = 1, retryCnt_ = 7, rnrRetry_ = 7;
};

}  // namespace

Result<OobConnection> connectScenarioPeer(const PeerEndpoint& peer,
                                          std::chrono::milliseconds timeout,
                                          const SideHooks& hooks) {
  if (!peer.serve) {
    if (hooks.waiting)
      hooks.waiting("a connection to " + peer.host + ":" + std::to_string(peer.port) +
                    " (the peer must run with --server)");
    return OobConnection::connect(peer.host, peer.port, timeout, hooks.stop);
  }
  auto l = OobListener::listen(peer.port);
  if (!l.ok()) return {{}, l.status};
  l.value.setStop(hooks.stop);
  if (hooks.waiting)
    hooks.waiting("the peer to connect to TCP port " + std::to_string(l.value.port()));
  return l.value.accept(timeout);
}

std::string scenarioHello(const Scenario& scenario, int side) {
  const std::string text = scenario.json.dump();
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx",
                static_cast<unsigned long long>(
                    fnv1a({reinterpret_cast<const std::uint8_t*>(text.data()), text.size()})));
  return "scenario " + scenario.name + " " + hash + " host " + std::to_string(side);
}

std::string checkScenarioHello(const Scenario& scenario, int side, const std::string& peerLine) {
  const std::string mine = scenarioHello(scenario, side);
  char name[256] = {}, hash[64] = {};
  int host = -1;
  if (peerLine.size() > 200 ||
      std::sscanf(peerLine.c_str(), "scenario %255s %63s host %d", name, hash, &host) != 3)
    return "the peer did not say which scenario it runs (it sent '" + peerLine.substr(0, 60) +
           "'): is it an older rdmascope?";
  if (name != scenario.name)
    return "the peer runs scenario '" + std::string(name) + "', not '" + scenario.name + "'";
  if (mine.find(hash) == std::string::npos)
    return "the peer's scenario '" + scenario.name +
           "' differs from this one (another file or rdmascope version)";
  if (host == side)
    return "the peer plays " + scenario.hosts[side].name +
           " too: one side must wait for the peer (--server), the other connect";
  return {};
}

std::string exchangeScenarioHello(const Scenario& scenario, int side, OobConnection& oob,
                                  const SideHooks& hooks) {
  if (Status st = oob.sendLine(scenarioHello(scenario, side)); !st.ok())
    return "out-of-band connection: " + st.message;
  if (hooks.waiting) hooks.waiting("the peer to say which scenario it runs");
  auto hello = oob.readLine(hooks.peerTimeout);
  if (!hello.ok()) return "out-of-band connection: " + hello.status.message;
  return checkScenarioHello(scenario, side, hello.value);
}

SideRunResult runScenarioSide(const Scenario& scenario, int side, Backend& backend,
                              OobConnection& oob, const SideHooks& hooks, CmLink* cm) {
  SideRunResult r;
  auto note = [&](const std::string& line) {
    if (hooks.note) hooks.note(line);
  };
  // With the rdma_cm the caller says hello before the REQ picks the device.
  if (cm == nullptr) {
    if (std::string bad = exchangeScenarioHello(scenario, side, oob, hooks); !bad.empty()) {
      r.ok = false;
      r.error = bad;
      return r;
    }
  }
  OobPeerLink link(oob, hooks.peerTimeout, hooks.waiting);
  ExecutorHooks eh;
  eh.note = hooks.note;
  eh.waiting = hooks.waiting;
  eh.stop = hooks.stop;
  if (hooks.completion)
    eh.completion = [&](const WorkCompletion& wc) {
      hooks.completion(formatCompletion(scenario.hosts[side].name, wc));
    };
  HostExecutor run(scenario, side, backend, link, eh);
  if (std::string e = run.setup(); !e.empty()) {
    r.ok = false;
    r.error = e;
    return r;
  }
  std::optional<RdmaCmConnector> connector;
  if (cm != nullptr) {
    connector.emplace(run, *cm, hooks);
    run.setConnector(&*connector);
    if (Status st = connector->cmStart(); !st.ok()) {
      r.ok = false;
      r.error = scenario.hosts[side].name + ": " + st.message;
      return r;
    }
  }
  // A peer that refused the REQ closes the TCP connection: the REJ says why.
  auto failWithCmReason = [&](std::string error) {
    r.ok = false;
    r.error = std::move(error);
#ifdef RDMASCOPE_HAVE_RDMACM
    if (cm != nullptr)
      if (Status why = cm->cm.pendingError(std::chrono::seconds(2)); !why.ok())
        r.error = "rdma_cm: " + why.message;
#endif
    return r;
  };
  // The active side of the rdma_cm said hello before its REQ and hears the answer after it.
  if (cm != nullptr && side == 1) {
    if (hooks.waiting) hooks.waiting("the peer to say which scenario it runs");
    auto hello = oob.readLine(hooks.peerTimeout);
    if (!hello.ok()) return failWithCmReason("out-of-band connection: " + hello.status.message);
    if (std::string bad = checkScenarioHello(scenario, side, hello.value); !bad.empty()) {
      r.ok = false;
      r.error = bad;
      return r;
    }
  }
  if (Status st = link.barrier("setup", "after setup"); !st.ok())
    return failWithCmReason("out-of-band barrier after setup: " + st.message);
  int lastHost = -1;
  bool linkOk = true;
  for (std::size_t i = 0; i < scenario.steps.size(); ++i) {
    const Step& s = scenario.steps[i];
    const bool both = std::holds_alternative<CompareMemoryStep>(s.action);
    if (lastHost >= 0 && (s.host != lastHost || both)) {
      if (Status st = link.barrier("step " + std::to_string(i), "before step " + std::to_string(i));
          !st.ok()) {
        r.ok = false;
        r.error = "out-of-band barrier before step " + std::to_string(i) + ": " + st.message;
        return r;
      }
    }
    lastHost = s.host;
    if (!run.takesPart(s)) continue;
    // Most step texts already start with their host's name.
    const std::string who = scenario.hosts[s.host].name + ": ";
    note("step " + std::to_string(i) + " " + (s.text.rfind(who, 0) == 0 ? s.text : who + s.text));
    StepOutcome o = run.run(s, i);
    if (!o.ok) {
      note("  -> " + o.message);
      if (r.ok) {
        r.ok = false;
        r.error = scenario.file + ": step " + std::to_string(i) + " (" + s.text + "): " + o.message;
      }
    }
    const bool fatal = o.fatal;
    r.steps.push_back(std::move(o));
    if (fatal) {
      linkOk = false;
      break;
    }
  }
  if (linkOk) {
    if (Status st = link.barrier("done", "at the end"); !st.ok() && r.ok) {
      r.ok = false;
      r.error = "out-of-band barrier at the end: " + st.message;
    }
  }
  if (r.ok && connector) {
    if (Status st = connector->cmFinish(); !st.ok()) {
      r.ok = false;
      r.error = "rdma_cm disconnect: " + st.message;
    }
  }
  return r;
}

}  // namespace rdmascope::verbs_backend
