#pragma once
/// @file iwarp_encoder.h
/// Encodes iWARP byte streams: MPA Request/Reply frames (RFC 5044 section 7.1), DDP segments
/// with their RDMAP headers (RFC 5041, RFC 5040), and MPA FPDUs with pad, CRC32c and markers
/// placed at their stream positions (RFC 5044 sections 4 and 5).
///
/// Conventions chosen where the RFC leaves a choice, and why:
/// - The CRC32c value (iSCSI's CRC: reflected, preset and final complement) is written least
///   significant byte first, as iSCSI digests are on the wire; this is what Linux siw sends and
///   what tshark verifies ("Good CRC32"). Without negotiated CRC the field is sent as zero.
/// - The first marker of a direction sits immediately before its first FPDU; further markers
///   follow every 512 octets of that direction's stream. A marker that falls at the start of
///   an FPDU belongs to that FPDU (it is covered by its CRC) and its FPDU pointer is 0; any
///   other marker points back to the ULPDU_Length field of the FPDU it is inside.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "rdmascope/packets/iwarp_headers.h"

namespace rdmascope::packets {

/// The parameters of an MPA Request or Reply frame.
struct MpaStartFrame {
  bool reply = false;
  bool markers = false;  ///< M: the sender wants markers in the stream it receives
  bool crc = true;       ///< C: the sender wants CRC
  bool reject = false;   ///< R (Reply only)
  std::uint8_t revision = 1;
  std::vector<std::uint8_t> privateData;  ///< at most 512 bytes
};

/// The 20-byte header plus private data. Throws std::invalid_argument when the private data
/// is longer than 512 bytes.
std::vector<std::uint8_t> encodeMpaStartFrame(const MpaStartFrame& frame);

/// A DDP header with its RDMAP control fields. Tagged messages (Write, Read Response) use
/// stag/taggedOffset; untagged ones use queue/msn/messageOffset.
struct DdpSegmentHeader {
  RdmapOpcode opcode = RdmapOpcode::Send;
  bool last = true;
  std::uint8_t ddpVersion = 1;
  std::uint8_t rdmapVersion = 1;
  std::uint32_t stag = 0;
  std::uint64_t taggedOffset = 0;
  std::uint32_t queue = kDdpQueueSend;
  std::uint32_t msn = 1;
  std::uint32_t messageOffset = 0;
  std::uint32_t invalidateStag = 0;  ///< Send with (SE and) Invalidate

  /// True for Write and Read Response (the tagged buffer model).
  bool tagged() const {
    return opcode == RdmapOpcode::Write || opcode == RdmapOpcode::ReadResponse;
  }
};

/// The RDMA Read Request header (RFC 5040 section 4.4).
struct ReadRequestHeader {
  std::uint32_t sinkStag = 0;
  std::uint64_t sinkTaggedOffset = 0;
  std::uint32_t readSize = 0;
  std::uint32_t sourceStag = 0;
  std::uint64_t sourceTaggedOffset = 0;
};

/// The Terminate header (RFC 5040 section 4.8).
struct TerminateHeader {
  std::uint8_t layer = 0;      ///< 0 RDMAP, 1 DDP, 2 LLP (MPA)
  std::uint8_t errorType = 0;  ///< 4 bits
  std::uint8_t errorCode = 0;
  bool segmentLengthValid = false;   ///< M
  bool ddpHeaderIncluded = false;    ///< D: ddpSegmentLength and ddpHeader follow
  bool rdmapHeaderIncluded = false;  ///< R: rdmapHeader (28 bytes) follows
  std::uint16_t ddpSegmentLength = 0;
  std::vector<std::uint8_t> ddpHeader;    ///< 14 (tagged) or 18 (untagged) bytes
  std::vector<std::uint8_t> rdmapHeader;  ///< 28 bytes
};

/// A DDP segment (the ULPDU of one FPDU): DDP header, RDMAP fields, then payload.
std::vector<std::uint8_t> encodeDdpSegment(const DdpSegmentHeader& header,
                                           std::span<const std::uint8_t> payload);

/// The 28-byte payload of a Read Request.
std::vector<std::uint8_t> encodeReadRequest(const ReadRequestHeader& rr);

/// The payload of a Terminate. Throws std::invalid_argument when the included headers
/// have the wrong size.
std::vector<std::uint8_t> encodeTerminate(const TerminateHeader& term);

/// MPA framing parameters of one direction of a stream.
struct MpaFraming {
  bool markers = false;
  bool crc = true;
};

/// One FPDU as it appears on the wire. streamOffset is the position of the FPDU's first byte
/// counted from this direction's first FPDU (the marker reference point); markers are
/// inserted where (streamOffset + i) is a multiple of 512. Throws std::invalid_argument when
/// the ULPDU is longer than 65535 bytes.
std::vector<std::uint8_t> encodeFpdu(std::span<const std::uint8_t> ulpdu, const MpaFraming& framing,
                                     std::uint64_t streamOffset = 0);

/// Number of wire bytes an FPDU of `logicalLength` bytes (ULPDU_Length + ULPDU + pad + CRC)
/// occupies when it starts at `streamOffset`, markers included.
std::size_t fpduWireLength(std::size_t logicalLength, bool markers, std::uint64_t streamOffset);

/// Pad length of an FPDU with the given ULPDU length.
inline std::size_t mpaPadLength(std::size_t ulpduLength) {
  return (4 - (ulpduLength + 2) % 4) % 4;
}

/// Encodes the FPDUs of one direction in order, keeping the stream position for markers.
class MpaStreamEncoder {
 public:
  explicit MpaStreamEncoder(MpaFraming framing) : framing_(framing) {}

  /// The wire bytes of the next FPDU.
  std::vector<std::uint8_t> fpdu(std::span<const std::uint8_t> ulpdu);

  /// Wire bytes emitted so far (from the first FPDU).
  std::uint64_t streamOffset() const { return offset_; }

 private:
  MpaFraming framing_;
  std::uint64_t offset_ = 0;
};

}  // namespace rdmascope::packets
