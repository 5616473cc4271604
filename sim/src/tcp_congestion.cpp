#include "rdmascope/sim/tcp_congestion.h"

#include <algorithm>

namespace rdmascope::sim {

TcpCongestionControl::TcpCongestionControl(std::uint32_t mss, std::uint32_t initialWindowSegments)
    : mss_(mss), cwnd_(mss * std::max(1u, initialWindowSegments)) {}

void TcpCongestionControl::onNewAck(std::uint32_t bytes) {
  if (inRecovery_) {
    inRecovery_ = false;
    cwnd_ = ssthresh_;
    bytesAckedInAvoidance_ = 0;
    return;
  }
  if (inSlowStart()) {
    cwnd_ += std::min(bytes, mss_);
    return;
  }
  bytesAckedInAvoidance_ += bytes;
  if (bytesAckedInAvoidance_ >= cwnd_) {
    bytesAckedInAvoidance_ -= cwnd_;
    cwnd_ += mss_;
  }
}

void TcpCongestionControl::onTripleDupAck(std::uint32_t flightSize) {
  ssthresh_ = std::max(flightSize / 2, 2 * mss_);
  cwnd_ = ssthresh_ + 3 * mss_;
  inRecovery_ = true;
  bytesAckedInAvoidance_ = 0;
}

void TcpCongestionControl::onDupAckInRecovery() {
  if (inRecovery_) cwnd_ += mss_;
}

void TcpCongestionControl::onTimeout(std::uint32_t flightSize) {
  ssthresh_ = std::max(flightSize / 2, 2 * mss_);
  cwnd_ = mss_;
  inRecovery_ = false;
  bytesAckedInAvoidance_ = 0;
}

TcpRtoEstimator::TcpRtoEstimator(std::int64_t minRtoNs, std::int64_t initialRtoNs,
                                 std::int64_t maxRtoNs)
    : minRto_(minRtoNs), maxRto_(maxRtoNs), rto_(initialRtoNs) {}

void TcpRtoEstimator::onSample(std::int64_t rttNs) {
  if (!hasSample_) {
    srtt_ = rttNs;
    rttvar_ = rttNs / 2;
    hasSample_ = true;
  } else {
    const std::int64_t diff = srtt_ > rttNs ? srtt_ - rttNs : rttNs - srtt_;
    rttvar_ = (3 * rttvar_ + diff) / 4;
    srtt_ = (7 * srtt_ + rttNs) / 8;
  }
  rto_ = std::clamp(srtt_ + std::max<std::int64_t>(1, 4 * rttvar_), minRto_, maxRto_);
}

void TcpRtoEstimator::backOff() {
  rto_ = std::min(rto_ * 2, maxRto_);
}

}  // namespace rdmascope::sim
