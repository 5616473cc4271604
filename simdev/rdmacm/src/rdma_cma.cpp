// rdma_cma.h's entry points over the simulated CM (cm_library.h). Each call does what rdma-core's
// librdmacm and the kernel's rdma_cm do together: the QP transitions through the public verbs,
// the CM messages through the engine, the events through the channel's fd.
#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cm_library.h"

#define RDMACM_EXPORT extern "C" __attribute__((visibility("default")))

namespace rdmascope::simdev::rdmacm {
namespace {

namespace pk = packets;

int fail(int err) {
  errno = err;
  return -1;
}

Id* idOf(rdma_cm_id* id) {
  return reinterpret_cast<Id*>(id);
}

Channel* channelOf(rdma_event_channel* ch) {
  return reinterpret_cast<Channel*>(ch);
}

EventBox* boxOf(rdma_cm_event* ev) {
  return reinterpret_cast<EventBox*>(ev);
}

Library* library() {
  std::string error;
  Library* lib = Library::get(error);
  if (lib == nullptr) {
    static std::once_flag said;
    std::call_once(said, [&] { std::fprintf(stderr, "librdmacm: %s\n", error.c_str()); });
  }
  return lib;
}

std::uint8_t mtuEnum(std::uint32_t bytes) {
  if (bytes >= 4096) return IBV_MTU_4096;
  if (bytes >= 2048) return IBV_MTU_2048;
  if (bytes >= 1024) return IBV_MTU_1024;
  if (bytes >= 512) return IBV_MTU_512;
  return IBV_MTU_256;
}

std::uint8_t protocolOf(rdma_port_space ps) {
  return static_cast<std::uint8_t>(ps & 0xff);
}

bool isUd(const Id& id) {
  return id.pub.qp_type == IBV_QPT_UD;
}

std::string ipText(const sockaddr_in& a) {
  char b[INET_ADDRSTRLEN] = {};
  inet_ntop(AF_INET, &a.sin_addr, b, sizeof b);
  return b;
}

void freeChannel(Channel* ch) {
  for (EventBox* b : ch->queue)
    delete b;
  ::close(ch->pub.fd);
  delete ch;
}

// Waits for the event a call on a synchronous id (rdma_create_id with no channel) produced, as
// rdma-core's ucma_complete does: the event stays on the id until the next call acks it.
int complete(Id& id) {
  if (!id.channel->sync) return 0;
  if (id.pub.event != nullptr) {
    rdma_ack_cm_event(id.pub.event);
    id.pub.event = nullptr;
  }
  rdma_cm_event* ev = nullptr;
  if (rdma_get_cm_event(&id.channel->pub, &ev) != 0) return -1;
  id.pub.event = ev;
  if (ev->status != 0) return fail(ev->status < 0 ? -ev->status : ECONNREFUSED);
  if (ev->event == RDMA_CM_EVENT_REJECTED || ev->event == RDMA_CM_EVENT_UNREACHABLE ||
      ev->event == RDMA_CM_EVENT_ADDR_ERROR || ev->event == RDMA_CM_EVENT_ROUTE_ERROR ||
      ev->event == RDMA_CM_EVENT_CONNECT_ERROR)
    return fail(ECONNREFUSED);
  return 0;
}

int bindLocked(Library& lib, Id& id, const sockaddr* addr) {
  if (id.bound) return fail(EINVAL);
  if (addr == nullptr) return fail(EINVAL);
  sockaddr_in in{};
  if (addr->sa_family == AF_INET6) {
    // The IPv6 wildcard listens on IPv4 too, as rdma_cm does without RDMA_OPTION_ID_AFONLY.
    sockaddr_in6 in6{};
    std::memcpy(&in6, addr, sizeof in6);
    if (!IN6_IS_ADDR_UNSPECIFIED(&in6.sin6_addr)) return fail(EADDRNOTAVAIL);
    in.sin_family = AF_INET;
    in.sin_port = in6.sin6_port;
  } else if (addr->sa_family == AF_INET) {
    std::memcpy(&in, addr, sizeof in);
  } else {
    return fail(EAFNOSUPPORT);
  }
  const std::uint32_t ip = ntohl(in.sin_addr.s_addr);
  if (ip != INADDR_ANY && ip != lib.info.me().ipv4) {
    lib.nic->log(fmt::format("rdma_bind_addr({}): not this host's address ({} is {})", ipText(in),
                             lib.info.me().name, ipText([&] {
                               sockaddr_in me{};
                               me.sin_addr.s_addr = htonl(lib.info.me().ipv4);
                               return me;
                             }())));
    return fail(EADDRNOTAVAIL);
  }
  const std::uint16_t port = lib.takePort(id.pub.ps, ntohs(in.sin_port));
  if (port == 0) return fail(EADDRINUSE);
  id.port = port;
  id.bound = true;
  auto& src = id.pub.route.addr.src_sin;
  src.sin_family = AF_INET;
  src.sin_addr = in.sin_addr;
  src.sin_port = htons(port);
  id.serviceId = pk::rdmaIpServiceId(protocolOf(id.pub.ps), port);
  if (ip != INADDR_ANY) {
    id.pub.verbs = lib.verbs;
    if (id.pub.pd == nullptr) id.pub.pd = lib.pd;
    id.pub.port_num = 1;
    std::memcpy(id.pub.route.addr.addr.ibaddr.sgid.raw, lib.gid.data(), 16);
    id.pub.route.addr.addr.ibaddr.pkey = htobe16(0xffff);
  }
  return 0;
}

int modifyQp(Id& id, ibv_qp_state state, int respRes, int initDepth) {
  ibv_qp_attr attr{};
  int mask = 0;
  attr.qp_state = state;
  if (rdma_init_qp_attr(&id.pub, &attr, &mask) != 0) return -1;
  if (state == IBV_QPS_RTR && respRes >= 0) attr.max_dest_rd_atomic = static_cast<uint8_t>(respRes);
  if (state == IBV_QPS_RTS && initDepth >= 0) attr.max_rd_atomic = static_cast<uint8_t>(initDepth);
  const int ret = ibv_modify_qp(id.pub.qp, &attr, mask);
  return ret == 0 ? 0 : fail(ret);
}

// INIT again (the access flags follow the connection), then RTR, then RTS: ucma_modify_qp_rtr
// and ucma_modify_qp_rts.
int connectQp(Id& id) {
  if (id.pub.qp == nullptr) return 0;
  if (modifyQp(id, IBV_QPS_INIT, -1, -1) != 0) return -1;
  if (modifyQp(id, IBV_QPS_RTR, id.responderResources, -1) != 0) return -1;
  return modifyQp(id, IBV_QPS_RTS, -1, id.initiatorDepth);
}

void qpToError(Id& id) {
  if (id.pub.qp == nullptr) return;
  ibv_qp_attr attr{};
  attr.qp_state = IBV_QPS_ERR;
  ibv_modify_qp(id.pub.qp, &attr, IBV_QP_STATE);
}

void destroyCqs(Id& id) {
  if (!id.ownCqs) return;
  if (id.pub.send_cq != nullptr && id.pub.send_cq != id.pub.recv_cq) ibv_destroy_cq(id.pub.send_cq);
  if (id.pub.recv_cq != nullptr) ibv_destroy_cq(id.pub.recv_cq);
  if (id.pub.send_cq_channel != nullptr && id.pub.send_cq_channel != id.pub.recv_cq_channel)
    ibv_destroy_comp_channel(id.pub.send_cq_channel);
  if (id.pub.recv_cq_channel != nullptr) ibv_destroy_comp_channel(id.pub.recv_cq_channel);
  id.pub.send_cq = id.pub.recv_cq = nullptr;
  id.pub.send_cq_channel = id.pub.recv_cq_channel = nullptr;
  id.ownCqs = false;
}

int createCqs(Id& id, std::uint32_t sendSize, std::uint32_t recvSize) {
  if (recvSize != 0) {
    id.pub.recv_cq_channel = ibv_create_comp_channel(id.pub.verbs);
    if (id.pub.recv_cq_channel == nullptr) return -1;
    id.pub.recv_cq =
        ibv_create_cq(id.pub.verbs, static_cast<int>(recvSize), &id.pub, id.pub.recv_cq_channel, 0);
    id.ownCqs = true;
    if (id.pub.recv_cq == nullptr) {
      destroyCqs(id);
      return -1;
    }
  }
  if (sendSize != 0) {
    id.pub.send_cq_channel = ibv_create_comp_channel(id.pub.verbs);
    if (id.pub.send_cq_channel == nullptr) {
      destroyCqs(id);
      return -1;
    }
    id.pub.send_cq =
        ibv_create_cq(id.pub.verbs, static_cast<int>(sendSize), &id.pub, id.pub.send_cq_channel, 0);
    id.ownCqs = true;
    if (id.pub.send_cq == nullptr) {
      destroyCqs(id);
      return -1;
    }
  }
  return 0;
}

}  // namespace
}  // namespace rdmascope::simdev::rdmacm

