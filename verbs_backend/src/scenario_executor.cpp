#include "rdmascope/verbs_backend/scenario_executor.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>

#include "rdmascope/verbs_backend/scenario_file.h"

namespace rdmascope::verbs_backend {

namespace {

// The slice a poll waits at a time, so that a stop request is seen within it.
constexpr std::chrono::milliseconds kPollSlice{100};

std::string hex(std::uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

std::string completionList(const std::vector<WorkCompletion>& wcs) {
  std::string got;
  for (const auto& wc : wcs) {
    if (!got.empty()) got += "; ";
    got += "wr_id " + std::to_string(wc.wrId) + " " + wcStatusName(wc.status) + " " +
           std::string(sim::toString(wc.opcode)) + " byte_len " + std::to_string(wc.byteLen);
  }
  return got;
}

std::string expectationMismatch(const ExpectedCompletion& x, const WorkCompletion& wc) {
  std::string bad;
  if (x.wrId && *x.wrId != wc.wrId) bad += " wr_id";
  if (x.status && *x.status != wc.status) bad += " status";
  // ibv_poll_cq(3): with an error status only wr_id, status, qp_num and vendor_err are valid.
  if (wc.status == sim::WcStatus::Success) {
    if (x.opcode && *x.opcode != wc.opcode) bad += " opcode";
    if (x.byteLen && *x.byteLen != wc.byteLen) bad += " byte_len";
    if (x.immData && *x.immData != wc.immData) bad += " imm";
  }
  return bad;
}

}  // namespace

std::uint64_t fnv1a(std::span<const std::uint8_t> bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::uint8_t b : bytes) {
    h ^= b;
    h *= 0x100000001b3ull;
  }
  return h;
}

std::string formatStepOutcome(const Scenario& scenario, const StepOutcome& o) {
  std::string line = "step " + std::to_string(o.index) + " " + scenario.hosts[o.host].name + " " +
                     (o.ok ? "ok" : "FAIL");
  if (!o.message.empty()) line += ": " + o.message;
  for (const auto& wc : o.completions)
    line += " | wr_id " + std::to_string(wc.wrId) + " " + wcStatusName(wc.status) + " " +
            std::string(sim::toString(wc.opcode)) + " " + std::to_string(wc.byteLen);
  return line;
}

// ---------------------------------------------------------------------------------------
// setup

HostExecutor::HostExecutor(const Scenario& scenario, int side, Backend& backend, PeerLink& link,
                           ExecutorHooks hooks)
    : scenario_(scenario), side_(side), backend_(backend), link_(link), hooks_(std::move(hooks)) {}

std::string HostExecutor::setup() {
  const HostSpec& spec = scenario_.hosts[side_];
  auto failed = [&](const std::string& what, const Status& st) {
    return spec.name + ": " + what + " failed: " + st.message;
  };
  auto note = [&](const std::string& line) {
    if (hooks_.note) hooks_.note(line);
  };
  auto dev = backend_.queryDevice();
  if (!dev.ok()) return failed("ibv_query_device", dev.status);
  device_ = dev.value;
  auto pd = backend_.allocPd();
  if (!pd.ok()) return failed("ibv_alloc_pd", pd.status);
  pd_ = pd.value;
  note(spec.name + ": ibv_alloc_pd -> PD " + std::to_string(pd.value));
  for (const MrSpec& m : spec.mrs) {
    auto mr = backend_.regMr(pd_, m.size, m.access);
    if (!mr.ok()) return failed("ibv_reg_mr(" + m.name + ")", mr.status);
    auto bytes = backend_.memory(mr.value);
    // Both hosts fill alike in every mode, so data comparisons mean the same everywhere.
    if (m.fill == "pattern") {
      for (std::size_t k = 0; k < bytes.size(); ++k)
        bytes[k] = static_cast<std::uint8_t>(k * 7 + static_cast<std::size_t>(side_) * 101 + 1);
    } else if (m.fill.rfind("text:", 0) == 0) {
      const std::string t = m.fill.substr(5);
      for (std::size_t k = 0; k < bytes.size() && !t.empty(); ++k)
        bytes[k] = static_cast<std::uint8_t>(t[k % t.size()]);
    }
    mrs_[m.name] = mr.value;
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "%s: ibv_reg_mr(%s, %llu bytes) -> addr 0x%llx lkey 0x%x rkey 0x%x",
                  spec.name.c_str(), m.name.c_str(), static_cast<unsigned long long>(m.size),
                  static_cast<unsigned long long>(mr.value.addr), mr.value.lkey, mr.value.rkey);
    note(buf);
  }
  for (const CqSpec& c : spec.cqs) {
    auto cq = backend_.createCq(c.depth);
    if (!cq.ok()) return failed("ibv_create_cq(" + c.name + ")", cq.status);
    cqs_[c.name] = cq.value;
  }
  for (const QpSpec& q : spec.qps) {
    QpInitAttr a;
    a.qpType = q.type;
    a.sendCq = cqs_[q.sendCq];
    a.recvCq = cqs_[q.recvCq];
    a.cap = q.cap;
    a.sqSigAll = q.sqSigAll;
    auto qp = backend_.createQp(pd_, a);
    if (!qp.ok()) return failed("ibv_create_qp(" + q.name + ")", qp.status);
    qps_[q.name] = qp.value;
    psns_[q.name] = q.psn;
  }
  return {};
}

