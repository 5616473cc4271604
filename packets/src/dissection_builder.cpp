#include "dissection_builder.h"

#include <arpa/inet.h>

#include <charconv>
#include <cstdio>

namespace rdmascope::packets::detail {
namespace {

// The storage of labels of earlier dissections on this thread. Only short ones are kept (a
// payload's label is not), so a node kept for long (the GUI's cache) never holds much more
// than its text, and the pool stays under a megabyte.
constexpr std::size_t kPooledLabelCapacity = 256;
constexpr std::size_t kLabelPoolSize = 4096;
thread_local std::vector<std::string> labelPool;

// An empty label with storage from the pool when it has some.
void takeLabel(std::string& label) {
  if (labelPool.empty()) return;
  label = std::move(labelPool.back());
  labelPool.pop_back();
  label.clear();
}

}  // namespace

void recycleNodes(std::vector<Node>& nodes) {
  auto& pool = labelPool;
  for (auto& n : nodes) {
    if (pool.size() >= kLabelPoolSize) break;
    // Above 15 characters libstdc++ keeps the text on the heap.
    if (n.label.capacity() > 15 && n.label.capacity() <= kPooledLabelCapacity)
      pool.push_back(std::move(n.label));
  }
  nodes.clear();
}

std::int32_t DissectionBuilder::addContainer(std::string_view key, std::string label,
                                             std::size_t offset, std::size_t length,
                                             std::int32_t parent) {
  Node& n = out_.nodes.emplace_back();
  n.key = key;
  if (labels()) n.label = std::move(label);
  n.offset = static_cast<std::uint32_t>(offset);
  n.length = static_cast<std::uint32_t>(length);
  n.parent = parent;
  n.depth = parent < 0 ? 0 : static_cast<std::uint16_t>(out_.nodes[parent].depth + 1);
  return static_cast<std::int32_t>(out_.nodes.size() - 1);
}

std::int32_t DissectionBuilder::addHeader(const HeaderDef& header, std::size_t offset,
                                          std::int32_t parent) {
  const std::int32_t self =
      addContainer(header.key, std::string(header.name), offset, header.length, parent);
  for (const auto& f : header.fields)
    addLeafField(f, offset, self);
  return self;
}

std::int32_t DissectionBuilder::addField(const FieldDef& f, std::size_t headerOffset,
                                         std::int32_t parent) {
  const std::size_t firstByte = headerOffset + f.bitOffset / 8;
  const std::size_t endByte = headerOffset + (f.bitOffset + f.bitWidth + 7) / 8;
  if (endByte > frame_.size()) {
    truncated(f.name, endByte - headerOffset, frame_.size() - headerOffset, parent);
    return -1;
  }
  const auto bytes = frame_.subspan(firstByte, endByte - firstByte);
  const std::uint16_t depth =
      parent < 0 ? 0 : static_cast<std::uint16_t>(out_.nodes[parent].depth + 1);
  Node& n = out_.nodes.emplace_back();
  n.key = f.key;
  n.field = &f;
  n.offset = static_cast<std::uint32_t>(firstByte);
  n.length = static_cast<std::uint32_t>(endByte - firstByte);
  n.parent = parent;
  n.depth = depth;
  const bool label = labels();
  const bool value = wantsValue(f.key);
  switch (f.type) {
    case FieldType::UInt:
    case FieldType::Bool: {
      const auto header = frame_.subspan(headerOffset, endByte - headerOffset);
      n.number = readField(f, header) << f.scaleShift;
      n.hasNumber = true;
      if (!label && !value) break;
      n.value = formatFieldValue(f, n.number);
      if (!label) break;
      // "Name: shown", built in place: the value's name and the value, else both bases, else
      // True/False for a flag, else the value.
      const auto vn = valueName(f, n.number);
      takeLabel(n.label);
      n.label.reserve(f.name.size() + 2 + (vn.empty() ? 24 : vn.size() + 3) + n.value.size());
      n.label.append(f.name).append(": ");
      if (!vn.empty()) {
        n.label.append(vn).append(" (").append(n.value).append(")");
      } else if (f.base == Base::DecHex || f.base == Base::HexDec) {
        // "%llu (0x%llx)" or "0x%llx (%llu)", without snprintf (a few fields of every frame)
        if (f.base == Base::DecHex) {
          appendDecimal(n.label, n.number);
          n.label.append(" (0x");
          appendHex(n.label, n.number, 1);
        } else {
          n.label.append("0x");
          appendHex(n.label, n.number, 1);
          n.label.append(" (");
          appendDecimal(n.label, n.number);
        }
        n.label += ')';
      } else if (f.type == FieldType::Bool) {
        n.label.append(n.number ? "True" : "False");
      } else {
        n.label.append(n.value);
      }
      if (!value) n.value.clear();
      break;
    }
    case FieldType::Ether:
      if (value || label) n.value = formatMac(bytes);
      break;
    case FieldType::Ipv4:
      if (value || label) n.value = formatIpv4(bytes);
      n.number = (std::uint64_t{bytes[0]} << 24) | (std::uint64_t{bytes[1]} << 16) |
                 (std::uint64_t{bytes[2]} << 8) | bytes[3];
      n.hasNumber = true;
      break;
    case FieldType::Ipv6:
      if (value || label) n.value = formatIpv6(bytes);
      break;
    case FieldType::Bytes:
      if (value || label) n.value = hexBytes(bytes);
      break;
  }
  if (label && f.type != FieldType::UInt && f.type != FieldType::Bool) {
    if (n.value.size() < kPooledLabelCapacity) takeLabel(n.label);
    n.label.reserve(f.name.size() + 2 + n.value.size());
    n.label.append(f.name).append(": ").append(n.value);
    if (!value) n.value.clear();
  }
  return static_cast<std::int32_t>(out_.nodes.size() - 1);
}

void DissectionBuilder::addLeafField(const FieldDef& f, std::size_t headerOffset,
                                     std::int32_t parent) {
  if (labels() || wantsValue(f.key)) {
    addField(f, headerOffset, parent);
    return;
  }
  const std::size_t endByte = headerOffset + (f.bitOffset + f.bitWidth + 7) / 8;
  if (endByte > frame_.size())
    truncated(f.name, endByte - headerOffset, frame_.size() - headerOffset, parent);
}

std::int32_t DissectionBuilder::addText(std::string_view key, std::string label, std::string value,
                                        std::size_t offset, std::size_t length,
                                        std::int32_t parent) {
  const std::int32_t self = addContainer(key, std::move(label), offset, length, parent);
  if (wantsValue(key)) out_.nodes[self].value = std::move(value);
  return self;
}

std::int32_t DissectionBuilder::addNumber(std::string_view key, std::string label,
                                          std::uint64_t number, std::string value,
                                          std::size_t offset, std::size_t length,
                                          std::int32_t parent) {
  const std::int32_t self =
      addText(key, std::move(label), std::move(value), offset, length, parent);
  out_.nodes[self].number = number;
  out_.nodes[self].hasNumber = true;
  return self;
}

void DissectionBuilder::diagnose(Severity severity, std::string message, std::int32_t node) {
  out_.diagnostics.push_back(Diagnostic{severity, std::move(message), node});
}

void DissectionBuilder::truncated(std::string_view what, std::size_t need, std::size_t have,
                                  std::int32_t node) {
  diagnose(Severity::Error,
           "truncated " + std::string(what) + ": needs " + std::to_string(need) +
               " bytes, frame has " + std::to_string(have),
           node);
}

void DissectionBuilder::crcResult(bool good) {
  if (!good)
    out_.crc = CrcStatus::Bad;
  else if (out_.crc == CrcStatus::Absent)
    out_.crc = CrcStatus::Good;
}

void DissectionBuilder::crcUnreachable(std::string why, std::int32_t node) {
  diagnose(Severity::Warning, std::move(why), node);
  if (out_.crc != CrcStatus::Bad) out_.crc = CrcStatus::Unverified;
}

void appendDecimal(std::string& out, std::uint64_t v) {
  char buf[20];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, end);
}

