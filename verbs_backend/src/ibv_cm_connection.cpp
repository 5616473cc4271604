#include "rdmascope/verbs_backend/ibv_cm_connection.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <poll.h>
#include <rdma/rdma_cma.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>

#include "ibv_internal.h"

namespace rdmascope::verbs_backend {
namespace {

using Clock = std::chrono::steady_clock;

template <class T>
Result<T> fail(Status s) {
  Result<T> r;
  r.status = std::move(s);
  return r;
}

Status sysError(const std::string& what, int e = errno) {
  return Status::error(e, what + " failed: " + std::strerror(e));
}

std::string addressText(const sockaddr* sa) {
  if (sa == nullptr) return "?";
  char host[INET6_ADDRSTRLEN] = "?";
  std::uint16_t port = 0;
  if (sa->sa_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(sa);
    ::inet_ntop(AF_INET, &in->sin_addr, host, sizeof host);
    port = ntohs(in->sin_port);
  } else if (sa->sa_family == AF_INET6) {
    const auto* in = reinterpret_cast<const sockaddr_in6*>(sa);
    ::inet_ntop(AF_INET6, &in->sin6_addr, host, sizeof host);
    port = ntohs(in->sin6_port);
  }
  return std::string(host) + ":" + std::to_string(port);
}

struct Event {
  rdma_cm_event_type type = RDMA_CM_EVENT_ADDR_RESOLVED;
  int status = 0;
  rdma_cm_id* id = nullptr;
  std::vector<std::uint8_t> privateData;
};

// The parameters REQ and REP share (the REP carries no retry count).
rdma_conn_param connParam(std::uint32_t qpNum, std::span<const std::uint8_t> privateData,
                          std::uint8_t responderResources, std::uint8_t initiatorDepth,
                          std::uint8_t rnrRetry) {
  rdma_conn_param p{};
  p.private_data = privateData.data();
  p.private_data_len = static_cast<std::uint8_t>(privateData.size());
  p.responder_resources = responderResources;
  p.initiator_depth = initiatorDepth;
  p.rnr_retry_count = rnrRetry;
  p.qp_num = qpNum;
  return p;
}

}  // namespace

struct CmConnection::Impl {
  rdma_event_channel* channel = nullptr;
  rdma_cm_id* listenId = nullptr;
  rdma_cm_id* id = nullptr;
  std::string peer;             // what the user named, for messages
  std::optional<Event> replay;  // an event taken off the channel, to be handled again

  ~Impl() {
    if (id != nullptr) rdma_destroy_id(id);
    if (listenId != nullptr) rdma_destroy_id(listenId);
    if (channel != nullptr) rdma_destroy_event_channel(channel);
  }

  Status open() {
    if (Status s = cmAvailable(); !s.ok()) return s;
    channel = rdma_create_event_channel();
    if (channel == nullptr) {
      const int e = errno;
      if (e == ENODEV)
        return Status::error(e,
                             "rdma_cm found no RDMA device: run the Soft-RoCE lab "
                             "(rdmascope-cli lab) or load rdma_rxe");
      return sysError("rdma_create_event_channel", e);
    }
    return Status::success();
  }

  // rdma_resolve_addr's failures, said as a user sees them.
  Status addressError(int e) const {
    if (e == ENETUNREACH || e == EHOSTUNREACH)
      return Status::error(EHOSTUNREACH, "no route to " + peer + ": " + std::strerror(e));
    if (e == ETIMEDOUT)
      return Status::error(
          ETIMEDOUT, "timeout: address " + peer + " unresolvable (no host answered ARP/ND for it)");
    if (e == ENODEV)
      return Status::error(ENODEV, "address " + peer +
                                       " unresolvable: no RDMA device on the interface that "
                                       "reaches it");
    return Status::error(EADDRNOTAVAIL, "address " + peer + " unresolvable: " +
                                            (e > 0 ? std::strerror(e) : "no answer"));
  }

