#pragma once
// The process-wide state of the simulated librdmacm: the NIC, the verbs device every
// rdma_cm_id uses, the CM engine with its thread, the event channels and the ids. The C entry
// points (rdma_cma.cpp) lock `mu` around it and never hold it across a verbs call or a send.

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cm_engine.h"
#include "rdmascope/simdev/nic.h"

/// The process's simulated NIC, as the drop-in libibverbs.so.1 attached it: the one NIC both
/// libraries share (each library links the simulator, so each would otherwise attach its own).
/// Null with `error` set when it cannot attach.
extern "C" rdmascope::simdev::Nic* rdmascope_simdev_nic(std::string* error);

namespace rdmascope::simdev::rdmacm {

struct Id;

/// One rdma_cm_event as handed to the program, with room for its private data.
struct EventBox {
  rdma_cm_event event{};  // first: rdma_ack_cm_event gets this address back
  std::uint8_t privateData[256] = {};
  Id* owner = nullptr;
};

struct Channel {
  rdma_event_channel pub{};  // first: the program's pointer
  std::deque<EventBox*> queue;
  bool sync = false;  ///< made by rdma_create_id(NULL): calls wait for their own event
};

struct Id {
  rdma_cm_id pub{};  // first: the program's pointer
  Channel* channel = nullptr;
  bool bound = false, addrResolved = false, routeResolved = false, listening = false;
  std::uint16_t port = 0;  ///< host order
  std::uint64_t serviceId = 0;
  bool hasConn = false;
  std::uint32_t conn = 0;
  Gid peerGid{};
  std::uint32_t remoteQpn = 0;
  std::uint32_t ownPsn = 0;   ///< the starting PSN this side announced (its rq_psn)
  std::uint32_t peerPsn = 0;  ///< the peer's (this side's sq_psn)
  std::uint8_t responderResources = 0, initiatorDepth = 0, retryCount = 7, rnrRetry = 7;
  std::uint8_t pathMtu = IBV_MTU_1024;
  std::uint8_t tos = 0;
  std::uint8_t ackTimeout = 19;
  std::uint32_t qkey = RDMA_UDP_QKEY;
  std::uint16_t peerPort = 0;  ///< host order
  ibv_sa_path_rec path{};
  bool ownCqs = false;         ///< rdma_create_qp made the CQs
  bool hasQpInitAttr = false;  ///< rdma_create_ep on a passive id: rdma_get_request's QPs
  ibv_qp_init_attr qpInitAttr{};
  int outstanding = 0;  ///< events handed out and not yet acked
  bool destroyed = false;
};

class Library {
 public:
  /// The library, set up on first use (the NIC attached, the device opened, the CM thread
  /// started). Null when the NIC cannot attach; `error` then says why in one line.
  static Library* get(std::string& error);

  std::mutex mu;
  CmEngine engine;
  Nic* nic = nullptr;
  ibv_context* verbs = nullptr;
  ibv_pd* pd = nullptr;  ///< the device's PD that ids use when the program gives none
  FabricInfo info;
  Gid gid{};
  std::uint64_t guid = 0;
  std::uint8_t maxResponderResources = 1, maxInitiatorDepth = 1;
  std::set<std::pair<int, std::uint16_t>> ports;  ///< (port space, port) in use

  /// The GID of the fabric host with IPv4 address `ip` (host order); false when none has it.
  bool gidOfIpv4(std::uint32_t ip, Gid& out) const;
  /// Picks a free port of the space (an ephemeral one when `port` is 0); 0 when taken.
  std::uint16_t takePort(int ps, std::uint16_t port);
  std::uint32_t random();

  /// Queues an event for the program (under mu) and wakes its channel's fd.
  EventBox* post(Id& id, rdma_cm_event_type type, int status);
  /// Sends what the engine put in its outbox; `lock` (on mu) is released meanwhile.
  void flush(std::unique_lock<std::mutex>& lock);
  /// Has the library's thread look at the engine now (it made upcalls outside a MAD's arrival).
  void poke() { wake_.notify_one(); }
  /// Turns the engine's upcalls into events (under mu).
  void dispatch();
  /// Drops the events of `id` still queued on its channel (under mu).
  void dropQueued(Id& id);
  void eraseFromQueue(Channel& ch, EventBox* box);
  /// The route of a resolved id: its one path record and the GIDs of both ends.
  void fillRoute(Id& id) const;

 private:
  Library();
  void run();
  void onRequest(const CmUpcall& u);

  std::condition_variable wake_;
  std::vector<std::vector<std::uint8_t>> inbox_;
  std::thread thread_;
  std::uint64_t rng_ = 0;
};

/// A new event channel (its fd an eventfd); null when no fd is left.
Channel* newChannel(bool sync);

/// Wakes a channel's fd (one count per queued event) or takes the counts back when it is empty.
void signalChannel(Channel& ch);
void drainChannel(Channel& ch);

}  // namespace rdmascope::simdev::rdmacm
