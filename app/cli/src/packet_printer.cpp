#include "packet_printer.h"

#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "packet_json.h"
#include "rdmascope/packets/field_registry.h"

namespace rdmascope::cli {
namespace {

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

namespace {

void appendFieldText(std::string& out, const packets::Dissection& d, std::string_view key,
                     std::span<const std::string_view> targets, std::string_view aggregator,
                     char occurrence) {
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

}  // namespace

void appendFieldText(std::string& out, const packets::Dissection& d, std::string_view key,
                     std::string_view aggregator, char occurrence) {
  appendFieldText(out, d, key, packets::aliasTargets(key), aggregator, occurrence);
}

std::string fieldText(const packets::Dissection& d, const std::string& key,
                      const std::string& aggregator, char occurrence) {
  std::string out;
  appendFieldText(out, d, key, aggregator, occurrence);
  return out;
}

packets::ValueKeys PacketPrinter::valueKeys() const {
  packets::ValueKeys keys;
  switch (options_.format) {
    case PrintOptions::Format::Summary:
      keys.add("frame.number");
      keys.add("frame.time_relative");
      keys.add("frame.len");
      break;
    case PrintOptions::Format::Fields:
      for (const auto& key : options_.fields)
        keys.add(key);
      break;
    case PrintOptions::Format::Json:
      return packets::ValueKeys::all();
    case PrintOptions::Format::Tree:
      break;
  }
  return keys;
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
  char buf[24];
  const std::string_view length =
      len ? std::string_view(len->value)
          : std::string_view(buf, std::to_chars(buf, buf + sizeof buf, d.frameLength).ptr);
  summaryLine(number ? std::string_view(number->value) : "?",
              time ? std::string_view(time->value) : "?", length, d, line);
}

void PacketPrinter::formatSummaryLine(const packets::FrameInfo& info, std::size_t capturedLength,
                                      const packets::Dissection& d, std::string& line) const {
  // The values the dissection gives frame.number, frame.time_relative and frame.len.
  char number[24];
  char length[24];
  const auto numberEnd = std::to_chars(number, number + sizeof number, info.number).ptr;
  const auto lengthEnd =
      std::to_chars(length, length + sizeof length,
                    info.originalLength ? std::uint64_t{info.originalLength} : capturedLength)
          .ptr;
  char time[48];
  const std::size_t timeLength = packets::formatTimeRelative(info, time);
  summaryLine(std::string_view(number, numberEnd), std::string_view(time, timeLength),
              std::string_view(length, lengthEnd), d, line);
}

void PacketPrinter::summaryLine(std::string_view number, std::string_view time,
                                std::string_view length, const packets::Dissection& d,
                                std::string& line) const {
  appendPadded(line, number, 5, false);
  line += ' ';
  line.append(time);
  line += ' ';
  const auto& s = d.summary;
  appendPadded(line, s.source, 12, false);
  line.append(std::string_view(" \u2192 "));
  appendPadded(line, s.destination, 12, true);
  line += ' ';
  if (s.protocol.empty())
    line += highestLayer(d);
  else
    line += s.protocol;
  line += ' ';
  line.append(length);
  line += ' ';
  line += s.info;
  if (options_.showDiagnostics)
    for (const auto& diag : d.diagnostics)
      if (diag.severity == packets::Severity::Error) {
        line.append(std::string_view(" [")).append(diag.message) += ']';
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
    appendFieldText(line, d, options_.fields[i], fieldTargets_[i], options_.aggregator,
                    options_.occurrence);
  }
  line += '\n';
}

void PacketPrinter::json(const packets::Dissection& d, std::int64_t timestampNs,
                         std::string& out) const {
  appendJsonRecord(d, timestampNs, out);
}

}  // namespace rdmascope::cli
