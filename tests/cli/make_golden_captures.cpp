// Writes the bundled captures under tests/golden from frames built byte by byte here:
//   rocev2-mixed.pcap  RoCEv2 (IPv4 and IPv6) and RoCEv1 operations, one with a corrupt ICRC
//   net-mixed.pcap     Ethernet/VLAN, IPv4/IPv6, UDP/TCP and ARP frames for the tshark checks
// Usage: make_golden_captures OUTPUT_DIR
#include <cstdio>
#include <string>
#include <vector>

#include "rdmascope/packets/frame_crc_check.h"
#include "rdmascope/packets/net_headers.h"
#include "rdmascope/packets_io/capture_writer.h"

namespace {

using Bytes = std::vector<std::uint8_t>;
using rdmascope::packets::onesComplementSum;

void put16(Bytes& b, unsigned v) {
  b.push_back(static_cast<std::uint8_t>(v >> 8));
  b.push_back(static_cast<std::uint8_t>(v));
}
void put32(Bytes& b, std::uint32_t v) {
  put16(b, v >> 16);
  put16(b, v & 0xffff);
}
void put64(Bytes& b, std::uint64_t v) {
  put32(b, static_cast<std::uint32_t>(v >> 32));
  put32(b, static_cast<std::uint32_t>(v));
}
void append(Bytes& b, const Bytes& more) {
  b.insert(b.end(), more.begin(), more.end());
}

Bytes ethernet(std::uint8_t src, std::uint8_t dst, unsigned type, int vlan = -1) {
  Bytes b = {0x02, 0x00, 0x00, 0x00, 0x00, dst, 0x02, 0x00, 0x00, 0x00, 0x00, src};
  if (vlan >= 0) {
    put16(b, 0x8100);
    put16(b, (3u << 13) | static_cast<unsigned>(vlan));
  }
  put16(b, type);
  return b;
}

Bytes ipv4(std::uint32_t src, std::uint32_t dst, std::uint8_t proto, std::size_t payload,
           std::uint16_t id) {
  Bytes b = {0x45, 0x00};
  put16(b, static_cast<unsigned>(20 + payload));
  put16(b, id);
  put16(b, 0x4000);
  b.push_back(64);
  b.push_back(proto);
  put16(b, 0);
  put32(b, src);
  put32(b, dst);
  const std::uint16_t sum = static_cast<std::uint16_t>(~onesComplementSum(b));
  b[10] = static_cast<std::uint8_t>(sum >> 8);
  b[11] = static_cast<std::uint8_t>(sum);
  return b;
}

Bytes ipv6(std::uint8_t srcLast, std::uint8_t dstLast, std::uint8_t proto, std::size_t payload) {
  Bytes b = {0x60, 0x00, 0x00, 0x00};
  put16(b, static_cast<unsigned>(payload));
  b.push_back(proto);
  b.push_back(64);
  for (std::uint8_t last : {srcLast, dstLast}) {
    put32(b, 0xfd000000);
    put32(b, 0);
    put32(b, 0);
    put32(b, last);
  }
  return b;
}

// The UDP/TCP checksum over the pseudo-header of an IPv4 or IPv6 header.
void transportChecksum(const Bytes& ip, Bytes& segment, std::size_t at) {
  Bytes pseudo;
  if ((ip[0] >> 4) == 4) {
    pseudo.assign(ip.begin() + 12, ip.begin() + 20);
    pseudo.push_back(0);
    pseudo.push_back(ip[9]);
    put16(pseudo, static_cast<unsigned>(segment.size()));
  } else {
    pseudo.assign(ip.begin() + 8, ip.begin() + 40);
    put32(pseudo, static_cast<std::uint32_t>(segment.size()));
    put32(pseudo, ip[6]);
  }
  append(pseudo, segment);
  std::uint16_t sum = static_cast<std::uint16_t>(~onesComplementSum(pseudo));
  if (sum == 0) sum = 0xffff;
  segment[at] = static_cast<std::uint8_t>(sum >> 8);
  segment[at + 1] = static_cast<std::uint8_t>(sum);
}

Bytes udp(unsigned sport, unsigned dport, const Bytes& payload) {
  Bytes b;
  put16(b, sport);
  put16(b, dport);
  put16(b, static_cast<unsigned>(8 + payload.size()));
  put16(b, 0);
  append(b, payload);
  return b;
}

Bytes tcp(unsigned sport, unsigned dport, std::uint32_t seq, std::uint32_t ack, unsigned flags,
          const Bytes& payload) {
  Bytes b;
  put16(b, sport);
  put16(b, dport);
  put32(b, seq);
  put32(b, ack);
  put16(b, (5u << 12) | flags);
  put16(b, 64240);
  put16(b, 0);
  put16(b, 0);
  append(b, payload);
  return b;
}

Bytes payloadOf(std::size_t n, std::uint8_t seed) {
  Bytes b(n);
  for (std::size_t i = 0; i < n; ++i)
    b[i] = static_cast<std::uint8_t>(seed + i * 7);
  return b;
}

// BTH: opcode, SE/M/pad/tver, P_Key, reserved, dest QP, AckReq, PSN.
Bytes bth(std::uint8_t opcode, std::uint32_t qp, std::uint32_t psn, bool ackReq, unsigned pad) {
  Bytes b = {opcode, static_cast<std::uint8_t>(pad << 4), 0xff, 0xff, 0x00};
  b.push_back(static_cast<std::uint8_t>(qp >> 16));
  put16(b, qp & 0xffff);
  put32(b, (ackReq ? 0x80000000u : 0) | (psn & 0xffffff));
  return b;
}
Bytes reth(std::uint64_t va, std::uint32_t rkey, std::uint32_t len) {
  Bytes b;
  put64(b, va);
  put32(b, rkey);
  put32(b, len);
  return b;
}
Bytes aeth(std::uint8_t syndrome, std::uint32_t msn) {
  Bytes b;
  put32(b, (std::uint32_t{syndrome} << 24) | (msn & 0xffffff));
  return b;
}

// Ethernet + IP + UDP(4791) + transport bytes + ICRC; IPv4 when v6 is false.
Bytes roceV2(bool v6, bool fromA, const Bytes& transport, bool corruptIcrc = false) {
  Bytes l4 = transport;
  l4.insert(l4.end(), 4, 0);  // ICRC placeholder
  Bytes u = udp(fromA ? 49152 : 49153, 4791, l4);
  u[6] = u[7] = 0;  // RoCEv2 senders commonly leave the UDP checksum zero
  Bytes ip = v6 ? ipv6(fromA ? 1 : 2, fromA ? 2 : 1, 17, u.size())
                : ipv4(fromA ? 0x0a090001 : 0x0a090002, fromA ? 0x0a090002 : 0x0a090001, 17,
                       u.size(), static_cast<std::uint16_t>(transport.size()));
  if (v6) transportChecksum(ip, u, 6);
  Bytes net = ip;
  append(net, u);
  std::uint32_t icrc = rdmascope::packets::roceIcrc(net, ip.size(), true);
  if (corruptIcrc) icrc ^= 0x00010000;
  for (int i = 0; i < 4; ++i)
    net[net.size() - 4 + i] = static_cast<std::uint8_t>(icrc >> (8 * i));
  Bytes frame = ethernet(fromA ? 1 : 2, fromA ? 2 : 1, v6 ? 0x86dd : 0x0800);
  append(frame, net);
  return frame;
}

// Ethernet (0x8915) + GRH + transport + ICRC.
Bytes roceV1(bool fromA, const Bytes& transport) {
  Bytes grh = ipv6(fromA ? 1 : 2, fromA ? 2 : 1, 0x1b, transport.size() + 4);
  Bytes net = grh;
  append(net, transport);
  net.insert(net.end(), 4, 0);
  const std::uint32_t icrc = rdmascope::packets::roceIcrc(net, 40, false);
  for (int i = 0; i < 4; ++i)
    net[net.size() - 4 + i] = static_cast<std::uint8_t>(icrc >> (8 * i));
  Bytes frame = ethernet(fromA ? 1 : 2, fromA ? 2 : 1, 0x8915);
  append(frame, net);
  return frame;
}

Bytes withPadding(Bytes frame) {
  if (frame.size() < 60) frame.resize(60, 0);
  return frame;
}

Bytes concat(std::initializer_list<Bytes> parts) {
  Bytes b;
  for (const auto& p : parts)
    append(b, p);
  return b;
}

bool writeAll(const std::string& path, const std::vector<Bytes>& frames) {
  std::string error;
  auto w = rdmascope::packets_io::CaptureWriter::open(path, rdmascope::packets::LinkType::Ethernet,
                                                      error);
  if (!w) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return false;
  }
  std::int64_t t = 1'700'000'000'000'000'000;
  for (const auto& f : frames) {
    w->write(f, t);
    t += 125'250;  // 125.25 us apart
  }
  if (!w->close()) {
    std::fprintf(stderr, "%s\n", w->error().c_str());
    return false;
  }
  return true;
}