void appendHex(std::string& out, std::uint64_t v, int minDigits) {
  static constexpr char digits[] = "0123456789abcdef";
  char buf[16];
  int n = 0;
  do {
    buf[15 - n++] = digits[v & 15];
    v >>= 4;
  } while (v);
  if (minDigits > n) out.append(static_cast<std::size_t>(minDigits - n), '0');
  out.append(buf + 16 - n, static_cast<std::size_t>(n));
}

std::string hexBytes(std::span<const std::uint8_t> bytes) {
  // Written through a pointer: payloads of kilobytes make this the hottest loop of decoding.
  static constexpr char digits[] = "0123456789abcdef";
  std::string s(bytes.size() * 2, '\0');
  char* out = s.data();
  for (auto b : bytes) {
    *out++ = digits[b >> 4];
    *out++ = digits[b & 15];
  }
  return s;
}

// MACs and IPv4 addresses are formatted for every frame's summary: by hand, not by snprintf.
std::string formatMac(std::span<const std::uint8_t> m) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string s(17, ':');
  for (std::size_t i = 0; i < 6; ++i) {
    s[i * 3] = digits[m[i] >> 4];
    s[i * 3 + 1] = digits[m[i] & 15];
  }
  return s;
}

namespace {

std::size_t writeIpv4(std::span<const std::uint8_t> a, char (&buf)[16]) {
  char* out = buf;
  for (std::size_t i = 0; i < 4; ++i) {
    if (i) *out++ = '.';
    const unsigned v = a[i];
    if (v >= 100) *out++ = static_cast<char>('0' + v / 100);
    if (v >= 10) *out++ = static_cast<char>('0' + v / 10 % 10);
    *out++ = static_cast<char>('0' + v % 10);
  }
  return static_cast<std::size_t>(out - buf);
}

}  // namespace

std::string formatIpv4(std::span<const std::uint8_t> a) {
  char buf[16];
  return std::string(buf, writeIpv4(a, buf));
}

void assignIpv4(std::string& out, std::span<const std::uint8_t> a) {
  char buf[16];
  out.assign(buf, writeIpv4(a, buf));
}

std::string formatIpv6(std::span<const std::uint8_t> a) {
  char buf[INET6_ADDRSTRLEN];
  if (!inet_ntop(AF_INET6, a.data(), buf, sizeof buf)) return {};
  return buf;
}

}  // namespace rdmascope::packets::detail
