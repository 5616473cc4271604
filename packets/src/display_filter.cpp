#include "rdmascope/packets/display_filter.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "rdmascope/packets/field_registry.h"

namespace rdmascope::packets {
namespace {

enum class Tok : std::uint8_t { Word, String, LParen, RParen, And, Or, Not, Rel, End };

struct Token {
  Tok kind = Tok::End;
  std::string text;  // word, unescaped string, or the operator as written
  DisplayFilter::Op op = DisplayFilter::Op::Eq;
  std::size_t column = 0;  // 1-based
};

bool isWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == ':' ||
         c == '-' || c == '/';
}

std::string columnPrefix(std::size_t column) {
  return "column " + std::to_string(column) + ": ";
}

// Where a filter went wrong: the 1-based column and what was wrong there.
struct ErrorAt {
  std::size_t column = 1;
  std::string message;
};

// Filters up to this length are clear from the column alone; longer ones get an excerpt.
constexpr std::size_t kQuoteWhole = 60;
// Tokens are quoted whole up to this length, longer ones by their start.
constexpr std::size_t kQuoteToken = 40;

std::string quote(std::string_view token) {
  // Appended piece by piece: gcc 12's -Wrestrict misfires on "'" + std::string(...).
  std::string out(1, '\'');
  if (token.size() <= kQuoteToken) {
    out.append(token);
    out.push_back('\'');
    return out;
  }
  out.append(token.substr(0, kQuoteToken - 8));
  out.append("...' (");
  out.append(std::to_string(token.size()));
  out.append(" characters)");
  return out;
}

// Up to 24 characters either side of the column, with "..." where the filter goes on.
std::string excerpt(std::string_view text, std::size_t column) {
  constexpr std::size_t kSide = 24;
  const std::size_t at = std::min(column - 1, text.size());
  const std::size_t from = at > kSide ? at - kSide : 0;
  const std::size_t to = std::min(text.size(), at + kSide);
  return std::string("\"") + (from > 0 ? "..." : "") + std::string(text.substr(from, to - from)) +
         (to < text.size() ? "..." : "") + "\"";
}

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  bool run(std::vector<Token>& out, ErrorAt& error) {
    while (true) {
      while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_])))
        ++i_;
      Token t;
      t.column = i_ + 1;
      if (i_ >= s_.size()) {
        out.push_back(t);
        return true;
      }
      const char c = s_[i_];
      const char n = i_ + 1 < s_.size() ? s_[i_ + 1] : '\0';
      auto two = [&](Tok k, DisplayFilter::Op op = DisplayFilter::Op::Eq) {
        t.kind = k;
        t.op = op;
        t.text = std::string(s_.substr(i_, 2));
        i_ += 2;
      };
      auto one = [&](Tok k, DisplayFilter::Op op = DisplayFilter::Op::Eq) {
        t.kind = k;
        t.op = op;
        t.text = std::string(1, c);
        ++i_;
      };
      using Op = DisplayFilter::Op;
      if (c == '(') {
        one(Tok::LParen);
      } else if (c == ')') {
        one(Tok::RParen);
      } else if (c == '=' && n == '=') {
        two(Tok::Rel, Op::Eq);
      } else if (c == '!' && n == '=') {
        two(Tok::Rel, Op::Ne);
      } else if (c == '<' && n == '=') {
        two(Tok::Rel, Op::Le);
      } else if (c == '>' && n == '=') {
        two(Tok::Rel, Op::Ge);
      } else if (c == '<') {
        one(Tok::Rel, Op::Lt);
      } else if (c == '>') {
        one(Tok::Rel, Op::Gt);
      } else if (c == '!') {
        one(Tok::Not);
      } else if (c == '&' && n == '&') {
        two(Tok::And);
      } else if (c == '|' && n == '|') {
        two(Tok::Or);
      } else if (c == '"') {
        if (!string(t, error)) return false;
      } else if (isWordChar(c)) {
        const std::size_t start = i_;
        while (i_ < s_.size() && isWordChar(s_[i_]))
          ++i_;
        t.text = std::string(s_.substr(start, i_ - start));
        keyword(t);
      } else {
        error.column = t.column;
        error.message = "unexpected character '" + std::string(1, c) + "'" +
                        (c == '='   ? " (use ==)"
                         : c == '&' ? " (use && or and)"
                         : c == '|' ? " (use || or or)"
                                    : "");
        return false;
      }
      out.push_back(std::move(t));
    }
  }

 private:
  bool string(Token& t, ErrorAt& error) {
    ++i_;
    t.kind = Tok::String;
    while (i_ < s_.size() && s_[i_] != '"') {
      if (s_[i_] == '\\' && i_ + 1 < s_.size()) ++i_;
      t.text.push_back(s_[i_++]);
    }
    if (i_ >= s_.size()) {
      error.column = t.column;
      error.message = "unterminated string";
      return false;
    }
    ++i_;
    return true;
  }

  static void keyword(Token& t) {
    using Op = DisplayFilter::Op;
    struct Kw {
      const char* word;
      Tok kind;
      Op op;
    };
    static constexpr Kw kWords[] = {
        {"and", Tok::And, Op::Eq}, {"or", Tok::Or, Op::Eq},  {"not", Tok::Not, Op::Eq},
        {"eq", Tok::Rel, Op::Eq},  {"ne", Tok::Rel, Op::Ne}, {"lt", Tok::Rel, Op::Lt},
        {"gt", Tok::Rel, Op::Gt},  {"le", Tok::Rel, Op::Le}, {"ge", Tok::Rel, Op::Ge},
    };
    std::string lower;
    for (char c : t.text)
      lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    for (const auto& k : kWords)
      if (lower == k.word) {
        t.kind = k.kind;
        t.op = k.op;
        return;
      }
    t.kind = Tok::Word;
  }

  std::string_view s_;
  std::size_t i_ = 0;
};

