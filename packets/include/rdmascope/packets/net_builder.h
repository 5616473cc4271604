#pragma once
/// @file net_builder.h
/// Builds Ethernet II / IPv4 or IPv6 / TCP frames with correct lengths and checksums, and
/// whole TCP conversations (handshake, data cut at an MSS) for simulated traffic and tests.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace rdmascope::packets {

/// An IPv4 or IPv6 address (IPv4 uses the first four bytes).
struct IpAddress {
  bool v6 = false;
  std::array<std::uint8_t, 16> bytes{};

  static IpAddress v4(std::uint8_t a, std::uint8_t b, std::uint8_t c, std::uint8_t d);
  static IpAddress v6Address(const std::array<std::uint8_t, 16>& bytes);
  std::span<const std::uint8_t> view() const { return {bytes.data(), v6 ? 16u : 4u}; }
  bool operator==(const IpAddress&) const = default;
};

/// One end of a TCP connection.
struct TcpEndpoint {
  std::array<std::uint8_t, 6> mac{};
  IpAddress ip;
  std::uint16_t port = 0;
};

/// TCP flag bits as in the header's low byte.
namespace tcp_flags {
inline constexpr std::uint8_t kFin = 0x01;
inline constexpr std::uint8_t kSyn = 0x02;
inline constexpr std::uint8_t kRst = 0x04;
inline constexpr std::uint8_t kPsh = 0x08;
inline constexpr std::uint8_t kAck = 0x10;
}  // namespace tcp_flags

/// What goes into one TCP segment.
struct TcpSegmentSpec {
  TcpEndpoint src;
  TcpEndpoint dst;
  std::uint32_t seq = 0;
  std::uint32_t ack = 0;
  std::uint8_t flags = tcp_flags::kAck;
  std::uint16_t window = 65535;
  std::uint8_t ttl = 64;
  std::uint16_t ipId = 0;  ///< IPv4 identification
};

/// An Ethernet frame carrying one TCP segment. Both endpoints must use the same IP version.
/// IP total/payload length, IPv4 header checksum and TCP checksum (with the pseudo-header)
/// are computed. Throws std::invalid_argument on mixed IP versions or a payload that does
/// not fit an IP packet.
std::vector<std::uint8_t> buildTcpFrame(const TcpSegmentSpec& spec,
                                        std::span<const std::uint8_t> payload);

/// Computes the TCP checksum over the pseudo-header, header and payload of a TCP segment
/// whose checksum field is zero (or already set: then a correct segment yields 0).
std::uint16_t tcpChecksum(const IpAddress& src, const IpAddress& dst,
                          std::span<const std::uint8_t> segment);

/// A TCP conversation between a client and a server: tracks both sequence numbers and
/// produces the frames of a handshake and of data cut into MSS-sized segments.
class TcpConversation {
 public:
  enum class Side { Client, Server };

  TcpConversation(TcpEndpoint client, TcpEndpoint server, std::uint32_t clientIsn,
                  std::uint32_t serverIsn);

  /// SYN, SYN-ACK, ACK. Afterwards nextSeq() of each side is its ISN + 1.
  std::vector<std::vector<std::uint8_t>> handshake();

  /// Data from one side, cut into segments of at most mss bytes (PSH on the last one).
  std::vector<std::vector<std::uint8_t>> send(Side from, std::span<const std::uint8_t> data,
                                              std::size_t mss);

  /// One segment with the given payload at the side's current sequence number.
  std::vector<std::uint8_t> segment(Side from, std::span<const std::uint8_t> data,
                                    std::uint8_t flags);

  std::uint32_t nextSeq(Side side) const { return side == Side::Client ? clientSeq_ : serverSeq_; }

 private:
  TcpEndpoint client_;
  TcpEndpoint server_;
  std::uint32_t clientSeq_;
  std::uint32_t serverSeq_;
  std::uint16_t ipId_ = 1;
};

}  // namespace rdmascope::packets
