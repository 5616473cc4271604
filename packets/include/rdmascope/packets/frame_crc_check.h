#pragma once
/// @file frame_crc_check.h
/// Checking the RoCE ICRC of a frame without building a dissection: the fast path of
/// `rdmascope-cli decode --verify` over large captures.

#include <cstdint>
#include <optional>
#include <span>

#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/dissection.h"

namespace rdmascope::packets {

/// The RoCE ICRC of a packet as the IBTA defines it for RoCEv2 (Annex 17) and RoCEv1
/// (Annex 16): CRC-32 over 8 bytes of 0xFF (in place of the LRH), the IP header or GRH with
/// its variant fields set to ones (IPv4: TOS, TTL, header checksum; IPv6/GRH: traffic class,
/// flow label, hop limit), the UDP header with its checksum set to ones (RoCEv2 only), the BTH
/// with byte 4 (FECN, BECN, reserved) set to ones, and the rest up to the ICRC.
/// @param network the IPv4 header, IPv6 header or GRH, through the end of the ICRC
/// @param headerLength bytes of the IP header or GRH
/// @param udp true for RoCEv2 (an 8-byte UDP header follows the IP header)
/// @return the CRC as stored on the wire little-endian; 0 when `network` is too short
std::uint32_t roceIcrc(std::span<const std::uint8_t> network, std::size_t headerLength, bool udp);

/// The CRC status of a well-formed RoCEv2 or RoCEv1 frame on an Ethernet or raw IP link
/// (Good or Bad), Absent for frames of those links that carry no RDMA CRC (other UDP ports,
/// other ethertypes, non-first fragments), and nullopt when only the full decoder can tell
/// (native InfiniBand and ERF links, TCP payloads that may be iWARP, malformed headers).
std::optional<CrcStatus> checkFrameCrcFast(std::span<const std::uint8_t> frame, LinkType link,
                                           const DecodeOptions& options = {});

}  // namespace rdmascope::packets
