// The GUI records verbs_backend's scenarios with verbs_backend's engine: one list of built-ins,
// the tour's completions and frames those of `rdmascope-cli sim`, the phases from the scenario.
#include "rdmascope/ui/scenario_player.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "rdmascope/cli/cli.h"
#include "rdmascope/sim/transport_scenarios.h"
#include "rdmascope/ui/ceph_recording.h"
#include "rdmascope/ui/transport_recording.h"
#include "rdmascope/verbs_backend/scenario.h"
#include "scenario_support.h"

namespace rdmascope::ui {
namespace {

struct Recorded {
  ScenarioRecording rec;
  FrameStore frames;
};

Recorded record(const std::string& id, sim::WireFormat wire = sim::WireFormat::RoceV2Ipv4) {
  Recorded r;
  std::string error;
  EXPECT_TRUE(recordScenario(id, wire, r.rec, r.frames, error)) << id << ": " << error;
  return r;
}

// `rdmascope-cli ARGS...` in this process: exit code, stdout.
std::pair<int, std::string> runCli(std::vector<std::string> args) {
  args.insert(args.begin(), "rdmascope-cli");
  std::vector<char*> argv;
  for (auto& a : args)
    argv.push_back(a.data());
  std::ostringstream out, err;
  const int code = cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
  EXPECT_TRUE(err.str().empty()) << err.str();
  return {code, out.str()};
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    out.push_back(l);
  return out;
}

TEST(ScenarioPlayer, TheListIsVerbsBackendsBuiltInsThenTheTransfers) {
  std::vector<std::string> ids;
  for (const auto& info : builtInScenarios()) {
    ids.push_back(info.id);
    EXPECT_FALSE(info.description.empty()) << info.id;
    if (!isTransportScenario(info.id) && !isCephScenario(info.id)) {
      EXPECT_EQ(info.description, verbs_backend::builtinScenario(info.id).description);
    }
  }
  // As `rdmascope-cli sim --list` lists them: verbs_backend's, then tcp-stream and iwarp-*,
  // then Ceph's messenger on its two stacks.
  std::vector<std::string> cli = verbs_backend::builtinScenarioNames();
  for (const auto& name : sim::transportScenarioNames())
    cli.emplace_back(name);
  cli.emplace_back("ceph-messenger");
  cli.emplace_back("ceph-messenger-tcp");
  EXPECT_EQ(ids, cli);
  const auto tour = std::find_if(builtInScenarios().begin(), builtInScenarios().end(),
                                 [](const ScenarioInfo& i) { return i.id == "tour"; });
  ASSERT_NE(tour, builtInScenarios().end());
  // The tour's title is scenario data ("title"); the others are named by their id.
  EXPECT_EQ(tour->title, verbs_backend::builtinScenarioJson("tour").at("title").get<std::string>());
  EXPECT_EQ(builtInScenarios().front().title, builtInScenarios().front().id);
}

TEST(ScenarioPlayer, TheToursCompletionsAreThoseOfCliSimTour) {
  const Recorded r = record("tour");
  const auto [code, out] = runCli({"sim", "tour", "--trace", "none"});
  ASSERT_EQ(code, 0) << out;
  EXPECT_EQ(r.rec.completions, lines(out));
  // A: SEND, WRITE, READ, the SEND that met the RNR NAK; B: the two receives.
  ASSERT_EQ(r.rec.completions.size(), 6u);
  EXPECT_EQ(r.rec.problem, "");
  // On every wire the program completes the same way.
  for (auto wire :
       {sim::WireFormat::RoceV2Ipv6, sim::WireFormat::RoceV1, sim::WireFormat::InfiniBand})
    EXPECT_EQ(record("tour", wire).rec.completions, r.rec.completions);
}

// The same program on the same engine: frame for frame what runScenarioInSim puts on the wire.
TEST(ScenarioPlayer, EveryBuiltInRecordsTheFramesOfTheSimulatedRun) {
  for (const auto& name : verbs_backend::builtinScenarioNames()) {
    SCOPED_TRACE(name);
    const Recorded r = record(name);
    const auto run = verbs_backend::runScenarioInSim(verbs_backend::builtinScenario(name));
    EXPECT_EQ(r.rec.source, name);
    ASSERT_EQ(r.frames.size(), run.frames.size());
    for (std::size_t i = 0; i < run.frames.size(); ++i) {
      const auto bytes = r.frames.bytes(i);
      EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), run.frames[i].bytes.begin(),
                             run.frames[i].bytes.end()))
          << "frame " << i + 1;
    }
    std::vector<std::string> simLines;
    for (const auto& [host, wc] : run.completions)
      simLines.push_back(verbs_backend::formatCompletion(run.hostNames[host], wc));
    EXPECT_EQ(r.rec.completions, simLines);
  }
}

