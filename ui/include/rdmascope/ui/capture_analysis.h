#pragma once
/// @file capture_analysis.h
/// Flow analysis of the frames a FrameStore holds (a capture file, a live capture or a recorded
/// scenario), plus what the views need beyond the report: which frames belong to each
/// connection, and the display filter that shows exactly those frames. No Qt.

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/ui/frame_store.h"

namespace rdmascope::ui {

/// One frame of a connection: its 0-based index in the store and the side that sent it.
struct ConnectionFrame {
  std::uint32_t frame = 0;
  std::uint8_t fromB = 0;  ///< 0: endpoint a sent it, 1: endpoint b
  /// RoCE and InfiniBand: seconds since the store's first frame, and the transport payload
  /// bytes (after the transport headers) the frame carries in the direction it was sent.
  float time = 0.0f;
  std::uint32_t payload = 0;
  /// iWARP: the MPA units the frame's TCP segment completed (the flow graph names frames from
  /// these without decoding the stream): kMpaRequest/kMpaReply bits, the number of FPDUs (up to
  /// 63), and the RDMAP opcode of the first (kNoOpcode: none) with its DDP Last flag.
  std::uint8_t mpa = 0;
  std::uint8_t rdmapOpcode = kNoOpcode;
  bool last = false;
  static constexpr std::uint8_t kMpaRequest = 0x80, kMpaReply = 0x40, kFpduCount = 0x3f;
  static constexpr std::uint8_t kNoOpcode = 0xff;
};

/// The report and the frames of each connection.
struct CaptureAnalysis {
  analysis::AnalysisReport report;
  /// Frames of report.connections[i], in capture order (RoCE and InfiniBand connections: the
  /// frames of the flows the analyzer keyed them by; iWARP: every segment of the TCP
  /// connection).
  std::vector<std::vector<ConnectionFrame>> frames;
  std::size_t framesAnalysed = 0;  ///< store frames fed to the analyzer
  double seconds = 0.0;            ///< wall time the analysis took

  /// Row of the connection with ConnectionReport::id `id`, or -1.
  int rowOfConnection(int id) const;
  /// Anomalies of one connection (indexes into report.anomalies, in frame order).
  std::vector<std::size_t> anomaliesOf(int connectionId) const;
};

/// A display filter (packets/display_filter.h) matching exactly the frames of a connection:
/// for each direction the analyzer keys its flows by, source, destination and destination QP;
/// for iWARP, both directions' addresses and TCP ports.
std::string connectionFilter(const analysis::ConnectionReport& connection);

/// Feeds frames of a store to a FlowAnalyzer one at a time, remembering each InfiniBand
/// transport frame's flow (carrier, source, destination, destination QP: the analyzer's key) and
/// each TCP segment's ends (FlowAnalyzer::onTcpSegment) so the frames of every connection can be
/// listed afterwards. Other frames go through FlowAnalyzer::addFrame.
class CaptureAnalysisBuilder {
 public:
  explicit CaptureAnalysisBuilder(analysis::AnalyzerOptions options = {});

  /// Analyses store frame `index` (frame number index + 1, time relative to the first frame).
  void add(const FrameStore& store, std::size_t index);
  /// As add(), with the frame's facts read already (analysis::FlowAnalyzer::readFacts with a
  /// reader of factOptions(), on any thread), or null when readFacts returned false.
  void add(const FrameStore& store, std::size_t index, const analysis::PacketFacts* facts);
  /// The options the facts of add() are read with.
  packets::DecodeOptions factOptions() const { return analyzer_.factOptions(); }
  std::size_t added() const { return added_; }
  /// The analysis so far. With `finish`, messages still in flight become incomplete (the
  /// capture ended) and the builder hands its report and frame lists over: it must be neither
  /// fed nor asked again afterwards.
  CaptureAnalysis snapshot(bool finish);

 private:
  // (carrier, source, destination, destination QP); TCP (iWARP): the ports in place of the QP.
  using FlowKey = std::tuple<analysis::Carrier, std::string, std::string, std::uint32_t>;
  // The flow of the key, found among the last flows met before the map is searched (frames
  // come in runs of a few flows: a request and its ACK).
  std::uint32_t flowId(analysis::Carrier carrier, std::string_view source,
                       std::string_view destination, std::uint32_t key);
  static constexpr std::size_t kRecentFlows = 4;
  std::array<std::uint32_t, kRecentFlows> recent_{};
  std::size_t recentCount_ = 0;
  analysis::AnalyzerOptions options_;
  analysis::FlowAnalyzer analyzer_;
  std::map<FlowKey, std::uint32_t> flowIds_;
  std::vector<FlowKey> flowKeys_;
  std::vector<std::vector<ConnectionFrame>> flowFrames_;  // per flow (fromB not yet known)
  std::size_t added_ = 0;
};

/// How an analysis run ended.
struct AnalysisOutcome {
  bool cancelled = false;
  CaptureAnalysis analysis;
};

/// Called now and then with (frames done, frames in all).
using AnalysisProgress = std::function<void(std::size_t, std::size_t)>;

/// Analyses every frame of `store`; stops early when `cancel` becomes true (checked after each
/// batch of a few thousand frames, as loadCaptureFile does). With more than one core, the
/// frames' facts are read on a second thread too, through the CLI's fact pipeline
/// (analysis/fact_pipeline.h); the analysis is the same as frame by frame.
AnalysisOutcome analyzeFrameStore(const FrameStore& store,
                                  const std::atomic<bool>* cancel = nullptr,
                                  const AnalysisProgress& progress = {},
                                  analysis::AnalyzerOptions options = {});

}  // namespace rdmascope::ui
