#pragma once
// The frames of a capture fed to the flow analysis (`analyze`), in one thread or two: with
// two, one thread reads the capture and the facts of its RoCE and InfiniBand frames (the first
// touch of the bytes, the headers, the ICRC, the content hash) batch by batch, ahead of the
// analysis, which takes them in capture order on the calling thread, with every other frame
// (PFC, TCP and iWARP, ...) as FlowAnalyzer::addFrame would. When the analysis catches up with
// the reading, it reads the facts of the newest batch's last chunks itself (the reading thread
// works from the front, the analysing one from the back, until they meet).

#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/packets_io/capture_reader.h"

namespace rdmascope::cli {

/// Feeds every frame of `reader` to `analyzer` as a loop of FlowAnalyzer::addFrame would (frame
/// numbers from 1, times in seconds from the first frame's). With `threads` above 1 and a
/// reader that keeps its views (CaptureReader::keepsViews()) the facts are read ahead on a
/// second thread, never further than the reader keeps. The reader's error, if any, is left for the
/// caller to read.
void analyzeCapture(packets_io::CaptureReader& reader, analysis::FlowAnalyzer& analyzer,
                    unsigned threads);

}  // namespace rdmascope::cli
