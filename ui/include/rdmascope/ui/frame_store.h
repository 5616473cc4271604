#pragma once
/// @file frame_store.h
/// A capture held once in memory: every frame's bytes in one contiguous buffer, plus a compact
/// per-frame index. Frames are decoded on demand; the store never keeps a Dissection.

#include <cstdint>
#include <span>
#include <vector>

#include "rdmascope/packets/decode.h"

namespace rdmascope::ui {

/// Index entry of one frame (24 bytes); the bytes live in the store's buffer.
struct FrameRecord {
  std::uint64_t offset = 0;          ///< first byte in the store's buffer
  std::int64_t timestampNs = 0;      ///< nanoseconds since 1970
  std::uint32_t capturedLength = 0;  ///< bytes held
  std::uint32_t originalLength = 0;  ///< bytes on the wire
};
static_assert(sizeof(FrameRecord) == 24, "the per-frame index must stay compact");

/// Frames of one link type, appended in capture order.
class FrameStore {
 public:
  explicit FrameStore(packets::LinkType link = packets::LinkType::Ethernet) : link_(link) {}

  /// Drops every frame and sets the link type of the frames to come.
  void clear(packets::LinkType link);
  /// Reserves room for about `frames` frames of `bytes` bytes in total.
  void reserve(std::size_t frames, std::size_t bytes);
  /// Appends one frame (its bytes are copied into the buffer); returns its 0-based index.
  std::size_t append(std::span<const std::uint8_t> bytes, std::int64_t timestampNs,
                     std::uint32_t originalLength = 0);

  std::size_t size() const { return records_.size(); }
  bool empty() const { return records_.empty(); }
  packets::LinkType linkType() const { return link_; }
  const FrameRecord& record(std::size_t frame) const { return records_[frame]; }
  /// The captured bytes of a frame; valid until the next append or clear.
  std::span<const std::uint8_t> bytes(std::size_t frame) const;
  /// Seconds since the first frame.
  double timeRelative(std::size_t frame) const;

  /// The frame number, times and wire length of a frame, as tshark shows them.
  packets::FrameInfo frameInfo(std::size_t frame) const;
  /// Decodes a frame on its own (no TCP stream state: see DissectionCache for iWARP).
  packets::Dissection decode(std::size_t frame, const packets::DecodeOptions& options = {}) const;

  /// Bytes used by the index and the frame buffer.
  std::size_t indexBytes() const { return records_.capacity() * sizeof(FrameRecord); }
  std::size_t bufferBytes() const { return buffer_.capacity(); }

 private:
  packets::LinkType link_;
  std::vector<std::uint8_t> buffer_;
  std::vector<FrameRecord> records_;
};

}  // namespace rdmascope::ui
