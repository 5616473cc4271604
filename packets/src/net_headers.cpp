#include "rdmascope/packets/net_headers.h"

#include <array>

namespace rdmascope::packets {
namespace {

constexpr ValueName kEtherTypes[] = {{0x0800, "IPv4"},
                                     {0x86dd, "IPv6"},
                                     {0x8100, "802.1Q Virtual LAN"},
                                     {0x88a8, "802.1ad Provider Bridge (Q-in-Q)"},
                                     {0x9100, "QinQ: old non-standard 802.1ad"},
                                     {0x0806, "ARP"},
                                     {0x8808, "MAC Control"},
                                     {0x8915, "RDMA over Converged Ethernet (RoCE)"}};
constexpr ValueName kIpProtos[] = {{6, "TCP"},
                                   {17, "UDP"},
                                   {1, "ICMP"},
                                   {58, "ICMPv6"},
                                   {0, "IPv6 Hop-by-Hop Option"},
                                   {43, "Routing Header for IPv6"},
                                   {44, "Fragment Header for IPv6"},
                                   {50, "Encap Security Payload"},
                                   {51, "Authentication Header"},
                                   {59, "IPv6 No Next Header"},
                                   {60, "Destination Options for IPv6"}};

constexpr FieldDef kEthernetFields[] = {
    {"eth.dst", "Destination", 0, 48, FieldType::Ether},
    {"eth.src", "Source", 48, 48, FieldType::Ether},
    {"eth.type", "Type", 96, 16, FieldType::UInt, Base::Hex, 16, kEtherTypes},
};

constexpr FieldDef kVlanFields[] = {
    {"vlan.priority", "Priority", 0, 3, FieldType::UInt, Base::Dec, 16},
    {"vlan.dei", "DEI", 3, 1, FieldType::Bool},
    {"vlan.id", "ID", 4, 12, FieldType::UInt, Base::Dec, 16},
    {"vlan.etype", "Type", 16, 16, FieldType::UInt, Base::Hex, 16, kEtherTypes},
};

constexpr FieldDef kIeee8021adFields[] = {
    {"ieee8021ad.priority", "Priority", 0, 3, FieldType::UInt, Base::Dec, 16},
    {"ieee8021ad.dei", "DEI", 3, 1, FieldType::UInt, Base::Dec, 16},
    {"ieee8021ad.id", "ID", 4, 12, FieldType::UInt, Base::Dec, 16},
    {"ieee8021ah.etype", "Type", 16, 16, FieldType::UInt, Base::Hex, 16, kEtherTypes},
};

constexpr FieldDef kIpv4Fields[] = {
    {"ip.version", "Version", 0, 4},
    {"ip.hdr_len", "Header Length", 4, 4, FieldType::UInt, Base::Dec, 8, {}, 2},
    {"ip.dsfield", "Differentiated Services Field", 8, 8, FieldType::UInt, Base::Hex, 8},
    {"ip.dsfield.dscp", "Differentiated Services Codepoint", 8, 6},
    {"ip.dsfield.ecn", "Explicit Congestion Notification", 14, 2},
    {"ip.len", "Total Length", 16, 16},
    {"ip.id", "Identification", 32, 16, FieldType::UInt, Base::HexDec, 16},
    {"ip.flags", "Flags", 48, 3, FieldType::UInt, Base::Hex, 8},
    {"ip.flags.rb", "Reserved bit", 48, 1, FieldType::Bool},
    {"ip.flags.df", "Don't fragment", 49, 1, FieldType::Bool},
    {"ip.flags.mf", "More fragments", 50, 1, FieldType::Bool},
    {"ip.frag_offset", "Fragment Offset", 51, 13},
    {"ip.ttl", "Time to Live", 64, 8},
    {"ip.proto", "Protocol", 72, 8, FieldType::UInt, Base::Dec, 8, kIpProtos},
    {"ip.checksum", "Header Checksum", 80, 16, FieldType::UInt, Base::Hex, 16},
    {"ip.src", "Source Address", 96, 32, FieldType::Ipv4},
    {"ip.dst", "Destination Address", 128, 32, FieldType::Ipv4},
};

constexpr FieldDef kIpv6Fields[] = {
    {"ipv6.version", "Version", 0, 4},
    {"ipv6.tclass", "Traffic Class", 4, 8, FieldType::UInt, Base::Hex, 32},
    {"ipv6.flow", "Flow Label", 12, 20, FieldType::UInt, Base::Hex, 24},
    {"ipv6.plen", "Payload Length", 32, 16},
    {"ipv6.nxt", "Next Header", 48, 8, FieldType::UInt, Base::Dec, 8, kIpProtos},
    {"ipv6.hlim", "Hop Limit", 56, 8},
    {"ipv6.src", "Source Address", 64, 128, FieldType::Ipv6},
    {"ipv6.dst", "Destination Address", 192, 128, FieldType::Ipv6},
};

constexpr FieldDef kHopOptsFields[] = {
    {"ipv6.hopopts.nxt", "Next Header", 0, 8, FieldType::UInt, Base::Dec, 8, kIpProtos},
    {"ipv6.hopopts.len", "Length", 8, 8},
};

constexpr FieldDef kDstOptsFields[] = {
    {"ipv6.dstopts.nxt", "Next Header", 0, 8, FieldType::UInt, Base::Dec, 8, kIpProtos},
    {"ipv6.dstopts.len", "Length", 8, 8},
};

constexpr ValueName kRoutingTypes[] = {
    {0, "Source Route"}, {2, "Type 2 Routing"}, {3, "RPL Source Route"}, {4, "Segment Routing"}};

constexpr FieldDef kRoutingFields[] = {
    {"ipv6.routing.nxt", "Next Header", 0, 8, FieldType::UInt, Base::Dec, 8, kIpProtos},
    {"ipv6.routing.len", "Length", 8, 8},
    {"ipv6.routing.type", "Type", 16, 8, FieldType::UInt, Base::Dec, 8, kRoutingTypes},
    {"ipv6.routing.segleft", "Segments Left", 24, 8},
};

constexpr FieldDef kFragmentFields[] = {
    {"ipv6.fraghdr.nxt", "Next header", 0, 8, FieldType::UInt, Base::Dec, 8, kIpProtos},
    {"ipv6.fraghdr.reserved_octet", "Reserved octet", 8, 8, FieldType::UInt, Base::Hex, 8},
    {"ipv6.fraghdr.offset", "Offset", 16, 13, FieldType::UInt, Base::Dec, 16},
    {"ipv6.fraghdr.reserved_bits", "Reserved bits", 29, 2, FieldType::UInt, Base::Dec, 16},
    {"ipv6.fraghdr.more", "More Fragments", 31, 1, FieldType::Bool},
    {"ipv6.fraghdr.ident", "Identification", 32, 32, FieldType::UInt, Base::Hex, 32},
};

constexpr ValueName kIpv6OptionTypes[] = {{0x00, "Pad1"},
                                          {0x01, "PadN"},
                                          {0x05, "Router Alert"},
                                          {0x04, "Tunnel Encapsulation Limit"},
                                          {0xc2, "Jumbo Payload"}};

constexpr FieldDef kIpv6OptionFields[] = {
    {"ipv6.opt.type", "Type", 0, 8, FieldType::UInt, Base::Hex, 8, kIpv6OptionTypes},
    {"ipv6.opt.type.action", "Action", 0, 2},
    {"ipv6.opt.type.change", "May Change", 2, 1, FieldType::Bool},
    {"ipv6.opt.type.rest", "Low-Order Bits", 3, 5, FieldType::UInt, Base::Hex, 8},
    {"ipv6.opt.length", "Length", 8, 8},
};

constexpr FieldDef kUdpFields[] = {
    {"udp.srcport", "Source Port", 0, 16},
    {"udp.dstport", "Destination Port", 16, 16},
    {"udp.length", "Length", 32, 16},
    {"udp.checksum", "Checksum", 48, 16, FieldType::UInt, Base::Hex, 16},
};

constexpr FieldDef kTcpFields[] = {
    {"tcp.srcport", "Source Port", 0, 16},
    {"tcp.dstport", "Destination Port", 16, 16},
    {"tcp.seq", "Sequence Number (raw)", 32, 32},
    {"tcp.ack", "Acknowledgment Number (raw)", 64, 32},
    {"tcp.hdr_len", "Header Length", 96, 4, FieldType::UInt, Base::Dec, 8, {}, 2},
    {"tcp.flags", "Flags", 100, 12, FieldType::UInt, Base::Hex, 16},
    {"tcp.flags.cwr", "Congestion Window Reduced", 104, 1, FieldType::Bool},
    {"tcp.flags.ece", "ECN-Echo", 105, 1, FieldType::Bool},
    {"tcp.flags.urg", "Urgent", 106, 1, FieldType::Bool},
    {"tcp.flags.ack", "Acknowledgment", 107, 1, FieldType::Bool},
    {"tcp.flags.push", "Push", 108, 1, FieldType::Bool},
    {"tcp.flags.reset", "Reset", 109, 1, FieldType::Bool},
    {"tcp.flags.syn", "Syn", 110, 1, FieldType::Bool},
    {"tcp.flags.fin", "Fin", 111, 1, FieldType::Bool},
    {"tcp.window_size_value", "Window", 112, 16},
    {"tcp.checksum", "Checksum", 128, 16, FieldType::UInt, Base::Hex, 16},
    {"tcp.urgent_pointer", "Urgent Pointer", 144, 16},
};

}  // namespace

const HeaderDef kEthernetHeader{"eth", "Ethernet II", "ETH", 14, kEthernetFields};
const HeaderDef kVlanHeader{"vlan", "802.1Q Virtual LAN", "VLAN", 4, kVlanFields};
const HeaderDef kIeee8021adHeader{"ieee8021ad", "IEEE 802.1ad", "802.1ad", 4, kIeee8021adFields};
const HeaderDef kIpv4Header{"ip", "Internet Protocol Version 4", "IPv4", 20, kIpv4Fields};
const HeaderDef kIpv6Header{"ipv6", "Internet Protocol Version 6", "IPv6", 40, kIpv6Fields};
const HeaderDef kIpv6HopOptsHeader{"ipv6.hopopts", "IPv6 Hop-by-Hop Option", "HBH", 2,
                                   kHopOptsFields};
const HeaderDef kIpv6DstOptsHeader{"ipv6.dstopts", "Destination Options for IPv6", "DST", 2,
                                   kDstOptsFields};
const HeaderDef kIpv6RoutingHeader{"ipv6.routing", "Routing Header for IPv6", "RH", 4,
                                   kRoutingFields};
const HeaderDef kIpv6FragmentHeader{"ipv6.fraghdr", "Fragment Header for IPv6", "FH", 8,
                                    kFragmentFields};
const HeaderDef kIpv6OptionHeader{"ipv6.opt", "IPv6 Option", "OPT", 2, kIpv6OptionFields};
const HeaderDef kUdpHeader{"udp", "User Datagram Protocol", "UDP", 8, kUdpFields};
const HeaderDef kTcpHeader{"tcp", "Transmission Control Protocol", "TCP", 20, kTcpFields};

std::uint16_t onesComplementSum(std::span<const std::uint8_t> bytes, std::uint32_t initial) {
  std::uint32_t sum = initial;
  std::size_t i = 0;
  for (; i + 1 < bytes.size(); i += 2)
    sum += (std::uint32_t{bytes[i]} << 8) | bytes[i + 1];
  if (i < bytes.size()) sum += std::uint32_t{bytes[i]} << 8;
  while (sum >> 16)
    sum = (sum & 0xffff) + (sum >> 16);
  return static_cast<std::uint16_t>(sum);
}

}  // namespace rdmascope::packets
