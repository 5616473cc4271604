#include "rdmascope/simdev/frame_rings.h"

#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace rdmascope::simdev {

namespace {

constexpr std::uint64_t kMagic = 0x72646d6173636f70;  // "rdmascop"
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kRecordHeader = 16;  // u32 length, u32 flags, i64 Unix ns
constexpr std::uint32_t kFlagWrap = 1;     // the rest of the ring is unused: go to its start
constexpr std::uint32_t kFlagLost = 2;

struct alignas(64) HostSlot {
  std::atomic<std::uint32_t> sleeping{0};
  std::atomic<std::uint32_t> attached{0};
  // What this host's frames met at the switch (written by this host only: no cache line is
  // shared between two writers on the data path).
  alignas(64) std::atomic<std::uint64_t> frames{0};
  std::atomic<std::uint64_t> forwarded{0};
  std::atomic<std::uint64_t> lost{0};
  std::atomic<std::uint64_t> unroutable{0};
};

struct RingHead {
  alignas(64) std::atomic<std::uint64_t> tail{0};  // bytes written, by the producer
  alignas(64) std::atomic<std::uint64_t> head{0};  // bytes read, by the consumer
};

constexpr std::size_t round16(std::size_t n) {
  return (n + 15) & ~std::size_t{15};
}

/// The ring size for `hosts` hosts: large for the usual few hosts, smaller for many, so that
/// the whole mapping stays under 512 MiB of (sparse) shared memory where it can.
std::uint64_t ringBytesFor(int hosts) {
  const std::uint64_t rings = static_cast<std::uint64_t>(hosts) * (hosts + 1);
  std::uint64_t size = std::uint64_t{8} << 20;
  while (size > (std::uint64_t{64} << 10) && size * rings > (std::uint64_t{512} << 20))
    size /= 2;
  return size;
}

}  // namespace

/// What the fabric writes once, before any NIC maps it.
struct FixedFields {
  std::uint64_t magic;
  std::uint32_t version;
  std::uint32_t hosts;
  std::uint64_t ringBytes;
  std::uint64_t ringsOffset;
  std::uint64_t totalBytes;
  double lossRate;
  std::uint64_t seed;
};

struct FrameRings::Layout {
  FixedFields fixed;
  alignas(64) std::atomic<std::uint32_t> paused;
  std::atomic<std::uint32_t> mirror;
  HostSlot slots[255];  // index 0: the fabric
};

static_assert(std::atomic<std::uint64_t>::is_always_lock_free,
              "the rings need address-free 64-bit atomics");

std::unique_ptr<FrameRings> FrameRings::create(int hosts, double lossRate, std::uint64_t seed,
                                               std::string& error) {
  if (hosts < 1 || hosts > 254) {
    error = fmt::format("{} hosts is outside 1..254", hosts);
    return nullptr;
  }
  const std::uint64_t ringBytes = ringBytesFor(hosts);
  const std::uint64_t offset = round16(sizeof(Layout) + 63) & ~std::uint64_t{63};
  const std::uint64_t stride = sizeof(RingHead) + ringBytes;
  const std::uint64_t total =
      offset + stride * static_cast<std::uint64_t>(hosts) * static_cast<std::uint64_t>(hosts + 1);
  const int fd = ::memfd_create("rdmascope-fabric", MFD_CLOEXEC);
  if (fd < 0 || ::ftruncate(fd, static_cast<off_t>(total)) != 0) {
    error = fmt::format("cannot create the fabric's shared memory: {}", std::strerror(errno));
    if (fd >= 0) ::close(fd);
    return nullptr;
  }
  void* p = ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) {
    error = fmt::format("cannot map the fabric's shared memory: {}", std::strerror(errno));
    ::close(fd);
    return nullptr;
  }
  std::unique_ptr<FrameRings> r(new FrameRings());
  r->fd_ = fd;
  r->ownsFd_ = true;
  r->base_ = static_cast<std::uint8_t*>(p);
  r->size_ = total;
  r->layout_ = new (p) Layout{};
  FixedFields& l = r->layout_->fixed;
  l.version = kVersion;
  l.hosts = static_cast<std::uint32_t>(hosts);
  l.ringBytes = ringBytes;
  l.ringsOffset = offset;
  l.totalBytes = total;
  l.lossRate = lossRate;
  l.seed = seed;
  for (int from = 1; from <= hosts; ++from) {
    for (int to = 0; to <= hosts; ++to) {
      new (r->base_ + offset +
           stride * (static_cast<std::uint64_t>(from - 1) * (hosts + 1) +
                     static_cast<std::uint64_t>(to))) RingHead{};
    }
  }
  std::atomic_thread_fence(std::memory_order_release);
  l.magic = kMagic;
  r->hosts_ = hosts;
  r->ringBytes_ = ringBytes;
  r->ringsOffset_ = offset;
  r->lossRate_ = lossRate;
  r->seed_ = seed;
  return r;
}

