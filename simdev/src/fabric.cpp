#include "rdmascope/simdev/fabric.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>

#include "rdmascope/packets_io/capture_writer.h"
#include "rdmascope/packets_io/output_file.h"
#include "rdmascope/simdev/fabric_protocol.h"

namespace rdmascope::simdev {

namespace {

struct Client {
  int fd = -1;
  int host = 0;  ///< 0 until attached
  std::string program;
  long pid = 0;
};

std::string errnoText(int e) {
  return std::strerror(e);
}

/// Creates the default socket's folder (private to the user) when it is missing.
bool makeParent(const std::string& path, std::string& error) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos || slash == 0) return true;
  const std::string dir = path.substr(0, slash);
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return true;
    error = fmt::format("cannot create the fabric socket {}: {} is not a folder", path, dir);
    return false;
  }
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    error = fmt::format("cannot create the fabric socket {}: {}: {}", path, dir, errnoText(errno));
    return false;
  }
  return true;
}

}  // namespace

struct Fabric::Impl {
  FabricConfig config;
  int listenFd = -1;
  int stopPipe[2] = {-1, -1};
  std::unique_ptr<packets_io::CaptureWriter> pcap;
  std::vector<Client> clients;
  std::map<int, std::size_t> hostClient;  ///< host number -> index in clients
  std::mt19937_64 rng;
  mutable std::mutex statsMu;
  FabricStats stats;
  std::vector<std::uint8_t> buf = std::vector<std::uint8_t>(kMaxMessage);

  ~Impl() {
    for (const Client& c : clients)
      ::close(c.fd);
    if (listenFd >= 0) {
      ::close(listenFd);
      ::unlink(config.socketPath.c_str());
    }
    for (int fd : stopPipe) {
      if (fd >= 0) ::close(fd);
    }
  }

  FabricInfo infoFor(int host) const {
    FabricInfo info;
    info.self = host;
    info.deviceName = "rdmascope0";
    info.wire = config.wire;
    info.linkMtu = config.linkMtu;
    for (int i = 1; i <= config.hosts; ++i)
      info.hosts.push_back(fabricHost(i));
    return info;
  }
};

std::unique_ptr<Fabric> Fabric::open(const FabricConfig& config, std::string& error) {
  std::unique_ptr<Fabric> f(new Fabric());
  f->impl_ = std::make_unique<Impl>();
  Impl& m = *f->impl_;
  m.config = config;
  if (m.config.socketPath.empty()) m.config.socketPath = defaultFabricSocket();
  const std::string& path = m.config.socketPath;
  if (config.hosts < 1 || config.hosts > 254) {
    error = fmt::format("--hosts {} is outside 1..254", config.hosts);
    return nullptr;
  }
  if (!(config.lossRate >= 0.0 && config.lossRate <= 1.0)) {
    error = fmt::format("--loss {} is outside 0..1", config.lossRate);
    return nullptr;
  }
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.size() >= sizeof addr.sun_path) {
    error = fmt::format("the fabric socket path {} is longer than {} bytes", path,
                        sizeof addr.sun_path - 1);
    return nullptr;
  }
  std::strcpy(addr.sun_path, path.c_str());
  if (!makeParent(path, error)) return nullptr;
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode)) {
      error = fmt::format("{} exists and is not a socket: choose another --socket", path);
      return nullptr;
    }
    const int probe = ::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    const bool running =
        probe >= 0 && ::connect(probe, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    if (probe >= 0) ::close(probe);
    if (running) {
      error = fmt::format("a fabric is already running at {}", path);
      return nullptr;
    }
    ::unlink(path.c_str());  // a socket left by a fabric that ended without cleaning up
  }
  if (!config.pcapPath.empty()) {
    auto file = packets_io::OutputFile::createGrowing(config.pcapPath, error);
    if (!file) return nullptr;
    m.pcap = packets_io::CaptureWriter::open(std::move(file), packets::LinkType::Ethernet, error);
    if (!m.pcap) return nullptr;
    m.pcap->flush();
  }
  m.listenFd = ::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (m.listenFd < 0 || ::bind(m.listenFd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(m.listenFd, 64) != 0) {
    error = fmt::format("cannot listen on {}: {}", path, errnoText(errno));
    if (m.listenFd >= 0) ::close(m.listenFd);
    m.listenFd = -1;
    return nullptr;
  }
  ::chmod(path.c_str(), 0600);
  if (::pipe2(m.stopPipe, O_CLOEXEC | O_NONBLOCK) != 0) {
    error = fmt::format("cannot create a pipe: {}", errnoText(errno));
    return nullptr;
  }
  m.rng.seed(config.seed);
  return f;
}

Fabric::~Fabric() {
  if (impl_ && impl_->pcap) impl_->pcap->close();
}

const FabricConfig& Fabric::config() const {
  return impl_->config;
}

FabricStats Fabric::stats() const {
  std::lock_guard g(impl_->statsMu);
  return impl_->stats;
}

void Fabric::stop() {
  const char c = 1;
  [[maybe_unused]] const ssize_t r = ::write(impl_->stopPipe[1], &c, 1);
}