  // The next event (copied, then acknowledged at once, so that destroying an id never waits).
  Result<Event> next(Clock::time_point deadline, const std::string& waitingFor) {
    if (replay) {
      Event e = std::move(*replay);
      replay.reset();
      return {std::move(e), {}};
    }
    for (;;) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0)
        return fail<Event>(Status::error(ETIMEDOUT, "timed out waiting for " + waitingFor));
      pollfd pfd{channel->fd, POLLIN, 0};
      const int n = ::poll(&pfd, 1, static_cast<int>(std::min<long long>(left, 1 << 30)));
      if (n < 0) {
        if (errno == EINTR) continue;
        return fail<Event>(sysError("poll on the rdma_cm event channel"));
      }
      if (n == 0) continue;
      rdma_cm_event* ev = nullptr;
      if (rdma_get_cm_event(channel, &ev) != 0) return fail<Event>(sysError("rdma_get_cm_event"));
      Event out;
      out.type = ev->event;
      out.status = ev->status;
      out.id = ev->id;
      if (ev->param.conn.private_data != nullptr && ev->param.conn.private_data_len > 0) {
        const auto* p = static_cast<const std::uint8_t*>(ev->param.conn.private_data);
        out.privateData.assign(p, p + ev->param.conn.private_data_len);
      }
      rdma_ack_cm_event(ev);
      return {std::move(out), {}};
    }
  }

  // Waits for `want`; an error event ends the wait with a sentence saying what went wrong.
  Result<Event> expect(rdma_cm_event_type want, std::chrono::milliseconds timeout,
                       const std::string& waitingFor) {
    const auto deadline = Clock::now() + timeout;
    for (;;) {
      auto r = next(deadline, waitingFor);
      if (!r.ok()) return r;
      const Event& ev = r.value;
      if (ev.type == want) {
        if (ev.status != 0)
          return fail<Event>(Status::error(
              -ev.status,
              std::string(rdma_event_str(ev.type)) + " with status " + std::strerror(-ev.status)));
        return r;
      }
      const std::string why = ev.status < 0 ? std::strerror(-ev.status) : "";
      switch (ev.type) {
        case RDMA_CM_EVENT_ADDR_ERROR:
          return fail<Event>(addressError(-ev.status));
        case RDMA_CM_EVENT_ROUTE_ERROR:
          return fail<Event>(Status::error(
              EHOSTUNREACH, "no route to " + peer + ": " + (why.empty() ? "no answer" : why)));
        case RDMA_CM_EVENT_REJECTED: {
          std::string text;
          // A consumer reject may carry the refusing side's reason as text.
          for (std::uint8_t c : ev.privateData) {
            if (c == 0) break;
            text += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
          }
          return fail<Event>(Status::error(
              ECONNREFUSED,
              "connection rejected by " + peer + ": " + cmRejectReasonName(ev.status) +
                  (text.rfind("rdmascope: ", 0) == 0 ? " - " + text.substr(11) : std::string())));
        }
        case RDMA_CM_EVENT_UNREACHABLE:
          return fail<Event>(Status::error(
              ETIMEDOUT, "timeout: " + peer + " did not answer the CM " +
                             (waitingFor.find("REP") != std::string::npos ? "REQ" : "REP") +
                             (why.empty() ? "" : " (" + why + ")")));
        case RDMA_CM_EVENT_CONNECT_ERROR:
          return fail<Event>(Status::error(
              ECONNABORTED, "connection to " + peer + " failed" + (why.empty() ? "" : ": " + why)));
        case RDMA_CM_EVENT_DEVICE_REMOVAL:
          return fail<Event>(Status::error(ENODEV, "the RDMA device went away"));
        case RDMA_CM_EVENT_DISCONNECTED:
          return fail<Event>(
              Status::error(ECONNRESET, peer + " disconnected while waiting for " + waitingFor));
        default:
          break;  // e.g. TIMEWAIT_EXIT, ADDR_CHANGE: nothing to do here
      }
    }
  }
};

CmConnection::CmConnection(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CmConnection::~CmConnection() = default;

Result<std::unique_ptr<CmConnection>> CmConnection::listen(std::uint16_t port) {
  using R = std::unique_ptr<CmConnection>;
  auto impl = std::make_unique<Impl>();
  impl->peer = "the peer";
  if (Status s = impl->open(); !s.ok()) return fail<R>(s);
  if (rdma_create_id(impl->channel, &impl->listenId, nullptr, RDMA_PS_TCP) != 0)
    return fail<R>(sysError("rdma_create_id"));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_ANY);
  addr.sin_port = htons(port);
  if (rdma_bind_addr(impl->listenId, reinterpret_cast<sockaddr*>(&addr)) != 0) {
    const int e = errno;
    if (e == EADDRINUSE)
      return fail<R>(Status::error(e, "rdma_cm port " + std::to_string(port) + " is in use"));
    return fail<R>(sysError("rdma_bind_addr to port " + std::to_string(port), e));
  }
  if (rdma_listen(impl->listenId, 1) != 0) return fail<R>(sysError("rdma_listen"));
  return {R(new CmConnection(std::move(impl))), {}};
}

