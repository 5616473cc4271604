#include "rdmascope/packets/net_builder.h"

#include <algorithm>
#include <stdexcept>

#include "rdmascope/packets/net_headers.h"

namespace rdmascope::packets {
namespace {

void put16(std::vector<std::uint8_t>& v, std::size_t at, std::uint16_t x) {
  v[at] = static_cast<std::uint8_t>(x >> 8);
  v[at + 1] = static_cast<std::uint8_t>(x);
}

void put32(std::vector<std::uint8_t>& v, std::size_t at, std::uint32_t x) {
  put16(v, at, static_cast<std::uint16_t>(x >> 16));
  put16(v, at + 2, static_cast<std::uint16_t>(x));
}

}  // namespace

IpAddress IpAddress::v4(std::uint8_t a, std::uint8_t b, std::uint8_t c, std::uint8_t d) {
  IpAddress ip;
  ip.bytes[0] = a;
  ip.bytes[1] = b;
  ip.bytes[2] = c;
  ip.bytes[3] = d;
  return ip;
}

IpAddress IpAddress::v6Address(const std::array<std::uint8_t, 16>& bytes) {
  IpAddress ip;
  ip.v6 = true;
  ip.bytes = bytes;
  return ip;
}

std::uint16_t tcpChecksum(const IpAddress& src, const IpAddress& dst,
                          std::span<const std::uint8_t> segment) {
  std::uint32_t sum = onesComplementSum(src.view());
  sum += onesComplementSum(dst.view());
  const auto len = static_cast<std::uint32_t>(segment.size());
  if (src.v6) {
    sum += (len >> 16) + (len & 0xffff) + kIpProtoTcp;
  } else {
    sum += kIpProtoTcp + len;
  }
  return static_cast<std::uint16_t>(~onesComplementSum(segment, sum));
}

std::vector<std::uint8_t> buildTcpFrame(const TcpSegmentSpec& spec,
                                        std::span<const std::uint8_t> payload) {
  if (spec.src.ip.v6 != spec.dst.ip.v6)
    throw std::invalid_argument("TCP frame endpoints mix IPv4 and IPv6 addresses");
  const bool v6 = spec.src.ip.v6;
  const std::size_t ipLen = v6 ? 40 : 20;
  const std::size_t tcpLen = 20 + payload.size();
  if ((v6 ? tcpLen : tcpLen + ipLen) > 0xffff)
    throw std::invalid_argument("TCP payload of " + std::to_string(payload.size()) +
                                " bytes does not fit an IP packet");
  std::vector<std::uint8_t> f(14 + ipLen + tcpLen, 0);
  std::copy(spec.dst.mac.begin(), spec.dst.mac.end(), f.begin());
  std::copy(spec.src.mac.begin(), spec.src.mac.end(), f.begin() + 6);
  put16(f, 12, v6 ? kEtherTypeIpv6 : kEtherTypeIpv4);
  const std::size_t ip = 14;
  if (v6) {
    f[ip] = 0x60;
    put16(f, ip + 4, static_cast<std::uint16_t>(tcpLen));
    f[ip + 6] = kIpProtoTcp;
    f[ip + 7] = spec.ttl;
    std::copy(spec.src.ip.bytes.begin(), spec.src.ip.bytes.end(), f.begin() + ip + 8);
    std::copy(spec.dst.ip.bytes.begin(), spec.dst.ip.bytes.end(), f.begin() + ip + 24);
  } else {
    f[ip] = 0x45;
    put16(f, ip + 2, static_cast<std::uint16_t>(ipLen + tcpLen));
    put16(f, ip + 4, spec.ipId);
    put16(f, ip + 6, 0x4000);  // don't fragment
    f[ip + 8] = spec.ttl;
    f[ip + 9] = kIpProtoTcp;
    std::copy_n(spec.src.ip.bytes.begin(), 4, f.begin() + ip + 12);
    std::copy_n(spec.dst.ip.bytes.begin(), 4, f.begin() + ip + 16);
    put16(f, ip + 10, static_cast<std::uint16_t>(~onesComplementSum(std::span(f).subspan(ip, 20))));
  }
  const std::size_t tcp = ip + ipLen;
  put16(f, tcp, spec.src.port);
  put16(f, tcp + 2, spec.dst.port);
  put32(f, tcp + 4, spec.seq);
  put32(f, tcp + 8, spec.ack);
  f[tcp + 12] = 0x50;
  f[tcp + 13] = spec.flags;
  put16(f, tcp + 14, spec.window);
  std::copy(payload.begin(), payload.end(), f.begin() + tcp + 20);
  put16(f, tcp + 16, tcpChecksum(spec.src.ip, spec.dst.ip, std::span(f).subspan(tcp)));
  return f;
}

TcpConversation::TcpConversation(TcpEndpoint client, TcpEndpoint server, std::uint32_t clientIsn,
                                 std::uint32_t serverIsn)
    : client_(client), server_(server), clientSeq_(clientIsn), serverSeq_(serverIsn) {}

std::vector<std::uint8_t> TcpConversation::segment(Side from, std::span<const std::uint8_t> data,
                                                   std::uint8_t flags) {
  TcpSegmentSpec spec;
  const bool client = from == Side::Client;
  spec.src = client ? client_ : server_;
  spec.dst = client ? server_ : client_;
  auto& seq = client ? clientSeq_ : serverSeq_;
  spec.seq = seq;
  spec.ack = (flags & tcp_flags::kAck) ? (client ? serverSeq_ : clientSeq_) : 0;
  spec.flags = flags;
  spec.ipId = ipId_++;
  auto frame = buildTcpFrame(spec, data);
  seq += static_cast<std::uint32_t>(data.size());
  if (flags & (tcp_flags::kSyn | tcp_flags::kFin)) ++seq;
  return frame;
}

std::vector<std::vector<std::uint8_t>> TcpConversation::handshake() {
  std::vector<std::vector<std::uint8_t>> frames;
  frames.push_back(segment(Side::Client, {}, tcp_flags::kSyn));
  // The SYN-ACK acknowledges the client's SYN, which segment() already counted.
  frames.push_back(segment(Side::Server, {}, tcp_flags::kSyn | tcp_flags::kAck));
  frames.push_back(segment(Side::Client, {}, tcp_flags::kAck));
  return frames;
}

std::vector<std::vector<std::uint8_t>> TcpConversation::send(Side from,
                                                             std::span<const std::uint8_t> data,
                                                             std::size_t mss) {
  if (mss == 0) throw std::invalid_argument("TCP MSS must be at least 1 byte");
  std::vector<std::vector<std::uint8_t>> frames;
  for (std::size_t at = 0; at < data.size(); at += mss) {
    const std::size_t n = std::min(mss, data.size() - at);
    const bool last = at + n == data.size();
    frames.push_back(
        segment(from, data.subspan(at, n),
                static_cast<std::uint8_t>(tcp_flags::kAck | (last ? tcp_flags::kPsh : 0))));
  }
  return frames;
}

}  // namespace rdmascope::packets
