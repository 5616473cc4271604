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
  const auto msg =
      n > 0 ? decodeMessage(std::span(o->buf_.data(), static_cast<std::size_t>(n))) : std::nullopt;
  std::string why;
  const auto body = msg && msg->type == MessageType::Observing ? jsonBody(*msg, why) : std::nullopt;
  auto info = body ? fabricInfoFromJson(*body, why) : std::nullopt;
  if (!info && body) {  // the observer's welcome names no host of its own
    nlohmann::json copy = *body;
    copy["self"] = 1;
    info = fabricInfoFromJson(copy, why);
    if (info) info->self = 0;
  }
  if (!info) {
    error = fmt::format("the fabric at {} did not answer as a fabric", o->path_);
    ::close(fd);
    return nullptr;
  }
  o->info_ = std::move(*info);
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
    const std::span<const std::uint8_t> datagram(buf_.data(), static_cast<std::size_t>(n));
    const auto msg = decodeMessage(datagram);
    if (!msg) continue;
    if (msg->type == MessageType::ObservedFrame) {
      if (msg->body.size() < 10) continue;
      FabricEvent e;
      e.kind = FabricEvent::Kind::Frame;
      e.host = msg->body[0];
      for (int i = 0; i < 8; ++i) {
        e.timeNs |= static_cast<std::int64_t>(msg->body[static_cast<std::size_t>(1 + i)])
                    << (8 * i);
      }
      e.held = msg->body[9] != 0;
      e.bytes.assign(msg->body.begin() + 10, msg->body.end());
      out.push_back(std::move(e));
      continue;
    }
    if (msg->type != MessageType::Event) continue;
    std::string why;
    const auto j = jsonBody(*msg, why);
    if (!j) continue;
    const std::string kind = j->value("kind", std::string());
    FabricEvent e;
    const auto host = j->find("host");
    if (host != j->end() && host->is_number_integer()) e.host = host->get<int>();
    const auto text = j->find("text");
    if (text != j->end() && text->is_string()) e.text = text->get<std::string>();
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
      if (!state) continue;
      e.kind = FabricEvent::Kind::State;
      e.program = state->program;
      e.pid = state->pid;
      e.state = std::move(*state);
    } else {
      continue;
    }
    out.push_back(std::move(e));
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
