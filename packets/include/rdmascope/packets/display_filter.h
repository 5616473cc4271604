#pragma once
/// @file display_filter.h
/// Wireshark-style display filters over the field keys of a Dissection.
///
/// Syntax: comparisons `==` `!=` `<` `>` `<=` `>=` (or `eq ne lt gt le ge`), logic `&&` `||`
/// `!` (or `and or not`; `!` binds tightest, then `&&`, then `||`), parentheses, and a bare
/// field name for presence. Values: decimal, hex (0x..) and octal (0..) integers, real numbers
/// (2.5, -1, 1e19; integers beyond 64 bits are reals too), IPv4 addresses (with an optional
/// /prefix), IPv6 addresses, MAC addresses and byte strings (aa:bb:cc), and "quoted strings". The
/// aggregate keys ip.addr, ipv6.addr, eth.addr, udp.port and tcp.port stand for the source and
/// destination fields.
///
/// Semantics follow Wireshark 4: a relation holds when any occurrence of the field satisfies
/// it, except `!=`, which holds when no occurrence equals the value; a relation on a field
/// that is absent is false.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rdmascope/packets/dissection.h"

namespace rdmascope::packets {

/// A compiled display filter. Cheap to copy; matches() is const and thread-safe.
class DisplayFilter {
 public:
  /// Compiles a filter. On a syntax error or an unknown field returns nullopt and sets `error`
  /// to one line naming the column (1-based), e.g.
  /// "column 11: expected a value after '=='" or "column 1: unknown field 'ip.sorc'". Filters
  /// longer than 60 characters add the part at fault: `(near "...((udp.dstport == x...")`;
  /// tokens longer than 40 characters are quoted by their start and their length.
  static std::optional<DisplayFilter> compile(std::string_view text, std::string& error);

  /// True when the dissection satisfies the filter.
  bool matches(const Dissection& dissection) const;

  /// The text the filter was compiled from.
  const std::string& text() const { return text_; }

  /// Every field key the filter reads (as written, aggregate keys not expanded), without
  /// duplicates: a lean decode (DecodeOptions::lean) formats the values of these keys only.
  std::vector<std::string> keys() const;

  enum class Op : std::uint8_t { Eq, Ne, Lt, Gt, Le, Ge };

  /// Parentheses nest at most this deep; deeper filters are refused with the column of the
  /// parenthesis that went too deep. (A run of `!` folds to its parity and `&&`/`||` chains are
  /// n-ary, so only parentheses add depth to parsing and matching.)
  static constexpr int kMaxNesting = 256;

  /// A literal value, prepared for the field it is compared with. Numbers in float notation
  /// (1e19, 2.5), with a sign, or beyond 64 bits are reals and compare by value with numeric
  /// fields: `frame.len < 1e19` holds for every frame.
  struct Literal {
    bool hasNumber = false;
    std::uint64_t number = 0;
    std::uint64_t mask = ~std::uint64_t{0};  ///< IPv4 prefixes: compare (value & mask)
    bool hasReal = false;
    double real = 0.0;
    bool hasBytes16 = false;  ///< an IPv6 address
    std::uint8_t bytes16[16] = {};
    std::string text;     ///< compared with Node::value
    std::string altText;  ///< a second accepted spelling (MAC as contiguous hex), or empty
  };

  /// One node of the expression tree (exposed for tests and tools that print filters).
  struct Term {
    enum class Kind : std::uint8_t { Or, And, Not, Exists, Compare } kind = Kind::Exists;
    std::int32_t left = -1;              ///< Not: its operand
    std::vector<std::int32_t> operands;  ///< Or/And: two or more operands, in order
    std::string key;
    Op op = Op::Eq;
    Literal literal;
  };

 private:
  bool eval(std::int32_t term, const Dissection& d) const;

  std::string text_;
  std::vector<Term> terms_;
  std::int32_t root_ = -1;
};

}  // namespace rdmascope::packets
