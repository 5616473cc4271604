// The switched fabric's scenarios (examples/congestion): PFC without loss, the pause spreading
// upstream, the victim flow, headroom and the link's round trip, ECN with DCQCN, the lossy
// fabric's collapse and the PFC deadlock.
#include "rdmascope/sim/fabric.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <string>

namespace rdmascope::sim {
namespace {

ScenarioSpec load(const std::string& name) {
  std::string error;
  auto s = loadScenario(
      std::string(RDMASCOPE_SOURCE_DIR) + "/examples/congestion/" + name + ".json", error);
  EXPECT_TRUE(s) << error;
  return s ? *s : ScenarioSpec{};
}

ScenarioSpec parse(const std::string& json) {
  std::string error;
  auto s = parseScenario(json, error);
  EXPECT_TRUE(s) << error;
  return s ? *s : ScenarioSpec{};
}

/// The earliest start of a pause on `port`, or max when it was never paused.
SimTime firstPause(const std::vector<PauseInterval>& pauses, const std::string& port) {
  SimTime t = SimTime::max();
  for (const auto& p : pauses)
    if (p.port == port) t = std::min(t, p.start);
  return t;
}

double pausedUs(const std::vector<PauseInterval>& pauses, const std::string& port) {
  double us = 0;
  for (const auto& p : pauses)
    if (p.port == port) us += (p.end - p.start).micros();
  return us;
}

const FlowResult& flow(const std::vector<FlowResult>& flows, const std::string& name) {
  for (const auto& f : flows)
    if (f.name == name) return f;
  static FlowResult none;
  ADD_FAILURE() << "no flow " << name;
  return none;
}

/// The mean of a series' samples from `from` (a fraction of the run) to its end.
double tailMean(const nlohmann::json& values, double from) {
  const std::size_t n = values.size();
  const auto start = static_cast<std::size_t>(static_cast<double>(n) * from);
  double sum = 0;
  for (std::size_t i = start; i < n; ++i)
    sum += values[i].get<double>();
  return n > start ? sum / static_cast<double>(n - start) : 0;
}

TEST(FabricPfc, IncastLosesNoPacketAndThePauseSpreadsUpstreamToTheSenders) {
  ScenarioSpec s = load("incast-pfc");
  // finite flows, so that the run can end with every frame accounted for
  for (auto& f : s.flows)
    f.bytes = 4ull << 20;
  s.duration = SimTime::ms(6);
  Fabric fab(s);
  fab.run();
  const FabricCounters& c = fab.counters();
  EXPECT_EQ(c.dropsHeadroom, 0u);
  EXPECT_EQ(c.dropsLossy, 0u);
  EXPECT_GT(c.pauseFramesSent, 100u);
  EXPECT_EQ(c.pauseFramesReceived, c.pauseFramesSent + c.xonFramesSent);
  for (const auto& f : fab.flows()) {
    EXPECT_EQ(f.bytesCompleted, 4ull << 20) << f.name;
    EXPECT_TRUE(f.error.empty()) << f.name << ": " << f.error;
  }
  // every frame a host sent reached its destination host, and nothing is left queued
  EXPECT_EQ(fab.network().stats().framesSent, fab.network().stats().framesDelivered);
  EXPECT_EQ(fab.bytesQueued(), 0u);
  // l1 pauses the spine first, the spine then pauses l0, and l0 the senders' NICs
  const auto pauses = fab.pauses();
  const SimTime spine = firstPause(pauses, "sp0:1"), leaf = firstPause(pauses, "l0:9");
  SimTime hosts = SimTime::max();
  for (int h = 0; h < 7; ++h) {
    std::string host(1, 'h');  // (not "h" + to_string: gcc 12 -O3 -Wrestrict false positive)
    host += std::to_string(h);
    hosts = std::min(hosts, firstPause(pauses, host));
  }
  EXPECT_LT(spine, leaf);
  EXPECT_LT(leaf, hosts);
  EXPECT_LT(hosts, SimTime::ms(1));
  // no pause on the receivers' side: l1 -> h8 is the congested queue, not a paused one
  EXPECT_EQ(firstPause(pauses, "l1:1"), SimTime::max());
}

TEST(FabricPfc, VictimFlowLosesMostOfItsThroughputToHeadOfLineBlocking) {
  ScenarioSpec alone = load("incast-pfc");
  alone.flows.erase(alone.flows.begin(), alone.flows.end() - 1);
  ASSERT_EQ(alone.flows[0].name, "victim");
  Fabric a(alone);
  a.run();
  const double aloneGbps = flow(a.flows(), "victim").goodputGbps;
  Fabric b(load("incast-pfc"));
  b.run();
  const double withIncast = flow(b.flows(), "victim").goodputGbps;
  // alone it runs at almost the 100 Gb/s of its links
  EXPECT_GT(aloneGbps, 70.0);
  // behind the incast: h10 is idle, but h9's priority 3 is paused by l0 most of the time
  // (l0's uplink queue, which it shares with the incast, is paused by the spine)
  EXPECT_LT(withIncast, 0.3 * aloneGbps)
      << "victim alone " << aloneGbps << " Gb/s, with incast " << withIncast;
  EXPECT_GT(pausedUs(b.pauses(), "h9"), 0.5 * b.spec().duration.micros());
  EXPECT_EQ(b.counters().dropsHeadroom + b.counters().dropsLossy, 0u);
  // about the share of the 8 flows through the paused path: 100/8 Gb/s
  EXPECT_NEAR(withIncast, 100.0 / 8, 4.0);
}

std::string starIncast(double delayUs, const std::string& headroom) {
  return R"({"topology": {"shape": "star", "hosts": 9, "delayUs": )" + std::to_string(delayUs) +
         R"(}, "linkMtu": 9000, "switch": {"bufferBytes": 4194304, "xoff": "static", "xoffBytes": 16384)" +
         headroom +
         R"(}, "flows": [{"src": "h0", "dst": "h8"}, {"src": "h1", "dst": "h8"}, {"src": "h2", "dst": "h8"},
           {"src": "h3", "dst": "h8"}, {"src": "h4", "dst": "h8"}, {"src": "h5", "dst": "h8"},
           {"src": "h6", "dst": "h8"}, {"src": "h7", "dst": "h8"}], "durationUs": 1000})";
}

