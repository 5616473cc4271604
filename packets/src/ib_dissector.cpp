// InfiniBand transport over RoCEv2, RoCEv1, native IB and ERF records, driven by the opcode
// table of ib_opcodes.h and the field tables of ib_headers.h.
#include <algorithm>
#include <cstdio>

#include "dissectors.h"
#include "rdmascope/packets/ib_crc.h"
#include "rdmascope/packets/ib_headers.h"
#include "rdmascope/packets/ib_opcodes.h"
#include "rdmascope/packets/net_headers.h"

namespace rdmascope::packets::detail {
namespace {

constexpr std::size_t npos = DecodeContext::npos;

std::uint16_t be16(std::span<const std::uint8_t> f, std::size_t at) {
  return static_cast<std::uint16_t>((f[at] << 8) | f[at + 1]);
}
std::uint32_t be24(std::span<const std::uint8_t> f, std::size_t at) {
  return (std::uint32_t{f[at]} << 16) | (std::uint32_t{f[at + 1]} << 8) | f[at + 2];
}
std::uint32_t be32(std::span<const std::uint8_t> f, std::size_t at) {
  return (std::uint32_t{be16(f, at)} << 16) | be16(f, at + 2);
}
std::uint64_t be64(std::span<const std::uint8_t> f, std::size_t at) {
  return (std::uint64_t{be32(f, at)} << 32) | be32(f, at + 4);
}
std::uint32_t le32(std::span<const std::uint8_t> f, std::size_t at) {
  return std::uint32_t{f[at]} | (std::uint32_t{f[at + 1]} << 8) | (std::uint32_t{f[at + 2]} << 16) |
         (std::uint32_t{f[at + 3]} << 24);
}
// "0x%0*llx"
std::string hex(std::uint64_t v, int digits) {
  std::string s = "0x";
  appendHex(s, v, digits);
  return s;
}

// tshark's IB header items are FT_BYTES: their value is the header's bytes.
std::int32_t addIbHeader(DecodeContext& ctx, const HeaderDef& h, std::size_t at,
                         std::int32_t parent) {
  const auto node = ctx.b.addHeader(h, at, parent);
  if (ctx.b.wantsValue(h.key))
    ctx.b.dissection().nodes[node].value = hexBytes(ctx.b.frame().subspan(at, h.length));
  return node;
}

// Facts the transport dissector needs from its carrier.
struct Packet {
  std::int32_t ibNode = -1;
  std::size_t bth = 0;
  std::size_t end = 0;    // end of the ICRC when complete, else end of the captured bytes
  bool complete = false;  // the carrier's lengths fit in the captured bytes
  IcrcLayout layout;
};

void addAethDetails(DecodeContext& ctx, std::size_t at, std::int32_t node) {
  const auto f = ctx.b.frame();
  const std::uint8_t syndrome = f[at];
  const auto kind = static_cast<AethKind>((syndrome >> 5) & 3);
  const FieldDef* detail = &kAethReservedValue;
  const char* kindName = "Reserved";
  switch (kind) {
    case AethKind::Ack:
      detail = &kAethCreditCount;
      kindName = "ACK";
      break;
    case AethKind::RnrNak:
      detail = &kAethTimer;
      kindName = "RNR NAK";
      break;
    case AethKind::Nak:
      detail = &kAethErrorCode;
      kindName = "NAK";
      break;
    case AethKind::Reserved:
      ctx.b.diagnose(Severity::Warning, "AETH syndrome opcode 2 is reserved", node);
      break;
  }
  ctx.b.addField(*detail, at, node);
  ctx.b.addText("infiniband.aeth.kind",
                ctx.b.labels() ? std::string("Meaning: ") + describeAethSyndrome(syndrome) : "",
                kindName, at, 1, node);
  if (kind == AethKind::RnrNak) {
    const auto us = rnrTimerMicroseconds(syndrome & 31);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%u.%02u", us / 1000, (us % 1000) / 10);
    ctx.b.addNumber("infiniband.aeth.rnr_timer_ms", std::string("RNR NAK timer: ") + buf + " ms",
                    us, buf, at, 1, node);
  }
  if (kind == AethKind::Nak && (syndrome & 31) > 4)
    ctx.b.diagnose(Severity::Warning,
                   "AETH NAK code " + std::to_string(syndrome & 31) + " is reserved", node);
}

void addIcrc(DecodeContext& ctx, const Packet& p) {
  const auto f = ctx.b.frame();
  const std::size_t at = p.end - 4;
  const auto node = ctx.b.addField(kIcrcField, at, p.ibNode);
  const std::uint32_t wire = le32(f, at);
  const bool labels = ctx.b.labels();
  const auto hexValue = [&](std::string_view key, std::uint32_t v) {
    return ctx.b.wantsValue(key) ? hex(v, 8) : std::string();
  };
  ctx.b.addNumber("infiniband.icrc.value", labels ? "ICRC (little-endian): " + hex(wire, 8) : "",
                  wire, hexValue("infiniband.icrc.value", wire), at, 4, node);
  if (!ctx.options.verifyCrc) return;
  const std::uint32_t computed = computeIcrc(f, p.layout);
  ctx.b.addNumber("infiniband.icrc.computed", labels ? "Computed ICRC: " + hex(computed, 8) : "",
                  computed, hexValue("infiniband.icrc.computed", computed), at, 4, node);
  const bool good = computed == wire;
  ctx.b.addNumber("infiniband.icrc.status", good ? "ICRC status: Good" : "ICRC status: Bad",
                  good ? 1 : 0, good ? "good" : "bad", at, 4, node);
  ctx.b.crcResult(good);
  if (!good) ctx.b.diagnose(Severity::Error, badIcrcMessage(computed, wire), node);
}

// BTH, extension headers, payload, pad and ICRC.
void dissectTransport(DecodeContext& ctx, const Packet& p) {
  const auto f = ctx.b.frame();
  const std::size_t regionEnd = p.complete ? p.end - 4 : p.end;
  if (p.end < p.bth || regionEnd < p.bth + kBthHeader.length || (p.complete && p.end < p.bth + 4)) {
    ctx.b.truncated("Base Transport Header", kBthHeader.length,
                    regionEnd > p.bth ? regionEnd - p.bth : 0, p.ibNode);
    return;
  }
  const auto bthNode = addIbHeader(ctx, kBthHeader, p.bth, p.ibNode);
  const std::uint8_t opcode = f[p.bth];
  const IbOpcodeInfo* info = ibOpcodeInfo(opcode);
  auto& d = ctx.b.dissection();
  d.summary.info.clear();
  appendBthInfo(d.summary.info, f, p.bth);
  if (const unsigned tver = f[p.bth + 1] & 15; tver != 0)
    ctx.b.diagnose(Severity::Warning, "BTH header version " + std::to_string(tver) + " is not 0",
                   bthNode);
  if ((f[p.bth + 8] & 0x7f) != 0)
    ctx.b.diagnose(Severity::Note, "BTH reserved bits after AckReq are set", bthNode);
  std::size_t at = p.bth + kBthHeader.length;
  std::size_t deth = npos;
  bool headersComplete = true;
  if (!info) {
    ctx.b.diagnose(Severity::Warning,
                   "unassigned BTH opcode " + std::to_string(opcode) + " (" + hex(opcode, 2) +
                       "): the rest is shown undecoded",
                   bthNode);
    if (regionEnd > at)
      ctx.b.addText("infiniband.vendor", "Unknown/Vendor Specific Data",
                    hexBytes(f.subspan(at, regionEnd - at)), at, regionEnd - at, p.ibNode);
    at = regionEnd;
  } else {
    for (const IbExt e : info->extensions()) {
      const auto& hd = ibExtHeader(e);
      if (at + hd.length > regionEnd) {
        ctx.b.truncated(hd.name, hd.length, regionEnd - at, p.ibNode);
        headersComplete = false;
        break;
      }
      const auto node = addIbHeader(ctx, hd, at, p.ibNode);
      if (e == IbExt::Deth) deth = at;
      if (e == IbExt::Aeth) addAethDetails(ctx, at, node);
      if (e == IbExt::Cnp &&
          std::any_of(f.begin() + static_cast<std::ptrdiff_t>(at),
                      f.begin() + static_cast<std::ptrdiff_t>(at + 16), [](auto x) { return x; }))
        ctx.b.diagnose(Severity::Note, "CNP reserved bytes are not zero", node);
      appendIbExtInfo(d.summary.info, f, at, e);
      at += hd.length;
    }
  }
  if (headersComplete && at <= regionEnd) {
    std::size_t payloadEnd = regionEnd;
    const std::size_t pad = (f[p.bth + 1] >> 4) & 3;
    if (p.complete && info) {
      if (pad > regionEnd - at) {
        ctx.b.diagnose(Severity::Error,
                       "pad count " + std::to_string(pad) + " exceeds the " +
                           std::to_string(regionEnd - at) + " bytes after the headers",
                       bthNode);
      } else {
        payloadEnd = regionEnd - pad;
        if (pad)
          ctx.b.addText("infiniband.pad", "Pad: " + std::to_string(pad) + " bytes",
                        hexBytes(f.subspan(payloadEnd, pad)), payloadEnd, pad, p.ibNode);
      }
    }
    if (info && !info->payload && payloadEnd > at)
      ctx.b.diagnose(Severity::Warning,
                     std::string(info->name) + " carries no payload, but " +
                         std::to_string(payloadEnd - at) + " bytes follow its headers",
                     bthNode);
    if (info && p.complete && ((payloadEnd - at + pad) % 4) != 0)
      ctx.b.diagnose(Severity::Warning, "payload plus pad is not a multiple of 4 bytes", bthNode);
    // Datagrams to or from QP 0/1 carry management datagrams (IBTA 13.5.1), as tshark reads them.
    const bool mad = deth != npos && (be24(f, p.bth + 5) <= 1 || be24(f, deth + 5) <= 1);
    if (mad && payloadEnd > at)
      dissectMad(ctx, at, payloadEnd, p.ibNode);
    else if (payloadEnd > at)
      dissectData(ctx, at, payloadEnd, -1);
  }
  if (!p.complete) {
    ctx.b.diagnose(Severity::Warning, "ICRC not verified: the packet is truncated", p.ibNode);
    return;
  }
  addIcrc(ctx, p);
}

}  // namespace

void appendBthInfo(std::string& line, std::span<const std::uint8_t> f, std::size_t bth) {
  if (const IbOpcodeInfo* info = ibOpcodeInfo(f[bth])) {
    line.append(info->name);
  } else {
    line.append("Unknown opcode ");
    appendDecimal(line, f[bth]);
  }
  line.append(" QP=0x");
  appendHex(line, be24(f, bth + 5), 6);
  line.append(" PSN=");
  appendDecimal(line, be24(f, bth + 9));
}

void appendIbExtInfo(std::string& s, std::span<const std::uint8_t> f, std::size_t ext, IbExt e) {
  switch (e) {
    case IbExt::Reth:
      s.append(" VA=0x");
      appendHex(s, be64(f, ext), 16);
      s.append(" R_Key=0x");
      appendHex(s, be32(f, ext + 8), 8);
      s.append(" Len=");
      appendDecimal(s, be32(f, ext + 12));
      break;
    case IbExt::Aeth:
      s.append(" ").append(describeAethSyndrome(f[ext])).append(" MSN=");
      appendDecimal(s, be24(f, ext + 1));
      break;
    case IbExt::Deth:
      s.append(" SrcQP=0x");
      appendHex(s, be24(f, ext + 5), 6);
      s.append(" Q_Key=0x");
      appendHex(s, be32(f, ext), 8);
      break;
    case IbExt::AtomicEth:
      s.append(" VA=0x");
      appendHex(s, be64(f, ext), 16);
      s.append(" R_Key=0x");
      appendHex(s, be32(f, ext + 8), 8);
      break;
    default:
      break;
  }
}

std::string badIcrcMessage(std::uint32_t computed, std::uint32_t wire) {
  return "bad ICRC: computed " + hex(computed, 8) + ", wire " + hex(wire, 8);
}

void dissectRoceV2(DecodeContext& ctx, std::size_t bth, std::size_t end, std::int32_t parent) {
  (void)parent;
  const auto f = ctx.b.frame();
  auto& d = ctx.b.dissection();
  d.summary.protocol = "RRoCE";
  Packet p;
  p.bth = bth;
  p.end = end;
  p.complete = true;
  if (ctx.udpOffset != npos && ctx.udpOffset + 8 <= f.size())
    p.complete = ctx.udpOffset + be16(f, ctx.udpOffset + 4) == end;
  if (ctx.ipVersion == 4 && ctx.ipOffset != npos) {
    p.layout = {IcrcLayout::Kind::RoceV2Ipv4, ctx.ipOffset, (f[ctx.ipOffset] & 15) * 4u, bth,
                end - 4};
    if (p.complete && (be16(f, ctx.ipOffset + 6) & 0x3fff)) p.complete = false;
  } else if (ctx.ipVersion == 6 && ctx.ipOffset != npos) {
    p.layout = {IcrcLayout::Kind::RoceV2Ipv6, ctx.ipOffset, 40, bth, end - 4, ctx.ipv6Extensions};
  } else {
    p.complete = false;
  }
  p.ibNode = ctx.b.addContainer("infiniband", "InfiniBand", bth, end > bth ? end - bth : 0, -1);
  if (end < bth + kBthHeader.length + 4) {
    ctx.b.truncated("RoCEv2 packet (BTH and ICRC)", kBthHeader.length + 4,
                    end > bth ? end - bth : 0, p.ibNode);
    return;
  }
  dissectTransport(ctx, p);
}

void dissectRoceV1(DecodeContext& ctx, std::size_t grh, std::size_t end, std::int32_t parent) {
  (void)parent;
  const auto f = ctx.b.frame();
  auto& d = ctx.b.dissection();
  d.summary.protocol = "RoCE";
  Packet p;
  p.ibNode = ctx.b.addContainer("infiniband", "InfiniBand", grh, end > grh ? end - grh : 0, -1);
  if (end < grh + kGrhHeader.length) {
    ctx.b.truncated("Global Route Header", kGrhHeader.length, end > grh ? end - grh : 0, p.ibNode);
    return;
  }
  const auto grhNode = addIbHeader(ctx, kGrhHeader, grh, p.ibNode);
  d.summary.source = formatIpv6(f.subspan(grh + 8, 16));
  d.summary.destination = formatIpv6(f.subspan(grh + 24, 16));
  const std::size_t packetEnd = grh + 40 + be16(f, grh + 4);
  p.bth = grh + 40;
  p.complete = packetEnd <= end;
  if (!p.complete) ctx.b.truncated("RoCE packet", packetEnd - grh, end - grh, grhNode);
  p.end = p.complete ? packetEnd : end;
  d.nodes[p.ibNode].length = static_cast<std::uint32_t>(p.end - grh);
  if (f[grh + 6] != kGrhNextHeaderIba) {
    ctx.b.diagnose(Severity::Warning,
                   "GRH next header " + std::to_string(f[grh + 6]) + " is not IBA transport (27)",
                   grhNode);
    dissectData(ctx, p.bth, p.end, -1);
    return;
  }
  p.layout = {IcrcLayout::Kind::RoceV1, grh, 20, p.bth, p.end - 4};
  if (p.complete && p.end < p.bth + kBthHeader.length + 4) {
    ctx.b.truncated("RoCE packet (BTH and ICRC)", kBthHeader.length + 4, p.end - p.bth, p.ibNode);
    return;
  }
  dissectTransport(ctx, p);
}

void dissectNativeIb(DecodeContext& ctx, std::size_t lrh, std::size_t end, std::int32_t parent) {
  (void)parent;
  const auto f = ctx.b.frame();
  auto& d = ctx.b.dissection();
  d.summary.protocol = "InfiniBand";
  Packet p;
  p.ibNode = ctx.b.addContainer("infiniband", "InfiniBand", lrh, end > lrh ? end - lrh : 0, -1);
  if (end < lrh + kLrhHeader.length) {
    ctx.b.truncated("Local Route Header", kLrhHeader.length, end > lrh ? end - lrh : 0, p.ibNode);
    return;
  }
  const auto lrhNode = addIbHeader(ctx, kLrhHeader, lrh, p.ibNode);
  d.summary.source = "LID " + std::to_string(be16(f, lrh + 6));
  d.summary.destination = "LID " + std::to_string(be16(f, lrh + 2));
  const auto lnh = static_cast<Lnh>(f[lrh + 1] & 3);
  const std::size_t words = be16(f, lrh + 4) & 0x7ff;
  const std::size_t crcEnd = lrh + words * 4;  // end of the ICRC (raw packets: of the payload)
  const bool complete = crcEnd + 2 <= end;
  if (crcEnd < lrh + kLrhHeader.length) {
    ctx.b.diagnose(Severity::Error,
                   "LRH packet length " + std::to_string(words) + " words is shorter than the LRH",
                   lrhNode);
    return;
  }
  if (!complete) ctx.b.truncated("InfiniBand packet", crcEnd + 2 - lrh, end - lrh, lrhNode);
  if (complete && crcEnd + 2 < end)
    ctx.b.diagnose(Severity::Warning, std::to_string(end - crcEnd - 2) + " bytes follow the VCRC",
                   lrhNode);
  const std::size_t avail = complete ? crcEnd : end;
  if (complete) d.nodes[p.ibNode].length = static_cast<std::uint32_t>(crcEnd + 2 - lrh);
  auto addVcrc = [&] {
    if (!complete) return;
    const auto node = ctx.b.addField(kVcrcField, crcEnd, p.ibNode);
    const std::uint16_t wire = static_cast<std::uint16_t>(f[crcEnd] | (f[crcEnd + 1] << 8));
    ctx.b.addNumber("infiniband.vcrc.value", "VCRC (little-endian): " + hex(wire, 4), wire,
                    hex(wire, 4), crcEnd, 2, node);
    if (!ctx.options.verifyCrc) return;
    const std::uint16_t computed = computeVcrc(f.subspan(lrh, crcEnd - lrh));
    const bool good = computed == wire;
    ctx.b.addNumber("infiniband.vcrc.computed", "Computed VCRC: " + hex(computed, 4), computed,
                    hex(computed, 4), crcEnd, 2, node);
    ctx.b.addNumber("infiniband.vcrc.status", good ? "VCRC status: Good" : "VCRC status: Bad",
                    good ? 1 : 0, good ? "good" : "bad", crcEnd, 2, node);
    ctx.b.crcResult(good);
    if (!good)
      ctx.b.diagnose(Severity::Error,
                     "bad VCRC: computed " + hex(computed, 4) + ", wire " + hex(wire, 4), node);
  };
  std::size_t bth = lrh + kLrhHeader.length;
  if (lnh == Lnh::Raw || lnh == Lnh::IpNonIba) {
    ctx.b.diagnose(Severity::Note,
                   lnh == Lnh::Raw ? "raw packet: no IBA transport headers"
                                   : "IP non-IBA transport packet: payload not decoded",
                   lrhNode);
    d.summary.info = lnh == Lnh::Raw ? "Raw packet" : "IP non-IBA transport";
    dissectData(ctx, bth, avail, -1);
    addVcrc();
    return;
  }
  if (lnh == Lnh::IbaGlobal) {
    if (avail < bth + kGrhHeader.length) {
      ctx.b.truncated("Global Route Header", kGrhHeader.length, avail - bth, p.ibNode);
      return;
    }
    const auto grhNode = addIbHeader(ctx, kGrhHeader, bth, p.ibNode);
    if (f[bth + 6] != kGrhNextHeaderIba) {
      ctx.b.diagnose(Severity::Warning,
                     "GRH next header " + std::to_string(f[bth + 6]) + " is not IBA transport (27)",
                     grhNode);
      dissectData(ctx, bth + 40, avail, -1);
      addVcrc();
      return;
    }
    const std::size_t grhEnd = bth + 40 + be16(f, bth + 4);
    if (complete && grhEnd != crcEnd)
      ctx.b.diagnose(Severity::Warning,
                     "GRH payload length " + std::to_string(be16(f, bth + 4)) +
                         " disagrees with the LRH packet length",
                     grhNode);
    bth += kGrhHeader.length;
  }
  p.bth = bth;
  p.end = avail;
  p.complete = complete;
  p.layout = {
      lnh == Lnh::IbaGlobal ? IcrcLayout::Kind::NativeGlobal : IcrcLayout::Kind::NativeLocal, lrh,
      20, bth, avail - 4};
  if (complete && avail < bth + kBthHeader.length + 4) {
    ctx.b.truncated("InfiniBand packet (BTH and ICRC)", kBthHeader.length + 4,
                    avail > bth ? avail - bth : 0, p.ibNode);
    addVcrc();
    return;
  }
  dissectTransport(ctx, p);
  addVcrc();
}

namespace {
constexpr ValueName kErfTypes[] = {{2, "ETH"}, {21, "INFINIBAND"}, {22, "INFINIBAND_LINK"}};
constexpr FieldDef kErfFields[] = {
    {"erf.types", "Record type", 64, 8, FieldType::UInt, Base::Hex, 8},
    {"erf.types.type", "Type", 65, 7, FieldType::UInt, Base::Dec, 8, kErfTypes},
    {"erf.types.ext_header", "Extension header present", 64, 1},
    {"erf.flags", "Flags", 72, 8, FieldType::UInt, Base::Hex, 8},
    {"erf.flags.cap", "Capture interface", 78, 2},
    {"erf.flags.vlen", "Varying record length", 77, 1},
    {"erf.flags.trunc", "Truncated", 76, 1},
    {"erf.flags.rxe", "RX error", 75, 1},
    {"erf.flags.dse", "DS error", 74, 1},
    {"erf.rlen", "Record length", 80, 16},
    {"erf.lctr", "Loss counter", 96, 16},
    {"erf.wlen", "Wire length", 112, 16},
};
constexpr FieldDef kErfExtType{"erf.ehdr.types", "Extension Header", 1, 7};
}  // namespace

void dissectErf(DecodeContext& ctx, std::size_t off) {
  const auto f = ctx.b.frame();
  auto& d = ctx.b.dissection();
  d.summary.protocol = "ERF";
  if (f.size() < off + 16) {
    ctx.b.truncated("ERF record header", 16, f.size() - off, -1);
    return;
  }
  const auto erf = ctx.b.addContainer("erf", "Extensible Record Format", off, 16, -1);
  std::uint64_t ts = 0;
  for (int i = 7; i >= 0; --i)
    ts = (ts << 8) | f[off + static_cast<std::size_t>(i)];
  ctx.b.addNumber("erf.ts", "Timestamp: " + hex(ts, 16), ts, hex(ts, 16), off, 8, erf);
  for (const auto& fd : kErfFields)
    ctx.b.addLeafField(fd, off, erf);
  std::size_t at = off + 16;
  for (bool more = f[off + 8] & 0x80; more; at += 8) {
    if (f.size() < at + 8) {
      ctx.b.truncated("ERF extension header", 8, f.size() - at, erf);
      return;
    }
    ctx.b.addField(kErfExtType, at, erf);
    more = f[at] & 0x80;
  }
  d.nodes[erf].length = static_cast<std::uint32_t>(at - off);
  const unsigned type = f[off + 8] & 0x7f;
  const std::size_t rlen = be16(f, off + 10), wlen = be16(f, off + 14);
  if (rlen < at - off)
    ctx.b.diagnose(Severity::Warning,
                   "ERF record length " + std::to_string(rlen) + " is shorter than its headers",
                   erf);
  if (type == 21) {
    const std::size_t end = std::min(f.size(), at + wlen);
    ctx.end = end;
    dissectNativeIb(ctx, at, end, -1);
    return;
  }
  if (type == 2) {
    if (f.size() < at + 2) {
      ctx.b.truncated("ERF Ethernet offset and pad", 2, f.size() - at, erf);
      return;
    }
    dissectEthernet(ctx, at + 2);
    return;
  }
  ctx.b.diagnose(Severity::Note, "ERF record type " + std::to_string(type) + " is not decoded",
                 erf);
  dissectData(ctx, at, f.size(), -1);
}

}  // namespace rdmascope::packets::detail
