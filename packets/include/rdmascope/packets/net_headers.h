#pragma once
/// @file net_headers.h
/// Field tables of the carrier headers: Ethernet II, 802.1Q, IPv4, IPv6, UDP, TCP.

#include "rdmascope/packets/field.h"

namespace rdmascope::packets {

extern const HeaderDef kEthernetHeader;  ///< 14 bytes
extern const HeaderDef kVlanHeader;      ///< 4 bytes after the TPID 0x8100
extern const HeaderDef kIpv4Header;      ///< 20 bytes without options
extern const HeaderDef kIpv6Header;      ///< 40 bytes
extern const HeaderDef kUdpHeader;       ///< 8 bytes
extern const HeaderDef kTcpHeader;       ///< 20 bytes without options

inline constexpr std::uint16_t kEtherTypeIpv4 = 0x0800;
inline constexpr std::uint16_t kEtherTypeIpv6 = 0x86dd;
inline constexpr std::uint16_t kEtherTypeVlan = 0x8100;
inline constexpr std::uint16_t kEtherTypeRoceV1 = 0x8915;
inline constexpr std::uint8_t kIpProtoTcp = 6;
inline constexpr std::uint8_t kIpProtoUdp = 17;
inline constexpr std::uint16_t kRoceV2Port = 4791;

/// The Internet checksum (RFC 1071) of bytes, folded, not complemented.
std::uint16_t onesComplementSum(std::span<const std::uint8_t> bytes, std::uint32_t initial = 0);

}  // namespace rdmascope::packets
