#include "frame_decoder.h"

namespace rdmascope::cli {

packets::Dissection FrameDecoder::decode(std::span<const std::uint8_t> frame,
                                         packets::LinkType link, const packets::FrameInfo& info) {
  return stream_.decode(frame, link, info);
}

void FrameDecoder::decodeInto(packets::Dissection& out, std::span<const std::uint8_t> frame,
                              packets::LinkType link, const packets::FrameInfo& info) {
  stream_.decodeInto(out, frame, link, info);
}

packets::FrameInfo makeFrameInfo(std::uint64_t number, std::int64_t timestampNs,
                                 std::int64_t firstTimestampNs, std::uint32_t originalLength,
                                 std::int64_t previousTimestampNs) {
  packets::FrameInfo info;
  info.number = number;
  // Differences in integer nanoseconds first: a double cannot hold epoch nanoseconds exactly.
  info.timeRelative = static_cast<double>(timestampNs - firstTimestampNs) / 1e9;
  info.timeEpoch = static_cast<double>(timestampNs / 1'000'000'000) +
                   static_cast<double>(timestampNs % 1'000'000'000) / 1e9;
  info.epochNs = timestampNs;
  info.originalLength = originalLength;
  // Wrapping, as a hostile file's times may lie 2^63 ns apart.
  info.deltaNs = static_cast<std::int64_t>(static_cast<std::uint64_t>(timestampNs) -
                                           static_cast<std::uint64_t>(previousTimestampNs));
  return info;
}

}  // namespace rdmascope::cli
