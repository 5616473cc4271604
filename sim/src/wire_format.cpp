#include "wire_format.h"

#include <cstring>

#include "opcodes.h"
#include "rdmascope/packets/ib_builder.h"
#include "rdmascope/packets/ib_crc.h"
#include "rdmascope/packets/net_headers.h"

namespace rdmascope::sim {
namespace {

void put16(std::uint8_t* p, std::uint32_t v) {
  p[0] = static_cast<std::uint8_t>(v >> 8);
  p[1] = static_cast<std::uint8_t>(v);
}
void put32(std::uint8_t* p, std::uint32_t v) {
  put16(p, v >> 16);
  put16(p + 2, v);
}
std::uint32_t get16(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 8) | p[1];
}
std::uint32_t get32(const std::uint8_t* p) {
  return (get16(p) << 16) | get16(p + 2);
}

constexpr std::size_t kEth = 14, kIpv4 = 20, kIpv6 = 40, kUdp = 8, kLrhBytes = 8;
constexpr std::uint8_t kGrhNextHeaderIba = 0x1b;

/// Writes BTH and extension headers at `p` through the packets module's IB encoders; returns
/// their length.
std::size_t writeTransport(const PacketDesc& k, std::uint8_t* p) {
  const OpcodeInfo& info = opcodeInfo(k.opcode);
  packets::Bth bth;
  bth.opcode = k.opcode;
  bth.solicitedEvent = k.solicited;
  bth.migReq = k.migReq;
  bth.padCount = k.pad & 3;
  bth.pkey = k.pkey;
  bth.fecn = k.fecn;
  bth.becn = k.becn;
  bth.destQp = k.destQp & 0xffffff;
  bth.ackReq = k.ackReq;
  bth.psn = k.psn & 0xffffff;
  packets::encodeBth(bth, {p, kBthBytes});
  std::size_t o = kBthBytes;
  const std::uint32_t m = info.mask;
  if (m & kDeth) {
    packets::encodeDeth({k.qkey, k.srcQp & 0xffffff}, {p + o, kDethBytes});
    o += kDethBytes;
  }
  if (m & kReth) {
    packets::encodeReth({k.va, k.rkey, k.dmaLen}, {p + o, kRethBytes});
    o += kRethBytes;
  }
  if (m & kAtmeth) {
    packets::encodeAtomicEth({k.va, k.rkey, k.swapAdd, k.compare}, {p + o, kAtmethBytes});
    o += kAtmethBytes;
  }
  if (m & kAeth) {
    packets::encodeAeth({k.syndrome, k.msn & 0xffffff}, {p + o, kAethBytes});
    o += kAethBytes;
  }
  if (m & kAtmack) {
    packets::encodeAtomicAckEth({k.origData}, {p + o, kAtmackBytes});
    o += kAtmackBytes;
  }
  if (m & kImmdt) {
    put32(p + o, k.imm);
    o += kImmdtBytes;
  }
  if (m & kIeth) {
    put32(p + o, k.ieth);
    o += kIethBytes;
  }
  return o;
}

bool readTransport(const std::uint8_t* p, std::size_t avail, PacketDesc& k) {
  if (avail < kBthBytes) return false;
  const OpcodeInfo& info = opcodeInfo(p[0]);
  if (info.mask == 0 || avail < info.length) return false;
  const packets::Bth bth = packets::decodeBth({p, kBthBytes});
  k.opcode = bth.opcode;
  k.solicited = bth.solicitedEvent;
  k.migReq = bth.migReq;
  k.pad = bth.padCount;
  k.pkey = bth.pkey;
  k.fecn = bth.fecn;
  k.becn = bth.becn;
  k.destQp = bth.destQp;
  k.ackReq = bth.ackReq;
  k.psn = bth.psn;
  std::size_t o = kBthBytes;
  const std::uint32_t m = info.mask;
  if (m & kDeth) {
    const packets::Deth d = packets::decodeDeth({p + o, kDethBytes});
    k.qkey = d.qkey;
    k.srcQp = d.srcQp;
    o += kDethBytes;
  }
  if (m & kReth) {
    const packets::Reth r = packets::decodeReth({p + o, kRethBytes});
    k.va = r.va;
    k.rkey = r.rkey;
    k.dmaLen = r.dmaLength;
    o += kRethBytes;
  }
  if (m & kAtmeth) {
    const packets::AtomicEth a = packets::decodeAtomicEth({p + o, kAtmethBytes});
    k.va = a.va;
    k.rkey = a.rkey;
    k.swapAdd = a.swapAdd;
    k.compare = a.compare;
    o += kAtmethBytes;
  }
  if (m & kAeth) {
    const packets::Aeth a = packets::decodeAeth({p + o, kAethBytes});
    k.syndrome = a.syndrome;
    k.msn = a.msn;
    o += kAethBytes;
  }
  if (m & kAtmack) {
    k.origData = packets::decodeAtomicAckEth({p + o, kAtmackBytes}).origRemoteData;
    o += kAtmackBytes;
  }
  if (m & kImmdt) {
    k.imm = get32(p + o);
    o += kImmdtBytes;
  }
  if (m & kIeth) {
    k.ieth = get32(p + o);
    o += kIethBytes;
  }
  return true;
}

void writeEthernet(std::uint8_t* p, const WireAddress& a, std::uint16_t type) {
  std::memcpy(p, a.dstMac.data(), 6);
  std::memcpy(p + 6, a.srcMac.data(), 6);
  put16(p + 12, type);
}

void writeGrhLike(std::uint8_t* p, const WireAddress& a, std::uint32_t payloadLength,
                  std::uint8_t nextHeader) {
  packets::Grh g;
  g.trafficClass = a.trafficClass;
  g.flowLabel = a.flowLabel & 0xfffff;
  g.payLen = static_cast<std::uint16_t>(payloadLength);
  g.nextHeader = nextHeader;
  g.hopLimit = a.hopLimit;
  g.sgid = a.srcGid;
  g.dgid = a.dstGid;
  packets::encodeGrh(g, {p, 40});
}

std::uint32_t ipv4Of(const Gid& g) {
  return get32(g.data() + 12);
}

/// Byte offsets in a frame of one format.
struct Layout {
  std::size_t l3 = 0;         ///< start of IP header / GRH / LRH
  std::size_t l3Len = 0;      ///< IP header/GRH length (LRH for IB)
  std::size_t transport = 0;  ///< start of BTH
  bool udp = false;
  bool ipv4 = false;
  bool lrh = false;
};

Layout layoutOf(WireFormat f) {
  switch (f) {
    case WireFormat::RoceV2Ipv4:
      return {kEth, kIpv4, kEth + kIpv4 + kUdp, true, true, false};
    case WireFormat::RoceV2Ipv6:
      return {kEth, kIpv6, kEth + kIpv6 + kUdp, true, false, false};
    case WireFormat::RoceV1:
      return {kEth, kIpv6, kEth + kIpv6, false, false, false};
    case WireFormat::InfiniBand:
      return {0, kLrhBytes, kLrhBytes, false, false, true};
  }
  return {};
}

/// ICRC over the headers [0, headerEnd), the payload and the pad, by the packet layer's rule.
std::uint32_t computeIcrc(const Layout& lay, const std::uint8_t* hdr, std::size_t headerEnd,
                          const std::uint8_t* payload, std::size_t payloadLen, std::size_t pad) {
  using Kind = packets::IcrcLayout::Kind;
  packets::IcrcLayout l;
  l.kind = lay.lrh ? Kind::NativeLocal
                   : (lay.ipv4 ? Kind::RoceV2Ipv4 : (lay.udp ? Kind::RoceV2Ipv6 : Kind::RoceV1));
  l.start = lay.l3;
  l.ipHeaderLength = lay.l3Len;
  l.bth = lay.transport;
  l.icrc = headerEnd;
  static constexpr std::uint8_t kZeros[4] = {};
  return packets::computeIcrc({hdr, headerEnd}, l, {{payload, payloadLen}, {kZeros, pad}});
}

void storeLe32(std::uint8_t* p, std::uint32_t v) {
  p[0] = static_cast<std::uint8_t>(v);
  p[1] = static_cast<std::uint8_t>(v >> 8);
  p[2] = static_cast<std::uint8_t>(v >> 16);
  p[3] = static_cast<std::uint8_t>(v >> 24);
}
std::uint32_t loadLe32(const std::uint8_t* p) {
  return std::uint32_t{p[0]} | (std::uint32_t{p[1]} << 8) | (std::uint32_t{p[2]} << 16) |
         (std::uint32_t{p[3]} << 24);
}

/// VCRC of native IB: CRC-16 with polynomial 0x100B over LRH..ICRC (IBTA 7.8.2).
std::uint16_t vcrc16(const std::uint8_t* a, std::size_t an, const std::uint8_t* b, std::size_t bn,
                     std::size_t zeros, const std::uint8_t* c, std::size_t cn) {
  std::uint16_t crc = 0xffff;
  auto feed = [&crc](std::uint8_t byte) {
    for (int i = 0; i < 8; ++i) {
      const bool bit = ((crc & 1) ^ ((byte >> i) & 1)) != 0;
      crc = static_cast<std::uint16_t>(crc >> 1);
      if (bit) crc ^= 0xd008;  // 0x100B bit-reversed
    }
  };
  for (std::size_t i = 0; i < an; ++i)
    feed(a[i]);
  for (std::size_t i = 0; i < bn; ++i)
    feed(b[i]);
  for (std::size_t i = 0; i < zeros; ++i)
    feed(0);
  for (std::size_t i = 0; i < cn; ++i)
    feed(c[i]);
  return static_cast<std::uint16_t>(~crc);
}

}  // namespace

