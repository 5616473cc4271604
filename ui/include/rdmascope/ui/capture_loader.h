#pragma once
/// @file capture_loader.h
/// Reading a pcap or pcapng file into a FrameStore, with progress and cancellation, so a large
/// file can be read on a worker thread while the window stays responsive.

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "rdmascope/ui/frame_store.h"

namespace rdmascope::ui {

/// How a load ended.
struct LoadOutcome {
  std::size_t frames = 0;  ///< frames read (kept even when an error stopped the read)
  bool cancelled = false;
  std::string error;  ///< one line naming the file and what is wrong; empty on success
  bool ok() const { return error.empty() && !cancelled; }
};

/// Called now and then with (bytes read, file size).
using LoadProgress = std::function<void(std::uint64_t, std::uint64_t)>;

/// Reads every frame of `path` into `store` (cleared first). Stops early when `cancel` becomes
/// true. Never throws; a malformed or truncated file keeps the frames before the damage and
/// reports the damage in `error`.
LoadOutcome loadCaptureFile(const std::string& path, FrameStore& store,
                            const std::atomic<bool>* cancel = nullptr,
                            const LoadProgress& progress = {});

}  // namespace rdmascope::ui
