#pragma once
/// @file dissection_cache.h
/// A small least-recently-used cache of decoded frames, so that a view scrolling over a large
/// capture decodes each visible frame once and memory stays bounded.

#include <cstddef>
#include <list>
#include <memory>
#include <unordered_map>

#include "rdmascope/packets/dissection.h"

namespace rdmascope::ui {

class FrameStore;

/// Dissections of a FrameStore's frames, decoded on first use. Shared pointers keep an entry
/// alive for a view that still shows it after the cache evicted it.
class DissectionCache {
 public:
  explicit DissectionCache(const FrameStore* store, std::size_t capacity = 512)
      : store_(store), capacity_(capacity) {}

  /// The dissection of a frame, decoding it when it is not cached.
  std::shared_ptr<const packets::Dissection> get(std::size_t frame);
  /// Forgets every entry (after the store was cleared).
  void clear();

  std::size_t size() const { return map_.size(); }
  std::size_t capacity() const { return capacity_; }
  /// Frames decoded since construction (a cache miss each).
  std::size_t decodes() const { return decodes_; }

 private:
  using Entry = std::pair<std::size_t, std::shared_ptr<const packets::Dissection>>;
  const FrameStore* store_;
  std::size_t capacity_;
  std::list<Entry> lru_;  // most recent first
  std::unordered_map<std::size_t, std::list<Entry>::iterator> map_;
  std::size_t decodes_ = 0;
};

}  // namespace rdmascope::ui
