// libFuzzer target: arbitrary bytes become a capture fed to FlowAnalyzer (RoCE, InfiniBand and
// iWARP over TCP), which is then finished, reported, and printed as text and JSON. The fast
// path is held to the one it replaced: PacketFactReader reads every frame as readPacketFacts
// does, and the streamed JSON and text reports print what the DOM and the line-by-line text did.
//
// Input: one byte choosing the link type (Ethernet, raw IP, InfiniBand, ERF), then records
// until the input ends: byte 0 = time step in microseconds, bytes 1-2 = frame length
// (big-endian, cut to what is left), then the frame.

#include <cstddef>
#include <cstdint>
#include <span>

#include "../support/analysis_report_reference.h"
#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/analysis/packet_facts.h"

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
  analysis::PacketFactReader reader;
  std::size_t at = 1;
  std::uint64_t n = 0;
  double t = 0;
  while (at + 3 <= size) {
    t += data[at] * 1e-6;
    std::size_t len = (std::size_t{data[at + 1]} << 8) | data[at + 2];
    at += 3;
    len = std::min(len, size - at);
    const std::span frame(data + at, len);
    a.addFrame(frame, link, ++n, t);
    const auto before = analysis::readPacketFacts(frame, link, n, t);
    analysis::PacketFacts facts;
    if (reader.read(frame, link, n, t, facts) != before.has_value()) __builtin_trap();
    if (before && !(facts == *before)) __builtin_trap();
    at += len;
  }
  a.finish();
  const analysis::AnalysisReport r = a.report();
  try {
    if (analysis::toJson(r) != test::referenceToJson(r, 2)) __builtin_trap();
    if (analysis::toJson(r, -1) != test::referenceToJson(r, -1)) __builtin_trap();
  } catch (const nlohmann::json::exception&) {
    // Text that is not UTF-8 (none the analysis writes): refused by both alike.
    bool refused = false;
    try {
      (void)test::referenceToJson(r, 2);
    } catch (const nlohmann::json::exception&) {
      refused = true;
    }
    if (!refused) __builtin_trap();
  }
  if (analysis::formatText(r) != test::referenceFormatText(r)) __builtin_trap();
  (void)a.retained();
  return 0;
}

}  // namespace rdmascope::fuzz

#ifndef RDMASCOPE_FUZZ_NO_ENTRY
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return rdmascope::fuzz::analyze(data, size);
}
#endif
