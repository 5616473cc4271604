#pragma once
/// @file field_registry.h
/// Every filter key rdmascope can produce: the fields of all registered header tables plus the
/// keys dissectors add without a table (frame.number, data.data, tcp.len, ...). The display
/// filter refuses keys unknown here.

#include <span>
#include <string_view>
#include <vector>

#include "rdmascope/packets/field.h"

namespace rdmascope::packets {

/// True when the key names a header, a field of a registered table or a synthetic key.
bool isKnownFieldKey(std::string_view key);

/// The table entry of a field key, or nullptr (synthetic keys and header keys have none).
const FieldDef* findFieldDef(std::string_view key);

/// True when the key's values are byte strings (tshark's FT_BYTES): the hex of the bytes, two
/// digits a byte. `-T fields` prints them as they are, tshark's `-T json` with a ':' between
/// bytes. Table fields of FieldType::Bytes, the InfiniBand headers whose node carries their
/// bytes, and the payload and padding keys dissectors add.
bool isByteStringKey(std::string_view key);

/// The keys an aggregate key stands for, as in Wireshark: ip.addr is ip.src or ip.dst,
/// likewise ipv6.addr, eth.addr, udp.port and tcp.port. Empty for every other key.
std::span<const std::string_view> aliasTargets(std::string_view key);

/// Every key isKnownFieldKey accepts (header keys, table fields, synthetic keys and the aggregate
/// keys), sorted, without duplicates: `rdmascope-cli fields` and the shell completion list them.
std::vector<std::string_view> knownFieldKeys();

/// Adds a header table at run time (tables outside packets/src/field_registry.cpp's list).
/// Thread-safe; registering the same table twice is harmless.
void registerHeader(const HeaderDef& header);

/// Adds a key that a dissector produces without a table. The string must outlive the program
/// (a literal). Thread-safe.
void registerSyntheticKey(std::string_view key);

}  // namespace rdmascope::packets
