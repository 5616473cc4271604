#include "cm_library.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>

namespace rdmascope::simdev::rdmacm {

namespace pk = packets;

namespace {

Gid mappedIpv4(std::uint32_t ip) {
  Gid g{};
  g[10] = 0xff;
  g[11] = 0xff;
  g[12] = static_cast<std::uint8_t>(ip >> 24);
  g[13] = static_cast<std::uint8_t>(ip >> 16);
  g[14] = static_cast<std::uint8_t>(ip >> 8);
  g[15] = static_cast<std::uint8_t>(ip);
  return g;
}

std::uint32_t ipv4Of(const pk::IpAddress& a) {
  return (std::uint32_t{a.bytes[0]} << 24) | (std::uint32_t{a.bytes[1]} << 16) |
         (std::uint32_t{a.bytes[2]} << 8) | a.bytes[3];
}

Library* theLibrary = nullptr;

// At exit the process stays while a peer may still send a DREQ again (our DREP lost): the
// kernel's CM would answer it from timewait after the program is gone, and the peer waits for
// that answer (its DISCONNECTED event) or for all its retries, a minute.
void lingerAtExit() {
  Library* lib = theLibrary;
  if (lib == nullptr) return;
  std::unique_lock lock(lib->mu);
  for (;;) {
    const auto until = lib->engine.lingerUntil();
    const auto now = Clock::now();
    if (!until || now >= *until) return;
    lock.unlock();
    std::this_thread::sleep_for(
        std::min<Clock::duration>(*until - now, std::chrono::milliseconds(50)));
    lock.lock();
  }
}

}  // namespace

Channel* newChannel(bool sync) {
  const int fd = ::eventfd(0, EFD_CLOEXEC);
  if (fd < 0) return nullptr;
  auto* ch = new Channel();
  ch->pub.fd = fd;
  ch->sync = sync;
  return ch;
}

void signalChannel(Channel& ch) {
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto n = ::write(ch.pub.fd, &one, sizeof one);
}

void drainChannel(Channel& ch) {
  std::uint64_t count = 0;
  [[maybe_unused]] const auto n = ::read(ch.pub.fd, &count, sizeof count);
}

Library* Library::get(std::string& error) {
  static std::mutex setup;
  static Library* library = nullptr;
  static std::string failure;
  std::lock_guard lock(setup);
  if (library != nullptr) return library;
  if (!failure.empty()) {
    error = failure;
    return nullptr;
  }
  Nic* nic = rdmascope_simdev_nic(&failure);
  if (nic == nullptr) {
    if (failure.empty()) failure = "the simulated NIC is not attached";
    error = failure;
    return nullptr;
  }
  int n = 0;
  ibv_device** list = ibv_get_device_list(&n);
  ibv_context* verbs = nullptr;
  std::uint64_t guid = 0;
  if (list != nullptr && n > 0) {
    verbs = ibv_open_device(list[0]);
    guid = be64toh(ibv_get_device_guid(list[0]));
  }
  if (list != nullptr) ibv_free_device_list(list);
  if (verbs == nullptr) {
    failure = "librdmacm: the simulated device rdmascope0 does not open";
    error = failure;
    return nullptr;
  }
  // Never destroyed: the CM thread serves the process until it exits, as the kernel's CM does.
  auto* lib = new Library();
  lib->nic = nic;
  lib->verbs = verbs;
  lib->guid = guid;
  lib->info = nic->info();
  lib->pd = ibv_alloc_pd(verbs);
  nic->gid(1, lib->gid);
  ibv_device_attr attr{};
  if (ibv_query_device(verbs, &attr) == 0) {
    lib->maxResponderResources = static_cast<std::uint8_t>(std::min(attr.max_qp_rd_atom, 255));
    lib->maxInitiatorDepth = static_cast<std::uint8_t>(std::min(attr.max_qp_init_rd_atom, 255));
  }
  {
    Nic::Session session(*nic);
    session.host().setGsiHandler([lib](std::span<const std::uint8_t> mad, std::uint64_t) {
      std::lock_guard g(lib->mu);
      lib->inbox_.emplace_back(mad.begin(), mad.end());
      lib->wake_.notify_one();
    });
  }
  lib->thread_ = std::thread([lib] { lib->run(); });
  lib->thread_.detach();
  library = lib;
  theLibrary = lib;
  std::atexit(lingerAtExit);
  return library;
}

Library::Library()
    : engine(CmEngine::Config{.responseTimeout = kCmResponseTimeout,
                              .maxRetries = 15,
                              .timewait = 2 * kCmResponseTimeout,
                              .random = [this] { return random(); },
                              .gidOfIp = [this](const pk::IpAddress& a) -> std::optional<Gid> {
                                Gid g{};
                                if (a.v6 || !gidOfIpv4(ipv4Of(a), g)) return std::nullopt;
                                return g;
                              }}) {
  std::random_device rd;
  rng_ = (std::uint64_t{rd()} << 32) ^ rd() ^ static_cast<std::uint64_t>(::getpid());
}

std::uint32_t Library::random() {
  rng_ ^= rng_ << 13;
  rng_ ^= rng_ >> 7;
  rng_ ^= rng_ << 17;
  return static_cast<std::uint32_t>(rng_ >> 16);
}

bool Library::gidOfIpv4(std::uint32_t ip, Gid& out) const {
  for (const FabricHost& h : info.hosts) {
    if (h.ipv4 != ip) continue;
    if (info.wire == sim::WireFormat::RoceV2Ipv4) {
      out = mappedIpv4(ip);
    } else {
      std::copy(h.ipv6.begin(), h.ipv6.end(), out.begin());
    }
    return true;
  }
  return false;
}

std::uint16_t Library::takePort(int ps, std::uint16_t port) {
  if (port != 0) return ports.emplace(ps, port).second ? port : 0;
  for (int tries = 0; tries < 100000; ++tries) {
    const auto p = static_cast<std::uint16_t>(32768 + random() % (60999 - 32768 + 1));
    if (ports.emplace(ps, p).second) return p;
  }
  return 0;
}

EventBox* Library::post(Id& id, rdma_cm_event_type type, int status) {
  auto* box = new EventBox();
  box->owner = &id;
  box->event.id = &id.pub;
  box->event.event = type;
  box->event.status = status;
  id.channel->queue.push_back(box);
  signalChannel(*id.channel);
  return box;
}

void Library::eraseFromQueue(Channel& ch, EventBox* box) {
  auto it = std::find(ch.queue.begin(), ch.queue.end(), box);
  if (it == ch.queue.end()) return;
  ch.queue.erase(it);
  if (ch.queue.empty()) drainChannel(ch);
}

void Library::dropQueued(Id& id) {
  Channel& ch = *id.channel;
  const auto before = ch.queue.size();
  std::erase_if(ch.queue, [&](EventBox* b) {
    if (b->owner != &id) return false;
    delete b;
    return true;
  });
  if (before != 0 && ch.queue.empty()) drainChannel(ch);
}

void Library::flush(std::unique_lock<std::mutex>& lock) {
  wake_.notify_one();  // a call may have set an earlier retransmission deadline
  auto out = engine.takeOutbox();
  if (out.empty()) return;
  lock.unlock();
  {
    Nic::Session session(*nic);
    for (const OutgoingMad& m : out)
      session.host().sendGsi(m.packet, m.why, m.dgid);
  }
  lock.lock();
}

void Library::run() {
  std::unique_lock lock(mu);
  for (;;) {
    if (inbox_.empty()) {
      const auto deadline = engine.nextDeadline();
      if (deadline)
        wake_.wait_until(lock, *deadline);
      else
        wake_.wait(lock);
    }
    const auto now = Clock::now();
    auto in = std::exchange(inbox_, {});
    for (const auto& mad : in)
      engine.receive(mad, now);
    engine.tick(now);
    dispatch();
    flush(lock);
  }
}

void Library::fillRoute(Id& id) const {
  ibv_sa_path_rec& p = id.path;
  p = {};
  std::memcpy(p.sgid.raw, gid.data(), 16);
  std::memcpy(p.dgid.raw, id.peerGid.data(), 16);
  p.hop_limit = 64;
  p.traffic_class = id.tos;
  p.reversible = 1;
  p.numb_path = 1;
  p.pkey = htobe16(0xffff);
  p.mtu_selector = 2;
  p.mtu = id.pathMtu;
  p.rate_selector = 2;
  p.rate = 3;
  p.packet_life_time_selector = 2;
  p.packet_life_time = 18;
  id.pub.route.path_rec = &id.path;
  id.pub.route.num_paths = 1;
  std::memcpy(id.pub.route.addr.addr.ibaddr.sgid.raw, gid.data(), 16);
  std::memcpy(id.pub.route.addr.addr.ibaddr.dgid.raw, id.peerGid.data(), 16);
  id.pub.route.addr.addr.ibaddr.pkey = htobe16(0xffff);
}

namespace {

void fillAh(const Library& lib, const Id& id, ibv_ah_attr& ah) {
  ah = {};
  ah.is_global = 1;
  std::memcpy(ah.grh.dgid.raw, id.peerGid.data(), 16);
  ah.grh.sgid_index = 1;
  ah.grh.hop_limit = 64;
  ah.grh.traffic_class = id.tos;
  ah.port_num = 1;
  (void)lib;
}

std::uint8_t copyPrivate(EventBox& box, std::span<const std::uint8_t> data) {
  const std::size_t n = std::min<std::size_t>(data.size(), 255);
  std::copy_n(data.begin(), n, box.privateData);
  return static_cast<std::uint8_t>(n);
}

}  // namespace

void Library::onRequest(const CmUpcall& u) {
  Id& listener = *static_cast<Id*>(u.owner);
  auto* child = new Id();
  child->channel = listener.channel;
  child->pub.channel = &child->channel->pub;
  child->pub.context = listener.pub.context;
  child->pub.ps = listener.pub.ps;
  child->pub.qp_type = listener.pub.qp_type;
  child->pub.verbs = verbs;
  child->pub.pd = pd;
  child->pub.port_num = 1;
  child->bound = child->addrResolved = child->routeResolved = true;
  child->port = listener.port;
  child->serviceId = listener.serviceId;
  child->hasConn = true;
  child->conn = u.conn;
  child->peerGid = u.peer;
  child->tos = listener.tos;
  child->ownPsn = random() & 0xffffff;
  child->pathMtu = static_cast<std::uint8_t>(nic->activeMtu() >= 4096   ? IBV_MTU_4096
                                             : nic->activeMtu() >= 2048 ? IBV_MTU_2048
                                             : nic->activeMtu() >= 1024 ? IBV_MTU_1024
                                             : nic->activeMtu() >= 512  ? IBV_MTU_512
                                                                        : IBV_MTU_256);
  auto& src = child->pub.route.addr.src_sin;
  src.sin_family = AF_INET;
  src.sin_addr.s_addr = htonl(info.me().ipv4);
  src.sin_port = htons(listener.port);
  std::span<const std::uint8_t> privateData;
  const auto* req = std::get_if<pk::CmReq>(&*u.message);
  const auto* sidr = std::get_if<pk::CmSidrReq>(&*u.message);
  const auto& raw = req != nullptr ? req->privateData : sidr->privateData;
  const auto ip = pk::decodeIpCmPrivateData(raw);
  auto& dst = child->pub.route.addr.dst_sin;
  dst.sin_family = AF_INET;
  if (ip && !ip->src.v6) {
    dst.sin_addr.s_addr = htonl(ipv4Of(ip->src));
    dst.sin_port = htons(ip->srcPort);
    child->peerPort = ip->srcPort;
    privateData = std::span(raw).subspan(36);
  } else {
    privateData = raw;
  }
  engine.adopt(u.conn, child);
  fillRoute(*child);
  EventBox* box = post(*child, RDMA_CM_EVENT_CONNECT_REQUEST, 0);
  box->event.listen_id = &listener.pub;
  // The request comes on the listener's channel; a synchronous listener's new id then has a
  // channel of its own, as librdmacm migrates it, for the calls that wait on it.
  if (listener.channel->sync) {
    if (Channel* own = newChannel(true)) {
      child->channel = own;
      child->pub.channel = &own->pub;
    }
  }
  if (req != nullptr) {
    child->remoteQpn = req->localQpn;
    child->peerPsn = req->startingPsn;
    child->pathMtu = std::min(child->pathMtu, req->pathMtu);
    fillRoute(*child);
    // The receiver's view: the peer's initiator depth is this side's responder resources.
    child->responderResources = req->initiatorDepth;
    child->initiatorDepth = req->responderResources;
    child->retryCount = req->retryCount;
    child->rnrRetry = req->rnrRetryCount;
    auto& c = box->event.param.conn;
    c.private_data_len = copyPrivate(*box, privateData);
    c.private_data = box->privateData;
    c.responder_resources = req->initiatorDepth;
    c.initiator_depth = req->responderResources;
    c.flow_control = req->endToEndFlowControl;
    c.retry_count = req->retryCount;
    c.rnr_retry_count = req->rnrRetryCount;
    c.srq = req->srq;
    c.qp_num = req->localQpn;
  } else {
    auto& d = box->event.param.ud;
    d.private_data_len = copyPrivate(*box, privateData);
    d.private_data = box->privateData;
    fillAh(*this, *child, d.ah_attr);
    d.qp_num = 0;
    d.qkey = RDMA_UDP_QKEY;
  }
}

void Library::dispatch() {
  for (CmUpcall& u : engine.takeUpcalls()) {
    using K = CmUpcall::Kind;
    if (u.kind == K::ConnectRequest || u.kind == K::SidrRequest) {
      onRequest(u);
      continue;
    }
    Id& id = *static_cast<Id*>(u.owner);
    switch (u.kind) {
      case K::ConnectResponse: {
        const auto& rep = std::get<pk::CmRep>(*u.message);
        id.remoteQpn = rep.localQpn;
        id.peerPsn = rep.startingPsn;
        EventBox* box = post(id, RDMA_CM_EVENT_CONNECT_RESPONSE, 0);
        auto& c = box->event.param.conn;
        c.private_data_len = copyPrivate(*box, rep.privateData);
        c.private_data = box->privateData;
        c.responder_resources = rep.initiatorDepth;
        c.initiator_depth = rep.responderResources;
        c.flow_control = rep.endToEndFlowControl;
        c.rnr_retry_count = rep.rnrRetryCount;
        c.srq = rep.srq;
        c.qp_num = rep.localQpn;
        break;
      }
      case K::Established:
        post(id, RDMA_CM_EVENT_ESTABLISHED, 0);
        break;
      case K::Rejected: {
        const auto& rej = std::get<pk::CmRej>(*u.message);
        EventBox* box = post(id, RDMA_CM_EVENT_REJECTED, u.status);
        box->event.param.conn.private_data_len = copyPrivate(*box, rej.privateData);
        box->event.param.conn.private_data = box->privateData;
        break;
      }
      case K::SidrResolved: {
        const auto& rep = std::get<pk::CmSidrRep>(*u.message);
        if (rep.status != 0) {
          post(id, RDMA_CM_EVENT_UNREACHABLE, rep.status);
          break;
        }
        id.remoteQpn = rep.qpn;
        EventBox* box = post(id, RDMA_CM_EVENT_ESTABLISHED, 0);
        auto& d = box->event.param.ud;
        d.private_data_len = copyPrivate(*box, rep.privateData);
        d.private_data = box->privateData;
        fillAh(*this, id, d.ah_attr);
        d.qp_num = rep.qpn;
        d.qkey = rep.qkey;
        break;
      }
      case K::Unreachable:
        nic->log(
            fmt::format("rdma_cm: no answer from {} after {} CM retries: "
                        "RDMA_CM_EVENT_UNREACHABLE",
                        inet_ntoa(id.pub.route.addr.dst_sin.sin_addr), 15));
        post(id, RDMA_CM_EVENT_UNREACHABLE, u.status);
        break;
      case K::Disconnected:
        post(id, RDMA_CM_EVENT_DISCONNECTED, 0);
        break;
      case K::TimewaitExit:
        post(id, RDMA_CM_EVENT_TIMEWAIT_EXIT, 0);
        break;
      default:
        break;
    }
  }
}

}  // namespace rdmascope::simdev::rdmacm
