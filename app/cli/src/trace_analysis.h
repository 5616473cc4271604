#pragma once
/// @file trace_analysis.h
/// The flow analysis of a simulated run, fed from the simulator's own trace as frames go on
/// the wire: every FrameSent event's bytes, numbered and timed as a capture at the sender
/// (the pcap the simulator writes) numbers and times them. The report equals the analysis of
/// that pcap by `rdmascope-cli analyze`. It lives beside its one user, `sim --analyze`: the
/// simulator does not depend on the analysis.

#include <cstdint>
#include <optional>

#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/sim/network.h"
#include "rdmascope/sim/trace.h"

namespace rdmascope::cli {

class TraceAnalysis {
 public:
  /// Subscribes to `trace` (which must be enabled for frame events to be built) until
  /// destroyed. Frames are read as `wire` puts them on the wire.
  TraceAnalysis(sim::Trace& trace, sim::WireFormat wire, analysis::AnalyzerOptions options = {});
  ~TraceAnalysis();
  TraceAnalysis(const TraceAnalysis&) = delete;
  TraceAnalysis& operator=(const TraceAnalysis&) = delete;

  /// The analyzer, for observers and the report so far.
  analysis::FlowAnalyzer& analyzer() { return analyzer_; }
  /// Ends the analysis (messages in flight become incomplete) and returns the report.
  analysis::AnalysisReport finish();

  /// A frame time as a nanosecond capture records it, relative to the first frame, in
  /// seconds: what `rdmascope-cli analyze` computes from the pcap's time stamps.
  static double captureSeconds(sim::SimTime time, std::int64_t firstNs);

 private:
  void onEvent(const sim::TraceEvent& event);

  sim::Trace& trace_;
  int subscription_ = 0;
  sim::WireFormat wire_;
  analysis::FlowAnalyzer analyzer_;
  std::optional<std::int64_t> firstNs_;
};

}  // namespace rdmascope::cli
