#include "rdmascope/simdev/fabric.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>

#include "rdmascope/packets_io/capture_writer.h"
#include "rdmascope/packets_io/output_file.h"
#include "rdmascope/simdev/fabric_protocol.h"
#include "rdmascope/simdev/frame_rings.h"

namespace rdmascope::simdev {

namespace {

struct Client {
  int fd = -1;
  int host = 0;  ///< 0 until attached
  std::string program;
  long pid = 0;
  bool observer = false;
  int sniffs = 0;      ///< the host whose port this client sniffs (0: none)
  bool stuck = false;  ///< a sniffer that took no frame for 2 s (dropped after the pass)
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
  std::unique_ptr<FrameRings> rings;
  std::vector<Client> clients;
  std::map<int, std::size_t> hostClient;  ///< host number -> index in clients
  std::mt19937_64 rng;
  std::vector<std::uint8_t> buf = std::vector<std::uint8_t>(kMaxMessage);
  bool paused = false;
  std::vector<std::vector<std::uint8_t>> held;  ///< frames waiting while paused

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
    std::error_code ec;
    if (std::filesystem::weakly_canonical(config.pcapPath, ec) ==
        std::filesystem::weakly_canonical(path, ec)) {
      error = fmt::format("--pcap {} is the fabric's socket: choose another file", config.pcapPath);
      return nullptr;
    }
    auto file = packets_io::OutputFile::createGrowing(config.pcapPath, error);
    if (!file) return nullptr;
    m.pcap = packets_io::CaptureWriter::open(std::move(file), packets::LinkType::Ethernet, error);
    if (!m.pcap) return nullptr;
    m.pcap->flush();
  }
  // Bound and listening under a temporary name, then renamed: a program that finds the path
  // can connect at once (between a bind and a listen it would be refused).
  sockaddr_un staged = addr;
  const std::string stagedPath = path + ".new";
  const bool stage = stagedPath.size() < sizeof staged.sun_path;
  if (stage) {
    std::strcpy(staged.sun_path, stagedPath.c_str());
    ::unlink(stagedPath.c_str());
  }
  m.listenFd = ::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (m.listenFd < 0 ||
      ::bind(m.listenFd, reinterpret_cast<sockaddr*>(stage ? &staged : &addr), sizeof addr) != 0 ||
      ::listen(m.listenFd, 64) != 0 ||
      ::chmod(stage ? stagedPath.c_str() : path.c_str(), 0600) != 0 ||
      (stage && ::rename(stagedPath.c_str(), path.c_str()) != 0)) {
    error = fmt::format("cannot listen on {}: {}", path, errnoText(errno));
    if (stage) ::unlink(stagedPath.c_str());
    if (m.listenFd >= 0) ::close(m.listenFd);
    m.listenFd = -1;
    return nullptr;
  }
  if (::pipe2(m.stopPipe, O_CLOEXEC | O_NONBLOCK) != 0) {
    error = fmt::format("cannot create a pipe: {}", errnoText(errno));
    return nullptr;
  }
  m.rng.seed(config.seed);
  m.rings = FrameRings::create(config.hosts, config.lossRate, config.seed, error);
  if (!m.rings) return nullptr;
  m.rings->setMirror(m.pcap != nullptr);
  return f;
}

Fabric::~Fabric() {
  if (impl_ && impl_->pcap) impl_->pcap->close();
}

const FabricConfig& Fabric::config() const {
  return impl_->config;
}

FabricStats Fabric::stats() const {
  const FabricCounters c = impl_->rings->counters();
  return {c.frames, c.forwarded, c.lost, c.unroutable};
}

void Fabric::stop() {
  const char c = 1;
  [[maybe_unused]] const ssize_t r = ::write(impl_->stopPipe[1], &c, 1);
}

namespace {

bool sendTo(int fd, const std::vector<std::uint8_t>& msg) {
  return ::send(fd, msg.data(), msg.size(), MSG_NOSIGNAL | MSG_DONTWAIT) >= 0;
}

bool sendFrame(int fd, std::span<const std::uint8_t> frame) {
  std::uint8_t type = static_cast<std::uint8_t>(MessageType::Frame);
  iovec iov[2] = {{&type, 1}, {const_cast<std::uint8_t*>(frame.data()), frame.size()}};
  msghdr out{};
  out.msg_iov = iov;
  out.msg_iovlen = 2;
  return ::sendmsg(fd, &out, MSG_NOSIGNAL | MSG_DONTWAIT) >= 0;
}

}  // namespace

/// One pass of the switch over what arrived; the members keep the state between passes.
class FabricLoop {
 public:
  FabricLoop(Fabric::Impl& m, const std::function<void(const std::string&)>& log)
      : m_(m), log_(log) {}

