#include "rdmascope/packets/frame_crc_check.h"

#include <cstring>

#include "rdmascope/packets/crc.h"
#include "rdmascope/packets/net_headers.h"

namespace rdmascope::packets {
namespace {

constexpr std::size_t kBthLength = 12;
constexpr std::size_t kIcrcLength = 4;

std::uint16_t be16(const std::uint8_t* p) {
  return static_cast<std::uint16_t>((p[0] << 8) | p[1]);
}

std::optional<CrcStatus> checkIp(std::span<const std::uint8_t> f, std::size_t at,
                                 const DecodeOptions& options, bool roceV1) {
  if (f.size() < at + 1) return std::nullopt;
  const std::uint8_t* ip = f.data() + at;
  std::size_t hlen, end;
  std::uint8_t proto;
  if (roceV1 || (ip[0] >> 4) == 6) {
    if (f.size() < at + 40) return std::nullopt;
    hlen = 40;
    end = at + 40 + be16(ip + 4);
    proto = ip[6];
  } else if ((ip[0] >> 4) == 4) {
    hlen = (ip[0] & 0x0f) * 4u;
    if (hlen < 20 || f.size() < at + hlen) return std::nullopt;
    end = at + be16(ip + 2);
    if ((be16(ip + 6) & 0x3fff) != 0) return std::nullopt;  // fragments: the decoder says so
    proto = ip[9];
  } else {
    return std::nullopt;
  }
  if (end > f.size() || end < at + hlen) return std::nullopt;
  std::size_t bth = at + hlen;
  if (!roceV1) {
    if (proto == kIpProtoTcp) return std::nullopt;  // maybe iWARP: stateful decoding
    if (proto != kIpProtoUdp) return CrcStatus::Absent;
    if (end < bth + 8) return std::nullopt;
    const std::uint8_t* udp = f.data() + bth;
    if (be16(udp + 2) != options.roceV2Port) return CrcStatus::Absent;
    const std::size_t udpEnd = at + hlen + be16(udp + 4);
    if (udpEnd > end || udpEnd < bth + 8) return std::nullopt;
    end = udpEnd;
    bth += 8;
  } else if (proto != 0x1b) {
    return std::nullopt;  // GRH next header other than IBA transport
  }
  if (end < bth + kBthLength + kIcrcLength) return std::nullopt;
  const auto network = f.subspan(at, end - at);
  const std::uint8_t* w = f.data() + end - kIcrcLength;  // stored little-endian
  const std::uint32_t wire = std::uint32_t{w[0]} | (std::uint32_t{w[1]} << 8) |
                             (std::uint32_t{w[2]} << 16) | (std::uint32_t{w[3]} << 24);
  return roceIcrc(network, hlen, !roceV1) == wire ? CrcStatus::Good : CrcStatus::Bad;
}

}  // namespace

std::uint32_t roceIcrc(std::span<const std::uint8_t> network, std::size_t headerLength, bool udp) {
  const std::size_t fixed = headerLength + (udp ? 8 : 0) + kBthLength;
  if (headerLength > 60 || network.size() < fixed + kIcrcLength) return 0;
  // The masked copy of the headers: at most 8 + 60 + 8 + 12 bytes.
  std::uint8_t buf[8 + 60 + 8 + kBthLength];
  std::memset(buf, 0xff, 8);
  std::memcpy(buf + 8, network.data(), fixed);
  std::uint8_t* ip = buf + 8;
  if (!udp || (network[0] >> 4) == 6) {  // IPv6 or GRH: traffic class, flow label, hop limit
    ip[0] |= 0x0f;
    ip[1] = ip[2] = ip[3] = 0xff;
    ip[7] = 0xff;
  } else {  // IPv4: TOS, TTL, header checksum
    ip[1] = 0xff;
    ip[8] = 0xff;
    ip[10] = ip[11] = 0xff;
  }
  if (udp) ip[headerLength + 6] = ip[headerLength + 7] = 0xff;
  ip[headerLength + (udp ? 8 : 0) + 4] = 0xff;
  std::uint32_t crc = crc32({buf, 8 + fixed});
  return crc32(network.subspan(fixed, network.size() - fixed - kIcrcLength), crc);
}

std::optional<CrcStatus> checkFrameCrcFast(std::span<const std::uint8_t> f, LinkType link,
                                           const DecodeOptions& options) {
  switch (link) {
    case LinkType::Ethernet: {
      if (f.size() < 14) return std::nullopt;
      std::size_t at = 12;
      std::uint16_t type = be16(f.data() + at);
      while (type == kEtherTypeVlan) {
        at += 4;
        if (f.size() < at + 2) return std::nullopt;
        type = be16(f.data() + at);
      }
      at += 2;
      if (type == kEtherTypeIpv4 || type == kEtherTypeIpv6) return checkIp(f, at, options, false);
      if (type == kEtherTypeRoceV1) return checkIp(f, at, options, true);
      return CrcStatus::Absent;
    }
    case LinkType::Raw:
    case LinkType::Ipv4:
    case LinkType::Ipv6:
      return checkIp(f, 0, options, false);
    default:
      return std::nullopt;
  }
}

}  // namespace rdmascope::packets
