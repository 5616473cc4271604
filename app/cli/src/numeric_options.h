#pragma once
// The numbers rdmascope-cli's options take: one parser and one range check for every
// subcommand, so that --help and the error for a bad value state the same range.

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class Option;
}

namespace rdmascope::cli {

/// The values a whole-number option accepts, both ends included.
struct IntegerRange {
  std::uint64_t min = 0;
  std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  /// "an integer from 1 to 65535"
  std::string text() const;
};

/// The values a real-valued option accepts (always finite); either end may be excluded.
struct RealRange {
  double min = 0;
  double max = 0;
  bool minExcluded = false;
  bool maxExcluded = false;
  /// "a number from 0 to below 1", "a number above 0 up to 1000000"
  std::string text() const;
};

/// Byte counts written as digits with an optional K, M, G or T suffix (powers of 1024).
struct ByteSizeRange {
  std::uint64_t min = 1;
  std::uint64_t max = std::uint64_t{1} << 40;
  /// "a size from 1 to 1T (bytes, or K, M, G, T: 2^10, 2^20, 2^30, 2^40 bytes)"
  std::string text() const;
};

inline constexpr IntegerRange kPortRange{1, 65535};        ///< TCP and UDP ports
inline constexpr IntegerRange kPacketCountRange{1};        ///< -c N
inline constexpr IntegerRange kSeedRange{};                ///< --seed: any 64-bit value
inline constexpr RealRange kLossRange{0, 1, false, true};  ///< --loss: a probability below 1
inline constexpr ByteSizeRange kCompareSizeRange{};        ///< compare --size items

/// A decimal whole number within `range`: digits only (no sign, spaces or base prefix).
std::optional<std::uint64_t> parseInteger(std::string_view text, const IntegerRange& range);
/// A finite decimal number within `range` (not nan or inf).
std::optional<double> parseReal(std::string_view text, const RealRange& range);
/// A byte count within `range`: digits with an optional K, M, G or T suffix.
std::optional<std::uint64_t> parseByteSize(std::string_view text, const ByteSizeRange& range);
/// Comma separated byte counts, none of them empty; on a bad item sets `error` (without the
/// option's name) and returns nullopt.
std::optional<std::vector<std::uint64_t>> parseByteSizeList(std::string_view text,
                                                            const ByteSizeRange& range,
                                                            std::string& error);
/// Comma separated items, none of them empty; on an empty one sets `error` and returns nullopt.
std::optional<std::vector<std::string>> splitList(std::string_view text, std::string& error);

/// "'VALUE' is not RANGE" with a long value cut short.
std::string notInRange(std::string_view value, const std::string& rangeText);

/// Checks every value of `option` against `range`: --help states the range after the option's
/// description, and a value outside it, or not a number, fails the parse with
/// "NAME: 'VALUE' is not RANGE" (exit status 2). Returns `option`.
CLI::Option* checkRange(CLI::Option* option, const IntegerRange& range);
CLI::Option* checkRange(CLI::Option* option, const RealRange& range);
/// The same for a comma separated list of byte sizes.
CLI::Option* checkRange(CLI::Option* option, const ByteSizeRange& range);

}  // namespace rdmascope::cli
