#include "fast_path.h"

namespace rdmascope::cli {
namespace {

std::optional<packets::FieldExtractor> extractorOf(const packets::ValueKeys& keys,
                                                   const packets::DecodeOptions& options) {
  packets::FieldExtractor extractor(keys, options);
  if (!extractor.usable()) return std::nullopt;
  return extractor;
}

}  // namespace

FastPath::FastPath(const PacketPrinter& printer,
                   const std::optional<packets::DisplayFilter>& filter,
                   const packets::DecodeOptions& options)
    : filter_(filter), options_(options) {
  if (filter) {
    packets::ValueKeys keys;
    for (const auto& key : filter->keys())
      keys.add(key);
    filterKeys_ = extractorOf(keys, options);
  }
  // The line formats print from what the extractor reads; the detail tree and JSON only
  // filter with it. Summary lines need none of the -e keys: an extractor of no keys makes the
  // summary columns.
  if (!printer.printsLines() || options.lean == nullptr) return;
  summary_ = !printer.printsFields();
  lines_ = extractorOf(summary_ ? packets::ValueKeys() : printer.valueKeys(), options);
}

bool FastPath::formatRecord(packets::Dissection& d, std::span<const std::uint8_t> frame,
                            packets::LinkType link, const packets::FrameInfo& info,
                            const PacketPrinter& printer, std::string& text) const {
  if (filter_) {
    // The extracted values are the lean dissection's: the filter decides as it would there.
    if (!filterKeys_ || !filterKeys_->extract(d, frame, link, info)) {
      packets::decodeFrameInto(d, frame, link, info, options_);
      if (!filter_->matches(d)) return false;
      printer.formatRecord(d, info.epochNs, text);
      return true;
    }
    if (!filter_->matches(d)) return false;
  }
  if (lines_) {
    if (summary_ && lines_->summarize(d, frame, link)) {
      printer.formatSummaryLine(info, frame.size(), d, text);
      return true;
    }
    if (!summary_ && lines_->extract(d, frame, link, info)) {
      printer.formatRecord(d, info.epochNs, text);
      return true;
    }
  }
  packets::decodeFrameInto(d, frame, link, info, options_);
  printer.formatRecord(d, info.epochNs, text);
  return true;
}

}  // namespace rdmascope::cli