bool parseUnsigned(std::string_view s, std::uint64_t& out) {
  if (s.empty()) return false;
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  } else if (s.size() > 1 && s[0] == '0') {
    base = 8;
    s.remove_prefix(1);
  }
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out, base);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// A decimal number in fixed or float notation, optionally signed: 1.5, -3, 1e19, 2.5E-3.
bool parseReal(std::string_view s, double& out) {
  if (s.empty() || s.find_first_not_of("0123456789.eE+-") != std::string_view::npos ||
      s.find_first_of("0123456789") == std::string_view::npos)
    return false;
  std::string copy(s);
  char* end = nullptr;
  out = std::strtod(copy.c_str(), &end);
  return end == copy.c_str() + copy.size();
}

// Integer syntax (decimal, 0x hex, 0 octal) whose value does not fit in 64 bits.
bool isOversizedInteger(std::string_view s) {
  std::uint64_t ignored;
  if (s.empty() || parseUnsigned(s, ignored)) return false;
  std::string_view digits = s;
  const char* allowed = "0123456789";
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    digits.remove_prefix(2);
    allowed = "0123456789abcdefABCDEF";
  }
  return digits.find_first_not_of(allowed) == std::string_view::npos;
}

// The value of an integer literal too large for 64 bits, as a double (its order of magnitude
// is all a comparison with a 64-bit field needs).
double oversizedValue(std::string_view s) {
  double v = 0;
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  } else if (s.size() > 1 && s[0] == '0') {
    base = 8;
  }
  for (char c : s) {
    const int d = std::isdigit(static_cast<unsigned char>(c))
                      ? c - '0'
                      : std::tolower(static_cast<unsigned char>(c)) - 'a' + 10;
    v = v * base + d;
  }
  return v;
}

// Reads a numeric literal for a numeric field: a 64-bit integer, or a real number (float
// notation, a sign, or an integer beyond 64 bits) compared by value. Empty on success,
// otherwise why the literal was refused.
std::string parseNumeric(std::string_view w, DisplayFilter::Literal& lit) {
  if (parseUnsigned(w, lit.number)) {
    lit.hasNumber = true;
    lit.hasReal = true;
    lit.real = static_cast<double>(lit.number);
    return {};
  }
  if (isOversizedInteger(w)) {
    lit.hasReal = true;
    lit.real = oversizedValue(w);
    return {};
  }
  if (!parseReal(w, lit.real)) return "not a number";
  if (!std::isfinite(lit.real)) return "out of range";
  lit.hasReal = true;
  return {};
}

