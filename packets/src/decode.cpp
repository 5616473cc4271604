#include "rdmascope/packets/decode.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>

#include "dissectors.h"
#include "rdmascope/packets/field_registry.h"
#include "rdmascope/packets/mac_control.h"
#include "rdmascope/packets/net_headers.h"

namespace rdmascope::packets {
namespace detail {
namespace {

std::uint16_t be16(std::span<const std::uint8_t> f, std::size_t at) {
  return static_cast<std::uint16_t>((f[at] << 8) | f[at + 1]);
}

void dissectEtherPayload(DecodeContext& ctx, std::uint16_t type, std::size_t offset,
                         std::int32_t parent) {
  const auto f = ctx.b.frame();
  switch (type) {
    case kEtherTypeIpv4:
      dissectIpv4(ctx, offset, -1);
      return;
    case kEtherTypeIpv6:
      dissectIpv6(ctx, offset, -1);
      return;
    case kEtherTypeRoceV1:
      ctx.end = f.size();
      dissectRoceV1(ctx, offset, f.size(), -1);
      return;
    case kEtherTypeMacControl:
      dissectMacControl(ctx, offset, parent);
      return;
    default:
      dissectData(ctx, offset, f.size(), parent);
      ctx.b.dissection().summary.protocol = "ETH";
      char buf[48];
      std::snprintf(buf, sizeof buf, "Ethertype 0x%04x", type);
      ctx.b.dissection().summary.info = buf;
  }
}

const char* extensionName(std::uint8_t next) {
  switch (next) {
    case kIpProtoEsp:
      return "an Encapsulating Security Payload (ESP)";
    case kIpProtoAh:
      return "an Authentication Header (AH)";
    case 135:
      return "a Mobility header";
    case 139:
      return "a Host Identity Protocol header";
    case 140:
      return "a Shim6 header";
    case 253:
    case 254:
      return "an experimental extension header";
    default:
      return nullptr;
  }
}

// Hop-by-hop and destination options: Pad1, PadN and the type and length of the others.
void addIpv6Options(DecodeContext& ctx, std::size_t at, std::size_t end, std::int32_t parent) {
  const auto f = ctx.b.frame();
  while (at < end) {
    const std::uint8_t type = f[at];
    if (type == 0) {
      const auto opt = ctx.b.addContainer("ipv6.opt", "Pad1", at, 1, parent);
      ctx.b.addField(kIpv6OptionHeader.fields[0], at, opt);
      ctx.b.addText("ipv6.opt.pad1", "Pad1", {}, at, 1, opt);
      ++at;
      continue;
    }
    if (at + 2 > end || at + 2 + f[at + 1] > end) {
      ctx.b.diagnose(Severity::Error, "IPv6 option overruns its extension header", parent);
      return;
    }
    const std::size_t len = f[at + 1];
    const auto name = valueName(kIpv6OptionHeader.fields[0], type);
    const auto opt = ctx.b.addContainer(
        "ipv6.opt", name.empty() ? "IPv6 Option" : std::string(name), at, 2 + len, parent);
    for (const auto& fd : kIpv6OptionHeader.fields)
      ctx.b.addLeafField(fd, at, opt);
    if (type == 1)
      ctx.b.addText("ipv6.opt.padn", "PadN: " + hexBytes(f.subspan(at + 2, len)),
                    hexBytes(f.subspan(at + 2, len)), at + 2, len, opt);
    at += 2 + len;
  }
}

}  // namespace

// Walks the extension headers (hop-by-hop, routing, destination options, fragment) to the
// upper-layer protocol. A payload that cannot be reached (a later fragment, ESP, a header
// not decoded) may hold a RoCE packet: its ICRC is reported unverified, not absent.
void dissectIpv6Payload(DecodeContext& ctx, std::uint8_t next, std::size_t at, std::size_t end,
                        std::int32_t ip) {
  const auto f = ctx.b.frame();
  const std::size_t first = at;
  while (true) {
    switch (next) {
      case kIpProtoUdp:
        ctx.ipv6Extensions = at - first;
        dissectUdp(ctx, at, end, -1);
        return;
      case kIpProtoTcp:
        ctx.ipv6Extensions = at - first;
        dissectTcp(ctx, at, end, -1);
        return;
      case kIpv6NoNextHeader:
        dissectData(ctx, at, end, -1);
        return;
      case kIpv6HopByHop:
      case kIpv6DestinationOptions:
      case kIpv6Routing: {
        const HeaderDef& h = next == kIpv6HopByHop             ? kIpv6HopOptsHeader
                             : next == kIpv6DestinationOptions ? kIpv6DstOptsHeader
                                                               : kIpv6RoutingHeader;
        if (end < at + 8) {
          ctx.b.truncated(h.name, 8, end - at, ip);
          return;
        }
        const std::size_t len = (f[at + 1] + 1u) * 8;
        if (end < at + len) {
          ctx.b.truncated(h.name, len, end - at, ip);
          return;
        }
        const auto node = ctx.b.addContainer(h.key, std::string(h.name), at, len, ip);
        for (const auto& fd : h.fields)
          ctx.b.addLeafField(fd, at, node);
        const std::string_view lenKey = next == kIpv6HopByHop             ? "ipv6.hopopts.len_oct"
                                        : next == kIpv6DestinationOptions ? "ipv6.dstopts.len_oct"
                                                                          : "ipv6.routing.len_oct";
        ctx.b.addNumber(lenKey, "Length: " + std::to_string(len) + " bytes", len,
                        std::to_string(len), at + 1, 1, node);
        if (next != kIpv6Routing) addIpv6Options(ctx, at + 2, at + len, node);
        next = f[at];
        at += len;
        continue;
      }
      case kIpv6Fragment: {
        if (end < at + kIpv6FragmentHeader.length) {
          ctx.b.truncated(kIpv6FragmentHeader.name, kIpv6FragmentHeader.length, end - at, ip);
          return;
        }
        const auto node = ctx.b.addHeader(kIpv6FragmentHeader, at, ip);
        const std::size_t offset = be16(f, at + 2) >> 3;
        const bool more = f[at + 3] & 1;
        next = f[at];
        at += kIpv6FragmentHeader.length;
        if (offset == 0 && !more) continue;  // an atomic fragment: the whole packet is here
        ctx.b.dissection().summary.protocol = "IPv6";
        ctx.b.dissection().summary.info =
            "IPv6 fragment (offset " + std::to_string(offset * 8) + (more ? ", more follow)" : ")");
        dissectData(ctx, at, end, -1);
        if (offset != 0)
          ctx.b.crcUnreachable("IPv6 fragment at offset " + std::to_string(offset * 8) +
                                   ": its upper-layer header is in another fragment, so a "
                                   "RoCE ICRC it may carry is not verified (not reassembled)",
                               node);
        else if (next == kIpProtoUdp && end >= at + 4 && be16(f, at + 2) == ctx.options.roceV2Port)
          ctx.b.crcUnreachable(
              "first IPv6 fragment of a RoCEv2 packet: the ICRC is in a later "
              "fragment and is not verified (not reassembled)",
              node);
        return;
      }
      default:
        if (const char* name = extensionName(next)) {
          dissectData(ctx, at, end, -1);
          ctx.b.crcUnreachable(std::string("IPv6 payload behind ") + name + " (next header " +
                                   std::to_string(next) +
                                   ") is not decoded: a RoCE ICRC it may carry is not verified",
                               ip);
          return;
        }
        dissectData(ctx, at, end, -1);
        return;
    }
  }
}

// printf("%.9f", x) without printf (it formats every frame's time): when x is the double
// nearest to n nanoseconds and below 2^21 s, its 9-decimal rounding is exactly n / 1e9.
std::size_t formatNineDecimals(double x, char* buf, std::size_t size) {
  if (x >= 0 && x < 2097152.0) {
    const auto n = static_cast<std::uint64_t>(std::llround(x * 1e9));
    if (static_cast<double>(n) / 1e9 == x) {
      auto [end, ec] = std::to_chars(buf, buf + size, n / 1'000'000'000);
      if (ec == std::errc() && end + 11 <= buf + size) {
        *end = '.';
        std::uint64_t rest = n % 1'000'000'000;
        for (int i = 9; i >= 1; --i, rest /= 10)
          end[i] = static_cast<char>('0' + rest % 10);
        end[10] = '\0';
        return static_cast<std::size_t>(end + 10 - buf);
      }
    }
  }
  const int n = std::snprintf(buf, size, "%.9f", x);
  return n < 0 || size == 0 ? 0 : std::min(static_cast<std::size_t>(n), size - 1);
}

}  // namespace detail

std::size_t formatTimeRelative(const FrameInfo& info, char (&buf)[48]) {
  return detail::formatNineDecimals(info.timeRelative, buf, sizeof buf);
}

namespace detail {

void formatEpochTime(const FrameInfo& info, char* buf, std::size_t size) {
  if (info.epochNs != 0)
    formatNanoseconds(info.epochNs, buf, size);
  else
    std::snprintf(buf, size, "%.9f", info.timeEpoch);
}

void dissectFrameInfo(DecodeContext& ctx) {
  auto& d = ctx.b.dissection();
  auto& b = ctx.b;
  const bool labels = b.labels();
  const auto len = ctx.info.originalLength ? ctx.info.originalLength : d.frameLength;
  const auto cap = b.frame().size();
  const auto frame = b.addContainer("frame",
                                    labels ? "Frame " + std::to_string(ctx.info.number) + ": " +
                                                 std::to_string(len) + " bytes on wire"
                                           : "",
                                    0, cap, -1);
  const auto number = [&](std::string_view key, const char* name, std::uint64_t v,
                          const char* unit) {
    b.addNumber(key, labels ? name + std::to_string(v) + unit : "", v,
                b.wantsValue(key) ? std::to_string(v) : "", 0, 0, frame);
  };
  number("frame.number", "Frame Number: ", ctx.info.number, "");
  number("frame.len", "Frame Length: ", len, " bytes");
  number("frame.cap_len", "Capture Length: ", cap, "");
  char buf[48];
  if (labels || b.wantsValue("frame.time_relative")) {
    formatNineDecimals(ctx.info.timeRelative, buf, sizeof buf);
    b.addText("frame.time_relative",
              labels ? std::string("Time since first frame: ") + buf + " seconds" : "", buf, 0, 0,
              frame);
  } else {
    b.addText("frame.time_relative", {}, {}, 0, 0, frame);
  }
  if (labels || b.wantsValue("frame.time_epoch")) {
    formatEpochTime(ctx.info, buf, sizeof buf);
    b.addText("frame.time_epoch", labels ? std::string("Epoch Time: ") + buf + " seconds" : "", buf,
              0, 0, frame);
  } else {
    b.addText("frame.time_epoch", {}, {}, 0, 0, frame);
  }
  if (labels || b.wantsValue("frame.time")) {
    const std::string arrival = formatArrivalTime(ctx.info);
    b.addText("frame.time", labels ? "Arrival Time: " + arrival : "", arrival, 0, 0, frame);
  } else {
    b.addText("frame.time", {}, {}, 0, 0, frame);
  }
  if (labels || b.wantsValue("frame.time_delta")) {
    formatNanoseconds(ctx.info.deltaNs, buf, sizeof buf);
    b.addText(
        "frame.time_delta",
        labels ? std::string("Time delta from previous captured frame: ") + buf + " seconds" : "",
        buf, 0, 0, frame);
  } else {
    b.addText("frame.time_delta", {}, {}, 0, 0, frame);
  }
  ctx.protocolsNode = static_cast<std::int32_t>(b.addText("frame.protocols", {}, {}, 0, 0, frame));
}

namespace {
constexpr std::string_view kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
}  // namespace

void formatNanoseconds(std::int64_t ns, char* buf, std::size_t size) {
  // "%s%llu.%09llu" by hand: every frame of a JSON or detail pass has three such times.
  const auto magnitude =
      ns < 0 ? 0 - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
  char* out = buf;
  char* const end = buf + size;
  if (ns < 0 && out < end) *out++ = '-';
  const auto [afterSeconds, ec] = std::to_chars(out, end, magnitude / 1'000'000'000);
  if (ec == std::errc() && afterSeconds + 11 <= end) {
    *afterSeconds = '.';
    std::uint64_t rest = magnitude % 1'000'000'000;
    for (int i = 9; i >= 1; --i, rest /= 10)
      afterSeconds[i] = static_cast<char>('0' + rest % 10);
    afterSeconds[10] = '\0';
    return;
  }
  std::snprintf(buf, size, "%s%llu.%09llu", ns < 0 ? "-" : "",
                static_cast<unsigned long long>(magnitude / 1'000'000'000),
                static_cast<unsigned long long>(magnitude % 1'000'000'000));
}

std::string formatArrivalTime(const FrameInfo& info) {
  std::int64_t ns = info.epochNs;
  if (ns == 0 && info.timeEpoch != 0.0) {
    const double x = std::floor(info.timeEpoch * 1e9);
    ns = x < 9.2e18 && x > -9.2e18 ? static_cast<std::int64_t>(x) : 0;  // NaN too
  }
  // Floor division: a time before 1970 keeps its nanoseconds positive.
  std::int64_t seconds = ns / 1'000'000'000, nanos = ns % 1'000'000'000;
  if (nanos < 0) {
    nanos += 1'000'000'000;
    --seconds;
  }
  // The date and time of day up to the second, and the zone, of the last second asked for:
  // neighbouring frames mostly share their second, and localtime_r is dear per frame.
  struct Second {
    std::int64_t seconds = 0;
    bool valid = false;
    char date[64] = {};  // "Nov  6, 2026 07:21:25"
    char zone[16] = {};
  };
  thread_local Second last;
  if (!last.valid || last.seconds != seconds) {
    const auto t = static_cast<std::time_t>(seconds);
    std::tm tm{};
    if (::localtime_r(&t, &tm) == nullptr || tm.tm_mon < 0 || tm.tm_mon > 11) {
      last.valid = false;
      return "Not representable";
    }
    std::snprintf(last.date, sizeof last.date, "%s %2d, %d %02d:%02d:%02d",
                  kMonths[tm.tm_mon].data(), tm.tm_mday, tm.tm_year + 1900, tm.tm_hour, tm.tm_min,
                  tm.tm_sec);
    std::snprintf(last.zone, sizeof last.zone, "%s", tm.tm_zone != nullptr ? tm.tm_zone : "");
    last.seconds = seconds;
    last.valid = true;
  }
  std::string text = last.date;
  char fraction[11] = {'.'};
  auto rest = static_cast<std::uint64_t>(nanos);
  for (int i = 9; i >= 1; --i, rest /= 10)
    fraction[i] = static_cast<char>('0' + rest % 10);
  text.append(fraction, 10);
  text += ' ';
  text += last.zone;
  return text;
}

void finishProtocols(DecodeContext& ctx) {
  if (ctx.protocolsNode < 0) return;
  auto& b = ctx.b;
  if (!b.labels() && !b.wantsValue("frame.protocols")) return;
  auto& nodes = b.dissection().nodes;
  std::string chain;
  std::string_view last;
  for (const Node& n : nodes) {
    if (n.parent != -1 || n.key == "frame") continue;
    // tshark keeps TCP's undissected payload inside TCP (tcp.payload), not as a data layer.
    if (n.key == "data" && last == "tcp") continue;
    if (!chain.empty()) chain += ':';
    chain += n.key;
    if (n.key == "eth" || n.key == "vlan" || n.key == "ieee8021ad") chain += ":ethertype";
    last = n.key;
  }
  Node& n = nodes[static_cast<std::size_t>(ctx.protocolsNode)];
  if (b.labels()) n.label = "Protocols in frame: " + chain;
  n.value = std::move(chain);
}

void dissectEthernet(DecodeContext& ctx, std::size_t offset) {
  const auto f = ctx.b.frame();
  if (f.size() < offset + kEthernetHeader.length) {
    ctx.b.truncated("Ethernet header", kEthernetHeader.length, f.size() - offset, -1);
    return;
  }
  const auto eth = ctx.b.addHeader(kEthernetHeader, offset, -1);
  auto& s = ctx.b.dissection().summary;
  s.source = formatMac(f.subspan(offset + 6, 6));
  s.destination = formatMac(f.subspan(offset, 6));
  std::uint16_t type = be16(f, offset + 12);
  std::size_t at = offset + 14;
  // Tags stack in any order and number (QinQ, 0x9100, several 0x8100), as tshark reads them.
  while (isVlanTpid(type)) {
    const bool serviceTag = type == kEtherTypeQinQ;
    if (f.size() < at + kVlanHeader.length) {
      ctx.b.truncated(serviceTag ? "802.1ad tag" : "802.1Q tag", kVlanHeader.length, f.size() - at,
                      eth);
      return;
    }
    const auto tag = ctx.b.addHeader(serviceTag ? kIeee8021adHeader : kVlanHeader, at, -1);
    if (ctx.b.labels())
      ctx.b.dissection().nodes[tag].label += ", ID: " + std::to_string(be16(f, at) & 0x0fff);
    type = be16(f, at + 2);
    at += 4;
  }
  dissectEtherPayload(ctx, type, at, eth);
}

void dissectIpv4(DecodeContext& ctx, std::size_t offset, std::int32_t parent) {
  (void)parent;
  const auto f = ctx.b.frame();
  if (f.size() < offset + kIpv4Header.length) {
    ctx.b.truncated("IPv4 header", kIpv4Header.length, f.size() - offset, -1);
    return;
  }
  const std::size_t ihl = (f[offset] & 0x0f) * 4u;
  const std::size_t totalLen = be16(f, offset + 2);
  const auto ip = ctx.b.addContainer("ip", {}, offset, std::min(ihl, f.size() - offset), -1);
  for (const auto& fd : kIpv4Header.fields)
    ctx.b.addLeafField(fd, offset, ip);
  auto& d = ctx.b.dissection();
  d.summary.source = formatIpv4(f.subspan(offset + 12, 4));
  d.summary.destination = formatIpv4(f.subspan(offset + 16, 4));
  if (ctx.b.labels())
    d.nodes[ip].label =
        "Internet Protocol Version 4, Src: " + d.summary.source + ", Dst: " + d.summary.destination;
  d.summary.protocol = "IPv4";
  if ((f[offset] >> 4) != 4) ctx.b.diagnose(Severity::Error, "IPv4 version field is not 4", ip);
  if (ihl < 20) {
    ctx.b.diagnose(Severity::Error,
                   "IPv4 header length " + std::to_string(ihl) + " is below the minimum 20", ip);
    return;
  }
  if (f.size() < offset + ihl) {
    ctx.b.truncated("IPv4 options", ihl, f.size() - offset, ip);
    return;
  }
  const std::uint16_t sum = onesComplementSum(f.subspan(offset, ihl));
  if (sum != 0xffff) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "IPv4 header checksum 0x%04x is wrong (correct: 0x%04x)",
                  be16(f, offset + 10),
                  static_cast<unsigned>(static_cast<std::uint16_t>(~onesComplementSum(
                      f.subspan(offset, ihl), 0x10000u - be16(f, offset + 10)))));
    ctx.b.diagnose(Severity::Warning, buf, ip);
  }
  std::size_t end = offset + totalLen;
  if (totalLen < ihl) {
    ctx.b.diagnose(Severity::Error,
                   "IPv4 total length " + std::to_string(totalLen) + " is shorter than its header",
                   ip);
    return;
  }
  if (end > f.size()) {
    ctx.b.truncated("IPv4 packet", totalLen, f.size() - offset, ip);
    end = f.size();
  }
  ctx.ipOffset = offset;
  ctx.ipVersion = 4;
  ctx.end = end;
  const bool fragment = (be16(f, offset + 6) & 0x3fff) != 0;
  if (fragment) {
    ctx.b.diagnose(Severity::Note, "IPv4 fragment: payload not reassembled", ip);
    dissectData(ctx, offset + ihl, end, -1);
    const std::size_t fragOffset = (be16(f, offset + 6) & 0x1fff) * 8u;
    const std::size_t udp = offset + ihl;
    if (fragOffset != 0)
      ctx.b.crcUnreachable("IPv4 fragment at offset " + std::to_string(fragOffset) +
                               ": its upper-layer header is in another fragment, so a RoCE "
                               "ICRC it may carry is not verified (not reassembled)",
                           ip);
    else if (f[offset + 9] == kIpProtoUdp && end >= udp + 4 &&
             be16(f, udp + 2) == ctx.options.roceV2Port)
      ctx.b.crcUnreachable(
          "first IPv4 fragment of a RoCEv2 packet: the ICRC is in a later "
          "fragment and is not verified (not reassembled)",
          ip);
    return;
  }
  switch (f[offset + 9]) {
    case kIpProtoUdp:
      dissectUdp(ctx, offset + ihl, end, -1);
      return;
    case kIpProtoTcp:
      dissectTcp(ctx, offset + ihl, end, -1);
      return;
    default:
      dissectData(ctx, offset + ihl, end, -1);
  }
}

void dissectIpv6(DecodeContext& ctx, std::size_t offset, std::int32_t parent) {
  (void)parent;
  const auto f = ctx.b.frame();
  if (f.size() < offset + kIpv6Header.length) {
    ctx.b.truncated("IPv6 header", kIpv6Header.length, f.size() - offset, -1);
    return;
  }
  const auto ip = ctx.b.addHeader(kIpv6Header, offset, -1);
  auto& d = ctx.b.dissection();
  d.summary.source = formatIpv6(f.subspan(offset + 8, 16));
  d.summary.destination = formatIpv6(f.subspan(offset + 24, 16));
  d.summary.protocol = "IPv6";
  if (ctx.b.labels())
    d.nodes[ip].label =
        "Internet Protocol Version 6, Src: " + d.summary.source + ", Dst: " + d.summary.destination;
  if ((f[offset] >> 4) != 6) ctx.b.diagnose(Severity::Error, "IPv6 version field is not 6", ip);
  std::size_t end = offset + 40 + be16(f, offset + 4);
  if (end > f.size()) {
    ctx.b.truncated("IPv6 payload", end - offset, f.size() - offset, ip);
    end = f.size();
  }
  ctx.ipOffset = offset;
  ctx.ipVersion = 6;
  ctx.end = end;
  dissectIpv6Payload(ctx, f[offset + 6], offset + 40, end, ip);
}

void dissectUdp(DecodeContext& ctx, std::size_t offset, std::size_t end, std::int32_t parent) {
  (void)parent;
  const auto f = ctx.b.frame();
  if (end < offset + kUdpHeader.length) {
    ctx.b.truncated("UDP header", kUdpHeader.length, end - offset, -1);
    return;
  }
  const auto udp = ctx.b.addHeader(kUdpHeader, offset, -1);
  const std::uint16_t sport = be16(f, offset), dport = be16(f, offset + 2);
  const std::size_t len = be16(f, offset + 4);
  auto& d = ctx.b.dissection();
  if (ctx.b.labels())
    d.nodes[udp].label = "User Datagram Protocol, Src Port: " + std::to_string(sport) +
                         ", Dst Port: " + std::to_string(dport);
  d.summary.protocol = "UDP";
  d.summary.info = std::to_string(sport) + " \u2192 " + std::to_string(dport) +
                   " Len=" + std::to_string(len >= 8 ? len - 8 : 0);
  if (len < 8) {
    ctx.b.diagnose(Severity::Error, "UDP length " + std::to_string(len) + " is below 8", udp);
    return;
  }
  std::size_t udpEnd = offset + len;
  if (udpEnd > end) {
    ctx.b.truncated("UDP datagram", len, end - offset, udp);
    udpEnd = end;
  }
  ctx.udpOffset = offset;
  ctx.end = udpEnd;
  if (dport == ctx.options.roceV2Port) {
    dissectRoceV2(ctx, offset + 8, udpEnd, -1);
    return;
  }
  dissectData(ctx, offset + 8, udpEnd, -1);
}

void dissectTcp(DecodeContext& ctx, std::size_t offset, std::size_t end, std::int32_t parent) {
  (void)parent;
  const auto f = ctx.b.frame();
  if (end < offset + kTcpHeader.length) {
    ctx.b.truncated("TCP header", kTcpHeader.length, end - offset, -1);
    return;
  }
  const std::size_t hlen = (f[offset + 12] >> 4) * 4u;
  const auto tcp = ctx.b.addContainer("tcp", {}, offset, std::min(hlen, end - offset), -1);
  for (const auto& fd : kTcpHeader.fields)
    ctx.b.addLeafField(fd, offset, tcp);
  const std::uint16_t sport = be16(f, offset), dport = be16(f, offset + 2);
  auto& d = ctx.b.dissection();
  const std::size_t payload = end > offset + hlen ? end - offset - hlen : 0;
  if (ctx.b.labels())
    d.nodes[tcp].label = "Transmission Control Protocol, Src Port: " + std::to_string(sport) +
                         ", Dst Port: " + std::to_string(dport) +
                         ", Len: " + std::to_string(payload);
  ctx.b.addNumber("tcp.len", ctx.b.labels() ? "TCP Segment Len: " + std::to_string(payload) : "",
                  payload, ctx.b.wantsValue("tcp.len") ? std::to_string(payload) : "", offset + 12,
                  1, tcp);
  d.summary.protocol = "TCP";
  static constexpr const char* kFlagNames[] = {"FIN", "SYN", "RST", "PSH", "ACK", "URG"};
  std::string flags;
  for (int i = 0; i < 6; ++i)  // tshark lists the flags from the lowest bit: [SYN, ACK]
    if (f[offset + 13] & (1 << i)) flags += std::string(flags.empty() ? "" : ", ") + kFlagNames[i];
  d.summary.info = std::to_string(sport) + " \u2192 " + std::to_string(dport) + " [" + flags +
                   "] Len=" + std::to_string(payload);
  if (hlen < 20) {
    ctx.b.diagnose(Severity::Error,
                   "TCP header length " + std::to_string(hlen) + " is below the minimum 20", tcp);
    return;
  }
  if (end < offset + hlen) {
    ctx.b.truncated("TCP options", hlen, end - offset, tcp);
    return;
  }
  // Stream dissectors also see segments without payload: a SYN fixes the stream's start.
  if (ctx.tcpPayload) {
    TcpSegmentFacts seg{ctx.ipOffset, ctx.ipVersion, offset, offset + hlen, end};
    ctx.tcpPayload->dissect(ctx, seg, -1);
    return;
  }
  if (payload == 0) return;
  dissectData(ctx, offset + hlen, end, -1);
}

void dissectData(DecodeContext& ctx, std::size_t offset, std::size_t end, std::int32_t parent) {
  if (end <= offset) return;
  const auto f = ctx.b.frame();
  const bool labels = ctx.b.labels();
  const std::size_t len = end - offset;
  const auto data = ctx.b.addContainer(
      "data", labels ? "Data (" + std::to_string(len) + " bytes)" : "", offset, len, parent);
  ctx.b.addText("data.data",
                labels ? "Data: " + hexBytes(f.subspan(offset, std::min<std::size_t>(len, 32))) +
                             (len > 32 ? "..." : "")
                       : "",
                ctx.b.wantsValue("data.data") ? hexBytes(f.subspan(offset, len)) : "", offset, len,
                data);
  ctx.b.addNumber("data.len", labels ? "Length: " + std::to_string(len) : "", len,
                  ctx.b.wantsValue("data.len") ? std::to_string(len) : "", offset, 0, data);
}

void decodeFrameWith(Dissection& d, std::span<const std::uint8_t> frame, LinkType link,
                     const FrameInfo& info, const DecodeOptions& options,
                     TcpPayloadDissector* tcpPayload) {
  detail::recycleNodes(d.nodes);
  d.diagnostics.clear();
  d.summary.source.clear();
  d.summary.destination.clear();
  d.summary.protocol.clear();
  d.summary.info.clear();
  d.crc = CrcStatus::Absent;
  d.frameLength = static_cast<std::uint32_t>(frame.size());
  detail::DissectionBuilder b(d, frame, options.lean, options.labels);
  detail::DecodeContext ctx{b, options, info, tcpPayload};
  ctx.end = frame.size();
  detail::dissectFrameInfo(ctx);
  switch (link) {
    case LinkType::Ethernet:
      detail::dissectEthernet(ctx, 0);
      break;
    case LinkType::Raw:
      if (!frame.empty() && (frame[0] >> 4) == 6)
        detail::dissectIpv6(ctx, 0, -1);
      else
        detail::dissectIpv4(ctx, 0, -1);
      break;
    case LinkType::Ipv4:
      detail::dissectIpv4(ctx, 0, -1);
      break;
    case LinkType::Ipv6:
      detail::dissectIpv6(ctx, 0, -1);
      break;
    case LinkType::InfiniBand:
      detail::dissectNativeIb(ctx, 0, frame.size(), -1);
      break;
    case LinkType::Erf:
      detail::dissectErf(ctx, 0);
      break;
    default:
      b.diagnose(Severity::Error,
                 "unsupported link type " + std::to_string(static_cast<unsigned>(link)));
      detail::dissectData(ctx, 0, frame.size(), -1);
  }
  detail::finishProtocols(ctx);
}

}  // namespace detail

Dissection decodeFrame(std::span<const std::uint8_t> frame, LinkType link, const FrameInfo& info,
                       const DecodeOptions& options) {
  Dissection d;
  detail::decodeFrameWith(d, frame, link, info, options, nullptr);
  return d;
}

void decodeFrameInto(Dissection& out, std::span<const std::uint8_t> frame, LinkType link,
                     const FrameInfo& info, const DecodeOptions& options) {
  detail::decodeFrameWith(out, frame, link, info, options, nullptr);
}

ValueKeys ValueKeys::all() {
  ValueKeys k;
  k.all_ = true;
  return k;
}

void ValueKeys::add(std::string_view key) {
  if (!contains(key)) keys_.emplace_back(key);
  for (const auto target : aliasTargets(key))
    if (!contains(target)) keys_.emplace_back(target);
}

bool ValueKeys::listed(std::string_view key) const {
  // Lengths first: most keys asked about differ in length from every wanted one.
  for (const auto& k : keys_)
    if (k.size() == key.size() && std::string_view(k) == key) return true;
  return false;
}

}  // namespace rdmascope::packets
