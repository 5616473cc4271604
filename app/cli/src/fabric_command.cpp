// `rdmascope-cli fabric` (the simulated fabric that unmodified verbs programs attach to) and
// `rdmascope-cli exec` (run a program attached to one of its hosts).
#include <fmt/format.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>

#include "commands.h"
#include "numeric_options.h"
#include "output_options.h"
#include "rdmascope/cli/cli.h"
#include "rdmascope/install/install_paths.h"
#include "rdmascope/simdev/fabric.h"
#include "rdmascope/simdev/fabric_protocol.h"

namespace rdmascope::cli {
namespace {

namespace fs = std::filesystem;

struct FabricArgs {
  std::string socket;
  int hosts = 2;
  double loss = 0;
  std::uint64_t seed = 1;
  std::string wire = "rocev2";
  unsigned mtu = 1500;
  std::string pcap;
};

struct ExecArgs {
  std::string socket;
  int host = 0;
  bool env = false;
  bool sniff = false;
  std::vector<std::string> command;
};

simdev::Fabric* g_running = nullptr;

void stopOnSignal(int) {
  if (g_running) g_running->stop();
}

std::string ipText(std::uint32_t ip) {
  return fmt::format("{}.{}.{}.{}", ip >> 24, (ip >> 16) & 0xff, (ip >> 8) & 0xff, ip & 0xff);
}

std::string gidText(const simdev::FabricHost& h, sim::WireFormat wire) {
  if (wire == sim::WireFormat::RoceV2Ipv4) return "::ffff:" + ipText(h.ipv4);
  return fmt::format("fd00::a09:{:x}", h.number);
}

int runFabric(const FabricArgs& a, std::ostream& out, std::ostream& err) {
  simdev::FabricConfig config;
  config.socketPath = a.socket;
  config.hosts = a.hosts;
  config.lossRate = a.loss;
  config.seed = a.seed;
  config.wire = a.wire == "rocev2-ipv6" ? sim::WireFormat::RoceV2Ipv6
                : a.wire == "rocev1"    ? sim::WireFormat::RoceV1
                                        : sim::WireFormat::RoceV2Ipv4;
  config.linkMtu = a.mtu;
  config.pcapPath = a.pcap;
  std::string error;
  auto fabric = simdev::Fabric::open(config, error);
  if (!fabric) {
    reportError(err, error);
    return kExitFailure;
  }
  const auto& c = fabric->config();
  out << fmt::format("fabric: {} hosts on one switch, {}, link MTU {}, loss {}\n", c.hosts,
                     sim::toString(c.wire), c.linkMtu, c.lossRate);
  out << "programs attach at " << c.socketPath << "\n";
  for (int i = 1; i <= c.hosts; ++i) {
    const simdev::FabricHost h = simdev::fabricHost(i);
    out << fmt::format("  host {:<3} {:<12} rdmascope0  GID[1] {}\n", i, ipText(h.ipv4),
                       gidText(h, c.wire));
  }
  out << "run a program on host N:  rdmascope-cli exec";
  if (!a.socket.empty()) out << " --fabric " << c.socketPath;
  out << " --host N -- PROGRAM ARGS...\n";
  if (!c.pcapPath.empty()) out << "capture: " << c.pcapPath << " (written as it grows)\n";
  out << "stop with Ctrl-C" << std::endl;
  g_running = fabric.get();
  struct sigaction sa {};
  sa.sa_handler = stopOnSignal;
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
  fabric->run([&](const std::string& line) { out << line << std::endl; });
  g_running = nullptr;
  const simdev::FabricStats s = fabric->stats();
  out << fmt::format("fabric stopped: {} frames, {} forwarded, {} lost, {} to no attached host\n",
                     s.frames, s.forwarded, s.lost, s.unroutable);
  return kExitOk;
}

/// Asks the fabric about host `host`; on failure returns a one-line error.
std::optional<nlohmann::json> queryFabric(const std::string& path, int host, std::string& error) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.size() >= sizeof addr.sun_path) {
    error = fmt::format("the fabric socket path {} is too long", path);
    return std::nullopt;
  }
  std::strcpy(addr.sun_path, path.c_str());
  const int fd = ::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
  if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    error = fmt::format("no fabric at {} ({}): start one with `rdmascope-cli fabric`", path,
                        std::strerror(errno));
    if (fd >= 0) ::close(fd);
    return std::nullopt;
  }
  const auto q = simdev::encodeMessage(simdev::MessageType::Query, nlohmann::json{{"host", host}});
  std::vector<std::uint8_t> buf(simdev::kMaxMessage);
  timeval tv{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  const bool sent = ::send(fd, q.data(), q.size(), MSG_NOSIGNAL) >= 0;
  const ssize_t n = sent ? ::recv(fd, buf.data(), buf.size(), 0) : -1;
  ::close(fd);
  const auto msg = n > 0 ? simdev::decodeMessage(std::span(buf.data(), static_cast<std::size_t>(n)))
                         : std::nullopt;
  auto body = msg && msg->type == simdev::MessageType::Status ? simdev::jsonBody(*msg, error)
                                                              : std::nullopt;
  if (!body) error = fmt::format("the fabric at {} did not answer", path);
  return body;
}

