#pragma once
/// @file host.h
/// A simulated host: byte-addressable memory and an HCA modelled on Linux Soft-RoCE (rdma_rxe):
/// protection domains, memory regions, completion queues and queue pairs (RC, UC, UD), driven
/// through verbs-shaped calls.

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "rdmascope/packets/ib_builder.h"
#include "rdmascope/sim/device_limits.h"
#include "rdmascope/sim/trace.h"
#include "rdmascope/sim/verbs_types.h"

namespace rdmascope::sim {

class Network;
class Qp;
struct ParsedPacket;
struct Srq;

using MacAddress = std::array<std::uint8_t, 6>;

/// The link-local GID (GID index 0): fe80::/64 with the EUI-64 of the MAC, as the kernel
/// makes it.
Gid linkLocalGid(const MacAddress& mac);
/// The IPv4-mapped GID ::ffff:a.b.c.d of an address (host order).
Gid ipv4MappedGid(std::uint32_t ipv4);

/// Outcome of a verbs call: errnum 0 on success, else an errno value and one sentence.
struct VerbsStatus {
  int errnum = 0;
  std::string message;
  bool ok() const { return errnum == 0; }
};

template <class T>
struct VerbsResult {
  T value{};
  VerbsStatus status;
  bool ok() const { return status.ok(); }
};

struct HostConfig {
  std::string name;
  MacAddress mac{};
  std::uint32_t ipv4 = 0;  ///< host order, e.g. 0x0a090001 for 10.9.0.1
  std::uint16_t lid = 0;   ///< native InfiniBand only
  /// IPv6 address for the IPv6 wire format (the GID); empty: the IPv4-mapped address.
  Gid ipv6{};
  bool useIpv6Gid = false;
  /// The host's memory is this process's own address space (the simulated verbs device):
  /// addresses are real pointers, memory() trusts its caller, and an MR may cover any bytes the
  /// program owns. The keys of MRs are then the only check, as on a NIC.
  bool processMemory = false;
};

/// A registered memory region.
struct MemoryRegionInfo {
  std::uint32_t pd = 0;
  std::uint64_t addr = 0;
  std::uint64_t length = 0;
  std::uint32_t lkey = 0;
  std::uint32_t rkey = 0;
  unsigned access = 0;
};

/// A send or receive WQE as views show it.
struct WqeView {
  std::uint64_t wrId = 0;
  WrOpcode opcode = WrOpcode::Send;  ///< receive WQEs: Send
  std::uint32_t length = 0;
  std::string state;  ///< "posted", "processing", "pending", "done", "error"
  std::uint32_t firstPsn = 0;
  std::uint32_t lastPsn = 0;
};

/// Snapshot of a QP for views and tests.
struct QpView {
  std::uint32_t qpn = 0;
  QpType type = QpType::RC;
  QpState state = QpState::Reset;
  std::uint32_t sendCq = 0;
  std::uint32_t recvCq = 0;
  std::uint32_t destQpn = 0;
  std::uint32_t sqPsn = 0;    ///< next PSN the requester sends
  std::uint32_t compPsn = 0;  ///< next PSN the completer expects acknowledged
  std::uint32_t rqPsn = 0;    ///< next PSN the responder expects
  std::uint32_t msn = 0;
  std::vector<WqeView> sq;
  std::vector<WqeView> rq;
};

class Host {
 public:
  Host(Network& network, int index, HostConfig config);
  ~Host();
  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;

  const std::string& name() const { return config_.name; }
  int index() const { return index_; }
  const HostConfig& config() const { return config_; }
  /// The port GID at index 1 (IPv4-mapped, or the IPv6 address).
  Gid gid() const;
  /// The port's GID table as rxe fills it for one IPv4 (or IPv6) address with RoCEv2: index 0
  /// the link-local GID (fe80::/64 with the MAC's EUI-64), index 1 gid(). Other entries are
  /// empty (ib_core: ENODATA).
  bool gidValid(unsigned index) const { return index < limits::kPortGidsInUse; }
  /// The GID at `index` (zero for an empty entry).
  Gid gidAt(unsigned index) const;
  Network& network() { return network_; }

