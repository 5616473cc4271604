#include "iwarp_dissector.h"

#include <cstdio>
#include <cstring>

#include "rdmascope/packets/crc.h"
#include "rdmascope/packets/iwarp_headers.h"

namespace rdmascope::packets::detail {
namespace {

std::uint32_t be32(std::span<const std::uint8_t> f, std::size_t at) {
  return (std::uint32_t{f[at]} << 24) | (std::uint32_t{f[at + 1]} << 16) |
         (std::uint32_t{f[at + 2]} << 8) | f[at + 3];
}

std::string hex32(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

void addPayload(DissectionBuilder& b, std::size_t offset, std::int32_t parent) {
  const auto f = b.frame();
  if (offset >= f.size()) return;
  const std::size_t n = f.size() - offset;
  const auto data =
      b.addContainer("data", "Data (" + std::to_string(n) + " bytes)", offset, n, parent);
  b.addText(
      "data.data",
      "Data: " + hexBytes(f.subspan(offset, std::min<std::size_t>(n, 32))) + (n > 32 ? "..." : ""),
      hexBytes(f.subspan(offset, n)), offset, n, data);
  b.addNumber("data.len", "Length: " + std::to_string(n), n, std::to_string(n), offset, 0, data);
}

void dissectReadRequest(DissectionBuilder& b, std::int32_t rdma) {
  const auto f = b.frame();
  const std::size_t at = kDdpUntaggedHeaderLength;
  if (f.size() < at + kRdmaReadRequestLength) {
    b.truncated("RDMA Read Request header", kRdmaReadRequestLength, f.size() - at, rdma);
    return;
  }
  b.addHeader(kRdmaReadRequestHeader, at, rdma);
  if (f.size() > at + kRdmaReadRequestLength)
    b.diagnose(Severity::Warning,
               std::to_string(f.size() - at - kRdmaReadRequestLength) +
                   " bytes follow the RDMA Read Request header",
               rdma);
}

void dissectTerminate(DissectionBuilder& b, std::int32_t rdma) {
  const auto f = b.frame();
  const std::size_t at = kDdpUntaggedHeaderLength;
  const auto term = b.addContainer("iwarp_rdma.terminate", "Terminate", at,
                                   f.size() > at ? f.size() - at : 0, rdma);
  if (f.size() < at + kRdmaTerminateControlLength) {
    b.truncated("Terminate control", kRdmaTerminateControlLength, f.size() - at, term);
    return;
  }
  const std::uint8_t layer = f[at] >> 4, etype = f[at] & 0x0f, hdrct = f[at + 2];
  const auto ctl = b.addContainer("iwarp_rdma.term_ctrl", "Terminate Control", at, 3, term);
  b.addField(kRdmaTermLayerField, at, ctl);
  const auto errors = terminateErrorFields(layer, etype);
  b.addField(*errors.etype, at, ctl);
  b.addField(*errors.errcode, at, ctl);
  const auto hd = b.addContainer("iwarp_rdma.term_hdrct", "Header control bits", at + 2, 1, ctl);
  b.addField(kRdmaTermHdrctM, at, hd);
  b.addField(kRdmaTermHdrctD, at, hd);
  b.addField(kRdmaTermHdrctR, at, hd);
  b.addField(kRdmaTermReserved, at, term);
  std::size_t pos = at + kRdmaTerminateControlLength;
  if (hdrct & 0x40) {
    const std::size_t ddpLen = etype == 1 ? kDdpTaggedHeaderLength : kDdpUntaggedHeaderLength;
    if (f.size() < pos + 2 + ddpLen) {
      b.truncated("terminated DDP header", 2 + ddpLen, f.size() - pos, term);
      return;
    }
    b.addText("iwarp_rdma.term_ddp_seg_len", "DDP Segment Length: " + hexBytes(f.subspan(pos, 2)),
              hexBytes(f.subspan(pos, 2)), pos, 2, term);
    pos += 2;
    b.addText("iwarp_rdma.term_ddp_h", "Terminated DDP Header: " + hexBytes(f.subspan(pos, ddpLen)),
              hexBytes(f.subspan(pos, ddpLen)), pos, ddpLen, term);
    pos += ddpLen;
  }
  if (hdrct & 0x20) {
    if (f.size() < pos + kRdmaReadRequestLength) {
      b.truncated("terminated RDMAP header", kRdmaReadRequestLength, f.size() - pos, term);
      return;
    }
    b.addText("iwarp_rdma.term_rdma_h",
              "Terminated RDMA Header: " + hexBytes(f.subspan(pos, kRdmaReadRequestLength)),
              hexBytes(f.subspan(pos, kRdmaReadRequestLength)), pos, kRdmaReadRequestLength, term);
  }
}

}  // namespace

MpaStartInfo dissectMpaStartFrame(DissectionBuilder& b, std::int32_t parent) {
  const auto f = b.frame();
  MpaStartInfo info;
  info.reply = std::memcmp(f.data(), kMpaReplyKey, 16) == 0;
  info.markers = f[16] & 0x80;
  info.crc = f[16] & 0x40;
  info.reject = f[16] & 0x20;
  info.revision = f[17];
  const std::size_t pd = (std::size_t{f[18]} << 8) | f[19];
  const auto mpa = b.addContainer("iwarp_mpa", "iWARP Marker Protocol data unit Aligned framing", 0,
                                  f.size(), parent);
  const auto hdr =
      b.addContainer(info.reply ? "iwarp_mpa.rep" : "iwarp_mpa.req",
                     info.reply ? "Reply frame header" : "Request frame header", 0, f.size(), mpa);
  for (const auto& fd : (info.reply ? kMpaReplyHeader : kMpaRequestHeader).fields)
    b.addField(fd, 0, hdr);
  if (pd > 0 && f.size() >= kMpaStartHeaderLength + pd)
    b.addText("iwarp_mpa.privatedata",
              "Private data: " + hexBytes(f.subspan(20, std::min<std::size_t>(pd, 32))) +
                  (pd > 32 ? "..." : ""),
              hexBytes(f.subspan(20, pd)), 20, pd, hdr);
  if (f[16] & 0x1f)
    b.diagnose(Severity::Warning, "MPA Res field is not zero as RFC 5044 requires", hdr);
  if (info.revision != 1)
    b.diagnose(Severity::Warning,
               "MPA revision " + std::to_string(info.revision) + " is not 1 (RFC 5044)", hdr);
  if (!info.reply && info.reject)
    b.diagnose(Severity::Warning, "MPA Request has the reject flag set", hdr);
  if (info.reply && info.reject)
    b.diagnose(Severity::Note, "MPA Reply rejects the connection", hdr);
  return info;
}

FpduLayout splitFpdu(std::span<const std::uint8_t> wire, bool markers,
                     std::uint64_t relativeOffset) {
  FpduLayout l;
  l.logical.reserve(wire.size());
  l.wireIndex.reserve(wire.size());
  for (std::size_t w = 0; w < wire.size();) {
    const std::size_t toMarker =
        markers
            ? (kMpaMarkerInterval - (relativeOffset + w) % kMpaMarkerInterval) % kMpaMarkerInterval
            : wire.size() - w;
    if (markers && toMarker == 0 && w + kMpaMarkerLength <= wire.size()) {
      l.markers.push_back(static_cast<std::uint32_t>(w));
      w += kMpaMarkerLength;
      continue;
    }
    // Copy up to the next marker position (or the end) in one go.
    const std::size_t n = std::min(wire.size() - w, toMarker == 0 ? wire.size() - w : toMarker);
    l.logical.insert(l.logical.end(), wire.begin() + static_cast<std::ptrdiff_t>(w),
                     wire.begin() + static_cast<std::ptrdiff_t>(w + n));
    for (std::size_t i = 0; i < n; ++i)
      l.wireIndex.push_back(static_cast<std::uint32_t>(w + i));
    w += n;
  }
  return l;
}

std::int32_t dissectFpduFraming(DissectionBuilder& b, const FpduLayout& l, bool crc,
                                std::int32_t parent) {
  const auto wire = b.frame();
  const auto mpa = b.addContainer("iwarp_mpa", "iWARP Marker Protocol data unit Aligned framing", 0,
                                  wire.size(), parent);
  if (l.logical.size() < 2 + kMpaCrcLength) {
    b.truncated("MPA FPDU", 2 + kMpaCrcLength, l.logical.size(), mpa);
    return mpa;
  }
  const std::size_t ulpdu = (std::size_t{l.logical[0]} << 8) | l.logical[1];
  const std::size_t pad = (4 - (ulpdu + 2) % 4) % 4;
  const std::size_t crcAt = 2 + ulpdu + pad;
  const auto fpdu =
      b.addContainer("iwarp_mpa.fpdu", "FPDU", l.wireIndex[0], wire.size() - l.wireIndex[0], mpa);
  b.addField(kMpaUlpduLengthField, l.wireIndex[0], fpdu);
  if (l.logical.size() < crcAt + kMpaCrcLength) {
    b.truncated("MPA FPDU", crcAt + kMpaCrcLength, l.logical.size(), fpdu);
    return mpa;
  }
  if (pad > 0) {
    const auto padBytes = wire.subspan(l.wireIndex[2 + ulpdu], pad);
    b.addText("iwarp_mpa.pad", "Padding: " + hexBytes(padBytes), hexBytes(padBytes),
              l.wireIndex[2 + ulpdu], pad, fpdu);
    for (auto x : padBytes)
      if (x != 0) {
        b.diagnose(Severity::Note, "MPA pad bytes are not zero", fpdu);
        break;
      }
  }
  const std::size_t crcWire = l.wireIndex[crcAt];
  const std::uint32_t onWireBe = be32(wire, crcWire);
  if (crc) {
    // The CRC covers every wire byte before it, markers included; it is stored least
    // significant byte first, so its big-endian reading (tshark's display) is byte-swapped.
    const std::uint32_t computed = crc32c(wire.subspan(0, crcWire));
    const std::uint32_t stored = __builtin_bswap32(onWireBe);
    const bool good = computed == stored;
    const std::string shown = hex32(onWireBe);
    const auto node = b.addNumber(
        "iwarp_mpa.crc_check",
        "CRC check: " + shown +
            (good ? " [Good CRC32]"
                  : " [Bad CRC32, should be " + hex32(__builtin_bswap32(computed)) + "]"),
        onWireBe, shown, crcWire, kMpaCrcLength, fpdu);
    b.crcResult(good);
    if (!good)
      b.diagnose(Severity::Error,
                 "MPA CRC32c mismatch: computed " + hex32(computed) + ", wire " + hex32(stored) +
                     " (stored least significant byte first)",
                 node);
  } else {
    b.addField(kMpaCrcField, crcWire, fpdu);
  }
  if (!l.markers.empty()) {
    const auto markers =
        b.addContainer("iwarp_mpa.markers", "Markers", l.markers.front(),
                       l.markers.back() + kMpaMarkerLength - l.markers.front(), mpa);
    const std::uint32_t header = l.wireIndex[0];
    for (auto m : l.markers) {
      b.addField(kMpaMarkerHeader.fields[0], m, markers);
      const auto ptrNode = b.addField(kMpaMarkerHeader.fields[1], m, markers);
      const std::uint32_t expect = m < header ? 0 : m - header;
      const std::uint32_t ptr = (std::uint32_t{wire[m + 2]} << 8) | wire[m + 3];
      if ((wire[m] | wire[m + 1]) != 0)
        b.diagnose(Severity::Warning, "MPA marker reserved field is not zero", ptrNode);
      if (ptr != (expect & 0xffff))
        b.diagnose(Severity::Warning,
                   "MPA marker FPDU pointer " + std::to_string(ptr) + " should be " +
                       std::to_string(expect),
                   ptrNode);
    }
  }
  if (l.logical.size() > crcAt + kMpaCrcLength)
    b.diagnose(Severity::Error, "MPA FPDU longer than its ULPDU length", fpdu);
  return mpa;
}

std::string dissectDdpRdmap(DissectionBuilder& b, std::int32_t parent) {
  const auto f = b.frame();
  const auto top = b.addContainer(
      "iwarp_ddp_rdmap", "iWARP Direct Data Placement and Remote Direct Memory Access Protocol", 0,
      f.size(), parent);
  if (f.size() < 2) {
    b.truncated("DDP header", kDdpTaggedHeaderLength, f.size(), top);
    return "Malformed DDP segment";
  }
  const bool tagged = f[0] & 0x80, last = f[0] & 0x40;
  const std::uint8_t dv = f[0] & 0x03, rv = f[1] >> 6, op = f[1] & 0x0f;
  std::string info = rdmapOpcodeName(op) + (last ? " [last DDP segment]" : " [more DDP segments]");
  const std::size_t hlen = tagged ? kDdpTaggedHeaderLength : kDdpUntaggedHeaderLength;
  if (f.size() < hlen) {
    b.truncated(tagged ? "DDP tagged header" : "DDP untagged header", hlen, f.size(), top);
    return info;
  }
  const HeaderDef& ddpDef = tagged ? kDdpTaggedHeader : kDdpUntaggedHeader;
  const auto ddp = b.addContainer("iwarp_ddp", "DDP header", 0, hlen, top);
  const auto ctrl = b.addContainer("iwarp_ddp.control_field", "DDP control field", 0, 1, ddp);
  for (std::size_t i = 0; i < 4; ++i)
    b.addField(ddpDef.fields[i], 0, ctrl);
  if (!tagged) b.addField(ddpDef.fields[4], 0, ddp);
  const auto rdma = b.addContainer("iwarp_rdma", "RDMAP header", 1, tagged ? 1 : 5, top);
  const auto rctl = b.addContainer("iwarp_rdma.control_field", "RDMAP control field", 1, 1, rdma);
  for (const auto& fd : kRdmapControlHeader.fields)
    b.addField(fd, 1, rctl);
  const bool inv = op == 4 || op == 6;
  if (!tagged) b.addField(inv ? kRdmapInvalidateStagField : kRdmapReservedField, 2, rdma);
  const auto bm = b.addContainer(tagged ? "iwarp_ddp.tagged" : "iwarp_ddp.untagged",
                                 tagged ? "Tagged buffer model" : "Untagged buffer model",
                                 tagged ? 2 : 6, 12, ddp);
  for (std::size_t i = tagged ? 4 : 5; i < ddpDef.fields.size(); ++i)
    b.addField(ddpDef.fields[i], 0, bm);

  if (dv != 1)
    b.diagnose(Severity::Warning, "DDP version " + std::to_string(dv) + " is not 1 (RFC 5041)",
               ddp);
  if (rv != 1)
    b.diagnose(Severity::Warning, "RDMAP version " + std::to_string(rv) + " is not 1 (RFC 5040)",
               rdma);
  if (f[0] & 0x3c) b.diagnose(Severity::Warning, "DDP reserved bits are not zero", ddp);
  if (f[1] & 0x30) b.diagnose(Severity::Warning, "RDMAP reserved bits are not zero", rdma);
  if (op > 7) {
    b.diagnose(Severity::Warning, "unknown RDMAP opcode " + std::to_string(op), rdma);
    return info;
  }
  const bool wantTagged = op == 0 || op == 2;
  if (tagged != wantTagged)
    b.diagnose(Severity::Warning,
               rdmapOpcodeName(op) + " must use the " + (wantTagged ? "tagged" : "untagged") +
                   " buffer model (RFC 5040)",
               ddp);
  if (!tagged) {
    const std::uint32_t qn = be32(f, 6);
    const std::uint32_t wantQn =
        op == 1 ? kDdpQueueReadRequest : (op == 7 ? kDdpQueueTerminate : kDdpQueueSend);
    if (qn != wantQn)
      b.diagnose(Severity::Warning,
                 rdmapOpcodeName(op) + " uses queue number " + std::to_string(qn) +
                     ", RFC 5040 assigns " + std::to_string(wantQn),
                 ddp);
    if (!inv && be32(f, 2) != 0)
      b.diagnose(Severity::Warning, "RDMAP reserved word is not zero", rdma);
  }
  if (tagged != wantTagged) return info;
  switch (op) {
    case 1:
      dissectReadRequest(b, rdma);
      break;
    case 7:
      dissectTerminate(b, rdma);
      break;
    default:
      addPayload(b, hlen, -1);
  }
  return info;
}

}  // namespace rdmascope::packets::detail
