#include "rdmascope/packets_io/live_capture.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "../support/oracle.h"

namespace rdmascope::packets_io {
namespace {

// Opens a capture on lo or ends the test with the reason it cannot run here (a skip, or a
// failure under RDMASCOPE_REQUIRE_ORACLES=1).
#define OPEN_LO_OR_SKIP(var, bpf)                                                      \
  std::string openError;                                                               \
  LiveOptions liveOptions;                                                             \
  liveOptions.filter = bpf;                                                            \
  auto var = LiveCapture::open("lo", openError, liveOptions);                          \
  if (!var) {                                                                          \
    rdmascope::testing::reportMissingOracle("live capture on lo (" + openError + ")"); \
    return;                                                                            \
  }

// A UDP socket on 127.0.0.1 with a port of its own, so that a capture can filter on it while
// other tests send to 4791 at the same time.
struct Sender {
  int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
  std::uint16_t port = 0;
  Sender() {
    sockaddr_in self{};
    self.sin_family = AF_INET;
    self.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof self;
    ::bind(fd, reinterpret_cast<sockaddr*>(&self), sizeof self);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&self), &len);
    port = ntohs(self.sin_port);
  }
  ~Sender() { ::close(fd); }
  void send(std::uint16_t to, const std::string& payload) const {
    sockaddr_in dst{};
    dst.sin_family = AF_INET;
    dst.sin_port = htons(to);
    dst.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::sendto(fd, payload.data(), payload.size(), 0, reinterpret_cast<sockaddr*>(&dst), sizeof dst);
  }
};

TEST(LiveCapture, ListsLoopbackWithADescription) {
  std::string error;
  const auto list = LiveCapture::listInterfaces(error);
  ASSERT_EQ(error, "");
  const auto lo = std::find_if(list.begin(), list.end(), [](auto& i) { return i.name == "lo"; });
  ASSERT_NE(lo, list.end());
  EXPECT_TRUE(lo->loopback);
  EXPECT_FALSE(lo->description.empty());
  EXPECT_NE(std::find(lo->addresses.begin(), lo->addresses.end(), "127.0.0.1"),
            lo->addresses.end());
}

TEST(LiveCapture, CapturesUdpOnLoopbackThroughTheDefaultFilter) {
  const Sender sender;
  OPEN_LO_OR_SKIP(capture, "(" + std::string(kDefaultCaptureFilter) + ") and udp src port " +
                               std::to_string(sender.port));
  EXPECT_EQ(capture->linkType(), packets::LinkType::Ethernet);
  sender.send(4790, "not matched by the filter");
  sender.send(4791, "hello roce");
  FrameView v;
  ASSERT_EQ(capture->next(v, 5000), LiveCapture::Result::Frame) << capture->error();
  ASSERT_EQ(v.data.size(), 14u + 20 + 8 + 10);
  EXPECT_EQ(std::string(v.data.begin() + 42, v.data.end()), "hello roce");
  EXPECT_EQ(v.data[36], 0x12);  // destination port 4791 = 0x12b7
  EXPECT_EQ(v.data[37], 0xb7);
  EXPECT_GT(v.timestampNs, 1'600'000'000'000'000'000);
  EXPECT_EQ(capture->next(v, 100), LiveCapture::Result::Timeout);
}

TEST(LiveCapture, TimeoutAndStopFromAnotherThread) {
  OPEN_LO_OR_SKIP(capture, "udp port 9");  // nothing sends to the discard port
  FrameView v;
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(capture->next(v, 150), LiveCapture::Result::Timeout);
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(140));
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    capture->stop();
  });
  t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(capture->next(v, -1), LiveCapture::Result::Stopped);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2));
  stopper.join();
}

TEST(LiveCapture, MissingInterfaceAndBadFilterAreOneLineErrors) {
  std::string error;
  EXPECT_FALSE(LiveCapture::open("nosuchif0", error));
  if (error.find("no permission") != std::string::npos)
    return rdmascope::testing::reportMissingOracle("live capture permission (" + error + ")");
  EXPECT_EQ(error, "no such capture interface: nosuchif0 (rdmascope-cli capture -D lists them)");
  LiveOptions o;
  o.filter = "udp prot 1";
  EXPECT_FALSE(LiveCapture::open("lo", error, o));
  EXPECT_EQ(error.rfind("invalid capture filter 'udp prot 1': ", 0), 0u) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos);
}

// Drops to an unprivileged user in a child process and checks the advice it gets.
TEST(LiveCapture, NoPermissionSaysHowToGetIt) {
  if (::geteuid() != 0) {
    std::string error;
    if (LiveCapture::open("lo", error)) GTEST_SKIP() << "capturing works without root here";
    EXPECT_EQ(error,
              "no permission to capture on lo: run as root or grant CAP_NET_RAW and "
              "CAP_NET_ADMIN (setcap cap_net_raw,cap_net_admin=eip rdmascope-cli)");
    return;
  }
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    if (::setgid(65534) != 0 || ::setuid(65534) != 0) _exit(3);
    std::string error;
    auto c = LiveCapture::open("lo", error);
    [[maybe_unused]] auto n = ::write(fds[1], error.data(), error.size());
    _exit(c ? 1 : 0);
  }
  ::close(fds[1]);
  std::string error;
  char buf[512];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;)
    error.append(buf, buf + n);
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_NE(WEXITSTATUS(status), 3) << "cannot drop privileges";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "an unprivileged user could capture";
  EXPECT_EQ(error,
            "no permission to capture on lo: run as root or grant CAP_NET_RAW and CAP_NET_ADMIN "
            "(setcap cap_net_raw,cap_net_admin=eip rdmascope-cli)");
}

}  // namespace
}  // namespace rdmascope::packets_io
