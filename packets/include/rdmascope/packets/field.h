#pragma once
/// @file field.h
/// One table per header: each field described once (display name, tshark-compatible filter
/// key, bit offset, width, type, display base, value names). The same table drives the
/// decoder, the encoder, the detail tree, the hex highlighter and the display filter.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace rdmascope::packets {

/// How a field's bits are interpreted (mirrors Wireshark's FT_* types where it matters).
enum class FieldType : std::uint8_t {
  UInt,   ///< unsigned integer of bitWidth bits
  Bool,   ///< one bit (or a masked flag), printed 1/0 in field output
  Ether,  ///< 48-bit MAC address
  Ipv4,   ///< 32-bit IPv4 address
  Ipv6,   ///< 128-bit IPv6 address (also GIDs)
  Bytes,  ///< opaque bytes, printed as hex
};

/// Display base of an integer field (as tshark's BASE_*).
enum class Base : std::uint8_t { Dec, Hex, DecHex, HexDec };

/// A value with its human name (opcode names, syndrome names, ...).
struct ValueName {
  std::uint64_t value;
  std::string_view name;
};

/// A field of a fixed-layout header. Offsets count bits from the header's first byte,
/// most significant bit first (network order).
struct FieldDef {
  std::string_view key;         ///< filter key, tshark's where tshark has the field
  std::string_view name;        ///< display name
  std::uint16_t bitOffset = 0;  ///< from the start of the header
  std::uint16_t bitWidth = 0;   ///< width in bits (Bytes: 8 x length)
  FieldType type = FieldType::UInt;
  Base base = Base::Dec;
  std::uint8_t displayBits = 0;  ///< tshark's FT_UINTn size for hex padding (0: from width)
  std::span<const ValueName> valueNames = {};
  std::uint8_t scaleShift = 0;  ///< shown value = raw << scaleShift (IP/TCP header lengths)
};

/// A fixed-length header: its fields and its identity.
struct HeaderDef {
  std::string_view key;      ///< protocol/header filter key, e.g. "infiniband.bth"
  std::string_view name;     ///< tree label, e.g. "Base Transport Header"
  std::string_view abbrev;   ///< short name for summaries, e.g. "BTH"
  std::uint16_t length = 0;  ///< bytes
  std::span<const FieldDef> fields;
};

/// Reads an integer field (type UInt or Bool, width <= 64) from a header's bytes. The caller
/// guarantees the header is at least as long as the field's end; fields never straddle it.
inline std::uint64_t readField(const FieldDef& field, std::span<const std::uint8_t> header);

/// Writes an integer field, leaving the other bits of the touched bytes unchanged.
inline void writeField(const FieldDef& field, std::span<std::uint8_t> header, std::uint64_t value);

/// readField and writeField for the fields the inline forms leave: unaligned 64-bit fields
/// (nine bytes), multi-byte fields of partial bytes, and fields outside the header.
std::uint64_t readFieldWide(const FieldDef& field, std::span<const std::uint8_t> header);
void writeFieldWide(const FieldDef& field, std::span<std::uint8_t> header, std::uint64_t value);

// Inline: every simulated frame's headers are written and read field by field (a dozen fields
// each), where a call per field cost more than the field.
inline std::uint64_t readField(const FieldDef& field, std::span<const std::uint8_t> header) {
  const unsigned first = field.bitOffset / 8u;
  const unsigned end = (field.bitOffset + field.bitWidth + 7u) / 8u;
  if (field.bitWidth == 0 || field.bitWidth > 64 || end > header.size() || end - first > 8) {
    return readFieldWide(field, header);
  }
  std::uint64_t acc = 0;
  for (unsigned i = first; i < end; ++i)
    acc = (acc << 8) | header[i];
  acc >>= end * 8u - (field.bitOffset + field.bitWidth);
  return field.bitWidth == 64 ? acc : acc & ((std::uint64_t{1} << field.bitWidth) - 1);
}

inline void writeField(const FieldDef& field, std::span<std::uint8_t> header, std::uint64_t value) {
  const unsigned first = field.bitOffset / 8u;
  const unsigned end = (field.bitOffset + field.bitWidth + 7u) / 8u;
  const unsigned trailing = end * 8u - (field.bitOffset + field.bitWidth);
  if (field.bitWidth == 0 || field.bitWidth > 64 || end > header.size()) return;
  if (trailing == 0 && field.bitWidth % 8 == 0) {  // whole bytes: store them, nothing to keep
    for (unsigned i = end; i-- > first;) {
      header[i] = static_cast<std::uint8_t>(value);
      value >>= 8;
    }
    return;
  }
  if (end - first == 1) {  // bits of one byte
    const auto mask = static_cast<std::uint8_t>(((1u << field.bitWidth) - 1) << trailing);
    header[first] =
        static_cast<std::uint8_t>((header[first] & ~mask) | ((value << trailing) & mask));
    return;
  }
  writeFieldWide(field, header, value);
}

/// The name a value has in the field's value table, or empty.
std::string_view valueName(const FieldDef& field, std::uint64_t value);

/// Formats an integer as tshark prints it with `-T fields` (BASE_HEX: 0x-padded to the
/// field's FT size; BASE_DEC: decimal; booleans 1/0).
std::string formatFieldValue(const FieldDef& field, std::uint64_t value);

/// Looks up a field of a header by key; nullptr when the header has none.
const FieldDef* findField(const HeaderDef& header, std::string_view key);

}  // namespace rdmascope::packets
