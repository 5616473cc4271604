#pragma once
/// @file dcqcn.h
/// DCQCN (Zhu et al., "Congestion Control for Large-Scale RDMA Deployments", SIGCOMM 2015):
/// the parameters of the three roles, the congestion point's RED-style marking probability,
/// and the reaction point's rate state machine. Parameter names follow the paper, with the
/// names the HPCC ns-3 simulator's mix/config.txt gives them in brackets.
///
/// The reaction point (RP), per flow (QP), as the paper's equations give it:
/// - On a CNP: RT = RC; RC = max(minRate, RC * (1 - alpha/2)); alpha = (1 - g) * alpha + g;
///   the rate-increase timer and the byte counter restart and their counts return to 0.
///   Before the first CNP alpha is 1 (the paper's initial value).
/// - Every K without a CNP (the alpha timer, restarted by each CNP): alpha = (1 - g) * alpha.
/// - A rate-increase event each time the timer T expires (count T_c += 1) or the flow has sent
///   B more bytes (count BC += 1), then with F = fastRecoverySteps:
///   fast recovery when max(T_c, BC) <= F: RC = (RT + RC) / 2;
///   hyper increase when min(T_c, BC) > F: RT = RT + R_HAI, RC = (RT + RC) / 2;
///   additive increase otherwise: RT = RT + R_AI, RC = (RT + RC) / 2;
///   RT is capped at the line rate (as HPCC's model caps its target rate).
/// The notification point (NP) sends at most one CNP per flow per N (cnpInterval).

#include <cstdint>
#include <string>
#include <vector>

#include "rdmascope/sim/sim_time.h"

namespace rdmascope::sim {

/// Congestion point (switch egress queue): RED-style ECN marking.
struct EcnMarking {
  /// Kmin [KMIN_MAP], Kmax [KMAX_MAP] in bytes of the egress queue, Pmax [PMAX_MAP].
  /// Defaults: the DCQCN paper's (Kmin 5 KB, Kmax 200 KB, Pmax 1%).
  std::uint64_t kmin = 5 * 1024;
  std::uint64_t kmax = 200 * 1024;
  double pmax = 0.01;
  /// The marking probability for a queue of `bytes`: 0 up to Kmin, rising linearly to Pmax
  /// at Kmax, 1 above Kmax.
  double probability(std::uint64_t bytes) const;
};

/// Notification and reaction point parameters.
struct DcqcnParams {
  /// g [EWMA_GAIN]: the paper's 1/256 (HPCC's config uses the same 0.00390625).
  double g = 1.0 / 256.0;
  /// K [ALPHA_RESUME_INTERVAL]: the alpha timer, 55 us in the paper.
  SimTime alphaTimer = SimTime::us(55);
  /// T [RP_TIMER]: the rate-increase timer, 55 us in the paper.
  SimTime rateTimer = SimTime::us(55);
  /// B [BYTE_COUNTER]: the byte counter, 10 MB in the paper.
  std::uint64_t byteCounter = 10ull * 1000 * 1000;
  /// F [FAST_RECOVERY_TIMES]: 5 in the paper.
  int fastRecoverySteps = 5;
  /// R_AI [RATE_AI] in Gb/s: the paper's 40 Mb/s.
  double rateAiGbps = 0.040;
  /// R_HAI [RATE_HAI] in Gb/s: HPCC's mix/config.txt value, 100 Mb/s.
  double rateHaiGbps = 0.100;
  /// [MIN_RATE] in Gb/s: HPCC's mix/config.txt value, 100 Mb/s.
  double minRateGbps = 0.100;
  /// N: at most one CNP per flow per this interval at the notification point, 50 us in the
  /// paper.
  SimTime cnpInterval = SimTime::us(50);
};

/// One step of a reaction point, for tests and time series.
struct DcqcnStep {
  enum class Kind : std::uint8_t { Cnp, AlphaTimer, FastRecovery, AdditiveIncrease, HyperIncrease };
  SimTime time;
  Kind kind = Kind::Cnp;
  bool byTimer = false;  ///< increase steps: the timer (true) or the byte counter (false)
  double rc = 0, rt = 0, alpha = 0;   ///< after the step
  int timerCount = 0, byteCount = 0;  ///< after the step
};

std::string_view toString(DcqcnStep::Kind kind);

/// A flow's reaction point: the rate state machine without its timers (the owner schedules
/// them: alphaTimer after each CNP and after each alpha step, rateTimer after each CNP and
/// after each timer step).
class DcqcnReactionPoint {
 public:
  DcqcnReactionPoint(const DcqcnParams& params, double lineRateGbps);

  double currentRateGbps() const { return rc_; }
  double targetRateGbps() const { return rt_; }
  double alpha() const { return alpha_; }
  bool active() const { return cnps_ > 0; }
  std::uint64_t cnps() const { return cnps_; }

  /// A CNP arrived.
  void onCnp(SimTime now);
  /// The alpha timer expired (no CNP for K).
  void onAlphaTimer(SimTime now);
  /// The rate-increase timer expired.
  void onRateTimer(SimTime now);
  /// The flow sent `bytes`; returns true when the byte counter expired (an increase step ran).
  bool onBytesSent(SimTime now, std::uint64_t bytes);

  /// Keep every step in steps() (off by default).
  void record(bool on) { record_ = on; }
  const std::vector<DcqcnStep>& steps() const { return steps_; }

 private:
  void increase(SimTime now, bool byTimer);
  void log(SimTime now, DcqcnStep::Kind kind, bool byTimer);

  DcqcnParams p_;
  double line_;
  double rc_, rt_;
  double alpha_ = 1.0;
  int timerCount_ = 0, byteCount_ = 0;
  std::uint64_t bytes_ = 0;
  std::uint64_t cnps_ = 0;
  bool record_ = false;
  std::vector<DcqcnStep> steps_;
};

}  // namespace rdmascope::sim
