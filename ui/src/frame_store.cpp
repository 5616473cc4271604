#include "rdmascope/ui/frame_store.h"

#include <sys/mman.h>

#include <cstdint>

namespace rdmascope::ui {

void FrameStore::clear(packets::LinkType link) {
  link_ = link;
  buffer_.clear();
  records_.clear();
}

namespace {

// Asks for transparent huge pages under the 2 MiB-aligned part of a block: a capture's bytes
// and index then fault in 2 MiB at a time, not 4 KiB (a million frames: 84 MB, some 20,000
// page faults otherwise, most of the load's time on this project's VMs).
void adviseHugePages(const void* data, std::size_t bytes) {
  constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1);
  const std::uintptr_t end = (begin + bytes) & ~(kHugePage - 1);
  if (end > first) ::madvise(reinterpret_cast<void*>(first), end - first, MADV_HUGEPAGE);
}

}  // namespace

void FrameStore::reserve(std::size_t frames, std::size_t bytes) {
  records_.reserve(frames);
  buffer_.reserve(bytes);
  adviseHugePages(records_.data(), records_.capacity() * sizeof(FrameRecord));
  adviseHugePages(buffer_.data(), buffer_.capacity());
}

std::size_t FrameStore::append(std::span<const std::uint8_t> bytes, std::int64_t timestampNs,
                               std::uint32_t originalLength) {
  FrameRecord r;
  r.offset = buffer_.size();
  r.timestampNs = timestampNs;
  r.capturedLength = static_cast<std::uint32_t>(bytes.size());
  r.originalLength = originalLength ? originalLength : r.capturedLength;
  buffer_.insert(buffer_.end(), bytes.begin(), bytes.end());
  records_.push_back(r);
  return records_.size() - 1;
}

std::span<const std::uint8_t> FrameStore::bytes(std::size_t frame) const {
  const FrameRecord& r = records_[frame];
  return {buffer_.data() + r.offset, r.capturedLength};
}

double FrameStore::timeRelative(std::size_t frame) const {
  if (records_.empty()) return 0.0;
  return static_cast<double>(records_[frame].timestampNs - records_.front().timestampNs) * 1e-9;
}

packets::FrameInfo FrameStore::frameInfo(std::size_t frame) const {
  const FrameRecord& r = records_[frame];
  packets::FrameInfo info;
  info.number = frame + 1;
  info.timeRelative = timeRelative(frame);
  info.timeEpoch = static_cast<double>(r.timestampNs) * 1e-9;
  info.epochNs = r.timestampNs;
  info.originalLength = r.originalLength;
  if (frame > 0)  // wrapping, as makeFrameInfo: a hostile file's times may lie 2^63 ns apart
    info.deltaNs =
        static_cast<std::int64_t>(static_cast<std::uint64_t>(r.timestampNs) -
                                  static_cast<std::uint64_t>(records_[frame - 1].timestampNs));
  return info;
}

packets::Dissection FrameStore::decode(std::size_t frame,
                                       const packets::DecodeOptions& options) const {
  return packets::decodeFrame(bytes(frame), link_, frameInfo(frame), options);
}

}  // namespace rdmascope::ui