Result<std::vector<std::uint8_t>> CmConnection::waitRequest(std::chrono::milliseconds timeout) {
  using R = std::vector<std::uint8_t>;
  if (impl_->listenId == nullptr)
    return fail<R>(Status::error(EINVAL, "waitRequest is for the listening side"));
  auto ev = impl_->expect(RDMA_CM_EVENT_CONNECT_REQUEST, timeout, "the peer's CM REQ");
  if (!ev.ok()) return fail<R>(ev.status);
  impl_->id = ev.value.id;
  impl_->peer = addressText(rdma_get_peer_addr(impl_->id));
  return {std::move(ev.value.privateData), {}};
}

Status CmConnection::accept(std::uint32_t qpNum, std::span<const std::uint8_t> privateData,
                            std::uint8_t responderResources, std::uint8_t initiatorDepth,
                            std::uint8_t rnrRetry) {
  if (impl_->id == nullptr) return Status::error(ENOTCONN, "accept before a REQ arrived");
  if (privateData.size() > kCmRepPrivateDataMax)
    return Status::error(
        EMSGSIZE, "REP private data above " + std::to_string(kCmRepPrivateDataMax) + " bytes");
  rdma_conn_param p = connParam(qpNum, privateData, responderResources, initiatorDepth, rnrRetry);
  if (rdma_accept(impl_->id, &p) != 0) return sysError("rdma_accept (the CM REP)");
  return Status::success();
}

Status CmConnection::reject(const std::string& why) {
  if (impl_->id == nullptr) return Status::error(ENOTCONN, "reject before a REQ arrived");
  std::string text = "rdmascope: " + why;
  text.resize(std::min<std::size_t>(text.size(), 140));
  text.push_back('\0');
  if (rdma_reject(impl_->id, text.data(), static_cast<std::uint8_t>(text.size())) != 0)
    return sysError("rdma_reject");
  return Status::success();
}

Status CmConnection::waitEstablished(std::chrono::milliseconds timeout) {
  auto ev = impl_->expect(RDMA_CM_EVENT_ESTABLISHED, timeout, "the peer's CM RTU");
  return ev.status;
}

Result<std::unique_ptr<CmConnection>> CmConnection::resolve(const std::string& host,
                                                            std::uint16_t port,
                                                            std::chrono::milliseconds timeout) {
  using R = std::unique_ptr<CmConnection>;
  auto impl = std::make_unique<Impl>();
  impl->peer = host;
  if (Status s = impl->open(); !s.ok()) return fail<R>(s);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  const std::string service = std::to_string(port);
  if (int e = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &res); e != 0)
    return fail<R>(Status::error(EINVAL, "unknown host '" + host + "': " + gai_strerror(e)));
  sockaddr_storage dst{};
  std::memcpy(&dst, res->ai_addr, std::min<std::size_t>(res->ai_addrlen, sizeof dst));
  ::freeaddrinfo(res);
  impl->peer = addressText(reinterpret_cast<sockaddr*>(&dst));
  if (rdma_create_id(impl->channel, &impl->id, nullptr, RDMA_PS_TCP) != 0)
    return fail<R>(sysError("rdma_create_id"));
  const int ms = static_cast<int>(std::clamp<long long>(timeout.count(), 1, 1 << 30));
  if (rdma_resolve_addr(impl->id, nullptr, reinterpret_cast<sockaddr*>(&dst), ms) != 0)
    return fail<R>(impl->addressError(errno));
  auto ev = impl->expect(RDMA_CM_EVENT_ADDR_RESOLVED, timeout + std::chrono::seconds(1),
                         "the address resolution of " + impl->peer);
  if (!ev.ok()) return fail<R>(ev.status);
  if (rdma_resolve_route(impl->id, ms) != 0) {
    const int e = errno;
    return fail<R>(
        Status::error(EHOSTUNREACH, "no route to " + impl->peer + ": " + std::strerror(e)));
  }
  ev = impl->expect(RDMA_CM_EVENT_ROUTE_RESOLVED, timeout + std::chrono::seconds(1),
                    "the route to " + impl->peer);
  if (!ev.ok()) return fail<R>(ev.status);
  return {R(new CmConnection(std::move(impl))), {}};
}

Status CmConnection::connect(std::uint32_t qpNum, std::span<const std::uint8_t> privateData,
                             std::uint8_t responderResources, std::uint8_t initiatorDepth,
                             std::uint8_t retryCount, std::uint8_t rnrRetry) {
  if (impl_->id == nullptr || impl_->listenId != nullptr)
    return Status::error(EINVAL, "connect is for the resolving side");
  if (privateData.size() > kCmReqPrivateDataMax)
    return Status::error(
        EMSGSIZE, "REQ private data above " + std::to_string(kCmReqPrivateDataMax) + " bytes");
  rdma_conn_param p = connParam(qpNum, privateData, responderResources, initiatorDepth, rnrRetry);
  p.retry_count = retryCount;
  if (rdma_connect(impl_->id, &p) != 0) return sysError("rdma_connect (the CM REQ)");
  return Status::success();
}

