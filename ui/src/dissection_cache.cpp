#include "rdmascope/ui/dissection_cache.h"

#include "rdmascope/ui/frame_store.h"

namespace rdmascope::ui {

std::shared_ptr<const packets::Dissection> DissectionCache::get(std::size_t frame) {
  if (auto it = map_.find(frame); it != map_.end()) {
    lru_.splice(lru_.begin(), lru_, it->second);
    return it->second->second;
  }
  auto d = std::make_shared<const packets::Dissection>(store_->decode(frame));
  ++decodes_;
  lru_.emplace_front(frame, d);
  map_[frame] = lru_.begin();
  if (lru_.size() > capacity_) {
    map_.erase(lru_.back().first);
    lru_.pop_back();
  }
  return d;
}

void DissectionCache::clear() {
  lru_.clear();
  map_.clear();
}

}  // namespace rdmascope::ui
