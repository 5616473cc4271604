#pragma once
/// @file dissection.h
/// The result of decoding one frame: a flat tree of nodes (protocols, headers, fields), each
/// with its byte range and tshark-formatted value, plus diagnostics. Decoding never throws;
/// malformed input becomes diagnostics.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rdmascope/packets/field.h"

namespace rdmascope::packets {

enum class Severity : std::uint8_t { Note, Warning, Error };

/// "Note", "Warning" or "Error": the names tshark prints for expert-info severities.
const char* severityName(Severity s);

/// A finding about the frame: bad CRC, truncation, reserved bits set, ...
struct Diagnostic {
  Severity severity = Severity::Warning;
  std::string message;     ///< one line, names what is wrong (with computed and wire values)
  std::int32_t node = -1;  ///< the node it concerns, or -1 for the whole frame
};

/// One row of the detail tree.
struct Node {
  // User-provided (not "= default"): a value-initialised node (vector::emplace_back()) is then
  // not zeroed whole before its members' initializers run, a rep stos in every field added.
  Node() noexcept {}  // NOLINT(modernize-use-equals-default)

  std::string_view key;      ///< filter key (static storage), e.g. "infiniband.bth.psn"
  std::string label;         ///< tree text, e.g. "Packet Sequence Number: 12042734"
  std::string value;         ///< value as tshark prints it with -T fields; empty for containers
  std::uint64_t number = 0;  ///< numeric value (integers, booleans) for display filters
  bool hasNumber = false;
  std::uint32_t offset = 0;  ///< first byte in the frame
  std::uint32_t length = 0;  ///< bytes covered
  std::int32_t parent = -1;  ///< index of the parent node, -1 at top level
  std::uint16_t depth = 0;
  const FieldDef* field = nullptr;  ///< the table entry this node came from, if any
};

/// Status of the integrity check of a frame (RoCE ICRC, IB VCRC, MPA CRC32c).
/// Absent: the frame carries no CRC to check. Unverified: it may carry an RDMA packet whose
/// CRC could not be reached (a fragment, or a payload behind a header not decoded, such as
/// ESP): a verifier must not count it as checked. Order of precedence: Bad, Unverified, Good.
enum class CrcStatus : std::uint8_t { Absent, Good, Bad, Unverified };

/// The packet-list columns.
struct Summary {
  std::string source;
  std::string destination;
  std::string protocol;
  std::string info;
};

/// A decoded frame.
class Dissection {
 public:
  std::vector<Node> nodes;
  std::vector<Diagnostic> diagnostics;
  Summary summary;
  CrcStatus crc = CrcStatus::Absent;  ///< worst status of every CRC the frame carries
  std::uint32_t frameLength = 0;

  /// First node with the key, or nullptr.
  const Node* find(std::string_view key) const;
  /// Every node with the key, in frame order.
  std::vector<const Node*> findAll(std::string_view key) const;
  /// Children of a node (-1: top level), in order.
  std::vector<std::int32_t> children(std::int32_t parent) const;
  /// True when a diagnostic of severity Error exists.
  bool hasErrors() const;
};

}  // namespace rdmascope::packets