using namespace rdmascope::simdev::rdmacm;
namespace pk = rdmascope::packets;

RDMACM_EXPORT rdma_event_channel* rdma_create_event_channel(void) {
  if (library() == nullptr) {
    errno = ENODEV;
    return nullptr;
  }
  Channel* ch = newChannel(false);
  return ch == nullptr ? nullptr : &ch->pub;
}

RDMACM_EXPORT void rdma_destroy_event_channel(rdma_event_channel* channel) {
  if (channel == nullptr) return;
  Library* lib = library();
  if (lib == nullptr) return;
  std::lock_guard lock(lib->mu);
  freeChannel(channelOf(channel));
}

RDMACM_EXPORT int rdma_create_id(rdma_event_channel* channel, rdma_cm_id** out, void* context,
                                 rdma_port_space ps) {
  Library* lib = library();
  if (lib == nullptr) return fail(ENODEV);
  if (out == nullptr) return fail(EINVAL);
  ibv_qp_type type = IBV_QPT_RC;
  switch (ps) {
    case RDMA_PS_TCP:
    case RDMA_PS_IB:
      break;
    case RDMA_PS_UDP:
      type = IBV_QPT_UD;
      break;
    default:
      return fail(EINVAL);
  }
  auto* id = new Id();
  if (channel == nullptr) {
    id->channel = newChannel(true);
    if (id->channel == nullptr) {
      delete id;
      return fail(ENOMEM);
    }
  } else {
    id->channel = channelOf(channel);
  }
  id->pub.channel = &id->channel->pub;
  id->pub.context = context;
  id->pub.ps = ps;
  id->pub.qp_type = type;
  id->pathMtu = mtuEnum(lib->nic->activeMtu());
  *out = &id->pub;
  return 0;
}

