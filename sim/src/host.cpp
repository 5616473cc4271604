#include "rdmascope/sim/host.h"

#include <fmt/format.h>
#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "dma_write.h"
#include "opcodes.h"
#include "qp.h"
#include "rdmascope/sim/device_limits.h"
#include "rdmascope/sim/network.h"
#include "wire_format.h"

namespace rdmascope::sim {

namespace {

constexpr std::uint64_t kHugePage = 2u << 20;

}  // namespace

// Large regions come straight from mmap, zeroed by the OS without touching a page, and ask for
// transparent huge pages: a 1 GiB buffer then faults in 512 times instead of 262,144.
struct Host::Region {
  std::uint8_t* data = nullptr;
  std::uint64_t size = 0;
  std::uint64_t mapped = 0;  ///< bytes mmap'ed (0: data came from calloc)
  ~Region() {
    if (mapped != 0)
      ::munmap(data, mapped);
    else
      std::free(data);
  }
};

Host::Host(Network& network, int index, HostConfig config)
    : network_(network), index_(index), config_(std::move(config)) {}

Host::~Host() = default;

Gid Host::gid() const {
  return config_.useIpv6Gid ? config_.ipv6 : ipv4MappedGid(config_.ipv4);
}

Gid linkLocalGid(const MacAddress& m) {
  Gid g{};
  g[0] = 0xfe;
  g[1] = 0x80;
  g[8] = static_cast<std::uint8_t>(m[0] ^ 0x02);
  g[9] = m[1];
  g[10] = m[2];
  g[11] = 0xff;
  g[12] = 0xfe;
  g[13] = m[3];
  g[14] = m[4];
  g[15] = m[5];
  return g;
}

Gid Host::gidAt(unsigned index) const {
  if (index == 1) return gid();
  return index == 0 ? linkLocalGid(config_.mac) : Gid{};
}

std::uint64_t Host::allocate(std::uint64_t length, std::uint64_t align) {
  if (align == 0) align = 1;
  const std::uint64_t base = (nextAddr_ + align - 1) / align * align;
  auto r = std::make_unique<Region>();
  r->size = length;
  if (length >= kHugePage) {
    const std::uint64_t mapped = (length + kHugePage - 1) / kHugePage * kHugePage;
    void* p = ::mmap(nullptr, mapped + kHugePage, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p != MAP_FAILED) {
      // keep a 2 MiB-aligned window of `mapped` bytes and return the rest
      auto* base8 = static_cast<std::uint8_t*>(p);
      const auto addr = reinterpret_cast<std::uintptr_t>(p);
      const std::uint64_t lead = (kHugePage - addr % kHugePage) % kHugePage;
      if (lead != 0) ::munmap(base8, lead);
      const std::uint64_t tail = kHugePage - lead;
      if (tail != 0) ::munmap(base8 + lead + mapped, tail);
      r->data = base8 + lead;
      r->mapped = mapped;
      ::madvise(r->data, mapped, MADV_HUGEPAGE);
    }
  }
  // calloc: the region comes zeroed from the OS without touching every page
  if (r->data == nullptr)
    r->data = static_cast<std::uint8_t*>(std::calloc(std::max<std::uint64_t>(length, 1), 1));
  regions_[base] = std::move(r);
  nextAddr_ = base + length + 4096;  // a guard gap so overruns never reach the next region
  return base;
}

std::span<std::uint8_t> Host::memory(std::uint64_t addr, std::uint64_t length) {
  if (config_.processMemory) {
    if (addr == 0 || length > UINTPTR_MAX - addr) return {};
    // NOLINTNEXTLINE(performance-no-int-to-ptr): the device's addresses are real pointers
    return {reinterpret_cast<std::uint8_t*>(static_cast<std::uintptr_t>(addr)),
            static_cast<std::size_t>(length)};
  }
  // the region of the last lookup first: a packet's payload is mostly where the last one was
  if (lastRegion_ != nullptr && addr >= lastBase_ && addr - lastBase_ <= lastRegion_->size &&
      length <= lastRegion_->size - (addr - lastBase_)) {
    return {lastRegion_->data + (addr - lastBase_), static_cast<std::size_t>(length)};
  }
  auto it = regions_.upper_bound(addr);
  if (it == regions_.begin()) return {};
  --it;
  const Region& r = *it->second;
  const std::uint64_t off = addr - it->first;
  if (off > r.size || length > r.size - off) return {};
  lastBase_ = it->first;  // regions are never freed: the pointer stays good
  lastRegion_ = &r;
  return {r.data + off, static_cast<std::size_t>(length)};
}

VerbsResult<std::uint32_t> Host::allocPd() {
  const std::uint32_t pd = nextPd_++;
  pds_.push_back(pd);
  return {pd, {}};
}

VerbsStatus Host::deallocPd(std::uint32_t pd) {
  auto it = std::find(pds_.begin(), pds_.end(), pd);
  if (it == pds_.end()) return {EINVAL, fmt::format("dealloc_pd: PD {} does not exist", pd)};
  const char* user = nullptr;
  for (const MemoryRegionInfo& m : mrs_) {
    if (m.pd == pd && mrRegistered(m.lkey)) user = "an MR";
  }
  for (const auto& [n, q] : qps_) {
    if (q->pd() == pd) user = "a QP";
  }
  for (const auto& [n, a] : ahs_) {
    if (a.pd == pd) user = "an AH";
  }
  for (const auto& [n, q] : srqs_) {
    if (q->pd == pd) user = "an SRQ";
  }
  if (user) {
    return {EBUSY,
            fmt::format("dealloc_pd: PD {} is still used by {} (destroy it first)", pd, user)};
  }
  pds_.erase(it);
  return {};
}

bool Host::mrRegistered(std::uint32_t lkey) const {
  const bool exists = std::any_of(mrs_.begin(), mrs_.end(),
                                  [&](const MemoryRegionInfo& m) { return m.lkey == lkey; });
  return exists &&
         std::find(deregistered_.begin(), deregistered_.end(), lkey) == deregistered_.end();
}

VerbsResult<MemoryRegionInfo> Host::regMr(std::uint32_t pd, std::uint64_t addr,
                                          std::uint64_t length, unsigned access) {
  if (std::find(pds_.begin(), pds_.end(), pd) == pds_.end()) {
    return {{}, {EINVAL, fmt::format("PD {} does not exist", pd)}};
  }
  if (memory(addr, length).size() != length) {
    return {{}, {EFAULT, fmt::format("[{:#x}, +{}) is not allocated host memory", addr, length)}};
  }
  if (access & access::kOnDemand) {
    return {{}, {EOPNOTSUPP, "reg_mr: IBV_ACCESS_ON_DEMAND (ODP) is not supported by the device"}};
  }
  if ((access & (access::kRemoteWrite | access::kRemoteAtomic)) &&
      !(access & access::kLocalWrite)) {
    return {{}, {EINVAL, "IBV_ACCESS_REMOTE_WRITE/ATOMIC require IBV_ACCESS_LOCAL_WRITE"}};
  }
  MemoryRegionInfo mr;
  mr.pd = pd;
  mr.addr = addr;
  mr.length = length;
  mr.access = access;
  // rxe: key = pool index << 8 | an 8-bit variant
  const std::uint32_t key =
      (nextMrIndex_++ << 8) | static_cast<std::uint32_t>(network_.sim().rng()() & 0xff);
  mr.lkey = key;
  // rxe_mr_init: an MR without remote access gets rkey 0, which names no MR (index 0 is never
  // allocated), so a remote request can never reach it.
  mr.rkey =
      (access & (access::kRemoteWrite | access::kRemoteRead | access::kRemoteAtomic)) ? key : 0;
  mrs_.push_back(mr);
  mrInvalid_.push_back(false);
  return {mr, {}};
}

VerbsStatus Host::deregMr(std::uint32_t lkey) {
  if (!mrRegistered(lkey)) {
    return {EINVAL, fmt::format("dereg_mr: no registered MR has lkey {:#x}", lkey)};
  }
  invalidLkeys_.push_back(lkey);
  deregistered_.push_back(lkey);
  for (std::size_t i = 0; i < mrs_.size(); ++i) {
    if (mrs_[i].lkey == lkey) mrInvalid_[i] = true;
  }
  return {};
}

VerbsStatus Host::destroyCq(std::uint32_t id) {
  auto it = cqs_.find(id);
  if (it == cqs_.end()) return {EINVAL, fmt::format("destroy_cq: CQ {} does not exist", id)};
  for (const auto& [n, q] : qps_) {
    if (q->initAttr().sendCq == id || q->initAttr().recvCq == id) {
      return {EBUSY, fmt::format("destroy_cq: CQ {} is still the {} CQ of QP {:#x} (destroy the "
                                 "QP first)",
                                 id, q->initAttr().sendCq == id ? "send" : "receive", n)};
    }
  }
  cqs_.erase(it);
  return {};
}

VerbsStatus Host::destroyQp(std::uint32_t qpn) {
  auto it = qps_.find(qpn);
  if (it == qps_.end()) return {EINVAL, fmt::format("destroy_qp: no QP {:#x}", qpn)};
  std::unique_ptr<Qp> q = std::move(it->second);
  qps_.erase(it);
  q->destroy();
  if (network_.sim().tracing()) {
    TraceEvent e;
    e.kind = TraceKind::QpState;
    e.what = Narrative::QpDestroyed;
    e.qpn = qpn;
    emit(std::move(e));
  }
  // Freed by its own last event (releaseQp), never here: this call may come from inside one
  // of the QP's engines (a completion hook that destroys the QP).
  destroyedQps_.push_back(std::move(q));
  return {};
}

void Host::releaseQp(Qp* q) {
  std::erase_if(destroyedQps_, [q](const std::unique_ptr<Qp>& t) { return t.get() == q; });
}

VerbsResult<std::uint32_t> Host::createAh(std::uint32_t pd, const AhAttr& attr) {
  if (std::find(pds_.begin(), pds_.end(), pd) == pds_.end()) {
    return {0, {EINVAL, fmt::format("create_ah: PD {} does not exist", pd)}};
  }
  if (attr.portNum != 1) {
    return {0,
            {EINVAL, fmt::format("create_ah: port_num {} does not exist (the device has port 1)",
                                 attr.portNum)}};
  }
  if (!attr.isGlobal && network_.config().wire != WireFormat::InfiniBand) {
    return {0, {EINVAL, "create_ah: a RoCE address handle needs a GRH (set is_global and dgid)"}};
  }
  const std::uint32_t id = nextAh_++;
  ahs_[id] = Ah{pd, attr};
  return {id, {}};
}

const AhAttr* Host::ah(std::uint32_t id) const {
  auto it = ahs_.find(id);
  return it == ahs_.end() ? nullptr : &it->second.attr;
}

VerbsStatus Host::destroyAh(std::uint32_t id) {
  if (ahs_.erase(id) == 0) return {EINVAL, fmt::format("destroy_ah: AH {} does not exist", id)};
  return {};
}

VerbsResult<std::uint32_t> Host::createCq(int depth) {
  if (depth <= 0 || static_cast<std::uint32_t>(depth) > limits::kMaxCqe) {
    return {0,
            {EINVAL, fmt::format("create_cq: cqe {} outside 1..{} (the device's max_cqe)", depth,
                                 limits::kMaxCqe)}};
  }
  auto cq = std::make_unique<Cq>();
  cq->id = nextCq_++;
  cq->depth = static_cast<int>(limits::queueCapacity(static_cast<std::uint32_t>(depth)));
  const std::uint32_t id = cq->id;
  cqs_[id] = std::move(cq);
  return {id, {}};
}

VerbsResult<int> Host::resizeCq(std::uint32_t id, int cqe) {
  Cq* c = cq(id);
  if (!c) return {0, {EINVAL, fmt::format("resize_cq: CQ {} does not exist", id)}};
  if (cqe <= 0 || static_cast<std::uint32_t>(cqe) > limits::kMaxCqe) {
    return {0,
            {EINVAL, fmt::format("resize_cq: cqe {} outside 1..{} (the device's max_cqe)", cqe,
                                 limits::kMaxCqe)}};
  }
  if (static_cast<std::size_t>(cqe) < c->size()) {
    return {0,
            {EINVAL, fmt::format("resize_cq: cqe {} is below the {} completions CQ {} holds", cqe,
                                 c->size(), id)}};
  }
  c->depth = static_cast<int>(limits::queueCapacity(static_cast<std::uint32_t>(cqe)));
  c->overflowed = false;
  return {c->depth, {}};
}

VerbsResult<std::uint32_t> Host::createQp(std::uint32_t pd, const QpInitAttr& attr) {
  if (attr.qpType != QpType::RC && attr.qpType != QpType::UC && attr.qpType != QpType::UD) {
    return {0,
            {EOPNOTSUPP, fmt::format("create_qp: QP type {} is not supported (RC, UC and UD "
                                     "are)",
                                     static_cast<int>(attr.qpType))}};
  }
  if (std::find(pds_.begin(), pds_.end(), pd) == pds_.end()) {
    return {0, {EINVAL, fmt::format("create_qp: PD {} does not exist", pd)}};
  }
  if (!cq(attr.sendCq) || !cq(attr.recvCq)) {
    return {0,
            {EINVAL, fmt::format("create_qp: send CQ {} or receive CQ {} does not exist",
                                 attr.sendCq, attr.recvCq)}};
  }
  // rxe_qp_chk_cap
  const QpCap& c = attr.cap;
  const auto over = [](const char* what, std::uint32_t v, std::uint32_t max) {
    return VerbsResult<std::uint32_t>{
        0, {EINVAL, fmt::format("create_qp: cap.{} {} exceeds the device's {}", what, v, max)}};
  };
  if (c.maxSendWr > limits::kMaxQpWr) return over("max_send_wr", c.maxSendWr, limits::kMaxQpWr);
  if (c.maxSendSge > limits::kMaxSge) return over("max_send_sge", c.maxSendSge, limits::kMaxSge);
  if (attr.srq == 0) {
    if (c.maxRecvWr > limits::kMaxQpWr) return over("max_recv_wr", c.maxRecvWr, limits::kMaxQpWr);
    if (c.maxRecvSge > limits::kMaxSge) {
      return over("max_recv_sge", c.maxRecvSge, limits::kMaxSge);
    }
  }
  if (c.maxInlineData > limits::kMaxInlineData) {
    return over("max_inline_data", c.maxInlineData, limits::kMaxInlineData);
  }
  Srq* shared = nullptr;
  if (attr.srq != 0) {
    shared = srq(attr.srq);
    if (!shared) return {0, {EINVAL, fmt::format("create_qp: SRQ {} does not exist", attr.srq)}};
  }
  // The actual capabilities, as rxe_qp_init_req/resp return them: queues of 2^n - 1 WQEs, and
  // a send WQE sized for the larger of its SGEs and its inline data.
  QpInitAttr actual = attr;
  const std::uint32_t wqeBytes = std::max(c.maxSendSge * limits::kSgeBytes, c.maxInlineData);
  actual.cap.maxSendWr = limits::queueCapacity(c.maxSendWr);
  actual.cap.maxSendSge = wqeBytes / limits::kSgeBytes;
  actual.cap.maxInlineData = wqeBytes;
  if (attr.srq == 0) {
    actual.cap.maxRecvWr = limits::queueCapacity(c.maxRecvWr);
  } else {
    actual.cap.maxRecvWr = actual.cap.maxRecvSge = 0;
  }
  const std::uint32_t qpn = nextQpn_++;
  qps_[qpn] = std::make_unique<Qp>(*this, qpn, pd, actual, shared);
  if (network_.sim().tracing()) {
    TraceEvent e;
    e.kind = TraceKind::QpState;
    e.what = Narrative::QpCreated;
    e.qpn = qpn;
    e.args.qpType = attr.qpType;
    e.args.sqDepth = actual.cap.maxSendWr;
    e.args.rqDepth = actual.cap.maxRecvWr;
    emit(std::move(e));
  }
  return {qpn, {}};
}

VerbsStatus Host::modifyQp(std::uint32_t qpn, const QpAttr& attr, unsigned mask) {
  Qp* q = qp(qpn);
  if (!q) return {EINVAL, fmt::format("modify_qp: no QP {:#x}", qpn)};
  return q->modify(attr, mask);
}

VerbsResult<QpAttr> Host::queryQp(std::uint32_t qpn) {
  Qp* q = qp(qpn);
  if (!q) return {{}, {EINVAL, fmt::format("query_qp: no QP {:#x}", qpn)}};
  return {q->queryAttr(), {}};
}

VerbsResult<QpInitAttr> Host::queryQpInit(std::uint32_t qpn) {
  Qp* q = qp(qpn);
  if (!q) return {{}, {EINVAL, fmt::format("query_qp: no QP {:#x}", qpn)}};
  return {q->initAttr(), {}};
}

VerbsStatus Host::postSend(std::uint32_t qpn, const SendWr& wr) {
  Qp* q = qp(qpn);
  if (!q) return {EINVAL, fmt::format("post_send: no QP {:#x}", qpn)};
  return q->postSend(wr);
}

VerbsStatus Host::postRecv(std::uint32_t qpn, const RecvWr& wr) {
  Qp* q = qp(qpn);
  if (!q) return {EINVAL, fmt::format("post_recv: no QP {:#x}", qpn)};
  return q->postRecv(wr);
}

VerbsResult<std::uint32_t> Host::createSrq(std::uint32_t pd, const SrqAttr& attr) {
  if (std::find(pds_.begin(), pds_.end(), pd) == pds_.end()) {
    return {0, {EINVAL, fmt::format("create_srq: PD {} does not exist", pd)}};
  }
  if (attr.maxWr == 0 || attr.maxWr > limits::kMaxSrqWr) {
    return {0,
            {EINVAL,
             fmt::format("create_srq: max_wr {} outside 1..{}", attr.maxWr, limits::kMaxSrqWr)}};
  }
  if (attr.maxSge > limits::kMaxSrqSge) {
    return {0,
            {EINVAL, fmt::format("create_srq: max_sge {} exceeds the device's {}", attr.maxSge,
                                 limits::kMaxSrqSge)}};
  }
  auto q = std::make_unique<Srq>();
  q->id = nextSrq_++;
  q->pd = pd;
  q->maxWr = limits::queueCapacity(attr.maxWr);
  q->maxSge = std::max<std::uint32_t>(attr.maxSge, 1);
  q->limit = attr.srqLimit;
  const std::uint32_t id = q->id;
  srqs_[id] = std::move(q);
  return {id, {}};
}

Srq* Host::srq(std::uint32_t id) {
  auto it = srqs_.find(id);
  return it == srqs_.end() ? nullptr : it->second.get();
}

VerbsStatus Host::postSrqRecv(std::uint32_t id, const RecvWr& wr) {
  Srq* q = srq(id);
  if (!q) return {EINVAL, fmt::format("post_srq_recv: SRQ {} does not exist", id)};
  if (q->wqes.size() >= q->maxWr) {
    return {ENOMEM, fmt::format("post_srq_recv: SRQ {} is full ({} WRs)", id, q->maxWr)};
  }
  if (wr.sgList.size() > q->maxSge) {
    return {EINVAL, fmt::format("post_srq_recv: {} SGEs exceed the SRQ's max_sge {}",
                                wr.sgList.size(), q->maxSge)};
  }
  q->wqes.push_back(makeRecvWqe(wr));
  return {};
}

VerbsStatus Host::modifySrq(std::uint32_t id, const SrqAttr& attr, unsigned mask) {
  Srq* q = srq(id);
  if (!q) return {EINVAL, fmt::format("modify_srq: SRQ {} does not exist", id)};
  if (mask & ~(srq_attr_mask::kMaxWr | srq_attr_mask::kLimit)) {
    return {EINVAL, fmt::format("modify_srq: unknown srq_attr_mask bits {:#x}",
                                mask & ~(srq_attr_mask::kMaxWr | srq_attr_mask::kLimit))};
  }
  std::uint32_t capacity = q->maxWr;
  if (mask & srq_attr_mask::kMaxWr) {
    if (attr.maxWr == 0 || attr.maxWr > limits::kMaxSrqWr) {
      return {EINVAL, fmt::format("modify_srq(IBV_SRQ_MAX_WR): max_wr {} outside 1..{}", attr.maxWr,
                                  limits::kMaxSrqWr)};
    }
    if (q->limit != 0 && attr.maxWr < q->limit) {
      return {EINVAL, fmt::format("modify_srq(IBV_SRQ_MAX_WR): max_wr {} is below the armed "
                                  "srq_limit {}",
                                  attr.maxWr, q->limit)};
    }
    capacity = limits::queueCapacity(attr.maxWr);
    if (q->wqes.size() > capacity) {
      return {EINVAL, fmt::format("modify_srq(IBV_SRQ_MAX_WR): the SRQ holds {} WQEs, more than "
                                  "max_wr {}",
                                  q->wqes.size(), attr.maxWr)};
    }
  }
  if (mask & srq_attr_mask::kLimit) {
    if (attr.srqLimit > capacity) {
      return {EINVAL, fmt::format("modify_srq(IBV_SRQ_LIMIT): srq_limit {} exceeds the SRQ's "
                                  "max_wr {}",
                                  attr.srqLimit, capacity)};
    }
  }
  q->maxWr = capacity;
  if (mask & srq_attr_mask::kLimit) q->limit = attr.srqLimit;
  return {};
}

VerbsResult<SrqAttr> Host::querySrq(std::uint32_t id) const {
  auto it = srqs_.find(id);
  if (it == srqs_.end()) return {{}, {EINVAL, fmt::format("query_srq: SRQ {} does not exist", id)}};
  const Srq& q = *it->second;
  return {{q.maxWr, q.maxSge, q.limit}, {}};
}

std::size_t Host::srqCount(std::uint32_t id) const {
  auto it = srqs_.find(id);
  return it == srqs_.end() ? 0 : it->second->wqes.size();
}

VerbsStatus Host::destroySrq(std::uint32_t id) {
  auto it = srqs_.find(id);
  if (it == srqs_.end()) return {EINVAL, fmt::format("destroy_srq: SRQ {} does not exist", id)};
  for (const auto& [n, q] : qps_) {
    if (q->srqId() == id) {
      return {EBUSY, fmt::format("destroy_srq: SRQ {} is still used by QP {:#x} (destroy the QP "
                                 "first)",
                                 id, n)};
    }
  }
  srqs_.erase(it);
  return {};
}

void Host::raiseAsyncEvent(const AsyncEvent& event) {
  if (asyncEventHook_) asyncEventHook_(event);
}

std::vector<WorkCompletion> Host::pollCq(std::uint32_t id, int max) {
  std::vector<WorkCompletion> out;
  Cq* c = cq(id);
  if (!c) return out;
  while (max-- > 0 && c->head < c->entries.size())
    out.push_back(c->entries[c->head++]);
  if (c->head == c->entries.size()) {
    c->entries.clear();
    c->head = 0;
  }
  return out;
}

std::vector<std::uint32_t> Host::cqNumbers() const {
  std::vector<std::uint32_t> out;
  for (const auto& [id, cq] : cqs_)
    out.push_back(id);
  return out;
}

std::size_t Host::cqCount(std::uint32_t id) const {
  auto it = cqs_.find(id);
  return it == cqs_.end() ? 0 : it->second->size();
}

std::vector<std::uint32_t> Host::qpNumbers() const {
  std::vector<std::uint32_t> out;
  for (const auto& [n, q] : qps_)
    out.push_back(n);
  return out;
}

QpView Host::qpView(std::uint32_t qpn) const {
  auto it = qps_.find(qpn);
  return it == qps_.end() ? QpView{} : it->second->view();
}

Host::Cq* Host::cq(std::uint32_t id) {
  auto it = cqs_.find(id);
  return it == cqs_.end() ? nullptr : it->second.get();
}

Qp* Host::qp(std::uint32_t qpn) {
  auto it = qps_.find(qpn);
  return it == qps_.end() ? nullptr : it->second.get();
}

bool Host::postCqe(std::uint32_t cqId, const WorkCompletion& wc) {
  Cq* c = cq(cqId);
  if (!c) return false;
  if (c->size() >= static_cast<std::size_t>(c->depth)) {
    c->overflowed = true;
    if (network_.sim().tracing()) {
      TraceEvent e;
      e.what = Narrative::CqOverflow;
      e.qpn = wc.qpNum;
      e.args.cq = cqId;
      e.args.depth = static_cast<std::uint32_t>(c->depth);
      emit(std::move(e));
    }
    // rxe_cq_post: an overflow raises IBV_EVENT_CQ_ERR on the CQ
    AsyncEvent ev;
    ev.type = AsyncEventType::CqErr;
    ev.cq = cqId;
    raiseAsyncEvent(ev);
    return false;
  }
  dmaFence();  // the data of the work request reaches memory before its completion
  c->entries.push_back(wc);
  if (network_.sim().tracing()) {
    TraceEvent e;
    e.kind = TraceKind::CqeProduced;
    e.what = Narrative::CqeProduced;
    e.qpn = wc.qpNum;
    e.wrId = wc.wrId;
    e.args.cq = cqId;
    e.args.wcOpcode = wc.opcode;
    e.args.status = wc.status;
    e.args.bytes = wc.byteLen;
    if (wc.wcFlags & wc_flags::kWithImm) e.args.immData = wc.immData;
    emit(std::move(e));
  }
  if (completionHook_) completionHook_(cqId);
  return true;
}

const MemoryRegionInfo* Host::mrByKey(std::uint32_t key, bool remote, std::size_t* index) const {
  // rxe: key = pool index << 8 | an 8-bit variant; index i + 1 is mrs_[i]. Below
  // kMrIndexedLimit registrations no two MRs share an index, so no other MR has this key.
  const std::size_t i = key >> 8;
  if (i == 0 || i > mrs_.size()) return nullptr;
  const MemoryRegionInfo& m = mrs_[i - 1];
  if ((remote ? m.rkey : m.lkey) != key) return nullptr;
  *index = i - 1;
  return &m;
}

const MemoryRegionInfo* Host::findMr(std::uint32_t pd, std::uint32_t key, bool remote) const {
  if (remote && key == 0) return nullptr;
  if (mrs_.size() < kMrIndexedLimit) {
    std::size_t i = 0;
    const MemoryRegionInfo* m = mrByKey(key, remote, &i);
    if (!m || m->pd != pd || mrInvalid_[i]) return nullptr;
    return m;
  }
  // past 2^24 registrations the 24-bit pool index wraps and keys may repeat: the first wins
  for (const MemoryRegionInfo& m : mrs_) {
    if ((remote ? m.rkey : m.lkey) != key || m.pd != pd) continue;
    if (std::find(invalidLkeys_.begin(), invalidLkeys_.end(), m.lkey) != invalidLkeys_.end()) {
      return nullptr;
    }
    return &m;
  }
  return nullptr;
}

bool Host::invalidateRkey(std::uint32_t rkey) {
  if (rkey == 0) return false;
  if (mrs_.size() < kMrIndexedLimit) {
    std::size_t i = 0;
    const MemoryRegionInfo* m = mrByKey(rkey, true, &i);
    if (!m) return false;
    invalidLkeys_.push_back(m->lkey);
    mrInvalid_[i] = true;
    return true;
  }
  for (std::size_t i = 0; i < mrs_.size(); ++i) {
    if (mrs_[i].rkey == rkey) {
      invalidLkeys_.push_back(mrs_[i].lkey);
      for (std::size_t j = 0; j < mrs_.size(); ++j) {
        if (mrs_[j].lkey == mrs_[i].lkey) mrInvalid_[j] = true;
      }
      return true;
    }
  }
  return false;
}

void Host::emit(TraceEvent event) {
  Simulator& s = network_.sim();
  event.time = s.now();
  event.step = s.eventsRun();
  event.host = config_.name;
  s.trace().emit(std::move(event));
}

void Host::emit(TraceKind kind, std::uint32_t qpn, std::string text, std::uint32_t psn,
                std::uint64_t wrId) {
  TraceEvent e;
  e.kind = kind;
  e.what = Narrative::Text;
  e.qpn = qpn;
  e.psn = psn;
  e.wrId = wrId;
  e.args.text = std::move(text);
  emit(std::move(e));
}

void Host::deliver(const ParsedPacket& in) {
  const bool tracing = network_.sim().tracing();
  auto drop = [&](Reason why, TraceArgs args = {}) {
    if (tracing) {
      TraceEvent e;
      e.kind = TraceKind::FrameDropped;
      e.what = Narrative::FrameRejected;
      e.reason = why;
      e.qpn = in.pkt.destQp;
      e.psn = in.pkt.psn;
      e.frameNumber = in.frameNumber;
      e.args = std::move(args);
      e.args.opcode = in.pkt.opcode;
      emit(std::move(e));
    }
  };
  if (network_.config().wire != WireFormat::InfiniBand) {
    if (in.addr.dstGid != gid()) return drop(Reason::WrongDestinationAddress);
  } else if (in.addr.dlid != config_.lid) {
    return drop(Reason::WrongDestinationLid);
  }
  if ((in.pkt.pkey & 0x7fff) != 0x7fff) return drop(Reason::PkeyMismatch);
  if (in.pkt.destQp == 1 && gsi_) {
    // IBTA 13.4.6.2: the GSI takes only UD packets with the well-known GSI Q_Key.
    if (in.pkt.opcode != 0x64) return drop(Reason::GsiTakesUdSendOnly);
    if (in.pkt.qkey != 0x80010000u) return drop(Reason::GsiQkeyMismatch);
    gsi_(std::span<const std::uint8_t>(in.pkt.payload, in.pkt.payloadLen), in.frameNumber);
    return;
  }
  Qp* q = qp(in.pkt.destQp);
  if (!q) {
    TraceArgs a;
    a.destQpn = in.pkt.destQp;
    return drop(Reason::NoSuchQp, std::move(a));
  }
  const std::uint8_t cls = in.pkt.opcode & 0xe0;
  const QpType want = cls == 0x00 ? QpType::RC : cls == 0x20 ? QpType::UC : QpType::UD;
  if (cls > 0x60 || q->type() != want) {
    TraceArgs a;
    a.qpType = q->type();
    return drop(Reason::OpcodeClassMismatch, std::move(a));
  }
  const bool isReq = (opcodeInfo(in.pkt.opcode).mask & kReq) != 0;
  const QpState s = q->state();
  const bool respReady = s == QpState::Rtr || s == QpState::Rts || s == QpState::Sqd;
  const bool reqReady = s == QpState::Rts || s == QpState::Sqd;
  if (isReq ? !respReady : !reqReady) {
    TraceArgs a;
    a.destQpn = q->qpn();
    a.qpState = s;
    return drop(Reason::QpNotReady, std::move(a));
  }
  if (q->type() != QpType::UD && network_.config().wire != WireFormat::InfiniBand &&
      in.addr.srcGid != q->attr().ahAttr.dgid) {
    return drop(Reason::SourceAddressMismatch);
  }
  if (q->type() == QpType::UD && in.pkt.qkey != q->attr().qkey) {
    TraceArgs a;
    a.key = in.pkt.qkey;
    a.expectedKey = q->attr().qkey;
    return drop(Reason::QkeyMismatch, std::move(a));
  }
  q->receive(in);
}

SimTime Host::sendGsi(const packets::IbPacket& packet, const std::string& why) {
  return sendGsi(packet, why, network_.host(1 - index_).gid());
}

SimTime Host::sendGsi(const packets::IbPacket& packet, const std::string& why, const Gid& dgid) {
  Frame& f = network_.allocFrame();
  PacketDesc k;
  k.opcode = packet.bth.opcode;
  k.solicited = packet.bth.solicitedEvent;
  k.migReq = packet.bth.migReq;
  k.pkey = packet.bth.pkey;
  k.destQp = packet.bth.destQp;
  k.ackReq = true;  // rxe asks for an ACK on the last packet of every message, UD's too
  k.psn = gsiPsn_;
  gsiPsn_ = (gsiPsn_ + 1) & 0xffffff;
  if (packet.deth) {
    k.qkey = packet.deth->qkey;
    k.srcQp = packet.deth->srcQp;
  }
  k.pad = static_cast<std::uint8_t>((4 - packet.payload.size() % 4) % 4);
  std::uint8_t* p = f.ownedBuffer(packet.payload.size());
  std::copy(packet.payload.begin(), packet.payload.end(), p);
  k.payload = p;
  k.payloadLen = static_cast<std::uint32_t>(packet.payload.size());
  AhAttr ah;
  ah.dgid = dgid;
  if (network_.hasHost(1 - index_)) ah.dlid = network_.host(1 - index_).config().lid;
  ah.isGlobal = true;
  ah.hopLimit = 64;
  WireAddress addr = network_.addressFor(index_, ah, 1);
  addr.ipId = gsiIpId_++;
  buildFrame(network_.config().wire, addr, k, f);
  f.gsi = true;
  if (!network_.sim().tracing()) return network_.transmit(index_, f, nullptr);
  TraceCause cause{Reason::Text};
  cause.args.text = why;
  return network_.transmit(index_, f, &cause);
}

}  // namespace rdmascope::sim
