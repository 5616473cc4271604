#include "rdmascope/packets/stream_decoder.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <utility>
#include <vector>

#include "dissectors.h"
#include "iwarp_dissector.h"
#include "rdmascope/packets/iwarp_encoder.h"
#include "rdmascope/packets/iwarp_headers.h"
#include "rdmascope/packets/net_headers.h"

namespace rdmascope::packets {
namespace {

using detail::DissectionBuilder;

// Limits that keep hostile captures from growing memory without bound.
constexpr std::uint64_t kMaxGap = 1u << 22;     // bytes a segment may start beyond the next
constexpr std::size_t kMaxHeld = 1u << 22;      // out-of-order bytes held per direction
constexpr std::size_t kMaxUnparsed = 1u << 24;  // reassembled bytes waiting for a PDU end
constexpr std::size_t kMaxConnections = 1u << 16;

std::uint16_t be16(std::span<const std::uint8_t> f, std::size_t at) {
  return static_cast<std::uint16_t>((f[at] << 8) | f[at + 1]);
}

std::uint32_t be32(std::span<const std::uint8_t> f, std::size_t at) {
  return (std::uint32_t{f[at]} << 24) | (std::uint32_t{f[at + 1]} << 16) |
         (std::uint32_t{f[at + 2]} << 8) | f[at + 3];
}

struct Endpoint {
  std::array<std::uint8_t, 16> ip{};
  std::uint16_t port = 0;
  auto operator<=>(const Endpoint&) const = default;
};

enum class Phase { Start, AwaitReply, Fpdu, Raw, Rejected };

/// One direction of a connection: its reassembled byte stream and MPA state.
struct Direction {
  bool started = false;
  std::uint32_t baseSeq = 0;  // sequence number of stream offset 0
  std::uint64_t next = 0;     // stream offset of the first byte not yet received
  std::map<std::uint64_t, std::vector<std::uint8_t>> held;  // out-of-order segments
  std::size_t heldBytes = 0;
  std::vector<std::uint8_t> buf;  // received, unconsumed bytes from `consumed`
  std::size_t head = 0;
  std::uint64_t consumed = 0;
  Phase phase = Phase::Start;
  std::uint64_t fpduBase = 0;
  bool markers = false;
  bool crc = false;

  std::span<const std::uint8_t> view() const { return {buf.data() + head, buf.size() - head}; }
  void append(std::span<const std::uint8_t> bytes) {
    if (head > 0 && head * 2 >= buf.size()) {
      buf.erase(buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(head));
      head = 0;
    }
    buf.insert(buf.end(), bytes.begin(), bytes.end());
  }
  void consume(std::size_t n) {
    head += n;
    consumed += n;
    if (head == buf.size()) {
      buf.clear();
      head = 0;
    }
  }
  void consumeAll() { consume(buf.size() - head); }
};

struct Connection {
  Direction dir[2];
  int initiator = -1;
  detail::MpaStartInfo request;
  std::uint64_t requestEnd = 0;
};

/// Where the current segment's payload sits in the stream and in the frame.
struct SegmentMap {
  std::uint64_t start = 0;  // stream offset of the payload's first byte
  std::uint64_t end = 0;
  std::size_t payloadOffset = 0;  // frame offset of the payload's first byte
  std::uint16_t srcPort = 0;
  std::uint16_t dstPort = 0;
};

// Copies the nodes of a unit dissected on its own (offsets local to the unit) into the frame's
// dissection; toStream maps a local offset to a stream offset, and the part of each range
// that lies in this segment becomes the node's frame range.
template <class ToStream>
void graft(DissectionBuilder& b, const Dissection& part, std::size_t partSize,
           const SegmentMap& seg, ToStream toStream) {
  auto& out = b.dissection();
  const auto base = static_cast<std::int32_t>(out.nodes.size());
  for (const auto& n : part.nodes) {
    Node m = n;
    m.parent = n.parent < 0 ? -1 : base + n.parent;
    m.offset = static_cast<std::uint32_t>(seg.payloadOffset);
    m.length = 0;
    if (n.length > 0 && n.offset + n.length <= partSize) {
      const std::uint64_t first = toStream(n.offset);
      const std::uint64_t last = toStream(n.offset + n.length - 1);
      const std::uint64_t lo = std::max(first, seg.start);
      const std::uint64_t hi = std::min(last, seg.end - 1);
      if (seg.end > seg.start && lo <= hi) {
        m.offset = static_cast<std::uint32_t>(seg.payloadOffset + (lo - seg.start));
        m.length = static_cast<std::uint32_t>(hi - lo + 1);
      }
    } else if (n.offset < partSize) {
      const std::uint64_t s = toStream(n.offset);
      if (s >= seg.start && s < seg.end)
        m.offset = static_cast<std::uint32_t>(seg.payloadOffset + (s - seg.start));
    }
    out.nodes.push_back(std::move(m));
  }
  for (const auto& diag : part.diagnostics)
    out.diagnostics.push_back({diag.severity, diag.message, diag.node < 0 ? -1 : base + diag.node});
  if (part.crc != CrcStatus::Absent) b.crcResult(part.crc == CrcStatus::Good);
}

}  // namespace

struct CaptureDecoder::Impl : detail::TcpPayloadDissector {
  DecodeOptions options;
  std::map<std::pair<Endpoint, Endpoint>, Connection> connections;
  std::vector<StreamUnit> units;  // of the frame decoded last