std::vector<Bytes> roceFrames() {
  const std::uint32_t qpB = 0x000011, qpA = 0x000012;
  return {
      // SEND ONLY 64 bytes, A -> B, then its ACK.
      roceV2(false, true, concat({bth(0x04, qpB, 100, true, 0), payloadOf(64, 1)})),
      withPadding(roceV2(false, false, concat({bth(0x11, qpA, 100, false, 0), aeth(0x1f, 1)}))),
      // RDMA WRITE ONLY 32 bytes with RETH.
      roceV2(false, true,
             concat({bth(0x0a, qpB, 101, true, 0), reth(0x00007f0012340000, 0x1234, 32),
                     payloadOf(32, 9)})),
      withPadding(roceV2(false, false, concat({bth(0x11, qpA, 101, false, 0), aeth(0x1f, 2)}))),
      // RDMA READ REQUEST of 16 bytes and its READ RESPONSE ONLY.
      roceV2(false, true,
             concat({bth(0x0c, qpB, 102, true, 0), reth(0x00007f0012340040, 0x1234, 16)})),
      roceV2(false, false,
             concat({bth(0x10, qpA, 102, false, 0), aeth(0x1f, 3), payloadOf(16, 3)})),
      // SEND ONLY over IPv6, 3 bytes with a pad count of 1.
      roceV2(true, true, concat({bth(0x04, qpB, 103, true, 1), payloadOf(3, 5), Bytes{0}})),
      // A SEND ONLY whose ICRC was damaged on the way.
      roceV2(false, true, concat({bth(0x04, qpB, 104, true, 0), payloadOf(8, 7)}), true),
      // RoCEv1: SEND ONLY over a GRH.
      roceV1(true, concat({bth(0x04, qpB, 105, true, 0), payloadOf(12, 2)})),
  };
}

