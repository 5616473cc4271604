#pragma once
// `decode --verify`: every frame's ICRC/CRC checked and counted. RoCE and native IB frames are
// settled by the packet layer's allocation-free check (packets::verifyFrameCrc), over every
// core when there is no display filter; the rest (TCP may be iWARP, whose CRC needs the stream)
// go through the one stateful decoder in capture order. With a filter, or with
// --full-dissection (the reference the fast pass is tested against), every frame is dissected
// in one thread.

#include <cstdint>
#include <optional>
#include <ostream>

#include "frame_decoder.h"
#include "rdmascope/packets/display_filter.h"
#include "rdmascope/packets_io/capture_reader.h"

namespace rdmascope::cli {

struct VerifyOptions {
  std::uint64_t count = 0;  // frames counted (after the filter); 0: all
  bool fullDissection = false;
  unsigned threads = 1;  // counts the calling one
};

/// Prints up to 20 bad or unverifiable frames by number, then the counts. Returns the exit
/// status: kExitOk, kExitBadCrc (a bad or unverifiable CRC), kExitUsage (a broken capture,
/// reported on `err`).
int verifyCaptureCrcs(packets_io::CaptureReader& reader,
                      const std::optional<packets::DisplayFilter>& filter,
                      const packets::DecodeOptions& options, const VerifyOptions& how,
                      std::ostream& out, std::ostream& err);

}  // namespace rdmascope::cli
