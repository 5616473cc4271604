// Writes a classic pcap of mixed RoCEv2 traffic for the decode benchmark: RC SENDs, RDMA
// WRITEs and READs of various sizes segmented at the path MTU, READ requests and responses,
// ACKs, and atomics with their ATOMIC ACKs, on one connection over IPv4 at MTU 4096 and one
// over IPv6 at MTU 1024. Every frame is built by the packet layer (buildRoceV2), so every ICRC
// is good. Writes until the file holds at least MIN_FRAMES frames and MIN_MIB MiB.
// Usage: make_roce_capture FILE [MIN_FRAMES [MIN_MIB]]   (defaults 1000000, 1024)
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "rdmascope/packets/ib_builder.h"
#include "rdmascope/packets/ib_opcodes.h"
#include "rdmascope/packets_io/capture_writer.h"

namespace {

namespace packets = rdmascope::packets;
namespace io = rdmascope::packets_io;
using packets::IbOpcode;

// One RC connection seen on the wire: the requester's and the responder's direction.
struct Connection {
  packets::RoceAddressing toResponder, toRequester;
  std::uint32_t requesterQp = 0, responderQp = 0;
  std::uint32_t mtu = 4096;
  std::uint32_t sqPsn = 0, msn = 0;
};

class Generator {
 public:
  explicit Generator(io::CaptureWriter& w) : w_(w) {}

  std::uint64_t frames() const { return frames_; }
  std::uint64_t bytes() const { return bytes_; }
  bool ok() const { return ok_; }

  // One operation, chosen by a fixed pseudo-random sequence.
  void operation(Connection& c) {
    const std::uint32_t r = next();
    const std::uint32_t kind = r % 100;
    if (kind < 30) {
      static constexpr std::uint32_t kSizes[] = {32, 200, 1024, 3000, 4096, 12000, 65536};
      send(c, kSizes[(r >> 8) % std::size(kSizes)]);
    } else if (kind < 60) {
      static constexpr std::uint32_t kSizes[] = {512, 1024, 4096, 16384, 65536, 131072};
      write(c, kSizes[(r >> 8) % std::size(kSizes)]);
    } else if (kind < 90) {
      static constexpr std::uint32_t kSizes[] = {64, 1024, 8192, 65536};
      read(c, kSizes[(r >> 8) % std::size(kSizes)]);
    } else {
      atomic(c, (r >> 8) & 1);
    }
  }

 private:
  std::uint32_t next() {
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint32_t>(state_ >> 33);
  }

  void emit(const packets::RoceAddressing& a, const packets::IbPacket& p) {
    const auto frame = packets::buildRoceV2(a, p);
    // Time advances as on a 100 Gb/s link: 0.08 ns per byte.
    timeNs_ += static_cast<std::int64_t>(frame.size() * 8 / 100 + 1);
    ok_ = ok_ && w_.write(frame, timeNs_);
    ++frames_;
    bytes_ += 16 + frame.size();
  }

  packets::IbPacket packet(IbOpcode op, std::uint32_t qp, std::uint32_t psn,
                           std::uint32_t payload) {
    packets::IbPacket p;
    p.bth.opcode = static_cast<std::uint8_t>(op);
    p.bth.destQp = qp;
    p.bth.psn = psn & 0xffffff;
    p.payload.resize(payload);
    for (std::uint32_t i = 0; i < payload; i += 64)
      p.payload[i] = static_cast<std::uint8_t>(psn + i);
    return p;
  }

  void ack(Connection& c, std::uint32_t psn) {
    auto p = packet(IbOpcode::RcAcknowledge, c.requesterQp, psn, 0);
    p.aeth = packets::Aeth::ack(++c.msn & 0xffffff, 16);
    emit(c.toRequester, p);
  }

  // A message of `size` bytes from requester to responder, segmented at the MTU.
  void segmented(Connection& c, std::uint32_t size, IbOpcode first, IbOpcode middle, IbOpcode last,
                 IbOpcode only, bool reth) {
    const std::uint32_t packetsNeeded = size == 0 ? 1 : (size + c.mtu - 1) / c.mtu;
    for (std::uint32_t i = 0; i < packetsNeeded; ++i) {
      const bool isFirst = i == 0, isLast = i + 1 == packetsNeeded;
      const IbOpcode op = isFirst && isLast ? only : isFirst ? first : isLast ? last : middle;
      const std::uint32_t len = isLast ? size - i * c.mtu : c.mtu;
      auto p = packet(op, c.responderQp, c.sqPsn++, len);
      p.bth.ackReq = isLast;
      if (reth && isFirst)
        p.reth = packets::Reth{0x7f0000000000ull + c.sqPsn * 64ull, 0x1234, size};
      emit(c.toResponder, p);
    }
    ack(c, c.sqPsn - 1);
  }

  void send(Connection& c, std::uint32_t size) {
    segmented(c, size, IbOpcode::RcSendFirst, IbOpcode::RcSendMiddle, IbOpcode::RcSendLast,
              IbOpcode::RcSendOnly, false);
  }