const MemoryRegion* HostExecutor::mr(const std::string& name) const {
  auto it = mrs_.find(name);
  return it == mrs_.end() ? nullptr : &it->second;
}

std::optional<QueuePair> HostExecutor::qp(const std::string& name) const {
  auto it = qps_.find(name);
  if (it == qps_.end()) return std::nullopt;
  return it->second;
}

std::uint32_t HostExecutor::psn(const std::string& name) const {
  auto it = psns_.find(name);
  return it == psns_.end() ? 0 : it->second;
}

Result<std::span<std::uint8_t>> HostExecutor::range(const std::string& mrName, std::uint64_t offset,
                                                    std::uint64_t length) {
  Result<std::span<std::uint8_t>> r;
  const MemoryRegion* m = mr(mrName);
  if (m == nullptr) {
    r.status = Status::error(EINVAL, name() + " has no MR " + mrName);
    return r;
  }
  const std::span<std::uint8_t> bytes = backend_.memory(*m);
  // Written so that offset + length cannot wrap around 2^64.
  if (length > bytes.size() || offset > bytes.size() - length) {
    r.status = Status::error(
        EINVAL, name() + ":" + mrName + " has " + std::to_string(bytes.size()) + " bytes: offset " +
                    std::to_string(offset) + " length " + std::to_string(length) + " lies outside");
    return r;
  }
  r.value = bytes.subspan(static_cast<std::size_t>(offset), static_cast<std::size_t>(length));
  return r;
}

PeerInfo HostExecutor::published(const ExchangeStep& a) const {
  PeerInfo me;
  me.lid = device_.lid;
  me.qpn = qps_.at(a.qp).qpNum;
  me.psn = psns_.at(a.qp);
  me.gid = device_.gid;
  if (!a.mr.empty()) {
    const MemoryRegion& m = mrs_.at(a.mr);
    me.addr = m.addr;
    me.rkey = m.rkey;
    me.length = m.length;
  }
  return me;
}

// ---------------------------------------------------------------------------------------
// steps

bool HostExecutor::takesPart(const Step& s) const {
  if (std::holds_alternative<ExchangeStep>(s.action)) return true;
  if (const auto* c = std::get_if<CompareMemoryStep>(&s.action))
    return c->hostA == side_ || c->hostB == side_;
  return s.host == side_;
}

StepOutcome HostExecutor::run(const Step& s, std::size_t index) {
  StepOutcome out;
  out.index = index;
  out.host = s.host;
  out.text = s.text;
  Status st = connector_ != nullptr ? connector_->beforeStep(*this, s) : Status{};
  if (st.ok()) st = runAction(s, out);
  if (st.errnum == ECANCELED && stopped()) out.fatal = true;
  if (s.expectErrno && !out.fatal) {
    if (st.ok()) {
      out.ok = false;
      out.message = "expected the call to fail with errno " + std::to_string(*s.expectErrno) +
                    ", but it succeeded";
    } else if (st.errnum != *s.expectErrno) {
      out.ok = false;
      out.message = "failed with errno " + std::to_string(st.errnum) + " instead of " +
                    std::to_string(*s.expectErrno) + ": " + st.message;
    } else {
      out.message = "failed as expected: " + st.message;
    }
  } else if (!st.ok()) {
    out.ok = false;
    out.message = st.message;
  }
  return out;
}