  // --- memory -----------------------------------------------------------------------
  /// Reserves `length` zeroed bytes of host memory; returns their address.
  std::uint64_t allocate(std::uint64_t length, std::uint64_t align = 4096);
  /// The bytes at [addr, addr+length) or an empty span when outside allocated memory.
  std::span<std::uint8_t> memory(std::uint64_t addr, std::uint64_t length);

  // --- verbs ------------------------------------------------------------------------
  VerbsResult<std::uint32_t> allocPd();
  /// ib_dealloc_pd: EBUSY while an MR, QP, SRQ or AH of the PD exists; EINVAL for no PD.
  VerbsStatus deallocPd(std::uint32_t pd);
  VerbsResult<MemoryRegionInfo> regMr(std::uint32_t pd, std::uint64_t addr, std::uint64_t length,
                                      unsigned access);
  /// ibv_dereg_mr: the MR's keys stop working at once (a request in flight that already
  /// resolved the MR finishes, as rxe's reference keeps it); EINVAL for an unknown lkey.
  VerbsStatus deregMr(std::uint32_t lkey);
  /// ibv_create_cq (rxe_cq_chk_attr): EINVAL unless 1 <= depth <= limits::kMaxCqe. The CQ
  /// holds 2^n - 1 >= depth completions, as rxe's (cq(id)->depth: ibv_cq's cqe).
  VerbsResult<std::uint32_t> createCq(int depth);
  /// ibv_resize_cq: EINVAL outside 1..kMaxCqe or below the completions held; returns the
  /// new cqe (2^n - 1).
  VerbsResult<int> resizeCq(std::uint32_t cq, int cqe);
  /// ib_destroy_cq: EBUSY while a QP uses the CQ as its send or receive CQ. Completions still
  /// in it are dropped.
  VerbsStatus destroyCq(std::uint32_t cq);
  /// ibv_create_qp with rxe_qp_chk_init's checks (EOPNOTSUPP for a type other than RC, UC,
  /// UD; EINVAL for caps above limits::kMaxQpWr, kMaxSge, kMaxInlineData). Returns the QP
  /// number (rxe numbers user QPs from 17); the actual caps, which rxe rounds up (2^n - 1 WRs;
  /// max_inline_data and max_send_sge from one WQE size), are queryQp(qpn).value.cap.
  VerbsResult<std::uint32_t> createQp(std::uint32_t pd, const QpInitAttr& attr);
  /// ib_destroy_qp: the QP disappears at once (no completions are made for its outstanding
  /// WRs; packets for it are dropped as for an unknown QP). Its pending timers and engine runs
  /// become no-ops: the object stays as a tombstone until the simulator has no event left for
  /// it. EINVAL for an unknown QP.
  VerbsStatus destroyQp(std::uint32_t qpn);
  /// ibv_create_ah: an address handle in `pd` (rdma_check_ah_attr: on RoCE the AV needs a
  /// GRH, EINVAL without). Returns its handle number (from 1).
  VerbsResult<std::uint32_t> createAh(std::uint32_t pd, const AhAttr& attr);
  /// The address vector of an AH; null when `ah` does not exist.
  const AhAttr* ah(std::uint32_t ah) const;
  VerbsStatus destroyAh(std::uint32_t ah);
  VerbsStatus modifyQp(std::uint32_t qpn, const QpAttr& attr, unsigned attrMask);
  /// ibv_query_qp as rxe_qp_to_attr answers it: the attributes set so far, the current
  /// state, sq_psn and rq_psn as the next PSNs the requester sends and the responder expects,
  /// the actual caps, and max_rd_atomic / max_dest_rd_atomic rounded up to powers of two.
  VerbsResult<QpAttr> queryQp(std::uint32_t qpn);
  /// The init attributes as ibv_query_qp's init_attr reports them (actual caps, srq).
  VerbsResult<QpInitAttr> queryQpInit(std::uint32_t qpn);
  VerbsStatus postSend(std::uint32_t qpn, const SendWr& wr);
  /// EINVAL on a QP created with an SRQ (rxe's provider has no receive queue for it).
  VerbsStatus postRecv(std::uint32_t qpn, const RecvWr& wr);

