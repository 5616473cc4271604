#pragma once
// The NIC's DMA writes into host memory. A write of a packet's payload bypasses the CPU caches
// with streaming stores, as a NIC's DMA does: a cached store would first read every
// destination line from memory, and nothing in the simulator reads those bytes back soon.
// The simulating thread sees its own streamed bytes at once (x86 orders a core's loads after
// its stores of any kind); dmaFence(), called when a completion is queued, orders them before
// every later store, as a NIC writes the data of a work request before its CQE.

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rdmascope::sim {

/// Memory regions up to this size take cached stores: a buffer this small is written again
/// and again (ib_write_bw's 64 KiB buffer), and stays in the cache between the writes.
inline constexpr std::uint64_t kDmaCachedRegion = 1u << 20;

/// `stream`: the destination is a large region (more than kDmaCachedRegion).
inline void dmaWrite(std::uint8_t* dst, const std::uint8_t* src, std::size_t n,
                     bool stream = true) {
#if defined(__SSE2__)
  constexpr std::size_t kStreamFrom = 1024;  // below this the copy stays in cache
  if (stream && n >= kStreamFrom) {
    const std::size_t head = (16 - (reinterpret_cast<std::uintptr_t>(dst) & 15)) & 15;
    std::memcpy(dst, src, head);
    dst += head;
    src += head;
    n -= head;
    auto* d = reinterpret_cast<__m128i*>(dst);  // 16-byte aligned now
    const auto* s = reinterpret_cast<const __m128i*>(src);
    std::size_t i = 0;
    for (; i + 4 <= n / 16; i += 4) {
      _mm_stream_si128(d + i, _mm_loadu_si128(s + i));
      _mm_stream_si128(d + i + 1, _mm_loadu_si128(s + i + 1));
      _mm_stream_si128(d + i + 2, _mm_loadu_si128(s + i + 2));
      _mm_stream_si128(d + i + 3, _mm_loadu_si128(s + i + 3));
    }
    for (; i < n / 16; ++i)
      _mm_stream_si128(d + i, _mm_loadu_si128(s + i));
    std::memcpy(dst + i * 16, src + i * 16, n - i * 16);
    return;
  }
#endif
  std::memcpy(dst, src, n);
}

/// Asks for `n` bytes from `p` into the cache ahead of a read (a hint: nothing faults).
inline void dmaPrefetch(const std::uint8_t* p, std::size_t n) {
  for (std::size_t i = 0; i < n; i += 64)
    __builtin_prefetch(p + i, 0, 3);
}

inline void dmaFence() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

}  // namespace rdmascope::sim
