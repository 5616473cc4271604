#include "rdmascope/verbs_backend/scenario_side.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <map>
#include <thread>

namespace rdmascope::verbs_backend {
namespace {

// FNV-1a: both sides hash their range and compare over the out-of-band connection.
std::uint64_t fnv1a(std::span<const std::uint8_t> bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::uint8_t b : bytes) {
    h ^= b;
    h *= 0x100000001b3ull;
  }
  return h;
}

class SideRun {
 public:
  SideRun(const Scenario& s, int side, Backend& b, OobConnection& oob, const SideHooks& hooks,
          CmLink* cm)
      : sc_(s), side_(side), be_(b), oob_(oob), hooks_(hooks), cm_(cm) {}

  // Tells the hooks what the side waits for, then reads the peer's next line.
  Result<std::string> peerLine(const std::string& waitingFor) {
    if (hooks_.waiting) hooks_.waiting(waitingFor);
    return oob_.readLine(hooks_.peerTimeout);
  }

  void note(const std::string& text) {
    if (hooks_.note) hooks_.note(text);
  }

  std::string setup() {
    const HostSpec& spec = sc_.hosts[side_];
    auto dev = be_.queryDevice();
    if (!dev.ok()) return "ibv_query_device: " + dev.status.message;
    dev_ = dev.value;
    auto pd = be_.allocPd();
    if (!pd.ok()) return "ibv_alloc_pd: " + pd.status.message;
    pd_ = pd.value;
    for (const MrSpec& m : spec.mrs) {
      auto mr = be_.regMr(pd_, m.size, m.access);
      if (!mr.ok()) return "ibv_reg_mr(" + m.name + "): " + mr.status.message;
      auto bytes = be_.memory(mr.value);
      // The same fill as the simulated run, so data comparisons mean the same.
      if (m.fill == "pattern") {
        for (std::size_t k = 0; k < bytes.size(); ++k)
          bytes[k] = static_cast<std::uint8_t>(k * 7 + static_cast<std::size_t>(side_) * 101 + 1);
      } else if (m.fill.rfind("text:", 0) == 0) {
        const std::string t = m.fill.substr(5);
        for (std::size_t k = 0; k < bytes.size() && !t.empty(); ++k)
          bytes[k] = static_cast<std::uint8_t>(t[k % t.size()]);
      }
      mrs_[m.name] = mr.value;
    }
    for (const CqSpec& c : spec.cqs) {
      auto cq = be_.createCq(c.depth);
      if (!cq.ok()) return "ibv_create_cq(" + c.name + "): " + cq.status.message;
      cqs_[c.name] = cq.value;
    }
    for (const QpSpec& q : spec.qps) {
      QpInitAttr a;
      a.qpType = q.type;
      a.sendCq = cqs_[q.sendCq];
      a.recvCq = cqs_[q.recvCq];
      a.cap = q.cap;
      a.sqSigAll = q.sqSigAll;
      auto qp = be_.createQp(pd_, a);
      if (!qp.ok()) return "ibv_create_qp(" + q.name + "): " + qp.status.message;
      qps_[q.name] = qp.value;
      psns_[q.name] = q.psn;
    }
    return {};
  }