Result<std::vector<std::uint8_t>> CmConnection::waitResponse(std::chrono::milliseconds timeout) {
  using R = std::vector<std::uint8_t>;
  auto ev = impl_->expect(RDMA_CM_EVENT_CONNECT_RESPONSE, timeout, "the peer's CM REP");
  if (!ev.ok()) return fail<R>(ev.status);
  return {std::move(ev.value.privateData), {}};
}

Status CmConnection::establish() {
  if (rdma_establish(impl_->id) != 0) return sysError("rdma_establish (the CM RTU)");
  return Status::success();
}

Result<CmQpAttributes> CmConnection::qpAttributes(QpState state) {
  if (impl_->id == nullptr)
    return fail<CmQpAttributes>(Status::error(ENOTCONN, "no rdma_cm connection yet"));
  ibv_qp_attr a{};
  a.qp_state = static_cast<ibv_qp_state>(state);
  int mask = 0;
  if (rdma_init_qp_attr(impl_->id, &a, &mask) != 0)
    return fail<CmQpAttributes>(
        sysError(std::string("rdma_init_qp_attr for ") + std::string(verbs::toString(state))));
  return {{qpAttrFromIbv(a), static_cast<unsigned>(mask)}, {}};
}

Status CmConnection::disconnect(bool initiate, std::chrono::milliseconds timeout) {
  if (impl_->id == nullptr) return Status::error(ENOTCONN, "no rdma_cm connection to end");
  if (initiate) {
    if (rdma_disconnect(impl_->id) != 0) return sysError("rdma_disconnect (the CM DREQ)");
    return impl_->expect(RDMA_CM_EVENT_DISCONNECTED, timeout, "the peer's CM DREP").status;
  }
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    auto ev = impl_->next(deadline, "the peer's CM DREQ");
    if (!ev.ok()) return ev.status;
    if (ev.value.type == RDMA_CM_EVENT_DISCONNECTED) break;
  }
  if (rdma_disconnect(impl_->id) != 0) return sysError("rdma_disconnect (the CM DREP)");
  return Status::success();
}

Status CmConnection::pendingError(std::chrono::milliseconds wait) {
  const auto deadline = Clock::now() + wait;
  for (;;) {
    auto ev = impl_->next(deadline, "a CM event");
    if (!ev.ok()) return Status::success();  // nothing (more) arrived
    const rdma_cm_event_type t = ev.value.type;
    if (t == RDMA_CM_EVENT_REJECTED || t == RDMA_CM_EVENT_UNREACHABLE ||
        t == RDMA_CM_EVENT_CONNECT_ERROR || t == RDMA_CM_EVENT_DISCONNECTED ||
        t == RDMA_CM_EVENT_DEVICE_REMOVAL) {
      // expect() words these; the event it waits for can never come.
      impl_->replay = std::move(ev.value);
      return impl_->expect(RDMA_CM_EVENT_TIMEWAIT_EXIT, wait, "a CM event").status;
    }
  }
}

std::string CmConnection::deviceName() const {
  const rdma_cm_id* id = impl_->id != nullptr ? impl_->id : impl_->listenId;
  if (id == nullptr || id->verbs == nullptr) return {};
  return ibv_get_device_name(id->verbs->device);
}

std::uint8_t CmConnection::portNum() const {
  return impl_->id != nullptr ? impl_->id->port_num : 0;
}

std::string CmConnection::localAddress() const {
  return impl_->id == nullptr ? std::string() : addressText(rdma_get_local_addr(impl_->id));
}

std::string CmConnection::peerAddress() const {
  return impl_->id == nullptr ? std::string() : addressText(rdma_get_peer_addr(impl_->id));
}

Result<std::unique_ptr<IbvBackend>> CmConnection::openBackend(const IbvOptions& options) {
  if (impl_->id == nullptr || impl_->id->verbs == nullptr)
    return fail<std::unique_ptr<IbvBackend>>(
        Status::error(ENODEV, "the rdma_cm has not picked a device yet"));
  IbvOptions o = options;
  o.port = impl_->id->port_num;
  return IbvBackendAccess::onContext(impl_->id->verbs, o);
}

}  // namespace rdmascope::verbs_backend
