#include "rdmascope/verbs_backend/scenario_executor.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "rdmascope/verbs_backend/scenario.h"
#include "rdmascope/verbs_backend/scenario_side.h"
#include "rdmascope/verbs_backend/sim_backend.h"

namespace rdmascope::verbs_backend {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

// One host of a shared simulated network used from its own thread: every call holds the
// network's lock, and host 1 starts only once host 0 has created its QPs (as ScenarioRun sets
// up host 0 first), so both modes draw the simulator's random numbers in the same order.
class ThreadedSimHost final : public Backend {
 public:
  struct Shared {
    std::mutex lock;
    std::condition_variable cv;
    std::size_t host0Qps = 0;
    std::size_t host0QpsNeeded = 0;
  };
  ThreadedSimHost(SimBackend& inner, int host, Shared& shared)
      : inner_(inner), host_(host), shared_(shared) {}

  template <class F>
  auto call(F f) {
    std::unique_lock g(shared_.lock);
    if (host_ == 1) shared_.cv.wait(g, [&] { return shared_.host0Qps >= shared_.host0QpsNeeded; });
    return f();
  }
  std::string name() const override { return inner_.name(); }
  Result<DeviceInfo> queryDevice() override {
    return call([&] { return inner_.queryDevice(); });
  }
  Result<Handle> allocPd() override {
    return call([&] { return inner_.allocPd(); });
  }
  Result<MemoryRegion> regMr(Handle pd, std::uint64_t length, unsigned access) override {
    return call([&] { return inner_.regMr(pd, length, access); });
  }
  std::span<std::uint8_t> memory(const MemoryRegion& mr) override {
    return call([&] { return inner_.memory(mr); });
  }
  Result<Handle> createCq(int depth) override {
    return call([&] { return inner_.createCq(depth); });
  }
  Result<QueuePair> createQp(Handle pd, const QpInitAttr& attr) override {
    auto r = call([&] { return inner_.createQp(pd, attr); });
    if (host_ == 0) {
      std::lock_guard g(shared_.lock);
      ++shared_.host0Qps;
      shared_.cv.notify_all();
    }
    return r;
  }
  Status modifyQp(Handle qp, const QpAttr& attr, unsigned mask) override {
    return call([&] { return inner_.modifyQp(qp, attr, mask); });
  }
  Result<QpAttr> queryQp(Handle qp) override {
    return call([&] { return inner_.queryQp(qp); });
  }
  Status postSend(Handle qp, const SendWr& wr) override {
    return call([&] { return inner_.postSend(qp, wr); });
  }
  Status postRecv(Handle qp, const RecvWr& wr) override {
    return call([&] { return inner_.postRecv(qp, wr); });
  }
  Result<std::vector<WorkCompletion>> pollCq(Handle cq, int max) override {
    return call([&] { return inner_.pollCq(cq, max); });
  }
  Result<std::vector<WorkCompletion>> waitCq(Handle cq, int max,
                                             std::chrono::milliseconds timeout) override {
    return call([&] { return inner_.waitCq(cq, max, timeout); });
  }
  Status letTimePass(std::chrono::microseconds d, const std::atomic<bool>* stop) override {
    return call([&] { return inner_.letTimePass(d, stop); });
  }