  /// ibv_create_srq: a shared receive queue in `pd` (rxe_srq_chk_init: max_wr 1..kMaxSrqWr,
  /// max_sge up to kMaxSrqSge, both raised to at least 1). querySrq() gives the actual size
  /// (rounded up as rxe's queues are: 2^n - 1). Returns the SRQ's number (from 1).
  VerbsResult<std::uint32_t> createSrq(std::uint32_t pd, const SrqAttr& attr);
  /// ibv_post_srq_recv: ENOMEM when full, EINVAL for too many SGEs.
  VerbsStatus postSrqRecv(std::uint32_t srq, const RecvWr& wr);
  /// ibv_modify_srq with srq_attr_mask bits: kMaxWr resizes (EINVAL below the armed limit or
  /// the WQEs it holds), kLimit arms the limit event (EINVAL above the queue's size).
  VerbsStatus modifySrq(std::uint32_t srq, const SrqAttr& attr, unsigned mask);
  /// ibv_query_srq: max_wr, max_sge and the armed limit (0 once the event fired).
  VerbsResult<SrqAttr> querySrq(std::uint32_t srq) const;
  /// ibv_destroy_srq: EBUSY while a QP uses it.
  VerbsStatus destroySrq(std::uint32_t srq);
  /// Receive WQEs waiting in an SRQ.
  std::size_t srqCount(std::uint32_t srq) const;
  /// Removes and returns up to `max` completions.
  std::vector<WorkCompletion> pollCq(std::uint32_t cq, int max);
  /// Completions waiting in a CQ.
  std::size_t cqCount(std::uint32_t cq) const;

  // --- inspection -------------------------------------------------------------------
  std::vector<std::uint32_t> qpNumbers() const;
  /// The protection domains allocated (and not deallocated).
  const std::vector<std::uint32_t>& pdNumbers() const { return pds_; }
  /// The completion queues, in creation order.
  std::vector<std::uint32_t> cqNumbers() const;
  QpView qpView(std::uint32_t qpn) const;
  /// Every MR registered so far, deregistered ones included (see mrRegistered()).
  const std::deque<MemoryRegionInfo>& memoryRegions() const { return mrs_; }
  /// False once the MR with this lkey was deregistered (or when none has it).
  bool mrRegistered(std::uint32_t lkey) const;

  // --- used by the transport (not by applications) -----------------------------------
  struct Cq {
    std::uint32_t id = 0;
    int depth = 0;
    std::vector<WorkCompletion> entries;  ///< FIFO: head_ is the next to poll
    std::size_t head = 0;
    bool overflowed = false;
    std::size_t size() const { return entries.size() - head; }
  };
  Cq* cq(std::uint32_t id);
  Qp* qp(std::uint32_t qpn);
  Srq* srq(std::uint32_t id);
  /// Frees a destroyed QP (called by the QP when its last pending event has run).
  void releaseQp(Qp* qp);
  /// Calls the async event hook (ibv_get_async_event's source).
  void raiseAsyncEvent(const AsyncEvent& event);
  /// Adds a completion; false (and the CQ marked overflowed) when the CQ is full.
  bool postCqe(std::uint32_t cqId, const WorkCompletion& wc);
  /// An MR by key (lkey when local, rkey when remote) in `pd`; null when none matches.
  const MemoryRegionInfo* findMr(std::uint32_t pd, std::uint32_t key, bool remote) const;
  /// Invalidates an rkey (SEND_WITH_INV); false when no MR has it.
  bool invalidateRkey(std::uint32_t rkey);
  /// Called by the network with a parsed, ICRC-checked packet addressed to this host.
  void deliver(const ParsedPacket& packet);

