#include "rdmascope/packets/iwarp_encoder.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "rdmascope/packets/crc.h"

namespace rdmascope::packets {
namespace {

void append16(std::vector<std::uint8_t>& v, std::uint16_t x) {
  v.push_back(static_cast<std::uint8_t>(x >> 8));
  v.push_back(static_cast<std::uint8_t>(x));
}

void append32(std::vector<std::uint8_t>& v, std::uint32_t x) {
  append16(v, static_cast<std::uint16_t>(x >> 16));
  append16(v, static_cast<std::uint16_t>(x));
}

void append64(std::vector<std::uint8_t>& v, std::uint64_t x) {
  append32(v, static_cast<std::uint32_t>(x >> 32));
  append32(v, static_cast<std::uint32_t>(x));
}

}  // namespace

std::vector<std::uint8_t> encodeMpaStartFrame(const MpaStartFrame& frame) {
  if (frame.privateData.size() > kMpaMaxPrivateData)
    throw std::invalid_argument("MPA private data of " + std::to_string(frame.privateData.size()) +
                                " bytes exceeds the 512-byte limit");
  const char* key = frame.reply ? kMpaReplyKey : kMpaRequestKey;
  std::vector<std::uint8_t> v(key, key + 16);
  v.reserve(kMpaStartHeaderLength + frame.privateData.size());
  v.push_back(static_cast<std::uint8_t>((frame.markers ? 0x80 : 0) | (frame.crc ? 0x40 : 0) |
                                        (frame.reject ? 0x20 : 0)));
  v.push_back(frame.revision);
  append16(v, static_cast<std::uint16_t>(frame.privateData.size()));
  v.insert(v.end(), frame.privateData.begin(), frame.privateData.end());
  return v;
}

std::vector<std::uint8_t> encodeDdpSegment(const DdpSegmentHeader& h,
                                           std::span<const std::uint8_t> payload) {
  std::vector<std::uint8_t> v;
  v.reserve(kDdpUntaggedHeaderLength + payload.size());
  const bool tagged = h.tagged();
  v.push_back(
      static_cast<std::uint8_t>((tagged ? 0x80 : 0) | (h.last ? 0x40 : 0) | (h.ddpVersion & 0x03)));
  v.push_back(static_cast<std::uint8_t>(((h.rdmapVersion & 0x03) << 6) |
                                        (static_cast<std::uint8_t>(h.opcode) & 0x0f)));
  if (tagged) {
    append32(v, h.stag);
    append64(v, h.taggedOffset);
  } else {
    const bool inv =
        h.opcode == RdmapOpcode::SendInvalidate || h.opcode == RdmapOpcode::SendSeInvalidate;
    append32(v, inv ? h.invalidateStag : 0);
    append32(v, h.queue);
    append32(v, h.msn);
    append32(v, h.messageOffset);
  }
  v.insert(v.end(), payload.begin(), payload.end());
  return v;
}

std::vector<std::uint8_t> encodeReadRequest(const ReadRequestHeader& rr) {
  std::vector<std::uint8_t> v;
  append32(v, rr.sinkStag);
  append64(v, rr.sinkTaggedOffset);
  append32(v, rr.readSize);
  append32(v, rr.sourceStag);
  append64(v, rr.sourceTaggedOffset);
  return v;
}

std::vector<std::uint8_t> encodeTerminate(const TerminateHeader& t) {
  std::vector<std::uint8_t> v;
  v.push_back(static_cast<std::uint8_t>(((t.layer & 0x0f) << 4) | (t.errorType & 0x0f)));
  v.push_back(t.errorCode);
  v.push_back(static_cast<std::uint8_t>((t.segmentLengthValid ? 0x80 : 0) |
                                        (t.ddpHeaderIncluded ? 0x40 : 0) |
                                        (t.rdmapHeaderIncluded ? 0x20 : 0)));
  v.push_back(0);
  if (t.ddpHeaderIncluded) {
    if (t.ddpHeader.size() != kDdpTaggedHeaderLength &&
        t.ddpHeader.size() != kDdpUntaggedHeaderLength)
      throw std::invalid_argument("terminated DDP header must be 14 or 18 bytes, not " +
                                  std::to_string(t.ddpHeader.size()));
    append16(v, t.ddpSegmentLength);
    v.insert(v.end(), t.ddpHeader.begin(), t.ddpHeader.end());
  }
  if (t.rdmapHeaderIncluded) {
    if (t.rdmapHeader.size() != kRdmaReadRequestLength)
      throw std::invalid_argument("terminated RDMAP header must be 28 bytes, not " +
                                  std::to_string(t.rdmapHeader.size()));
    v.insert(v.end(), t.rdmapHeader.begin(), t.rdmapHeader.end());
  }
  return v;
}

std::size_t fpduWireLength(std::size_t logicalLength, bool markers, std::uint64_t streamOffset) {
  if (!markers) return logicalLength;
  std::uint64_t p = streamOffset;
  std::size_t remaining = logicalLength, wire = 0;
  while (remaining > 0) {
    if (p % kMpaMarkerInterval == 0) {
      p += kMpaMarkerLength;
      wire += kMpaMarkerLength;
    }
    const std::size_t chunk =
        std::min<std::size_t>(remaining, kMpaMarkerInterval - p % kMpaMarkerInterval);
    p += chunk;
    wire += chunk;
    remaining -= chunk;
  }
  return wire;
}

std::vector<std::uint8_t> encodeFpdu(std::span<const std::uint8_t> ulpdu, const MpaFraming& framing,
                                     std::uint64_t streamOffset) {
  if (ulpdu.size() > 0xffff)
    throw std::invalid_argument("ULPDU of " + std::to_string(ulpdu.size()) +
                                " bytes exceeds the 65535-byte MPA limit");
  std::vector<std::uint8_t> logical;
  logical.reserve(ulpdu.size() + 9);
  append16(logical, static_cast<std::uint16_t>(ulpdu.size()));
  logical.insert(logical.end(), ulpdu.begin(), ulpdu.end());
  logical.resize(logical.size() + mpaPadLength(ulpdu.size()), 0);
  const std::size_t crcAt = logical.size();

  std::vector<std::uint8_t> wire;
  wire.reserve(fpduWireLength(crcAt + kMpaCrcLength, framing.markers, streamOffset));
  const bool leadingMarker = framing.markers && streamOffset % kMpaMarkerInterval == 0;
  const std::uint64_t headerPos = streamOffset + (leadingMarker ? kMpaMarkerLength : 0);
  // Copies logical bytes [from, to), inserting a marker wherever the stream position is a
  // multiple of 512 (the marker interval).
  auto emit = [&](std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to;) {
      const std::uint64_t p = streamOffset + wire.size();
      if (framing.markers && p % kMpaMarkerInterval == 0) {
        append16(wire, 0);
        append16(wire, static_cast<std::uint16_t>(p < headerPos ? 0 : p - headerPos));
        continue;
      }
      const std::size_t chunk = std::min<std::size_t>(
          to - i, framing.markers ? kMpaMarkerInterval - p % kMpaMarkerInterval : to - i);
      wire.insert(wire.end(), logical.begin() + static_cast<std::ptrdiff_t>(i),
                  logical.begin() + static_cast<std::ptrdiff_t>(i + chunk));
      i += chunk;
    }
  };
  emit(0, crcAt);
  // A marker due where the CRC starts precedes it. The CRC covers every wire byte before it,
  // markers included (RFC 5044 section 6.1).
  if (const std::uint64_t p = streamOffset + wire.size();
      framing.markers && p % kMpaMarkerInterval == 0) {
    append16(wire, 0);
    append16(wire, static_cast<std::uint16_t>(p - headerPos));
  }
  const std::uint32_t crc = framing.crc ? crc32c(wire) : 0;
  logical.push_back(static_cast<std::uint8_t>(crc));
  logical.push_back(static_cast<std::uint8_t>(crc >> 8));
  logical.push_back(static_cast<std::uint8_t>(crc >> 16));
  logical.push_back(static_cast<std::uint8_t>(crc >> 24));
  emit(crcAt, logical.size());
  return wire;
}

std::vector<std::uint8_t> MpaStreamEncoder::fpdu(std::span<const std::uint8_t> ulpdu) {
  auto bytes = encodeFpdu(ulpdu, framing_, offset_);
  offset_ += bytes.size();
  return bytes;
}

}  // namespace rdmascope::packets
