#include "packet_printer.h"

#include <cctype>
#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>

#include "rdmascope/packets/field_registry.h"

namespace rdmascope::cli {
namespace {

using Json = nlohmann::ordered_json;

std::string severityName(packets::Severity s) {
  switch (s) {
    case packets::Severity::Note:
      return "Note";
    case packets::Severity::Warning:
      return "Warning";
    case packets::Severity::Error:
      return "Error";
  }
  return "Note";
}

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
  switch (options_.format) {
    case PrintOptions::Format::Summary:
    case PrintOptions::Format::Fields:
      formatLine(d, buffer_);
      flushFull();
      break;
    case PrintOptions::Format::Tree:
      tree(d);
      break;
    case PrintOptions::Format::Json:
      json(d, timestampNs);
      break;
  }
  ++printed_;
}

namespace {

// As snprintf's %*s and %-*s: padded by bytes, not by display width.
void appendPadded(std::string& out, std::string_view text, std::size_t width, bool left) {
  if (!left && text.size() < width) out.append(width - text.size(), ' ');
  out.append(text);
  if (left && text.size() < width) out.append(width - text.size(), ' ');
}

}  // namespace

void PacketPrinter::formatLine(const packets::Dissection& d, std::string& out) const {
  if (options_.format == PrintOptions::Format::Fields)
    fields(d, out);
  else
    summary(d, out);
}

void PacketPrinter::writeLines(std::string_view lines) {
  if (lines.size() >= kFlushBytes) {  // a block already: written without a copy
    flush();
    out_.write(lines.data(), static_cast<std::streamsize>(lines.size()));
    return;
  }
  buffer_.append(lines);
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

void PacketPrinter::tree(const packets::Dissection& d) {
  if (printed_) out_ << '\n';
  for (const auto& n : d.nodes) {
    if (n.label.empty()) continue;
    out_ << std::string(4u * n.depth, ' ') << n.label << '\n';
  }
  if (options_.showDiagnostics && !d.diagnostics.empty()) {
    out_ << "Diagnostics\n";
    for (const auto& diag : d.diagnostics) {
      out_ << "    [" << severityName(diag.severity) << ": " << diag.message;
      if (diag.node >= 0 && static_cast<std::size_t>(diag.node) < d.nodes.size() &&
          !d.nodes[diag.node].key.empty())
        out_ << " (" << d.nodes[diag.node].key << ")";
      out_ << "]\n";
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
void appendJsonString(std::string& out, std::string_view s) {
  const std::size_t start = out.size();
  out += '"';
  std::size_t run = 0;  // start of the characters not yet appended
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) continue;
    if (c >= 0x80) {
      out.resize(start);
      out += Json(std::string(s)).dump(-1, ' ', false, Json::error_handler_t::replace);
      return;
    }
    out.append(s.substr(run, i - run));
    run = i + 1;
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

class JsonTree {
 public:
  explicit JsonTree(const packets::Dissection& d) : d_(d), kids_(d.nodes.size() + 1) {
    for (std::size_t i = 0; i < d.nodes.size(); ++i) {
      const std::int32_t p = d.nodes[i].parent;
      kids_[p < 0 ? d.nodes.size() : static_cast<std::size_t>(p)].push_back(
          static_cast<std::int32_t>(i));
    }
  }

  std::int32_t root() const { return static_cast<std::int32_t>(d_.nodes.size()); }

  // The object of a node's children; `indent`: the spaces before the line it starts on. `tail`
  // (may be null) adds members after the children's.
  template <typename Tail>
  void object(std::string& out, std::int32_t index, std::size_t indent, Tail* tail) const {
    struct Item {
      std::int32_t node;
      bool subtree;
    };
    struct Member {
      std::string key;
      std::vector<Item> items;
    };
    std::vector<Member> members;
    const auto add = [&](std::string key, Item item) {
      for (auto& m : members)
        if (m.key == key) {
          m.items.push_back(item);
          return;
        }
      members.push_back({std::move(key), {item}});
    };
    for (const std::int32_t c : kids_[static_cast<std::size_t>(index)]) {
      const auto& n = d_.nodes[static_cast<std::size_t>(c)];
      if (kids_[static_cast<std::size_t>(c)].empty()) {
        add(std::string(n.key), {c, false});
      } else if (n.value.empty()) {
        add(std::string(n.key), {c, true});
      } else {
        add(std::string(n.key), {c, false});
        add(std::string(n.key) + "_tree", {c, true});
      }
    }
    if (members.empty() && !tail) {
      out += "{}";
      return;
    }
    out += '{';
    for (std::size_t i = 0; i < members.size(); ++i) {
      if (i) out += ',';
      newline(out, indent + 2);
      appendJsonString(out, members[i].key);
      out += ": ";
      const auto& items = members[i].items;
      if (items.size() == 1) {
        item(out, items[0].node, items[0].subtree, indent + 2);
        continue;
      }
      out += '[';
      for (std::size_t j = 0; j < items.size(); ++j) {
        if (j) out += ',';
        newline(out, indent + 4);
        item(out, items[j].node, items[j].subtree, indent + 4);
      }
      newline(out, indent + 2);
      out += ']';
    }
    if (tail) (*tail)(out, !members.empty(), indent + 2);
    newline(out, indent);
    out += '}';
  }

 private:
  void item(std::string& out, std::int32_t node, bool subtree, std::size_t indent) const {
    if (subtree)
      object(out, node, indent, static_cast<void (*)(std::string&, bool, std::size_t)>(nullptr));
    else
      appendJsonString(out, d_.nodes[static_cast<std::size_t>(node)].value);
  }

  const packets::Dissection& d_;
  std::vector<std::vector<std::int32_t>> kids_;
};

}  // namespace

void PacketPrinter::json(const packets::Dissection& d, std::int64_t timestampNs) {
  const std::time_t sec = static_cast<std::time_t>(timestampNs / 1'000'000'000);
  std::tm tm{};
  gmtime_r(&sec, &tm);
  char index[32];
  std::strftime(index, sizeof index, "packets-%Y-%m-%d", &tm);
  std::string& out = buffer_;
  if (printed_) out += ",\n";
  // Indented one level inside the array, as tshark writes it.
  out += "  {\n    \"_index\": ";
  appendJsonString(out, index);
  out +=
      ",\n    \"_type\": \"doc\",\n    \"_score\": null,\n    \"_source\": {\n      \"layers\": ";
  const JsonTree tree(d);
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
      appendJsonString(o, severityName(d.diagnostics[i].severity));
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
    tree.object(out, tree.root(), 6,
                static_cast<void (*)(std::string&, bool, std::size_t)>(nullptr));
  else
    tree.object(out, tree.root(), 6, &diagnostics);
  out += "\n    }\n  }";
  flushFull();
}

}  // namespace rdmascope::cli
