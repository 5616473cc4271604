// libFuzzer target: arbitrary bytes become the TCP segments of one connection fed to
// CaptureDecoder, after a valid handshake and MPA Request/Reply or without them.
//
// Input: one flags byte, then records until the input ends:
//   flags bit 0: start with a TCP handshake and a valid MPA Request and Reply
//   flags bits 1/2: M in the Request/Reply; bit 3: C in both; bit 4: IPv6
//   flags bit 5: wrap each record's payload in a valid FPDU (fuzzes DDP/RDMAP deeper)
//   flags bit 6: also decode the whole input as one raw Ethernet frame
//   record: byte 0 bit 7 = sender (0 client, 1 server), bits 0-6 = sequence jitter
//           (-64..63 octets from the expected sequence number: overlaps, gaps, repeats);
//           byte 1 = payload length; then the payload.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "rdmascope/packets/iwarp_encoder.h"
#include "rdmascope/packets/net_builder.h"
#include "rdmascope/packets/stream_decoder.h"

namespace rdmascope::fuzz {

// Also compiled into packets_tests (with RDMASCOPE_FUZZ_NO_ENTRY), which replays the seed
// corpus and every saved crash input as regression tests.
inline int mpaStream(const std::uint8_t* data, std::size_t size) {
  using namespace rdmascope::packets;
  if (size == 0) return 0;
  const std::uint8_t flags = data[0];
  std::span<const std::uint8_t> in(data + 1, size - 1);
  const bool ipv6 = flags & 0x10;
  TcpEndpoint client{{2, 0, 0, 0, 0, 1}, IpAddress::v4(10, 0, 0, 1), 40000};
  TcpEndpoint server{{2, 0, 0, 0, 0, 2}, IpAddress::v4(10, 0, 0, 2), 5001};
  if (ipv6) {
    client.ip = IpAddress::v6Address({0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1});
    server.ip = IpAddress::v6Address({0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2});
  }
  CaptureDecoder dec;
  TcpConversation tcp(client, server, 0xffffff00u, 77);
  using Side = TcpConversation::Side;
  const MpaFraming clientFraming{(flags & 0x04) != 0, (flags & 0x08) != 0};
  const MpaFraming serverFraming{(flags & 0x02) != 0, (flags & 0x08) != 0};
  MpaStreamEncoder clientTx(clientFraming), serverTx(serverFraming);
  if (flags & 0x01) {
    for (const auto& f : tcp.handshake())
      dec.decode(f, LinkType::Ethernet);
    MpaStartFrame req;
    req.markers = flags & 0x02;
    req.crc = flags & 0x08;
    MpaStartFrame rep = req;
    rep.reply = true;
    rep.markers = flags & 0x04;
    for (const auto& f : tcp.send(Side::Client, encodeMpaStartFrame(req), 1460))
      dec.decode(f, LinkType::Ethernet);
    for (const auto& f : tcp.send(Side::Server, encodeMpaStartFrame(rep), 1460))
      dec.decode(f, LinkType::Ethernet);
  }
  std::uint32_t next[2] = {tcp.nextSeq(Side::Client), tcp.nextSeq(Side::Server)};
  while (in.size() >= 2) {
    const int side = in[0] >> 7;
    const int jitter = static_cast<int>(in[0] & 0x7f) - 64;
    const std::size_t len = std::min<std::size_t>(in[1], in.size() - 2);
    std::vector<std::uint8_t> payload(in.begin() + 2, in.begin() + 2 + static_cast<long>(len));
    in = in.subspan(2 + len);
    if (flags & 0x20) payload = (side ? serverTx : clientTx).fpdu(payload);
    TcpSegmentSpec s;
    s.src = side ? server : client;
    s.dst = side ? client : server;
    s.seq = next[side] + static_cast<std::uint32_t>(jitter);
    s.flags = tcp_flags::kAck;
    dec.decode(buildTcpFrame(s, payload), LinkType::Ethernet);
    next[side] = s.seq + static_cast<std::uint32_t>(payload.size());
  }
  if (flags & 0x40) dec.decode(std::span(data, size), LinkType::Ethernet);
  return 0;
}

}  // namespace rdmascope::fuzz

#ifndef RDMASCOPE_FUZZ_NO_ENTRY
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return rdmascope::fuzz::mpaStream(data, size);
}
#endif
