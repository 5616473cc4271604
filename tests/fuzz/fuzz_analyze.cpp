// libFuzzer target: arbitrary bytes become a capture fed to FlowAnalyzer (RoCE, InfiniBand and
// iWARP over TCP), which is then finished, reported, and printed as text and JSON.
//
// Input: one byte choosing the link type (Ethernet, raw IP, InfiniBand, ERF), then records
// until the input ends: byte 0 = time step in microseconds, bytes 1-2 = frame length
// (big-endian, cut to what is left), then the frame.

#include <cstddef>
#include <cstdint>
#include <span>

#include "rdmascope/analysis/flow_analyzer.h"

namespace rdmascope::fuzz {

// Also compiled into analysis_tests (with RDMASCOPE_FUZZ_NO_ENTRY), which replays the seed
// corpus and every saved crash input as regression tests.
inline int analyze(const std::uint8_t* data, std::size_t size) {
  using packets::LinkType;
  if (size == 0) return 0;
  constexpr LinkType kLinks[] = {LinkType::Ethernet, LinkType::Raw, LinkType::InfiniBand,
                                 LinkType::Erf};
  const LinkType link = kLinks[data[0] % 4];
  analysis::AnalyzerOptions o;
  o.maxAnomalies = 64;  // the limits are exercised too
  o.maxMessages = 16;
  o.maxSeriesBuckets = 4;
  o.exactLatencySamples = 8;
  o.psnWindow = 256;
  o.maxTcpConnections = 8;
  analysis::FlowAnalyzer a(o);
  std::size_t at = 1;
  std::uint64_t n = 0;
  double t = 0;
  while (at + 3 <= size) {
    t += data[at] * 1e-6;
    std::size_t len = (std::size_t{data[at + 1]} << 8) | data[at + 2];
    at += 3;
    len = std::min(len, size - at);
    a.addFrame(std::span(data + at, len), link, ++n, t);
    at += len;
  }
  a.finish();
  const analysis::AnalysisReport r = a.report();
  (void)analysis::toJson(r);
  (void)analysis::formatText(r);
  (void)a.retained();
  return 0;
}

}  // namespace rdmascope::fuzz

#ifndef RDMASCOPE_FUZZ_NO_ENTRY
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return rdmascope::fuzz::analyze(data, size);
}
#endif