TEST(FabricPfc, HeadroomCoversTheLinkRoundTrip) {
  // 10 us links: 2 x 10 us x 100 Gb/s = 250,000 bytes arrive after the switch decides to pause
  // (RoCE MTU 4096: a QP's 128 unacknowledged packets are more than that round trip)
  const std::uint64_t need = Fabric::requiredHeadroom(100, SimTime::us(10), 9018);
  EXPECT_EQ(need, 250000u + 3 * (9018 + 24) + 64 + 24);
  Fabric ok(parse(starIncast(10, "")));
  EXPECT_EQ(ok.headroomOf("s0:0"), need);
  ok.run();
  EXPECT_GT(ok.counters().pauseFramesSent, 0u);
  EXPECT_EQ(ok.counters().dropsHeadroom, 0u);
  // with headroom for only half the round trip the frames in flight overflow it
  Fabric half(parse(starIncast(10, R"(, "headroomBytes": )" + std::to_string(need / 2))));
  half.run();
  EXPECT_GT(half.counters().dropsHeadroom, 0u);
  // on 1 us links the same half would have been enough: it is the round trip that counts
  Fabric shortLinks(parse(starIncast(1, R"(, "headroomBytes": )" + std::to_string(need / 2))));
  shortLinks.run();
  EXPECT_EQ(shortLinks.counters().dropsHeadroom, 0u);
}

TEST(FabricDcqcn, IncastConvergesToFairShareQueuesShrinkAndPausesStop) {
  Fabric fab(load("incast-dcqcn"));
  fab.run();
  const FabricCounters& c = fab.counters();
  EXPECT_GT(c.ecnMarked, 0u);
  EXPECT_GT(c.cnpsSent, 0u);
  EXPECT_EQ(c.cnpsSent, c.cnpsReceived);
  EXPECT_EQ(c.dropsHeadroom + c.dropsLossy, 0u);
  const nlohmann::json j = fab.seriesJson();
  for (const auto& p : j["pauses"])
    EXPECT_LT(p["startUs"].get<double>(), 1000.0) << "a pause after the first millisecond";
  // the last third: each incast flow near 100/7 Gb/s, fairly shared, the queue near Kmin
  std::vector<double> rates;
  for (const auto& f : j["flows"])
    if (f["dst"] == "h8") rates.push_back(tailMean(f["deliveredGbps"], 2.0 / 3));
  ASSERT_EQ(rates.size(), 7u);
  const double sum = std::accumulate(rates.begin(), rates.end(), 0.0);
  double sq = 0;
  for (double r : rates)
    sq += r * r;
  const double jain = sum * sum / (7 * sq);
  EXPECT_GT(jain, 0.95);
  EXPECT_GT(sum, 70.0);
  EXPECT_LE(sum, 100.0);
  for (const auto& q : j["queues"]) {
    if (q["port"] != "l1:1") continue;
    std::vector<double> v(q["bytes"].begin(), q["bytes"].end());
    EXPECT_LT(tailMean(q["bytes"], 2.0 / 3), 51200.0);  // below Kmax
  }
  // compared with PFC alone, the victim gets its throughput back
  Fabric pfc(load("incast-pfc"));
  pfc.run();
  EXPECT_GT(flow(fab.flows(), "victim").goodputGbps, 1.4 * flow(pfc.flows(), "victim").goodputGbps);
}