bool parseIpv4(std::string_view s, std::uint64_t& addr, std::uint64_t& mask) {
  int prefix = 32;
  if (auto slash = s.find('/'); slash != std::string_view::npos) {
    if (std::from_chars(s.data() + slash + 1, s.data() + s.size(), prefix).ptr !=
            s.data() + s.size() ||
        prefix < 0 || prefix > 32)
      return false;
    s = s.substr(0, slash);
  }
  in_addr a{};
  if (inet_pton(AF_INET, std::string(s).c_str(), &a) != 1) return false;
  addr = ntohl(a.s_addr);
  mask = prefix == 0 ? 0 : (0xffffffffull << (32 - prefix)) & 0xffffffffull;
  addr &= mask;
  return true;
}

bool parseIpv6(std::string_view s, std::uint8_t out[16]) {
  return inet_pton(AF_INET6, std::string(s).c_str(), out) == 1;
}

// Hex bytes separated by ':', '-' or '.' (aa:bb:cc, aa-bb-cc, aabb.ccdd) or contiguous hex.
bool parseBytes(std::string_view s, std::string& hex) {
  hex.clear();
  for (std::size_t start = 0;;) {
    const std::size_t end = s.find_first_of(":-.", start);
    const std::string_view group =
        s.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (group.empty()) return false;
    for (char c : group)
      if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
    if (group.size() % 2) hex.push_back('0');
    for (char c : group)
      hex.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    if (end == std::string_view::npos) return true;
    start = end + 1;
  }
}

std::string macText(const std::string& hex) {
  std::string out;
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    if (i) out.push_back(':');
    out.append(hex, i, 2);
  }
  return out;
}

// Builds the literal for a key from a word or a quoted string; empty string on success,
// otherwise what the value should have been.
std::string makeLiteral(std::string_view key, const Token& t, DisplayFilter::Literal& lit) {
  const FieldDef* def = findFieldDef(key);
  if (!def) {
    if (auto targets = aliasTargets(key); !targets.empty()) def = findFieldDef(targets[0]);
  }
  const std::string& w = t.text;
  if (t.kind == Tok::String) {
    lit.text = w;
    if (def && def->type == FieldType::Ipv4 && !parseIpv4(w, lit.number, lit.mask))
      return "an IPv4 address";
    if (def && def->type == FieldType::Ipv4) lit.hasNumber = true;
    return {};
  }
  if (!def) {
    // A key without a table: accept what the word can be, compare by the node's kind.
    lit.text = w;
    if (!parseNumeric(w, lit).empty()) lit.hasReal = false;
    if (std::uint64_t a, m; !lit.hasNumber && parseIpv4(w, a, m)) {
      lit.hasNumber = true;
      lit.number = a;
      lit.mask = m;
    }
    lit.hasBytes16 = w.find(':') != std::string::npos && parseIpv6(w, lit.bytes16);
    if (std::string hex; parseBytes(w, hex)) {
      lit.text = hex;
      lit.altText = macText(hex);
    }
    return {};
  }
  switch (def->type) {
    case FieldType::UInt: {
      lit.text = w;
      for (const auto& vn : def->valueNames)
        if (vn.name == w) {
          lit.hasNumber = true;
          lit.number = vn.value;
          return {};
        }
      if (const std::string why = parseNumeric(w, lit); why == "out of range")
        return "a number within the range of a double";
      else if (!why.empty())
        return "an unsigned integer";
      return {};
    }
    case FieldType::Bool:
      lit.hasNumber = true;
      if (w == "1" || w == "True" || w == "true" || w == "TRUE")
        lit.number = 1;
      else if (w == "0" || w == "False" || w == "false" || w == "FALSE")
        lit.number = 0;
      else
        return "a boolean (1, 0, True or False)";
      return {};
    case FieldType::Ipv4:
      lit.hasNumber = parseIpv4(w, lit.number, lit.mask);
      return lit.hasNumber ? std::string{} : "an IPv4 address";
    case FieldType::Ipv6:
      lit.hasBytes16 = parseIpv6(w, lit.bytes16);
      return lit.hasBytes16 ? std::string{} : "an IPv6 address";
    case FieldType::Ether: {
      std::string hex;
      if (!parseBytes(w, hex) || hex.size() != 12) return "a MAC address";
      lit.text = macText(hex);
      return {};
    }
    case FieldType::Bytes: {
      std::string hex;
      if (!parseBytes(w, hex)) return "a byte string (aa:bb:cc)";
      lit.text = hex;
      return {};
    }
  }
  return {};
}

