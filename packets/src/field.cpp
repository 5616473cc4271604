#include "rdmascope/packets/field.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace rdmascope::packets {
namespace {
// Wide enough for an unaligned 64-bit field spread over nine bytes.
__extension__ typedef unsigned __int128 Wide;
}  // namespace

std::uint64_t readFieldWide(const FieldDef& field, std::span<const std::uint8_t> header) {
  const unsigned first = field.bitOffset / 8;
  const unsigned last = (field.bitOffset + field.bitWidth - 1) / 8;
  if (last >= header.size() || field.bitWidth == 0 || field.bitWidth > 64) return 0;
  const unsigned trailing = (last + 1) * 8 - (field.bitOffset + field.bitWidth);
  if (last - first < 8) {  // every field but an unaligned 64-bit one: 64 bits suffice
    std::uint64_t acc = 0;
    for (unsigned i = first; i <= last; ++i)
      acc = (acc << 8) | header[i];
    acc >>= trailing;
    return field.bitWidth == 64 ? acc : acc & ((std::uint64_t{1} << field.bitWidth) - 1);
  }
  // An unaligned 64-bit field spans nine bytes: accumulate them into 128 bits.
  Wide acc = 0;
  for (unsigned i = first; i <= last; ++i)
    acc = (acc << 8) | header[i];
  acc >>= trailing;
  const Wide mask = (static_cast<Wide>(1) << field.bitWidth) - 1;
  return static_cast<std::uint64_t>(acc & mask);
}

void writeFieldWide(const FieldDef& field, std::span<std::uint8_t> header, std::uint64_t value) {
  const unsigned first = field.bitOffset / 8;
  const unsigned last = (field.bitOffset + field.bitWidth - 1) / 8;
  if (last >= header.size() || field.bitWidth == 0 || field.bitWidth > 64) return;
  const unsigned trailing = (last + 1) * 8 - (field.bitOffset + field.bitWidth);
  if (trailing == 0 && field.bitWidth % 8 == 0) {  // whole bytes: store them, nothing to keep
    for (unsigned i = last + 1; i-- > first;) {
      header[i] = static_cast<std::uint8_t>(value);
      value >>= 8;
    }
    return;
  }
  if (first == last) {  // bits of one byte
    const auto mask = static_cast<std::uint8_t>(((1u << field.bitWidth) - 1) << trailing);
    header[first] =
        static_cast<std::uint8_t>((header[first] & ~mask) | ((value << trailing) & mask));
    return;
  }
  const Wide mask = ((static_cast<Wide>(1) << field.bitWidth) - 1) << trailing;
  Wide acc = 0;
  for (unsigned i = first; i <= last; ++i)
    acc = (acc << 8) | header[i];
  acc = (acc & ~mask) | ((static_cast<Wide>(value) << trailing) & mask);
  for (unsigned i = last + 1; i-- > first;) {
    header[i] = static_cast<std::uint8_t>(acc & 0xff);
    acc >>= 8;
  }
}

std::string_view valueName(const FieldDef& field, std::uint64_t value) {
  const auto it = std::find_if(field.valueNames.begin(), field.valueNames.end(),
                               [value](const ValueName& vn) { return vn.value == value; });
  return it == field.valueNames.end() ? std::string_view{} : it->name;
}

std::string formatFieldValue(const FieldDef& field, std::uint64_t value) {
  // By hand, not snprintf: the filter and field passes format a few values of every frame.
  if (field.type == FieldType::Bool) return value ? "1" : "0";
  char buf[24];
  switch (field.base) {
    case Base::Hex:
    case Base::HexDec: {
      static constexpr char digits[] = "0123456789abcdef";
      const unsigned bits = field.displayBits ? field.displayBits : ((field.bitWidth + 7) / 8) * 8;
      const int width = static_cast<int>(bits / 4);
      int n = 0;
      char* end = buf + sizeof buf;
      do {
        *--end = digits[value & 15];
        value >>= 4;
        ++n;
      } while (value);
      std::string s(2 + static_cast<std::size_t>(std::max(width, n)), '0');
      s[1] = 'x';
      std::copy(end, buf + sizeof buf, s.end() - n);
      return s;
    }
    case Base::Dec:
    case Base::DecHex:
      break;
  }
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, end);
}

const FieldDef* findField(const HeaderDef& header, std::string_view key) {
  for (const auto& f : header.fields)
    if (f.key == key) return &f;
  return nullptr;
}

}  // namespace rdmascope::packets
