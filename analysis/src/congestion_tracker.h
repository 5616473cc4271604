#pragma once
// Lossless-Ethernet analysis beside the flow analysis: PFC/PAUSE frames per port and priority
// with the time each priority was held paused, CNPs matched to the CE-marked packets of their
// flow, pause storms, and victim flows (paused by PFC although their own receiver was not
// congested: head-of-line blocking behind another receiver's incast).

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/packets/mac_control.h"

namespace rdmascope::analysis {

class CongestionTracker {
 public:
  explicit CongestionTracker(const AnalyzerOptions& options) : options_(options) {}

  /// A PFC or PAUSE frame. Returns the pause storms it revealed.
  std::vector<Anomaly> pauseFrame(const packets::MacControlFrame& m, std::uint64_t frame,
                                  double time);
  /// A request packet of a flow (connection c, direction d) towards `destination`; its CE mark
  /// is remembered for the flow's next CNP and its gap since the flow's previous packet is
  /// checked against the pauses of its priority.
  void request(int c, int d, const PacketFacts& f, const std::string& destination);
  /// A CNP for the requests of flow (c, d). Returns an anomaly when no marked packet precedes it.
  std::optional<Anomaly> cnp(int c, int d, const PacketFacts& f);
  /// Ends the capture at `endTime`: pauses still held end there; returns the storms and the
  /// victim flows found. Idempotent.
  std::vector<Anomaly> finish(double endTime);

  std::uint64_t pauseFrames() const { return pauseFrames_; }
  std::uint64_t cnpsWithoutMark() const { return cnpsWithoutMark_; }
  std::uint64_t marksWithoutCnp() const { return marksWithoutCnp_; }
  std::uint64_t storms() const { return storms_; }
  std::uint64_t victims() const { return victims_; }
  std::vector<PauseStats> pauses() const;
  const std::vector<CnpMatch>& cnpMatches() const { return matches_; }
  std::uint64_t cnpMatchesDropped() const { return matchesDropped_; }
  std::size_t retainedIntervals() const;
  const std::vector<PauseInterval>& intervals() const { return intervals_; }
  std::uint64_t intervalsDropped() const { return intervalsDropped_; }

 private:
  struct Interval {
    double start = 0.0, end = 0.0;
    std::uint64_t port = 0;
  };
  struct PauseState {
    PauseStats stats;
    std::uint64_t port = 0;
    bool active = false;
    double start = 0.0, end = 0.0;
    std::uint64_t startFrame = 0;
    std::uint64_t framesInPause = 0;
    bool stormReported = false;
  };
  struct FlowState {
    std::uint8_t priority = 0;
    std::uint64_t sourceMac = 0;
    std::string destination;
    bool seen = false;
    double lastTime = 0.0;
    double paused = 0.0;  // seconds of its silences covered by pauses of its priority
    double gap = 0.0;     // typical gap between its packets (moving average of unpaused gaps)
    std::uint64_t firstPausedFrame = 0;
    double firstPausedTime = 0.0;
    std::uint64_t pausingPort = 0;
    std::uint64_t bytes = 0;
    std::uint64_t marks = 0, cnps = 0;
    // CE-marked packets since the flow's previous CNP.
    std::uint64_t pending = 0, firstPending = 0, lastPending = 0;
    double lastPendingTime = 0.0;
  };

  void closeInterval(PauseState& s, double end, std::vector<Anomaly>& out, std::uint64_t frame);
  void checkStorm(PauseState& s, double now, std::uint64_t frame, std::vector<Anomaly>& out);
  double pausedWithin(int priority, double from, double to, std::uint64_t except,
                      std::uint64_t& port) const;
  static std::string macText(std::uint64_t mac);

  AnalyzerOptions options_;
  std::map<std::pair<std::uint64_t, int>, PauseState> pauseStates_;
  std::vector<std::pair<std::uint64_t, int>> pauseOrder_;
  std::deque<Interval> history_[8];  // ended and current pauses per priority (802.3x in all)
  std::map<std::pair<int, int>, FlowState> flows_;
  std::vector<CnpMatch> matches_;
  std::vector<PauseInterval> intervals_;
  std::uint64_t intervalsDropped_ = 0;
  std::uint64_t matchesDropped_ = 0;
  std::uint64_t pauseFrames_ = 0, cnpsWithoutMark_ = 0, marksWithoutCnp_ = 0;
  std::uint64_t storms_ = 0, victims_ = 0;
  bool finished_ = false;
};

}  // namespace rdmascope::analysis