// Recursive descent whose depth is bounded: only parentheses nest (kMaxNesting levels), a run
// of '!' is read in a loop and folded to its parity, and '&&'/'||' chains become one n-ary
// term, so neither parsing nor evaluation recurses more than the parentheses do.
class Parser {
 public:
  Parser(std::vector<Token> tokens, std::vector<DisplayFilter::Term>& terms, ErrorAt& error)
      : t_(std::move(tokens)), terms_(terms), error_(error) {}

  std::int32_t parse() {
    const std::int32_t root = orExpr();
    if (root >= 0 && peek().kind != Tok::End) {
      fail(peek(), peek().kind == Tok::RParen
                       ? "unmatched ')'"
                       : "unexpected " + quote(peek().text) + " (expected and, or or the end)");
      return -1;
    }
    return root;
  }

 private:
  using Term = DisplayFilter::Term;

  const Token& peek() const { return t_[pos_]; }
  const Token& take() { return t_[pos_ < t_.size() - 1 ? pos_++ : pos_]; }
  std::int32_t fail(const Token& at, const std::string& message) {
    if (error_.message.empty()) {
      error_.column = at.column;
      error_.message = message;
    }
    return -1;
  }
  std::int32_t add(Term term) {
    terms_.push_back(std::move(term));
    return static_cast<std::int32_t>(terms_.size() - 1);
  }

  std::int32_t chain(Term::Kind kind, Tok op, std::int32_t (Parser::*operand)()) {
    const std::int32_t first = (this->*operand)();
    if (first < 0 || peek().kind != op) return first;
    Term t;
    t.kind = kind;
    t.operands.push_back(first);
    while (peek().kind == op) {
      take();
      const std::int32_t next = (this->*operand)();
      if (next < 0) return -1;
      t.operands.push_back(next);
    }
    return add(std::move(t));
  }
  std::int32_t orExpr() { return chain(Term::Kind::Or, Tok::Or, &Parser::andExpr); }
  std::int32_t andExpr() { return chain(Term::Kind::And, Tok::And, &Parser::notExpr); }

  std::int32_t notExpr() {
    bool negate = false;
    while (peek().kind == Tok::Not) {
      take();
      negate = !negate;
    }
    const std::int32_t e = primary();
    if (e < 0 || !negate) return e;
    Term t;
    t.kind = Term::Kind::Not;
    t.left = e;
    return add(std::move(t));
  }

  std::int32_t primary() {
    const Token& t = take();
    if (t.kind == Tok::LParen) {
      if (++depth_ > DisplayFilter::kMaxNesting)
        return fail(t, "parentheses nested more than " +
                           std::to_string(DisplayFilter::kMaxNesting) + " levels deep");
      const std::int32_t e = orExpr();
      if (e < 0) return -1;
      if (peek().kind != Tok::RParen)
        return fail(peek(), peek().kind == Tok::End
                                ? "expected ')' before the end"
                                : "expected ')' but found " + quote(peek().text));
      take();
      --depth_;
      return e;
    }
    if (t.kind == Tok::End) return fail(t, "expected a field name at the end of the filter");
    if (t.kind != Tok::Word) return fail(t, "expected a field name but found " + quote(t.text));
    if (!isKnownFieldKey(t.text)) return fail(t, "unknown field " + quote(t.text));
    Term term;
    term.key = t.text;
    if (peek().kind != Tok::Rel) return add(std::move(term));
    const Token& op = take();
    term.kind = Term::Kind::Compare;
    term.op = op.op;
    const Token& v = take();
    if (v.kind != Tok::Word && v.kind != Tok::String)
      return fail(v, "expected a value after '" + op.text + "'");
    if (const std::string want = makeLiteral(term.key, v, term.literal); !want.empty())
      return fail(
          v, quote(v.text) + " is not a valid value for " + term.key + " (expected " + want + ")");
    return add(std::move(term));
  }

  std::vector<Token> t_;
  std::size_t pos_ = 0;
  int depth_ = 0;
  std::vector<Term>& terms_;
  ErrorAt& error_;
};

