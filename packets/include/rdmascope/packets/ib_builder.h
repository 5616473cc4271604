#pragma once
/// @file ib_builder.h
/// Typed InfiniBand headers, their encoding and decoding through the field tables of
/// ib_headers.h, and complete frames: RoCEv2 (Ethernet[/802.1Q]/IPv4 or IPv6/UDP 4791),
/// RoCEv1 (Ethernet/GRH, ethertype 0x8915) and native IB (LRH[/GRH]/.../ICRC/VCRC), with every
/// length, checksum, pad count and CRC recomputed. The parser reads the same frames back.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "rdmascope/packets/address.h"
#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/dissection.h"
#include "rdmascope/packets/ib_headers.h"
#include "rdmascope/packets/ib_opcodes.h"

namespace rdmascope::packets {

/// Local Route Header. `pktLen` and `lnh` are recomputed by buildNativeIb.
struct Lrh {
  std::uint8_t vl = 0;
  std::uint8_t lver = 0;
  std::uint8_t sl = 0;
  std::uint8_t lnh = 2;  ///< see Lnh
  std::uint16_t dlid = 0;
  std::uint16_t pktLen = 0;  ///< 4-byte words from the LRH to the end of the ICRC
  std::uint16_t slid = 0;
  bool operator==(const Lrh&) const = default;
};

/// Global Route Header (RoCEv1, native IB global packets). `payLen` and `nextHeader` are
/// recomputed by the builders.
struct Grh {
  std::uint8_t ipVersion = 6;
  std::uint8_t trafficClass = 0;
  std::uint32_t flowLabel = 0;
  std::uint16_t payLen = 0;  ///< bytes from the BTH to the end of the ICRC
  std::uint8_t nextHeader = 0x1b;
  std::uint8_t hopLimit = 64;
  std::array<std::uint8_t, 16> sgid{};
  std::array<std::uint8_t, 16> dgid{};
  bool operator==(const Grh&) const = default;
};

/// Base Transport Header. `padCount` is recomputed by the builders from the payload length.
struct Bth {
  std::uint8_t opcode = 0;
  bool solicitedEvent = false;
  bool migReq = false;
  std::uint8_t padCount = 0;
  std::uint8_t tver = 0;
  std::uint16_t pkey = 0xffff;
  bool fecn = false;
  bool becn = false;
  std::uint32_t destQp = 0;  ///< 24 bits
  bool ackReq = false;
  std::uint32_t psn = 0;  ///< 24 bits
  bool operator==(const Bth&) const = default;
};

struct Rdeth {
  std::uint32_t eeContext = 0;  ///< 24 bits
  bool operator==(const Rdeth&) const = default;
};

struct Deth {
  std::uint32_t qkey = 0;
  std::uint32_t srcQp = 0;  ///< 24 bits
  bool operator==(const Deth&) const = default;
};

struct XrcEth {
  std::uint32_t xrcSrq = 0;  ///< 24 bits
  bool operator==(const XrcEth&) const = default;
};

struct Reth {
  std::uint64_t va = 0;
  std::uint32_t rkey = 0;
  std::uint32_t dmaLength = 0;
  bool operator==(const Reth&) const = default;
};

/// ACK Extended Transport Header with syndrome helpers.
struct Aeth {
  std::uint8_t syndrome = 0x1f;  ///< default: ACK with credits invalid
  std::uint32_t msn = 0;         ///< 24 bits

