// DCQCN's reaction point and RED marking against the paper's equations (dcqcn.h), step by step.
#include "rdmascope/sim/dcqcn.h"

#include <gtest/gtest.h>

namespace rdmascope::sim {
namespace {

using Kind = DcqcnStep::Kind;

TEST(EcnMarking, IsZeroUpToKminLinearToPmaxAtKmaxAndOneAbove) {
  EcnMarking m;
  m.kmin = 1000;
  m.kmax = 3000;
  m.pmax = 0.2;
  EXPECT_EQ(m.probability(0), 0.0);
  EXPECT_EQ(m.probability(1000), 0.0);
  EXPECT_DOUBLE_EQ(m.probability(2000), 0.1);
  EXPECT_DOUBLE_EQ(m.probability(3000), 0.2);
  EXPECT_EQ(m.probability(3001), 1.0);
}

TEST(DcqcnReactionPoint, CnpCutsTheRateByHalfAlphaAndRaisesAlpha) {
  DcqcnParams p;
  p.g = 1.0 / 16;
  DcqcnReactionPoint rp(p, 100.0);
  EXPECT_FALSE(rp.active());
  rp.onCnp(SimTime::us(1));
  // alpha starts at 1: RC = 100 (1 - 1/2), then alpha = (1 - g) 1 + g = 1
  EXPECT_DOUBLE_EQ(rp.currentRateGbps(), 50.0);
  EXPECT_DOUBLE_EQ(rp.targetRateGbps(), 100.0);
  EXPECT_DOUBLE_EQ(rp.alpha(), 1.0);
  rp.onAlphaTimer(SimTime::us(56));
  EXPECT_DOUBLE_EQ(rp.alpha(), 15.0 / 16);
  rp.onCnp(SimTime::us(60));
  EXPECT_DOUBLE_EQ(rp.targetRateGbps(), 50.0);
  EXPECT_DOUBLE_EQ(rp.currentRateGbps(), 50.0 * (1 - (15.0 / 16) / 2));
  EXPECT_DOUBLE_EQ(rp.alpha(), (1 - 1.0 / 16) * (15.0 / 16) + 1.0 / 16);
}

TEST(DcqcnReactionPoint, RecoveryStepsFollowTheEquationsExactly) {
  DcqcnParams p;
  p.fastRecoverySteps = 5;
  p.rateAiGbps = 0.5;
  p.rateHaiGbps = 2.0;
  p.byteCounter = 1000;
  DcqcnReactionPoint rp(p, 100.0);
  rp.record(true);
  rp.onCnp(SimTime());
  rp.onCnp(SimTime::us(1));  // a second cut: RT = 50, RC = 50 (1 - alpha/2)
  double rc = 50.0 * (1 - 1.0 / 2), rt = 50.0;
  ASSERT_DOUBLE_EQ(rp.currentRateGbps(), rc);
  // five timer steps of fast recovery: RC = (RT + RC) / 2, RT unchanged
  for (int i = 1; i <= 5; ++i) {
    rp.onRateTimer(SimTime::us(1 + 55 * i));
    rc = (rt + rc) / 2;
    EXPECT_DOUBLE_EQ(rp.currentRateGbps(), rc) << i;
    EXPECT_DOUBLE_EQ(rp.targetRateGbps(), rt) << i;
    EXPECT_EQ(rp.steps().back().kind, Kind::FastRecovery);
  }
  // timer count 6 > F, byte count 0: additive increase RT += R_AI
  rp.onRateTimer(SimTime::us(331));
  rt += 0.5;
  rc = (rt + rc) / 2;
  EXPECT_EQ(rp.steps().back().kind, Kind::AdditiveIncrease);
  EXPECT_DOUBLE_EQ(rp.targetRateGbps(), rt);
  EXPECT_DOUBLE_EQ(rp.currentRateGbps(), rc);
  // byte counter events: the first five keep min(T, BC) <= F: additive increase
  for (int i = 1; i <= 5; ++i) {
    EXPECT_TRUE(rp.onBytesSent(SimTime::us(400), 1000));
    rt += 0.5;
    rc = (rt + rc) / 2;
    EXPECT_EQ(rp.steps().back().kind, Kind::AdditiveIncrease) << i;
    EXPECT_FALSE(rp.steps().back().byTimer);
    EXPECT_DOUBLE_EQ(rp.currentRateGbps(), rc) << i;
  }
  EXPECT_FALSE(rp.onBytesSent(SimTime::us(401), 999));
  // the sixth byte-counter event: both counts above F: hyper increase RT += R_HAI
  EXPECT_TRUE(rp.onBytesSent(SimTime::us(402), 1));
  rt += 2.0;
  rc = (rt + rc) / 2;
  EXPECT_EQ(rp.steps().back().kind, Kind::HyperIncrease);
  EXPECT_DOUBLE_EQ(rp.targetRateGbps(), rt);
  EXPECT_DOUBLE_EQ(rp.currentRateGbps(), rc);
  // a CNP resets both counts: fast recovery again
  rp.onCnp(SimTime::us(500));
  rp.onRateTimer(SimTime::us(555));
  EXPECT_EQ(rp.steps().back().kind, Kind::FastRecovery);
}

TEST(DcqcnReactionPoint, TargetRateStopsAtLineRateAndRateAtMinRate) {
  DcqcnParams p;
  p.fastRecoverySteps = 0;
  p.rateAiGbps = 30;
  p.minRateGbps = 40;
  DcqcnReactionPoint rp(p, 100.0);
  rp.onCnp(SimTime());
  rp.onCnp(SimTime());  // 50 -> 25, held at the minimum 40
  EXPECT_DOUBLE_EQ(rp.currentRateGbps(), 40.0);
  for (int i = 0; i < 20; ++i)
    rp.onRateTimer(SimTime::us(i));
  EXPECT_DOUBLE_EQ(rp.targetRateGbps(), 100.0);
  EXPECT_LE(rp.currentRateGbps(), 100.0);
  EXPECT_GT(rp.currentRateGbps(), 99.99);
}

TEST(DcqcnReactionPoint, ByteCounterDoesNothingBeforeTheFirstCnp) {
  DcqcnReactionPoint rp(DcqcnParams{}, 100.0);
  EXPECT_FALSE(rp.onBytesSent(SimTime(), 100ull * 1000 * 1000));
  EXPECT_DOUBLE_EQ(rp.currentRateGbps(), 100.0);
}

}  // namespace
}  // namespace rdmascope::sim
