#pragma once
// The fast path of `decode`'s line, filter and field passes: a frame that cannot reach TCP and
// has the common RoCEv2 shape is filtered, and its summary or -T fields line formatted, from
// the fields read straight out of its bytes (packets::FieldExtractor); the dissector runs only
// for the frames it refuses and for the detail or JSON of the frames the filter keeps.

#include <optional>
#include <span>

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
  bool active() const { return extractor_.has_value(); }

  enum class Outcome {
    Refused,  ///< not of the extractor's shape: decode the frame as before
    Skipped,  ///< the filter drops it
    Printed,  ///< kept; `d` holds what the line reads (summary or -T fields)
    Kept,     ///< kept; the printer needs the frame decoded (detail, JSON, or a summary the
              ///< extractor does not make)
  };
  /// For a frame that cannot reach TCP (packets::mayReachTcp is false).
  Outcome run(packets::Dissection& d, std::span<const std::uint8_t> frame, packets::LinkType link,
              const packets::FrameInfo& info) const;

  /// A frame that cannot reach TCP: decoded (fast or not), filtered and, when kept, its record
  /// appended to `text` (PacketPrinter::formatRecord). Returns whether it was kept.
  bool formatRecord(packets::Dissection& d, std::span<const std::uint8_t> frame,
                    packets::LinkType link, const packets::FrameInfo& info,
                    const PacketPrinter& printer, std::string& text) const;

 private:
  const std::optional<packets::DisplayFilter>& filter_;
  const packets::DecodeOptions& options_;
  std::optional<packets::FieldExtractor> extractor_;
  bool printsFromFields_ = false;
  bool summary_ = false;
};

}  // namespace rdmascope::cli
