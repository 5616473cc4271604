#pragma once
// The frames a switched fabric makes or changes on the way: 802.1Qbb PAUSE (through the packet
// layer's builder), CNPs, the IPv4 ECN bits, the 802.1Q priority tag of PCP classification.

#include <array>
#include <cstdint>
#include <cstring>

#include "frame.h"
#include "rdmascope/packets/mac_control.h"
#include "rdmascope/packets/net_headers.h"
#include "wire_format.h"

namespace rdmascope::sim {

inline constexpr std::uint16_t kEtherTypeVlan = packets::kEtherTypeVlan;
inline constexpr std::uint8_t kBthOpcodeCnp = 0x81;

inline std::uint32_t get16(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 8) | p[1];
}
inline std::uint32_t get32(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
         p[3];
}

/// Where the IP header starts (after an 802.1Q tag when there is one).
inline std::size_t l3Offset(const Frame& f) {
  return get16(f.hdr.data() + 12) == kEtherTypeVlan ? 18 : 14;
}

inline bool isPause(const Frame& f) {
  return f.hdrLen >= 16 && get16(f.hdr.data() + 12) == packets::kEtherTypeMacControl;
}

/// ECT(0) or ECT(1) in an IPv4 RoCE frame.
inline bool isEcnCapable(const Frame& f) {
  const std::size_t l3 = l3Offset(f);
  if (get16(f.hdr.data() + l3 - 2) != packets::kEtherTypeIpv4) return false;
  const std::uint8_t ecn = f.hdr[l3 + 1] & 0x3;
  return ecn == 1 || ecn == 2;
}

/// Sets CE and recomputes the IPv4 header checksum (the ICRC masks the ECN bits).
inline void markCe(Frame& f) {
  std::uint8_t* ip = f.hdr.data() + l3Offset(f);
  ip[1] |= 0x3;
  ip[10] = ip[11] = 0;
  const auto sum = static_cast<std::uint16_t>(~packets::onesComplementSum({ip, 20}));
  ip[10] = static_cast<std::uint8_t>(sum >> 8);
  ip[11] = static_cast<std::uint8_t>(sum);
}

/// The MAC of fabric port `id` (locally administered).
inline std::array<std::uint8_t, 6> portMac(int id) {
  return {0x02,
          0x5e,
          0x00,
          static_cast<std::uint8_t>(id >> 16),
          static_cast<std::uint8_t>(id >> 8),
          static_cast<std::uint8_t>(id)};
}

/// Fills `f` with an 802.1Qbb PFC frame pausing `prio` for `quanta` (0: XON).
inline void buildPause(Frame& f, const std::array<std::uint8_t, 6>& mac, std::uint8_t enable,
                       int prio, std::uint16_t quanta) {
  packets::PfcPause p;
  p.enableVector = enable;
  p.quanta[static_cast<std::size_t>(prio)] = quanta;
  const std::vector<std::uint8_t> bytes = packets::buildPfcFrame(mac, p);
  std::memcpy(f.hdr.data(), bytes.data(), bytes.size());
  f.hdrLen = static_cast<std::uint16_t>(bytes.size());
  f.payload = nullptr;
  f.payloadLen = 0;
  f.pad = 0;
  f.trailerLen = 0;
  f.opcode = 0;
}

/// A CNP from `srcIp` (the NP) to the QP `destQp` at `dstIp` (the RP): BTH opcode 0x81 with
/// BECN set (IBTA annex A17.9.3), 16 reserved bytes, ICRC.
inline void buildCnp(Frame& f, const MacAddress& srcMac, std::uint32_t srcIp, std::uint32_t dstIp,
                     std::uint32_t destQp, std::uint8_t tos) {
  static constexpr std::uint8_t kReserved[16] = {};
  WireAddress a;
  a.srcMac = srcMac;
  a.dstMac = {0x02,
              0x00,
              0x0a,
              0x0a,
              static_cast<std::uint8_t>(dstIp >> 8),
              static_cast<std::uint8_t>(dstIp)};
  a.srcGid = ipv4MappedGid(srcIp);
  a.dstGid = ipv4MappedGid(dstIp);
  a.trafficClass = tos;
  a.udpSport = 0xc000;
  PacketDesc k;
  k.opcode = kBthOpcodeCnp;
  k.migReq = false;
  k.becn = true;
  k.destQp = destQp;
  k.payload = kReserved;
  k.payloadLen = sizeof kReserved;
  buildFrame(WireFormat::RoceV2Ipv4, a, k, f);
  f.opcode = kBthOpcodeCnp;
}

struct PauseRequest {
  std::uint8_t enable = 0;
  std::array<std::uint16_t, 8> quanta{};
};

inline PauseRequest parsePause(const Frame& f) {
  PauseRequest r;
  const auto m = packets::parseMacControl({f.hdr.data(), f.hdrLen});
  if (m && m->pfc) {
    r.enable = m->pfc->enableVector;
    r.quanta = m->pfc->quanta;
  } else if (m && m->pauseTime) {
    r.enable = 0xff;
    r.quanta.fill(*m->pauseTime);
  }
  return r;
}

/// Adds an 802.1Q priority tag (VLAN 0) carrying `pcp` after the MAC addresses.
inline void insertVlan(Frame& f, std::uint8_t pcp) {
  std::memmove(f.hdr.data() + 16, f.hdr.data() + 12, f.hdrLen - 12u);
  f.hdr[12] = 0x81;
  f.hdr[13] = 0x00;
  f.hdr[14] = static_cast<std::uint8_t>(pcp << 5);
  f.hdr[15] = 0;
  f.hdrLen = static_cast<std::uint16_t>(f.hdrLen + 4);
}

/// Removes the 802.1Q tag a NIC added (the receiving NIC's MAC takes it off).
inline void stripVlan(Frame& f) {
  if (get16(f.hdr.data() + 12) != kEtherTypeVlan) return;
  std::memmove(f.hdr.data() + 12, f.hdr.data() + 16, f.hdrLen - 16u);
  f.hdrLen = static_cast<std::uint16_t>(f.hdrLen - 4);
}

}  // namespace rdmascope::sim
