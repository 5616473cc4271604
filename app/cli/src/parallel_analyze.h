#pragma once
// The frames of a capture file fed to the flow analysis (`analyze`) through the fact pipeline
// (analysis/fact_pipeline.h): in two threads, one reads the capture and the facts of its
// frames ahead of the analysis on the calling thread.

#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/packets_io/capture_reader.h"

namespace rdmascope::cli {

/// Feeds every frame of `reader` to `analyzer` as a loop of FlowAnalyzer::addFrame would (frame
/// numbers from 1, times in seconds from the first frame's). With `threads` above 1 and a
/// reader that keeps its views (CaptureReader::keepsViews()) the facts are read ahead on a
/// second thread, never further than the reader keeps. The reader's error, if any, is left for
/// the caller to read.
void analyzeCapture(packets_io::CaptureReader& reader, analysis::FlowAnalyzer& analyzer,
                    unsigned threads);

}  // namespace rdmascope::cli
