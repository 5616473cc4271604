#pragma once
// The one place where packets become bytes and bytes become packets: Ethernet/IPv4/IPv6/UDP
// (RoCEv2), Ethernet/GRH (RoCEv1) or LRH (native IB), the IB transport headers, and the ICRC.

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "frame.h"
#include "rdmascope/sim/host.h"
#include "rdmascope/sim/network.h"

namespace rdmascope::sim {

/// One transport packet as the requester/responder/completer see it.
struct PacketDesc {
  std::uint8_t opcode = 0;
  bool solicited = false;
  bool migReq = true;  ///< rxe sets M (bth_init with migration state "migrated")
  std::uint8_t pad = 0;
  std::uint16_t pkey = 0xffff;
  bool fecn = false;
  bool becn = false;
  std::uint32_t destQp = 0;
  bool ackReq = false;
  std::uint32_t psn = 0;
  // RETH, also va/rkey of AtomicETH
  std::uint64_t va = 0;
  std::uint32_t rkey = 0;
  std::uint32_t dmaLen = 0;
  // AETH
  std::uint8_t syndrome = 0;
  std::uint32_t msn = 0;
  // AtomicETH
  std::uint64_t swapAdd = 0;
  std::uint64_t compare = 0;
  // AtomicAckETH
  std::uint64_t origData = 0;
  std::uint32_t imm = 0;    ///< host order
  std::uint32_t ieth = 0;   ///< rkey to invalidate
  std::uint32_t qkey = 0;   ///< DETH
  std::uint32_t srcQp = 0;  ///< DETH
  const std::uint8_t* payload = nullptr;
  std::uint32_t payloadLen = 0;
};

/// Addresses of both ends of a packet.
struct WireAddress {
  MacAddress srcMac{}, dstMac{};
  Gid srcGid{}, dstGid{};
  std::uint16_t slid = 0, dlid = 0;
  std::uint16_t udpSport = 0xc000;
  std::uint8_t trafficClass = 0;
  std::uint32_t flowLabel = 0;
  std::uint8_t hopLimit = 64;
  std::uint8_t sl = 0;
  std::uint16_t ipId = 0;
};

/// A received packet, parsed.
struct ParsedPacket {
  PacketDesc pkt;
  WireAddress addr;
  /// The 40 bytes a UD receive buffer gets in front of the payload (IPv4: 20 zero bytes and
  /// the IPv4 header; IPv6/RoCEv1/IB: the IPv6 header or GRH; zeros when there is none).
  std::array<std::uint8_t, 40> grh{};
  bool hasGrh = false;
  std::uint64_t frameNumber = 0;
};

enum class ParseStatus : std::uint8_t { Ok, Truncated, NotRdma, BadHeader, BadIcrc };
std::string_view toString(ParseStatus status);

/// Fills `frame` (headers, payload reference, pad, ICRC/VCRC) for `pkt`.
void buildFrame(WireFormat format, const WireAddress& addr, const PacketDesc& pkt, Frame& frame);

/// Parses and checks the bytes of `frame`. Payload of `out` points into the frame (or into
/// `scratch` when the frame had to be flattened). The ICRC (and VCRC) is verified when
/// `frame.mayBeCorrupt`; otherwise the frame's bytes are those its ICRC was computed over.
ParseStatus parseFrame(WireFormat format, const Frame& frame, ParsedPacket& out,
                       std::vector<std::uint8_t>& scratch);

/// Port GID (IPv4-mapped ::ffff:a.b.c.d) of an IPv4 address.
Gid ipv4MappedGid(std::uint32_t ipv4);

}  // namespace rdmascope::sim
