#include "packet_json.h"

#include <cstdio>
#include <cstring>
#include <ctime>
#include <nlohmann/json.hpp>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "rdmascope/packets/field_registry.h"

namespace rdmascope::cli {
namespace {

using Json = nlohmann::ordered_json;

// JSON written as nlohmann::ordered_json's dump(2, ' ', false, replace) writes the tree the
// printer used to build (repeated keys gathered into arrays, a node with a value and children
// as KEY and KEY_tree), without building it: strings with bytes above ASCII still go through
// nlohmann (its handling of invalid UTF-8).
// True when one of the eight bytes needs escaping or is not ASCII (a byte below 0x20, '"',
// '\\' or one with the top bit set): long hex payloads are scanned eight bytes at a time.
bool anySpecial(std::uint64_t w) {
  constexpr std::uint64_t ones = 0x0101010101010101, high = 0x8080808080808080;
  const auto zeroByte = [&](std::uint64_t v) { return (v - ones) & ~v & high; };
  return (w & high) || ((w - ones * 0x20) & ~w & high) || zeroByte(w ^ (ones * '"')) ||
         zeroByte(w ^ (ones * '\\'));
}

void appendJsonString(std::string& out, std::string_view s) {
  const std::size_t start = out.size();
  out += '"';
  std::size_t run = 0;  // start of the characters not yet appended
  std::size_t i = 0;
  while (i < s.size()) {
    std::uint64_t w;
    while (i + 8 <= s.size() && (std::memcpy(&w, s.data() + i, 8), !anySpecial(w)))
      i += 8;
    if (i >= s.size()) break;
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
      ++i;
      continue;
    }
    if (c >= 0x80) {
      out.resize(start);
      out += Json(std::string(s)).dump(-1, ' ', false, Json::error_handler_t::replace);
      return;
    }
    out.append(s.substr(run, i - run));
    run = ++i;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default: {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
        out += buf;
      }
    }
  }
  out.append(s.substr(run));
  out += '"';
}

// True when the text goes into a JSON string as it is.
bool plainJson(std::string_view s) {
  std::size_t i = 0;
  for (std::uint64_t w; i + 8 <= s.size(); i += 8) {
    std::memcpy(&w, s.data() + i, 8);
    if (anySpecial(w)) return false;
  }
  for (; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == '"' || c == '\\' || c >= 0x80) return false;
  }
  return true;
}

// Whether a node's value is a byte string (packets::isByteStringKey): tshark's JSON writes those
// with a ':' between bytes. Looked up once per key by each thread.
bool byteString(std::string_view key) {
  thread_local std::unordered_map<const char*, bool> known;
  const auto [it, added] = known.try_emplace(key.data(), false);
  if (added) it->second = packets::isByteStringKey(key);
  return it->second;
}

// The bytes of `hex` (two digits each, as -T fields prints them) with a ':' between them, as
// tshark's JSON writes them; the text as it is when it is not an even number of digits.
std::size_t colonHexSize(std::string_view hex) {
  return hex.size() % 2 || hex.empty() ? hex.size() : hex.size() + hex.size() / 2 - 1;
}
char* writeColonHex(char* p, std::string_view hex) {
  if (hex.size() % 2 || hex.empty()) {
    std::memcpy(p, hex.data(), hex.size());
    return p + hex.size();
  }
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    if (i) *p++ = ':';
    p[0] = hex[i];
    p[1] = hex[i + 1];
    p += 2;
  }
  return p;
}
void appendColonHex(std::string& out, std::string_view hex) {
  const std::size_t start = out.size();
  out.resize(start + colonHexSize(hex));
  writeColonHex(out.data() + start, hex);
}

void newline(std::string& out, std::size_t indent) {
  out += '\n';
  out.append(indent, ' ');
}

// Where the layers' JSON goes: straight into the output, or into a LayersTemplate that keeps
// the text and leaves a hole for each value.
class TextSink {
 public:
  TextSink(std::string& out, const packets::Dissection& d) : out_(out), d_(d) {}
  std::string& text() { return out_; }
  void value(std::int32_t node) {
    const auto& n = d_.nodes[static_cast<std::size_t>(node)];
    if (byteString(n.key) && plainJson(n.value)) {
      out_ += '"';
      appendColonHex(out_, n.value);
      out_ += '"';
    } else {
      appendJsonString(out_, n.value);
    }
  }

 private:
  std::string& out_;
  const packets::Dissection& d_;
};