std::unique_ptr<FrameRings> FrameRings::map(int fd, std::string& error) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || st.st_size < static_cast<off_t>(sizeof(Layout))) {
    error = "the fabric's shared memory is missing or too small";
    return nullptr;
  }
  const auto total = static_cast<std::size_t>(st.st_size);
  void* p = ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) {
    error = fmt::format("cannot map the fabric's shared memory: {}", std::strerror(errno));
    return nullptr;
  }
  std::unique_ptr<FrameRings> r(new FrameRings());
  r->fd_ = fd;
  r->base_ = static_cast<std::uint8_t*>(p);
  r->size_ = total;
  r->layout_ = static_cast<Layout*>(p);
  FixedFields l;
  std::memcpy(&l, p, sizeof l);  // read once: the mapping's copy may change later
  const std::uint64_t stride = sizeof(RingHead) + l.ringBytes;
  const bool sane = l.magic == kMagic && l.version == kVersion && l.hosts >= 1 && l.hosts <= 254 &&
                    l.ringBytes >= 4096 && l.ringBytes % 16 == 0 &&
                    l.ringBytes <= (std::uint64_t{1} << 30) && l.ringsOffset >= sizeof(Layout) &&
                    l.ringsOffset % 64 == 0 && l.totalBytes == total &&
                    l.ringsOffset + stride * l.hosts * (l.hosts + 1) <= total && l.lossRate >= 0 &&
                    l.lossRate <= 1;
  if (!sane) {
    error = "the fabric's shared memory is not a fabric's (another version of rdmascope?)";
    return nullptr;  // the destructor unmaps
  }
  r->hosts_ = static_cast<int>(l.hosts);
  r->ringBytes_ = l.ringBytes;
  r->ringsOffset_ = l.ringsOffset;
  r->lossRate_ = l.lossRate;
  r->seed_ = l.seed;
  return r;
}

FrameRings::~FrameRings() {
  if (base_) ::munmap(base_, size_);
  if (ownsFd_ && fd_ >= 0) ::close(fd_);
}

void FrameRings::setAttached(int host, bool attached) {
  if (host >= 1 && host <= hosts()) layout_->slots[host].attached.store(attached ? 1 : 0);
}

bool FrameRings::attached(int host) const {
  return host >= 1 && host <= hosts() &&
         layout_->slots[host].attached.load(std::memory_order_acquire) != 0;
}

void FrameRings::setPaused(bool paused) {
  layout_->paused.store(paused ? 1 : 0);
}

bool FrameRings::paused() const {
  return layout_->paused.load(std::memory_order_acquire) != 0;
}

void FrameRings::setMirror(bool mirror) {
  layout_->mirror.store(mirror ? 1 : 0);
}

bool FrameRings::mirror() const {
  return layout_->mirror.load(std::memory_order_relaxed) != 0;
}

namespace {

struct RingView {
  RingHead* head = nullptr;
  std::uint8_t* data = nullptr;
  std::uint64_t size = 0;
};

RingView ringAt(std::uint8_t* base, std::uint64_t offset, std::uint64_t ringBytes, int hosts,
                int from, int to) {
  const std::uint64_t stride = sizeof(RingHead) + ringBytes;
  std::uint8_t* p =
      base + offset +
      stride * (static_cast<std::uint64_t>(from - 1) * static_cast<std::uint64_t>(hosts + 1) +
                static_cast<std::uint64_t>(to));
  return {reinterpret_cast<RingHead*>(p), p + sizeof(RingHead), ringBytes};
}

}  // namespace

bool FrameRings::push(int from, int to, std::span<const std::uint8_t> frame, std::int64_t unixNs,
                      bool lost) {
  const int n = hosts();
  if (from < 1 || from > n || to < 0 || to > n) return false;
  const RingView r = ringAt(base_, ringsOffset_, ringBytes_, n, from, to);
  const std::uint64_t need = kRecordHeader + round16(frame.size());
  if (need > r.size / 2) return false;
  const std::uint64_t tail = r.head->tail.load(std::memory_order_relaxed);
  const std::uint64_t head = r.head->head.load(std::memory_order_acquire);
  const std::uint64_t pos = tail % r.size;
  const std::uint64_t contiguous = r.size - pos;
  const std::uint64_t skip = contiguous < need ? contiguous : 0;
  if (tail + skip + need - head > r.size) return false;
  const auto put = [&](std::uint64_t at, std::uint32_t length, std::uint32_t flags) {
    std::uint8_t* rec = r.data + at;
    std::memcpy(rec, &length, 4);
    std::memcpy(rec + 4, &flags, 4);
    std::memcpy(rec + 8, &unixNs, 8);
  };
  if (skip) put(pos, 0, kFlagWrap);
  const std::uint64_t at = (tail + skip) % r.size;
  put(at, static_cast<std::uint32_t>(frame.size()), lost ? kFlagLost : 0);
  if (!frame.empty()) std::memcpy(r.data + at + kRecordHeader, frame.data(), frame.size());
  r.head->tail.store(tail + skip + need, std::memory_order_release);
  return true;
}