int runExec(const ExecArgs& a, std::ostream& out, std::ostream& err) {
  const std::string path = a.socket.empty() ? simdev::defaultFabricSocket() : a.socket;
  std::string error;
  const auto status = queryFabric(path, a.host, error);
  if (!status) {
    reportError(err, error);
    return kExitFailure;
  }
  const int hosts = status->value("hosts", 0);
  if (a.host > hosts) {
    reportError(err, fmt::format("host {} does not exist: the fabric at {} has hosts 1..{}", a.host,
                                 path, hosts));
    return kExitFailure;
  }
  if (!a.sniff && status->value("taken", false)) {
    reportError(err,
                fmt::format("host {} is taken by {} (pid {})", a.host,
                            status->value("program", std::string("?")), status->value("pid", 0L)));
    return kExitFailure;
  }
  const fs::path self = install::programDir();
  const auto libs = install::findSimdevLibDir(self);
  if (!libs) {
    reportError(err, fmt::format("the drop-in libibverbs.so.1 is neither installed nor built "
                                 "beside {} (build the rdmascope_ibverbs target)",
                                 self.string()));
    return kExitFailure;
  }
  std::string libraryPath = libs->string();
  if (const char* old = std::getenv("LD_LIBRARY_PATH"); old && *old) {
    libraryPath += ':';
    libraryPath += old;
  }
  if (a.env) {
    out << "export " << simdev::kFabricEnv << "=" << path << "\n";
    out << "export " << simdev::kHostEnv << "=" << a.host << "\n";
    if (a.sniff) out << "export " << simdev::kSniffEnv << "=1\n";
    out << "export LD_LIBRARY_PATH=" << libraryPath << "\n";
    return kExitOk;
  }
  if (a.command.empty()) {
    reportError(err, "no program given: rdmascope-cli exec --host N -- PROGRAM ARGS...");
    return kExitUsage;
  }
  const std::string& program = a.command.front();
  if (program.find('/') == std::string::npos) {
    bool found = false;
    const char* p = std::getenv("PATH");
    std::string dirs = p ? p : "/usr/bin:/bin";
    for (std::size_t start = 0; start <= dirs.size() && !found;) {
      const std::size_t end = std::min(dirs.find(':', start), dirs.size());
      const fs::path candidate = fs::path(dirs.substr(start, end - start)) / program;
      found = ::access(candidate.c_str(), X_OK) == 0;
      start = end + 1;
    }
    if (!found) {
      reportError(err, fmt::format("{}: program not found in PATH", program));
      return kExitFailure;
    }
  } else if (::access(program.c_str(), X_OK) != 0) {
    reportError(err, fmt::format("{}: {}", program, std::strerror(errno)));
    return kExitFailure;
  }
  ::setenv(simdev::kFabricEnv, path.c_str(), 1);
  ::setenv(simdev::kHostEnv, std::to_string(a.host).c_str(), 1);
  if (a.sniff) {
    ::setenv(simdev::kSniffEnv, "1", 1);
  } else {
    ::unsetenv(simdev::kSniffEnv);
  }
  ::setenv("LD_LIBRARY_PATH", libraryPath.c_str(), 1);
  out.flush();
  std::vector<char*> argv;
  for (const std::string& s : a.command)
    argv.push_back(const_cast<char*>(s.c_str()));
  argv.push_back(nullptr);
  ::execvp(argv[0], argv.data());
  reportError(err, fmt::format("{}: {}", program, std::strerror(errno)));
  return kExitFailure;
}

}  // namespace

void addFabricCommand(CLI::App& app, Action& action) {
  auto a = std::make_shared<FabricArgs>();
  CLI::App* c = app.add_subcommand(
      "fabric",
      "Run the simulated fabric: N hosts on one switch that unmodified verbs programs attach "
      "to with `exec` (no kernel module, no NIC)");
  c->add_option("--socket", a->socket,
                "Where programs attach (default $XDG_RUNTIME_DIR/rdmascope/fabric.sock or "
                "/tmp/rdmascope-UID/fabric.sock)");
  checkRange(c->add_option("--hosts", a->hosts, "Number of hosts (10.9.0.1 ... 10.9.0.N)"),
             IntegerRange{1, 254});
  checkRange(c->add_option("--loss", a->loss, "Probability that the switch loses a frame"),
             kLossRange);
  checkRange(c->add_option("--seed", a->seed, "Seed of the loss draws"), kSeedRange);
  c->add_option("--wire", a->wire, "Wire format")
      ->check(CLI::IsMember({"rocev2", "rocev2-ipv6", "rocev1"}));
  checkRange(c->add_option("--mtu", a->mtu, "Link MTU (1500: active MTU 1024; 9000: 4096)"),
             IntegerRange{576, 9000});
  c->add_option("--pcap", a->pcap,
                "Write every frame to this new pcap file as it goes (follow it with tshark)");
  c->callback([a, &action] {
    action = [a](std::ostream& out, std::ostream& err) { return runFabric(*a, out, err); };
  });

  auto e = std::make_shared<ExecArgs>();
  CLI::App* x = app.add_subcommand(
      "exec",
      "Run a verbs program attached to one host of a running fabric: sets "
      "RDMASCOPE_FABRIC, RDMASCOPE_HOST and LD_LIBRARY_PATH (the drop-in libibverbs and "
      "librdmacm), then runs it");
  x->add_option("--fabric", e->socket, "The fabric's socket (as `fabric --socket`)");
  checkRange(x->add_option("--host", e->host, "The host to attach to (1..N)")->required(),
             IntegerRange{1, 254});
  x->add_flag("--env", e->env,
              "Print the environment to run a program by hand instead of running one");
  x->add_flag("--sniff", e->sniff,
              "Attach as a sniffer of the host's port (a raw-packet QP with a sniffer flow "
              "sees every frame it sends and receives), beside the program that holds the host");
  x->add_option("command", e->command, "-- PROGRAM ARGS...");
  x->callback([e, &action] {
    action = [e](std::ostream& out, std::ostream& err) { return runExec(*e, out, err); };
  });
}

}  // namespace rdmascope::cli