  void write(Connection& c, std::uint32_t size) {
    segmented(c, size, IbOpcode::RcRdmaWriteFirst, IbOpcode::RcRdmaWriteMiddle,
              IbOpcode::RcRdmaWriteLast, IbOpcode::RcRdmaWriteOnly, true);
  }

  void read(Connection& c, std::uint32_t size) {
    auto req = packet(IbOpcode::RcRdmaReadRequest, c.responderQp, c.sqPsn, 0);
    req.bth.ackReq = true;
    req.reth = packets::Reth{0x7f1000000000ull + c.sqPsn * 64ull, 0x5678, size};
    emit(c.toResponder, req);
    const std::uint32_t n = (size + c.mtu - 1) / c.mtu;
    for (std::uint32_t i = 0; i < n; ++i) {
      const bool isFirst = i == 0, isLast = i + 1 == n;
      const IbOpcode op = isFirst && isLast ? IbOpcode::RcRdmaReadResponseOnly
                          : isFirst         ? IbOpcode::RcRdmaReadResponseFirst
                          : isLast          ? IbOpcode::RcRdmaReadResponseLast
                                            : IbOpcode::RcRdmaReadResponseMiddle;
      auto p = packet(op, c.requesterQp, c.sqPsn + i, isLast ? size - i * c.mtu : c.mtu);
      if (isFirst || isLast) p.aeth = packets::Aeth::ack(++c.msn & 0xffffff, 16);
      emit(c.toRequester, p);
    }
    c.sqPsn += n;
  }

  void atomic(Connection& c, bool compareSwap) {
    auto p = packet(compareSwap ? IbOpcode::RcCompareSwap : IbOpcode::RcFetchAdd, c.responderQp,
                    c.sqPsn, 0);
    p.bth.ackReq = true;
    p.atomicEth = packets::AtomicEth{0x7f2000000000ull + c.sqPsn * 8ull, 0x9abc, 1, 0};
    emit(c.toResponder, p);
    auto r = packet(IbOpcode::RcAtomicAcknowledge, c.requesterQp, c.sqPsn++, 0);
    r.aeth = packets::Aeth::ack(++c.msn & 0xffffff, 16);
    r.atomicAckEth = packets::AtomicAckEth{c.sqPsn};
    emit(c.toRequester, r);
  }

  io::CaptureWriter& w_;
  std::uint64_t state_ = 0x2545f4914f6cdd1dull;
  std::int64_t timeNs_ = 1700000000LL * 1000000000LL;
  std::uint64_t frames_ = 0, bytes_ = 24;
  bool ok_ = true;
};

Connection connection(bool ipv6, std::uint32_t mtu) {
  Connection c;
  c.mtu = mtu;
  c.requesterQp = ipv6 ? 0x000101 : 0x000011;
  c.responderQp = ipv6 ? 0x000102 : 0x000012;
  c.sqPsn = ipv6 ? 0xfff000 : 1000;  // the IPv6 PSNs wrap around
  auto& a = c.toResponder;
  if (ipv6) {
    a.srcIp = *packets::IpAddress::parse("fd00::1");
    a.dstIp = *packets::IpAddress::parse("fd00::2");
    a.flowLabel = 0x4242;
  }
  a.udpSrcPort = ipv6 ? 50001 : 50000;
  auto& b = c.toRequester;
  b = a;
  std::swap(b.srcIp, b.dstIp);
  std::swap(b.srcMac, b.dstMac);
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: make_roce_capture FILE [MIN_FRAMES [MIN_MIB]]\n");
    return 2;
  }
  const std::string path = argv[1];
  const std::uint64_t minFrames = argc > 2 ? std::stoull(argv[2]) : 1000000;
  const std::uint64_t minBytes = (argc > 3 ? std::stoull(argv[3]) : 1024) << 20;
  std::string error;
  auto w = io::CaptureWriter::open(path, packets::LinkType::Ethernet, error);
  if (!w) {
    std::fprintf(stderr, "make_roce_capture: %s\n", error.c_str());
    return 1;
  }
  Generator g(*w);
  Connection v4 = connection(false, 4096), v6 = connection(true, 1024);
  std::uint64_t op = 0;
  while ((g.frames() < minFrames || g.bytes() < minBytes) && g.ok())
    g.operation(++op % 4 == 0 ? v4 : v6);
  if (!g.ok() || !w->close()) {
    std::fprintf(stderr, "make_roce_capture: %s\n", w->error().c_str());
    return 1;
  }
  std::printf("%s: %llu frames, %llu bytes (%.2f GiB), %.0f bytes per frame on average\n",
              path.c_str(), static_cast<unsigned long long>(g.frames()),
              static_cast<unsigned long long>(g.bytes()),
              static_cast<double>(g.bytes()) / (1 << 30),
              static_cast<double>(g.bytes() - 24) / static_cast<double>(g.frames()) - 16);
  return 0;
}
