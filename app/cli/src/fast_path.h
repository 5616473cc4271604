#pragma once
// The fast path of `decode`'s passes for a frame that cannot reach TCP: a display filter reads
// its keys straight out of the frame's bytes (packets::FieldExtractor) and the frames it drops
// are never dissected; a summary line is made from the summary columns read the same way and
// the frame's number, time and length; a -T fields line from the extracted fields. The
// dissector runs only for the frames the extractor refuses and for the detail tree or JSON of
// the frames the filter keeps.

#include <optional>
#include <span>
#include <string>

#include "packet_printer.h"
#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/display_filter.h"
#include "rdmascope/packets/field_extractor.h"

namespace rdmascope::cli {

class FastPath {
 public:
  /// `options` are the decode options of the pass (lean or full); `filter` may be empty. Both
  /// must outlive this object.
  FastPath(const PacketPrinter& printer, const std::optional<packets::DisplayFilter>& filter,
           const packets::DecodeOptions& options);

  /// True when some frames may take the fast path.
  bool active() const { return filter_ ? filterKeys_.has_value() : lines_.has_value(); }

  /// A frame that cannot reach TCP (packets::mayReachTcp is false): filtered and, when kept,
  /// its record appended to `text` as PacketPrinter::formatRecord appends it after a full
  /// decode. Returns whether it was kept. `d` is scratch.
  bool formatRecord(packets::Dissection& d, std::span<const std::uint8_t> frame,
                    packets::LinkType link, const packets::FrameInfo& info,
                    const PacketPrinter& printer, std::string& text) const;

 private:
  const std::optional<packets::DisplayFilter>& filter_;
  const packets::DecodeOptions& options_;
  std::optional<packets::FieldExtractor> filterKeys_;  ///< the filter's keys
  std::optional<packets::FieldExtractor> lines_;       ///< the -e keys, or the summary columns
  bool summary_ = false;
};

}  // namespace rdmascope::cli