RDMACM_EXPORT int rdma_destroy_id(rdma_cm_id* cmId) {
  if (cmId == nullptr) return fail(EINVAL);
  Library* lib = library();
  if (lib == nullptr) return fail(ENODEV);
  Id& id = *idOf(cmId);
  if (id.channel->sync && id.pub.event != nullptr) {
    rdma_ack_cm_event(id.pub.event);
    id.pub.event = nullptr;
  }
  std::unique_lock lock(lib->mu);
  if (id.listening) lib->engine.unlisten(id.serviceId);
  if (id.bound) lib->ports.erase({id.pub.ps, id.port});
  if (id.hasConn) {
    lib->engine.release(id.conn, Clock::now());
    lib->flush(lock);
    // A DREQ still unanswered keeps the process as the kernel would keep the connection: the
    // peer learns of the disconnect even when this program exits right away.
    const auto until = Clock::now() + 3 * kCmResponseTimeout;
    while (lib->engine.waiting(id.conn) && Clock::now() < until) {
      lock.unlock();
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      lock.lock();
    }
  }
  lib->dropQueued(id);
  Channel* own = id.channel->sync ? id.channel : nullptr;
  if (id.outstanding == 0) {
    delete &id;
  } else {
    id.destroyed = true;
  }
  if (own != nullptr) freeChannel(own);
  return 0;
}

RDMACM_EXPORT int rdma_bind_addr(rdma_cm_id* cmId, sockaddr* addr) {
  Library* lib = library();
  if (lib == nullptr) return fail(ENODEV);
  std::lock_guard lock(lib->mu);
  return bindLocked(*lib, *idOf(cmId), addr);
}

RDMACM_EXPORT int rdma_resolve_addr(rdma_cm_id* cmId, sockaddr* srcAddr, sockaddr* dstAddr,
                                    int timeoutMs) {
  (void)timeoutMs;
  Library* lib = library();
  if (lib == nullptr) return fail(ENODEV);
  Id& id = *idOf(cmId);
  if (dstAddr == nullptr) return fail(EINVAL);
  if (dstAddr->sa_family != AF_INET) return fail(EAFNOSUPPORT);
  std::unique_lock lock(lib->mu);
  if (!id.bound) {
    sockaddr_in any{};
    any.sin_family = AF_INET;
    const sockaddr* src = srcAddr != nullptr ? srcAddr : reinterpret_cast<sockaddr*>(&any);
    if (bindLocked(*lib, id, src) != 0) return -1;
  }
  auto& src = id.pub.route.addr.src_sin;
  src.sin_addr.s_addr = htonl(lib->info.me().ipv4);
  sockaddr_in dst{};
  std::memcpy(&dst, dstAddr, sizeof dst);
  id.pub.route.addr.dst_sin = dst;
  id.peerPort = ntohs(dst.sin_port);
  Gid peer{};
  if (!lib->gidOfIpv4(ntohl(dst.sin_addr.s_addr), peer)) {
    lib->nic->log(
        fmt::format("rdma_resolve_addr({}): no host of the fabric has this address "
                    "(the hosts are 10.9.0.1 to 10.9.0.{}): RDMA_CM_EVENT_ADDR_ERROR",
                    ipText(dst), lib->info.hosts.size()));
    lib->post(id, RDMA_CM_EVENT_ADDR_ERROR, -EHOSTUNREACH);
  } else {
    id.peerGid = peer;
    id.addrResolved = true;
    id.pub.verbs = lib->verbs;
    if (id.pub.pd == nullptr) id.pub.pd = lib->pd;
    id.pub.port_num = 1;
    std::memcpy(id.pub.route.addr.addr.ibaddr.sgid.raw, lib->gid.data(), 16);
    std::memcpy(id.pub.route.addr.addr.ibaddr.dgid.raw, peer.data(), 16);
    id.pub.route.addr.addr.ibaddr.pkey = htobe16(0xffff);
    lib->post(id, RDMA_CM_EVENT_ADDR_RESOLVED, 0);
  }
  lock.unlock();
  return complete(id);
}

RDMACM_EXPORT int rdma_resolve_route(rdma_cm_id* cmId, int timeoutMs) {
  (void)timeoutMs;
  Library* lib = library();
  if (lib == nullptr) return fail(ENODEV);
  Id& id = *idOf(cmId);
  std::unique_lock lock(lib->mu);
  if (!id.addrResolved) return fail(EINVAL);
  id.routeResolved = true;
  lib->fillRoute(id);
  lib->post(id, RDMA_CM_EVENT_ROUTE_RESOLVED, 0);
  lock.unlock();
  return complete(id);
}