// The layers' JSON of every frame with the same shape (the same nodes, keys and parents in
// the same order, the same nodes without a value, no diagnostics): the text around the values
// depends on nothing else.
struct LayersTemplate {
  struct Hole {
    std::uint32_t textEnd;  // the text before this value ends here
    std::int32_t node;
    bool bytes;  // a byte string: written with ':' between its bytes
  };
  struct Shape {
    std::string_view key;
    std::int32_t parent;
    bool noValue;
  };
  std::uint64_t hash = 0;
  std::vector<Shape> shape;
  std::string text;
  std::vector<Hole> holes;
};

class TemplateSink {
 public:
  TemplateSink(LayersTemplate& t, const packets::Dissection& d) : t_(t), d_(d) {}
  std::string& text() { return t_.text; }
  // The quotes around the value are the template's.
  void value(std::int32_t node) {
    t_.text += '"';
    t_.holes.push_back({static_cast<std::uint32_t>(t_.text.size()), node,
                        byteString(d_.nodes[static_cast<std::size_t>(node)].key)});
    t_.text += '"';
  }

 private:
  LayersTemplate& t_;
  const packets::Dissection& d_;
};

using JsonTail = void(std::string&, bool, std::size_t);

// Members in the order of their first item: a key, or KEY_tree for the children of a node
// that has a value too. Items: a value, or the object of a node's children.
struct JsonMember {
  std::string_view key;
  bool suffix;
  std::uint32_t count;  // its items
  std::uint32_t first;  // its first item's index
};
struct JsonItem {
  std::int32_t node;
  std::uint32_t member;
  bool subtree;
};

// A JsonTree's vectors, reused from packet to packet by each thread that formats them.
struct JsonScratch {
  std::vector<std::int32_t> first, kids, fill;
  std::vector<JsonMember> members;
  std::vector<JsonItem> items;
};

class JsonTree {
 public:
  // The children of every node, by parent (the last entry: the top level).
  JsonTree(const packets::Dissection& d, JsonScratch& scratch)
      : d_(d),
        first_(scratch.first),
        kids_(scratch.kids),
        members_(scratch.members),
        items_(scratch.items) {
    members_.clear();
    items_.clear();
    const std::size_t n = d.nodes.size();
    first_.assign(n + 2, 0);
    for (const auto& node : d.nodes)
      ++first_[(node.parent < 0 ? n : static_cast<std::size_t>(node.parent)) + 1];
    for (std::size_t i = 1; i < first_.size(); ++i)
      first_[i] += first_[i - 1];
    kids_.resize(n);
    std::vector<std::int32_t>& fill = scratch.fill;
    fill.assign(first_.begin(), first_.end() - 1);
    for (std::size_t i = 0; i < n; ++i) {
      const std::int32_t p = d.nodes[i].parent;
      kids_[static_cast<std::size_t>(fill[p < 0 ? n : static_cast<std::size_t>(p)]++)] =
          static_cast<std::int32_t>(i);
    }
  }

  std::int32_t root() const { return static_cast<std::int32_t>(d_.nodes.size()); }

