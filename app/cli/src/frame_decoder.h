#pragma once
// The one place rdmascope-cli turns frames into dissections: statefully, so TCP streams are
// reassembled and iWARP (MPA/DDP/RDMAP) is decoded as the GUI and tshark show it.

#include <cstdint>
#include <span>

#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/stream_decoder.h"

namespace rdmascope::cli {

class FrameDecoder {
 public:
  explicit FrameDecoder(const packets::DecodeOptions& options)
      : options_(options), stream_(options) {}

  /// Decodes the next frame of a capture (frames must come in capture order).
  packets::Dissection decode(std::span<const std::uint8_t> frame, packets::LinkType link,
                             const packets::FrameInfo& info);
  /// decode() into a dissection whose storage is reused from frame to frame.
  void decodeInto(packets::Dissection& out, std::span<const std::uint8_t> frame,
                  packets::LinkType link, const packets::FrameInfo& info);

  const packets::DecodeOptions& options() const { return options_; }

 private:
  packets::DecodeOptions options_;
  packets::CaptureDecoder stream_;
};

/// Frame facts (number, relative and epoch time, time since the previous frame, wire length)
/// for the decoder. `previousTimestampNs`: the frame before it in the file (the first frame's
/// own time for the first frame).
packets::FrameInfo makeFrameInfo(std::uint64_t number, std::int64_t timestampNs,
                                 std::int64_t firstTimestampNs, std::uint32_t originalLength,
                                 std::int64_t previousTimestampNs);

}  // namespace rdmascope::cli
