#include "rdmascope/ui/dissection_cache.h"

#include "rdmascope/ui/frame_store.h"

namespace rdmascope::ui {

namespace {

bool ipMayBeTcp(std::span<const std::uint8_t> ip) {
  if (ip.empty()) return false;
  const int version = ip[0] >> 4;
  if (version == 4) return ip.size() > 9 && ip[9] == 6;
  return version == 6;
}

// Same differences as a packet list row, detail tree and filter would show.
bool sameDissection(const packets::Dissection& a, const packets::Dissection& b) {
  return a.nodes.size() == b.nodes.size() && a.summary.protocol == b.summary.protocol &&
         a.summary.info == b.summary.info && a.diagnostics.size() == b.diagnostics.size() &&
         a.crc == b.crc;
}

}  // namespace

bool mayBeTcp(std::span<const std::uint8_t> frame, packets::LinkType link) {
  switch (link) {
    case packets::LinkType::Ethernet: {
      std::size_t at = 12;
      // 802.1Q / 802.1ad tags before the EtherType.
      while (frame.size() >= at + 2) {
        const unsigned type = static_cast<unsigned>(frame[at] << 8 | frame[at + 1]);
        if (type == 0x8100 || type == 0x88a8) {
          at += 4;
          continue;
        }
        if (type == 0x0800 || type == 0x86dd) return ipMayBeTcp(frame.subspan(at + 2));
        return false;
      }
      return false;
    }
    case packets::LinkType::Raw:
    case packets::LinkType::Ipv4:
    case packets::LinkType::Ipv6:
      return ipMayBeTcp(frame);
    default:
      return false;
  }
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
