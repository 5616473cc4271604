#pragma once
/// @file address.h
/// Link and network addresses used by the frame builders and parsers.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace rdmascope::packets {

using MacAddress = std::array<std::uint8_t, 6>;

/// An IPv4 or IPv6 address (IPv4 in the first four bytes).
struct IpAddress {
  bool v6 = false;
  std::array<std::uint8_t, 16> bytes{};

  static IpAddress v4(std::uint8_t a, std::uint8_t b, std::uint8_t c, std::uint8_t d) {
    return IpAddress{false, {a, b, c, d}};
  }
  static IpAddress fromV6(const std::array<std::uint8_t, 16>& b) { return IpAddress{true, b}; }
  /// Parses dotted IPv4 or textual IPv6; nullopt when it is neither.
  static std::optional<IpAddress> parse(const std::string& text);
  std::string toString() const;
  /// The address bytes: 4 for IPv4, 16 for IPv6.
  std::span<const std::uint8_t> view() const { return {bytes.data(), v6 ? 16u : 4u}; }
  bool operator==(const IpAddress&) const = default;
};

}  // namespace rdmascope::packets