  void log(const std::string& line) {
    log_(line);
    event({{"kind", "log"}, {"text", line}});
  }

  void event(const nlohmann::json& e) {
    if (observers() == 0) return;
    const auto msg = encodeMessage(MessageType::Event, e);
    for (const Client& c : m_.clients) {
      if (c.observer) sendTo(c.fd, msg);
    }
  }

  std::size_t observers() const {
    std::size_t n = 0;
    for (const Client& c : m_.clients)
      n += c.observer ? 1 : 0;
    return n;
  }

  void nicControl(const Client& c, int stepCalls = 0) {
    nlohmann::json j = {{"observed", observers() > 0}, {"hold", m_.paused}};
    if (stepCalls) j["step_calls"] = stepCalls;
    sendTo(c.fd, encodeMessage(MessageType::NicControl, j));
  }

  void allNics() {
    for (const Client& c : m_.clients) {
      if (c.host > 0) nicControl(c);
    }
  }

  /// A frame from host `from`, sent at `ns` (Unix time), reaches the switch: the pcap and the
  /// observers get it (the caller flushes the pcap after a batch).
  void record(int from, std::span<const std::uint8_t> frame, std::int64_t ns, bool held,
              bool lost = false) {
    if (sniffers() > 0) sniff(from, frame, ns, lost);
    if (m_.pcap && !m_.pcap->write(frame, ns)) {
      log(fmt::format("the capture stopped: {}", m_.pcap->error()));
      m_.pcap.reset();
      updateMirror();
    }
    if (observers() > 0) {
      std::vector<std::uint8_t> out(11 + frame.size());
      out[0] = static_cast<std::uint8_t>(MessageType::ObservedFrame);
      out[1] = static_cast<std::uint8_t>(from);
      for (int i = 0; i < 8; ++i)
        out[2 + i] = static_cast<std::uint8_t>(ns >> (8 * i));
      out[10] = held ? 1 : 0;
      std::copy(frame.begin(), frame.end(), out.begin() + 11);
      for (const Client& c : m_.clients) {
        if (c.observer) sendTo(c.fd, out);
      }
    }
  }

  void flushPcap() {
    if (m_.pcap && !m_.pcap->flush()) {
      log(fmt::format("the capture stopped: {}", m_.pcap->error()));
      m_.pcap.reset();
      updateMirror();
    }
  }

  std::size_t sniffers() const {
    std::size_t n = 0;
    for (const Client& c : m_.clients)
      n += c.sniffs > 0 ? 1 : 0;
    return n;
  }

  /// Hands a copy of the frame to the sniffers of the port that sent it and of the port it
  /// reaches (not when the switch lost it). A sniffer is a mirror port that never drops: the
  /// switch waits for it, and disconnects one that has read nothing for 2 s.
  void sniff(int from, std::span<const std::uint8_t> frame, std::int64_t ns, bool lost) {
    const int to = lost ? 0 : destinationHost(frame, m_.config.hosts);
    std::uint8_t head[9];
    head[0] = static_cast<std::uint8_t>(MessageType::Sniffed);
    for (int i = 0; i < 8; ++i)
      head[1 + i] = static_cast<std::uint8_t>(ns >> (8 * i));
    iovec iov[2] = {{head, sizeof head}, {const_cast<std::uint8_t*>(frame.data()), frame.size()}};
    msghdr out{};
    out.msg_iov = iov;
    out.msg_iovlen = 2;
    for (Client& c : m_.clients) {
      if (c.sniffs == 0 || c.stuck || (c.sniffs != from && c.sniffs != to)) continue;
      for (;;) {
        if (::sendmsg(c.fd, &out, MSG_NOSIGNAL | MSG_DONTWAIT) >= 0) break;
        if (errno == EINTR) continue;
        pollfd p{c.fd, POLLOUT, 0};
        if (errno != EAGAIN || ::poll(&p, 1, 2000) <= 0 || !(p.revents & POLLOUT)) {
          c.stuck = true;
          break;
        }
      }
    }
  }

