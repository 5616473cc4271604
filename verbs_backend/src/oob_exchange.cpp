#include "rdmascope/verbs_backend/oob_exchange.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <thread>
#include <utility>
#include <vector>

namespace rdmascope::verbs_backend {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::string_view kMagic = "rdmascope-oob 1";
constexpr std::size_t kMaxLine = 4096;

Status sysError(const std::string& what, int e = errno) {
  return Status::error(e, what + " failed: " + std::strerror(e));
}

template <class T>
Result<T> fail(Status s) {
  Result<T> r;
  r.status = std::move(s);
  return r;
}

int msLeft(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return left.count() <= 0 ? 0 : static_cast<int>(std::min<long long>(left.count(), 1 << 30));
}

constexpr int kStopCheckMs = 100;
enum class Wait { Ready, Timeout, Cancelled, Error };

// poll() in slices so that a stop flag set by another thread ends the wait within 100 ms.
Wait waitFor(int fd, short events, Clock::time_point deadline, const std::atomic<bool>* stop) {
  for (;;) {
    if (stop && stop->load()) return Wait::Cancelled;
    const int left = msLeft(deadline);
    pollfd pfd{fd, events, 0};
    const int r = ::poll(&pfd, 1, stop ? std::min(left, kStopCheckMs) : left);
    if (r > 0) return Wait::Ready;
    if (r < 0 && errno != EINTR) return Wait::Error;
    if (r == 0 && left == 0) return Wait::Timeout;
  }
}

Status cancelled(const std::string& what) {
  return Status::error(ECANCELED, "cancelled while " + what);
}

template <class T>
bool parseHex(std::string_view text, T& out, std::size_t maxDigits) {
  if (text.empty() || text.size() > maxDigits) return false;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), out, 16);
  return ec == std::errc() && p == text.data() + text.size();
}

}  // namespace

std::string formatPeerInfo(const PeerInfo& info) {
  char gid[33];
  for (std::size_t i = 0; i < 16; ++i)
    std::snprintf(gid + 2 * i, 3, "%02x", info.gid[i]);
  char line[256];
  std::snprintf(line, sizeof line,
                "%.*s lid %04x qpn %06x psn %06x gid %s addr %016llx rkey %08x len %llx",
                static_cast<int>(kMagic.size()), kMagic.data(), info.lid, info.qpn, info.psn, gid,
                static_cast<unsigned long long>(info.addr), info.rkey,
                static_cast<unsigned long long>(info.length));
  return line;
}

Result<PeerInfo> parsePeerInfo(std::string_view line) {
  auto bad = [&](const std::string& why) {
    return fail<PeerInfo>(Status::error(EPROTO, "bad out-of-band message (" + why + "): '" +
                                                    std::string(line.substr(0, 120)) + "'"));
  };
  if (line.substr(0, kMagic.size()) != kMagic)
    return bad("it does not start with '" + std::string(kMagic) + "'");
  std::vector<std::string_view> words;
  std::string_view rest = line.substr(kMagic.size());
  while (!rest.empty()) {
    std::size_t start = rest.find_first_not_of(' ');
    if (start == std::string_view::npos) break;
    rest.remove_prefix(start);
    std::size_t end = rest.find(' ');
    words.push_back(rest.substr(0, end));
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end);
  }
  static constexpr std::string_view kKeys[] = {"lid", "qpn", "psn", "gid", "addr", "rkey", "len"};
  if (words.size() != 2 * std::size(kKeys)) return bad("expected 7 key-value pairs");
  PeerInfo info;
  for (std::size_t i = 0; i < std::size(kKeys); ++i) {
    if (words[2 * i] != kKeys[i]) return bad("expected '" + std::string(kKeys[i]) + "'");
    std::string_view v = words[2 * i + 1];
    bool good = true;
    switch (i) {
      case 0:
        good = parseHex(v, info.lid, 4);
        break;
      case 1:
        good = parseHex(v, info.qpn, 6);
        break;
      case 2:
        good = parseHex(v, info.psn, 6);
        break;
      case 3:
        good = v.size() == 32;
        for (std::size_t b = 0; good && b < 16; ++b)
          good = parseHex(v.substr(2 * b, 2), info.gid[b], 2);
        break;
      case 4:
        good = parseHex(v, info.addr, 16);
        break;
      case 5:
        good = parseHex(v, info.rkey, 8);
        break;
      case 6:
        good = parseHex(v, info.length, 16);
        break;
      default:
        break;
    }
    if (!good) return bad("bad value of '" + std::string(kKeys[i]) + "'");
  }
  return {info, {}};
}

