#include "numeric_options.h"

#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>

namespace rdmascope::cli {
namespace {

constexpr const char* kListText = "a comma separated list without empty items";

std::string number(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15)
    return std::to_string(static_cast<std::int64_t>(v));
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::optional<std::uint64_t> parseDigits(std::string_view text) {
  std::uint64_t v = 0;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v, 10);
  if (text.empty() || ec != std::errc{} || p != text.data() + text.size()) return std::nullopt;
  return v;
}

CLI::Option* describe(CLI::Option* option, const std::string& rangeText) {
  option->description(option->get_description() + "; " + rangeText);
  return option;
}

}  // namespace

std::string IntegerRange::text() const {
  return "an integer from " + std::to_string(min) + " to " + std::to_string(max);
}

std::string RealRange::text() const {
  return std::string("a number ") + (minExcluded ? "above " : "from ") + number(min) +
         (maxExcluded ? " to below " : " up to ") + number(max);
}

std::string ByteSizeRange::text() const {
  const auto label = [](std::uint64_t v) {
    const char* suffixes = "KMGT";
    int i = -1;
    while (i < 3 && v != 0 && v % 1024 == 0) {
      v /= 1024;
      ++i;
    }
    return std::to_string(v) + (i < 0 ? "" : std::string(1, suffixes[i]));
  };
  return "a size from " + label(min) + " to " + label(max) +
         " (bytes, or K, M, G, T: 2^10, 2^20, 2^30, 2^40 bytes)";
}

std::optional<std::uint64_t> parseInteger(std::string_view text, const IntegerRange& range) {
  const auto v = parseDigits(text);
  if (!v || *v < range.min || *v > range.max) return std::nullopt;
  return v;
}

std::optional<double> parseReal(std::string_view text, const RealRange& range) {
  double v = 0;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc{} || p != text.data() + text.size() || !std::isfinite(v))
    return std::nullopt;
  if (range.minExcluded ? v <= range.min : v < range.min) return std::nullopt;
  if (range.maxExcluded ? v >= range.max : v > range.max) return std::nullopt;
  return v;
}

std::optional<std::uint64_t> parseByteSize(std::string_view text, const ByteSizeRange& range) {
  if (text.empty()) return std::nullopt;
  std::uint64_t mult = 1;
  switch (text.back()) {
    case 'K':
    case 'k':
      mult = std::uint64_t{1} << 10;
      break;
    case 'M':
    case 'm':
      mult = std::uint64_t{1} << 20;
      break;
    case 'G':
    case 'g':
      mult = std::uint64_t{1} << 30;
      break;
    case 'T':
    case 't':
      mult = std::uint64_t{1} << 40;
      break;
    default:
      break;
  }
  if (mult != 1) text.remove_suffix(1);
  const auto v = parseDigits(text);
  if (!v || *v > range.max / mult) return std::nullopt;
  const std::uint64_t bytes = *v * mult;
  if (bytes < range.min) return std::nullopt;
  return bytes;
}

std::optional<std::vector<std::string>> splitList(std::string_view text, std::string& error) {
  std::vector<std::string> items;
  for (std::size_t start = 0;;) {
    const auto comma = text.find(',', start);
    const auto item =
        text.substr(start, comma == std::string_view::npos ? text.npos : comma - start);
    if (item.empty()) {
      error = notInRange(text, kListText);
      return std::nullopt;
    }
    items.emplace_back(item);
    if (comma == std::string_view::npos) return items;
    start = comma + 1;
  }
}

std::optional<std::vector<std::uint64_t>> parseByteSizeList(std::string_view text,
                                                            const ByteSizeRange& range,
                                                            std::string& error) {
  const auto items = splitList(text, error);
  if (!items) return std::nullopt;
  std::vector<std::uint64_t> sizes;
  for (const auto& item : *items) {
    const auto v = parseByteSize(item, range);
    if (!v) {
      error = notInRange(item, range.text());
      return std::nullopt;
    }
    sizes.push_back(*v);
  }
  return sizes;
}

std::string notInRange(std::string_view value, const std::string& rangeText) {
  constexpr std::size_t kShown = 40;
  const std::string shown =
      value.size() > kShown ? std::string(value.substr(0, kShown)) + "..." : std::string(value);
  return "'" + shown + "' is not " + rangeText;
}

CLI::Option* checkRange(CLI::Option* option, const IntegerRange& range) {
  option->transform(CLI::Validator(
      [range](std::string& value) {
        const auto v = parseInteger(value, range);
        if (!v) return notInRange(value, range.text());
        value = std::to_string(*v);  // what CLI11 converts next: no octal reading of "010"
        return std::string();
      },
      ""));
  return describe(option, range.text());
}

CLI::Option* checkRange(CLI::Option* option, const RealRange& range) {
  option->transform(CLI::Validator(
      [range](std::string& value) {
        const auto v = parseReal(value, range);
        if (!v) return notInRange(value, range.text());
        char buf[32];
        value.assign(buf, std::to_chars(buf, buf + sizeof buf, *v).ptr);
        return std::string();
      },
      ""));
  return describe(option, range.text());
}

CLI::Option* checkRange(CLI::Option* option, const ByteSizeRange& range) {
  option->transform(CLI::Validator(
      [range](std::string& value) {
        std::string error;
        return parseByteSizeList(value, range, error) ? std::string() : error;
      },
      ""));
  return describe(option, std::string(kListText) + ", each " + range.text());
}

}  // namespace rdmascope::cli
