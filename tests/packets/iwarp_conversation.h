#pragma once
// Builds a complete iWARP conversation (TCP handshake, MPA Request/Reply, FPDUs both ways) as
// Ethernet frames, for the iWARP tests and the tshark oracle test.

#include <cstdint>
#include <string>
#include <vector>

#include "rdmascope/packets/iwarp_encoder.h"
#include "rdmascope/packets/net_builder.h"

namespace rdmascope::packets::testing {

struct ConversationSpec {
  bool requestMarkers = false;  ///< M in the Request: the server sends markers
  bool replyMarkers = false;    ///< M in the Reply: the client sends markers
  bool crc = true;
  bool ipv6 = false;
  std::size_t mss = 1460;
  bool fpduPerSegment = true;  ///< each FPDU starts a segment (otherwise one byte stream)
};

/// One DDP segment of the conversation, as the tests expect to decode it.
struct Message {
  bool fromClient = true;
  DdpSegmentHeader header;
  std::vector<std::uint8_t> payload;  ///< after the DDP/RDMAP header
};

struct Conversation {
  std::vector<std::vector<std::uint8_t>> frames;
  std::vector<Message> messages;
  std::vector<std::uint8_t> clientStream;  ///< every byte the client sent (MPA Request first)
  std::vector<std::uint8_t> serverStream;
};

inline std::vector<std::uint8_t> pattern(std::size_t n, std::uint8_t seed) {
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = static_cast<std::uint8_t>(seed + i * 7);
  return v;
}

inline std::vector<Message> sampleMessages() {
  std::vector<Message> m;
  auto add = [&](bool client, RdmapOpcode op, std::vector<std::uint8_t> payload) {
    Message msg;
    msg.fromClient = client;
    msg.header.opcode = op;
    msg.payload = std::move(payload);
    m.push_back(std::move(msg));
    return &m.back().header;
  };
  add(true, RdmapOpcode::Send, pattern(101, 1))->msn = 1;
  auto* w = add(true, RdmapOpcode::Write, pattern(1203, 2));
  w->stag = 0x12345678;
  w->taggedOffset = 0x00007f0011223344ull;
  ReadRequestHeader rr{0xaabbccdd, 0x1000, 4096, 0x11223344, 0x2000};
  auto* r = add(true, RdmapOpcode::ReadRequest, encodeReadRequest(rr));
  r->queue = kDdpQueueReadRequest;
  r->msn = 1;
  auto* resp = add(false, RdmapOpcode::ReadResponse, pattern(998, 3));
  resp->stag = 0xaabbccdd;
  resp->taggedOffset = 0x1000;
  auto* si = add(false, RdmapOpcode::SendInvalidate, pattern(30, 4));
  si->invalidateStag = 0x01020304;
  si->msn = 1;
  auto* sse = add(false, RdmapOpcode::SendSe, pattern(2, 5));
  sse->msn = 2;
  sse->last = true;
  auto* more = add(true, RdmapOpcode::Send, pattern(40, 6));
  more->msn = 2;
  more->last = false;
  TerminateHeader t;
  t.layer = 1;
  t.errorType = 2;
  t.errorCode = 1;
  t.ddpHeaderIncluded = true;
  t.ddpSegmentLength = 58;
  t.ddpHeader = std::vector<std::uint8_t>(18, 0x5a);
  auto* term = add(false, RdmapOpcode::Terminate, encodeTerminate(t));
  term->queue = kDdpQueueTerminate;
  term->msn = 1;
  return m;
}

inline constexpr std::uint32_t kClientIsn = 0xfffffe00u;  // the client's sequence wraps
inline constexpr std::uint32_t kServerIsn = 1000;

inline TcpEndpoint clientEndpoint(bool ipv6 = false) {
  TcpEndpoint e{{0x02, 0, 0, 0, 0, 1}, IpAddress::v4(10, 0, 0, 1), 40000};
  if (ipv6) e.ip = IpAddress::v6Address({0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1});
  return e;
}

inline TcpEndpoint serverEndpoint(bool ipv6 = false) {
  TcpEndpoint e{{0x02, 0, 0, 0, 0, 2}, IpAddress::v4(10, 0, 0, 2), 5001};
  if (ipv6) e.ip = IpAddress::v6Address({0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2});
  return e;
}

inline Conversation buildConversation(const ConversationSpec& spec,
                                      std::vector<Message> messages = sampleMessages()) {
  TcpConversation tcp(clientEndpoint(spec.ipv6), serverEndpoint(spec.ipv6), kClientIsn, kServerIsn);
  Conversation conv;
  conv.messages = messages;
  conv.frames = tcp.handshake();
  using Side = TcpConversation::Side;
  std::vector<std::uint8_t> clientFpdus, serverFpdus;
  auto emit = [&](Side side, const std::vector<std::uint8_t>& bytes, bool startFrame = false) {
    auto& stream = side == Side::Client ? conv.clientStream : conv.serverStream;
    stream.insert(stream.end(), bytes.begin(), bytes.end());
    if (spec.fpduPerSegment || startFrame) {
      for (auto& f : tcp.send(side, bytes, spec.mss))
        conv.frames.push_back(std::move(f));
    } else {
      auto& fpdus = side == Side::Client ? clientFpdus : serverFpdus;
      fpdus.insert(fpdus.end(), bytes.begin(), bytes.end());
    }
  };
  MpaStartFrame req;
  req.markers = spec.requestMarkers;
  req.crc = spec.crc;
  req.privateData = {1, 2, 3, 4, 5};
  MpaStartFrame rep = req;
  rep.reply = true;
  rep.markers = spec.replyMarkers;
  rep.privateData = {};
  emit(Side::Client, encodeMpaStartFrame(req), true);
  emit(Side::Server, encodeMpaStartFrame(rep), true);
  MpaStreamEncoder clientTx({spec.replyMarkers, spec.crc});
  MpaStreamEncoder serverTx({spec.requestMarkers, spec.crc});
  for (const auto& m : messages) {
    const auto ulpdu = encodeDdpSegment(m.header, m.payload);
    emit(m.fromClient ? Side::Client : Side::Server,
         (m.fromClient ? clientTx : serverTx).fpdu(ulpdu));
  }
  if (!spec.fpduPerSegment) {
    // The FPDUs of each direction as one byte stream cut at the MSS, the client's first.
    for (auto& f : tcp.send(Side::Client, clientFpdus, spec.mss))
      conv.frames.push_back(std::move(f));
    for (auto& f : tcp.send(Side::Server, serverFpdus, spec.mss))
      conv.frames.push_back(std::move(f));
  }
  return conv;
}

}  // namespace rdmascope::packets::testing