Status HostExecutor::runAction(const Step& s, StepOutcome& out) {
  return std::visit(
      [&](const auto& a) -> Status {
        using T = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<T, ModifyQpStep>) {
          return modify(a, out);
        } else if constexpr (std::is_same_v<T, PostSendStep>) {
          return postSend(a);
        } else if constexpr (std::is_same_v<T, PostRecvStep>) {
          RecvWr wr;
          wr.wrId = a.wrId;
          if (Status st = sges(a.sges, wr.sgList); !st.ok()) return st;
          return backend_.postRecv(qps_.at(a.qp).handle, wr);
        } else if constexpr (std::is_same_v<T, PollCqStep>) {
          return poll(a, out);
        } else if constexpr (std::is_same_v<T, ExchangeStep>) {
          return exchange(a, out);
        } else if constexpr (std::is_same_v<T, RunStep>) {
          return backend_.letTimePass(a.duration, hooks_.stop);
        } else {
          return compare(a, out);
        }
      },
      s.action);
}

Status HostExecutor::fillFromPeer(const ModifyQpStep& a, QpAttr& attr) const {
  if (a.usesPeer() && !peer_)
    return Status::error(EINVAL,
                         "modify_qp uses the peer's values, but no exchange has delivered them "
                         "yet");
  if (a.destQpnFromPeer) attr.destQpNum = peer_->qpn;
  if (a.rqPsnFromPeer) attr.rqPsn = peer_->psn;
  if (a.dgidFromPeer) {
    // The source GID is the device's configured one (IPv4-mapped on Soft-RoCE); index 0
    // would be the link-local GID.
    attr.ahAttr.dgid = peer_->gid;
    attr.ahAttr.isGlobal = true;
    attr.ahAttr.sgidIndex = device_.gidIndex;
  }
  if (a.dlidFromPeer) attr.ahAttr.dlid = peer_->lid;
  if (a.sqPsnOwn) attr.sqPsn = psn(a.qp);
  return {};
}

Status HostExecutor::modify(const ModifyQpStep& a, StepOutcome& out) {
  if (connector_ != nullptr)
    if (std::optional<Status> st = connector_->modifyQp(*this, a, out)) return *st;
  QpAttr attr = a.attr;
  if (Status st = fillFromPeer(a, attr); !st.ok()) return st;
  return backend_.modifyQp(qps_.at(a.qp).handle, attr, a.mask);
}

Status HostExecutor::sges(const std::vector<SgeSpec>& in, std::vector<sim::Sge>& out) const {
  for (const SgeSpec& g : in) {
    const MemoryRegion& m = mrs_.at(g.mr);
    if (g.length > m.length || g.offset > m.length - g.length)
      return Status::error(EINVAL, "SGE " + g.mr + "+" + std::to_string(g.offset) + " length " +
                                       std::to_string(g.length) + " exceeds the MR (" +
                                       std::to_string(m.length) + " bytes)");
    out.push_back({m.addr + g.offset, g.length, m.lkey});
  }
  return {};
}

Status HostExecutor::postSend(const PostSendStep& a) {
  SendWr wr = a.wr;
  if (Status st = sges(a.sges, wr.sgList); !st.ok()) return st;
  if ((a.remoteOffset || a.udToPeer) && connector_ != nullptr)
    if (Status st = connector_->needPeer(*this); !st.ok()) return st;
  if (a.remoteOffset) {
    // rxe gives an MR without remote access rkey 0: what counts is that one was published.
    if (!peer_ || peer_->length == 0)
      return Status::error(EINVAL, "remote_offset needs the peer's MR from an exchange");
    wr.remoteAddr = peer_->addr + *a.remoteOffset;
    if (wr.rkey == 0) wr.rkey = peer_->rkey;
  }
  if (a.udToPeer) {
    if (!peer_) return Status::error(EINVAL, "ud_peer needs an exchange first");
    wr.remoteQpn = peer_->qpn;
    wr.ah.dgid = peer_->gid;
    wr.ah.dlid = peer_->lid;
    wr.ah.isGlobal = true;
    wr.ah.sgidIndex = device_.gidIndex;
  }
  return backend_.postSend(qps_.at(a.qp).handle, wr);
}