  // The object of a node's children; `indent`: the spaces before the line it starts on. `tail`
  // (may be null) adds members after the children's.
  template <typename Sink, typename Tail>
  void object(Sink& sink, std::int32_t index, std::size_t indent, Tail* tail) const {
    const auto sameKey = [](const Member& a, const Member& b) {
      if (a.suffix == b.suffix) return a.key == b.key;
      const Member& plain = a.suffix ? b : a;
      const Member& tree = a.suffix ? a : b;
      return plain.key.size() == tree.key.size() + 5 && plain.key.starts_with(tree.key) &&
             plain.key.ends_with("_tree");
    };
    const auto begin = first_[static_cast<std::size_t>(index)];
    const auto end = first_[static_cast<std::size_t>(index) + 1];
    // This object's members and items follow those of the objects it is nested in, in the
    // tree's scratch vectors (read by index: the nested objects grow them).
    const std::size_t memberBase = members_.size(), itemBase = items_.size();
    const auto add = [&](Member key, std::int32_t node, bool subtree) {
      std::uint32_t m = static_cast<std::uint32_t>(memberBase);
      while (m < members_.size() && !sameKey(members_[m], key))
        ++m;
      if (m == members_.size()) {
        key.count = 0;
        key.first = static_cast<std::uint32_t>(items_.size());
        members_.push_back(key);
      }
      ++members_[m].count;
      items_.push_back({node, m, subtree});
    };
    for (auto k = begin; k < end; ++k) {
      const std::int32_t c = kids_[static_cast<std::size_t>(k)];
      const auto& n = d_.nodes[static_cast<std::size_t>(c)];
      if (!hasChildren(c)) {
        add({n.key, false, 0, 0}, c, false);
      } else if (n.value.empty()) {
        add({n.key, false, 0, 0}, c, true);
      } else {
        add({n.key, false, 0, 0}, c, false);
        add({n.key, true, 0, 0}, c, true);
      }
    }
    const std::size_t memberEnd = members_.size(), itemEnd = items_.size();
    const bool empty = memberEnd == memberBase;
    std::string& out = sink.text();
    if (empty && !tail) {
      out += "{}";
      return;
    }
    out += '{';
    for (std::size_t m = memberBase; m < memberEnd; ++m) {
      if (m != memberBase) out += ',';
      newline(out, indent + 2);
      const Member key = members_[m];
      if (key.suffix) {
        std::string name(key.key);
        name += "_tree";
        appendJsonString(out, name);
      } else {
        appendJsonString(out, key.key);
      }
      out += ": ";
      if (key.count == 1) {
        const Item it = items_[key.first];
        item(sink, it.node, it.subtree, indent + 2);
        continue;
      }
      out += '[';
      bool firstItem = true;
      for (std::size_t i = key.first; i < itemEnd; ++i) {
        const Item it = items_[i];
        if (it.member != m) continue;
        if (!firstItem) out += ',';
        firstItem = false;
        newline(out, indent + 4);
        item(sink, it.node, it.subtree, indent + 4);
      }
      newline(out, indent + 2);
      out += ']';
    }
    members_.resize(memberBase);
    items_.resize(itemBase);
    if (tail) (*tail)(out, !empty, indent + 2);
    newline(out, indent);
    out += '}';
  }

 private:
  bool hasChildren(std::int32_t node) const {
    return first_[static_cast<std::size_t>(node) + 1] > first_[static_cast<std::size_t>(node)];
  }

  template <typename Sink>
  void item(Sink& sink, std::int32_t node, bool subtree, std::size_t indent) const {
    if (subtree)
      object(sink, node, indent, static_cast<JsonTail*>(nullptr));
    else
      sink.value(node);
  }

  using Member = JsonMember;
  using Item = JsonItem;

  const packets::Dissection& d_;
  std::vector<std::int32_t>& first_;
  std::vector<std::int32_t>& kids_;
  std::vector<JsonMember>& members_;
  std::vector<JsonItem>& items_;
};

// Indent of the layers object inside a record.
constexpr std::size_t kLayersIndent = 6;

// The layers' templates of the shapes a thread met last: a capture has few shapes (one per
// opcode and header stack, mostly), so the tree is walked once per shape, not once per frame.
class TemplateCache {
 public:
  // The template of the frame's shape, made when it is new.
  const LayersTemplate& get(const packets::Dissection& d, JsonScratch& scratch) {
    const std::uint64_t h = shapeHash(d);
    for (const auto& t : entries_)
      if (t.hash == h && sameShape(t, d)) return t;
    if (entries_.size() < kEntries) entries_.emplace_back();
    LayersTemplate& t = entries_[next_];
    next_ = (next_ + 1) % kEntries;
    t.hash = h;
    t.shape.clear();
    for (const auto& n : d.nodes)
      t.shape.push_back({n.key, n.parent, n.value.empty()});
    t.text.clear();
    t.holes.clear();
    TemplateSink sink(t, d);
    const JsonTree tree(d, scratch);
    tree.object(sink, tree.root(), kLayersIndent, static_cast<JsonTail*>(nullptr));
    return t;
  }

 private:
  static constexpr std::size_t kEntries = 64;

  static std::uint64_t shapeHash(const packets::Dissection& d) {
    std::uint64_t h = d.nodes.size();
    for (const auto& n : d.nodes) {
      const auto key = reinterpret_cast<std::uintptr_t>(n.key.data());
      h = (h ^ key ^ (n.key.size() << 48) ^
           (static_cast<std::uint64_t>(static_cast<std::uint32_t>(n.parent)) << 16) ^
           (n.value.empty() ? 1u : 0u)) *
          0x9E3779B97F4A7C15ull;
      h ^= h >> 29;
    }
    return h;
  }

