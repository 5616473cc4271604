// The lossless-Ethernet analysis of captures: PFC pause frames per port and priority with the
// time each priority was held, pause storms, CNPs matched to the CE-marked packets that caused
// them, and victim flows held by PFC behind another receiver's incast.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/packets/ib_builder.h"
#include "rdmascope/packets/mac_control.h"

namespace rdmascope::analysis {
namespace {

using packets::IbPacket;
using packets::IpAddress;
using packets::LinkType;
using packets::RoceAddressing;

constexpr std::array<std::uint8_t, 6> kSwitchPort = {0x02, 0x5e, 0, 0, 0x01, 0x03};

struct Feeder {
  explicit Feeder(AnalyzerOptions o = {}) : a(o) {}
  FlowAnalyzer a;
  std::uint64_t n = 0;
  void frame(const std::vector<std::uint8_t>& f, double t) {
    a.addFrame(f, LinkType::Ethernet, ++n, t);
  }
  void pfc(int priority, std::uint16_t quanta, double t) {
    packets::PfcPause p;
    p.enableVector = static_cast<std::uint8_t>(1u << priority);
    p.quanta[static_cast<std::size_t>(priority)] = quanta;
    frame(packets::buildPfcFrame(kSwitchPort, p), t);
  }
  AnalysisReport finish() {
    a.finish();
    return a.report();
  }
};

RoceAddressing between(std::uint8_t from, std::uint8_t to, std::uint8_t ecn = 2) {
  RoceAddressing r;
  r.srcMac = {0x02, 0, 0, 0, 0, from};
  r.dstMac = {0x02, 0x5e, 0, 0, 0x01, from};  // the switch port facing the sender
  r.srcIp = IpAddress::v4(10, 0, 0, from);
  r.dstIp = IpAddress::v4(10, 0, 0, to);
  r.dscp = 26;  // priority 3
  r.ecn = ecn;
  return r;
}

std::vector<std::uint8_t> write(std::uint8_t from, std::uint8_t to, std::uint32_t psn,
                                std::uint8_t ecn = 2) {
  IbPacket p;
  p.bth.opcode = 0x0a;  // RC RDMA WRITE Only
  p.bth.destQp = 0x100u + to;
  p.bth.psn = psn;
  p.reth = packets::Reth{0x1000, 0x42, 256};
  p.payload.assign(256, 0x11);
  return packets::buildRoceV2(between(from, to, ecn), p);
}

std::vector<std::uint8_t> ack(std::uint8_t from, std::uint8_t to, std::uint32_t psn) {
  IbPacket p;
  p.bth.opcode = 0x11;  // RC Acknowledge
  p.bth.destQp = 0x100u + to;
  p.bth.psn = psn;
  p.aeth = packets::Aeth{0x1f, psn};
  return packets::buildRoceV2(between(from, to), p);
}

std::vector<std::uint8_t> cnp(std::uint8_t from, std::uint8_t to) {
  IbPacket p;
  p.bth.opcode = 0x81;
  p.bth.destQp = 0x100u + to;
  p.bth.becn = true;
  return packets::buildRoceV2(between(from, to), p);
}

std::vector<const Anomaly*> ofKind(const AnalysisReport& r, AnomalyKind kind) {
  std::vector<const Anomaly*> out;
  for (const auto& a : r.anomalies)
    if (a.kind == kind) out.push_back(&a);
  return out;
}

TEST(CongestionAnalysis, PausedTimeFollowsXoffRefreshXonAndExpiry) {
  Feeder f;
  f.pfc(3, 0xffff, 0.0);     // held 335.5 us at 100 Gb/s ...
  f.pfc(3, 0xffff, 100e-6);  // ... refreshed ...
  f.pfc(3, 0, 200e-6);       // ... and released: 200 us
  f.pfc(3, 1000, 1e-3);      // 5.12 us, runs out by itself
  f.pfc(5, 0xffff, 2e-3);    // another priority, still held at the end
  const auto r = f.finish();
  EXPECT_EQ(r.summary.pauseFrames, 5u);
  ASSERT_EQ(r.pauses.size(), 2u);
  const PauseStats& p3 = r.pauses[0];
  EXPECT_EQ(p3.port, "02:5e:00:00:01:03");
  EXPECT_EQ(p3.priority, 3);
  EXPECT_EQ(p3.frames, 4u);
  EXPECT_EQ(p3.xoff, 3u);
  EXPECT_EQ(p3.xon, 1u);
  EXPECT_EQ(p3.quanta, 2u * 0xffff + 1000u);
  EXPECT_NEAR(p3.pausedSeconds, 200e-6 + 5.12e-6, 1e-12);
  EXPECT_NEAR(p3.longestPause, 200e-6, 1e-12);
  EXPECT_EQ(p3.firstFrame, 1u);
  EXPECT_EQ(p3.lastFrame, 4u);
  // Priority 5 was still held when the capture ended, at its own frame: nothing after it.
  EXPECT_EQ(r.pauses[1].priority, 5);
  EXPECT_NEAR(r.pauses[1].pausedSeconds, 0.0, 1e-12);
  EXPECT_TRUE(ofKind(r, AnomalyKind::PauseStorm).empty());
  ASSERT_EQ(r.pauseIntervals.size(), 3u);  // in the order they ended
  EXPECT_EQ(r.pauseIntervals[0].priority, 3);
  EXPECT_NEAR(r.pauseIntervals[0].end - r.pauseIntervals[0].start, 200e-6, 1e-12);
  EXPECT_EQ(r.pauseIntervals[0].startFrame, 1u);
  EXPECT_EQ(r.pauseIntervals[0].frames, 2u);
  EXPECT_NEAR(r.pauseIntervals[1].start, 1e-3, 1e-12);
  EXPECT_NEAR(r.pauseIntervals[1].end, 1e-3 + 5.12e-6, 1e-12);
  EXPECT_EQ(r.pauseIntervals[2].priority, 5);
}

TEST(CongestionAnalysis, LinkSpeedScalesTheQuanta) {
  AnalyzerOptions o;
  o.linkBitsPerSecond = 25e9;
  Feeder f(o);
  f.pfc(0, 1000, 0.0);
  f.pfc(0, 1000, 1.0);  // the first ran out long before
  const auto r = f.finish();
  ASSERT_EQ(r.pauses.size(), 1u);
  EXPECT_NEAR(r.pauses[0].pausedSeconds, 1000 * 512 / 25e9, 1e-15);  // 20.48 us, the second at 1 s
  EXPECT_EQ(r.summary.pauseFrames, 2u);
}

TEST(CongestionAnalysis, AnUnbrokenPauseLongerThanTheThresholdIsOneStorm) {
  Feeder f;
  for (int i = 0; i <= 200; ++i)  // refreshed every 100 us for 20 ms
    f.pfc(3, 0xffff, i * 100e-6);
  const auto r = f.finish();
  const auto storms = ofKind(r, AnomalyKind::PauseStorm);
  ASSERT_EQ(storms.size(), 1u);
  EXPECT_EQ(storms[0]->frame, 102u);  // the first frame past 10 ms
  EXPECT_EQ(storms[0]->relatedFrame, 1u);
  EXPECT_NE(storms[0]->detail.find("priority 3 held paused by 02:5e:00:00:01:03"),
            std::string::npos)
      << storms[0]->detail;
  EXPECT_EQ(r.summary.pauseStorms, 1u);
  EXPECT_EQ(r.pauses[0].storms, 1u);

  AnalyzerOptions longer;
  longer.pauseStormSeconds = 30e-3;
  Feeder g(longer);
  for (int i = 0; i <= 200; ++i)
    g.pfc(3, 0xffff, i * 100e-6);
  EXPECT_EQ(g.finish().summary.pauseStorms, 0u);
}

TEST(CongestionAnalysis, EachCnpIsMatchedToTheMarkedPacketsOfItsFlow) {
  Feeder f;
  f.frame(write(1, 2, 10), 0.0);
  f.frame(ack(2, 1, 10), 1e-6);  // names host 1's QP, which the CNPs go to
  f.frame(write(1, 2, 11, 3), 2e-6);
  f.frame(write(1, 2, 12), 3e-6);
  f.frame(write(1, 2, 13, 3), 4e-6);   // frame 5
  f.frame(cnp(2, 1), 6e-6);            // answers frames 3 and 5
  f.frame(cnp(2, 1), 60e-6);           // answers nothing in the capture
  f.frame(write(1, 2, 14, 3), 70e-6);  // never answered
  const auto r = f.finish();
  ASSERT_EQ(r.cnps.size(), 2u);
  EXPECT_EQ(r.cnps[0].frame, 6u);
  EXPECT_EQ(r.cnps[0].marked, 2u);
  EXPECT_EQ(r.cnps[0].firstMarkedFrame, 3u);
  EXPECT_EQ(r.cnps[0].lastMarkedFrame, 5u);
  EXPECT_NEAR(r.cnps[0].reaction, 2e-6, 1e-12);
  EXPECT_EQ(r.cnps[0].destQp, 0x101u);
  EXPECT_EQ(r.cnps[0].direction, 0);
  EXPECT_EQ(r.cnps[1].marked, 0u);
  EXPECT_EQ(r.summary.cnps, 2u);
  EXPECT_EQ(r.summary.cnpsWithoutMark, 1u);
  EXPECT_EQ(r.summary.marksWithoutCnp, 1u);
  const auto lone = ofKind(r, AnomalyKind::CnpWithoutMark);
  ASSERT_EQ(lone.size(), 1u);
  EXPECT_EQ(lone[0]->frame, 7u);
  EXPECT_EQ(lone[0]->connection, r.cnps[1].connection);
  const std::string text = formatText(r);
  EXPECT_NE(text.find("CNPs: 2 (1 answer 2 CE-marked packets, mean reaction 2.0 us; 1 without a "
                      "marked packet); 1 CE-marked packets no CNP followed"),
            std::string::npos)
      << text;
  const std::string json = toJson(r);
  EXPECT_NE(json.find("\"cnps_without_mark\": 1"), std::string::npos);
  EXPECT_NE(json.find("\"first_marked_frame\": 3"), std::string::npos);
}

// Hosts 1 and 2 send to receiver 9 (the incast), host 3 to receiver 8; the switch pauses
// priority 3 on every sender's port from 100 us to 300 us.
AnalysisReport incast(bool victimSends) {
  Feeder f;
  std::uint32_t psn = 0;
  auto round = [&](double t) {
    f.frame(write(1, 9, psn), t);
    f.frame(write(2, 9, psn), t + 0.1e-6);
    if (victimSends) f.frame(write(3, 8, psn), t + 0.2e-6);
    ++psn;
  };
  for (double t = 0; t < 100e-6; t += 1e-6)
    round(t);
  f.pfc(3, 0xffff, 100e-6);
  f.pfc(3, 0xffff, 200e-6);
  f.pfc(3, 0, 300e-6);
  for (double t = 300.5e-6; t < 400e-6; t += 1e-6)
    round(t);
  return f.finish();
}

TEST(CongestionAnalysis, AFlowHeldBehindAnotherReceiversIncastIsAVictim) {
  const auto r = incast(true);
  const auto victims = ofKind(r, AnomalyKind::VictimFlow);
  ASSERT_EQ(victims.size(), 1u);
  EXPECT_EQ(r.summary.victimFlows, 1u);
  const Anomaly& v = *victims[0];
  EXPECT_NE(v.detail.find("flow to 10.0.0.8 held"), std::string::npos) << v.detail;
  EXPECT_NE(v.detail.find("behind the 2 paused flows to 10.0.0.9"), std::string::npos) << v.detail;
  EXPECT_NEAR(v.wait, 200e-6, 1e-6);  // the pause, less nothing: the flow was silent throughout
  const auto& c = r.connections.at(static_cast<std::size_t>(v.connection));
  EXPECT_EQ(c.a.address, "10.0.0.3");
  EXPECT_EQ(incast(false).summary.victimFlows, 0u);  // one receiver: nobody else to block
}

TEST(CongestionAnalysis, WithoutPauseFramesNothingIsPausedAndTheReportIsUnchanged) {
  Feeder f;
  for (std::uint32_t i = 0; i < 50; ++i)
    f.frame(write(1, 2, i), i * 1e-6);
  const auto r = f.finish();
  EXPECT_TRUE(r.pauses.empty());
  EXPECT_TRUE(r.cnps.empty());
  EXPECT_EQ(r.summary.pauseFrames, 0u);
  const std::string text = formatText(r);
  EXPECT_EQ(text.find("PFC pauses"), std::string::npos);
  EXPECT_EQ(text.find("CNPs:"), std::string::npos);
}

}  // namespace
}  // namespace rdmascope::analysis
