#pragma once
// A capture file analysed frame by frame, as `rdmascope-cli analyze --threads 1` does: every
// frame to FlowAnalyzer::addFrame with its time from the first frame.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/packets_io/capture_reader.h"

namespace rdmascope::test {

/// The report of the file (empty, with a test failure, when it cannot be opened).
inline analysis::AnalysisReport analyzeCaptureFile(const std::string& path) {
  std::string error;
  auto reader = packets_io::CaptureReader::open(path, error);
  EXPECT_TRUE(reader) << path << ": " << error;
  analysis::FlowAnalyzer a;
  if (!reader) return a.report();
  packets_io::FrameView v;
  std::int64_t first = 0;
  while (reader->next(v)) {
    if (reader->framesRead() == 1) first = v.timestampNs;
    a.addFrame(v.data, reader->linkType(), reader->framesRead(),
               static_cast<double>(v.timestampNs - first) / 1e9);
  }
  a.finish();
  return a.takeReport();
}

}  // namespace rdmascope::test