RDMACM_EXPORT int rdma_init_qp_attr(rdma_cm_id* cmId, ibv_qp_attr* attr, int* mask) {
  Library* lib = library();
  if (lib == nullptr) return fail(ENODEV);
  if (attr == nullptr || mask == nullptr) return fail(EINVAL);
  Id& id = *idOf(cmId);
  std::lock_guard lock(lib->mu);
  const ibv_qp_state state = attr->qp_state;
  *attr = {};
  attr->qp_state = state;
  const bool ud = isUd(id);
  switch (state) {
    case IBV_QPS_INIT:
      attr->pkey_index = 0;
      attr->port_num = 1;
      if (ud) {
        attr->qkey = id.qkey;
        *mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY;
      } else {
        // As Linux's CM: remote writes once connected, reads and atomics with responder
        // resources; nothing before the connection exists.
        if (id.hasConn) {
          attr->qp_access_flags = IBV_ACCESS_REMOTE_WRITE;
          if (id.responderResources != 0)
            attr->qp_access_flags |= IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC;
        }
        *mask = IBV_QP_STATE | IBV_QP_ACCESS_FLAGS | IBV_QP_PKEY_INDEX | IBV_QP_PORT;
      }
      return 0;
    case IBV_QPS_RTR:
      if (ud) {
        *mask = IBV_QP_STATE;
        return 0;
      }
      if (!id.hasConn || id.remoteQpn == 0) return fail(EINVAL);
      attr->ah_attr.is_global = 1;
      std::memcpy(attr->ah_attr.grh.dgid.raw, id.peerGid.data(), 16);
      attr->ah_attr.grh.sgid_index = 1;
      attr->ah_attr.grh.hop_limit = 64;
      attr->ah_attr.grh.traffic_class = id.tos;
      attr->ah_attr.port_num = 1;
      attr->path_mtu = static_cast<ibv_mtu>(id.pathMtu);
      attr->dest_qp_num = id.remoteQpn;
      attr->rq_psn = id.ownPsn;
      attr->max_dest_rd_atomic = id.responderResources;
      attr->min_rnr_timer = 0;
      *mask = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
              IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
      return 0;
    case IBV_QPS_RTS:
      if (ud) {
        attr->sq_psn = 0;
        *mask = IBV_QP_STATE | IBV_QP_SQ_PSN;
        return 0;
      }
      if (!id.hasConn || id.remoteQpn == 0) return fail(EINVAL);
      attr->sq_psn = id.peerPsn;
      attr->timeout = id.ackTimeout;
      attr->retry_cnt = id.retryCount & 7;
      attr->rnr_retry = id.rnrRetry & 7;
      attr->max_rd_atomic = id.initiatorDepth;
      *mask = IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
              IBV_QP_MAX_QP_RD_ATOMIC;
      return 0;
    default:
      return fail(EINVAL);
  }
}

RDMACM_EXPORT int rdma_create_qp_ex(rdma_cm_id* cmId, ibv_qp_init_attr_ex* attr) {
  Library* lib = library();
  if (lib == nullptr) return fail(ENODEV);
  Id& id = *idOf(cmId);
  if (attr == nullptr || id.pub.qp != nullptr) return fail(EINVAL);
  if (id.pub.verbs == nullptr) return fail(EINVAL);
  if (!(attr->comp_mask & IBV_QP_INIT_ATTR_PD) || attr->pd == nullptr) {
    attr->comp_mask |= IBV_QP_INIT_ATTR_PD;
    attr->pd = id.pub.pd;
  } else if (attr->pd->context != id.pub.verbs) {
    return fail(EINVAL);
  }
  if (attr->pd == nullptr) return fail(EINVAL);
  if ((id.pub.recv_cq && attr->recv_cq && id.pub.recv_cq != attr->recv_cq) ||
      (id.pub.send_cq && attr->send_cq && id.pub.send_cq != attr->send_cq))
    return fail(EINVAL);
  if (createCqs(id, attr->send_cq || id.pub.send_cq ? 0 : attr->cap.max_send_wr,
                attr->recv_cq || id.pub.recv_cq ? 0 : attr->cap.max_recv_wr) != 0)
    return -1;
  if (attr->send_cq == nullptr) attr->send_cq = id.pub.send_cq;
  if (attr->recv_cq == nullptr) attr->recv_cq = id.pub.recv_cq;
  if (id.pub.srq != nullptr && attr->srq == nullptr) attr->srq = id.pub.srq;
  ibv_qp* qp = attr->comp_mask == IBV_QP_INIT_ATTR_PD
                   ? ibv_create_qp(attr->pd, reinterpret_cast<ibv_qp_init_attr*>(attr))
                   : ibv_create_qp_ex(id.pub.verbs, attr);
  if (qp == nullptr) {
    destroyCqs(id);
    return -1;
  }
  id.pub.qp = qp;
  int ret = modifyQp(id, IBV_QPS_INIT, -1, -1);
  if (ret == 0 && isUd(id)) {
    ret = modifyQp(id, IBV_QPS_RTR, -1, -1);
    if (ret == 0) ret = modifyQp(id, IBV_QPS_RTS, -1, -1);
  }
  if (ret != 0) {
    const int err = errno;
    id.pub.qp = nullptr;
    ibv_destroy_qp(qp);
    destroyCqs(id);
    return fail(err);
  }
  id.pub.pd = qp->pd;
  return 0;
}

RDMACM_EXPORT int rdma_create_qp(rdma_cm_id* cmId, ibv_pd* pd, ibv_qp_init_attr* initAttr) {
  if (initAttr == nullptr) return fail(EINVAL);
  ibv_qp_init_attr_ex ex{};
  std::memcpy(&ex, initAttr, sizeof *initAttr);
  ex.comp_mask = IBV_QP_INIT_ATTR_PD;
  ex.pd = pd != nullptr ? pd : cmId->pd;
  const int ret = rdma_create_qp_ex(cmId, &ex);
  std::memcpy(initAttr, &ex, sizeof *initAttr);
  return ret;
}

RDMACM_EXPORT void rdma_destroy_qp(rdma_cm_id* cmId) {
  Id& id = *idOf(cmId);
  if (id.pub.qp != nullptr) ibv_destroy_qp(id.pub.qp);
  id.pub.qp = nullptr;
  destroyCqs(id);
}