bool FrameRings::announce(int to) {
  if (to < 0 || to > hosts()) return false;
  HostSlot& s = layout_->slots[to];
  // Pairs with the consumer's store of `sleeping` and its look at the rings after it: either
  // it sees this frame, or this sees it asleep. The first producer to see that wakes it.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  return s.sleeping.load(std::memory_order_relaxed) != 0 &&
         s.sleeping.exchange(0, std::memory_order_seq_cst) != 0;
}

bool FrameRings::pending(int to) const {
  if (to < 0 || to > hosts()) return false;
  const int n = hosts();
  for (int from = 1; from <= n; ++from) {
    const RingView r = ringAt(base_, ringsOffset_, ringBytes_, n, from, to);
    if (r.head->tail.load(std::memory_order_acquire) !=
        r.head->head.load(std::memory_order_relaxed)) {
      return true;
    }
  }
  return false;
}

void FrameRings::discard(int to) {
  const int n = hosts();
  if (to < 0 || to > n) return;
  for (int from = 1; from <= n; ++from) {
    const RingView r = ringAt(base_, ringsOffset_, ringBytes_, n, from, to);
    r.head->head.store(r.head->tail.load(std::memory_order_acquire), std::memory_order_release);
  }
}

void FrameRings::setSleeping(int host, bool sleeping) {
  if (host >= 0 && host <= hosts()) {
    layout_->slots[host].sleeping.store(sleeping ? 1 : 0, std::memory_order_seq_cst);
    std::atomic_thread_fence(std::memory_order_seq_cst);
  }
}

std::size_t FrameRings::drainOneImpl(int from, int to, void* ctx, void (*call)(void*, const Frame&),
                                     std::int64_t notAfterNs) {
  const int n = hosts();
  if (from < 1 || from > n || to < 0 || to > n) return 0;
  const RingView r = ringAt(base_, ringsOffset_, ringBytes_, n, from, to);
  std::uint64_t head = r.head->head.load(std::memory_order_relaxed);
  const std::uint64_t tail = r.head->tail.load(std::memory_order_acquire);
  if (tail - head > r.size) {  // not a ring any more: drop what it claims to hold
    r.head->head.store(tail, std::memory_order_release);
    return 0;
  }
  std::size_t taken = 0;
  while (head != tail) {
    const std::uint64_t pos = head % r.size;
    if (r.size - pos < kRecordHeader) {  // records are 16-aligned: only a corrupt ring
      head = tail;
      break;
    }
    std::uint32_t length = 0;
    std::uint32_t flags = 0;
    std::int64_t ns = 0;
    std::memcpy(&length, r.data + pos, 4);
    std::memcpy(&flags, r.data + pos + 4, 4);
    std::memcpy(&ns, r.data + pos + 8, 8);
    if (flags & kFlagWrap) {
      head += r.size - pos;
      continue;
    }
    const std::uint64_t need = kRecordHeader + round16(length);
    if (need > r.size - pos || need > tail - head) {
      head = tail;
      break;
    }
    if (ns > notAfterNs) break;
    Frame f;
    f.from = from;
    f.bytes = std::span<const std::uint8_t>(r.data + pos + kRecordHeader, length);
    f.unixNs = ns;
    f.lost = (flags & kFlagLost) != 0;
    call(ctx, f);
    head += need;
    ++taken;
    if (taken % 64 == 0) r.head->head.store(head, std::memory_order_release);  // room, early
  }
  r.head->head.store(head, std::memory_order_release);
  return taken;
}

void FrameRings::count(int host, std::uint64_t frames, std::uint64_t forwarded, std::uint64_t lost,
                       std::uint64_t unroutable) {
  if (host < 0 || host > hosts()) return;
  HostSlot& h = layout_->slots[host];
  // one writer per slot: a load and a store, not a locked read-modify-write
  const auto add = [](std::atomic<std::uint64_t>& a, std::uint64_t n) {
    if (n) a.store(a.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
  };
  add(h.frames, frames);
  add(h.forwarded, forwarded);
  add(h.lost, lost);
  add(h.unroutable, unroutable);
}

FabricCounters FrameRings::counters() const {
  FabricCounters c;
  for (int i = 0; i <= hosts(); ++i) {
    const HostSlot& h = layout_->slots[i];
    c.frames += h.frames.load(std::memory_order_relaxed);
    c.forwarded += h.forwarded.load(std::memory_order_relaxed);
    c.lost += h.lost.load(std::memory_order_relaxed);
    c.unroutable += h.unroutable.load(std::memory_order_relaxed);
  }
  return c;
}

double FrameRings::mirrorFill(int from) const {
  const int n = hosts();
  if (from < 1 || from > n) return 0;
  const RingView r = ringAt(base_, ringsOffset_, ringBytes_, n, from, 0);
  const std::uint64_t used =
      r.head->tail.load(std::memory_order_relaxed) - r.head->head.load(std::memory_order_relaxed);
  return static_cast<double>(used) / static_cast<double>(r.size);
}

}  // namespace rdmascope::simdev
