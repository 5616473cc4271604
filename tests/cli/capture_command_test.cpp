// rdmascope-cli capture on the loopback interface with real UDP traffic to port 4791.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "../support/oracle.h"
#include "cli_runner.h"
#include "rdmascope/packets_io/capture_reader.h"

namespace rdmascope::cli::test {
namespace {

// Starts the CLI in the background with output in files; the caller waits with finish().
struct Background {
  pid_t pid = -1;
  std::string outPath = tempPath("cap_out"), errPath = tempPath("cap_err");

  explicit Background(const std::vector<std::string>& args) {
    pid = fork();
    if (pid == 0) {
      const int out = ::open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      const int err = ::open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      ::dup2(out, 1);
      ::dup2(err, 2);
      std::vector<char*> argv;
      argv.push_back(const_cast<char*>(RDMASCOPE_CLI));
      for (const auto& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      ::execv(RDMASCOPE_CLI, argv.data());
      _exit(127);
    }
  }
  bool running() {
    if (pid <= 0) return false;
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      pid = -1;
    }
    return pid > 0;
  }
  RunResult finish() {
    while (running())
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    RunResult r{exitCode, readFile(outPath), readFile(errPath)};
    std::remove(outPath.c_str());
    std::remove(errPath.c_str());
    return r;
  }
  int exitCode = -1;
};

// Runs a capture on lo while sending UDP datagrams to 127.0.0.1:4791 from a socket of its own.
// `args` may hold "{PORT}" for that socket's source port: tests running at the same time send
// to 4791 too, so each capture keeps only its own datagrams with -Y udp.srcport == PORT.
RunResult captureWhileSending(std::vector<std::string> args) {
  const int sock = ::socket(AF_INET, SOCK_DGRAM, 0);
  sockaddr_in self{};
  self.sin_family = AF_INET;
  self.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof self;
  if (::bind(sock, reinterpret_cast<sockaddr*>(&self), sizeof self) != 0 ||
      ::getsockname(sock, reinterpret_cast<sockaddr*>(&self), &len) != 0)
    return {-1, "", "cannot bind a UDP socket"};
  const std::string port = std::to_string(ntohs(self.sin_port));
  for (auto& a : args)
    for (std::size_t at; (at = a.find("{PORT}")) != std::string::npos;)
      a.replace(at, 6, port);
  Background cli(args);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(4791);
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  // A BTH of SEND ONLY to QP 0x11, four payload bytes and an ICRC field.
  const std::uint8_t payload[] = {0x04, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x11, 0x80, 0x00,
                                  0x00, 0x01, 0xde, 0xad, 0xbe, 0xef, 0,    0,    0,    0};
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (cli.running() && std::chrono::steady_clock::now() < deadline) {
    // Send only once the capture is active (it says so on stderr).
    if (readFile(cli.errPath).find("Capturing on") != std::string::npos)
      ::sendto(sock, payload, sizeof payload, 0, reinterpret_cast<sockaddr*>(&to), sizeof to);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ::close(sock);
  if (cli.running()) ::kill(cli.pid, SIGTERM);
  return cli.finish();
}

std::string skipReason(const RunResult& r) {
  if (r.exitCode == 2 && (r.err.find("no permission") != std::string::npos ||
                          r.err.find("no such capture interface") != std::string::npos ||
                          r.err.find("cannot capture") != std::string::npos))
    return "live capture impossible here: " + r.err;
  return {};
}

TEST(CaptureCommand, ListsInterfacesIncludingLoopback) {
  const auto r = runCli({"capture", "-D"});
  if (r.exitCode != 0)
    return rdmascope::testing::reportMissingOracle("the capture interface list (" + r.err + ")");
  EXPECT_NE(r.out.find(". lo"), std::string::npos) << r.out;
}

TEST(CaptureCommand, DecodesRealUdpTrafficOnLoopback) {
  const std::string pcap = tempPath("live.pcap");
  const auto r = captureWhileSending(
      {"capture", "-i", "lo", "-c", "3", "-w", pcap, "-a", "15", "-Y", "udp.srcport == {PORT}"});
  if (auto why = skipReason(r); !why.empty()) return rdmascope::testing::reportMissingOracle(why);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto l = lines(r.out);
  ASSERT_EQ(l.size(), 3u) << r.out << r.err;
  for (const auto& line : l) {
    EXPECT_NE(line.find("127.0.0.1 \u2192 127.0.0.1"), std::string::npos) << line;
    // The datagrams carry a BTH (SEND Only) after UDP port 4791: decoded as RoCEv2. Their ICRC
    // cannot be known in advance (the kernel picks the IP identification), so it shows bad.
    EXPECT_NE(line.find("RRoCE"), std::string::npos) << line;
    EXPECT_NE(line.find("RC SEND Only"), std::string::npos) << line;
  }
  EXPECT_NE(r.err.find("3 packets captured"), std::string::npos) << r.err;
  // The -w file holds the same three frames.
  std::string error;
  auto reader = packets_io::CaptureReader::open(pcap, error);
  ASSERT_TRUE(reader) << error;
  packets_io::CapturedFrame f;
  int n = 0;
  while (reader->next(f)) {
    ++n;
    EXPECT_EQ(f.data.size(), 14u + 20 + 8 + 20);
  }
  EXPECT_EQ(n, 3);
  EXPECT_TRUE(reader->error().empty()) << reader->error();
  std::remove(pcap.c_str());
}

TEST(CaptureCommand, DisplayFilterAndFieldsApplyToLiveFrames) {
  const auto r =
      captureWhileSending({"capture", "-i", "lo", "-c", "2", "-a", "15", "-Y",
                           "udp.dstport == 4791 && ip.src == 127.0.0.1 && udp.srcport == {PORT}",
                           "-T", "fields", "-e", "udp.dstport", "-e", "ip.dst"});
  if (auto why = skipReason(r); !why.empty()) return rdmascope::testing::reportMissingOracle(why);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, "4791\t127.0.0.1\n4791\t127.0.0.1\n");
}

TEST(CaptureCommand, ErrorsAreOneLine) {
  auto r = runCli({"capture"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err, "rdmascope-cli: capture needs -i INTERFACE (-D lists them)\n");
  r = runCli({"capture", "-i", "nosuchif0", "-c", "1"});
  if (r.err.find("no permission") != std::string::npos)
    return rdmascope::testing::reportMissingOracle("live capture permission (" + r.err + ")");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err,
            "rdmascope-cli: no such capture interface: nosuchif0 (rdmascope-cli capture -D lists "
            "them)\n");
  r = runCli({"capture", "-i", "lo", "-f", "udp portt 4791"});
  if (auto why = skipReason(r); !why.empty() && why.find("filter") == std::string::npos)
    return rdmascope::testing::reportMissingOracle(why);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err.rfind("rdmascope-cli: invalid capture filter 'udp portt 4791': ", 0), 0u)
      << r.err;
  EXPECT_EQ(lines(r.err).size(), 1u);
}

}  // namespace
}  // namespace rdmascope::cli::test
