#include "packet_printer.h"

#include <cctype>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <nlohmann/json.hpp>

#include "rdmascope/packets/field_registry.h"

namespace rdmascope::cli {
namespace {

using Json = nlohmann::ordered_json;

// The protocol column when no dissector named one: the innermost layer below the payload.
std::string highestLayer(const packets::Dissection& d) {
  std::string name = "?";
  for (const auto& n : d.nodes)
    if (n.parent < 0 && n.key != "frame" && n.key != "data") {
      name.clear();
      for (char c : n.key)
        name.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
    }
  return name;
}

}  // namespace

void appendFieldText(std::string& out, const packets::Dissection& d, std::string_view key,
                     std::string_view aggregator, char occurrence) {
  const auto targets = packets::aliasTargets(key);
  const auto hit = [&](const packets::Node& n) {
    if (n.key == key) return true;
    for (auto t : targets)
      if (n.key == t) return true;
    return false;
  };
  const packets::Node* last = nullptr;
  bool any = false;
  for (const auto& n : d.nodes) {
    if (!hit(n)) continue;
    if (occurrence == 'f') {
      out += n.value;
      return;
    }
    if (occurrence == 'l') {
      last = &n;
      continue;
    }
    if (any) out += aggregator;
    out += n.value;
    any = true;
  }
  if (last) out += last->value;
}

std::string fieldText(const packets::Dissection& d, const std::string& key,
                      const std::string& aggregator, char occurrence) {
  std::string out;
  appendFieldText(out, d, key, aggregator, occurrence);
  return out;
}

std::optional<packets::ValueKeys> PacketPrinter::valueKeys() const {
  packets::ValueKeys keys;
  switch (options_.format) {
    case PrintOptions::Format::Summary:
      keys.add("frame.number");
      keys.add("frame.time_relative");
      keys.add("frame.len");
      return keys;
    case PrintOptions::Format::Fields:
      for (const auto& key : options_.fields)
        keys.add(key);
      return keys;
    case PrintOptions::Format::Json:
      return packets::ValueKeys::all();
    case PrintOptions::Format::Tree:
      break;
  }
  return std::nullopt;
}

void PacketPrinter::begin() {
  if (options_.format == PrintOptions::Format::Json) out_ << "[\n";
  if (options_.format == PrintOptions::Format::Fields && options_.header) {
    for (std::size_t i = 0; i < options_.fields.size(); ++i)
      out_ << (i ? options_.separator : "") << options_.fields[i];
    out_ << '\n';
  }
}

void PacketPrinter::end() {
  flush();
  if (options_.format == PrintOptions::Format::Json) out_ << (printed_ ? "\n]\n" : "]\n");
  out_.flush();
}

void PacketPrinter::print(const packets::Dissection& d, std::int64_t timestampNs) {
  const std::size_t start = buffer_.size();
  formatRecord(d, timestampNs, buffer_);
  if (!printed_) buffer_.erase(start, separatorSize());
  printed_ = true;
  flushFull();
}

std::size_t PacketPrinter::separatorSize() const {
  switch (options_.format) {
    case PrintOptions::Format::Tree:
      return 1;  // "\n"
    case PrintOptions::Format::Json:
      return 2;  // ",\n"
    case PrintOptions::Format::Summary:
    case PrintOptions::Format::Fields:
      break;
  }
  return 0;
}

namespace {

// As snprintf's %*s and %-*s: padded by bytes, not by display width.
void appendPadded(std::string& out, std::string_view text, std::size_t width, bool left) {
  if (!left && text.size() < width) out.append(width - text.size(), ' ');
  out.append(text);
  if (left && text.size() < width) out.append(width - text.size(), ' ');
}

}  // namespace

void PacketPrinter::formatRecord(const packets::Dissection& d, std::int64_t timestampNs,
                                 std::string& out) const {
  switch (options_.format) {
    case PrintOptions::Format::Summary:
      summary(d, out);
      break;
    case PrintOptions::Format::Fields:
      fields(d, out);
      break;
    case PrintOptions::Format::Tree:
      tree(d, out);
      break;
    case PrintOptions::Format::Json:
      json(d, timestampNs, out);
      break;
  }
}

void PacketPrinter::writeRecords(std::string_view records) {
  if (records.empty()) return;
  if (!printed_) records.remove_prefix(std::min(separatorSize(), records.size()));
  printed_ = true;
  if (records.size() >= kFlushBytes) {  // a block already: written without a copy
    flush();
    out_.write(records.data(), static_cast<std::streamsize>(records.size()));
    return;
  }
  buffer_.append(records);
  flushFull();
}

void PacketPrinter::summary(const packets::Dissection& d, std::string& line) const {
  const auto* number = d.find("frame.number");
  const auto* time = d.find("frame.time_relative");
  const auto* len = d.find("frame.len");
  appendPadded(line, number ? std::string_view(number->value) : "?", 5, false);
  line += ' ';
  line.append(time ? std::string_view(time->value) : "?");
  line += ' ';
  const auto& s = d.summary;
  appendPadded(line, s.source, 12, false);
  line.append(" \u2192 ");
  appendPadded(line, s.destination, 12, true);
  line += ' ';
  if (s.protocol.empty())
    line += highestLayer(d);
  else
    line += s.protocol;
  line += ' ';
  if (len)
    line += len->value;
  else
    line += std::to_string(d.frameLength);
  line += ' ';
  line += s.info;
  if (options_.showDiagnostics)
    for (const auto& diag : d.diagnostics)
      if (diag.severity == packets::Severity::Error) {
        line.append(" [").append(diag.message).append("]");
        break;
      }
  line += '\n';
}

void PacketPrinter::flushFull() {
  if (buffer_.size() >= kFlushBytes) flush();
}

void PacketPrinter::flush() {
  out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
}

void PacketPrinter::tree(const packets::Dissection& d, std::string& out) const {
  // Into a block of text, as the lines are: a stream insertion per node costs more than the
  // dissection.
  out += '\n';
  for (const auto& n : d.nodes) {
    if (n.label.empty()) continue;
    out.append(4u * n.depth, ' ');
    out.append(n.label);
    out += '\n';
  }
  if (options_.showDiagnostics && !d.diagnostics.empty()) {
    out += "Diagnostics\n";
    for (const auto& diag : d.diagnostics) {
      out.append("    [")
          .append(packets::severityName(diag.severity))
          .append(": ")
          .append(diag.message);
      if (diag.node >= 0 && static_cast<std::size_t>(diag.node) < d.nodes.size() &&
          !d.nodes[diag.node].key.empty())
        out.append(" (").append(d.nodes[diag.node].key).append(")");
      out += "]\n";
    }
  }
}

void PacketPrinter::fields(const packets::Dissection& d, std::string& line) const {
  for (std::size_t i = 0; i < options_.fields.size(); ++i) {
    if (i) line += options_.separator;
    appendFieldText(line, d, options_.fields[i], options_.aggregator, options_.occurrence);
  }
  line += '\n';
}

namespace {

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

void newline(std::string& out, std::size_t indent) {
  out += '\n';
  out.append(indent, ' ');
}

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
  template <typename Tail>
  void object(std::string& out, std::int32_t index, std::size_t indent, Tail* tail) const {
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
        item(out, it.node, it.subtree, indent + 2);
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
        item(out, it.node, it.subtree, indent + 4);
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

  void item(std::string& out, std::int32_t node, bool subtree, std::size_t indent) const {
    if (subtree)
      object(out, node, indent, static_cast<JsonTail*>(nullptr));
    else
      appendJsonString(out, d_.nodes[static_cast<std::size_t>(node)].value);
  }

  using Member = JsonMember;
  using Item = JsonItem;

  const packets::Dissection& d_;
  std::vector<std::int32_t>& first_;
  std::vector<std::int32_t>& kids_;
  std::vector<JsonMember>& members_;
  std::vector<JsonItem>& items_;
};

}  // namespace

void PacketPrinter::json(const packets::Dissection& d, std::int64_t timestampNs,
                         std::string& out) const {
  const std::time_t sec = static_cast<std::time_t>(timestampNs / 1'000'000'000);
  std::tm tm{};
  gmtime_r(&sec, &tm);
  char index[32];
  std::strftime(index, sizeof index, "packets-%Y-%m-%d", &tm);
  out += ",\n";
  // Indented one level inside the array, as tshark writes it.
  out += "  {\n    \"_index\": ";
  appendJsonString(out, index);
  out +=
      ",\n    \"_type\": \"doc\",\n    \"_score\": null,\n    \"_source\": {\n      \"layers\": ";
  // The children index, reused from packet to packet by each thread that formats them.
  thread_local JsonScratch scratch;
  const JsonTree tree(d, scratch);
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
  if (d.diagnostics.empty())
    tree.object(out, tree.root(), 6, static_cast<JsonTail*>(nullptr));
  else
    tree.object(out, tree.root(), 6, &diagnostics);
  out += "\n    }\n  }";
}

}  // namespace rdmascope::cli
