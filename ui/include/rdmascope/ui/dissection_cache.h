#pragma once
/// @file dissection_cache.h
/// A small least-recently-used cache of decoded frames, so that a view scrolling over a large
/// capture decodes each visible frame once and memory stays bounded; plus the TCP stream state
/// that iWARP needs (MPA/DDP/RDMAP are only visible after reassembly, as in rdmascope-cli
/// decode and tshark).

#include <cstddef>
#include <list>
#include <memory>
#include <unordered_map>

#include "rdmascope/packets/dissection.h"
#include "rdmascope/packets/stream_decoder.h"

namespace rdmascope::ui {

class FrameStore;

/// Dissections of a FrameStore's frames, decoded on first use. Shared pointers keep an entry
/// alive for a view that still shows it after the cache evicted it.
///
/// Frames that are not TCP (RoCE, InfiniBand, UDP, ...) are decoded one at a time, lazily.
/// A TCP frame's dissection depends on the frames before it: the first time a TCP frame is
/// asked for, one sequential pass of a packets::CaptureDecoder runs over the store's TCP frames
/// up to it (continuing where the last pass stopped, so appended frames of a live capture are
/// handled incrementally). The pass keeps the dissection of each frame whose stateful decode
/// differs from the frame decoded on its own (iWARP frames: MPA, DDP/RDMAP, PDUs spanning
/// segments; TCP retransmissions); every other frame is decoded again on demand.
class DissectionCache {
 public:
  explicit DissectionCache(const FrameStore* store, std::size_t capacity = 512);
  ~DissectionCache();

  /// The dissection of a frame, decoding it when it is not cached.
  std::shared_ptr<const packets::Dissection> get(std::size_t frame);
  /// The dissection of a frame without entering it into the LRU list (a filter pass over every
  /// frame keeps the cache holding what the user looks at).
  std::shared_ptr<const packets::Dissection> peek(std::size_t frame);
  /// Forgets every entry and the stream state (after the store was cleared or refilled).
  void clear();

  std::size_t size() const { return map_.size(); }
  std::size_t capacity() const { return capacity_; }
  /// Frames decoded since construction (a cache miss each; stream passes not counted).
  std::size_t decodes() const { return decodes_; }
  /// Store frames the stream pass has gone over (0 until a TCP frame is asked for).
  std::size_t streamedUpTo() const { return streamNext_; }
  /// Frames whose stateful dissection the stream pass kept.
  std::size_t streamKept() const { return streamed_.size(); }

 private:
  std::shared_ptr<const packets::Dissection> decode(std::size_t frame);
  void streamTo(std::size_t end);

  using Entry = std::pair<std::size_t, std::shared_ptr<const packets::Dissection>>;
  const FrameStore* store_;
  std::size_t capacity_;
  std::list<Entry> lru_;  // most recent first
  std::unordered_map<std::size_t, std::list<Entry>::iterator> map_;
  std::size_t decodes_ = 0;
  packets::CaptureDecoder stream_;
  std::size_t streamNext_ = 0;  // first store frame the stream pass has not seen
  std::unordered_map<std::size_t, std::shared_ptr<const packets::Dissection>> streamed_;
};

/// True when a frame of this link type may be a TCP segment: packets::mayReachTcp, except for
/// ERF records, which the cache decodes on their own. Cheap: reads a few header bytes.
bool mayBeTcp(std::span<const std::uint8_t> frame, packets::LinkType link);

}  // namespace rdmascope::ui