  /// The NICs copy their frames to the mirror rings while a pcap, an observer or a sniffer
  /// wants them.
  void updateMirror() {
    m_.rings->setMirror(m_.pcap != nullptr || observers() > 0 || sniffers() > 0);
  }

  /// Takes the frames the NICs mirrored until Unix time `notAfterNs`, in the order they were
  /// sent.
  void drainMirrors(std::int64_t notAfterNs) {
    batch_.clear();
    bytes_.clear();
    m_.rings->drain(
        0,
        [&](const FrameRings::Frame& f) {
          batch_.push_back({f.unixNs, f.from, bytes_.size(), f.bytes.size(), f.lost});
          bytes_.insert(bytes_.end(), f.bytes.begin(), f.bytes.end());
        },
        notAfterNs);
    if (batch_.empty()) return;
    std::stable_sort(batch_.begin(), batch_.end(),
                     [](const Mirrored& a, const Mirrored& b) { return a.ns < b.ns; });
    for (const Mirrored& f : batch_) {
      record(f.from, std::span(bytes_.data() + f.offset, f.size), f.ns, false, f.lost);
    }
    flushPcap();
  }

  /// A frame from host `from` reaches the switch through its socket (the fabric is paused, or
  /// was when the NIC sent it).
  void arrive(int from, std::span<const std::uint8_t> frame) {
    drainMirrors(INT64_MAX);  // what was sent before it goes first
    record(from, frame, unixTimeNs(), m_.paused);
    flushPcap();
    if (m_.paused) {
      m_.held.emplace_back(frame.begin(), frame.end());
      return;
    }
    forward(frame);
  }

  /// Loses the frame at the configured rate or hands it to the host that owns its
  /// destination MAC (02:00:0a:09:00:NN is host NN, fabricHost()).
  void forward(std::span<const std::uint8_t> frame) {
    if (m_.config.lossRate > 0 &&
        std::uniform_real_distribution<double>(0, 1)(m_.rng) < m_.config.lossRate) {
      m_.rings->count(0, 1, 0, 1, 0);
      return;
    }
    const int to = destinationHost(frame, m_.config.hosts);
    if (to == 0 || !m_.hostClient.count(to)) {
      m_.rings->count(0, 1, 0, 0, 1);
      return;
    }
    if (sendFrame(m_.clients[m_.hostClient.at(to)].fd, frame)) {
      m_.rings->count(0, 1, 1, 0, 0);
    } else {
      m_.rings->count(0, 1, 0, 1,
                      0);  // the host's queue is full: the switch drops, as a real one does
    }
  }

  void setPaused(bool paused) {
    if (paused == m_.paused) return;
    m_.paused = paused;
    if (paused) m_.rings->setPaused(true);  // frames come to the switch, which holds them
    allNics();
    if (!paused) {
      for (const auto& f : m_.held)
        forward(f);
      m_.held.clear();
      m_.rings->setPaused(false);
    }
    event({{"kind", paused ? "paused" : "resumed"}});
    log_(paused ? "paused: frames are held, programs stop at their next verbs call" : "resumed");
  }

  void drop(std::size_t i) {
    Client& c = m_.clients[i];
    const bool observer = c.observer;
    if (c.sniffs != 0) {
      log(fmt::format("the sniffer of host{} detached ({} {}){}", c.sniffs, c.program, c.pid,
                      c.stuck ? ": it took no frame for 2 s" : ""));
    }
    if (c.host > 0) {
      log(fmt::format("host{} detached ({} {})", c.host, c.program, c.pid));
      event({{"kind", "detached"}, {"host", c.host}});
      m_.hostClient.erase(c.host);
      m_.rings->setAttached(c.host, false);
    }
    ::close(c.fd);
    m_.clients.erase(m_.clients.begin() + static_cast<std::ptrdiff_t>(i));
    for (auto& [host, index] : m_.hostClient) {
      if (index > i) --index;
    }
    if (observer && observers() == 0) {
      setPaused(false);  // nobody is left to resume it
      allNics();
    }
    updateMirror();
  }

