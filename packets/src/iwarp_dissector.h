#pragma once
// Stateless iWARP dissection of already reassembled units: an MPA start frame, one FPDU (with
// markers, pad and CRC) and the DDP/RDMAP segment inside it. Each unit is dissected into its
// own Dissection with offsets relative to the unit; the stream decoder grafts the nodes into
// the frame's dissection.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dissection_builder.h"

namespace rdmascope::packets::detail {

/// What the stream decoder learns from an MPA start frame.
struct MpaStartInfo {
  bool reply = false;
  bool markers = false;
  bool crc = false;
  bool reject = false;
  std::uint8_t revision = 0;
};

/// Dissects a complete MPA Request or Reply (header and private data) at offset 0.
MpaStartInfo dissectMpaStartFrame(DissectionBuilder& b, std::int32_t parent);

/// The layout of one FPDU as found on the wire.
struct FpduLayout {
  std::vector<std::uint8_t> logical;     ///< FPDU without markers (length .. CRC)
  std::vector<std::uint32_t> wireIndex;  ///< wire offset of every logical byte
  std::vector<std::uint32_t> markers;    ///< wire offsets of the markers
};

/// Splits the wire bytes of an FPDU that starts `relativeOffset` octets after the first FPDU
/// of its direction into logical bytes and markers.
FpduLayout splitFpdu(std::span<const std::uint8_t> wire, bool markers,
                     std::uint64_t relativeOffset);

/// Dissects the MPA fields of one FPDU (b's frame is the FPDU's wire bytes). Returns the
/// container node. CRC verification happens when crc is true.
std::int32_t dissectFpduFraming(DissectionBuilder& b, const FpduLayout& layout, bool crc,
                                std::int32_t parent);

/// Dissects a DDP segment with its RDMAP header (b's frame is the ULPDU). Returns the
/// packet-list info text, e.g. "Read Request [last DDP segment]".
std::string dissectDdpRdmap(DissectionBuilder& b, std::int32_t parent);

}  // namespace rdmascope::packets::detail