Status HostExecutor::poll(const PollCqStep& a, StepOutcome& out) {
  const Handle cq = cqs_.at(a.cq);
  if (hooks_.waiting)
    hooks_.waiting(std::to_string(a.count) + " completion(s) on " + a.cq + " (up to " +
                   std::to_string(a.timeout.count()) + " ms)");
  // The timeout counts the waits that brought nothing, in the backend's time (simulated or
  // wall), in slices so that a stop request ends the wait within one.
  std::chrono::milliseconds left = a.timeout;
  while (static_cast<int>(out.completions.size()) < a.count) {
    if (stopped())
      return Status::error(ECANCELED, "cancelled while waiting for completions on " + a.cq);
    const std::chrono::milliseconds slice = std::min(left, kPollSlice);
    auto r = backend_.waitCq(cq, a.count - static_cast<int>(out.completions.size()), slice);
    if (!r.ok()) return r.status;
    for (const auto& wc : r.value) {
      out.completions.push_back(wc);
      if (hooks_.completion) hooks_.completion(wc);
    }
    if (r.value.empty()) {
      left -= slice;
      if (left.count() <= 0) break;
    }
  }
  const std::string got = completionList(out.completions);
  out.message = got;
  if (static_cast<int>(out.completions.size()) < a.count)
    return Status::error(ETIMEDOUT, "waited " + std::to_string(a.timeout.count()) + " ms for " +
                                        std::to_string(a.count) + " completion(s), got " +
                                        std::to_string(out.completions.size()) +
                                        (got.empty() ? "" : ": " + got));
  for (std::size_t i = 0; i < a.expect.size() && i < out.completions.size(); ++i) {
    const std::string bad = expectationMismatch(a.expect[i], out.completions[i]);
    if (!bad.empty())
      return Status::error(EPROTO, "completion " + std::to_string(i) +
                                       " differs from the expectation in" + bad + " (" + got + ")");
  }
  return {};
}

Status HostExecutor::exchange(const ExchangeStep& a, StepOutcome& out) {
  if (connector_ != nullptr) return connector_->exchange(*this, a, out);
  if (a.from != side_) {
    auto info = link_.receive("the peer's " + scenario_.hosts[a.from].name + " to publish " + a.qp);
    if (!info.ok()) {
      out.fatal = true;
      return info.status;
    }
    peer_ = info.value;
    return {};
  }
  const PeerInfo me = published(a);
  if (Status st = link_.publish(me); !st.ok()) {
    out.fatal = true;
    return st;
  }
  char buf[200];
  std::snprintf(buf, sizeof buf, "QPN 0x%06x PSN 0x%06x LID %u rkey 0x%x addr 0x%llx", me.qpn,
                me.psn, me.lid, me.rkey, static_cast<unsigned long long>(me.addr));
  out.message = buf;
  return {};
}

Status HostExecutor::compare(const CompareMemoryStep& a, StepOutcome& out) {
  std::optional<std::uint64_t> differs;
  if (a.hostA == a.hostB) {
    auto ra = range(a.mrA, a.offsetA, a.length);
    if (!ra.ok()) return ra.status;
    auto rb = range(a.mrB, a.offsetB, a.length);
    if (!rb.ok()) return rb.status;
    auto m = std::mismatch(ra.value.begin(), ra.value.end(), rb.value.begin());
    if (m.first != ra.value.end()) differs = static_cast<std::uint64_t>(m.first - ra.value.begin());
  } else {
    const bool mineIsA = a.hostA == side_;
    auto mine = mineIsA ? range(a.mrA, a.offsetA, a.length) : range(a.mrB, a.offsetB, a.length);
    if (!mine.ok()) return mine.status;
    auto r = link_.compareMemory(a, mine.value);
    if (!r.ok()) {
      out.fatal = r.status.errnum != EINVAL;
      return r.status;
    }
    differs = r.value;
  }
  if (differs)
    return Status::error(
        EPROTO, "memory differs at byte " + std::to_string(*differs) + " of " +
                    std::to_string(a.length) + " (" + scenario_.hosts[a.hostA].name + ":" + a.mrA +
                    "+" + hex(a.offsetA + *differs) + ", " + scenario_.hosts[a.hostB].name + ":" +
                    a.mrB + "+" + hex(a.offsetB + *differs) + ")");
  out.message = std::to_string(a.length) + " bytes equal";
  return {};
}

