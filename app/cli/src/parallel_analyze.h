#pragma once
// `analyze` over two cores: one thread reads the capture and the facts of its RoCE and
// InfiniBand frames (the first touch of the bytes, the headers, the ICRC, the content hash)
// batch by batch, ahead of the analysis, which takes them in capture order on the calling
// thread, with every other frame (PFC, TCP and iWARP, ...) as FlowAnalyzer::addFrame would.

#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/packets_io/capture_reader.h"

namespace rdmascope::cli {

/// Feeds every frame of `reader` to `analyzer` as the loop of FlowAnalyzer::addFrame would
/// (frame numbers from 1, times from the first frame's). The reader must be memory-mapped (its
/// frame views stay valid while it lives); its error, if any, is left for the caller to read.
void analyzeInParallel(packets_io::CaptureReader& reader, analysis::FlowAnalyzer& analyzer);

}  // namespace rdmascope::cli
