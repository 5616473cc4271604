#include "rdmascope/simdev/fabric_observer.h"

#include <fmt/format.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

#include "rdmascope/simdev/fabric_protocol.h"

namespace rdmascope::simdev {

std::optional<ObserverWelcome> decodeObserverWelcome(std::span<const std::uint8_t> datagram,
                                                     std::string& error) {
  const auto msg = decodeMessage(datagram);
  if (!msg || msg->type != MessageType::Observing) {
    error = "the answer is not the fabric's welcome of an observer";
    return std::nullopt;
  }
  auto body = jsonBody(*msg, error);
  if (!body) return std::nullopt;
  (*body)["self"] = 1;  // the observer's welcome names no host of its own
  auto info = fabricInfoFromJson(*body, error);
  if (!info) return std::nullopt;
  ObserverWelcome w;
  w.info = std::move(*info);
  w.info.self = 0;
  const auto paused = body->find("paused");
  w.paused = paused != body->end() && paused->is_boolean() && paused->get<bool>();
  const auto attached = body->find("attached");
  if (attached != body->end() && attached->is_array()) {
    for (const auto& a : *attached) {
      if (!a.is_object()) continue;
      const auto host = a.find("host");
      if (host == a.end() || !host->is_number_integer()) continue;
      const auto number = host->get<std::int64_t>();
      if (number < 1 || number > static_cast<std::int64_t>(w.info.hosts.size())) continue;
      AttachedProgram p;
      p.host = static_cast<int>(number);
      const auto program = a.find("program");
      if (program != a.end() && program->is_string()) p.program = program->get<std::string>();
      const auto pid = a.find("pid");
      if (pid != a.end() && pid->is_number_integer()) p.pid = pid->get<long>();
      w.attached.push_back(std::move(p));
    }
  }
  return w;
}

std::optional<FabricEvent> decodeObserverEvent(std::span<const std::uint8_t> datagram) {
  const auto msg = decodeMessage(datagram);
  if (!msg) return std::nullopt;
  if (msg->type == MessageType::ObservedFrame) {
    if (msg->body.size() < 10) return std::nullopt;
    FabricEvent e;
    e.kind = FabricEvent::Kind::Frame;
    e.host = msg->body[0];
    for (int i = 0; i < 8; ++i) {
      e.timeNs |= static_cast<std::int64_t>(msg->body[static_cast<std::size_t>(1 + i)]) << (8 * i);
    }
    e.held = msg->body[9] != 0;
    e.bytes.assign(msg->body.begin() + 10, msg->body.end());
    return e;
  }
  if (msg->type != MessageType::Event) return std::nullopt;
  std::string why;
  const auto j = jsonBody(*msg, why);
  if (!j) return std::nullopt;
  const auto kindField = j->find("kind");
  const std::string kind = kindField != j->end() && kindField->is_string()
                               ? kindField->get<std::string>()
                               : std::string();
  FabricEvent e;
  const auto host = j->find("host");
  if (host != j->end() && host->is_number_integer()) e.host = host->get<int>();
  const auto text = j->find("text");
  if (text != j->end() && text->is_string()) e.text = text->get<std::string>();
  const auto ns = j->find("ns");
  if (ns != j->end() && ns->is_number_integer()) e.timeNs = ns->get<std::int64_t>();
  if (kind == "attached") {
    e.kind = FabricEvent::Kind::Attached;
    const auto p = j->find("program");
    if (p != j->end() && p->is_string()) e.program = p->get<std::string>();
    const auto pid = j->find("pid");
    if (pid != j->end() && pid->is_number_integer()) e.pid = pid->get<long>();
  } else if (kind == "detached") {
    e.kind = FabricEvent::Kind::Detached;
  } else if (kind == "call") {
    e.kind = FabricEvent::Kind::Call;
  } else if (kind == "log") {
    e.kind = FabricEvent::Kind::Log;
  } else if (kind == "paused") {
    e.kind = FabricEvent::Kind::Paused;
  } else if (kind == "resumed") {
    e.kind = FabricEvent::Kind::Resumed;
  } else if (kind == "state") {
    const auto s = j->find("state");
    auto state = s != j->end() ? hostStateFromJson(*s, why) : std::nullopt;
    if (!state) return std::nullopt;
    e.kind = FabricEvent::Kind::State;
    e.program = state->program;
    e.pid = state->pid;
    e.state = std::move(*state);
  } else {
    return std::nullopt;
  }
  return e;
}

std::unique_ptr<FabricObserver> FabricObserver::connect(const std::string& socketPath,
                                                        std::string& error) {
  std::unique_ptr<FabricObserver> o(new FabricObserver());
  o->path_ = socketPath.empty() ? defaultFabricSocket() : socketPath;
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (o->path_.size() >= sizeof addr.sun_path) {
    error = fmt::format("the fabric socket path {} is too long", o->path_);
    return nullptr;
  }
  std::strcpy(addr.sun_path, o->path_.c_str());
  const int fd = ::socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
  if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    error = fmt::format("no fabric at {} ({}): start one with `rdmascope-cli fabric`", o->path_,
                        std::strerror(errno));
    if (fd >= 0) ::close(fd);
    return nullptr;
  }
  const auto hello = encodeMessage(MessageType::Observe, nlohmann::json::object());
  o->buf_.resize(kMaxMessage);
  pollfd p{fd, POLLIN, 0};
  const bool sent = ::send(fd, hello.data(), hello.size(), MSG_NOSIGNAL) >= 0;
  const ssize_t n =
      sent && ::poll(&p, 1, 5000) > 0 ? ::recv(fd, o->buf_.data(), o->buf_.size(), 0) : -1;
  std::string why;
  auto welcome =
      n > 0 ? decodeObserverWelcome(std::span(o->buf_.data(), static_cast<std::size_t>(n)), why)
            : std::nullopt;
  if (!welcome) {
    error = fmt::format("the fabric at {} did not answer as a fabric", o->path_);
    ::close(fd);
    return nullptr;
  }
  o->welcome_ = std::move(*welcome);
  o->fd_ = fd;
  return o;
}

FabricObserver::~FabricObserver() {
  if (fd_ >= 0) ::close(fd_);
}

std::vector<FabricEvent> FabricObserver::read() {
  std::vector<FabricEvent> out;
  while (fd_ >= 0) {
    const ssize_t n = ::recv(fd_, buf_.data(), buf_.size(), MSG_DONTWAIT);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    if (n <= 0) {
      FabricEvent e;
      e.kind = FabricEvent::Kind::Closed;
      e.text = fmt::format("the fabric at {} has stopped", path_);
      out.push_back(std::move(e));
      ::close(fd_);
      fd_ = -1;
      break;
    }
    auto e = decodeObserverEvent(std::span(buf_.data(), static_cast<std::size_t>(n)));
    if (e) out.push_back(std::move(*e));
  }
  return out;
}

void FabricObserver::send(const std::string& control) {
  if (fd_ < 0) return;
  const auto msg = encodeMessage(MessageType::Control, nlohmann::json::parse(control));
  ::send(fd_, msg.data(), msg.size(), MSG_NOSIGNAL);
}

void FabricObserver::pause() {
  send(R"({"pause": true})");
}
void FabricObserver::resume() {
  send(R"({"resume": true})");
}
void FabricObserver::stepFrame() {
  send(R"({"step_frame": true})");
}
void FabricObserver::stepCall(int host) {
  send(fmt::format(R"({{"step_call": {}}})", host));
}

}  // namespace rdmascope::simdev
