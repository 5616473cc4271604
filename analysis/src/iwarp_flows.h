#pragma once
// The iWARP part of FlowAnalyzer: TCP sequence analysis of every TCP connection and, for the
// connections that carry MPA, the messages that the packet layer's CaptureDecoder reassembled
// and decoded (it reports each completed MPA unit with its TCP sequence range and nodes).

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "rdmascope/packets/dissection.h"
#include "rdmascope/packets/stream_decoder.h"
#include "report_sink.h"

namespace rdmascope::analysis {

class IwarpFlows {
 public:
  explicit IwarpFlows(ReportSink& sink);
  ~IwarpFlows();
  IwarpFlows(const IwarpFlows&) = delete;
  IwarpFlows& operator=(const IwarpFlows&) = delete;

  /// Analyses one decoded frame; false when it holds no TCP segment.
  bool add(std::span<const std::uint8_t> frame, const packets::Dissection& dissection,
           const std::vector<packets::StreamUnit>& units, std::uint64_t frameNumber, double time);
  /// Messages still open become incomplete.
  void finish();
  /// The reports of the connections that carry MPA.
  void reports(std::vector<ConnectionReport>& out) const;
  void retained(RetainedState& state) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rdmascope::analysis