TEST(FabricLossy, IncastWithoutPfcDropsAndCollapsesIntoGoBackN) {
  Fabric lossy(load("incast-lossy"));
  lossy.run();
  EXPECT_GT(lossy.counters().dropsLossy, 100u);
  double goodput = 0;
  for (const auto& f : lossy.flows())
    goodput += f.goodputGbps;
  // the same incast with PFC carries about the link's 100 Gb/s
  ScenarioSpec s = load("incast-lossy");
  s.switches.pfc = true;
  s.switches.buffer.lossless[3] = true;
  Fabric pfc(s);
  pfc.run();
  double pfcGoodput = 0;
  for (const auto& f : pfc.flows())
    pfcGoodput += f.goodputGbps;
  EXPECT_EQ(pfc.counters().dropsLossy + pfc.counters().dropsHeadroom, 0u);
  EXPECT_GT(pfcGoodput, 85.0);
  EXPECT_LT(goodput, 0.25 * pfcGoodput) << "lossy " << goodput << " Gb/s, PFC " << pfcGoodput;
}

TEST(FabricDeadlock, RingWithCyclicRoutesDeadlocksAndIsDetected) {
  Fabric fab(load("pfc-deadlock"));
  fab.run();
  ASSERT_TRUE(fab.deadlock().has_value());
  const auto& cycle = fab.deadlock()->cycle;
  EXPECT_EQ(cycle.size(), 4u);
  // nothing completes after the deadlock: every flow's goodput stays where it stopped
  for (const auto& f : fab.flows())
    EXPECT_LT(f.goodputGbps, 5.0) << f.name;
  EXPECT_EQ(fab.counters().dropsHeadroom + fab.counters().dropsLossy, 0u);
  // the same ring with shortest-path routes has no cyclic dependency
  ScenarioSpec s = load("pfc-deadlock");
  s.routes.clear();
  Fabric free(s);
  free.run();
  EXPECT_FALSE(free.deadlock().has_value());
  for (const auto& f : free.flows())
    EXPECT_GT(f.goodputGbps, 20.0) << f.name;
}

TEST(FabricCapture, CapturedPortsKeepPfcFramesCnpsAndMarkedPackets) {
  ScenarioSpec s = load("incast-dcqcn");
  s.capture = {PortRef{"l1", 0}, PortRef{"l1", 1}};
  s.duration = SimTime::us(300);
  Fabric fab(s);
  fab.run();
  int pfc = 0, cnp = 0, ce = 0;
  for (const auto& c : fab.captures()) {
    const auto& b = c.bytes;
    if (b.size() >= 16 && b[12] == 0x88 && b[13] == 0x08) ++pfc;
    if (b.size() > 42 && b[12] == 0x08 && b[13] == 0x00 && b[42] == 0x81) ++cnp;
    if (b.size() > 16 && b[12] == 0x08 && b[13] == 0x00 && (b[15] & 3) == 3) {
      ++ce;
      // marking kept the ICRC valid (it masks the ECN bits) and the IPv4 checksum right
      const PacketSummary sum = summarizeFrame(WireFormat::RoceV2Ipv4, b);
      EXPECT_TRUE(sum.ok) << sum.error;
    }
  }
  EXPECT_GT(pfc, 0);
  EXPECT_GT(cnp, 0);
  EXPECT_GT(ce, 0);
}

TEST(FabricPfc, PcpClassificationTagsFramesAndPausesTheSamePriority) {
  ScenarioSpec s = load("incast-pfc");
  s.switches.classifyByPcp = true;
  s.duration = SimTime::us(400);
  s.capture = {PortRef{"h0", 0}};
  Fabric fab(s);
  fab.run();
  EXPECT_EQ(fab.counters().dropsHeadroom + fab.counters().dropsLossy, 0u);
  EXPECT_GT(fab.counters().pauseFramesSent, 0u);
  for (const auto& f : fab.flows())
    EXPECT_GT(f.messagesCompleted, 0u) << f.name;  // the receiving NICs take the tag off
  int tagged = 0;
  for (const auto& c : fab.captures()) {
    if (c.port != "h0") continue;  // what h0's NIC sends: its data frames
    ASSERT_GT(c.bytes.size(), 18u);
    EXPECT_EQ(c.bytes[12], 0x81);
    EXPECT_EQ(c.bytes[13], 0x00);
    EXPECT_EQ(c.bytes[14] >> 5, 3) << "PCP from DSCP 26";
    ++tagged;
  }
  EXPECT_GT(tagged, 10);
  EXPECT_GT(pausedUs(fab.pauses(), "h0"), 0.0);
}

