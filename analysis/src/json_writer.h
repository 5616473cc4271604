#pragma once
// A JSON writer that appends to a string as it goes, in the layout nlohmann::json::dump(indent)
// gives a DOM of the same values (keys in insertion order, as ordered_json keeps them): the
// reports are written without building a DOM first (a report of 100,000 anomalies was a DOM
// of millions of nodes). Numbers, strings and layout come out byte for byte as dump() writes
// them: doubles through nlohmann's own shortest round-trip formatting, strings escaped alike.

#include <charconv>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace rdmascope::analysis {

class JsonWriter {
 public:
  /// `indent` < 0: compact, as dump(-1).
  JsonWriter(std::string& out, int indent) : out_(out), indent_(indent) {}

  void beginObject() { open('{', true); }
  void endObject() { close('}'); }
  void beginArray() { open('[', false); }
  void endArray() { close(']'); }

  /// The key of the next value in an object.
  void key(std::string_view k) {
    separate();
    string(k);
    out_ += indent_ >= 0 ? ": " : ":";
    afterKey_ = true;
  }

  void null() { scalar("null"); }
  void value(std::nullptr_t) { null(); }
  void value(bool b) { scalar(b ? "true" : "false"); }
  template <std::integral T>
  requires(!std::same_as<T, bool>) void value(T v) {
    prefix();
    char buf[24];
    const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
    out_.append(buf, static_cast<std::size_t>(end - buf));
  }
  template <std::floating_point T>
  void value(T v) {
    prefix();
    const double x = static_cast<double>(v);
    if (!std::isfinite(x)) {
      out_ += "null";
      return;
    }
    char buf[64];
    const char* end = nlohmann::detail::to_chars(buf, buf + sizeof buf, x);
    out_.append(buf, static_cast<std::size_t>(end - buf));
  }
  void value(std::string_view s) {
    prefix();
    string(s);
  }
  void value(const std::string& s) { value(std::string_view(s)); }
  void value(const char* s) { value(std::string_view(s)); }

  template <class T>
  void field(std::string_view k, const T& v) {
    key(k);
    value(v);
  }

 private:
  struct Level {
    bool object;
    bool empty;
  };

  // The comma and line break before a value in an array or a key in an object.
  void separate() {
    if (levels_.empty()) return;
    Level& l = levels_.back();
    if (!l.empty) out_ += ',';
    l.empty = false;
    if (indent_ >= 0) {
      out_ += '\n';
      out_.append(levels_.size() * static_cast<std::size_t>(indent_), ' ');
    }
  }
  void prefix() {
    if (afterKey_) {
      afterKey_ = false;
      return;
    }
    separate();
  }
  void scalar(std::string_view text) {
    prefix();
    out_ += text;
  }
  void open(char c, bool object) {
    prefix();
    out_ += c;
    levels_.push_back({object, true});
  }
  void close(char c) {
    const bool empty = levels_.back().empty;
    levels_.pop_back();
    if (!empty && indent_ >= 0) {
      out_ += '\n';
      out_.append(levels_.size() * static_cast<std::size_t>(indent_), ' ');
    }
    out_ += c;
  }
  // Escaped as nlohmann's serializer does (ensure_ascii off): a string with bytes above 0x7f
  // goes through it, so that UTF-8 is checked the same way. One pass: the bytes that need no
  // care are copied in runs, and a byte above 0x7f takes back what was written.
  void string(std::string_view s) {
    const std::size_t start = out_.size();
    out_ += '"';
    std::size_t run = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      const auto ch = static_cast<unsigned char>(s[i]);
      if (ch >= 0x20 && ch < 0x80 && ch != '"' && ch != '\\') continue;
      if (ch >= 0x80) {
        out_.resize(start);
        out_ += nlohmann::json(std::string(s)).dump();
        return;
      }
      out_.append(s.data() + run, i - run);
      run = i + 1;
      switch (ch) {
        case '"':
          out_ += "\\\"";
          break;
        case '\\':
          out_ += "\\\\";
          break;
        case '\b':
          out_ += "\\b";
          break;
        case '\f':
          out_ += "\\f";
          break;
        case '\n':
          out_ += "\\n";
          break;
        case '\r':
          out_ += "\\r";
          break;
        case '\t':
          out_ += "\\t";
          break;
        default: {
          static constexpr char kHex[] = "0123456789abcdef";
          const char esc[] = {'\\', 'u', '0', '0', kHex[ch >> 4], kHex[ch & 15]};
          out_.append(esc, sizeof esc);
        }
      }
    }
    out_.append(s.data() + run, s.size() - run);
    out_ += '"';
  }

  std::string& out_;
  int indent_;
  bool afterKey_ = false;
  std::vector<Level> levels_;
};

}  // namespace rdmascope::analysis
