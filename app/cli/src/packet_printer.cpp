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

// Adds a value to a JSON object, turning repeated keys into arrays.
void addMember(Json& object, const std::string& key, Json value) {
  auto it = object.find(key);
  if (it == object.end()) {
    object[key] = std::move(value);
  } else if (it->is_array()) {
    it->push_back(std::move(value));
  } else {
    Json array = Json::array({std::move(*it), std::move(value)});
    *it = std::move(array);
  }
}

Json subtree(const packets::Dissection& d, const std::vector<std::vector<std::int32_t>>& kids,
             std::int32_t index) {
  Json object = Json::object();
  for (const std::int32_t c : kids[index]) {
    const auto& n = d.nodes[c];
    const std::string key(n.key);
    if (kids[c].empty()) {
      addMember(object, key, n.value);
    } else if (n.value.empty()) {
      addMember(object, key, subtree(d, kids, c));
    } else {
      addMember(object, key, n.value);
      addMember(object, key + "_tree", subtree(d, kids, c));
    }
  }
  return object;
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

void PacketPrinter::json(const packets::Dissection& d, std::int64_t timestampNs) {
  std::vector<std::vector<std::int32_t>> kids(d.nodes.size() + 1);
  for (std::size_t i = 0; i < d.nodes.size(); ++i) {
    const std::int32_t p = d.nodes[i].parent;
    kids[p < 0 ? d.nodes.size() : static_cast<std::size_t>(p)].push_back(
        static_cast<std::int32_t>(i));
  }
  Json layers = subtree(d, kids, static_cast<std::int32_t>(d.nodes.size()));
  if (!d.diagnostics.empty()) {
    Json diags = Json::array();
    for (const auto& diag : d.diagnostics)
      diags.push_back({{"severity", severityName(diag.severity)}, {"message", diag.message}});
    layers["_diagnostics"] = std::move(diags);
  }
  const std::time_t sec = static_cast<std::time_t>(timestampNs / 1'000'000'000);
  std::tm tm{};
  gmtime_r(&sec, &tm);
  char index[32];
  std::strftime(index, sizeof index, "packets-%Y-%m-%d", &tm);
  Json packet;
  packet["_index"] = index;
  packet["_type"] = "doc";
  packet["_score"] = nullptr;
  packet["_source"] = {{"layers", std::move(layers)}};
  if (printed_) out_ << ",\n";
  // Indented one level inside the array, as tshark writes it.
  std::string text = packet.dump(2, ' ', false, Json::error_handler_t::replace);
  out_ << "  ";
  for (char c : text) {
    out_ << c;
    if (c == '\n') out_ << "  ";
  }
}

}  // namespace rdmascope::cli
