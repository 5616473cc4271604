#include "rdmascope/ui/dissection_cache.h"

#include "rdmascope/packets/stream_decoder.h"
#include "rdmascope/ui/frame_store.h"

namespace rdmascope::ui {

namespace {

// Same differences as a packet list row, detail tree and filter would show.
bool sameDissection(const packets::Dissection& a, const packets::Dissection& b) {
  return a.nodes.size() == b.nodes.size() && a.summary.protocol == b.summary.protocol &&
         a.summary.info == b.summary.info && a.diagnostics.size() == b.diagnostics.size() &&
         a.crc == b.crc;
}

}  // namespace

bool mayBeTcp(std::span<const std::uint8_t> frame, packets::LinkType link) {
  // ERF records are decoded on their own here (no stream state across them).
  if (link == packets::LinkType::Erf) return false;
  return packets::mayReachTcp(frame, link);
}

DissectionCache::DissectionCache(const FrameStore* store, std::size_t capacity)
    : store_(store), capacity_(capacity) {}

DissectionCache::~DissectionCache() = default;

void DissectionCache::streamTo(std::size_t end) {
  const auto link = store_->linkType();
  for (; streamNext_ < end; ++streamNext_) {
    const auto bytes = store_->bytes(streamNext_);
    if (!mayBeTcp(bytes, link)) continue;
    const auto info = store_->frameInfo(streamNext_);
    auto stateful = stream_.decode(bytes, link, info);
    if (sameDissection(stateful, packets::decodeFrame(bytes, link, info))) continue;
    streamed_.emplace(streamNext_,
                      std::make_shared<const packets::Dissection>(std::move(stateful)));
  }
}

std::shared_ptr<const packets::Dissection> DissectionCache::decode(std::size_t frame) {
  if (mayBeTcp(store_->bytes(frame), store_->linkType())) {
    if (frame >= streamNext_) streamTo(std::min(frame + 1, store_->size()));
    if (auto it = streamed_.find(frame); it != streamed_.end()) return it->second;
  }
  return std::make_shared<const packets::Dissection>(store_->decode(frame));
}

std::shared_ptr<const packets::Dissection> DissectionCache::peek(std::size_t frame) {
  if (auto it = map_.find(frame); it != map_.end()) return it->second->second;
  return decode(frame);
}

std::shared_ptr<const packets::Dissection> DissectionCache::get(std::size_t frame) {
  if (auto it = map_.find(frame); it != map_.end()) {
    lru_.splice(lru_.begin(), lru_, it->second);
    return it->second->second;
  }
  auto d = decode(frame);
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
  stream_.reset();
  streamNext_ = 0;
  streamed_.clear();
}

}  // namespace rdmascope::ui
