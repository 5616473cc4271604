#pragma once
// Prints dissections the way tshark does: summary lines, the detail tree (-V), selected fields
// (-T fields -e KEY) and JSON (-T json).

#include <cstdint>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/dissection.h"
#include "rdmascope/packets/field_registry.h"

namespace rdmascope::cli {

struct PrintOptions {
  enum class Format : std::uint8_t { Summary, Tree, Fields, Json } format = Format::Summary;
  std::vector<std::string> fields;  ///< -e keys for Format::Fields
  bool header = false;              ///< -E header=y
  std::string separator = "\t";     ///< -E separator=
  std::string aggregator = ",";     ///< -E aggregator=
  char occurrence = 'a';            ///< -E occurrence=f|l|a
  bool showDiagnostics = true;      ///< diagnostics under the tree and in summaries
};

class PacketPrinter {
 public:
  PacketPrinter(const PrintOptions& options, std::ostream& out) : options_(options), out_(out) {
    for (const auto& key : options_.fields)
      fieldTargets_.push_back(packets::aliasTargets(key));
  }

  /// Before the first packet (the fields header, the JSON opening bracket).
  void begin();
  void print(const packets::Dissection& d, std::int64_t timestampNs);
  /// After the last packet.
  void end();
  /// Writes the lines gathered so far to the stream (a live capture shows each packet as it
  /// comes; a file's pass lets them gather into blocks).
  void flush();

  /// True for the formats that print one line per packet (summary, -T fields).
  bool printsLines() const {
    return options_.format == PrintOptions::Format::Summary ||
           options_.format == PrintOptions::Format::Fields;
  }
  /// True for -T fields: its lines read the values of the -e keys only.
  bool printsFields() const { return options_.format == PrintOptions::Format::Fields; }
  /// Appends the packet's record as print() writes it after another packet: its line, or its
  /// detail tree or JSON object with the separator that comes before it. A record depends on
  /// the packet alone, so threads may format packets apart; writeRecords() writes them.
  void formatRecord(const packets::Dissection& d, std::int64_t timestampNs, std::string& out) const;
  /// Appends the summary line of a frame as formatRecord() does, with the frame number, time
  /// and length taken from `info` and `capturedLength` instead of the dissection's frame nodes
  /// (a frame summarised by packets::FieldExtractor::summarize, which makes none).
  void formatSummaryLine(const packets::FrameInfo& info, std::size_t capturedLength,
                         const packets::Dissection& d, std::string& line) const;
  /// Writes records formatted by formatRecord(), in order with what print() writes (the
  /// separator before the first record of the output left out).
  void writeRecords(std::string_view records);

  /// The node values print() reads, for a lean decode (DecodeOptions::lean): none for the
  /// detail tree, which reads every label instead (printsLabels()).
  packets::ValueKeys valueKeys() const;
  /// True for the detail tree (-V): every node's label, no value.
  bool printsLabels() const { return options_.format == PrintOptions::Format::Tree; }

 private:
  void summary(const packets::Dissection& d, std::string& line) const;
  // The summary line from its frame columns (number, time, length) and the dissection's
  // summary and diagnostics.
  void summaryLine(std::string_view number, std::string_view time, std::string_view length,
                   const packets::Dissection& d, std::string& line) const;
  void tree(const packets::Dissection& d, std::string& out) const;
  void fields(const packets::Dissection& d, std::string& line) const;
  void json(const packets::Dissection& d, std::int64_t timestampNs, std::string& out) const;
  // The bytes before every record but the first (the tree's blank line, JSON's comma).
  std::size_t separatorSize() const;
  // Summary and field lines are gathered in buffer_ and written in blocks of about kFlushBytes.
  void flushFull();

  static constexpr std::size_t kFlushBytes = 1 << 16;

  PrintOptions options_;
  std::ostream& out_;
  bool printed_ = false;  // a record was written
  std::string buffer_;
  // The keys an aggregate -e key reads (ip.addr: ip.src and ip.dst), for each -e key.
  std::vector<std::span<const std::string_view>> fieldTargets_;
};

/// Appends the value tshark prints for a key with -T fields (occurrences joined, or the first
/// or last with occurrence 'f' or 'l'); nothing when the frame has none.
void appendFieldText(std::string& out, const packets::Dissection& d, std::string_view key,
                     std::string_view aggregator = ",", char occurrence = 'a');

/// The value tshark prints for a key with -T fields (occurrences joined), or empty.
std::string fieldText(const packets::Dissection& d, const std::string& key,
                      const std::string& aggregator = ",", char occurrence = 'a');

}  // namespace rdmascope::cli
