#include "fast_path.h"

namespace rdmascope::cli {

FastPath::FastPath(const PacketPrinter& printer,
                   const std::optional<packets::DisplayFilter>& filter,
                   const packets::DecodeOptions& options)
    : filter_(filter), options_(options) {
  // The line formats print from the extracted fields (and summary columns); the detail tree
  // and JSON only filter with them.
  printsFromFields_ = printer.printsLines() && options.lean != nullptr;
  if (!printsFromFields_ && !filter) return;
  packets::ValueKeys keys;
  if (printsFromFields_) keys = *options.lean;
  if (filter)
    for (const auto& key : filter->keys())
      keys.add(key);
  summary_ = printsFromFields_ && !printer.printsFields();
  packets::FieldExtractor extractor(keys, options);
  if (extractor.usable()) extractor_ = std::move(extractor);
}

FastPath::Outcome FastPath::run(packets::Dissection& d, std::span<const std::uint8_t> frame,
                                packets::LinkType link, const packets::FrameInfo& info) const {
  if (!extractor_ || !extractor_->extract(d, frame, link, info)) return Outcome::Refused;
  if (filter_ && !filter_->matches(d)) return Outcome::Skipped;
  // The summary's columns only for the frames kept.
  if (!printsFromFields_ || (summary_ && !extractor_->summarize(d, frame, link)))
    return Outcome::Kept;
  return Outcome::Printed;
}

bool FastPath::formatRecord(packets::Dissection& d, std::span<const std::uint8_t> frame,
                            packets::LinkType link, const packets::FrameInfo& info,
                            const PacketPrinter& printer, std::string& text) const {
  switch (run(d, frame, link, info)) {
    case Outcome::Skipped:
      return false;
    case Outcome::Printed:
      printer.formatRecord(d, info.epochNs, text);
      return true;
    case Outcome::Kept:
      packets::decodeFrameInto(d, frame, link, info, options_);
      printer.formatRecord(d, info.epochNs, text);
      return true;
    case Outcome::Refused:
      break;
  }
  packets::decodeFrameInto(d, frame, link, info, options_);
  if (filter_ && !filter_->matches(d)) return false;
  printer.formatRecord(d, info.epochNs, text);
  return true;
}

}  // namespace rdmascope::cli
