#pragma once
/// @file tcp_congestion.h
/// TCP congestion control as RFC 5681 describes it (Reno: slow start, congestion avoidance,
/// fast retransmit and fast recovery) and the retransmission timer of RFC 6298. Pure state,
/// no clock: callers say what happened and read the window and the timeout.

#include <cstdint>

namespace rdmascope::sim {

/// The congestion window of one TCP sender.
class TcpCongestionControl {
 public:
  /// initialWindowSegments: RFC 6928's IW10 by default.
  explicit TcpCongestionControl(std::uint32_t mss, std::uint32_t initialWindowSegments = 10);

  [[nodiscard]] std::uint32_t cwnd() const { return cwnd_; }
  [[nodiscard]] std::uint32_t ssthresh() const { return ssthresh_; }
  [[nodiscard]] bool inSlowStart() const { return cwnd_ < ssthresh_; }
  [[nodiscard]] bool inRecovery() const { return inRecovery_; }

  /// An ACK acknowledged `bytes` new bytes. Slow start grows cwnd by up to one MSS per ACK
  /// (RFC 5681 3.1, with appropriate byte counting limited to one MSS); congestion avoidance
  /// by one MSS per window of acknowledged bytes. In fast recovery, a full ACK ends recovery
  /// and sets cwnd to ssthresh.
  void onNewAck(std::uint32_t bytes);
  /// The third duplicate ACK: ssthresh = max(flight/2, 2 MSS), cwnd = ssthresh + 3 MSS, and
  /// recovery starts (RFC 5681 3.2 steps 2-3).
  void onTripleDupAck(std::uint32_t flightSize);
  /// Each further duplicate ACK in recovery inflates cwnd by one MSS (step 4).
  void onDupAckInRecovery();
  /// Retransmission timeout: ssthresh = max(flight/2, 2 MSS), cwnd = one MSS (loss window).
  void onTimeout(std::uint32_t flightSize);

 private:
  std::uint32_t mss_;
  std::uint32_t cwnd_;
  std::uint32_t ssthresh_ = 0xffffffffu;
  std::uint32_t bytesAckedInAvoidance_ = 0;
  bool inRecovery_ = false;
};

/// The retransmission timeout of RFC 6298 (SRTT, RTTVAR, Karn's rule left to the caller).
class TcpRtoEstimator {
 public:
  /// Linux's minimum RTO is 200 ms (TCP_RTO_MIN); RFC 6298 starts at 1 s.
  explicit TcpRtoEstimator(std::int64_t minRtoNs = 200'000'000,
                           std::int64_t initialRtoNs = 1'000'000'000,
                           std::int64_t maxRtoNs = 120'000'000'000);

  /// A round-trip sample from a segment that was not retransmitted.
  void onSample(std::int64_t rttNs);
  /// Doubles the timeout after it fired (RFC 6298 5.5), up to the maximum.
  void backOff();
  [[nodiscard]] std::int64_t rtoNs() const { return rto_; }
  [[nodiscard]] std::int64_t srttNs() const { return srtt_; }
  [[nodiscard]] bool hasSample() const { return hasSample_; }

 private:
  std::int64_t minRto_;
  std::int64_t maxRto_;
  std::int64_t rto_;
  std::int64_t srtt_ = 0;
  std::int64_t rttvar_ = 0;
  bool hasSample_ = false;
};

}  // namespace rdmascope::sim