  static bool sameShape(const LayersTemplate& t, const packets::Dissection& d) {
    if (t.shape.size() != d.nodes.size()) return false;
    for (std::size_t i = 0; i < t.shape.size(); ++i) {
      const auto& s = t.shape[i];
      const auto& n = d.nodes[i];
      if (s.parent != n.parent || s.noValue != n.value.empty() || s.key != n.key) return false;
    }
    return true;
  }

  std::vector<LayersTemplate> entries_;
  std::size_t next_ = 0;
};

// The template's text with the frame's values in its holes.
void appendLayers(const LayersTemplate& t, const packets::Dissection& d, std::string& out) {
  const auto valueOf = [&](const LayersTemplate::Hole& h) -> std::string_view {
    return d.nodes[static_cast<std::size_t>(h.node)].value;
  };
  std::size_t size = t.text.size();
  bool plain = true;
  for (const auto& h : t.holes) {
    const std::string_view v = valueOf(h);
    size += h.bytes ? colonHexSize(v) : v.size();
    plain = plain && plainJson(v);
  }
  std::size_t at = 0;
  if (plain) {  // copied through a pointer into room made once
    const std::size_t start = out.size();
    out.resize(start + size);
    char* p = out.data() + start;
    for (const auto& h : t.holes) {
      std::memcpy(p, t.text.data() + at, h.textEnd - at);
      p += h.textEnd - at;
      const std::string_view v = valueOf(h);
      if (h.bytes) {
        p = writeColonHex(p, v);
      } else {
        std::memcpy(p, v.data(), v.size());
        p += v.size();
      }
      at = h.textEnd;
    }
    std::memcpy(p, t.text.data() + at, t.text.size() - at);
    return;
  }
  std::string escaped;
  for (const auto& h : t.holes) {
    out.append(t.text, at, h.textEnd - at);
    const std::string_view v = valueOf(h);
    if (h.bytes && plainJson(v)) {
      appendColonHex(out, v);
    } else {
      escaped.clear();
      appendJsonString(escaped, v);
      out.append(escaped, 1, escaped.size() - 2);  // without its quotes: the template has them
    }
    at = h.textEnd;
  }
  out.append(t.text, at);
}

// "packets-YYYY-MM-DD" of the capture time; the day's text kept for the next frames.
void appendIndex(std::string& out, std::int64_t timestampNs) {
  const std::time_t sec = static_cast<std::time_t>(timestampNs / 1'000'000'000);
  const std::time_t day = sec >= 0 ? sec / 86'400 : (sec - 86'399) / 86'400;  // rounded down
  thread_local std::time_t lastDay = 0;
  thread_local std::string lastIndex;
  if (lastIndex.empty() || day != lastDay) {
    std::tm tm{};
    gmtime_r(&sec, &tm);
    char index[32];
    std::strftime(index, sizeof index, "packets-%Y-%m-%d", &tm);
    lastIndex.clear();
    appendJsonString(lastIndex, index);
    lastDay = day;
  }
  out += lastIndex;
}

}  // namespace

void appendJsonRecord(const packets::Dissection& d, std::int64_t timestampNs, std::string& out) {
  out += ",\n";
  // Indented one level inside the array, as tshark writes it.
  out += "  {\n    \"_index\": ";
  appendIndex(out, timestampNs);
  out +=
      ",\n    \"_type\": \"doc\",\n    \"_score\": null,\n    \"_source\": {\n      \"layers\": ";
  // The children index, reused from packet to packet by each thread that formats them.
  thread_local JsonScratch scratch;
  if (d.diagnostics.empty()) {
    thread_local TemplateCache cache;
    const LayersTemplate& t = cache.get(d, scratch);
    appendLayers(t, d, out);
  } else {
    const auto diagnostics = [&](std::string& o, bool after, std::size_t indent) {
      if (after) o += ',';
      newline(o, indent);
      o += "\"_diagnostics\": [";
      for (std::size_t i = 0; i < d.diagnostics.size(); ++i) {
        if (i) o += ',';
        newline(o, indent + 2);
        o += '{';
        newline(o, indent + 4);
        o += "\"severity\": ";
        appendJsonString(o, packets::severityName(d.diagnostics[i].severity));
        o += ',';
        newline(o, indent + 4);
        o += "\"message\": ";
        appendJsonString(o, d.diagnostics[i].message);
        newline(o, indent + 2);
        o += '}';
      }
      newline(o, indent);
      o += ']';
    };
    TextSink sink(out, d);
    const JsonTree tree(d, scratch);
    tree.object(sink, tree.root(), kLayersIndent, &diagnostics);
  }
  out += "\n    }\n  }";
}

}  // namespace rdmascope::cli
