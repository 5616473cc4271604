#pragma once
/// @file packet_facts.h
/// The transport facts of one frame that flow analysis needs, taken from the packet layer's
/// decoding, so the analyzer itself never touches bytes and can be fed by a capture, the
/// simulator or a test alike.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/ib_builder.h"

namespace rdmascope::analysis {

/// How the RDMA transport was carried (Iwarp: MPA/DDP/RDMAP over a TCP connection).
enum class Carrier : std::uint8_t { RoceV2, RoceV1, NativeIb, Iwarp };

std::string_view toString(Carrier carrier);

/// What a Communication Manager message (a MAD of class 0x07 between the GSIs) says about the
/// connection it sets up or tears down.
struct CmFacts {
  std::uint16_t attribute = 0;  ///< packets::CmAttribute
  std::uint64_t transactionId = 0;
  std::uint32_t localCommId = 0;              ///< the sender's communication ID
  std::uint32_t remoteCommId = 0;             ///< the receiver's (0 in a REQ)
  std::optional<std::uint32_t> qpn;           ///< REQ/REP: the sender's QPN; DREQ: the receiver's
  std::optional<std::uint32_t> startingPsn;   ///< REQ/REP
  std::optional<std::uint64_t> serviceId;     ///< REQ
  std::optional<std::uint16_t> rejectReason;  ///< REJ
  std::optional<std::uint8_t> rejected;       ///< REJ: the message rejected (0 REQ, 1 REP)
  bool operator==(const CmFacts&) const = default;
};

/// One InfiniBand transport packet as the analyzer sees it.
struct PacketFacts {
  std::uint64_t frame = 0;        ///< 1-based frame number in the capture
  double time = 0.0;              ///< seconds (any origin, increasing)
  std::uint32_t frameLength = 0;  ///< bytes on the wire
  Carrier carrier = Carrier::RoceV2;
  std::string source;       ///< IP address (RoCEv2), source GID (RoCEv1/GRH) or LID
  std::string destination;  ///< likewise
  std::uint8_t opcode = 0;
  std::uint32_t psn = 0;
  std::uint32_t destQp = 0;
  bool ackRequest = false;
  bool fecn = false;
  bool becn = false;
  std::uint8_t ipEcn = 0;  ///< the IP header's ECN bits (3: congestion experienced)
  /// The 802.1p priority the frame travels on: the innermost VLAN tag's PCP, else (RoCEv2)
  /// DSCP >> 3, the mapping of NICs and switches that trust DSCP; 0 otherwise.
  std::uint8_t priority = 0;
  std::uint64_t sourceMac = 0;  ///< Ethernet source address as a 48-bit number; 0 without one
  std::optional<std::uint8_t> aethSyndrome;
  std::optional<std::uint64_t> dmaLength;  ///< RETH DMA length
  std::optional<std::uint32_t> sourceQp;   ///< DETH source QP (UD)
  std::uint32_t payloadLength = 0;         ///< bytes after the transport headers, no pad/ICRC
  bool crcBad = false;                     ///< ICRC (or VCRC) verification failed
  std::uint64_t contentHash = 0;           ///< hash of the transport headers and payload
  std::optional<CmFacts> cm;  ///< a CM message (UD to or from QP 1 carrying class 0x07)
  bool operator==(const PacketFacts&) const = default;
};

/// The hash PacketFacts::contentHash holds (ISA-L's CRC-64), also used for TCP payloads.
std::uint64_t contentHash(std::span<const std::uint8_t> bytes);

/// The facts of a frame the packet layer's typed parser has read.
PacketFacts extractFacts(const packets::ParsedIbFrame& parsed, std::span<const std::uint8_t> frame,
                         std::uint64_t frameNumber, double time);

/// Parses a frame and returns its facts; nothing when the frame carries no InfiniBand
/// transport (plain TCP, ARP, ...) or is too short for its headers.
std::optional<PacketFacts> readPacketFacts(std::span<const std::uint8_t> frame,
                                           packets::LinkType link, std::uint64_t frameNumber,
                                           double time, const packets::DecodeOptions& options = {});

/// readPacketFacts over the frames of a capture, one after the other, for the same facts at a
/// fraction of the cost: the payload is read where it lies (not copied), the ICRC computed
/// once, and the texts of the last IP addresses seen kept.
class PacketFactReader {
 public:
  explicit PacketFactReader(const packets::DecodeOptions& options = {}) : options_(options) {}
  /// Sets `out` to what readPacketFacts returns; false (`out` untouched) where it returns
  /// nothing.
  bool read(std::span<const std::uint8_t> frame, packets::LinkType link, std::uint64_t frameNumber,
            double time, PacketFacts& out);

 private:
  struct Text {
    bool valid = false;
    packets::IpAddress ip;
    std::string text;
  };
  const std::string& ipText(const packets::IpAddress& ip);

  packets::DecodeOptions options_;
  std::array<Text, 8> texts_;
};

}  // namespace rdmascope::analysis
