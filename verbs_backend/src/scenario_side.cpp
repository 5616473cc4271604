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
  SideRun(const Scenario& s, int side, Backend& b, OobConnection& oob, const SideHooks& hooks)
      : sc_(s), side_(side), be_(b), oob_(oob), hooks_(hooks) {}

  // Tells the hooks what the side waits for, then reads the peer's next line.
  Result<std::string> peerLine(const std::string& waitingFor) {
    if (hooks_.waiting) hooks_.waiting(waitingFor);
    return oob_.readLine(hooks_.peerTimeout);
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

SideRunResult runScenarioSide(const Scenario& scenario, int side, Backend& backend,
                              OobConnection& oob, const SideHooks& hooks) {
  SideRunResult r;
  auto note = [&](const std::string& line) {
    if (hooks.note) hooks.note(line);
  };
  auto barrier = [&](const std::string& name, const std::string& what) {
    if (hooks.waiting) hooks.waiting("the peer to reach the barrier " + what);
    return oob.barrier(name, hooks.peerTimeout);
  };
  if (Status st = oob.sendLine(scenarioHello(scenario, side)); !st.ok()) {
    r.ok = false;
    r.error = "out-of-band connection: " + st.message;
    return r;
  }
  if (hooks.waiting) hooks.waiting("the peer to say which scenario it runs");
  auto hello = oob.readLine(hooks.peerTimeout);
  if (!hello.ok()) {
    r.ok = false;
    r.error = "out-of-band connection: " + hello.status.message;
    return r;
  }
  if (std::string bad = checkScenarioHello(scenario, side, hello.value); !bad.empty()) {
    r.ok = false;
    r.error = bad;
    return r;
  }
  SideRun run(scenario, side, backend, oob, hooks);
  if (std::string e = run.setup(); !e.empty()) {
    r.ok = false;
    r.error = scenario.hosts[side].name + ": " + e;
    return r;
  }
  if (Status st = barrier("setup", "after setup"); !st.ok()) {
    r.ok = false;
    r.error = "out-of-band barrier after setup: " + st.message;
    return r;
  }
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
    Status st = run.run(s);
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
  return r;
}

}  // namespace rdmascope::verbs_backend
