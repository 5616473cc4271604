#include "rdmascope/sim/dcqcn.h"

#include <algorithm>

namespace rdmascope::sim {

double EcnMarking::probability(std::uint64_t bytes) const {
  if (bytes <= kmin) return 0.0;
  if (bytes > kmax) return 1.0;
  if (kmax == kmin) return pmax;
  return pmax * static_cast<double>(bytes - kmin) / static_cast<double>(kmax - kmin);
}

std::string_view toString(DcqcnStep::Kind kind) {
  switch (kind) {
    case DcqcnStep::Kind::Cnp:
      return "cnp";
    case DcqcnStep::Kind::AlphaTimer:
      return "alpha-timer";
    case DcqcnStep::Kind::FastRecovery:
      return "fast-recovery";
    case DcqcnStep::Kind::AdditiveIncrease:
      return "additive-increase";
    case DcqcnStep::Kind::HyperIncrease:
      return "hyper-increase";
  }
  return "?";
}

DcqcnReactionPoint::DcqcnReactionPoint(const DcqcnParams& params, double lineRateGbps)
    : p_(params), line_(lineRateGbps), rc_(lineRateGbps), rt_(lineRateGbps) {}

void DcqcnReactionPoint::onCnp(SimTime now) {
  ++cnps_;
  rt_ = rc_;
  rc_ = std::max(p_.minRateGbps, rc_ * (1.0 - alpha_ / 2.0));
  alpha_ = (1.0 - p_.g) * alpha_ + p_.g;
  timerCount_ = 0;
  byteCount_ = 0;
  bytes_ = 0;
  log(now, DcqcnStep::Kind::Cnp, false);
}

void DcqcnReactionPoint::onAlphaTimer(SimTime now) {
  alpha_ = (1.0 - p_.g) * alpha_;
  log(now, DcqcnStep::Kind::AlphaTimer, true);
}

void DcqcnReactionPoint::onRateTimer(SimTime now) {
  ++timerCount_;
  increase(now, true);
}

bool DcqcnReactionPoint::onBytesSent(SimTime now, std::uint64_t bytes) {
  if (cnps_ == 0) return false;
  bytes_ += bytes;
  if (bytes_ < p_.byteCounter) return false;
  bytes_ -= p_.byteCounter;
  ++byteCount_;
  increase(now, false);
  return true;
}

void DcqcnReactionPoint::increase(SimTime now, bool byTimer) {
  const int f = p_.fastRecoverySteps;
  DcqcnStep::Kind kind;
  if (std::max(timerCount_, byteCount_) <= f) {
    kind = DcqcnStep::Kind::FastRecovery;
  } else if (std::min(timerCount_, byteCount_) > f) {
    kind = DcqcnStep::Kind::HyperIncrease;
    rt_ = std::min(line_, rt_ + p_.rateHaiGbps);
  } else {
    kind = DcqcnStep::Kind::AdditiveIncrease;
    rt_ = std::min(line_, rt_ + p_.rateAiGbps);
  }
  rc_ = (rt_ + rc_) / 2.0;
  log(now, kind, byTimer);
}

void DcqcnReactionPoint::log(SimTime now, DcqcnStep::Kind kind, bool byTimer) {
  if (!record_) return;
  steps_.push_back(DcqcnStep{now, kind, byTimer, rc_, rt_, alpha_, timerCount_, byteCount_});
}

}  // namespace rdmascope::sim
