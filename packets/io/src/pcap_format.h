#pragma once
// What the readers and the writer of capture files share: the magic numbers of classic pcap
// and pcapng, the largest record they accept, and a 32-bit load in either byte order.

#include <cstdint>
#include <cstring>

namespace rdmascope::packets_io {

inline constexpr std::uint32_t kPcapMagicUs = 0xa1b2c3d4;  ///< classic pcap, microseconds
inline constexpr std::uint32_t kPcapMagicNs = 0xa1b23c4d;  ///< classic pcap, nanoseconds
inline constexpr std::uint32_t kPcapngMagic = 0x0a0d0d0a;  ///< pcapng Section Header Block
/// libpcap refuses records above 256 KiB by default; the readers allow jumbo ERF/IB records but
/// reject the absurd lengths a corrupt header produces.
inline constexpr std::uint32_t kMaxRecord = 64u << 20;

/// A 32-bit number at `p`, byte-swapped when `swap`.
inline std::uint32_t load32(const std::uint8_t* p, bool swap) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return swap ? __builtin_bswap32(v) : v;
}

}  // namespace rdmascope::packets_io
