// The simulated NIC of two processes joined by the fabric: a one-sided RDMA WRITE from one
// lands in the other's own memory while that process makes no verbs call, the pcap holds the
// frames, and bad attaches are refused with one line.
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <thread>

#include "../support/fabric_write_sides.h"
#include "../support/scratch_folder.h"
#include "rdmascope/simdev/fabric.h"
#include "rdmascope/simdev/fabric_observer.h"
#include "rdmascope/simdev/nic.h"

namespace rdmascope::simdev {
namespace {

namespace fs = std::filesystem;
using namespace rdmascope::sim;

struct RunningFabric {
  explicit RunningFabric(FabricConfig config) {
    std::string error;
    fabric = Fabric::open(config, error);
    EXPECT_TRUE(fabric) << error;
    if (fabric)
      thread =
          std::thread([this] { fabric->run([this](const std::string& l) { log.push_back(l); }); });
  }
  ~RunningFabric() {
    if (fabric) fabric->stop();
    if (thread.joinable()) thread.join();
  }
  std::unique_ptr<Fabric> fabric;
  std::thread thread;
  std::vector<std::string> log;
};

/// A fabric's configuration with its socket in `dir`, where the programs forked next attach.
FabricConfig fabricIn(const testing::ScratchFolder& dir) {
  FabricConfig config;
  config.socketPath = dir / "fabric.sock";
  ::setenv(kFabricEnv, config.socketPath.c_str(), 1);
  return config;
}

/// Forks a program on host `host` that runs `side` and exits with what it returns.
template <class Side>
pid_t forkOnHost(const char* host, Side side) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setenv(kHostEnv, host, 1);
    ::_exit(side());
  }
  return pid;
}

/// In a program forked before its fabric starts: waits (up to 10 s) for the fabric's socket.
void waitForSocket(const FabricConfig& config) {
  for (int i = 0; i < 1000 && !fs::exists(config.socketPath); ++i)
    ::usleep(10000);
}

int exitStatus(pid_t pid) {
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST(NicFabric, AOneSidedWriteLandsInTheOtherProcessWithoutItsHelp) {
  testing::ScratchFolder dir("nic_fabric");
  FabricConfig config = fabricIn(dir);
  config.pcapPath = dir / "run.pcap";
  config.lossRate = 0.05;
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  // The target stays attached until the writer has its completion: with frames lost, the ACK
  // of the WRITE's last packet may be lost after the target saw every byte, and the writer's
  // retry must find it there.
  int quit[2];
  ASSERT_EQ(::pipe(quit), 0);
  // The programs are forked before the fabric's thread starts: a child forked from a process
  // with other threads may find an allocator lock held for ever (seen under ASan).
  const pid_t target = forkOnHost("1", [&] {
    ::close(quit[1]);
    waitForSocket(config);
    return testing::writeTarget({}, fds[1], quit[0]);
  });
  ::close(quit[0]);
  const pid_t writer = forkOnHost("2", [&] { return testing::writeWriter({}, fds[0]); });
  RunningFabric fabric(config);
  const bool started = fabric.fabric != nullptr;
  const int writerStatus = started ? exitStatus(writer) : -1;
  // The target may go now.
  [[maybe_unused]] const ssize_t said = ::write(quit[1], "q", 1);
  ::close(quit[1]);
  ASSERT_TRUE(started);
  EXPECT_EQ(writerStatus, 0);
  EXPECT_EQ(exitStatus(target), 0);
  const FabricStats stats = fabric.fabric->stats();
  EXPECT_GT(stats.forwarded, 64u);  // 64 WRITE packets of 1024 bytes and their ACKs
  EXPECT_GT(fs::file_size(config.pcapPath), 24u + 64u * 1024u);
}

TEST(NicFabric, AWriteToAHostWhoseProgramLeftEndsInRetryExceeded) {
  // The target's QP went with its program and nothing answers the WRITE: the writer's QP
  // (timeout 14: 67 ms, retry_cnt 2) sends it three times and completes it with
  // IBV_WC_RETRY_EXC_ERR. (With retry_cnt 7 it would send it for ever: rxe does not count
  // down a retry_cnt of 7, and neither does the simulated NIC.)
  testing::ScratchFolder dir("nic_fabric_gone");
  FabricConfig config = fabricIn(dir);
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  testing::WriteSideOptions o;
  o.targetLeaves = true;
  o.retryCnt = 2;
  o.expect = WcStatus::RetryExcErr;
  o.wait = std::chrono::seconds(10);
  const pid_t target = forkOnHost("1", [&] {
    waitForSocket(config);
    return testing::writeTarget(o, fds[1]);
  });
  int go[2];
  ASSERT_EQ(::pipe(go), 0);
  const pid_t writer = forkOnHost("2", [&] {
    ::close(go[1]);
    return testing::writeWriter(o, fds[0], go[0]);
  });
  ::close(go[0]);
  RunningFabric fabric(config);
  ASSERT_TRUE(fabric.fabric);
  // the writer posts once the target has gone
  EXPECT_EQ(exitStatus(target), 0);
  ASSERT_EQ(::write(go[1], "g", 1), 1);
  ::close(go[1]);
  EXPECT_EQ(exitStatus(writer), 0);  // 26: another status, 27: none within 10 s
}

/// Reads observer events until `done` says so or 20 s pass.
bool readUntil(FabricObserver& o, std::vector<FabricEvent>& seen,
               const std::function<bool()>& done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!done() && std::chrono::steady_clock::now() < deadline) {
    pollfd p{o.fd(), POLLIN, 0};
    ::poll(&p, 1, 100);
    for (auto& e : o.read())
      seen.push_back(std::move(e));
  }
  return done();
}

