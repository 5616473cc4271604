#pragma once
/// @file net_headers.h
/// Field tables of the carrier headers: Ethernet II, 802.1Q and 802.1ad tags, IPv4, IPv6 and
/// its extension headers, UDP, TCP. Keys are tshark's.

#include "rdmascope/packets/field.h"

namespace rdmascope::packets {

extern const HeaderDef kEthernetHeader;  ///< 14 bytes
extern const HeaderDef kVlanHeader;      ///< 4 bytes after the TPID 0x8100 or 0x9100
/// 4 bytes after the TPID 0x88a8 (tshark's "ieee8021ad"; its type is ieee8021ah.etype).
extern const HeaderDef kIeee8021adHeader;
extern const HeaderDef kIpv4Header;  ///< 20 bytes without options
extern const HeaderDef kIpv6Header;  ///< 40 bytes
/// The fixed first two bytes of the IPv6 extension headers that carry options or routing
/// (next header, length in 8-octet units not counting the first); the routing header adds
/// its type and segments left. The fragment header is 8 bytes.
extern const HeaderDef kIpv6HopOptsHeader;
extern const HeaderDef kIpv6DstOptsHeader;
extern const HeaderDef kIpv6RoutingHeader;
extern const HeaderDef kIpv6FragmentHeader;
/// One option of a hop-by-hop or destination options header: type and length (Pad1 has only
/// the type byte).
extern const HeaderDef kIpv6OptionHeader;
extern const HeaderDef kUdpHeader;  ///< 8 bytes
extern const HeaderDef kTcpHeader;  ///< 20 bytes without options

inline constexpr std::uint16_t kEtherTypeIpv4 = 0x0800;
inline constexpr std::uint16_t kEtherTypeIpv6 = 0x86dd;
inline constexpr std::uint16_t kEtherTypeVlan = 0x8100;
inline constexpr std::uint16_t kEtherTypeQinQ = 0x88a8;     ///< 802.1ad service tag
inline constexpr std::uint16_t kEtherTypeQinQOld = 0x9100;  ///< pre-standard QinQ, a VLAN tag
/// True for the TPIDs of a VLAN tag that tshark decodes (0x8100, 0x88a8, 0x9100).
constexpr bool isVlanTpid(std::uint16_t type) {
  return type == kEtherTypeVlan || type == kEtherTypeQinQ || type == kEtherTypeQinQOld;
}
inline constexpr std::uint16_t kEtherTypeRoceV1 = 0x8915;
inline constexpr std::uint8_t kIpProtoTcp = 6;
inline constexpr std::uint8_t kIpProtoUdp = 17;
inline constexpr std::uint8_t kIpv6HopByHop = 0;
inline constexpr std::uint8_t kIpv6Routing = 43;
inline constexpr std::uint8_t kIpv6Fragment = 44;
inline constexpr std::uint8_t kIpProtoEsp = 50;
inline constexpr std::uint8_t kIpProtoAh = 51;
inline constexpr std::uint8_t kIpv6NoNextHeader = 59;
inline constexpr std::uint8_t kIpv6DestinationOptions = 60;
inline constexpr std::uint16_t kRoceV2Port = 4791;

/// The Internet checksum (RFC 1071) of bytes, folded, not complemented.
std::uint16_t onesComplementSum(std::span<const std::uint8_t> bytes, std::uint32_t initial = 0);

}  // namespace rdmascope::packets