TEST(ScenarioPlayer, TheToursEventsIncludeTheRnrNakAndItsRetry) {
  const Recorded r = record("tour");
  const int rnr = test::findRnrNakEvent(r.rec, r.frames);
  ASSERT_GE(rnr, 0);
  const ScenarioEvent& e = r.rec.events[static_cast<std::size_t>(rnr)];
  EXPECT_EQ(e.host, 1);  // B's responder refuses the SEND
  EXPECT_EQ(r.rec.phases[e.phase].title, "Receiver not ready (RNR NAK)");
  const auto nak =
      sim::summarizeFrame(r.rec.wire, r.frames.bytes(static_cast<std::size_t>(e.frame)));
  // A retries the refused PSN with a SEND ONLY after the timer.
  const int retry = test::findFrameEvent(r.rec, r.frames, 0x04, rnr + 1);
  ASSERT_GT(retry, rnr);
  const auto resent =
      sim::summarizeFrame(r.rec.wire, r.frames.bytes(static_cast<std::size_t>(
                                          r.rec.events[static_cast<std::size_t>(retry)].frame)));
  EXPECT_EQ(resent.psn, nak.psn);
  EXPECT_GT(r.rec.events[static_cast<std::size_t>(retry)].trace.time, e.trace.time);
}

// The phases are the setup and the scenario's narrated steps ("title", "explanation"), in
// order; every event belongs to the phase of the step that caused it.
TEST(ScenarioPlayer, TheToursPhasesComeFromTheScenario) {
  const Recorded r = record("tour");
  const auto json = verbs_backend::builtinScenarioJson("tour");
  std::vector<std::string> expected = {"Set up both hosts"};
  for (const auto& step : json.at("steps"))
    if (step.contains("title")) expected.push_back(step.at("title").get<std::string>());
  EXPECT_EQ(r.rec.phases.front().text, json.at("explanation").get<std::string>());
  std::vector<std::string> titles;
  for (const auto& p : r.rec.phases)
    titles.push_back(p.title);
  EXPECT_EQ(titles, expected);
  EXPECT_EQ(titles, (std::vector<std::string>{"Set up both hosts", "Connect the queue pairs",
                                              "A multi-packet SEND", "An RDMA WRITE",
                                              "An RDMA READ", "Receiver not ready (RNR NAK)"}));
  EXPECT_EQ(r.rec.title, "Tour: SEND, WRITE, READ, RNR NAK");
  // Phases only move forward through the recording, and each is reached.
  std::size_t last = 0;
  std::vector<bool> seen(r.rec.phases.size());
  for (const auto& e : r.rec.events) {
    EXPECT_GE(e.phase, last);
    last = e.phase;
    seen[e.phase] = true;
  }
  for (std::size_t p = 0; p < seen.size(); ++p)
    EXPECT_TRUE(seen[p]) << titles[p];
  // A scenario without phase objects gets one per step after its setup.
  const auto plain = record("rc-write");
  EXPECT_EQ(plain.rec.phases.size(), verbs_backend::builtinScenario("rc-write").steps.size() + 1);
  EXPECT_EQ(plain.rec.title, "rc-write");
}

// The trace is followed from the first verbs call: the QP appears at its create_qp, not before.
TEST(ScenarioPlayer, SetupEventsHaveTheirOwnSnapshots) {
  const Recorded r = record("tour");
  const int created = test::findEvent(r.rec, sim::TraceKind::QpState, 0);
  ASSERT_GT(created, 0);
  const auto& before = r.rec.snapshots[r.rec.events[0].snapshot];
  const auto& after = r.rec.snapshots[r.rec.events[static_cast<std::size_t>(created)].snapshot];
  EXPECT_TRUE(before.hosts[0].qps.empty());
  ASSERT_EQ(after.hosts[0].qps.size(), 1u);
  EXPECT_EQ(after.hosts[0].qps[0].state, sim::QpState::Reset);
  EXPECT_EQ(r.rec.bufferSize, 8192u);
  // The buffers as the scenario filled them; A's READ brought B's bytes into A's.
  const auto& a = r.rec.snapshots.back().hosts[0];
  const auto& b = r.rec.snapshots.back().hosts[1];
  ASSERT_NE(a.buffer, nullptr);
  ASSERT_NE(b.buffer, nullptr);
  EXPECT_NE(std::string(b.buffer->begin(), b.buffer->end()).find("Data READ from host B."),
            std::string::npos);
  EXPECT_TRUE(
      std::equal(a.buffer->begin() + 6144, a.buffer->begin() + 8144, b.buffer->begin() + 6144));
}

}  // namespace
}  // namespace rdmascope::ui