void Fabric::run(const std::function<void(const std::string&)>& log) {
  Impl& m = *impl_;
  const auto send = [](int fd, const std::vector<std::uint8_t>& msg) {
    return ::send(fd, msg.data(), msg.size(), MSG_NOSIGNAL | MSG_DONTWAIT) >= 0;
  };
  const auto drop = [&](std::size_t i) {
    Client& c = m.clients[i];
    if (c.host > 0) {
      log(fmt::format("host{} detached ({} {})", c.host, c.program, c.pid));
      m.hostClient.erase(c.host);
    }
    ::close(c.fd);
    m.clients.erase(m.clients.begin() + static_cast<std::ptrdiff_t>(i));
    for (auto& [host, index] : m.hostClient) {
      if (index > i) --index;
    }
  };
  const auto refuse = [&](int fd, const std::string& why) {
    send(fd, encodeMessage(MessageType::Refused, nlohmann::json{{"error", why}}));
  };
  for (;;) {
    std::vector<pollfd> fds;
    fds.push_back({m.stopPipe[0], POLLIN, 0});
    fds.push_back({m.listenFd, POLLIN, 0});
    for (const Client& c : m.clients)
      fds.push_back({c.fd, POLLIN, 0});
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      log(fmt::format("poll failed: {}", errnoText(errno)));
      return;
    }
    if (fds[0].revents) return;
    if (fds[1].revents & POLLIN) {
      for (;;) {
        const int fd = ::accept4(m.listenFd, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0) break;
        int size = 4 << 20;
        ::setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
        Client fresh;
        fresh.fd = fd;
        m.clients.push_back(std::move(fresh));
      }
    }
    // Clients in poll order; a client removed while serving shifts the rest, so walk by fd.
    std::vector<int> ready;
    for (std::size_t i = 2; i < fds.size(); ++i) {
      if (fds[i].revents) ready.push_back(fds[i].fd);
    }
    for (const int fd : ready) {
      std::size_t i = 0;
      while (i < m.clients.size() && m.clients[i].fd != fd)
        ++i;
      if (i == m.clients.size()) continue;
      bool gone = false;
      for (int burst = 0; burst < 256 && !gone; ++burst) {
        const ssize_t n = ::recv(fd, m.buf.data(), m.buf.size(), MSG_DONTWAIT);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
          gone = true;
          break;
        }
        const auto msg = decodeMessage(std::span(m.buf.data(), static_cast<std::size_t>(n)));
        Client& c = m.clients[i];
        if (!msg) continue;
        if (msg->type == MessageType::Frame && c.host > 0) {
          const auto frame = msg->body;
          const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count();
          if (m.pcap) {
            if (!m.pcap->write(frame, ns) || !m.pcap->flush()) {
              log(fmt::format("the capture stopped: {}", m.pcap->error()));
              m.pcap.reset();
            }
          }
          std::lock_guard g(m.statsMu);
          ++m.stats.frames;
          if (m.config.lossRate > 0 &&
              std::uniform_real_distribution<double>(0, 1)(m.rng) < m.config.lossRate) {
            ++m.stats.lost;
            continue;
          }
          // MAC 02:00:0a:09:00:NN belongs to host NN (fabricHost())
          int to = 0;
          if (frame.size() >= 14 && frame[0] == 0x02 && frame[1] == 0 && frame[2] == 0x0a &&
              frame[3] == 0x09 && frame[4] == 0 && m.hostClient.count(frame[5])) {
            to = frame[5];
          }
          if (to == 0) {
            ++m.stats.unroutable;
            continue;
          }
          const int dst = m.clients[m.hostClient.at(to)].fd;
          std::uint8_t type = static_cast<std::uint8_t>(MessageType::Frame);
          iovec iov[2] = {{&type, 1}, {const_cast<std::uint8_t*>(frame.data()), frame.size()}};
          msghdr out{};
          out.msg_iov = iov;
          out.msg_iovlen = 2;
          if (::sendmsg(dst, &out, MSG_NOSIGNAL | MSG_DONTWAIT) >= 0) {
            ++m.stats.forwarded;
          } else {
            ++m.stats.lost;  // the host's queue is full: the switch drops, as a real one does
          }
          continue;
        }
        std::string why;
        const auto body = jsonBody(*msg, why);
        if (!body) {
          gone = true;
          log(fmt::format("a client sent a malformed message ({}): disconnected", why));
          break;
        }
        if (msg->type == MessageType::Log && c.host > 0) {
          const auto line = body->find("line");
          if (line != body->end() && line->is_string()) log(line->get<std::string>());
        } else if (msg->type == MessageType::Query) {
          const auto h = body->find("host");
          const int host = h != body->end() && h->is_number_integer() ? h->get<int>() : 0;
          nlohmann::json status = {{"hosts", m.config.hosts},
                                   {"taken", m.hostClient.count(host) > 0}};
          if (m.hostClient.count(host)) {
            const Client& owner = m.clients[m.hostClient.at(host)];
            status["program"] = owner.program;
            status["pid"] = owner.pid;
          }
          send(fd, encodeMessage(MessageType::Status, status));
          gone = true;
        } else if (msg->type == MessageType::Attach && c.host == 0) {
          const auto h = body->find("host");
          const int host = h != body->end() && h->is_number_integer() ? h->get<int>() : 0;
          const auto p = body->find("program");
          const auto pid = body->find("pid");
          c.program = p != body->end() && p->is_string() ? p->get<std::string>() : "?";
          c.pid = pid != body->end() && pid->is_number_integer() ? pid->get<long>() : 0;
          if (host < 1 || host > m.config.hosts) {
            refuse(fd, fmt::format("host {} does not exist: the fabric has hosts 1..{}", host,
                                   m.config.hosts));
            gone = true;
          } else if (m.hostClient.count(host)) {
            const Client& owner = m.clients[m.hostClient.at(host)];
            refuse(fd,
                   fmt::format("host {} is taken by {} (pid {})", host, owner.program, owner.pid));
            gone = true;
          } else {
            c.host = host;
            m.hostClient[host] = i;
            send(fd, encodeMessage(MessageType::Welcome, toJson(m.infoFor(host))));
            log(fmt::format("host{} attached: {} (pid {})", host, c.program, c.pid));
          }
        }
      }
      if (gone) drop(i);
    }
  }
}

}  // namespace rdmascope::simdev
