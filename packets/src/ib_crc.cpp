#include "rdmascope/packets/ib_crc.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "rdmascope/packets/crc.h"
#include "rdmascope/packets/net_headers.h"

namespace rdmascope::packets {
namespace {

constexpr std::array<std::uint16_t, 256> kVcrcTable = [] {
  std::array<std::uint16_t, 256> t{};
  for (unsigned n = 0; n < 256; ++n) {
    std::uint16_t c = static_cast<std::uint16_t>(n);
    for (int k = 0; k < 8; ++k)
      c = (c & 1) ? static_cast<std::uint16_t>(0xd008 ^ (c >> 1)) : c >> 1;
    t[n] = c;
  }
  return t;
}();

std::uint16_t be16(std::span<const std::uint8_t> f, std::size_t at) {
  return static_cast<std::uint16_t>((f[at] << 8) | f[at + 1]);
}

void maskGrhLike(std::uint8_t* h) {
  h[0] |= 0x0f;
  h[1] = h[2] = h[3] = 0xff;
  h[7] = 0xff;
}

bool locateNative(std::span<const std::uint8_t> f, std::size_t at, IbCrcLocation& out) {
  if (f.size() < at + 8) return false;
  const unsigned lnh = f[at + 1] & 3;
  const std::size_t words = be16(f, at + 4) & 0x7ff;
  const std::size_t end = at + words * 4;
  std::size_t bth = at + 8;
  if (lnh == 3) {
    if (f.size() < at + 48 || f[at + 8 + 6] != 0x1b) return false;
    bth = at + 48;
  } else if (lnh != 2) {
    return false;
  }
  if (end + 2 > f.size() || end < bth + 12 + 4) return false;
  out.layout.kind = lnh == 3 ? IcrcLayout::Kind::NativeGlobal : IcrcLayout::Kind::NativeLocal;
  out.layout.start = at;
  out.layout.bth = bth;
  out.layout.icrc = end - 4;
  out.hasVcrc = true;
  return true;
}

bool locateUdp(std::span<const std::uint8_t> f, std::size_t udp, std::size_t ipEnd,
               const DecodeOptions& o, IbCrcLocation& out) {
  if (ipEnd < udp + 8 || be16(f, udp + 2) != o.roceV2Port) return false;
  const std::size_t len = be16(f, udp + 4);
  if (len < 8 + 12 + 4 || udp + len > ipEnd) return false;
  out.layout.bth = udp + 8;
  out.layout.icrc = udp + len - 4;
  return true;
}

bool locateIp(std::span<const std::uint8_t> f, std::size_t ip, const DecodeOptions& o,
              IbCrcLocation& out) {
  if (f.size() < ip + 1) return false;
  const unsigned version = f[ip] >> 4;
  if (version == 4) {
    if (f.size() < ip + 20) return false;
    const std::size_t ihl = (f[ip] & 15) * 4u;
    const std::size_t total = be16(f, ip + 2);
    if (ihl < 20 || total < ihl || ip + total > f.size() || f[ip + 9] != kIpProtoUdp ||
        (be16(f, ip + 6) & 0x3fff) != 0)
      return false;
    out.layout.kind = IcrcLayout::Kind::RoceV2Ipv4;
    out.layout.start = ip;
    out.layout.ipHeaderLength = ihl;
    return locateUdp(f, ip + ihl, ip + total, o, out);
  }
  if (version == 6) {
    if (f.size() < ip + 40) return false;
    const std::size_t end = ip + 40 + be16(f, ip + 4);
    if (end > f.size()) return false;
    std::size_t at = ip + 40;
    std::uint8_t next = f[ip + 6];
    // The extension headers the decoder follows; each is at least 8 bytes, so this ends.
    while (next != kIpProtoUdp) {
      if (next == kIpv6HopByHop || next == kIpv6DestinationOptions || next == kIpv6Routing) {
        if (end < at + 8 || end < at + (f[at + 1] + 1u) * 8) return false;
        next = f[at];
        at += (f[at + 1] + 1u) * 8;
      } else if (next == kIpv6Fragment) {
        if (end < at + 8 || (be16(f, at + 2) & 0xfff9) != 0) return false;  // not atomic
        next = f[at];
        at += 8;
      } else {
        return false;
      }
    }
    out.layout.kind = IcrcLayout::Kind::RoceV2Ipv6;
    out.layout.start = ip;
    out.layout.ipv6Extensions = at - ip - 40;
    return locateUdp(f, at, end, o, out);
  }
  return false;
}

bool locateEthernet(std::span<const std::uint8_t> f, std::size_t at, const DecodeOptions& o,
                    IbCrcLocation& out) {
  if (f.size() < at + 14) return false;
  std::uint16_t type = be16(f, at + 12);
  std::size_t off = at + 14;
  while (isVlanTpid(type)) {
    if (f.size() < off + 4) return false;
    type = be16(f, off + 2);
    off += 4;
  }
  // The EtherType fixes the IP version, as in the decoder (an IPv4 header behind 0x86dd is no
  // RoCE packet).
  if (type == kEtherTypeIpv4 || type == kEtherTypeIpv6) {
    const unsigned version = type == kEtherTypeIpv4 ? 4 : 6;
    return f.size() > off && (f[off] >> 4) == version && locateIp(f, off, o, out);
  }
  if (type != kEtherTypeRoceV1) return false;
  if (f.size() < off + 40 || f[off + 6] != 0x1b) return false;
  const std::size_t end = off + 40 + be16(f, off + 4);
  if (end > f.size() || end < off + 40 + 12 + 4) return false;
  out.layout.kind = IcrcLayout::Kind::RoceV1;
  out.layout.start = off;
  out.layout.bth = off + 40;
  out.layout.icrc = end - 4;
  return true;
}

}  // namespace

std::uint32_t computeIcrc(std::span<const std::uint8_t> frame, const IcrcLayout& l) {
  return computeIcrc(frame.first(std::min(l.icrc, frame.size())), l, {});
}

std::uint32_t computeIcrc(std::span<const std::uint8_t> frame, const IcrcLayout& l,
                          std::initializer_list<std::span<const std::uint8_t>> tail) {
  // The masked copy holds at most 8 ones + 60 (IPv4 with options) + 8 (UDP) + 12 (BTH).
  std::array<std::uint8_t, 96> buf;
  std::size_t n = 0;
  const bool onesPrefix = l.kind != IcrcLayout::Kind::NativeLocal;
  if (onesPrefix) {
    std::memset(buf.data(), 0xff, 8);
    n = 8;
  }
  std::size_t from = l.start;
  if (l.kind == IcrcLayout::Kind::NativeGlobal) from = l.start + 8;
  const std::size_t skip = l.kind == IcrcLayout::Kind::RoceV2Ipv6 ? l.ipv6Extensions : 0;
  const std::size_t headLen = l.bth + 12 - from - skip;
  if (headLen + n > buf.size()) return 0;
  if (skip) {
    std::memcpy(buf.data() + n, frame.data() + from, 40);
    std::memcpy(buf.data() + n + 40, frame.data() + from + 40 + skip, headLen - 40);
  } else {
    std::memcpy(buf.data() + n, frame.data() + from, headLen);
  }
  std::uint8_t* h = buf.data() + n;
  switch (l.kind) {
    case IcrcLayout::Kind::RoceV2Ipv4:
      h[1] = 0xff;
      h[8] = 0xff;
      h[10] = h[11] = 0xff;
      h[l.ipHeaderLength + 6] = h[l.ipHeaderLength + 7] = 0xff;
      break;
    case IcrcLayout::Kind::RoceV2Ipv6:
      maskGrhLike(h);
      h[40 + 6] = h[40 + 7] = 0xff;
      break;
    case IcrcLayout::Kind::RoceV1:
    case IcrcLayout::Kind::NativeGlobal:
      maskGrhLike(h);
      break;
    case IcrcLayout::Kind::NativeLocal:
      h[0] |= 0xf0;
      break;
  }
  buf[n + headLen - 12 + 4] = 0xff;  // BTH byte 4: FECN, BECN, reserved
  std::uint32_t crc = crc32(std::span<const std::uint8_t>(buf.data(), n + headLen));
  const std::size_t headEnd = std::min(l.icrc, frame.size());
  if (headEnd > l.bth + 12) crc = crc32(frame.subspan(l.bth + 12, headEnd - l.bth - 12), crc);
  for (const auto& piece : tail)
    if (!piece.empty()) crc = crc32(piece, crc);
  return crc;
}

std::uint16_t computeVcrc(std::span<const std::uint8_t> bytes) {
  std::uint16_t c = 0xffff;
  for (const auto b : bytes)
    c = static_cast<std::uint16_t>(kVcrcTable[(c ^ b) & 0xff] ^ (c >> 8));
  return static_cast<std::uint16_t>(c ^ 0xffff);
}

bool locateIbPacket(std::span<const std::uint8_t> f, LinkType link, const DecodeOptions& o,
                    IbCrcLocation& out) {
  out = {};
  switch (link) {
    case LinkType::Ethernet:
      return locateEthernet(f, 0, o, out);
    case LinkType::Raw:
      return locateIp(f, 0, o, out);
    case LinkType::Ipv4:  // the link fixes the version, as in the decoder
      return !f.empty() && (f[0] >> 4) == 4 && locateIp(f, 0, o, out);
    case LinkType::Ipv6:
      return !f.empty() && (f[0] >> 4) == 6 && locateIp(f, 0, o, out);
    case LinkType::InfiniBand:
      return locateNative(f, 0, out);
    case LinkType::Erf: {
      if (f.size() < 16) return false;
      std::size_t at = 16;
      bool more = f[8] & 0x80;
      while (more) {
        if (f.size() < at + 8) return false;
        more = f[at] & 0x80;
        at += 8;
      }
      const unsigned type = f[8] & 0x7f;
      const std::size_t wlen = be16(f, 14);
      if (type == 21) {
        const auto rec = f.first(std::min(f.size(), at + wlen));
        return locateNative(rec, at, out);
      }
      if (type == 2) return locateEthernet(f, at + 2, o, out);
      return false;
    }
  }
  return false;
}

CrcStatus verifyFrameCrc(std::span<const std::uint8_t> frame, LinkType link,
                         const DecodeOptions& options) {
  IbCrcLocation loc;
  if (!locateIbPacket(frame, link, options, loc)) return CrcStatus::Absent;
  const std::size_t at = loc.layout.icrc;
  const std::uint32_t wire = std::uint32_t{frame[at]} | (std::uint32_t{frame[at + 1]} << 8) |
                             (std::uint32_t{frame[at + 2]} << 16) |
                             (std::uint32_t{frame[at + 3]} << 24);
  if (computeIcrc(frame, loc.layout) != wire) return CrcStatus::Bad;
  if (loc.hasVcrc) {
    const std::uint16_t vwire = static_cast<std::uint16_t>(frame[at + 4] | (frame[at + 5] << 8));
    const auto covered = frame.subspan(loc.layout.start, at + 4 - loc.layout.start);
    if (computeVcrc(covered) != vwire) return CrcStatus::Bad;
  }
  return CrcStatus::Good;
}

}  // namespace rdmascope::packets