  AethKind kind() const { return static_cast<AethKind>((syndrome >> 5) & 3); }
  std::uint8_t value() const { return syndrome & 31; }  ///< credits, timer or NAK code
  static Aeth ack(std::uint32_t msn, std::uint8_t credits = kAethCreditsInvalid) {
    return {static_cast<std::uint8_t>(credits & 31), msn};
  }
  static Aeth rnrNak(std::uint32_t msn, std::uint8_t timer) {
    return {static_cast<std::uint8_t>(0x20 | (timer & 31)), msn};
  }
  static Aeth nak(std::uint32_t msn, NakCode code) {
    return {static_cast<std::uint8_t>(0x60 | static_cast<std::uint8_t>(code)), msn};
  }
  bool operator==(const Aeth&) const = default;
};

struct AtomicEth {
  std::uint64_t va = 0;
  std::uint32_t rkey = 0;
  std::uint64_t swapAdd = 0;  ///< swap value (CmpSwap) or addend (FetchAdd)
  std::uint64_t compare = 0;
  bool operator==(const AtomicEth&) const = default;
};

struct AtomicAckEth {
  std::uint64_t origRemoteData = 0;
  bool operator==(const AtomicAckEth&) const = default;
};

struct Feth {
  std::uint8_t selectivity = 0;    ///< 2 bits
  std::uint8_t placementType = 0;  ///< 4 bits
  bool operator==(const Feth&) const = default;
};

/// One IB transport packet: the BTH, the extension headers its opcode calls for, and the
/// payload. The builders emit exactly the extension headers the opcode table lists, in wire
/// order; an extension header the opcode needs but the packet leaves empty is written as
/// zeros, and one the opcode does not carry is ignored. Unassigned opcodes carry the payload
/// right after the BTH.
struct IbPacket {
  Bth bth;
  std::optional<Rdeth> rdeth;
  std::optional<Deth> deth;
  std::optional<XrcEth> xrcEth;
  std::optional<Reth> reth;
  std::optional<Aeth> aeth;
  std::optional<AtomicEth> atomicEth;
  std::optional<AtomicAckEth> atomicAckEth;
  std::optional<std::uint32_t> immDt;  ///< immediate data, as a big-endian number
  std::optional<std::uint32_t> ieth;   ///< R_Key to invalidate
  std::optional<Feth> feth;
  std::vector<std::uint8_t> payload;
  bool operator==(const IbPacket&) const = default;
};

/// A VLAN tag: 802.1Q (TPID 0x8100), 802.1ad service tag (0x88a8) or pre-standard QinQ
/// (0x9100).
struct VlanTag {
  std::uint8_t priority = 0;  ///< PCP, 3 bits
  bool dei = false;
  std::uint16_t id = 0;  ///< 12 bits
  std::uint16_t tpid = 0x8100;
  bool operator==(const VlanTag&) const = default;
};

/// An IPv6 extension header between the IPv6 header and UDP. The builder writes its next
/// header and length bytes; `body` is what follows them:
///   - hop-by-hop (0) and destination options (60): options, padded by the builder with
///     Pad1/PadN to a multiple of 8 bytes;
///   - routing (43): routing type, segments left, type-specific data (zero-padded likewise);
///   - fragment (44): 6 bytes, fragment offset/flags then identification (the builder writes
///     the reserved byte).
struct Ipv6Extension {
  std::uint8_t type = 0;
  std::vector<std::uint8_t> body;
  bool operator==(const Ipv6Extension&) const = default;
};

/// Carrier of a RoCEv2 packet. The source and destination must both be IPv4 or both IPv6.
struct RoceAddressing {
  MacAddress srcMac{0x02, 0, 0, 0, 0, 0x01};
  MacAddress dstMac{0x02, 0, 0, 0, 0, 0x02};
  std::optional<VlanTag> vlan;                ///< the innermost tag
  std::vector<VlanTag> outerVlans;            ///< tags before `vlan`, outermost first
  std::vector<Ipv6Extension> ipv6Extensions;  ///< IPv6 only, in order
  IpAddress srcIp = IpAddress::v4(10, 0, 0, 1);
  IpAddress dstIp = IpAddress::v4(10, 0, 0, 2);
  std::uint16_t udpSrcPort = 49152;
  std::uint16_t udpDstPort = 4791;
  std::uint8_t dscp = 0;
  std::uint8_t ecn = 0;         ///< 2 bits; 3 = CE
  std::uint8_t ttl = 64;        ///< IPv4 TTL or IPv6 hop limit
  std::uint16_t ipId = 0;       ///< IPv4 identification
  bool dontFragment = true;     ///< IPv4 DF (rxe sets it)
  std::uint32_t flowLabel = 0;  ///< IPv6 only, 20 bits
  bool operator==(const RoceAddressing&) const = default;
};

/// Carrier of a RoCEv1 packet: Ethernet and the GRH (payLen/nextHeader recomputed).
struct RoceV1Addressing {
  MacAddress srcMac{0x02, 0, 0, 0, 0, 0x01};
  MacAddress dstMac{0x02, 0, 0, 0, 0, 0x02};
  std::optional<VlanTag> vlan;      ///< the innermost tag
  std::vector<VlanTag> outerVlans;  ///< tags before `vlan`, outermost first
  Grh grh;
  bool operator==(const RoceV1Addressing&) const = default;
};

/// Carrier of a native IB packet: the LRH (lnh/pktLen recomputed) and an optional GRH.
struct NativeIbAddressing {
  Lrh lrh;
  std::optional<Grh> grh;
  bool operator==(const NativeIbAddressing&) const = default;
};

// ---- Headers <-> bytes, through the field tables -------------------------------------

void encodeLrh(const Lrh& h, std::span<std::uint8_t> out);  ///< out.size() >= 8
void encodeGrh(const Grh& h, std::span<std::uint8_t> out);  ///< >= 40
void encodeBth(const Bth& h, std::span<std::uint8_t> out);  ///< >= 12
void encodeRdeth(const Rdeth& h, std::span<std::uint8_t> out);
void encodeDeth(const Deth& h, std::span<std::uint8_t> out);
void encodeXrcEth(const XrcEth& h, std::span<std::uint8_t> out);
void encodeReth(const Reth& h, std::span<std::uint8_t> out);
void encodeAeth(const Aeth& h, std::span<std::uint8_t> out);
void encodeAtomicEth(const AtomicEth& h, std::span<std::uint8_t> out);
void encodeAtomicAckEth(const AtomicAckEth& h, std::span<std::uint8_t> out);
void encodeFeth(const Feth& h, std::span<std::uint8_t> out);

Lrh decodeLrh(std::span<const std::uint8_t> in);  ///< in.size() >= 8
Grh decodeGrh(std::span<const std::uint8_t> in);
Bth decodeBth(std::span<const std::uint8_t> in);
Rdeth decodeRdeth(std::span<const std::uint8_t> in);
Deth decodeDeth(std::span<const std::uint8_t> in);
XrcEth decodeXrcEth(std::span<const std::uint8_t> in);
Reth decodeReth(std::span<const std::uint8_t> in);
Aeth decodeAeth(std::span<const std::uint8_t> in);
AtomicEth decodeAtomicEth(std::span<const std::uint8_t> in);
AtomicAckEth decodeAtomicAckEth(std::span<const std::uint8_t> in);
Feth decodeFeth(std::span<const std::uint8_t> in);

/// BTH, extension headers, payload and pad (pad count set in the BTH), without the ICRC.
std::vector<std::uint8_t> encodeIbTransport(const IbPacket& packet);

/// Reads BTH, extension headers and payload from `transport` (BTH up to, excluding, the
/// ICRC). nullopt with `error` set when the bytes are too short for what the opcode needs.
std::optional<IbPacket> decodeIbTransport(std::span<const std::uint8_t> transport,
                                          std::string* error = nullptr);

/// decodeIbTransport without copying the payload: fills `packet`'s headers (its payload left
/// as it is) and returns where the payload lies in `transport` (without the pad).
std::optional<std::span<const std::uint8_t>> decodeIbHeaders(
    std::span<const std::uint8_t> transport, IbPacket& packet, std::string* error = nullptr);

// ---- Complete frames ----------------------------------------------------------------------

/// Ethernet/[VLAN tags]/IPv4 or IPv6[/extension headers]/UDP/BTH/ETHs/payload/pad/ICRC. IP total
/// length, IPv4 header checksum, UDP length (checksum 0, as rxe sends it), pad count and ICRC are
/// computed.
std::vector<std::uint8_t> buildRoceV2(const RoceAddressing& addr, const IbPacket& packet);

/// Ethernet/[802.1Q]/GRH (ethertype 0x8915)/BTH/.../ICRC.
std::vector<std::uint8_t> buildRoceV1(const RoceV1Addressing& addr, const IbPacket& packet);

/// LRH/[GRH]/BTH/.../ICRC/VCRC (pcap link type 247, or inside an ERF record).
std::vector<std::uint8_t> buildNativeIb(const NativeIbAddressing& addr, const IbPacket& packet);

/// Wraps a native IB packet in an ERF record of type 21 (INFINIBAND), as ibdump writes them
/// (pcap link type 197). `timestamp` is ERF's 32.32 fixed-point seconds.
std::vector<std::uint8_t> wrapErfInfiniband(std::span<const std::uint8_t> ibPacket,
                                            std::uint64_t timestamp = 0);

// ---- Parsing frames back -----------------------------------------------------------------

/// How the IB transport was carried.
enum class IbCarrier : std::uint8_t { RoceV2, RoceV1, NativeIb };

/// A frame read back into typed headers.
struct ParsedIbFrame {
  IbCarrier carrier = IbCarrier::RoceV2;
  IbPacket packet;
  std::optional<MacAddress> srcMac, dstMac;  ///< Ethernet carriers
  std::optional<VlanTag> vlan;               ///< the innermost VLAN tag
  std::vector<VlanTag> outerVlans;           ///< tags before it, outermost first
  std::optional<IpAddress> srcIp, dstIp;     ///< RoCEv2
  std::uint16_t udpSrcPort = 0;              ///< RoCEv2
  std::uint8_t ecn = 0;                      ///< RoCEv2: IP ECN bits
  std::uint8_t dscp = 0;                     ///< RoCEv2: IP DSCP
  std::optional<Lrh> lrh;                    ///< native IB
  std::optional<Grh> grh;                    ///< RoCEv1, native IB global
  std::uint32_t icrcWire = 0;                ///< ICRC as stored (little-endian value)
  std::uint32_t icrcComputed = 0;
  CrcStatus crc = CrcStatus::Absent;  ///< worst of ICRC and VCRC
  std::size_t bthOffset = 0;          ///< where the BTH starts in the frame
};

/// Parses a frame of the given link type (Ethernet, raw IP, InfiniBand, ERF). nullopt when the
/// frame carries no IB transport or is too short; `error` then says why.
std::optional<ParsedIbFrame> parseIbFrame(std::span<const std::uint8_t> frame, LinkType link,
                                          const DecodeOptions& options = {},
                                          std::string* error = nullptr);

/// parseIbFrame into `out` (a default-constructed ParsedIbFrame) without copying the payload:
/// out.packet.payload stays empty, and the payload's place in `frame` is returned instead.
/// The flow analysis reads every frame this way; parseIbFrame is this plus the copy.
std::optional<std::span<const std::uint8_t>> parseIbFrameHeaders(
    std::span<const std::uint8_t> frame, LinkType link, const DecodeOptions& options,
    ParsedIbFrame& out, std::string* error = nullptr);

/// The IB packet of a frame, or nullopt (see parseIbFrame).
std::optional<IbPacket> parseIbPacket(std::span<const std::uint8_t> frame,
                                      LinkType link = LinkType::Ethernet,
                                      const DecodeOptions& options = {});

// ---- Samples for cross-checks --------------------------------------------------------------

/// A frame with its link type and a short description.
struct SampleFrame {
  LinkType link = LinkType::Ethernet;
  std::vector<std::uint8_t> bytes;
  std::string description;
};

/// Frames covering every opcode of the table over RoCEv2/IPv4, plus RoCEv2/IPv6, 802.1Q,
/// RoCEv1 (link type Ethernet) and native IB local and global packets (link type Erf). Every
/// frame has a correct ICRC (and VCRC).
std::vector<SampleFrame> sampleIbFrames();

}  // namespace rdmascope::packets