RDMACM_EXPORT int rdma_connect(rdma_cm_id* cmId, rdma_conn_param* param) {
  Library* lib = library();
  if (lib == nullptr) return fail(ENODEV);
  Id& id = *idOf(cmId);
  const bool ud = isUd(id);
  if (!id.routeResolved || id.hasConn) return fail(EINVAL);
  if (!ud && id.pub.qp == nullptr && (param == nullptr || param->qp_num == 0)) return fail(EINVAL);
  const std::size_t room = ud ? 216 - 36 : pk::kCmReqPrivateSize - 36;
  const std::uint8_t pdLen = param != nullptr ? param->private_data_len : 0;
  if (pdLen > room) return fail(EINVAL);
  pk::IpCmPrivateData ip;
  ip.srcPort = id.port;
  ip.src = pk::IpAddress::v4(0, 0, 0, 0);
  const std::uint32_t me = lib->info.me().ipv4;
  ip.src =
      pk::IpAddress::v4(static_cast<std::uint8_t>(me >> 24), static_cast<std::uint8_t>(me >> 16),
                        static_cast<std::uint8_t>(me >> 8), static_cast<std::uint8_t>(me));
  const std::uint32_t to = ntohl(id.pub.route.addr.dst_sin.sin_addr.s_addr);
  ip.dst =
      pk::IpAddress::v4(static_cast<std::uint8_t>(to >> 24), static_cast<std::uint8_t>(to >> 16),
                        static_cast<std::uint8_t>(to >> 8), static_cast<std::uint8_t>(to));
  if (pdLen != 0 && param->private_data != nullptr) {
    const auto* p = static_cast<const std::uint8_t*>(param->private_data);
    ip.consumerData.assign(p, p + pdLen);
  }
  auto privateData = pk::encodeIpCmPrivateData(ip);
  const std::uint64_t serviceId = pk::rdmaIpServiceId(protocolOf(id.pub.ps), id.peerPort);
  std::unique_lock lock(lib->mu);
  if (ud) {
    pk::CmSidrReq req;
    req.serviceId = serviceId;
    privateData.resize(36 + pdLen);
    req.privateData = std::move(privateData);
    id.conn = lib->engine.resolveSidr(id.peerGid, std::move(req), &id, Clock::now());
    id.hasConn = true;
  } else {
    id.initiatorDepth = param != nullptr && param->initiator_depth != RDMA_MAX_INIT_DEPTH
                            ? param->initiator_depth
                            : lib->maxInitiatorDepth;
    id.responderResources = param != nullptr && param->responder_resources != RDMA_MAX_RESP_RES
                                ? param->responder_resources
                                : lib->maxResponderResources;
    id.retryCount = param != nullptr ? param->retry_count : 7;
    id.rnrRetry = param != nullptr ? param->rnr_retry_count : 7;
    id.ownPsn = lib->random() & 0xffffff;
    pk::CmReq req;
    req.serviceId = serviceId;
    req.localCaGuid = lib->guid;
    req.localQpn = id.pub.qp != nullptr ? id.pub.qp->qp_num : param->qp_num;
    req.responderResources = id.responderResources;
    req.initiatorDepth = id.initiatorDepth;
    req.remoteCmResponseTimeout = 20;
    req.transportServiceType = id.pub.qp_type == IBV_QPT_UC ? 1 : 0;
    req.endToEndFlowControl = param != nullptr && param->flow_control != 0;
    req.startingPsn = id.ownPsn;
    req.localCmResponseTimeout = 20;
    req.retryCount = id.retryCount & 7;
    req.pathMtu = id.pathMtu;
    req.rnrRetryCount = id.rnrRetry & 7;
    req.srq = id.pub.qp != nullptr ? id.pub.qp->srq != nullptr : param->srq != 0;
    req.primary.localLid = 0xffff;
    req.primary.remoteLid = 0xffff;
    req.primary.localGid = lib->gid;
    req.primary.remoteGid = id.peerGid;
    req.primary.flowLabel = (std::uint32_t{id.port} * 31 + id.peerPort) & 0xfffff;
    req.primary.trafficClass = id.tos;
    req.primary.hopLimit = 64;
    req.primary.localAckTimeout = id.ackTimeout;
    req.privateData = std::move(privateData);
    id.conn = lib->engine.connect(id.peerGid, std::move(req), &id, Clock::now());
    id.hasConn = true;
  }
  lib->flush(lock);
  lock.unlock();
  return complete(id);
}

RDMACM_EXPORT int rdma_listen(rdma_cm_id* cmId, int backlog) {
  (void)backlog;
  Library* lib = library();
  if (lib == nullptr) return fail(ENODEV);
  Id& id = *idOf(cmId);
  std::lock_guard lock(lib->mu);
  if (!id.bound) {
    sockaddr_in any{};
    any.sin_family = AF_INET;
    if (bindLocked(*lib, id, reinterpret_cast<sockaddr*>(&any)) != 0) return -1;
  }
  if (id.listening) return 0;
  if (!lib->engine.listen(id.serviceId, &id)) return fail(EADDRINUSE);
  id.listening = true;
  lib->poke();  // a REQ that came just before may be waiting for this listener
  return 0;
}