TEST(NicFabric, AnObserverSeesHostsFramesAndStatesAndSteps) {
  testing::ScratchFolder dir("nic_fabric_observer");
  FabricConfig config = fabricIn(dir);
  // The programs are forked before the fabric's thread starts (a child forked from a process
  // with other threads may find a lock held for ever, and then this test timed out under load),
  // and start once the observer holds the fabric: when `go` has its bytes, or is closed.
  int go[2];
  ASSERT_EQ(::pipe(go), 0);
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const auto waitForGo = [&] {
    ::close(go[1]);
    char c = 0;
    while (::read(go[0], &c, 1) < 0 && errno == EINTR) {
    }
  };
  const pid_t target = forkOnHost("1", [&] {
    waitForGo();
    return testing::writeTarget({}, fds[1]);
  });
  const pid_t writer = forkOnHost("2", [&] {
    waitForGo();
    return testing::writeWriter({}, fds[0]);
  });
  ::close(go[0]);
  // Closed on every way out of the test: the programs never wait for ever.
  const std::unique_ptr<int, void (*)(int*)> goWriter(&go[1], [](int* fd) { ::close(*fd); });
  RunningFabric fabric(config);
  ASSERT_TRUE(fabric.fabric);
  std::string error;
  auto observer = FabricObserver::connect(config.socketPath, error);
  ASSERT_TRUE(observer) << error;
  EXPECT_EQ(observer->info().hosts.size(), 2u);
  observer->pause();  // programs attach to a held fabric: their frames wait at the switch
  ASSERT_EQ(::write(go[1], "gg", 2), 2);
  std::vector<FabricEvent> seen;
  const auto count = [&](FabricEvent::Kind k, bool held = false) {
    return std::count_if(seen.begin(), seen.end(), [&](const FabricEvent& e) {
      return e.kind == k && (k != FabricEvent::Kind::Frame || e.held == held);
    });
  };
  // the WRITE's packets reach the switch and are held there
  EXPECT_TRUE(
      readUntil(*observer, seen, [&] { return count(FabricEvent::Kind::Frame, true) >= 64; }));
  EXPECT_EQ(count(FabricEvent::Kind::Attached), 2);
  EXPECT_EQ(fabric.fabric->stats().forwarded, 0u);
  // the writer's state with its MR and its QP in RTS (sent at the latest with the post's state)
  const auto rtsWithMr = [](const FabricEvent& e) {
    return e.kind == FabricEvent::Kind::State && e.state.host == 2 && !e.state.qps.empty() &&
           e.state.qps[0].state == QpState::Rts && !e.state.mrs.empty();
  };
  EXPECT_TRUE(readUntil(*observer, seen, [&] {
    return std::find_if(seen.begin(), seen.end(), rtsWithMr) != seen.end();
  })) << "no state of host 2 with an MR and its QP in RTS";
  observer->stepFrame();
  EXPECT_TRUE(readUntil(*observer, seen, [&] { return fabric.fabric->stats().forwarded == 1; }));
  observer->resume();
  EXPECT_EQ(exitStatus(writer), 0);
  EXPECT_EQ(exitStatus(target), 0);
  EXPECT_TRUE(readUntil(*observer, seen, [&] { return count(FabricEvent::Kind::Detached) == 2; }));
  EXPECT_EQ(count(FabricEvent::Kind::Paused), 1);
  EXPECT_EQ(count(FabricEvent::Kind::Resumed), 1);
}

TEST(NicFabric, AttachRefusalsAreOneLine) {
  testing::ScratchFolder dir("nic_fabric_refusals");
  FabricConfig config;
  config.socketPath = dir / "fabric.sock";
  config.hosts = 2;
  RunningFabric fabric(config);
  ASSERT_TRUE(fabric.fabric);
  const auto attachIn = [&](const char* host) {
    int fds[2];
    EXPECT_EQ(::pipe(fds), 0);
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::setenv(kFabricEnv, config.socketPath.c_str(), 1);
      ::setenv(kHostEnv, host, 1);
      std::string error;
      Nic* nic = Nic::get(error);
      ::write(fds[1], error.data(), error.size());
      ::_exit(nic ? 0 : 1);
    }
    ::close(fds[1]);
    char buf[512] = {};
    const ssize_t n = ::read(fds[0], buf, sizeof buf - 1);
    ::close(fds[0]);
    exitStatus(pid);
    return std::string(buf, n > 0 ? static_cast<std::size_t>(n) : 0);
  };
  EXPECT_EQ(attachIn("3"), "rdmascope: host 3 does not exist: the fabric has hosts 1..2");
  EXPECT_EQ(attachIn("x"), "rdmascope: RDMASCOPE_HOST=x is not a host number (1..254)");
  config.socketPath = dir / "none.sock";
  ::setenv(kFabricEnv, config.socketPath.c_str(), 1);
  std::string error;
  // a second fabric on a socket in use is refused
  FabricConfig again = fabric.fabric->config();
  EXPECT_FALSE(Fabric::open(again, error));
  EXPECT_EQ(error, "a fabric is already running at " + again.socketPath);
}

}  // namespace
}  // namespace rdmascope::simdev