  Status run(const Step& s) {
    return std::visit(
        [&](const auto& a) -> Status {
          using T = std::decay_t<decltype(a)>;
          if constexpr (std::is_same_v<T, ModifyQpStep>) {
            if (cm_ != nullptr && a.qp == cmQp_ && (a.mask & sim::attr_mask::kState) != 0 &&
                (a.attr.qpState == QpState::Init || a.attr.qpState == QpState::Rtr ||
                 a.attr.qpState == QpState::Rts))
              return cmModify(a);
            QpAttr attr = a.attr;
            if ((a.destQpnFromPeer || a.rqPsnFromPeer || a.dgidFromPeer || a.dlidFromPeer) &&
                !peerValid_)
              return Status::error(EINVAL, "modify_qp needs the peer's values: no exchange yet");
            if (a.destQpnFromPeer) attr.destQpNum = peer_.qpn;
            if (a.rqPsnFromPeer) attr.rqPsn = peer_.psn;
            if (a.dgidFromPeer) {
              attr.ahAttr.dgid = peer_.gid;
              attr.ahAttr.isGlobal = true;
              attr.ahAttr.sgidIndex = dev_.gidIndex;
            }
            if (a.dlidFromPeer) attr.ahAttr.dlid = peer_.lid;
            if (a.sqPsnOwn) attr.sqPsn = psns_[a.qp];
            return be_.modifyQp(qps_.at(a.qp).handle, attr, a.mask);
          } else if constexpr (std::is_same_v<T, PostSendStep>) {
            SendWr wr = a.wr;
            if (Status st = sges(a.sges, wr.sgList); !st.ok()) return st;
            if (cm_ != nullptr && (a.remoteOffset || a.udToPeer))
              if (Status st = cmPeerArrived(); !st.ok()) return st;
            if (a.remoteOffset) {
              // rxe gives an MR without remote access rkey 0, so the MR's presence is its length.
              if (!peerValid_ || peer_.length == 0)
                return Status::error(EINVAL, "remote_offset needs the peer's MR from an exchange");
              wr.remoteAddr = peer_.addr + *a.remoteOffset;
              if (wr.rkey == 0) wr.rkey = peer_.rkey;
            }
            if (a.udToPeer) {
              if (!peerValid_) return Status::error(EINVAL, "ud_peer needs an exchange first");
              wr.remoteQpn = peer_.qpn;
              wr.ah.dgid = peer_.gid;
              wr.ah.dlid = peer_.lid;
              wr.ah.isGlobal = true;
              wr.ah.sgidIndex = dev_.gidIndex;
            }
            return be_.postSend(qps_.at(a.qp).handle, wr);
          } else if constexpr (std::is_same_v<T, PostRecvStep>) {
            RecvWr wr;
            wr.wrId = a.wrId;
            if (Status st = sges(a.sges, wr.sgList); !st.ok()) return st;
            return be_.postRecv(qps_.at(a.qp).handle, wr);
          } else if constexpr (std::is_same_v<T, PollCqStep>) {
            return poll(a);
          } else if constexpr (std::is_same_v<T, ExchangeStep>) {
            if (cm_ != nullptr) return cmExchange(a);
            if (a.from != side_) {
              auto line = peerLine("the peer's " + sc_.hosts[a.from].name + " to publish " + a.qp);
              if (!line.ok()) return line.status;
              auto info = parsePeerInfo(line.value);
              if (!info.ok()) return info.status;
              peer_ = info.value;
              peerValid_ = true;
              return {};
            }
            PeerInfo me;
            me.lid = dev_.lid;
            me.qpn = qps_.at(a.qp).qpNum;
            me.psn = psns_.at(a.qp);
            me.gid = dev_.gid;
            if (!a.mr.empty()) {
              me.addr = mrs_.at(a.mr).addr;
              me.rkey = mrs_.at(a.mr).rkey;
              me.length = mrs_.at(a.mr).length;
            }
            return oob_.sendLine(formatPeerInfo(me));
          } else if constexpr (std::is_same_v<T, RunStep>) {
            std::this_thread::sleep_for(a.duration);
            return {};
          } else {
            return compare(a);
          }
        },
        s.action);
  }

