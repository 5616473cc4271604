#pragma once
// The printing passes of `decode` (summary, -T fields, -V, -T json, any of them behind -Y) over
// every core: frames are read in batches; the frames that cannot reach TCP are decoded,
// filtered and formatted by the batch's thread; the others go through the one stateful decoder
// in capture order (TCP reassembly and iWARP); the records are written in capture order.

#include <cstdint>
#include <optional>

#include "fast_path.h"
#include "frame_decoder.h"
#include "packet_printer.h"
#include "rdmascope/packets/display_filter.h"
#include "rdmascope/packets_io/capture_reader.h"

namespace rdmascope::cli {

/// Prints up to `count` packets (0: all) that pass the filter, as the sequential loop of
/// FrameDecoder::decodeInto, DisplayFilter::matches and PacketPrinter::print would. The reader
/// must keep its views (CaptureReader::keepsViews()): the frames in flight hold no more bytes
/// than it keeps. `threads` counts the calling one. Returns true when it stopped at `count` (the
/// rest of the file, and any error in it, unread). `fast` (may be null) filters, and for the line
/// formats formats, the frames that cannot reach TCP when it can.
bool printInParallel(packets_io::CaptureReader& reader, FrameDecoder& decoder,
                     const std::optional<packets::DisplayFilter>& filter, PacketPrinter& printer,
                     std::uint64_t count, unsigned threads, const FastPath* fast = nullptr);

}  // namespace rdmascope::cli