  /// Serves one message from client `i`; false when the client is to be dropped.
  bool serve(std::size_t i, const Message& msg) {
    Client& c = m_.clients[i];
    const int fd = c.fd;
    if (msg.type == MessageType::Frame) {
      if (c.host > 0) arrive(c.host, msg.body);
      return true;
    }
    if (msg.type == MessageType::Wake) {
      // a sender found this host's NIC asleep with a frame waiting for it (0: the mirrors)
      if (msg.body.size() == 1 && msg.body[0] > 0 && m_.hostClient.count(msg.body[0])) {
        const std::uint8_t wake = static_cast<std::uint8_t>(MessageType::Wake);
        ::send(m_.clients[m_.hostClient.at(msg.body[0])].fd, &wake, 1, MSG_NOSIGNAL | MSG_DONTWAIT);
      }
      return true;
    }
    std::string why;
    const auto body = jsonBody(msg, why);
    if (!body) {
      log(fmt::format("a client sent a malformed message ({}): disconnected", why));
      return false;
    }
    const auto intField = [&](const char* key) {
      const auto it = body->find(key);
      return it != body->end() && it->is_number_integer() ? it->get<long>() : 0L;
    };
    const auto textField = [&](const char* key) {
      const auto it = body->find(key);
      return it != body->end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    switch (msg.type) {
      case MessageType::Log:
        if (c.host > 0 || c.sniffs > 0) log(textField("line"));
        return true;
      case MessageType::Call:
        // the frames the program sent before this call come before it, those after it after
        if (const auto ns = body->find("ns"); ns != body->end() && ns->is_number_integer()) {
          drainMirrors(ns->get<std::int64_t>());
          if (c.host > 0) {
            event({{"kind", "call"},
                   {"host", c.host},
                   {"text", textField("text")},
                   {"ns", ns->get<std::int64_t>()}});
          }
        } else if (c.host > 0) {
          event({{"kind", "call"}, {"host", c.host}, {"text", textField("text")}});
        }
        return true;
      case MessageType::State:
        if (c.host > 0) {
          nlohmann::json state = *body;
          state["host"] = c.host;
          state["program"] = c.program;
          state["pid"] = c.pid;
          event({{"kind", "state"}, {"host", c.host}, {"state", std::move(state)}});
        }
        return true;
      case MessageType::Query: {
        const int host = static_cast<int>(intField("host"));
        nlohmann::json status = {{"hosts", m_.config.hosts},
                                 {"taken", m_.hostClient.count(host) > 0}};
        if (m_.hostClient.count(host)) {
          const Client& owner = m_.clients[m_.hostClient.at(host)];
          status["program"] = owner.program;
          status["pid"] = owner.pid;
        }
        sendTo(fd, encodeMessage(MessageType::Status, status));
        return false;
      }
      case MessageType::Observe: {
        if (c.host > 0 || c.observer) return false;
        c.observer = true;
        nlohmann::json hello = toJson(m_.infoFor(0));
        nlohmann::json attached = nlohmann::json::array();
        for (const Client& o : m_.clients) {
          if (o.host > 0) {
            attached.push_back({{"host", o.host}, {"program", o.program}, {"pid", o.pid}});
          }
        }
        hello["attached"] = attached;
        hello["paused"] = m_.paused;
        sendTo(fd, encodeMessage(MessageType::Observing, hello));
        updateMirror();
        if (observers() == 1) allNics();  // start sending states
        return true;
      }
      case MessageType::Control:
        if (!c.observer) return false;
        if (body->contains("pause")) setPaused(true);
        if (body->contains("resume")) setPaused(false);
        if (body->contains("step_frame") && m_.paused && !m_.held.empty()) {
          forward(m_.held.front());
          m_.held.erase(m_.held.begin());
        }
        if (const int host = static_cast<int>(intField("step_call"));
            host > 0 && m_.hostClient.count(host)) {
          nicControl(m_.clients[m_.hostClient.at(host)], 1);
        }
        return true;
      case MessageType::Attach: {
        if (c.host > 0 || c.observer || c.sniffs) return false;
        const int host = static_cast<int>(intField("host"));
        std::string program = textField("program");
        c.program = program.empty() ? std::string(1, '?') : std::move(program);
        c.pid = intField("pid");
        const auto refuse = [&](const std::string& text) {
          sendTo(fd, encodeMessage(MessageType::Refused, nlohmann::json{{"error", text}}));
          return false;
        };
        if (host < 1 || host > m_.config.hosts) {
          return refuse(fmt::format("host {} does not exist: the fabric has hosts 1..{}", host,
                                    m_.config.hosts));
        }
        if (const auto sniff = body->find("sniff");
            sniff != body->end() && sniff->is_boolean() && sniff->get<bool>()) {
          c.sniffs = host;
          if (!sendWithFd(fd, encodeMessage(MessageType::Welcome, toJson(m_.infoFor(host))),
                          m_.rings->fd())) {
            return false;
          }
          updateMirror();
          log(fmt::format("a sniffer of host{} attached: {} (pid {})", host, c.program, c.pid));
          return true;
        }
        if (m_.hostClient.count(host)) {
          const Client& owner = m_.clients[m_.hostClient.at(host)];
          return refuse(
              fmt::format("host {} is taken by {} (pid {})", host, owner.program, owner.pid));
        }
        c.host = host;
        m_.hostClient[host] = i;
        m_.rings->setAttached(host, true);
        if (!sendWithFd(fd, encodeMessage(MessageType::Welcome, toJson(m_.infoFor(host))),
                        m_.rings->fd())) {
          return false;
        }
        nicControl(c);
        log(fmt::format("host{} attached: {} (pid {})", host, c.program, c.pid));
        event({{"kind", "attached"}, {"host", host}, {"program", c.program}, {"pid", c.pid}});
        return true;
      }
      default:
        return true;  // a message for the other direction: ignored
    }
  }

 private:
  struct Mirrored {
    std::int64_t ns;
    int from;
    std::size_t offset;
    std::size_t size;
    bool lost;
  };
  Fabric::Impl& m_;
  const std::function<void(const std::string&)>& log_;
  std::vector<Mirrored> batch_;
  std::vector<std::uint8_t> bytes_;
};

void Fabric::run(const std::function<void(const std::string&)>& log) {
  Impl& m = *impl_;
  FabricLoop loop(m, log);
  for (;;) {
    std::vector<pollfd> fds;
    fds.push_back({m.stopPipe[0], POLLIN, 0});
    fds.push_back({m.listenFd, POLLIN, 0});
    for (const Client& c : m.clients)
      fds.push_back({c.fd, POLLIN, 0});
    // While frames are mirrored the switch looks at the rings every 2 ms (a sender whose
    // mirror ring fills up wakes it sooner); otherwise it sleeps until a message comes.
    const bool mirror = m.rings->mirror();
    if (mirror) m.rings->setSleeping(0, true);
    const int polled = ::poll(fds.data(), fds.size(), mirror ? 2 : -1);
    m.rings->setSleeping(0, false);
    if (polled < 0) {
      if (errno == EINTR) continue;
      log(fmt::format("poll failed: {}", errnoText(errno)));
      return;
    }
    if (fds[0].revents) {
      loop.drainMirrors(INT64_MAX);
      return;
    }
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
    std::vector<int> ready;
    for (std::size_t i = 2; i < fds.size(); ++i) {
      if (fds[i].revents) ready.push_back(fds[i].fd);
    }
    for (const int fd : ready) {
      std::size_t i = 0;
      while (i < m.clients.size() && m.clients[i].fd != fd)
        ++i;
      if (i == m.clients.size()) continue;
      bool keep = true;
      for (int burst = 0; burst < 256 && keep; ++burst) {
        const ssize_t n = ::recv(fd, m.buf.data(), m.buf.size(), MSG_DONTWAIT);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
          keep = false;
          break;
        }
        const auto msg = decodeMessage(std::span(m.buf.data(), static_cast<std::size_t>(n)));
        if (msg) keep = loop.serve(i, *msg);
      }
      if (!keep) loop.drop(i);
    }
    // A frame sent less than 200 us ago waits for the next pass, so that another sender's
    // earlier frame, still being written, is not put after it.
    if (m.rings->mirror()) loop.drainMirrors(unixTimeNs() - 200'000);
    for (std::size_t i = m.clients.size(); i-- > 0;) {
      if (m.clients[i].stuck) loop.drop(i);
    }
  }
}

}  // namespace rdmascope::simdev
