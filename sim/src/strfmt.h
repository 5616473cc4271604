#pragma once
// A small subset of std::format (GCC 12 ships no <format>): "{}" and "{:[<>][#][0][width]
// [.precision][xdf]}" for integers, floating point and strings. Used for trace text only.

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace rdmascope::sim::fmt {

struct Spec {
  char align = 0;
  bool alt = false;
  bool zero = false;
  int width = 0;
  int precision = -1;
  char type = 0;
};

inline Spec parseSpec(std::string_view s) {
  Spec sp;
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '<' || s[i] == '>')) sp.align = s[i++];
  if (i < s.size() && s[i] == '#') {
    sp.alt = true;
    ++i;
  }
  if (i < s.size() && s[i] == '0') {
    sp.zero = true;
    ++i;
  }
  while (i < s.size() && s[i] >= '0' && s[i] <= '9')
    sp.width = sp.width * 10 + (s[i++] - '0');
  if (i < s.size() && s[i] == '.') {
    ++i;
    sp.precision = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      sp.precision = sp.precision * 10 + (s[i++] - '0');
    }
  }
  if (i < s.size()) sp.type = s[i];
  return sp;
}

inline void pad(std::string& out, std::string body, const Spec& sp, bool numeric) {
  const int n = static_cast<int>(body.size());
  if (sp.width <= n) {
    out += body;
    return;
  }
  const std::size_t fill = static_cast<std::size_t>(sp.width - n);
  if (sp.zero && numeric && sp.align == 0) {
    std::size_t at = (body.size() > 1 && body[0] == '0' && (body[1] == 'x')) ? 2 : 0;
    if (!body.empty() && body[0] == '-') at = 1;
    body.insert(at, fill, '0');
    out += body;
  } else if (sp.align == '<' || (sp.align == 0 && !numeric)) {
    out += body;
    out.append(fill, ' ');
  } else {
    out.append(fill, ' ');
    out += body;
  }
}

template <class T>
void put(std::string& out, const Spec& sp, const T& v) {
  using D = std::decay_t<T>;
  if constexpr (std::is_same_v<D, bool>) {
    pad(out, v ? "true" : "false", sp, false);
  } else if constexpr (std::is_integral_v<D>) {
    char buf[40];
    std::string body;
    if (sp.type == 'x') {
      auto r = std::to_chars(buf, buf + sizeof buf, static_cast<std::make_unsigned_t<D>>(v), 16);
      body = (sp.alt ? "0x" : "") + std::string(buf, r.ptr);
    } else {
      auto r = std::to_chars(buf, buf + sizeof buf, v);
      body.assign(buf, r.ptr);
    }
    pad(out, body, sp, true);
  } else if constexpr (std::is_floating_point_v<D>) {
    char buf[64];
    auto r = sp.precision >= 0
                 ? std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, sp.precision)
                 : std::to_chars(buf, buf + sizeof buf, v);
    pad(out, std::string(buf, r.ptr), sp, true);
  } else {
    pad(out, std::string(std::string_view(v)), sp, false);
  }
}

inline void formatTo(std::string& out, std::string_view f) {
  for (std::size_t i = 0; i < f.size(); ++i) {
    if ((f[i] == '{' || f[i] == '}') && i + 1 < f.size() && f[i + 1] == f[i]) ++i;
    out += f[i];
  }
}

template <class T, class... Rest>
void formatTo(std::string& out, std::string_view f, const T& first, const Rest&... rest) {
  for (std::size_t i = 0; i < f.size(); ++i) {
    const char c = f[i];
    if ((c == '{' || c == '}') && i + 1 < f.size() && f[i + 1] == c) {
      out += c;
      ++i;
      continue;
    }
    if (c == '{') {
      const std::size_t close = f.find('}', i);
      std::string_view inner = f.substr(i + 1, close - i - 1);
      if (!inner.empty() && inner[0] == ':') inner.remove_prefix(1);
      put(out, parseSpec(inner), first);
      formatTo(out, f.substr(close + 1), rest...);
      return;
    }
    out += c;
  }
}

template <class... Args>
std::string format(std::string_view f, const Args&... args) {
  std::string out;
  out.reserve(f.size() + 16 * sizeof...(Args));
  formatTo(out, f, args...);
  return out;
}

}  // namespace rdmascope::sim::fmt
