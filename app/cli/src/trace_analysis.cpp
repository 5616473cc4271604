#include "trace_analysis.h"

namespace rdmascope::cli {

TraceAnalysis::TraceAnalysis(sim::Trace& trace, sim::WireFormat wire,
                             analysis::AnalyzerOptions options)
    : trace_(trace), wire_(wire), analyzer_(options) {
  subscription_ = trace_.subscribe([this](const sim::TraceEvent& e) { onEvent(e); });
}

TraceAnalysis::~TraceAnalysis() {
  trace_.unsubscribe(subscription_);
}

double TraceAnalysis::captureSeconds(sim::SimTime time, std::int64_t firstNs) {
  return static_cast<double>(time.picos() / 1000 - firstNs) / 1e9;
}

void TraceAnalysis::onEvent(const sim::TraceEvent& e) {
  if (e.kind != sim::TraceKind::FrameSent || e.bytes.empty()) return;
  const sim::SimTime at = e.time;  // FrameSent is timed at its first bit on the wire, as captured
  if (!firstNs_) firstNs_ = at.picos() / 1000;
  const auto link = wire_ == sim::WireFormat::InfiniBand ? packets::LinkType::InfiniBand
                                                         : packets::LinkType::Ethernet;
  analyzer_.addFrame(e.bytes, link, e.frameNumber, captureSeconds(at, *firstNs_));
}

analysis::AnalysisReport TraceAnalysis::finish() {
  analyzer_.finish();
  return analyzer_.report();
}

}  // namespace rdmascope::cli