 private:
  SimBackend& inner_;
  int host_;
  Shared& shared_;
};

struct ModeRun {
  std::vector<std::string> lines;  ///< formatStepOutcome of every step, by the step's owner
  std::vector<std::string> completions;
  sim::SimTime end;
};

// Both hosts in one process: ScenarioRun (two executors, the in-process link).
ModeRun inProcess(const Scenario& s, std::function<void(const std::string&)> onStep = {},
                  const std::atomic<bool>* stop = nullptr) {
  auto net = std::make_shared<sim::Network>(simNetworkConfig(s));
  SimBackend b0(net, 0), b1(net, 1);
  ScenarioRun run(s, b0, b1, [&](int, const std::string& line) {
    if (onStep) onStep(line);
  });
  run.setStop(stop);
  ModeRun m;
  EXPECT_FALSE(run.setupError()) << *run.setupError();
  while (!run.done())
    m.lines.push_back(formatStepOutcome(s, run.step()));
  for (const auto& [host, wc] : run.completions())
    m.completions.push_back(formatCompletion(s.hosts[host].name, wc));
  m.end = net->sim().now();
  return m;
}

// The step's owner: the publisher of an exchange, host A of a memory comparison, else its host.
int ownerOf(const Step& s) {
  if (const auto* x = std::get_if<ExchangeStep>(&s.action)) return x->from;
  if (const auto* c = std::get_if<CompareMemoryStep>(&s.action)) return c->hostA;
  return s.host;
}

// One executor per thread, talking over a real TCP connection on 127.0.0.1.
ModeRun overTcp(const Scenario& s, std::function<void(int, const std::string&)> onWait = {},
                std::atomic<bool>* stops = nullptr) {
  auto net = std::make_shared<sim::Network>(simNetworkConfig(s));
  SimBackend b0(net, 0), b1(net, 1);
  ThreadedSimHost::Shared shared;
  shared.host0QpsNeeded = s.hosts[0].qps.size();
  ThreadedSimHost h0(b0, 0, shared), h1(b1, 1, shared);
  Backend* hosts[2] = {&h0, &h1};
  auto listener = OobListener::listen(0);
  EXPECT_TRUE(listener.ok()) << listener.status.message;
  const std::uint16_t port = listener.value.port();
  SideRunResult results[2];
  std::vector<std::string> completions[2];
  auto side = [&](int i) {
    SideHooks hooks;
    hooks.peerTimeout = 10s;
    if (stops != nullptr) hooks.stop = &stops[i];
    hooks.completion = [&, i](const std::string& line) { completions[i].push_back(line); };
    if (onWait) hooks.waiting = [&, i](const std::string& what) { onWait(i, what); };
    auto oob = i == 0 ? listener.value.accept(10s) : OobConnection::connect("127.0.0.1", port, 10s);
    if (!oob.ok()) {
      results[i].ok = false;
      results[i].error = oob.status.message;
      return;
    }
    results[i] = runScenarioSide(s, i, *hosts[i], oob.value, hooks);
  };
  std::thread t0(side, 0), t1(side, 1);
  t0.join();
  t1.join();
  ModeRun m;
  std::map<std::size_t, const StepOutcome*> byIndex;
  for (int i = 0; i < 2; ++i)
    for (const StepOutcome& o : results[i].steps)
      if (ownerOf(s.steps[o.index]) == i) byIndex[o.index] = &o;
  for (const auto& [index, o] : byIndex)
    m.lines.push_back(formatStepOutcome(s, *o));
  // Completions in the order the simulator delivered them: by step, host 0's first per step.
  for (const auto& [index, o] : byIndex)
    for (const auto& wc : o->completions)
      m.completions.push_back(formatCompletion(s.hosts[o->host].name, wc));
  m.end = net->sim().now();
  return m;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines)
    out += l + "\n";
  return out;
}

void expectSameOutcomes(const ModeRun& a, const ModeRun& b) {
  EXPECT_EQ(joined(a.lines), joined(b.lines));
  EXPECT_EQ(a.completions, b.completions);
  EXPECT_EQ(a.end, b.end);
}

TEST(ScenarioExecutor, EveryBuiltInGivesTheSameStepOutcomesInProcessAndOverTcp) {
  for (const auto& name : builtinScenarioNames()) {
    SCOPED_TRACE(name);
    const Scenario s = builtinScenario(name);
    const ModeRun local = inProcess(s);
    const ModeRun tcp = overTcp(s);
    ASSERT_EQ(local.lines.size(), s.steps.size());
    expectSameOutcomes(local, tcp);
  }
}

TEST(ScenarioExecutor, RunUsLetsTheSameTimePassInEveryMode) {
  const Scenario s = builtinScenario("rnr-retry");
  const ModeRun local = inProcess(s);
  const ModeRun tcp = overTcp(s);
  expectSameOutcomes(local, tcp);
  const std::size_t pause = s.steps.size() - 4;
  ASSERT_TRUE(std::holds_alternative<RunStep>(s.steps[pause].action));
  EXPECT_EQ(local.lines[pause], "step " + std::to_string(pause) + " host-a ok");
  // Without the pause the receive is posted before the SEND arrives: no RNR NAK, the run ends
  // earlier, in both modes.
  json j = builtinScenarioJson("rnr-retry");
  j["steps"][pause]["run_us"] = 0;
  const Scenario noPause = parseScenario(j, "no-pause.json");
  EXPECT_NE(inProcess(noPause).end, local.end);
  EXPECT_NE(overTcp(noPause).end, tcp.end);
}