// A mixed comparison of a 64-bit field value with a real literal, exact for every value.
int compareUnsignedReal(std::uint64_t v, double r) {
  if (r < 0) return 1;
  if (r >= 18446744073709551616.0) return -1;
  const double whole = std::floor(r);
  const auto u = static_cast<std::uint64_t>(whole);
  if (v != u) return v < u ? -1 : 1;
  return r > whole ? -1 : 0;
}

template <typename T>
bool relate(DisplayFilter::Op op, const T& a, const T& b) {
  using Op = DisplayFilter::Op;
  switch (op) {
    case Op::Eq:
    case Op::Ne:
      return a == b;  // Ne is negated over all occurrences by the caller
    case Op::Lt:
      return a < b;
    case Op::Gt:
      return a > b;
    case Op::Le:
      return a <= b;
    case Op::Ge:
      return a >= b;
  }
  return false;
}

bool compareNode(const Node& n, DisplayFilter::Op op, const DisplayFilter::Literal& lit) {
  if (lit.hasNumber && n.hasNumber) return relate(op, n.number & lit.mask, lit.number);
  if (lit.hasReal && n.hasNumber) return relate(op, compareUnsignedReal(n.number, lit.real), 0);
  if (lit.hasBytes16) {
    std::uint8_t b[16];
    if (n.value.find(':') != std::string::npos && parseIpv6(n.value, b)) {
      const int c = std::memcmp(b, lit.bytes16, 16);
      return relate(op, c, 0);
    }
  }
  if (lit.hasReal) {
    double v;
    if (parseReal(n.value, v)) return relate(op, v, lit.real);
  }
  if (n.value.empty() && !n.hasNumber) return false;
  if ((op == DisplayFilter::Op::Eq || op == DisplayFilter::Op::Ne) && !lit.altText.empty() &&
      n.value == lit.altText)
    return true;
  return relate(op, n.value, lit.text);
}

}  // namespace

std::optional<DisplayFilter> DisplayFilter::compile(std::string_view text, std::string& error) {
  error.clear();
  DisplayFilter f;
  f.text_ = std::string(text);
  std::vector<Token> tokens;
  ErrorAt at;
  if (Lexer(text).run(tokens, at)) {
    if (tokens.size() == 1) return f;  // empty: matches everything
    f.root_ = Parser(std::move(tokens), f.terms_, at).parse();
    if (f.root_ >= 0) return f;
  }
  error = columnPrefix(at.column) + (at.message.empty() ? "invalid filter" : at.message);
  if (text.size() > kQuoteWhole) error += " (near " + excerpt(text, at.column) + ")";
  return std::nullopt;
}

std::vector<std::string> DisplayFilter::keys() const {
  std::vector<std::string> out;
  for (const auto& t : terms_)
    if ((t.kind == Term::Kind::Exists || t.kind == Term::Kind::Compare) &&
        std::find(out.begin(), out.end(), t.key) == out.end())
      out.push_back(t.key);
  return out;
}

bool DisplayFilter::matches(const Dissection& d) const {
  return root_ < 0 || eval(root_, d);
}

bool DisplayFilter::eval(std::int32_t index, const Dissection& d) const {
  const Term& t = terms_[index];
  switch (t.kind) {
    case Term::Kind::Or:
      for (const auto operand : t.operands)
        if (eval(operand, d)) return true;
      return false;
    case Term::Kind::And:
      for (const auto operand : t.operands)
        if (!eval(operand, d)) return false;
      return true;
    case Term::Kind::Not:
      return !eval(t.left, d);
    case Term::Kind::Exists:
    case Term::Kind::Compare:
      break;
  }
  const auto targets = aliasTargets(t.key);
  bool present = false, any = false;
  for (const Node& n : d.nodes) {
    bool hit = n.key == t.key;
    for (auto k : targets)
      hit = hit || n.key == k;
    if (!hit) continue;
    present = true;
    if (t.kind == Term::Kind::Exists) return true;
    if (compareNode(n, t.op, t.literal)) {
      any = true;
      break;
    }
  }
  if (t.kind == Term::Kind::Exists) return false;
  if (t.op == Op::Ne) return present && !any;
  return any;
}

}  // namespace rdmascope::packets
