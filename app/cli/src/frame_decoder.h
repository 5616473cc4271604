#pragma once
// The one place rdmascope-cli turns frames into dissections (stateless for now; a stateful
// decoder for iWARP streams replaces the call in frame_decoder.cpp).

#include <cstdint>
#include <span>

#include "rdmascope/packets/decode.h"

namespace rdmascope::cli {

class FrameDecoder {
 public:
  explicit FrameDecoder(const packets::DecodeOptions& options) : options_(options) {}

  /// Decodes the next frame of a capture (frames must come in capture order).
  packets::Dissection decode(std::span<const std::uint8_t> frame, packets::LinkType link,
                             const packets::FrameInfo& info);

  const packets::DecodeOptions& options() const { return options_; }

 private:
  packets::DecodeOptions options_;
};

/// Frame facts (number, relative and epoch time, wire length) for the decoder.
packets::FrameInfo makeFrameInfo(std::uint64_t number, std::int64_t timestampNs,
                                 std::int64_t firstTimestampNs, std::uint32_t originalLength);

}  // namespace rdmascope::cli