TEST(ScenarioExecutor, ARealBackendsRunUsSleepsAndIsCancellable) {
  struct Plain : Backend {
    std::string name() const override { return "plain"; }
    Result<DeviceInfo> queryDevice() override { return {}; }
    Result<Handle> allocPd() override { return {}; }
    Result<MemoryRegion> regMr(Handle, std::uint64_t, unsigned) override { return {}; }
    std::span<std::uint8_t> memory(const MemoryRegion&) override { return {}; }
    Result<Handle> createCq(int) override { return {}; }
    Result<QueuePair> createQp(Handle, const QpInitAttr&) override { return {}; }
    Status modifyQp(Handle, const QpAttr&, unsigned) override { return {}; }
    Result<QpAttr> queryQp(Handle) override { return {}; }
    Status postSend(Handle, const SendWr&) override { return {}; }
    Status postRecv(Handle, const RecvWr&) override { return {}; }
    Result<std::vector<WorkCompletion>> pollCq(Handle, int) override { return {}; }
    Result<std::vector<WorkCompletion>> waitCq(Handle, int, std::chrono::milliseconds) override {
      return {};
    }
  } plain;
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_TRUE(plain.letTimePass(30ms, nullptr).ok());
  EXPECT_GE(std::chrono::steady_clock::now() - t0, 30ms);
  std::atomic<bool> stop{true};
  const Status st = plain.letTimePass(10s, &stop);
  EXPECT_EQ(st.errnum, ECANCELED);
  EXPECT_EQ(st.message, "cancelled while letting time pass");
}

TEST(ScenarioExecutor, AnErrorCompletionsExpectationIsCheckedAlikeInEveryMode) {
  // remote-access-error: a WRITE beyond the peer's MR completes with REM_ACCESS_ERR. Its
  // opcode, byte_len and imm are not valid (ibv_poll_cq(3)), so a wrong expectation of them
  // passes in both modes; a wrong status fails in both, with the same line.
  json j = builtinScenarioJson("remote-access-error");
  std::size_t poll = 0;
  for (std::size_t i = 0; i < j["steps"].size(); ++i)
    if (j["steps"][i].contains("poll_cq") && poll == 0) poll = i;
  ASSERT_GT(poll, 0u);
  json& expect = j["steps"][poll]["poll_cq"]["expect"][0];
  ASSERT_EQ(expect["status"], "REM_ACCESS_ERR") << j["steps"][poll].dump();
  expect["opcode"] = "FETCH_ADD";
  expect["byte_len"] = 12345;
  expect["imm"] = 7;
  const Scenario ignored = parseScenario(j, "ignored.json");
  const ModeRun a = inProcess(ignored);
  expectSameOutcomes(a, overTcp(ignored));
  EXPECT_NE(a.lines[poll].find(" ok: wr_id 1 REM_ACCESS_ERR"), std::string::npos) << a.lines[poll];

  expect["status"] = "RETRY_EXC_ERR";
  const Scenario wrong = parseScenario(j, "wrong.json");
  const ModeRun b = inProcess(wrong);
  expectSameOutcomes(b, overTcp(wrong));
  EXPECT_NE(b.lines[poll].find("FAIL: completion 0 differs from the expectation in status ("),
            std::string::npos)
      << b.lines[poll];

  // On a successful completion every field given is compared, in both modes.
  json ok = builtinScenarioJson("rc-send-recv");
  std::size_t recvPoll = 0;
  for (std::size_t i = 0; i < ok["steps"].size(); ++i)
    if (ok["steps"][i].contains("poll_cq") && ok["steps"][i]["host"] == 1) recvPoll = i;
  ASSERT_GT(recvPoll, 0u);
  ok["steps"][recvPoll]["poll_cq"]["expect"][0]["byte_len"] = 1;
  const Scenario len = parseScenario(ok, "len.json");
  const ModeRun c = inProcess(len);
  expectSameOutcomes(c, overTcp(len));
  EXPECT_NE(c.lines[recvPoll].find("FAIL: completion 0 differs from the expectation in byte_len"),
            std::string::npos)
      << c.lines[recvPoll];
}