std::string_view toString(ParseStatus s) {
  switch (s) {
    case ParseStatus::Ok:
      return "ok";
    case ParseStatus::Truncated:
      return "truncated";
    case ParseStatus::NotRdma:
      return "not an RDMA frame";
    case ParseStatus::BadHeader:
      return "malformed header";
    case ParseStatus::BadIcrc:
      return "ICRC mismatch";
  }
  return "unknown";
}

Gid ipv4MappedGid(std::uint32_t ipv4) {
  Gid g{};
  g[10] = g[11] = 0xff;
  put32(g.data() + 12, ipv4);
  return g;
}

void buildFrame(WireFormat format, const WireAddress& a, const PacketDesc& k, Frame& f) {
  const Layout lay = layoutOf(format);
  std::uint8_t* p = f.hdr.data();
  const std::size_t tlen = writeTransport(k, p + lay.transport);
  const std::size_t headerEnd = lay.transport + tlen;
  f.hdrLen = static_cast<std::uint16_t>(headerEnd);
  f.payload = k.payload;
  f.payloadLen = k.payloadLen;
  f.pad = k.pad;
  const std::uint32_t l4 = static_cast<std::uint32_t>(tlen + k.payloadLen + k.pad + 4);
  switch (format) {
    case WireFormat::RoceV2Ipv4: {
      writeEthernet(p, a, packets::kEtherTypeIpv4);
      std::uint8_t* ip = p + kEth;
      ip[0] = 0x45;
      ip[1] = a.trafficClass;
      put16(ip + 2, static_cast<std::uint32_t>(kIpv4 + kUdp + l4));
      put16(ip + 4, a.ipId);
      put16(ip + 6, 0x4000);  // DF
      ip[8] = a.hopLimit;
      ip[9] = packets::kIpProtoUdp;
      put16(ip + 10, 0);
      put32(ip + 12, ipv4Of(a.srcGid));
      put32(ip + 16, ipv4Of(a.dstGid));
      put16(ip + 10, static_cast<std::uint16_t>(~packets::onesComplementSum({ip, kIpv4})));
      std::uint8_t* udp = ip + kIpv4;
      put16(udp, a.udpSport);
      put16(udp + 2, packets::kRoceV2Port);
      put16(udp + 4, static_cast<std::uint32_t>(kUdp + l4));
      put16(udp + 6, 0);
      break;
    }
    case WireFormat::RoceV2Ipv6: {
      writeEthernet(p, a, packets::kEtherTypeIpv6);
      writeGrhLike(p + kEth, a, static_cast<std::uint32_t>(kUdp + l4), packets::kIpProtoUdp);
      std::uint8_t* udp = p + kEth + kIpv6;
      put16(udp, a.udpSport);
      put16(udp + 2, packets::kRoceV2Port);
      put16(udp + 4, static_cast<std::uint32_t>(kUdp + l4));
      put16(udp + 6, 0);
      break;
    }
    case WireFormat::RoceV1:
      writeEthernet(p, a, packets::kEtherTypeRoceV1);
      writeGrhLike(p + kEth, a, l4, kGrhNextHeaderIba);
      break;
    case WireFormat::InfiniBand: {
      // VL 0, LNH 2 (IBA local: BTH follows); PktLen in 4-byte words LRH..ICRC.
      packets::Lrh lrh;
      lrh.sl = a.sl & 0xf;
      lrh.lnh = 2;
      lrh.dlid = a.dlid;
      lrh.pktLen = static_cast<std::uint16_t>(((kLrhBytes + l4) / 4) & 0x7ff);
      lrh.slid = a.slid;
      packets::encodeLrh(lrh, {p, kLrhBytes});
      break;
    }
  }
  const std::uint32_t icrc = computeIcrc(lay, p, headerEnd, k.payload, k.payloadLen, k.pad);
  storeLe32(f.trailer.data(), icrc);
  f.trailerLen = 4;
  if (format == WireFormat::InfiniBand) {
    const std::uint16_t v =
        vcrc16(p, headerEnd, k.payload, k.payloadLen, k.pad, f.trailer.data(), 4);
    f.trailer[4] = static_cast<std::uint8_t>(v);  // VCRC is sent least significant byte first
    f.trailer[5] = static_cast<std::uint8_t>(v >> 8);
    f.trailerLen = 6;
  }
  f.psn = k.psn;
  f.opcode = k.opcode;
}

