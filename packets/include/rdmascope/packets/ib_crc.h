#pragma once
/// @file ib_crc.h
/// The InfiniBand ICRC and VCRC. ICRC (IBTA Vol. 1 7.8.1, annexes A16/A17): zlib's CRC-32 over
/// the packet from the LRH (RoCE: 8 bytes of ones standing for it) to the end of the pad, with
/// the variant fields set to ones, stored little-endian after the pad:
///   - native IB local: LRH.VL; global: the whole LRH;
///   - GRH (RoCEv1, native global): traffic class, flow label, hop limit;
///   - RoCEv2/IPv4: TOS, TTL, header checksum; RoCEv2/IPv6: traffic class, flow label, hop
///     limit; UDP checksum;
/// RoCEv2 over IPv6 with extension headers (hop-by-hop, routing, destination options, an
/// atomic fragment header): the ICRC covers the fixed 40-byte IPv6 header, as sent, and then
/// the UDP header, skipping the extension headers. Annex A17 puts the IP header where the
/// GRH was and the GRH is exactly those 40 bytes; extension headers have no counterpart in an
/// IB packet and some change in flight (hop-by-hop options marked "may change", a routing
/// header's segments left and address list), which an invariant CRC cannot cover. rxe never
/// sends them and tshark does not check the ICRC, so this reading of the Annex is ours.
///   - BTH byte 4 (FECN, BECN, reserved).
/// VCRC (IBTA 7.8.2): CRC-16 with polynomial 0x100B (reflected 0xD008), initial value 0xFFFF,
/// final complement, over the whole packet from the LRH to the end of the ICRC, unmasked;
/// stored little-endian (the same convention as the ICRC; tshark does not check it).

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>

#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/dissection.h"

namespace rdmascope::packets {

/// Where the parts of an IB packet lie in a frame, for the CRCs.
struct IcrcLayout {
  enum class Kind : std::uint8_t { RoceV2Ipv4, RoceV2Ipv6, RoceV1, NativeLocal, NativeGlobal };
  Kind kind = Kind::RoceV2Ipv4;
  std::size_t start = 0;            ///< IP header (RoCEv2), GRH (RoCEv1) or LRH (native)
  std::size_t ipHeaderLength = 20;  ///< RoCEv2/IPv4: IHL x 4
  std::size_t bth = 0;              ///< first byte of the BTH
  std::size_t icrc = 0;             ///< first byte of the ICRC (end of the covered bytes)
  std::size_t ipv6Extensions = 0;   ///< RoCEv2/IPv6: extension header bytes (not covered)
};

/// Computes the ICRC of the packet described by `layout`. The caller guarantees that
/// `layout.icrc <= frame.size()` and that the headers lie before it. Allocates nothing.
std::uint32_t computeIcrc(std::span<const std::uint8_t> frame, const IcrcLayout& layout);

/// The same ICRC over a packet held in pieces (as the simulator keeps headers apart from the
/// payload it references): `head` holds the frame from its start through at least the BTH and
/// at most to `layout.icrc`; `tail` holds the remaining covered bytes (payload, pad) in order.
std::uint32_t computeIcrc(std::span<const std::uint8_t> head, const IcrcLayout& layout,
                          std::initializer_list<std::span<const std::uint8_t>> tail);

/// The VCRC of `bytes` (LRH to the end of the ICRC).
std::uint16_t computeVcrc(std::span<const std::uint8_t> bytes);

/// Finds the IB packet in a frame the way the dissector does, but reading only what the CRC
/// needs. nullopt when the frame carries no complete IB packet.
struct IbCrcLocation {
  IcrcLayout layout;
  bool hasVcrc = false;  ///< native IB: two VCRC bytes follow the ICRC
};
bool locateIbPacket(std::span<const std::uint8_t> frame, LinkType link,
                    const DecodeOptions& options, IbCrcLocation& out);

/// Verifies the ICRC (and the VCRC of native IB) of one frame without building a dissection
/// and without allocating: Absent when the frame carries no complete IB packet.
CrcStatus verifyFrameCrc(std::span<const std::uint8_t> frame, LinkType link,
                         const DecodeOptions& options = {});

}  // namespace rdmascope::packets