std::vector<Bytes> netFrames() {
  std::vector<Bytes> out;
  auto v4 = [](std::uint32_t a, std::uint32_t b, std::uint8_t proto, Bytes seg, std::size_t sum,
               int vlan = -1) {
    Bytes ip = ipv4(a, b, proto, seg.size(), static_cast<std::uint16_t>(seg.size() * 3));
    transportChecksum(ip, seg, sum);
    return withPadding(concat({ethernet(1, 2, 0x0800, vlan), ip, seg}));
  };
  auto v6 = [](std::uint8_t a, std::uint8_t b, std::uint8_t proto, Bytes seg, std::size_t sum) {
    Bytes ip = ipv6(a, b, proto, seg.size());
    transportChecksum(ip, seg, sum);
    return concat({ethernet(2, 1, 0x86dd), ip, seg});
  };
  out.push_back(v4(0xc0a80001, 0xc0a80002, 17, udp(5353, 53, payloadOf(12, 4)), 6));
  out.push_back(v4(0xc0a80001, 0xc0a80002, 6, tcp(40000, 80, 0x10000000, 0, 0x002, {}), 16));
  out.push_back(
      v4(0xc0a80002, 0xc0a80001, 6, tcp(80, 40000, 0x20000000, 0x10000001, 0x012, {}), 16));
  out.push_back(v4(0xc0a80001, 0xc0a80002, 6,
                   tcp(40000, 80, 0x10000001, 0x20000001, 0x018, payloadOf(40, 8)), 16));
  out.push_back(v6(1, 2, 17, udp(1234, 5678, payloadOf(20, 6)), 6));
  out.push_back(v6(2, 1, 6, tcp(443, 50000, 0xfffffff0, 7, 0x018, payloadOf(100, 1)), 16));
  out.push_back(v4(0x0a000001, 0x0a000002, 17, udp(7, 7, payloadOf(5, 2)), 6, 42));
  // ARP request who-has 192.168.0.2 tell 192.168.0.1.
  Bytes arp = ethernet(1, 0xff, 0x0806);
  for (int i = 0; i < 6; ++i)
    arp[i] = 0xff;
  append(arp, {0x00, 0x01, 0x08, 0x00, 6, 4, 0x00, 0x01, 0x02, 0, 0,   0,   0, 1,
               192,  168,  0,    1,    0, 0, 0,    0,    0,    0, 192, 168, 0, 2});
  out.push_back(withPadding(arp));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_golden_captures OUTPUT_DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  return writeAll(dir + "/rocev2-mixed.pcap", roceFrames()) &&
                 writeAll(dir + "/net-mixed.pcap", netFrames())
             ? 0
             : 1;
}