RDMACM_EXPORT int rdma_get_request(rdma_cm_id* listen, rdma_cm_id** out) {
  Id& l = *idOf(listen);
  if (!l.channel->sync || out == nullptr) return fail(EINVAL);
  if (l.pub.event != nullptr) {
    rdma_ack_cm_event(l.pub.event);
    l.pub.event = nullptr;
  }
  rdma_cm_event* ev = nullptr;
  if (rdma_get_cm_event(l.pub.channel, &ev) != 0) return -1;
  if (ev->event != RDMA_CM_EVENT_CONNECT_REQUEST) {
    const int err = ev->event == RDMA_CM_EVENT_REJECTED ? ECONNREFUSED
                    : ev->status != 0                   ? -ev->status
                                                        : EINVAL;
    l.pub.event = ev;
    return fail(err);
  }
  if (l.hasQpInitAttr) {
    ibv_qp_init_attr attr = l.qpInitAttr;
    if (rdma_create_qp(ev->id, l.pub.pd, &attr) != 0) {
      l.pub.event = ev;
      return -1;
    }
  }
  *out = ev->id;
  (*out)->event = ev;
  return 0;
}

RDMACM_EXPORT void rdma_destroy_ep(rdma_cm_id* cmId) {
  if (cmId == nullptr) return;
  if (cmId->qp != nullptr) rdma_destroy_qp(cmId);
  rdma_destroy_id(cmId);
}

RDMACM_EXPORT int rdma_create_ep(rdma_cm_id** out, rdma_addrinfo* res, ibv_pd* pd,
                                 ibv_qp_init_attr* qpInitAttr) {
  if (out == nullptr || res == nullptr) return fail(EINVAL);
  rdma_cm_id* cmId = nullptr;
  if (rdma_create_id(nullptr, &cmId, nullptr, static_cast<rdma_port_space>(res->ai_port_space)) !=
      0)
    return -1;
  Id& id = *idOf(cmId);
  if (res->ai_qp_type != 0) id.pub.qp_type = static_cast<ibv_qp_type>(res->ai_qp_type);
  int ret = 0;
  if (res->ai_flags & RAI_PASSIVE) {
    ret = rdma_bind_addr(cmId, res->ai_src_addr);
    if (ret == 0) {
      if (pd != nullptr) id.pub.pd = pd;
      if (qpInitAttr != nullptr) {
        id.hasQpInitAttr = true;
        id.qpInitAttr = *qpInitAttr;
        id.qpInitAttr.qp_type = id.pub.qp_type;
      }
    }
  } else {
    ret = rdma_resolve_addr(cmId, res->ai_src_addr, res->ai_dst_addr, 2000);
    if (ret == 0) ret = rdma_resolve_route(cmId, 2000);
    if (ret == 0 && qpInitAttr != nullptr) {
      qpInitAttr->qp_type = id.pub.qp_type;
      ret = rdma_create_qp(cmId, pd, qpInitAttr);
    }
  }
  if (ret != 0) {
    const int err = errno;
    rdma_destroy_ep(cmId);
    return fail(err);
  }
  *out = cmId;
  return 0;
}

RDMACM_EXPORT int rdma_accept(rdma_cm_id* cmId, rdma_conn_param* param) {
  Library* lib = library();
  if (lib == nullptr) return fail(ENODEV);
  Id& id = *idOf(cmId);
  if (!id.hasConn) return fail(EINVAL);
  if (isUd(id)) {
    if (id.pub.qp == nullptr && param == nullptr) return fail(EINVAL);
    const std::uint8_t pdLen = param != nullptr ? param->private_data_len : 0;
    if (pdLen > 136) return fail(EINVAL);
    pk::CmSidrRep rep;
    rep.qpn = id.pub.qp != nullptr ? id.pub.qp->qp_num : param->qp_num;
    rep.qkey = id.qkey;
    rep.serviceId = id.serviceId;
    if (pdLen != 0 && param->private_data != nullptr) {
      const auto* p = static_cast<const std::uint8_t*>(param->private_data);
      rep.privateData.assign(p, p + pdLen);
    }
    std::unique_lock lock(lib->mu);
    if (!lib->engine.answerSidr(id.conn, std::move(rep), Clock::now())) return fail(EINVAL);
    lib->flush(lock);
    return 0;
  }
  if (id.pub.qp == nullptr && (param == nullptr || param->qp_num == 0)) return fail(EINVAL);
  const std::uint8_t pdLen = param != nullptr ? param->private_data_len : 0;
  if (pdLen > 196) return fail(EINVAL);
  {
    std::lock_guard lock(lib->mu);
    if (lib->engine.state(id.conn) != CmEngine::State::ReqRcvd) return fail(EINVAL);
    id.initiatorDepth = param == nullptr || param->initiator_depth == RDMA_MAX_INIT_DEPTH
                            ? std::min(id.initiatorDepth, lib->maxInitiatorDepth)
                            : param->initiator_depth;
    id.responderResources = param == nullptr || param->responder_resources == RDMA_MAX_RESP_RES
                                ? std::min(id.responderResources, lib->maxResponderResources)
                                : param->responder_resources;
    if (param != nullptr) id.rnrRetry = param->rnr_retry_count;
  }
  if (connectQp(id) != 0) return -1;
  pk::CmRep rep;
  rep.localQpn = id.pub.qp != nullptr ? id.pub.qp->qp_num : param->qp_num;
  rep.startingPsn = id.ownPsn;
  rep.responderResources = id.responderResources;
  rep.initiatorDepth = id.initiatorDepth;
  rep.targetAckDelay = 15;
  rep.endToEndFlowControl = param != nullptr && param->flow_control != 0;
  rep.rnrRetryCount = id.rnrRetry & 7;
  rep.srq = id.pub.qp != nullptr ? id.pub.qp->srq != nullptr : param->srq != 0;
  rep.localCaGuid = lib->guid;
  if (pdLen != 0 && param->private_data != nullptr) {
    const auto* p = static_cast<const std::uint8_t*>(param->private_data);
    rep.privateData.assign(p, p + pdLen);
  }
  std::unique_lock lock(lib->mu);
  if (!lib->engine.accept(id.conn, std::move(rep), Clock::now())) {
    lock.unlock();
    qpToError(id);
    return fail(EINVAL);
  }
  lib->flush(lock);
  lock.unlock();
  return complete(id);
}