TEST(ScenarioExecutor, CancellingAPollEndsTheRunAlikeInEveryMode) {
  // Host B's poll waits for a completion that never comes (no SEND is posted); it is cancelled
  // as it starts waiting, and the run ends there in both modes.
  json j = builtinScenarioJson("rc-send-recv");
  json steps = json::array();
  std::size_t poll = 0;
  for (auto& st : j["steps"]) {
    if (st.contains("post_send")) continue;
    if (st.contains("poll_cq") && st["host"] == 1 && poll == 0) {
      st["poll_cq"]["timeout_ms"] = 3600000;
      poll = steps.size();
    }
    steps.push_back(st);
  }
  j["steps"] = steps;
  ASSERT_GT(poll, 0u);
  const Scenario s = parseScenario(j, "cancel.json");
  const std::string pollText = s.steps[poll].text;

  std::atomic<bool> stop{false};
  const ModeRun a = inProcess(
      s,
      [&](const std::string& line) {
        if (line == pollText) stop = true;
      },
      &stop);
  std::atomic<bool> stops[2] = {false, false};
  const auto t0 = std::chrono::steady_clock::now();
  const ModeRun b = overTcp(
      s,
      [&](int host, const std::string& what) {
        if (host == 1 && what.find("completion(s) on cq") != std::string::npos) stops[1] = true;
      },
      stops);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
  EXPECT_EQ(joined(a.lines), joined(b.lines));
  ASSERT_EQ(a.lines.size(), poll + 1);
  EXPECT_EQ(a.lines.back(), "step " + std::to_string(poll) +
                                " host-b FAIL: cancelled while waiting for completions on cq");
  EXPECT_TRUE(stops[1]);
  EXPECT_FALSE(stops[0]);
}

TEST(ScenarioExecutor, CompareMemoryFindsTheSameFirstDifferenceOverTcp) {
  // rc-write with the data check moved to a range the WRITE did not reach: host A's pattern
  // against host B's zeros differs at byte 0, unless the pattern is 0 there.
  json j = builtinScenarioJson("rc-write");
  json& cmp = j["steps"].back()["compare_memory"];
  ASSERT_TRUE(j["steps"].back().contains("compare_memory"));
  cmp["offset_a"] = 20000;
  cmp["offset_b"] = 20000;
  cmp["length"] = 1000;
  const Scenario s = parseScenario(j, "cmp.json");
  const ModeRun a = inProcess(s);
  const ModeRun b = overTcp(s);
  expectSameOutcomes(a, b);
  EXPECT_NE(a.lines.back().find("FAIL: memory differs at byte 0 of 1000 (host-a:buf+0x4e20, "
                                "host-b:buf+0x4e20)"),
            std::string::npos)
      << a.lines.back();
  // The WRITE copied 8192 bytes: one byte more differs at its very end, found over TCP by
  // halving the range.
  cmp["offset_a"] = 0;
  cmp["offset_b"] = 0;
  cmp["length"] = 8193;
  const Scenario one = parseScenario(j, "one.json");
  const ModeRun c = inProcess(one);
  expectSameOutcomes(c, overTcp(one));
  EXPECT_NE(c.lines.back().find("FAIL: memory differs at byte 8192 of 8193"), std::string::npos)
      << c.lines.back();
}

TEST(ScenarioExecutor, TheRuntimeRangeCheckDoesNotWrap) {
  // The reader refuses such a step; built by hand it reaches the executor's own check.
  Scenario s = builtinScenario("rc-write");
  auto& cmp = std::get<CompareMemoryStep>(s.steps.back().action);
  cmp.offsetA = ~std::uint64_t{0};
  cmp.length = 1;
  const ModeRun a = inProcess(s);
  EXPECT_EQ(a.lines.back(), "step " + std::to_string(s.steps.size() - 1) +
                                " host-a FAIL: host-a:buf has 65536 bytes: offset "
                                "18446744073709551615 length 1 lies outside");
}

}  // namespace
}  // namespace rdmascope::verbs_backend
