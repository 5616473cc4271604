#include "cm_engine.h"

#include <fmt/format.h>

#include <cerrno>
#include <utility>

namespace rdmascope::simdev::rdmacm {

namespace pk = packets;

namespace {

// Linux's ib_cm numbers a transaction by its MAD agent (high half) and the sender's ID.
std::uint64_t tidOf(std::uint32_t localId) {
  return (std::uint64_t{2} << 32) | localId;
}

}  // namespace

const char* cmMessageName(const pk::CmMessage& m) {
  static constexpr const char* kNames[] = {"REQ",  "MRA",  "REJ",      "REP",     "RTU",
                                           "DREQ", "DREP", "SIDR_REQ", "SIDR_REP"};
  return kNames[m.index()];
}

CmEngine::CmEngine(Config config) : config_(std::move(config)) {}

bool CmEngine::listen(std::uint64_t serviceId, void* owner) {
  if (!listeners_.emplace(serviceId, owner).second) return false;
  std::vector<UnheardReq> waiting;
  for (auto it = unheard_.begin(); it != unheard_.end();) {
    if (it->req.serviceId == serviceId) {
      waiting.push_back(std::move(*it));
      it = unheard_.erase(it);
    } else {
      ++it;
    }
  }
  for (const UnheardReq& u : waiting)
    onReq(u.req, u.tid, Clock::now());
  return true;
}

void CmEngine::rejectUnheard(const pk::CmReq& m, std::uint64_t tid) {
  pk::CmRej rej;
  rej.localCommId = newId();
  rej.remoteCommId = m.localCommId;
  rej.reason = kRejInvalidServiceId;
  sendOnce(m.primary.localGid, rej, tid,
           fmt::format("CM REJ: nothing listens on service ID {:#018x} (reason 8, invalid "
                       "service ID)",
                       m.serviceId));
}

void CmEngine::unlisten(std::uint64_t serviceId) {
  listeners_.erase(serviceId);
}

CmEngine::Connection* CmEngine::find(std::uint32_t conn) {
  auto it = conns_.find(conn);
  return it == conns_.end() ? nullptr : &it->second;
}

const CmEngine::Connection* CmEngine::find(std::uint32_t conn) const {
  auto it = conns_.find(conn);
  return it == conns_.end() ? nullptr : &it->second;
}

std::uint32_t CmEngine::newId() {
  for (;;) {
    const std::uint32_t id = config_.random();
    if (id != 0 && !conns_.contains(id)) return id;
  }
}

void CmEngine::sendOnce(const Gid& peer, const pk::CmMessage& m, std::uint64_t tid,
                        std::string why) {
  outbox_.push_back(OutgoingMad{peer, pk::cmPacket(m, tid), std::move(why)});
}

void CmEngine::send(Connection& c, pk::CmMessage m, std::uint64_t tid, std::string why,
                    bool awaitAnswer, Clock::time_point now) {
  sendOnce(c.peer, m, tid, why);
  c.lastSent = std::move(m);
  c.lastTid = tid;
  c.lastWhy = std::move(why);
  c.awaiting = awaitAnswer;
  c.retriesLeft = config_.maxRetries;
  c.deadline = now + config_.responseTimeout;
}

void CmEngine::upcall(CmUpcall::Kind kind, const Connection& c, int status,
                      std::optional<pk::CmMessage> m) {
  if (c.owner == nullptr) return;
  upcalls_.push_back(CmUpcall{kind, c.localId, c.owner, status, c.peer, std::move(m)});
}

void CmEngine::enterTimewait(Connection& c, Clock::time_point now) {
  c.state = State::TimeWait;
  c.awaiting = false;
  c.deadline = now + config_.timewait;
}

std::uint32_t CmEngine::connect(const Gid& peer, pk::CmReq req, void* owner,
                                Clock::time_point now) {
  const std::uint32_t id = newId();
  Connection& c = conns_[id];
  c.localId = id;
  c.peer = peer;
  c.tid = tidOf(id);
  c.owner = owner;
  c.active = true;
  c.state = State::ReqSent;
  req.localCommId = id;
  req.maxCmRetries = static_cast<std::uint8_t>(config_.maxRetries);
  const std::string why = fmt::format(
      "CM REQ (rdma_connect): service ID {:#018x}, QPN {:#08x}, starting PSN {:#08x}, "
      "communication ID {:#010x}",
      req.serviceId, req.localQpn, req.startingPsn, id);
  send(c, std::move(req), c.tid, why, true, now);
  return id;
}

std::uint32_t CmEngine::resolveSidr(const Gid& peer, pk::CmSidrReq req, void* owner,
                                    Clock::time_point now) {
  const std::uint32_t id = newId();
  Connection& c = conns_[id];
  c.localId = id;
  c.peer = peer;
  c.tid = tidOf(id);
  c.owner = owner;
  c.active = true;
  c.state = State::SidrReqSent;
  req.requestId = id;
  const std::string why = fmt::format(
      "CM SIDR_REQ (rdma_connect on a UD id): which QP serves service ID {:#018x}", req.serviceId);
  send(c, std::move(req), c.tid, why, true, now);
  return id;
}

void CmEngine::adopt(std::uint32_t conn, void* owner) {
  if (Connection* c = find(conn)) c->owner = owner;
}

bool CmEngine::accept(std::uint32_t conn, pk::CmRep rep, Clock::time_point now) {
  Connection* c = find(conn);
  if (c == nullptr || c->state != State::ReqRcvd) return false;
  rep.localCommId = c->localId;
  rep.remoteCommId = c->remoteId;
  c->state = State::RepSent;
  const std::string why = fmt::format("CM REP (rdma_accept): QPN {:#08x}, starting PSN {:#08x}",
                                      rep.localQpn, rep.startingPsn);
  send(*c, std::move(rep), c->tid, why, true, now);
  return true;
}

bool CmEngine::establish(std::uint32_t conn, Clock::time_point now) {
  Connection* c = find(conn);
  if (c == nullptr || c->state != State::RepRcvd) return false;
  c->state = State::Established;
  send(*c, pk::CmRtu{c->localId, c->remoteId, {}}, c->tid,
       "CM RTU: the REP arrived and the QP is ready to send, the connection is established", false,
       now);
  return true;
}

bool CmEngine::reject(std::uint32_t conn, std::uint16_t reason,
                      std::span<const std::uint8_t> privateData, Clock::time_point now) {
  Connection* c = find(conn);
  if (c == nullptr) return false;
  if (c->state == State::SidrReqRcvd) {
    pk::CmSidrRep rep;
    rep.status = kSidrRejected;
    rep.privateData.assign(privateData.begin(), privateData.end());
    return answerSidr(conn, std::move(rep), now);
  }
  if (c->state != State::ReqRcvd && c->state != State::RepRcvd) return false;
  pk::CmRej rej;
  rej.localCommId = c->localId;
  rej.remoteCommId = c->remoteId;
  rej.messageRejected = c->state == State::ReqRcvd ? 0 : 1;
  rej.reason = reason;
  rej.privateData.assign(privateData.begin(), privateData.end());
  const std::string why =
      fmt::format("CM REJ (rdma_reject): reason {} ({})", reason, pk::cmRejectReasonName(reason));
  send(*c, std::move(rej), c->tid, why, false, now);
  c->state = State::Closed;
  c->deadline = now + config_.timewait;
  return true;
}

bool CmEngine::answerSidr(std::uint32_t conn, pk::CmSidrRep rep, Clock::time_point now) {
  Connection* c = find(conn);
  if (c == nullptr || c->state != State::SidrReqRcvd) return false;
  rep.requestId = c->remoteId;
  const std::string why =
      rep.status == 0
          ? fmt::format("CM SIDR_REP (rdma_accept on a UD id): QPN {:#08x}, Q_Key {:#010x}",
                        rep.qpn, rep.qkey)
          : fmt::format("CM SIDR_REP: status {} (the request is not served)", rep.status);
  send(*c, std::move(rep), c->tid, why, false, now);
  c->state = State::SidrRepSent;
  c->deadline = now + config_.timewait;
  return true;
}

bool CmEngine::disconnect(std::uint32_t conn, Clock::time_point now) {
  Connection* c = find(conn);
  if (c == nullptr) return false;
  switch (c->state) {
    case State::Established:
    case State::RepSent: {
      c->state = State::DreqSent;
      pk::CmDreq dreq{c->localId, c->remoteId, c->remoteQpn, {}};
      send(*c, std::move(dreq), tidOf(c->localId),
           fmt::format("CM DREQ (rdma_disconnect): remote QPN {:#08x}", c->remoteQpn), true, now);
      return true;
    }
    case State::DreqRcvd:
      send(*c, pk::CmDrep{c->localId, c->remoteId, {}}, c->lastTid,
           "CM DREP: the peer's DREQ answered (rdma_disconnect after DISCONNECTED)", false, now);
      enterTimewait(*c, now);
      c->answeredDreq = true;
      return true;
    case State::DreqSent:
    case State::TimeWait:
      return true;
    default:
      return false;
  }
}

void CmEngine::release(std::uint32_t conn, Clock::time_point now) {
  Connection* c = find(conn);
  if (c == nullptr) return;
  c->owner = nullptr;
  switch (c->state) {
    case State::ReqRcvd:
    case State::RepRcvd:
    case State::SidrReqRcvd:
      reject(conn, kRejConsumer, {}, now);
      break;
    case State::Established:
    case State::RepSent:
    case State::DreqRcvd:
      disconnect(conn, now);
      break;
    case State::ReqSent:
    case State::SidrReqSent:
      conns_.erase(conn);
      break;
    default:
      break;
  }
}

bool CmEngine::waiting(std::uint32_t conn) const {
  const Connection* c = find(conn);
  return c != nullptr && c->awaiting;
}

std::optional<Clock::time_point> CmEngine::lingerUntil() const {
  std::optional<Clock::time_point> until;
  for (const auto& [id, c] : conns_) {
    if (!(c.state == State::TimeWait && c.answeredDreq) && c.state != State::SidrRepSent) continue;
    // The peer sends its request again one response timeout after the last; allow for the wire.
    const auto t = c.requestArrived + config_.responseTimeout + config_.responseTimeout / 8;
    if (!until || t > *until) until = t;
  }
  return until;
}

std::uint32_t CmEngine::remoteId(std::uint32_t conn) const {
  const Connection* c = find(conn);
  return c == nullptr ? 0 : c->remoteId;
}

CmEngine::State CmEngine::state(std::uint32_t conn) const {
  const Connection* c = find(conn);
  return c == nullptr ? State::Closed : c->state;
}

void CmEngine::receive(std::span<const std::uint8_t> mad, Clock::time_point now) {
  if (mad.size() < pk::kMadSize) return;
  const pk::MadHeader h = pk::decodeMadHeader(mad);
  if (h.mgmtClass != static_cast<std::uint8_t>(pk::MadClass::ComMgt)) return;
  auto m = pk::decodeCmMessage(h.attributeId, mad.subspan(pk::kMadHeaderSize));
  if (!m) return;
  std::visit(
      [&](const auto& msg) {
        using T = std::decay_t<decltype(msg)>;
        if constexpr (std::is_same_v<T, pk::CmReq>)
          onReq(msg, h.transactionId, now);
        else if constexpr (std::is_same_v<T, pk::CmRep>)
          onRep(msg, now);
        else if constexpr (std::is_same_v<T, pk::CmRtu>)
          onRtu(msg);
        else if constexpr (std::is_same_v<T, pk::CmRej>)
          onRej(msg, now);
        else if constexpr (std::is_same_v<T, pk::CmMra>)
          onMra(msg, now);
        else if constexpr (std::is_same_v<T, pk::CmDreq>)
          onDreq(msg, h.transactionId, now);
        else if constexpr (std::is_same_v<T, pk::CmDrep>)
          onDrep(msg, now);
        else if constexpr (std::is_same_v<T, pk::CmSidrReq>)
          onSidrReq(msg, h.transactionId, now);
        else if constexpr (std::is_same_v<T, pk::CmSidrRep>)
          onSidrRep(msg);
      },
      *m);
}

void CmEngine::onReq(const pk::CmReq& m, std::uint64_t tid, Clock::time_point now) {
  for (auto& [id, c] : conns_) {
    if (c.active || c.remoteId != m.localCommId || c.peer != m.primary.localGid) continue;
    // A resent REQ: its REP (or REJ) was lost; a REQ still before the consumer is dropped.
    if ((c.state == State::RepSent || c.state == State::Closed) && c.lastSent)
      sendOnce(c.peer, *c.lastSent, c.lastTid, c.lastWhy + " (again: the REQ came again)");
    return;
  }
  auto l = listeners_.find(m.serviceId);
  if (l == listeners_.end()) {
    if (config_.listenGrace.count() <= 0) {
      rejectUnheard(m, tid);
      return;
    }
    for (const UnheardReq& u : unheard_) {  // a resent REQ already waiting
      if (u.req.localCommId == m.localCommId && u.req.primary.localGid == m.primary.localGid)
        return;
    }
    unheard_.push_back({m, tid, now + config_.listenGrace});
    return;
  }
  const std::uint32_t id = newId();
  Connection& c = conns_[id];
  c.localId = id;
  c.remoteId = m.localCommId;
  c.peer = m.primary.localGid;
  c.tid = tid;
  c.state = State::ReqRcvd;
  c.remoteQpn = m.localQpn;
  c.deadline = now;
  upcalls_.push_back(
      CmUpcall{CmUpcall::Kind::ConnectRequest, id, l->second, 0, c.peer, pk::CmMessage{m}});
}

void CmEngine::onRep(const pk::CmRep& m, Clock::time_point now) {
  Connection* c = find(m.remoteCommId);
  if (c == nullptr || !c->active) return;
  if (c->state == State::ReqSent) {
    c->remoteId = m.localCommId;
    c->remoteQpn = m.localQpn;
    c->state = State::RepRcvd;
    c->awaiting = false;
    upcall(CmUpcall::Kind::ConnectResponse, *c, 0, pk::CmMessage{m});
    if (c->owner == nullptr) reject(c->localId, kRejConsumer, {}, now);
    return;
  }
  // A resent REP: our RTU was lost.
  if (c->remoteId == m.localCommId && c->state == State::Established && c->lastSent)
    sendOnce(c->peer, *c->lastSent, c->lastTid, c->lastWhy + " (again: the REP came again)");
}

void CmEngine::onRtu(const pk::CmRtu& m) {
  Connection* c = find(m.remoteCommId);
  if (c == nullptr || c->active || c->state != State::RepSent || c->remoteId != m.localCommId)
    return;
  c->state = State::Established;
  c->awaiting = false;
  upcall(CmUpcall::Kind::Established, *c);
}

void CmEngine::onRej(const pk::CmRej& m, Clock::time_point now) {
  Connection* c = find(m.remoteCommId);
  if (c == nullptr) return;
  if (c->state != State::ReqSent && c->state != State::RepSent && c->state != State::RepRcvd)
    return;
  upcall(CmUpcall::Kind::Rejected, *c, m.reason, pk::CmMessage{m});
  c->state = State::Closed;
  c->awaiting = false;
  c->lastSent.reset();
  c->deadline = now;
}

void CmEngine::onMra(const pk::CmMra& m, Clock::time_point now) {
  Connection* c = find(m.remoteCommId);
  if (c == nullptr || !c->awaiting) return;
  c->deadline = now + config_.responseTimeout +
                std::chrono::nanoseconds(std::int64_t{4096} << (m.serviceTimeout & 31));
}

void CmEngine::onDreq(const pk::CmDreq& m, std::uint64_t tid, Clock::time_point now) {
  Connection* c = find(m.remoteCommId);
  if (c == nullptr || c->remoteId != m.localCommId) return;
  const pk::CmDrep drep{c->localId, c->remoteId, {}};
  switch (c->state) {
    case State::Established:
    case State::RepSent:
      c->state = State::DreqRcvd;
      c->awaiting = false;
      c->lastTid = tid;
      c->requestArrived = now;
      upcall(CmUpcall::Kind::Disconnected, *c);
      if (c->owner == nullptr) disconnect(c->localId, now);
      break;
    case State::DreqSent:
      // Both sides disconnect at once: answer theirs, keep waiting for the answer to ours.
      sendOnce(c->peer, drep, tid, "CM DREP: both sides sent a DREQ");
      break;
    case State::TimeWait:
      sendOnce(c->peer, drep, tid, "CM DREP (again: the DREQ came again)");
      c->requestArrived = now;
      break;
    default:
      break;
  }
}

void CmEngine::onDrep(const pk::CmDrep& m, Clock::time_point now) {
  Connection* c = find(m.remoteCommId);
  if (c == nullptr || c->state != State::DreqSent || c->remoteId != m.localCommId) return;
  upcall(CmUpcall::Kind::Disconnected, *c);
  enterTimewait(*c, now);
}

void CmEngine::onSidrReq(const pk::CmSidrReq& m, std::uint64_t tid, Clock::time_point now) {
  const auto ip = pk::decodeIpCmPrivateData(m.privateData);
  const auto peer = ip && config_.gidOfIp ? config_.gidOfIp(ip->src) : std::nullopt;
  if (!peer) return;  // no address to answer to
  for (auto& [id, c] : conns_) {
    if (c.active || c.remoteId != m.requestId || c.peer != *peer) continue;
    if (c.state == State::SidrRepSent && c.lastSent) {
      sendOnce(c.peer, *c.lastSent, c.lastTid, c.lastWhy + " (again: the SIDR_REQ came again)");
      c.requestArrived = now;
    }
    return;
  }
  auto l = listeners_.find(m.serviceId);
  if (l == listeners_.end()) {
    pk::CmSidrRep rep;
    rep.requestId = m.requestId;
    rep.status = kSidrUnsupported;
    rep.serviceId = m.serviceId;
    sendOnce(
        *peer, rep, tid,
        fmt::format("CM SIDR_REP: nothing listens on service ID {:#018x} (status 1)", m.serviceId));
    return;
  }
  const std::uint32_t id = newId();
  Connection& c = conns_[id];
  c.localId = id;
  c.remoteId = m.requestId;
  c.peer = *peer;
  c.tid = tid;
  c.state = State::SidrReqRcvd;
  c.deadline = now;
  c.requestArrived = now;
  upcalls_.push_back(
      CmUpcall{CmUpcall::Kind::SidrRequest, id, l->second, 0, c.peer, pk::CmMessage{m}});
}

void CmEngine::onSidrRep(const pk::CmSidrRep& m) {
  Connection* c = find(m.requestId);
  if (c == nullptr || c->state != State::SidrReqSent) return;
  upcall(CmUpcall::Kind::SidrResolved, *c, m.status, pk::CmMessage{m});
  conns_.erase(m.requestId);
}

void CmEngine::tick(Clock::time_point now) {
  for (auto it = unheard_.begin(); it != unheard_.end();) {
    if (it->rejectAt <= now) {
      rejectUnheard(it->req, it->tid);
      it = unheard_.erase(it);
    } else {
      ++it;
    }
  }
  for (auto it = conns_.begin(); it != conns_.end();) {
    Connection& c = it->second;
    if (c.deadline > now) {
      ++it;
      continue;
    }
    if (c.awaiting) {
      if (c.retriesLeft > 0) {
        --c.retriesLeft;
        sendOnce(c.peer, *c.lastSent, c.lastTid,
                 fmt::format("{} (resent: no answer within the CM response timeout, {} "
                             "retries left)",
                             c.lastWhy, c.retriesLeft));
        c.deadline = now + config_.responseTimeout;
        ++it;
        continue;
      }
      c.awaiting = false;
      if (c.state == State::DreqSent) {
        upcall(CmUpcall::Kind::Disconnected, c);
        enterTimewait(c, now);
        ++it;
        continue;
      }
      upcall(CmUpcall::Kind::Unreachable, c, -ETIMEDOUT);
      it = conns_.erase(it);
      continue;
    }
    switch (c.state) {
      case State::TimeWait:
        upcall(CmUpcall::Kind::TimewaitExit, c);
        it = conns_.erase(it);
        break;
      case State::Closed:
      case State::SidrRepSent:
        it = conns_.erase(it);
        break;
      default:
        ++it;
        break;
    }
  }
}

std::optional<Clock::time_point> CmEngine::nextDeadline() const {
  std::optional<Clock::time_point> next;
  for (const auto& [id, c] : conns_) {
    const bool timed = c.awaiting || c.state == State::TimeWait || c.state == State::Closed ||
                       c.state == State::SidrRepSent;
    if (timed && (!next || c.deadline < *next)) next = c.deadline;
  }
  for (const UnheardReq& u : unheard_) {
    if (!next || u.rejectAt < *next) next = u.rejectAt;
  }
  return next;
}

std::vector<OutgoingMad> CmEngine::takeOutbox() {
  return std::exchange(outbox_, {});
}

std::vector<CmUpcall> CmEngine::takeUpcalls() {
  return std::exchange(upcalls_, {});
}

}  // namespace rdmascope::simdev::rdmacm