namespace {

int rejectWith(rdma_cm_id* cmId, const void* privateData, std::uint8_t len, std::uint16_t reason) {
  Library* lib = library();
  if (lib == nullptr) return fail(ENODEV);
  Id& id = *idOf(cmId);
  if (!id.hasConn) return fail(EINVAL);
  std::span<const std::uint8_t> pd;
  if (privateData != nullptr) pd = {static_cast<const std::uint8_t*>(privateData), len};
  std::unique_lock lock(lib->mu);
  if (!lib->engine.reject(id.conn, reason, pd, Clock::now())) return fail(EINVAL);
  lib->flush(lock);
  return 0;
}

}  // namespace

RDMACM_EXPORT int rdma_reject(rdma_cm_id* cmId, const void* privateData, uint8_t len) {
  return rejectWith(cmId, privateData, len, kRejConsumer);
}

RDMACM_EXPORT int rdma_reject_ece(rdma_cm_id* cmId, const void* privateData, uint8_t len) {
  return rejectWith(cmId, privateData, len, 35);  // IBTA: vendor option not supported
}

RDMACM_EXPORT int rdma_establish(rdma_cm_id* cmId) {
  Library* lib = library();
  if (lib == nullptr) return fail(ENODEV);
  Id& id = *idOf(cmId);
  if (id.pub.qp != nullptr || !id.hasConn) return fail(EINVAL);
  std::unique_lock lock(lib->mu);
  if (!lib->engine.establish(id.conn, Clock::now())) return fail(EINVAL);
  lib->flush(lock);
  return 0;
}

RDMACM_EXPORT int rdma_disconnect(rdma_cm_id* cmId) {
  Library* lib = library();
  if (lib == nullptr) return fail(ENODEV);
  Id& id = *idOf(cmId);
  if (id.pub.verbs == nullptr) return fail(EINVAL);
  qpToError(id);
  if (!id.hasConn) return fail(EINVAL);
  std::unique_lock lock(lib->mu);
  if (!lib->engine.disconnect(id.conn, Clock::now())) return fail(EINVAL);
  lib->flush(lock);
  lock.unlock();
  return complete(id);
}

RDMACM_EXPORT int rdma_get_cm_event(rdma_event_channel* channel, rdma_cm_event** event) {
  Library* lib = library();
  if (lib == nullptr) return fail(ENODEV);
  if (channel == nullptr || event == nullptr) return fail(EINVAL);
  Channel& ch = *channelOf(channel);
  EventBox* box = nullptr;
  for (;;) {
    {
      std::lock_guard lock(lib->mu);
      if (!ch.queue.empty()) {
        box = ch.queue.front();
        ch.queue.pop_front();
        if (ch.queue.empty()) drainChannel(ch);
        ++box->owner->outstanding;
        break;
      }
    }
    const int flags = ::fcntl(ch.pub.fd, F_GETFL);
    if (flags >= 0 && (flags & O_NONBLOCK) != 0) return fail(EAGAIN);
    pollfd p{ch.pub.fd, POLLIN, 0};
    if (::poll(&p, 1, -1) < 0 && errno != EINTR) return -1;
  }
  Id& id = *box->owner;
  rdma_cm_event& ev = box->event;
  if (ev.event == RDMA_CM_EVENT_CONNECT_RESPONSE && id.pub.qp != nullptr) {
    // A QP made through rdma_cm is connected here, in the program's thread, as librdmacm does.
    if (connectQp(id) == 0) {
      std::unique_lock lock(lib->mu);
      lib->engine.establish(id.conn, Clock::now());
      lib->flush(lock);
      ev.event = RDMA_CM_EVENT_ESTABLISHED;
    } else {
      ev.event = RDMA_CM_EVENT_CONNECT_ERROR;
      ev.status = -errno;
      lib->nic->log(fmt::format("rdma_cm: the QP {:#x} did not go RTR/RTS after the REP: {}",
                                id.pub.qp->qp_num, std::strerror(errno)));
      qpToError(id);
      std::unique_lock lock(lib->mu);
      lib->engine.reject(id.conn, kRejConsumer, {}, Clock::now());
      lib->flush(lock);
    }
  } else if (ev.event == RDMA_CM_EVENT_REJECTED) {
    qpToError(id);
  }
  *event = &ev;
  return 0;
}

RDMACM_EXPORT int rdma_ack_cm_event(rdma_cm_event* event) {
  if (event == nullptr) return fail(EINVAL);
  Library* lib = library();
  if (lib == nullptr) return fail(ENODEV);
  EventBox* box = boxOf(event);
  std::lock_guard lock(lib->mu);
  Id* id = box->owner;
  if (--id->outstanding == 0 && id->destroyed) delete id;
  delete box;
  return 0;
}