TEST(FabricTopology, LeafSpineSpreadsFlowsOverBothSpines) {
  ScenarioSpec s =
      parse(R"({"topology": {"shape": "leaf-spine", "leaves": 2, "spines": 2, "hostsPerLeaf": 4},
    "flows": [{"src": "h0", "dst": "h4"}, {"src": "h1", "dst": "h5"}, {"src": "h2", "dst": "h6"},
              {"src": "h3", "dst": "h7"}], "durationUs": 200, "capture": ["l0:4", "l0:5"]})");
  Fabric fab(s);
  fab.run();
  std::map<std::string, int> up;
  for (const auto& c : fab.captures())
    if (c.port == "l0:4" || c.port == "l0:5") ++up[c.port];
  EXPECT_GT(up["l0:4"], 100);
  EXPECT_GT(up["l0:5"], 100);
  for (const auto& f : fab.flows())
    EXPECT_GT(f.goodputGbps, 40.0) << f.name;
}

}  // namespace
}  // namespace rdmascope::sim

namespace rdmascope::sim {
namespace {

// The typed events a view steps through agree with the fabric's own counters: one EcnMark per
// frame marked, one CnpSent per CNP, one RateCut per CNP a reaction point took, one Drop per
// drop; XOFF and XON alternate per ingress (the PAUSE repeats of a held XOFF are no new event).
TEST(FabricEvents, AgreeWithTheCountersAndAlternatePerIngress) {
  for (const char* name : {"incast-dcqcn", "incast-lossy"}) {
    ScenarioSpec s = load(name);
    s.duration = std::min(s.duration, SimTime::us(1500));
    Fabric fab(s);
    std::vector<FabricEvent> events;
    fab.setEventSink([&events](const FabricEvent& e) { events.push_back(e); });
    fab.run();
    const auto count = [&](FabricEvent::Kind k) {
      return static_cast<std::uint64_t>(std::count_if(
          events.begin(), events.end(), [k](const FabricEvent& e) { return e.kind == k; }));
    };
    const FabricCounters& c = fab.counters();
    EXPECT_EQ(count(FabricEvent::Kind::EcnMark), c.ecnMarked) << name;
    EXPECT_EQ(count(FabricEvent::Kind::CnpSent), c.cnpsSent) << name;
    EXPECT_EQ(count(FabricEvent::Kind::RateCut), s.nics.dcqcn ? c.cnpsReceived : 0u) << name;
    EXPECT_EQ(count(FabricEvent::Kind::Drop), c.dropsLossy + c.dropsHeadroom) << name;
    EXPECT_EQ(count(FabricEvent::Kind::Xon), c.xonFramesSent) << name;
    std::map<std::pair<std::string, int>, bool> paused;
    SimTime last;
    for (const auto& e : events) {
      EXPECT_GE(e.time, last);
      last = e.time;
      if (e.kind == FabricEvent::Kind::RateCut) {
        EXPECT_LT(e.rateAfterGbps, e.rateBeforeGbps);
        EXPECT_GE(e.flow, 0);
      }
      if (e.kind != FabricEvent::Kind::Xoff && e.kind != FabricEvent::Kind::Xon) continue;
      bool& p = paused[{e.port, e.priority}];
      EXPECT_EQ(p, e.kind == FabricEvent::Kind::Xon) << e.port << " at " << e.time.micros();
      p = e.kind == FabricEvent::Kind::Xoff;
    }
    // the series' per-port loads add up to what the ports sent
    const FabricSeries series = fab.series();
    ASSERT_EQ(series.portTxBytes.size(), fab.ports().size());
    std::uint64_t sent = 0;
    for (const auto& p : series.portTxBytes)
      sent = std::accumulate(p.begin(), p.end(), sent);
    EXPECT_GT(sent, 0u);
    EXPECT_EQ(series.times.size(), series.xoffBytes.begin()->second.size());
  }
}

}  // namespace
}  // namespace rdmascope::sim
