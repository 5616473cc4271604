// The fields of the common RoCEv2 frame read straight from its bytes. Each check below mirrors
// a branch of the dissectors (decode.cpp, ib_dissector.cpp); a frame that would take any other
// branch is refused, so what is extracted is what the lean dissection holds for these keys.
#include "rdmascope/packets/field_extractor.h"

#include <algorithm>
#include <optional>
#include <string>

#include "dissectors.h"
#include "rdmascope/packets/field_registry.h"
#include "rdmascope/packets/ib_crc.h"
#include "rdmascope/packets/ib_headers.h"
#include "rdmascope/packets/ib_opcodes.h"
#include "rdmascope/packets/net_headers.h"

namespace rdmascope::packets {
namespace {

constexpr std::size_t kExtCount = static_cast<std::size_t>(IbExt::Cnp) + 1;
constexpr std::size_t kEth = 14;

std::uint16_t be16(std::span<const std::uint8_t> f, std::size_t at) {
  return static_cast<std::uint16_t>((f[at] << 8) | f[at + 1]);
}
std::uint32_t be24(std::span<const std::uint8_t> f, std::size_t at) {
  return (std::uint32_t{f[at]} << 16) | (std::uint32_t{f[at + 1]} << 8) | f[at + 2];
}

bool wanted(const ValueKeys& keys, std::string_view key, std::vector<std::string_view>& used) {
  if (!keys.contains(key)) return false;
  used.push_back(key);
  return true;
}

// Node of a table field, as DissectionBuilder::addField makes it for a wanted value.
bool addField(Dissection& d, const FieldDef& f, std::span<const std::uint8_t> frame,
              std::size_t headerOffset) {
  const std::size_t firstByte = headerOffset + f.bitOffset / 8;
  const std::size_t endByte = headerOffset + (f.bitOffset + f.bitWidth + 7) / 8;
  if (endByte > frame.size()) return false;
  const auto bytes = frame.subspan(firstByte, endByte - firstByte);
  Node& n = d.nodes.emplace_back();
  n.key = f.key;
  n.field = &f;
  n.offset = static_cast<std::uint32_t>(firstByte);
  n.length = static_cast<std::uint32_t>(endByte - firstByte);
  switch (f.type) {
    case FieldType::UInt:
    case FieldType::Bool:
      n.number = readField(f, frame.subspan(headerOffset, endByte - headerOffset)) << f.scaleShift;
      n.hasNumber = true;
      n.value = formatFieldValue(f, n.number);
      break;
    case FieldType::Ether:
      n.value = detail::formatMac(bytes);
      break;
    case FieldType::Ipv4:
      n.value = detail::formatIpv4(bytes);
      n.number = (std::uint64_t{bytes[0]} << 24) | (std::uint64_t{bytes[1]} << 16) |
                 (std::uint64_t{bytes[2]} << 8) | bytes[3];
      n.hasNumber = true;
      break;
    case FieldType::Ipv6:
      n.value = detail::formatIpv6(bytes);
      break;
    case FieldType::Bytes:
      n.value = detail::hexBytes(bytes);
      break;
  }
  return true;
}

void addContainer(Dissection& d, std::string_view key, std::size_t offset, std::size_t length,
                  std::string value = {}) {
  Node& n = d.nodes.emplace_back();
  n.key = key;
  n.offset = static_cast<std::uint32_t>(offset);
  n.length = static_cast<std::uint32_t>(length);
  n.value = std::move(value);
}

// A management datagram (to or from QP 0/1, its DETH at `deth`) is dissected further: neither
// extract() nor summarize() reads it.
bool managementDatagram(std::span<const std::uint8_t> f, std::size_t bth, std::size_t deth) {
  return be24(f, bth + 5) <= 1 || be24(f, deth + 5) <= 1;
}

void addNumber(Dissection& d, std::string_view key, std::uint64_t v) {
  Node& n = d.nodes.emplace_back();
  n.key = key;
  n.number = v;
  n.hasNumber = true;
  detail::appendDecimal(n.value, v);
}

}  // namespace

FieldExtractor::FieldExtractor(const ValueKeys& keys, const DecodeOptions& options)
    : verifyCrc_(options.verifyCrc), roceV2Port_(options.roceV2Port), ext_(kExtCount) {
  if (keys.containsAll()) return;
  std::vector<std::string_view> used;
  frameContainer_ = wanted(keys, "frame", used);
  number_ = wanted(keys, "frame.number", used);
  len_ = wanted(keys, "frame.len", used);
  capLen_ = wanted(keys, "frame.cap_len", used);
  timeRelative_ = wanted(keys, "frame.time_relative", used);
  timeEpoch_ = wanted(keys, "frame.time_epoch", used);
  infiniband_ = wanted(keys, "infiniband", used);
  const auto header = [&](const HeaderDef& h, Wanted& w) {
    w.container = wanted(keys, h.key, used);
    for (const auto& f : h.fields)
      if (wanted(keys, f.key, used)) w.fields.push_back(&f);
  };
  header(kEthernetHeader, eth_);
  header(kVlanHeader, vlan_);
  header(kIeee8021adHeader, ieee8021ad_);
  header(kIpv4Header, ip_);
  header(kIpv6Header, ipv6_);
  header(kUdpHeader, udp_);
  header(kBthHeader, bth_);
  for (std::size_t e = 0; e < kExtCount; ++e)
    header(ibExtHeader(static_cast<IbExt>(e)), ext_[e]);
  usable_ = true;
  for (const auto& key : keys.list())
    if (aliasTargets(key).empty() && std::find(used.begin(), used.end(), key) == used.end())
      usable_ = false;
}

std::optional<FieldExtractor::Shape> FieldExtractor::locate(std::span<const std::uint8_t> f,
                                                            LinkType link) const {
  if (link != LinkType::Ethernet || f.size() < kEth) return std::nullopt;
  // Ethernet (dissectEthernet): 802.1Q/802.1ad tags, each whole, before IPv4 or IPv6.
  Shape s;
  std::uint16_t type = be16(f, 12);
  s.ip = kEth;
  while (isVlanTpid(type)) {
    if (f.size() < s.ip + kVlanHeader.length) return std::nullopt;
    type = be16(f, s.ip + 2);
    s.ip += kVlanHeader.length;
  }
  std::size_t ipEnd = 0;
  if (type == kEtherTypeIpv4) {
    // IPv4 (dissectIpv4): a header that holds, not a fragment, carrying UDP.
    if (f.size() < s.ip + kIpv4Header.length) return std::nullopt;
    s.ihl = (f[s.ip] & 0x0f) * 4u;
    s.totalLen = be16(f, s.ip + 2);
    if (s.ihl < 20 || f.size() < s.ip + s.ihl || s.totalLen < s.ihl ||
        (be16(f, s.ip + 6) & 0x3fff) != 0 || f[s.ip + 9] != kIpProtoUdp)
      return std::nullopt;
    ipEnd = std::min(s.ip + s.totalLen, f.size());
  } else if (type == kEtherTypeIpv6) {
    // IPv6 (dissectIpv6): UDP right after the fixed header (no extension headers).
    if (f.size() < s.ip + kIpv6Header.length || f[s.ip + 6] != kIpProtoUdp) return std::nullopt;
    s.ipv6 = true;
    s.ihl = kIpv6Header.length;
    s.totalLen = kIpv6Header.length + be16(f, s.ip + 4);
    ipEnd = std::min(s.ip + s.totalLen, f.size());
  } else {
    return std::nullopt;
  }
  // UDP (dissectUdp) to the RoCEv2 port.
  s.udp = s.ip + s.ihl;
  if (ipEnd < s.udp + kUdpHeader.length) return std::nullopt;
  const std::size_t udpLen = be16(f, s.udp + 4);
  if (udpLen < 8 || be16(f, s.udp + 2) != roceV2Port_) return std::nullopt;
  s.end = std::min(s.udp + udpLen, ipEnd);
  // RoCEv2 (dissectRoceV2, dissectTransport): BTH and ICRC present, an assigned opcode.
  s.bth = s.udp + 8;
  if (s.end < s.bth + kBthHeader.length + 4) return std::nullopt;
  s.op = ibOpcodeInfo(f[s.bth]);
  if (!s.op) return std::nullopt;
  s.complete = s.udp + udpLen == s.end;
  s.regionEnd = s.complete ? s.end - 4 : s.end;
  return s;
}

bool FieldExtractor::extract(Dissection& d, std::span<const std::uint8_t> f, LinkType link,
                             const FrameInfo& info) const {
  const auto shape = locate(f, link);
  if (!shape) return false;
  const Shape& s = *shape;
  d.nodes.clear();
  d.diagnostics.clear();
  d.frameLength = static_cast<std::uint32_t>(f.size());
  if (frameContainer_) addContainer(d, "frame", 0, f.size());
  if (number_) addNumber(d, "frame.number", info.number);
  if (len_) addNumber(d, "frame.len", info.originalLength ? info.originalLength : f.size());
  if (capLen_) addNumber(d, "frame.cap_len", f.size());
  char buf[48];
  if (timeRelative_) {
    detail::formatNineDecimals(info.timeRelative, buf, sizeof buf);
    addContainer(d, "frame.time_relative", 0, 0, buf);
  }
  if (timeEpoch_) {
    detail::formatEpochTime(info, buf, sizeof buf);
    addContainer(d, "frame.time_epoch", 0, 0, buf);
  }
  const auto header = [&](const HeaderDef& h, const Wanted& w, std::size_t at, std::size_t length,
                          bool ibValue) {
    if (w.container)
      addContainer(d, h.key, at, length,
                   ibValue ? detail::hexBytes(f.subspan(at, h.length)) : std::string());
    for (const FieldDef* fd : w.fields)
      if (!addField(d, *fd, f, at)) return false;
    return true;
  };
  if (!header(kEthernetHeader, eth_, 0, kEthernetHeader.length, false)) return false;
  for (std::size_t tag = kEth; tag < s.ip; tag += kVlanHeader.length) {
    const bool serviceTag = be16(f, tag - 2) == kEtherTypeQinQ;
    if (!header(serviceTag ? kIeee8021adHeader : kVlanHeader, serviceTag ? ieee8021ad_ : vlan_, tag,
                kVlanHeader.length, false))
      return false;
  }
  if (!(s.ipv6 ? header(kIpv6Header, ipv6_, s.ip, kIpv6Header.length, false)
               : header(kIpv4Header, ip_, s.ip, s.ihl, false)) ||
      !header(kUdpHeader, udp_, s.udp, kUdpHeader.length, false))
    return false;
  if (infiniband_) addContainer(d, "infiniband", s.bth, s.end - s.bth);
  if (!header(kBthHeader, bth_, s.bth, kBthHeader.length, true)) return false;
  std::size_t at = s.bth + kBthHeader.length;
  for (const IbExt e : s.op->extensions()) {
    const auto& hd = ibExtHeader(e);
    if (at + hd.length > s.regionEnd) break;  // truncated: the dissector stops here too
    if (e == IbExt::Deth && managementDatagram(f, s.bth, at)) return false;
    if (!header(hd, ext_[static_cast<std::size_t>(e)], at, hd.length, true)) return false;
    at += hd.length;
  }
  return true;
}

bool FieldExtractor::summarize(Dissection& d, std::span<const std::uint8_t> f,
                               LinkType link) const {
  const auto shape = locate(f, link);
  if (!shape) return false;
  const Shape& s = *shape;
  // The summary line shows the frame's first error: refuse every frame that may have one but a
  // bad ICRC (IP version, truncation, headers cut short, pad count).
  if ((f[s.ip] >> 4) != (s.ipv6 ? 6 : 4) || s.ip + s.totalLen > f.size() || !s.complete)
    return false;
  std::size_t at = s.bth + kBthHeader.length;
  for (const IbExt e : s.op->extensions()) {
    const auto& hd = ibExtHeader(e);
    if (e == IbExt::Deth && at + hd.length <= s.regionEnd && managementDatagram(f, s.bth, at))
      return false;
    at += hd.length;
  }
  if (at > s.regionEnd || ((f[s.bth + 1] >> 4) & 3u) > s.regionEnd - at) return false;
  auto& sum = d.summary;
  if (s.ipv6) {
    sum.source = detail::formatIpv6(f.subspan(s.ip + 8, 16));
    sum.destination = detail::formatIpv6(f.subspan(s.ip + 24, 16));
  } else {
    detail::assignIpv4(sum.source, f.subspan(s.ip + 12, 4));
    detail::assignIpv4(sum.destination, f.subspan(s.ip + 16, 4));
  }
  constexpr std::string_view kProtocol = "RRoCE";
  if (sum.protocol != kProtocol) sum.protocol = kProtocol;
  sum.info.clear();
  detail::appendBthInfo(sum.info, f, s.bth);
  at = s.bth + kBthHeader.length;
  for (const IbExt e : s.op->extensions()) {
    detail::appendIbExtInfo(sum.info, f, at, e);
    at += ibExtHeader(e).length;
  }
  d.crc = CrcStatus::Absent;
  d.diagnostics.clear();
  if (verifyCrc_) {
    const IcrcLayout layout{s.ipv6 ? IcrcLayout::Kind::RoceV2Ipv6 : IcrcLayout::Kind::RoceV2Ipv4,
                            s.ip, s.ihl, s.bth, s.end - 4};
    const std::size_t w = s.end - 4;
    const std::uint32_t wire = std::uint32_t{f[w]} | (std::uint32_t{f[w + 1]} << 8) |
                               (std::uint32_t{f[w + 2]} << 16) | (std::uint32_t{f[w + 3]} << 24);
    const std::uint32_t computed = computeIcrc(f, layout);
    d.crc = computed == wire ? CrcStatus::Good : CrcStatus::Bad;
    if (computed != wire)
      d.diagnostics.push_back({Severity::Error, detail::badIcrcMessage(computed, wire), -1});
  }
  return true;
}

}  // namespace rdmascope::packets