  /// Receives what arrives for the GSI (QP 1, the connection manager's management datagrams):
  /// the UD payload (a 256-byte MAD) and the frame number. Without a handler QP 1 does not
  /// exist and such packets are dropped, as before.
  using GsiHandler = std::function<void(std::span<const std::uint8_t> mad, std::uint64_t frame)>;
  void setGsiHandler(GsiHandler handler) { gsi_ = std::move(handler); }
  /// Called with the CQ's id after each completion is added to it (the device wakes the
  /// program's completion channel with it).
  using CompletionHook = std::function<void(std::uint32_t cq)>;
  void setCompletionHook(CompletionHook hook) { completionHook_ = std::move(hook); }
  /// Called with each asynchronous event the device raises: SRQ limit reached, last WQE
  /// reached (an SRQ QP moved to ERR), CQ overflow (IBV_EVENT_CQ_ERR).
  using AsyncEventHook = std::function<void(const AsyncEvent&)>;
  void setAsyncEventHook(AsyncEventHook hook) { asyncEventHook_ = std::move(hook); }
  /// Sends a UD packet (BTH, DETH and payload as built by packets::cmPacket) from this host's
  /// QP 1 to the other host's QP 1, from rxe's UDP source port for QP 1, with the next PSN of
  /// this GSI (rxe numbers them per QP from 0; the packet's own PSN is ignored) and AckReq set
  /// (as rxe sets it on every message's last packet). `why` becomes
  /// the FrameSent explanation. Returns when its last bit has left the NIC.
  SimTime sendGsi(const packets::IbPacket& packet, const std::string& why);
  /// The same, to the GSI of the host with port GID `dgid` (a fabric of more than two hosts).
  SimTime sendGsi(const packets::IbPacket& packet, const std::string& why, const Gid& dgid);
  /// Emits a trace event of this host, stamped with the time, step and host name (callers
  /// check network().sim().tracing() first).
  void emit(TraceEvent event);
  /// Emits free text (Narrative::Text) for callers outside the simulator's protocol code, such
  /// as a scenario's steps; the simulator's own events are typed.
  void emit(TraceKind kind, std::uint32_t qpn, std::string text, std::uint32_t psn = 0,
            std::uint64_t wrId = 0);

 private:
  Network& network_;
  int index_;
  HostConfig config_;
  GsiHandler gsi_;
  CompletionHook completionHook_;
  AsyncEventHook asyncEventHook_;
  std::uint32_t gsiPsn_ = 0;
  std::uint16_t gsiIpId_ = 0;
  struct Region;
  std::map<std::uint64_t, std::unique_ptr<Region>> regions_;  ///< base -> bytes
  std::uint64_t lastBase_ = 0;  ///< memory()'s last region found, and its base
  const Region* lastRegion_ = nullptr;
  std::uint64_t nextAddr_ = 0x7f0000000000ull;
  std::uint32_t nextPd_ = 1;
  std::uint32_t nextCq_ = 1;
  std::uint32_t nextQpn_ = 17;
  std::uint32_t nextMrIndex_ = 1;
  std::vector<std::uint32_t> pds_;
  std::deque<MemoryRegionInfo> mrs_;         ///< a deque: the engines keep pointers into it
  std::vector<std::uint32_t> invalidLkeys_;  ///< deregistered or invalidated MRs
  /// Per MR of mrs_ (same order): its lkey is in invalidLkeys_. While fewer than
  /// kMrIndexedLimit MRs exist, an MR's key names its place (key >> 8 is the pool index, as
  /// rxe's): findMr looks it up there instead of scanning.
  std::vector<bool> mrInvalid_;
  static constexpr std::size_t kMrIndexedLimit = (std::size_t{1} << 24) - 1;
  /// The MR whose key (rkey when `remote`) is `key`, by its pool index; null when none.
  const MemoryRegionInfo* mrByKey(std::uint32_t key, bool remote, std::size_t* index) const;
  std::vector<std::uint32_t> deregistered_;  ///< lkeys of deregistered MRs
  std::map<std::uint32_t, std::unique_ptr<Cq>> cqs_;
  std::map<std::uint32_t, std::unique_ptr<Qp>> qps_;
  std::vector<std::unique_ptr<Qp>> destroyedQps_;  ///< tombstones until their last event ran
  struct Ah {
    std::uint32_t pd = 0;
    AhAttr attr;
  };
  std::map<std::uint32_t, Ah> ahs_;
  std::map<std::uint32_t, std::unique_ptr<Srq>> srqs_;
  std::uint32_t nextSrq_ = 1;
  std::uint32_t nextAh_ = 1;
};

}  // namespace rdmascope::sim
