#pragma once
// Appends nodes to a Dissection while a frame is being decoded; shared by all dissectors.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/dissection.h"
#include "rdmascope/packets/field.h"

namespace rdmascope::packets::detail {

class DissectionBuilder {
 public:
  /// `lean`, `labels`: see DecodeOptions (lean null: labels and values of every node).
  DissectionBuilder(Dissection& out, std::span<const std::uint8_t> frame,
                    const ValueKeys* lean = nullptr, bool labels = false)
      : out_(out), frame_(frame), lean_(lean), labels_(labels || lean == nullptr) {}

  std::span<const std::uint8_t> frame() const { return frame_; }
  Dissection& dissection() { return out_; }

  /// False in a lean dissection without labels: callers need not build them.
  bool labels() const { return labels_; }
  /// True when a node with this key keeps its value (always in a full dissection).
  bool wantsValue(std::string_view key) const { return !lean_ || lean_->contains(key); }

  /// A container node (protocol or header) without a value.
  std::int32_t addContainer(std::string_view key, std::string label, std::size_t offset,
                            std::size_t length, std::int32_t parent);

  /// A header from its table: a container plus one node per field. Returns the container.
  /// The caller has checked that `length` bytes are present at `offset`.
  std::int32_t addHeader(const HeaderDef& header, std::size_t offset, std::int32_t parent);

  /// One table field of a header that starts at headerOffset.
  std::int32_t addField(const FieldDef& field, std::size_t headerOffset, std::int32_t parent);
  /// A table field no node will hang under: as addField, but a lean dissection without labels
  /// leaves it out unless its value is wanted (its bounds are still checked, with the same
  /// diagnostic).
  void addLeafField(const FieldDef& field, std::size_t headerOffset, std::int32_t parent);

  /// A node with a value not described by a table (computed status, payload, ...).
  std::int32_t addText(std::string_view key, std::string label, std::string value,
                       std::size_t offset, std::size_t length, std::int32_t parent);
  std::int32_t addNumber(std::string_view key, std::string label, std::uint64_t number,
                         std::string value, std::size_t offset, std::size_t length,
                         std::int32_t parent);

  void diagnose(Severity severity, std::string message, std::int32_t node = -1);
  /// Records a truncated header: an Error diagnostic naming what is missing.
  void truncated(std::string_view what, std::size_t need, std::size_t have, std::int32_t node);
  /// Merges a CRC result into the frame's status (Bad wins over Good).
  void crcResult(bool good);
  /// Records that an RDMA CRC the frame may carry could not be reached (a Warning saying why
  /// and CrcStatus::Unverified unless a CRC was already found bad).
  void crcUnreachable(std::string why, std::int32_t node);

 private:
  Dissection& out_;
  std::span<const std::uint8_t> frame_;
  const ValueKeys* lean_ = nullptr;
  bool labels_ = true;
};

/// Clears `nodes`, keeping the storage of their short labels for the field labels of the next
/// dissections on this thread (a label per node was an allocation per node).
void recycleNodes(std::vector<Node>& nodes);

/// Appends v in decimal (as %llu), without a temporary string.
void appendDecimal(std::string& out, std::uint64_t v);
/// Appends v in lowercase hex, zero-padded to at least minDigits (as %0*llx), without "0x".
void appendHex(std::string& out, std::uint64_t v, int minDigits);

/// Formats bytes as Wireshark does for FT_BYTES in field output: lowercase hex, no separator.
std::string hexBytes(std::span<const std::uint8_t> bytes);
std::string formatMac(std::span<const std::uint8_t> six);
std::string formatIpv4(std::span<const std::uint8_t> four);
/// Replaces `out` with the dotted IPv4 address (no temporary string: every summary line has two).
void assignIpv4(std::string& out, std::span<const std::uint8_t> four);
std::string formatIpv6(std::span<const std::uint8_t> sixteen);

}  // namespace rdmascope::packets::detail