  // --- the rdma_cm in place of the exchange (CmLink) ---

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
          const MemoryRegion& m = mrs_.at(x->mr);
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
    if (Status st = cm_->cm.connect(qps_.at(cmQp_).qpNum, cmMine_, respRes_, initDepth_, retryCnt_,
                                    rnrRetry_);
        !st.ok())
      return st;
    reqSent_ = std::chrono::steady_clock::now();
    note("rdma_cm: REQ sent for QP 0x" + hex(qps_.at(cmQp_).qpNum, 6) + " to " +
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
    if (cmPeerIndex_ >= 0 && !peerValid_) {
      if (static_cast<std::size_t>(cmPeerIndex_) >= cmPeer_.size())
        return Status::error(EPROTO, "the peer published " + std::to_string(cmPeer_.size()) +
                                         " region(s) in its CM private data; the scenario "
                                         "expects more");
      peer_ = cmPeer_[static_cast<std::size_t>(cmPeerIndex_)];
      peerValid_ = true;
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
    peerValid_ = false;
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
    if (Status st = be_.modifyQp(qps_.at(a.qp).handle, attr, mask); !st.ok()) return st;
    if (to == QpState::Rtr && side_ == 0 && !cmAccepted_) {
      if (Status st =
              cm_->cm.accept(qps_.at(cmQp_).qpNum, cmMine_, respRes_, initDepth_, rnrRetry_);
          !st.ok())
        return st;
      cmAccepted_ = true;
      note("  rdma_accept: REP sent for QP 0x" + hex(qps_.at(cmQp_).qpNum, 6) + ", " +
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

 public:
  /// Host 0 waits for the RTU before its first step after the connection steps.
  Status cmBeforeStep(const Step& s) {
    if (cm_ == nullptr || side_ != 0) return {};
    if (std::holds_alternative<ModifyQpStep>(s.action) ||
        std::holds_alternative<ExchangeStep>(s.action))
      return {};
    return cmEstablished();
  }

 private:
  Status sges(const std::vector<SgeSpec>& in, std::vector<sim::Sge>& out) {
    for (const SgeSpec& g : in) {
      const MemoryRegion& m = mrs_.at(g.mr);
      if (g.offset + g.length > m.length)
        return Status::error(EINVAL,
                             "SGE " + g.mr + "+" + std::to_string(g.offset) + " exceeds the MR");
      out.push_back({m.addr + g.offset, g.length, m.lkey});
    }
    return {};
  }

  Status poll(const PollCqStep& a) {
    std::vector<WorkCompletion> got;
    const auto deadline = std::chrono::steady_clock::now() + a.timeout;
    if (hooks_.waiting)
      hooks_.waiting(std::to_string(a.count) + " completion(s) on " + a.cq + " (up to " +
                     std::to_string(a.timeout.count()) + " ms)");
    while (static_cast<int>(got.size()) < a.count) {
      if (hooks_.stop && hooks_.stop->load())
        return Status::error(ECANCELED, "cancelled while waiting for completions on " + a.cq);
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) break;
      auto r = be_.waitCq(cqs_.at(a.cq), a.count - static_cast<int>(got.size()), left);
      if (!r.ok()) return r.status;
      for (const auto& wc : r.value) {
        got.push_back(wc);
        if (hooks_.completion) hooks_.completion(formatCompletion(sc_.hosts[side_].name, wc));
      }
    }
    if (static_cast<int>(got.size()) < a.count)
      return Status::error(ETIMEDOUT, "waited " + std::to_string(a.timeout.count()) + " ms for " +
                                          std::to_string(a.count) + " completion(s), got " +
                                          std::to_string(got.size()));
    for (std::size_t i = 0; i < a.expect.size() && i < got.size(); ++i) {
      const ExpectedCompletion& x = a.expect[i];
      const WorkCompletion& wc = got[i];
      std::string bad;
      if (x.wrId && *x.wrId != wc.wrId) bad += " wr_id";
      if (x.status && *x.status != wc.status) bad += " status";
      if (wc.status == sim::WcStatus::Success) {
        if (x.opcode && *x.opcode != wc.opcode) bad += " opcode";
        if (x.byteLen && *x.byteLen != wc.byteLen) bad += " byte_len";
        if (x.immData && *x.immData != wc.immData) bad += " imm";
      }
      if (!bad.empty())
        return Status::error(
            EPROTO, "completion " + std::to_string(i) + " differs from the expectation in" + bad);
    }
    return {};
  }

  Status compare(const CompareMemoryStep& a) {
    auto range = [&](int host, const std::string& mr, std::uint64_t off) -> std::string {
      if (host != side_) return {};
      auto it = mrs_.find(mr);
      if (it == mrs_.end()) return "no MR " + mr;
      auto bytes = be_.memory(it->second);
      if (off + a.length > bytes.size()) return "range exceeds MR " + mr;
      return std::to_string(fnv1a(bytes.subspan(off, a.length)));
    };
    const std::string mineA = range(a.hostA, a.mrA, a.offsetA);
    const std::string mineB = range(a.hostB, a.mrB, a.offsetB);
    if (a.hostA == a.hostB) {
      if (a.hostA != side_) return {};
      return mineA == mineB ? Status{} : Status::error(EPROTO, "memory differs");
    }
    const std::string mine = a.hostA == side_ ? mineA : mineB;
    if (Status st = oob_.sendLine("memory " + mine); !st.ok()) return st;
    auto theirs = peerLine("the peer's hash of its memory");
    if (!theirs.ok()) return theirs.status;
    if (theirs.value != "memory " + mine)
      return Status::error(EPROTO, "memory differs between the hosts (" + mine + " here, '" +
                                       theirs.value + "' at the peer)");
    return {};
  }

  const Scenario& sc_;
  int side_;
  Backend& be_;
  OobConnection& oob_;
  const SideHooks& hooks_;
  DeviceInfo dev_;
  Handle pd_ = 0;
  std::map<std::string, MemoryRegion> mrs_;
  std::map<std::string, Handle> cqs_;
  std::map<std::string, QueuePair> qps_;
  std::map<std::string, std::uint32_t> psns_;
  PeerInfo peer_;
  bool peerValid_ = false;
  CmLink* cm_ = nullptr;
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
  auto barrier = [&](const std::string& name, const std::string& what) {
    if (hooks.waiting) hooks.waiting("the peer to reach the barrier " + what);
    return oob.barrier(name, hooks.peerTimeout);
  };
  // With the rdma_cm the caller says hello before the REQ picks the device.
  if (cm == nullptr) {
    if (std::string bad = exchangeScenarioHello(scenario, side, oob, hooks); !bad.empty()) {
      r.ok = false;
      r.error = bad;
      return r;
    }
  }
  SideRun run(scenario, side, backend, oob, hooks, cm);
  if (std::string e = run.setup(); !e.empty()) {
    r.ok = false;
    r.error = scenario.hosts[side].name + ": " + e;
    return r;
  }
  if (cm != nullptr) {
    if (Status st = run.cmStart(); !st.ok()) {
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
  if (Status st = barrier("setup", "after setup"); !st.ok())
    return failWithCmReason("out-of-band barrier after setup: " + st.message);
  int lastHost = -1;
  for (std::size_t i = 0; i < scenario.steps.size(); ++i) {
    const Step& s = scenario.steps[i];
    const bool both = std::holds_alternative<CompareMemoryStep>(s.action);
    if (lastHost >= 0 && (s.host != lastHost || both)) {
      if (Status st = barrier("step " + std::to_string(i), "before step " + std::to_string(i));
          !st.ok()) {
        r.ok = false;
        r.error = "out-of-band barrier before step " + std::to_string(i) + ": " + st.message;
        return r;
      }
    }
    lastHost = s.host;
    const bool mine = s.host == side || both || std::holds_alternative<ExchangeStep>(s.action);
    if (!mine) continue;
    // Most step texts already start with their host's name.
    const std::string who = scenario.hosts[s.host].name + ": ";
    note("step " + std::to_string(i) + " " + (s.text.rfind(who, 0) == 0 ? s.text : who + s.text));
    Status st = run.cmBeforeStep(s);
    if (st.ok()) st = run.run(s);
    std::string problem;
    if (s.expectErrno) {
      if (st.ok()) {
        problem = "expected errno " + std::to_string(*s.expectErrno) + ", but it succeeded";
      } else if (st.errnum != *s.expectErrno) {
        problem = "failed with errno " + std::to_string(st.errnum) + " instead of " +
                  std::to_string(*s.expectErrno) + ": " + st.message;
      }
    } else if (!st.ok()) {
      problem = st.message;
    }
    if (!problem.empty() && r.ok) {
      r.ok = false;
      r.error = scenario.file + ": step " + std::to_string(i) + " (" + s.text + "): " + problem;
      note("  -> " + problem);
      break;
    }
  }
  if (r.ok) {
    if (Status st = barrier("done", "at the end"); !st.ok()) {
      r.ok = false;
      r.error = "out-of-band barrier at the end: " + st.message;
    }
  }
  if (r.ok && cm != nullptr) {
    if (Status st = run.cmFinish(); !st.ok()) {
      r.ok = false;
      r.error = "rdma_cm disconnect: " + st.message;
    }
  }
  return r;
}

}  // namespace rdmascope::verbs_backend