OobConnection::OobConnection(int fd) : fd_(fd) {}
OobConnection::OobConnection(OobConnection&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), pending_(std::move(other.pending_)), stop_(other.stop_) {}
OobConnection& OobConnection::operator=(OobConnection&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    pending_ = std::move(other.pending_);
    stop_ = other.stop_;
  }
  return *this;
}
OobConnection::~OobConnection() {
  if (fd_ >= 0) ::close(fd_);
}

Result<OobConnection> OobConnection::connect(const std::string& host, std::uint16_t port,
                                             std::chrono::milliseconds timeout,
                                             const std::atomic<bool>* stop) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  const std::string service = std::to_string(port);
  if (int e = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &res); e != 0)
    return fail<OobConnection>(
        Status::error(EINVAL, "cannot resolve '" + host + "': " + gai_strerror(e)));
  const auto deadline = Clock::now() + timeout;
  const std::string what = "connecting to " + host + ":" + service;
  int lastErr = ETIMEDOUT;
  for (;;) {
    for (addrinfo* a = res; a != nullptr; a = a->ai_next) {
      // Non-blocking, so that a host that drops the SYN neither outlasts `timeout` nor `stop`.
      int fd =
          ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
      if (fd < 0) {
        lastErr = errno;
        continue;
      }
      int rc = ::connect(fd, a->ai_addr, a->ai_addrlen);
      if (rc != 0 && errno == EINPROGRESS) {
        const Wait w = waitFor(fd, POLLOUT, deadline, stop);
        if (w == Wait::Cancelled) {
          ::close(fd);
          ::freeaddrinfo(res);
          return fail<OobConnection>(cancelled(what));
        }
        int soErr = w == Wait::Ready ? 0 : ETIMEDOUT;
        socklen_t len = sizeof soErr;
        if (w == Wait::Ready) ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &soErr, &len);
        rc = soErr == 0 ? 0 : -1;
        errno = soErr;
      }
      if (rc == 0) {
        ::freeaddrinfo(res);
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
        int one = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        OobConnection c(fd);
        c.stop_ = stop;
        return {std::move(c), {}};
      }
      lastErr = errno;
      ::close(fd);
    }
    // Refused or unreachable: the peer is not listening yet.
    if (Clock::now() >= deadline || (lastErr != ECONNREFUSED && lastErr != EHOSTUNREACH &&
                                     lastErr != ENETUNREACH && lastErr != ETIMEDOUT))
      break;
    if (stop && stop->load()) {
      ::freeaddrinfo(res);
      return fail<OobConnection>(cancelled(what));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ::freeaddrinfo(res);
  return fail<OobConnection>(sysError(what, lastErr));
}

Status OobConnection::sendLine(std::string_view line) {
  if (fd_ < 0) return Status::error(ENOTCONN, "the out-of-band connection is not open");
  std::string data(line);
  data.push_back('\n');
  std::size_t off = 0;
  while (off < data.size()) {
    ssize_t n = ::send(fd_, data.data() + off, data.size() - off, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      return sysError("sending to the out-of-band peer");
    }
    off += static_cast<std::size_t>(n);
  }
  return Status::success();
}

