#pragma once
/// @file fact_pipeline.h
/// The frames of a capture handed to an analysis in capture order with their facts
/// (FlowAnalyzer::readFacts), read in one thread or two. With two, one thread reads frames
/// from the source and then their facts (the first touch of the bytes, the headers, the ICRC,
/// the content hash) batch by batch, ahead of the analysis, which takes them in capture order
/// on the calling thread. When the analysis catches up with the reading, it reads the facts of
/// the newest batch's last chunks itself (the reading thread works from the front, the
/// analysing one from the back, until they meet). The CLI's `analyze` reads a capture file
/// through it, the GUI's analysis the frames its store holds.

#include <cstdint>
#include <span>

#include "rdmascope/analysis/flow_analyzer.h"

namespace rdmascope::analysis {

/// A frame of a source: its bytes, its number (from 1) and its time in seconds from the
/// source's first frame.
struct SourceFrame {
  std::span<const std::uint8_t> data;
  std::uint64_t number = 0;
  double time = 0.0;
};

/// Where the frames come from, in capture order.
class FrameSource {
 public:
  virtual ~FrameSource() = default;
  virtual packets::LinkType linkType() const = 0;
  /// The next frame; false at the end (or on an error the source keeps for its caller).
  virtual bool next(SourceFrame& frame) = 0;
  /// A mark of the position before the next frame, and whether one more frame may be read
  /// while the frames read since `mark` are still in use. A source whose frames stay valid
  /// (a store in memory) needs neither; a reader with a buffer of its own keeps only so much.
  virtual std::uint64_t position() const { return 0; }
  virtual bool mayReadKeeping(std::uint64_t /*mark*/) const { return true; }
};

/// Receives every frame of the source in capture order, with its facts, on the calling thread.
class FactConsumer {
 public:
  virtual ~FactConsumer() = default;
  /// `facts`: the frame's facts, or null when FlowAnalyzer::readFacts returned false (a PFC or
  /// PAUSE frame, a frame without an InfiniBand transport: FlowAnalyzer::addFrame's to take).
  virtual void add(const SourceFrame& frame, const PacketFacts* facts) = 0;
  /// Called after each batch with the frames added so far: false stops the pass (cancelled).
  virtual bool proceed(std::uint64_t /*added*/) { return true; }
};

/// Feeds every frame of `source` to `consumer` with its facts read with `factOptions`
/// (FlowAnalyzer::factOptions()). With `threads` above 1 the facts are read ahead on a second
/// thread, never further than the source keeps its frames. Returns false when the consumer
/// stopped the pass; rethrows what the source or the consumer threw.
bool feedFacts(FrameSource& source, FactConsumer& consumer,
               const packets::DecodeOptions& factOptions, unsigned threads);

/// Every frame of `source` analysed by `analyzer`, as a loop of FlowAnalyzer::addFrame would:
/// the facts to FlowAnalyzer::addPacket, the other frames to FlowAnalyzer::addFrame.
void analyzeFrames(FrameSource& source, FlowAnalyzer& analyzer, unsigned threads);

}  // namespace rdmascope::analysis