// ---------------------------------------------------------------------------------------
// the in-process link

void InProcessLink::pair(InProcessLink& a, HostExecutor& hostA, InProcessLink& b,
                         HostExecutor& hostB) {
  a.other_ = &b;
  a.self_ = &hostA;
  a.peerHost_ = &hostB;
  b.other_ = &a;
  b.self_ = &hostB;
  b.peerHost_ = &hostA;
}

Status InProcessLink::publish(const PeerInfo& info) {
  other_->inbox_.push_back(info);
  return {};
}

Result<PeerInfo> InProcessLink::receive(const std::string& what) {
  Result<PeerInfo> r;
  if (inbox_.empty()) {
    r.status = Status::error(EPROTO, "nothing published yet: waiting for " + what);
    return r;
  }
  r.value = inbox_.front();
  inbox_.pop_front();
  return r;
}

Status InProcessLink::barrier(const std::string&, const std::string&) {
  return {};
}

Result<std::optional<std::uint64_t>> InProcessLink::compareMemory(
    const CompareMemoryStep& step, std::span<const std::uint8_t> mine) {
  Result<std::optional<std::uint64_t>> r;
  const bool peerIsA = step.hostA == peerHost_->side();
  auto theirs = peerIsA ? peerHost_->range(step.mrA, step.offsetA, step.length)
                        : peerHost_->range(step.mrB, step.offsetB, step.length);
  if (!theirs.ok()) {
    r.status = theirs.status;
    return r;
  }
  auto m = std::mismatch(mine.begin(), mine.end(), theirs.value.begin());
  if (m.first != mine.end()) r.value = static_cast<std::uint64_t>(m.first - mine.begin());
  return r;
}

// ---------------------------------------------------------------------------------------
// the out-of-band TCP link

Status OobPeerLink::publish(const PeerInfo& info) {
  return oob_.sendLine(formatPeerInfo(info));
}

Result<PeerInfo> OobPeerLink::receive(const std::string& what) {
  if (waiting_) waiting_(what);
  auto line = oob_.readLine(timeout_);
  if (!line.ok()) return {{}, line.status};
  return parsePeerInfo(line.value);
}

Status OobPeerLink::barrier(const std::string& name, const std::string& what) {
  if (waiting_) waiting_("the peer to reach the barrier " + what);
  return oob_.barrier(name, timeout_);
}

Result<std::optional<std::uint64_t>> OobPeerLink::compareMemory(
    const CompareMemoryStep&, std::span<const std::uint8_t> mine) {
  Result<std::optional<std::uint64_t>> r;
  // Both sides see both hashes of every round, so they halve the same way.
  auto differ = [&](std::size_t off, std::size_t len) -> Result<bool> {
    const std::string line = "memory " + std::to_string(fnv1a(mine.subspan(off, len)));
    if (Status st = oob_.sendLine(line); !st.ok()) return {false, st};
    if (waiting_) waiting_("the peer's hash of its memory");
    auto theirs = oob_.readLine(timeout_);
    if (!theirs.ok()) return {false, theirs.status};
    if (theirs.value.rfind("memory ", 0) != 0)
      return {false, Status::error(EPROTO, "the peer sent '" + theirs.value.substr(0, 60) +
                                               "' where its memory hash belongs")};
    return {theirs.value != line, {}};
  };
  std::size_t lo = 0, n = mine.size();
  auto whole = differ(lo, n);
  if (!whole.ok() || !whole.value) {
    r.status = whole.status;
    return r;
  }
  while (n > 1) {
    const std::size_t half = n / 2;
    auto first = differ(lo, half);
    if (!first.ok()) {
      r.status = first.status;
      return r;
    }
    if (first.value) {
      n = half;
    } else {
      lo += half;
      n -= half;
    }
  }
  r.value = lo;
  return r;
}

}  // namespace rdmascope::verbs_backend
