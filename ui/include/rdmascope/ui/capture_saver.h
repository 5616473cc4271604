#pragma once
/// @file capture_saver.h
/// Writing what the window shows (a simulated run's frames or an opened capture) to a pcap or
/// pcapng file that Wireshark and `rdmascope-cli decode` open.

#include <string>

#include "rdmascope/ui/frame_store.h"

namespace rdmascope::ui {

/// Writes every frame of `store` to `path`, as pcapng when the name ends in ".pcapng" and as
/// pcap (nanosecond time stamps) otherwise, with the store's link type. The file is written
/// beside `path` and renamed into place only when complete, so a failure never leaves a
/// half-written file or replaces an existing one. Returns false and sets a one-line `error`
/// (naming the file) on failure, e.g. for an empty store or a folder that does not exist.
bool saveCaptureFile(const FrameStore& store, const std::string& path, std::string& error);

}  // namespace rdmascope::ui