ParseStatus parseFrame(WireFormat format, const Frame& f, ParsedPacket& out,
                       std::vector<std::uint8_t>& scratch) {
  const Layout lay = layoutOf(format);
  const std::size_t total = f.size();
  const std::size_t trailerLen = lay.lrh ? 6 : 4;
  // Header bytes contiguous in f.hdr; a frame whose header length changed (corruption) is
  // flattened first.
  const std::uint8_t* h = f.hdr.data();
  std::size_t havail = f.hdrLen;
  bool flat = false;
  if (f.hdrLen == 0 && f.trailerLen == 0 && f.pad == 0) {  // already one run of bytes
    h = f.payload;
    havail = f.payloadLen;
    flat = true;
  } else if (f.trailerLen != trailerLen) {
    flat = true;
  }
  auto flatten = [&] {
    f.flatten(scratch);
    h = scratch.data();
    havail = scratch.size();
    flat = true;
  };
  if (flat && h != f.payload) flatten();
  if (total < lay.transport + kBthBytes + trailerLen) return ParseStatus::Truncated;
  if (havail < lay.transport + kBthBytes) flatten();

  WireAddress& a = out.addr;
  out.hasGrh = false;
  out.grh.fill(0);
  switch (format) {
    case WireFormat::RoceV2Ipv4:
    case WireFormat::RoceV2Ipv6:
    case WireFormat::RoceV1: {
      std::memcpy(a.dstMac.data(), h, 6);
      std::memcpy(a.srcMac.data(), h + 6, 6);
      const std::uint32_t type = get16(h + 12);
      const std::uint8_t* ip = h + kEth;
      if (format == WireFormat::RoceV2Ipv4) {
        if (type != packets::kEtherTypeIpv4 || ip[0] != 0x45 || ip[9] != packets::kIpProtoUdp)
          return ParseStatus::NotRdma;
        if (get16(ip + 2) != total - kEth) return ParseStatus::BadHeader;
        if (static_cast<std::uint16_t>(~packets::onesComplementSum({ip, kIpv4})) != 0)
          return ParseStatus::BadHeader;
        a.srcGid = ipv4MappedGid(get32(ip + 12));
        a.dstGid = ipv4MappedGid(get32(ip + 16));
        a.trafficClass = ip[1];
        a.hopLimit = ip[8];
        std::memcpy(out.grh.data() + 20, ip, kIpv4);
      } else {
        const std::uint32_t want =
            format == WireFormat::RoceV1 ? packets::kEtherTypeRoceV1 : packets::kEtherTypeIpv6;
        if (type != want || (ip[0] >> 4) != 6) return ParseStatus::NotRdma;
        const std::uint8_t nh =
            format == WireFormat::RoceV1 ? kGrhNextHeaderIba : packets::kIpProtoUdp;
        if (ip[6] != nh) return ParseStatus::NotRdma;
        if (get16(ip + 4) != total - kEth - kIpv6) return ParseStatus::BadHeader;
        const std::uint32_t w = get32(ip);
        a.trafficClass = static_cast<std::uint8_t>(w >> 20);
        a.flowLabel = w & 0xfffff;
        a.hopLimit = ip[7];
        std::memcpy(a.srcGid.data(), ip + 8, 16);
        std::memcpy(a.dstGid.data(), ip + 24, 16);
        std::memcpy(out.grh.data(), ip, kIpv6);
      }
      out.hasGrh = true;
      if (lay.udp) {
        const std::uint8_t* udp = h + lay.transport - kUdp;
        if (get16(udp + 2) != packets::kRoceV2Port) return ParseStatus::NotRdma;
        if (get16(udp + 4) != total - (lay.transport - kUdp)) return ParseStatus::BadHeader;
        a.udpSport = static_cast<std::uint16_t>(get16(udp));
      }
      break;
    }
    case WireFormat::InfiniBand: {
      if ((h[1] & 3) != 2) return ParseStatus::NotRdma;
      a.sl = h[1] >> 4;
      a.dlid = static_cast<std::uint16_t>(get16(h + 2));
      a.slid = static_cast<std::uint16_t>(get16(h + 6));
      if ((get16(h + 4) & 0x7ff) * 4u != total - 2) return ParseStatus::BadHeader;
      break;
    }
  }

  PacketDesc& k = out.pkt;
  k = PacketDesc{};
  if (!readTransport(h + lay.transport, havail - lay.transport, k)) {
    if (flat) return ParseStatus::BadHeader;
    flatten();
    if (!readTransport(h + lay.transport, havail - lay.transport, k)) {
      return ParseStatus::BadHeader;
    }
  }
  const std::size_t headerEnd = lay.transport + opcodeInfo(k.opcode).length;
  if (total < headerEnd + k.pad + trailerLen) return ParseStatus::Truncated;
  if (!flat && (headerEnd != f.hdrLen || k.pad != f.pad)) {
    flatten();
    readTransport(h + lay.transport, havail - lay.transport, k);
  }
  const std::size_t payloadLen = total - headerEnd - k.pad - trailerLen;
  const std::uint8_t* payload;
  const std::uint8_t* trailer;
  if (flat) {
    payload = h + headerEnd;
    trailer = h + total - trailerLen;
  } else {
    payload = f.payload;
    trailer = f.trailer.data();
  }
  if (!(opcodeInfo(k.opcode).mask & kPayload) && payloadLen != 0) return ParseStatus::BadHeader;
  k.payload = payload;
  k.payloadLen = static_cast<std::uint32_t>(payloadLen);
  // Only a frame the link may have corrupted needs the check: any other holds exactly the bytes
  // buildFrame computed its ICRC over, and a second CRC pass would only repeat that result.
  if (!f.mayBeCorrupt && !flat) return ParseStatus::Ok;
  const std::uint32_t icrc = flat ? computeIcrc(lay, h, headerEnd, payload, payloadLen + k.pad, 0)
                                  : computeIcrc(lay, h, headerEnd, payload, payloadLen, k.pad);
  if (icrc != loadLe32(trailer)) return ParseStatus::BadIcrc;
  if (lay.lrh) {
    const std::uint16_t v = flat ? vcrc16(h, total - 2, nullptr, 0, 0, nullptr, 0)
                                 : vcrc16(h, headerEnd, payload, payloadLen, k.pad, trailer, 4);
    if ((trailer[4] | (trailer[5] << 8)) != v) return ParseStatus::BadIcrc;
  }
  return ParseStatus::Ok;
}

}  // namespace rdmascope::sim