  void dissect(detail::DecodeContext& ctx, const detail::TcpSegmentFacts& seg,
               std::int32_t parent) override;

 private:
  void process(detail::DecodeContext& ctx, Connection& c, int side, const SegmentMap& seg);
  static void segmentData(detail::DecodeContext& ctx, const SegmentMap& seg, std::uint64_t from,
                          const std::string& why);
};

void CaptureDecoder::Impl::segmentData(detail::DecodeContext& ctx, const SegmentMap& seg,
                                       std::uint64_t from, const std::string& why) {
  from = std::max(from, seg.start);
  if (from >= seg.end) return;
  const std::size_t at = seg.payloadOffset + static_cast<std::size_t>(from - seg.start);
  const std::size_t n = static_cast<std::size_t>(seg.end - from);
  const auto bytes = ctx.b.frame().subspan(at, n);
  ctx.b.addText("tcp.segment_data",
                "TCP segment data (" + std::to_string(n) + " bytes) [" + why + "]",
                detail::hexBytes(bytes), at, n, -1);
}

void CaptureDecoder::Impl::dissect(detail::DecodeContext& ctx, const detail::TcpSegmentFacts& seg,
                                   std::int32_t parent) {
  const auto f = ctx.b.frame();
  Endpoint src, dst;
  const std::size_t ipLen = seg.ipVersion == 6 ? 16 : 4;
  const std::size_t srcAt = seg.ipOffset + (seg.ipVersion == 6 ? 8 : 12);
  std::copy_n(f.begin() + static_cast<std::ptrdiff_t>(srcAt), ipLen, src.ip.begin());
  std::copy_n(f.begin() + static_cast<std::ptrdiff_t>(srcAt + ipLen), ipLen, dst.ip.begin());
  src.port = be16(f, seg.tcpOffset);
  dst.port = be16(f, seg.tcpOffset + 2);
  const std::uint32_t seq = be32(f, seg.tcpOffset + 4);
  const bool syn = f[seg.tcpOffset + 13] & 0x02;
  const std::size_t len = seg.payloadEnd - seg.payloadOffset;

  const bool forward = src < dst;
  const auto key = forward ? std::make_pair(src, dst) : std::make_pair(dst, src);
  auto it = connections.find(key);
  if (it == connections.end()) {
    if (connections.size() >= kMaxConnections) {
      ctx.b.diagnose(Severity::Note, "too many TCP connections tracked; payload not reassembled");
      if (len > 0) detail::dissectData(ctx, seg.payloadOffset, seg.payloadEnd, parent);
      return;
    }
    it = connections.emplace(key, Connection{}).first;
  }
  Connection& c = it->second;
  const int side = forward ? 0 : 1;
  const std::uint32_t dataSeq = seq + (syn ? 1u : 0u);
  // A SYN with a new initial sequence number reuses the 4-tuple for a new connection.
  if (syn && c.dir[side].started && c.dir[side].baseSeq != dataSeq) c = Connection{};
  Direction& d = c.dir[side];
  if (!d.started) {
    d.started = true;
    d.baseSeq = dataSeq;
  }
  if (len == 0) return;

  const auto delta =
      static_cast<std::int32_t>(dataSeq - (d.baseSeq + static_cast<std::uint32_t>(d.next)));
  const std::int64_t start = static_cast<std::int64_t>(d.next) + delta;
  SegmentMap map;
  map.payloadOffset = seg.payloadOffset;
  map.srcPort = src.port;
  map.dstPort = dst.port;
  if (start < 0) {
    ctx.b.diagnose(Severity::Note, "TCP segment precedes the start of the reassembled stream");
    detail::dissectData(ctx, seg.payloadOffset, seg.payloadEnd, parent);
    return;
  }
  map.start = static_cast<std::uint64_t>(start);
  map.end = map.start + len;
  const auto payload = f.subspan(seg.payloadOffset, len);
  if (map.end <= d.next) {
    ctx.b.diagnose(Severity::Note, "TCP retransmission: all " + std::to_string(len) +
                                       " bytes were received before");
    segmentData(ctx, map, map.start, "retransmission");
    return;
  }
  if (map.start > d.next) {
    const std::uint64_t gap = map.start - d.next;
    if (gap > kMaxGap || d.heldBytes + len > kMaxHeld) {
      ctx.b.diagnose(Severity::Warning,
                     "TCP segment " + std::to_string(gap) +
                         " bytes beyond the next expected byte; not reassembled");
      segmentData(ctx, map, map.start, "not reassembled");
      return;
    }
    auto& slot = d.held[map.start];
    if (slot.size() < len) {
      d.heldBytes += len - slot.size();
      slot.assign(payload.begin(), payload.end());
    }
    ctx.b.diagnose(Severity::Note, "TCP segment out of order: " + std::to_string(gap) +
                                       " bytes missing before it; held for reassembly");
    segmentData(ctx, map, map.start, "out of order, held");
    return;
  }
  d.append(payload.subspan(static_cast<std::size_t>(d.next - map.start)));
  d.next = map.end;
  while (!d.held.empty() && d.held.begin()->first <= d.next) {
    auto h = d.held.begin();
    const std::uint64_t hEnd = h->first + h->second.size();
    if (hEnd > d.next) {
      d.append(std::span(h->second).subspan(static_cast<std::size_t>(d.next - h->first)));
      d.next = hEnd;
    }
    d.heldBytes -= h->second.size();
    d.held.erase(h);
  }
  process(ctx, c, side, map);
}

void CaptureDecoder::Impl::process(detail::DecodeContext& ctx, Connection& c, int side,
                                   const SegmentMap& seg) {
  Direction& d = c.dir[side];
  Direction& other = c.dir[1 - side];
  auto& summary = ctx.b.dissection().summary;
  const std::string ports = std::to_string(seg.srcPort) + " > " + std::to_string(seg.dstPort) + " ";
  std::string info;
  auto addInfo = [&](const std::string& s) { info += (info.empty() ? "" : ", ") + ports + s; };
  bool fpdu = false, startFrame = false;

  for (bool more = true; more;) {
    const auto v = d.view();
    switch (d.phase) {
      case Phase::Start: {
        if (v.empty()) {
          more = false;
          break;
        }
        const std::size_t n = std::min<std::size_t>(v.size(), 16);
        const bool req = std::memcmp(v.data(), kMpaRequestKey, n) == 0;
        const bool rep = std::memcmp(v.data(), kMpaReplyKey, n) == 0;
        if (d.consumed != 0 || (!req && !rep)) {
          d.phase = Phase::Raw;
          break;
        }
        if (v.size() < kMpaStartHeaderLength) {
          more = false;
          break;
        }
        // A Request opens a connection's MPA exchange once; a Reply answers the other side.
        if ((req && c.initiator >= 0) || (rep && c.initiator != 1 - side)) {
          d.phase = Phase::Raw;
          break;
        }
        const std::size_t pd = be16(v, 18);
        if (pd > kMpaMaxPrivateData) {
          ctx.b.diagnose(Severity::Error, "MPA private data length " + std::to_string(pd) +
                                              " exceeds 512 bytes; not an MPA start frame");
          d.phase = Phase::Raw;
          break;
        }
        const std::size_t total = kMpaStartHeaderLength + pd;
        if (v.size() < total) {
          more = false;
          break;
        }
        Dissection part;
        DissectionBuilder pb(part, v.subspan(0, total));
        const auto mpa = detail::dissectMpaStartFrame(pb, -1);
        const std::uint64_t at = d.consumed;
        StreamUnit unit;
        unit.kind = mpa.reply ? StreamUnit::Kind::MpaReply : StreamUnit::Kind::MpaRequest;
        unit.firstNode = static_cast<std::int32_t>(ctx.b.dissection().nodes.size());
        graft(ctx.b, part, total, seg, [at](std::size_t i) { return at + i; });
        d.consume(total);
        unit.endNode = static_cast<std::int32_t>(ctx.b.dissection().nodes.size());
        unit.firstSeq = d.baseSeq + static_cast<std::uint32_t>(at);
        unit.endSeq = d.baseSeq + static_cast<std::uint32_t>(d.consumed);
        unit.markers = mpa.markers;
        unit.crc = mpa.crc;
        unit.reject = mpa.reject;
        unit.revision = mpa.revision;
        units.push_back(unit);
        startFrame = true;
        addInfo(mpa.reply ? "MPA Reply Frame" : "MPA Request Frame");
        if (!mpa.reply) {
          c.initiator = side;
          c.request = mpa;
          c.requestEnd = d.consumed;
          d.phase = Phase::AwaitReply;
        } else if (mpa.reject) {
          d.phase = other.phase = Phase::Rejected;
        } else {
          const bool crc = c.request.crc || mpa.crc;
          d.phase = Phase::Fpdu;
          d.fpduBase = d.consumed;
          d.markers = c.request.markers;  // the initiator asked the responder for markers
          d.crc = crc;
          other.phase = Phase::Fpdu;
          other.fpduBase = c.requestEnd;
          other.markers = mpa.markers;
          other.crc = crc;
        }
        break;
      }
      case Phase::Fpdu: {
        const std::uint64_t rel = d.consumed - d.fpduBase;
        const std::size_t lenAt = d.markers && rel % kMpaMarkerInterval == 0 ? kMpaMarkerLength : 0;
        if (v.size() < lenAt + 2) {
          more = false;
          break;
        }
        const std::size_t ulpdu = be16(v, lenAt);
        const std::size_t wireLen =
            fpduWireLength(2 + ulpdu + mpaPadLength(ulpdu) + kMpaCrcLength, d.markers, rel);
        if (v.size() < wireLen) {
          more = false;
          break;
        }
        const auto wire = v.subspan(0, wireLen);
        const auto layout = detail::splitFpdu(wire, d.markers, rel);
        const std::uint64_t at = d.consumed;
        StreamUnit unit;
        unit.firstNode = static_cast<std::int32_t>(ctx.b.dissection().nodes.size());
        Dissection framing;
        DissectionBuilder fb(framing, wire);
        detail::dissectFpduFraming(fb, layout, d.crc && options.verifyCrc, -1);
        unit.crcStatus = framing.crc;
        graft(ctx.b, framing, wireLen, seg, [at](std::size_t i) { return at + i; });
        const std::size_t ulpduLen = std::min(ulpdu, layout.logical.size() - 2);
        Dissection ddp;
        DissectionBuilder db(ddp, std::span(layout.logical).subspan(2, ulpduLen));
        addInfo(detail::dissectDdpRdmap(db, -1));
        graft(ctx.b, ddp, ulpduLen, seg,
              [at, &layout](std::size_t i) { return at + layout.wireIndex[2 + i]; });
        d.consume(wireLen);
        unit.endNode = static_cast<std::int32_t>(ctx.b.dissection().nodes.size());
        unit.firstSeq = d.baseSeq + static_cast<std::uint32_t>(at);
        unit.endSeq = d.baseSeq + static_cast<std::uint32_t>(d.consumed);
        unit.markers = d.markers;
        unit.crc = d.crc;
        units.push_back(unit);
        fpdu = true;
        break;
      }
      case Phase::AwaitReply:
        if (v.size() > kMaxUnparsed) d.phase = Phase::Raw;
        more = false;
        break;
      case Phase::Raw:
      case Phase::Rejected:
        d.consumeAll();
        more = false;
        break;
    }
  }
  if (d.phase == Phase::Raw || d.phase == Phase::Rejected) {
    if (!fpdu && !startFrame) {
      detail::dissectData(ctx, seg.payloadOffset, seg.payloadOffset + (seg.end - seg.start), -1);
      return;
    }
  } else if (d.consumed < seg.end) {
    segmentData(ctx, seg, d.consumed,
                d.phase == Phase::AwaitReply ? "awaiting the MPA Reply"
                                             : "part of a PDU completed in a later frame");
    if (d.view().size() > kMaxUnparsed) {
      ctx.b.diagnose(Severity::Warning,
                     "more than 16 MiB without a complete MPA PDU; "
                     "stream no longer decoded as MPA");
      d.phase = Phase::Raw;
      d.consumeAll();
    }
  }
  if (fpdu)
    summary.protocol = "DDP/RDMA";
  else if (startFrame)
    summary.protocol = "MPA";
  if (!info.empty()) summary.info = info;
}

namespace {

// dissectIpv4 reads the protocol whatever the version nibble says.
bool ipv4MayReachTcp(std::span<const std::uint8_t> ip) {
  return ip.size() > 9 && ip[9] == kIpProtoTcp;
}

// dissectIpv6 stops short of a header cut short, and goes straight to UDP when the next header
// says so; extension headers are not walked.
bool ipv6MayReachTcp(std::span<const std::uint8_t> ip) {
  return ip.size() >= kIpv6Header.length && ip[6] != kIpProtoUdp;
}

}  // namespace

bool mayReachTcp(std::span<const std::uint8_t> frame, LinkType link) {
  switch (link) {
    case LinkType::Ethernet: {
      std::size_t at = 12;
      while (frame.size() >= at + 2) {
        const auto type = static_cast<std::uint16_t>(frame[at] << 8 | frame[at + 1]);
        if (isVlanTpid(type)) {
          at += 4;
          continue;
        }
        if (type == kEtherTypeIpv6) return ipv6MayReachTcp(frame.subspan(at + 2));
        return type == kEtherTypeIpv4 && ipv4MayReachTcp(frame.subspan(at + 2));
      }
      return false;
    }
    case LinkType::Raw:
      return !frame.empty() && (frame[0] >> 4) == 6 ? ipv6MayReachTcp(frame)
                                                    : ipv4MayReachTcp(frame);
    case LinkType::Ipv4:
      return ipv4MayReachTcp(frame);
    case LinkType::Ipv6:
      return ipv6MayReachTcp(frame);
    case LinkType::Erf:
      return frame.size() < 9 || (frame[8] & 0x7f) != 21;
    case LinkType::InfiniBand:
      return false;
  }
  return false;
}

CaptureDecoder::CaptureDecoder(const DecodeOptions& options) : impl_(std::make_unique<Impl>()) {
  impl_->options = options;
}
CaptureDecoder::~CaptureDecoder() = default;
CaptureDecoder::CaptureDecoder(CaptureDecoder&&) noexcept = default;
CaptureDecoder& CaptureDecoder::operator=(CaptureDecoder&&) noexcept = default;

Dissection CaptureDecoder::decode(std::span<const std::uint8_t> frame, LinkType link,
                                  const FrameInfo& info) {
  Dissection d;
  decodeInto(d, frame, link, info);
  return d;
}

void CaptureDecoder::decodeInto(Dissection& out, std::span<const std::uint8_t> frame, LinkType link,
                                const FrameInfo& info) {
  impl_->units.clear();
  detail::decodeFrameWith(out, frame, link, info, impl_->options, impl_.get());
}

const std::vector<StreamUnit>& CaptureDecoder::lastUnits() const {
  return impl_->units;
}

void CaptureDecoder::reset() {
  impl_->connections.clear();
  impl_->units.clear();
}

std::size_t CaptureDecoder::connectionCount() const {
  return impl_->connections.size();
}

}  // namespace rdmascope::packets
