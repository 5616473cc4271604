#include "rdmascope/verbs_backend/scenario_side.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <thread>

namespace rdmascope::verbs_backend {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

TEST(ScenarioSide, HelloNamesAPeerThatRunsAnotherScenario) {
  const Scenario sendRecv = builtinScenario("rc-send-recv");
  const Scenario write = builtinScenario("rc-write");
  EXPECT_EQ(checkScenarioHello(sendRecv, 1, scenarioHello(sendRecv, 0)), "");
  EXPECT_EQ(checkScenarioHello(sendRecv, 0, scenarioHello(sendRecv, 1)), "");
  EXPECT_EQ(checkScenarioHello(sendRecv, 1, scenarioHello(write, 0)),
            "the peer runs scenario 'rc-write', not 'rc-send-recv'");
  EXPECT_EQ(checkScenarioHello(sendRecv, 1, scenarioHello(sendRecv, 1)),
            "the peer plays host-b too: one side must wait for the peer (--server), the other "
            "connect");
  // Same name, other content (another file or version).
  nlohmann::json changed = builtinScenarioJson("rc-send-recv");
  changed["description"] = "edited";
  const Scenario edited = parseScenario(changed, "edited.json");
  EXPECT_EQ(checkScenarioHello(sendRecv, 1, scenarioHello(edited, 0)),
            "the peer's scenario 'rc-send-recv' differs from this one (another file or rdmascope "
            "version)");
  // An older peer starts with the setup barrier.
  EXPECT_EQ(checkScenarioHello(sendRecv, 1, "barrier setup"),
            "the peer did not say which scenario it runs (it sent 'barrier setup'): is it an "
            "older rdmascope?");
  EXPECT_NE(checkScenarioHello(sendRecv, 1, std::string(5000, 'x')), "");
  EXPECT_NE(checkScenarioHello(sendRecv, 1, ""), "");
}

TEST(ScenarioSide, APeerRunningAnotherScenarioStopsTheRunBeforeSetup) {
  auto listener = OobListener::listen(0);
  ASSERT_TRUE(listener.ok()) << listener.status.message;
  const std::uint16_t port = listener.value.port();
  std::string peerSaw;
  std::thread peer([&] {
    auto c = listener.value.accept(5s);
    ASSERT_TRUE(c.ok()) << c.status.message;
    ASSERT_TRUE(c.value.sendLine(scenarioHello(builtinScenario("rc-write"), 0)).ok());
    auto line = c.value.readLine(5s);
    if (line.ok()) peerSaw = line.value;
  });
  const Scenario s = builtinScenario("rc-send-recv");
  SimScenarioSession session(s);
  std::vector<std::string> waits;
  SideHooks hooks;
  hooks.waiting = [&](const std::string& w) { waits.push_back(w); };
  PeerEndpoint to;
  to.host = "127.0.0.1";
  to.port = port;
  EXPECT_EQ(scenarioSideOf(to), 1);
  auto oob = connectScenarioPeer(to, 5s, hooks);
  ASSERT_TRUE(oob.ok()) << oob.status.message;
  const SideRunResult r = runScenarioSide(s, 1, session.backend(1), oob.value, hooks);
  peer.join();
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "the peer runs scenario 'rc-write', not 'rc-send-recv'");
  EXPECT_EQ(peerSaw, scenarioHello(s, 1));
  ASSERT_EQ(waits.size(), 2u);
  EXPECT_EQ(waits[0], "a connection to 127.0.0.1:" + std::to_string(port) +
                          " (the peer must run with --server)");
  EXPECT_EQ(waits[1], "the peer to say which scenario it runs");
}

// Sets `stop` after `delay` from another thread.
std::thread stopLater(std::atomic<bool>& stop, std::chrono::milliseconds delay) {
  return std::thread([&stop, delay] {
    std::this_thread::sleep_for(delay);
    stop = true;
  });
}

TEST(ScenarioSide, WaitingForAPeerThatNeverComesIsCancellable) {
  std::atomic<bool> stop{false};
  SideHooks hooks;
  hooks.stop = &stop;
  std::string waitingFor;
  hooks.waiting = [&](const std::string& w) { waitingFor = w; };
  PeerEndpoint serve;
  serve.serve = true;
  serve.port = 0;  // any free port
  EXPECT_EQ(scenarioSideOf(serve), 0);
  auto t = stopLater(stop, 300ms);
  const auto start = Clock::now();
  auto r = connectScenarioPeer(serve, 60s, hooks);
  t.join();
  EXPECT_LT(Clock::now() - start, 3s);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status.errnum, ECANCELED);
  EXPECT_EQ(r.status.message.rfind("cancelled while waiting for a peer on TCP port ", 0), 0u)
      << r.status.message;
  EXPECT_EQ(waitingFor.rfind("the peer to connect to TCP port ", 0), 0u) << waitingFor;
}

TEST(ScenarioSide, ConnectingToAPeerNotListeningIsCancellableAndTimesOutWithTheReason) {
  auto l = OobListener::listen(0);
  ASSERT_TRUE(l.ok());
  const std::uint16_t port = l.value.port();
  l.value = OobListener();  // nobody listens there now: refused, retried
  std::atomic<bool> stop{false};
  SideHooks hooks;
  hooks.stop = &stop;
  auto t = stopLater(stop, 300ms);
  const auto start = Clock::now();
  auto r = connectScenarioPeer({false, "127.0.0.1", port}, 60s, hooks);
  t.join();
  EXPECT_LT(Clock::now() - start, 3s);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status.errnum, ECANCELED);
  EXPECT_EQ(r.status.message, "cancelled while connecting to 127.0.0.1:" + std::to_string(port));

  auto refused = connectScenarioPeer({false, "127.0.0.1", port}, 300ms);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status.message,
            "connecting to 127.0.0.1:" + std::to_string(port) + " failed: Connection refused");
}

TEST(ScenarioSide, APeerThatConnectsAndFallsSilentIsCancellable) {
  auto listener = OobListener::listen(0);
  ASSERT_TRUE(listener.ok());
  std::atomic<bool> stop{false};
  listener.value.setStop(&stop);
  auto silent = OobConnection::connect("127.0.0.1", listener.value.port(), 5s);
  ASSERT_TRUE(silent.ok()) << silent.status.message;
  auto mine = listener.value.accept(5s);
  ASSERT_TRUE(mine.ok()) << mine.status.message;
  const Scenario s = builtinScenario("rc-send-recv");
  SimScenarioSession session(s);
  SideHooks hooks;
  hooks.stop = &stop;
  auto t = stopLater(stop, 300ms);
  const auto start = Clock::now();
  const SideRunResult r = runScenarioSide(s, 0, session.backend(0), mine.value, hooks);
  t.join();
  EXPECT_LT(Clock::now() - start, 3s);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error, "out-of-band connection: cancelled while waiting for the out-of-band peer");
}

}  // namespace
}  // namespace rdmascope::verbs_backend