Result<std::string> OobConnection::readLine(std::chrono::milliseconds timeout) {
  if (fd_ < 0)
    return fail<std::string>(Status::error(ENOTCONN, "the out-of-band connection is not open"));
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    if (auto nl = pending_.find('\n'); nl != std::string::npos) {
      std::string line = pending_.substr(0, nl);
      pending_.erase(0, nl + 1);
      return {std::move(line), {}};
    }
    if (pending_.size() > kMaxLine)
      return fail<std::string>(
          Status::error(EPROTO, "the out-of-band peer sent a line longer than 4096 bytes"));
    const Wait w = waitFor(fd_, POLLIN, deadline, stop_);
    if (w == Wait::Cancelled)
      return fail<std::string>(cancelled("waiting for the out-of-band peer"));
    if (w == Wait::Error) return fail<std::string>(sysError("waiting for the out-of-band peer"));
    if (w == Wait::Timeout)
      return fail<std::string>(Status::error(
          ETIMEDOUT,
          "the out-of-band peer sent nothing for " + std::to_string(timeout.count()) + " ms"));
    char buf[512];
    ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail<std::string>(sysError("reading from the out-of-band peer"));
    }
    if (n == 0)
      return fail<std::string>(
          Status::error(ECONNRESET, "the out-of-band peer closed the connection"));
    pending_.append(buf, static_cast<std::size_t>(n));
  }
}

Result<PeerInfo> OobConnection::exchange(const PeerInfo& local, std::chrono::milliseconds timeout) {
  if (Status s = sendLine(formatPeerInfo(local)); !s.ok()) return fail<PeerInfo>(s);
  auto line = readLine(timeout);
  if (!line.ok()) return fail<PeerInfo>(line.status);
  return parsePeerInfo(line.value);
}

Status OobConnection::barrier(std::string_view name, std::chrono::milliseconds timeout) {
  const std::string token = "barrier " + std::string(name);
  if (Status s = sendLine(token); !s.ok()) return s;
  auto line = readLine(timeout);
  if (!line.ok()) return line.status;
  if (line.value != token)
    return Status::error(EPROTO, "out-of-band barrier '" + std::string(name) +
                                     "': the peer sent '" + line.value.substr(0, 120) + "'");
  return Status::success();
}

OobListener::OobListener(OobListener&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), port_(other.port_), stop_(other.stop_) {}
OobListener& OobListener::operator=(OobListener&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    port_ = other.port_;
    stop_ = other.stop_;
  }
  return *this;
}
OobListener::~OobListener() {
  if (fd_ >= 0) ::close(fd_);
}

Result<OobListener> OobListener::listen(std::uint16_t port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return fail<OobListener>(sysError("socket"));
  int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_ANY);
  addr.sin_port = htons(port);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    Status s = sysError("binding TCP port " + std::to_string(port));
    ::close(fd);
    return fail<OobListener>(s);
  }
  if (::listen(fd, 1) != 0) {
    Status s = sysError("listen");
    ::close(fd);
    return fail<OobListener>(s);
  }
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  return {OobListener(fd, ntohs(addr.sin_port)), {}};
}

Result<OobConnection> OobListener::accept(std::chrono::milliseconds timeout) {
  if (fd_ < 0)
    return fail<OobConnection>(Status::error(ENOTCONN, "the out-of-band listener is not open"));
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    const Wait w = waitFor(fd_, POLLIN, deadline, stop_);
    if (w == Wait::Cancelled)
      return fail<OobConnection>(
          cancelled("waiting for a peer on TCP port " + std::to_string(port_)));
    if (w == Wait::Error) return fail<OobConnection>(sysError("waiting for the out-of-band peer"));
    if (w == Wait::Timeout)
      return fail<OobConnection>(
          Status::error(ETIMEDOUT, "no peer connected to TCP port " + std::to_string(port_) +
                                       " within " + std::to_string(timeout.count()) + " ms"));
    int fd = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      return fail<OobConnection>(sysError("accept"));
    }
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    OobConnection c(fd);
    c.stop_ = stop_;
    return {std::move(c), {}};
  }
}

}  // namespace rdmascope::verbs_backend
