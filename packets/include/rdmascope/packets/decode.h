#pragma once
/// @file decode.h
/// Stateless decoding of one frame, from the link layer to the RDMA payload.

#include <cstdint>
#include <span>

#include "rdmascope/packets/dissection.h"

namespace rdmascope::packets {

/// Link types, numbered as pcap LINKTYPE_* values.
enum class LinkType : std::uint16_t {
  Ethernet = 1,
  Erf = 197,         ///< Endace ERF records (ibdump's native InfiniBand form; type 21)
  Raw = 101,         ///< raw IPv4/IPv6, version from the first nibble
  Ipv4 = 228,
  Ipv6 = 229,
  InfiniBand = 247,  ///< native IB, LRH first
};

/// Per-frame facts known to the reader, shown under "frame" as tshark does.
struct FrameInfo {
  std::uint64_t number = 1;        ///< 1-based frame number
  double timeRelative = 0.0;       ///< seconds since the first frame
  double timeEpoch = 0.0;          ///< seconds since 1970
  std::int64_t epochNs = 0;        ///< nanoseconds since 1970; when set, shown exactly instead
                                   ///< of timeEpoch (a double cannot hold every nanosecond)
  std::uint32_t originalLength = 0;  ///< length on the wire (0: the captured length)
};

struct DecodeOptions {
  std::uint16_t roceV2Port = 4791;  ///< UDP destination port that carries RoCEv2
  bool verifyCrc = true;           ///< compute and check ICRC/VCRC/CRC32c
};

/// Decodes one frame. Never throws: malformed or truncated input yields diagnostics.
Dissection decodeFrame(std::span<const std::uint8_t> frame, LinkType link,
                       const FrameInfo& info = {}, const DecodeOptions& options = {});

}  // namespace rdmascope::packets
