#pragma once
/// @file decode.h
/// Stateless decoding of one frame, from the link layer to the RDMA payload.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rdmascope/packets/dissection.h"

namespace rdmascope::packets {

/// Link types, numbered as pcap LINKTYPE_* values.
enum class LinkType : std::uint16_t {
  Ethernet = 1,
  Erf = 197,  ///< Endace ERF records (ibdump's native InfiniBand form; type 21)
  Raw = 101,  ///< raw IPv4/IPv6, version from the first nibble
  Ipv4 = 228,
  Ipv6 = 229,
  InfiniBand = 247,  ///< native IB, LRH first
};

/// Per-frame facts known to the reader, shown under "frame" as tshark does.
struct FrameInfo {
  std::uint64_t number = 1;          ///< 1-based frame number
  double timeRelative = 0.0;         ///< seconds since the first frame
  double timeEpoch = 0.0;            ///< seconds since 1970
  std::int64_t epochNs = 0;          ///< nanoseconds since 1970; when set, shown exactly instead
                                     ///< of timeEpoch (a double cannot hold every nanosecond)
  std::uint32_t originalLength = 0;  ///< length on the wire (0: the captured length)
  std::int64_t deltaNs = 0;          ///< nanoseconds since the previous frame (frame.time_delta)
};

/// The node values a lean dissection formats (see DecodeOptions::lean): the keys a filter or a
/// field list reads. An aggregate key (ip.addr, udp.port, ...) brings its targets.
class ValueKeys {
 public:
  ValueKeys() = default;
  /// Every value (a JSON pass: values of all nodes, no labels).
  static ValueKeys all();
  void add(std::string_view key);
  bool contains(std::string_view key) const { return all_ || listed(key); }
  bool containsAll() const { return all_; }
  /// The keys added, with the targets of aggregate keys (empty for all()).
  std::span<const std::string> list() const { return keys_; }

 private:
  bool listed(std::string_view key) const;

  std::vector<std::string> keys_;
  bool all_ = false;
};

struct DecodeOptions {
  std::uint16_t roceV2Port = 4791;  ///< UDP destination port that carries RoCEv2
  bool verifyCrc = true;            ///< compute and check ICRC/VCRC/CRC32c
  /// Null: a full dissection (label and value of every node: the detail tree). Otherwise a lean
  /// one for passes that filter or print a few fields: the same summary, diagnostic messages
  /// and CRC status, and the same nodes in the same order with the same keys, byte ranges,
  /// numbers and parent nodes, except that the header fields (table fields nothing hangs
  /// under) whose keys are not listed are left out; every label is empty and only the values of
  /// the listed keys are formatted. Node indices (parents, Diagnostic::node) therefore count
  /// the nodes kept. Not owned: it must outlive every decode that uses these options.
  const ValueKeys* lean = nullptr;
  /// With `lean` set: every node is kept with its label (the detail tree, as a full
  /// dissection), and still only the values of the listed keys are formatted. For a pass that
  /// prints the tree but no values (-V, with the keys its display filter reads).
  bool labels = false;
};

/// Decodes one frame. Never throws: malformed or truncated input yields diagnostics.
Dissection decodeFrame(std::span<const std::uint8_t> frame, LinkType link,
                       const FrameInfo& info = {}, const DecodeOptions& options = {});

/// decodeFrame into an existing dissection, replacing its content but keeping its storage (a
/// pass over many frames allocates once).
void decodeFrameInto(Dissection& out, std::span<const std::uint8_t> frame, LinkType link,
                     const FrameInfo& info = {}, const DecodeOptions& options = {});

/// The value of frame.time_relative for `info` (seconds with nine decimals, as printf's %.9f),
/// exactly as the dissection formats it, written into `buf`; returns its length.
std::size_t formatTimeRelative(const FrameInfo& info, char (&buf)[48]);

}  // namespace rdmascope::packets