RDMACM_EXPORT int rdma_migrate_id(rdma_cm_id* cmId, rdma_event_channel* channel) {
  Library* lib = library();
  if (lib == nullptr) return fail(ENODEV);
  Id& id = *idOf(cmId);
  Channel* to = channel != nullptr ? channelOf(channel) : newChannel(true);
  if (to == nullptr) return fail(ENOMEM);
  std::lock_guard lock(lib->mu);
  Channel* from = id.channel;
  const auto before = from->queue.size();
  for (auto it = from->queue.begin(); it != from->queue.end();) {
    if ((*it)->owner == &id) {
      to->queue.push_back(*it);
      signalChannel(*to);
      it = from->queue.erase(it);
    } else {
      ++it;
    }
  }
  if (before != 0 && from->queue.empty()) drainChannel(*from);
  id.channel = to;
  id.pub.channel = &to->pub;
  if (from->sync && from != to) freeChannel(from);
  return 0;
}

RDMACM_EXPORT int rdma_set_option(rdma_cm_id* cmId, int level, int optname, void* optval,
                                  size_t optlen) {
  Library* lib = library();
  if (lib == nullptr) return fail(ENODEV);
  Id& id = *idOf(cmId);
  if (optval == nullptr) return fail(EINVAL);
  std::lock_guard lock(lib->mu);
  if (level == RDMA_OPTION_ID) {
    switch (optname) {
      case RDMA_OPTION_ID_TOS:
        if (optlen != sizeof(std::uint8_t)) return fail(EINVAL);
        id.tos = *static_cast<std::uint8_t*>(optval);
        return 0;
      case RDMA_OPTION_ID_REUSEADDR:
      case RDMA_OPTION_ID_AFONLY:
        return optlen == sizeof(int) ? 0 : fail(EINVAL);
      case RDMA_OPTION_ID_ACK_TIMEOUT:
        if (optlen != sizeof(std::uint8_t)) return fail(EINVAL);
        id.ackTimeout = *static_cast<std::uint8_t*>(optval) & 31;
        return 0;
      default:
        return fail(ENOSYS);
    }
  }
  if (level == RDMA_OPTION_IB && optname == RDMA_OPTION_IB_PATH) {
    if (optlen % sizeof(ibv_path_data) != 0 || optlen == 0) return fail(EINVAL);
    return 0;
  }
  return fail(ENOSYS);
}

RDMACM_EXPORT uint16_t rdma_get_src_port(rdma_cm_id* cmId) {
  return cmId->route.addr.src_sin.sin_port;
}

RDMACM_EXPORT uint16_t rdma_get_dst_port(rdma_cm_id* cmId) {
  return cmId->route.addr.dst_sin.sin_port;
}

RDMACM_EXPORT ibv_context** rdma_get_devices(int* numDevices) {
  Library* lib = library();
  auto** list = static_cast<ibv_context**>(std::calloc(2, sizeof(ibv_context*)));
  if (list == nullptr) return nullptr;
  if (lib != nullptr) list[0] = lib->verbs;
  if (numDevices != nullptr) *numDevices = lib != nullptr ? 1 : 0;
  return list;
}

RDMACM_EXPORT void rdma_free_devices(ibv_context** list) {
  std::free(list);
}

RDMACM_EXPORT const char* rdma_event_str(rdma_cm_event_type event) {
  switch (event) {
    case RDMA_CM_EVENT_ADDR_RESOLVED:
      return "RDMA_CM_EVENT_ADDR_RESOLVED";
    case RDMA_CM_EVENT_ADDR_ERROR:
      return "RDMA_CM_EVENT_ADDR_ERROR";
    case RDMA_CM_EVENT_ROUTE_RESOLVED:
      return "RDMA_CM_EVENT_ROUTE_RESOLVED";
    case RDMA_CM_EVENT_ROUTE_ERROR:
      return "RDMA_CM_EVENT_ROUTE_ERROR";
    case RDMA_CM_EVENT_CONNECT_REQUEST:
      return "RDMA_CM_EVENT_CONNECT_REQUEST";
    case RDMA_CM_EVENT_CONNECT_RESPONSE:
      return "RDMA_CM_EVENT_CONNECT_RESPONSE";
    case RDMA_CM_EVENT_CONNECT_ERROR:
      return "RDMA_CM_EVENT_CONNECT_ERROR";
    case RDMA_CM_EVENT_UNREACHABLE:
      return "RDMA_CM_EVENT_UNREACHABLE";
    case RDMA_CM_EVENT_REJECTED:
      return "RDMA_CM_EVENT_REJECTED";
    case RDMA_CM_EVENT_ESTABLISHED:
      return "RDMA_CM_EVENT_ESTABLISHED";
    case RDMA_CM_EVENT_DISCONNECTED:
      return "RDMA_CM_EVENT_DISCONNECTED";
    case RDMA_CM_EVENT_DEVICE_REMOVAL:
      return "RDMA_CM_EVENT_DEVICE_REMOVAL";
    case RDMA_CM_EVENT_MULTICAST_JOIN:
      return "RDMA_CM_EVENT_MULTICAST_JOIN";
    case RDMA_CM_EVENT_MULTICAST_ERROR:
      return "RDMA_CM_EVENT_MULTICAST_ERROR";
    case RDMA_CM_EVENT_ADDR_CHANGE:
      return "RDMA_CM_EVENT_ADDR_CHANGE";
    case RDMA_CM_EVENT_TIMEWAIT_EXIT:
      return "RDMA_CM_EVENT_TIMEWAIT_EXIT";
    default:
      return "UNKNOWN EVENT";
  }
}
