#include "tcp_bench.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

namespace rdmascope::cli {

namespace {

using Clock = std::chrono::steady_clock;

double nsSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
}

class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  Fd& operator=(Fd&& o) noexcept {
    if (this != &o) {
      if (fd_ >= 0) ::close(fd_);
      fd_ = o.fd_;
      o.fd_ = -1;
    }
    return *this;
  }
  [[nodiscard]] int get() const { return fd_; }

 private:
  int fd_;
};

std::string sysError(const std::string& what) {
  return what + ": " + std::strerror(errno);
}

// A connected pair of TCP sockets over 127.0.0.1.
bool loopbackPair(Fd& client, Fd& server, std::string& error) {
  Fd listener(::socket(AF_INET, SOCK_STREAM, 0));
  if (listener.get() < 0) {
    error = sysError("cannot create a TCP socket");
    return false;
  }
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  if (::bind(listener.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(listener.get(), 1) != 0 ||
      ::getsockname(listener.get(), reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    error = sysError("cannot listen on 127.0.0.1");
    return false;
  }
  Fd c(::socket(AF_INET, SOCK_STREAM, 0));
  if (c.get() < 0 || ::connect(c.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    error = sysError("cannot connect to 127.0.0.1");
    return false;
  }
  Fd s(::accept(listener.get(), nullptr, nullptr));
  if (s.get() < 0) {
    error = sysError("cannot accept on 127.0.0.1");
    return false;
  }
  const int one = 1;
  ::setsockopt(c.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  ::setsockopt(s.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  client = std::move(c);
  server = std::move(s);
  return true;
}

bool sendAll(int fd, const std::uint8_t* p, std::size_t n) {
  while (n > 0) {
    const ssize_t k = ::send(fd, p, n, MSG_NOSIGNAL);
    if (k <= 0) return false;
    p += k;
    n -= static_cast<std::size_t>(k);
  }
  return true;
}

bool recvAll(int fd, std::uint8_t* p, std::size_t n) {
  while (n > 0) {
    const ssize_t k = ::recv(fd, p, n, 0);
    if (k <= 0) return false;
    p += k;
    n -= static_cast<std::size_t>(k);
  }
  return true;
}

double measureMemcpy(bool quick) {
  const std::size_t size = quick ? (8u << 20) : (64u << 20);
  std::vector<std::uint8_t> a(size, 1);
  std::vector<std::uint8_t> b(size, 2);
  std::memcpy(b.data(), a.data(), size);  // fault the pages in first
  const int reps = quick ? 4 : 16;
  const auto t0 = Clock::now();
  for (int i = 0; i < reps; ++i) {
    std::memcpy(i % 2 ? a.data() : b.data(), i % 2 ? b.data() : a.data(), size);
  }
  const double ns = nsSince(t0);
  // Keep the copies observable so they are not optimised away.
  volatile std::uint8_t sink = a[size / 2] ^ b[size / 3];
  (void)sink;
  return static_cast<double>(size) * reps * 1e9 / ns;
}

double measureSyscall(bool quick) {
  const int n = quick ? 20000 : 200000;
  const auto t0 = Clock::now();
  for (int i = 0; i < n; ++i)
    ::syscall(SYS_getppid);
  return nsSince(t0) / n;
}

}  // namespace

sim::MeasuredHostCosts TcpBenchResult::measured() const {
  sim::MeasuredHostCosts m;
  m.memcpyBytesPerSec = memcpyBytesPerSec;
  m.syscallNs = syscallNs;
  m.sendCallNs = sendCallNs;
  m.recvCallNs = recvCallNs;
  m.roundTripNs = roundTripNs;
  return m;
}

std::optional<TcpBenchResult> runTcpBench(const TcpBenchOptions& o, std::string& error) {
  TcpBenchResult r;
  r.memcpyBytesPerSec = measureMemcpy(o.quick);
  r.syscallNs = measureSyscall(o.quick);

  Fd client;
  Fd server;
  if (!loopbackPair(client, server, error)) return std::nullopt;

  // recv() of data already queued: queue K small messages, then time K receives.
  {
    const int k = o.quick ? 200 : 1000;
    std::vector<std::uint8_t> msg(64, 0x5a);
    for (int i = 0; i < k; ++i) {
      if (!sendAll(client.get(), msg.data(), msg.size())) {
        error = sysError("send() on loopback failed");
        return std::nullopt;
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const auto t0 = Clock::now();
    for (int i = 0; i < k; ++i) {
      if (!recvAll(server.get(), msg.data(), msg.size())) {
        error = sysError("recv() on loopback failed");
        return std::nullopt;
      }
    }
    r.recvCallNs = nsSince(t0) / k;
  }

  // send() of a small message while a reader drains the other end.
  {
    const int k = o.quick ? 2000 : 20000;
    std::atomic<bool> ok{true};
    std::thread reader([&] {
      std::vector<std::uint8_t> buf(64);
      for (int i = 0; i < k; ++i) {
        if (!recvAll(server.get(), buf.data(), buf.size())) {
          ok = false;
          return;
        }
      }
    });
    std::vector<std::uint8_t> msg(64, 0xa5);
    const auto t0 = Clock::now();
    bool sent = true;
    for (int i = 0; i < k && sent; ++i)
      sent = sendAll(client.get(), msg.data(), msg.size());
    r.sendCallNs = nsSince(t0) / k;
    reader.join();
    if (!sent || !ok) {
      error = sysError("send()/recv() on loopback failed");
      return std::nullopt;
    }
  }

  // 1-byte ping-pong.
  {
    const int k = o.quick ? 500 : 5000;
    std::atomic<bool> ok{true};
    std::thread echo([&] {
      std::uint8_t b = 0;
      for (int i = 0; i < k && ok; ++i) {
        if (!recvAll(server.get(), &b, 1) || !sendAll(server.get(), &b, 1)) ok = false;
      }
    });
    std::uint8_t b = 1;
    const auto t0 = Clock::now();
    for (int i = 0; i < k && ok; ++i) {
      if (!sendAll(client.get(), &b, 1) || !recvAll(client.get(), &b, 1)) ok = false;
    }
    r.roundTripNs = nsSince(t0) / k;
    echo.join();
    if (!ok) {
      error = sysError("ping-pong on loopback failed");
      return std::nullopt;
    }
  }

  // Bulk: 128 KiB send() calls, the reader receiving as fast as it can.
  {
    const std::size_t chunk = 128 * 1024;
    r.bulkBytes = o.quick ? (16u << 20) : (256u << 20);
    std::atomic<bool> ok{true};
    std::thread reader([&] {
      std::vector<std::uint8_t> buf(chunk);
      std::uint64_t got = 0;
      while (got < r.bulkBytes) {
        const ssize_t n = ::recv(server.get(), buf.data(), buf.size(), 0);
        if (n <= 0) {
          ok = false;
          return;
        }
        got += static_cast<std::uint64_t>(n);
      }
    });
    std::vector<std::uint8_t> buf(chunk, 0x3c);
    const auto t0 = Clock::now();
    for (std::uint64_t sent = 0; sent < r.bulkBytes && ok; sent += chunk) {
      if (!sendAll(client.get(), buf.data(), chunk)) ok = false;
    }
    reader.join();
    const double ns = nsSince(t0);
    if (!ok) {
      error = sysError("bulk transfer on loopback failed");
      return std::nullopt;
    }
    r.bulkBytesPerSec = static_cast<double>(r.bulkBytes) * 1e9 / ns;
  }
  return r;
}

std::string tcpBenchJson(const TcpBenchResult& r) {
  nlohmann::json j;
  j["memcpy_bytes_per_sec"] = r.memcpyBytesPerSec;
  j["syscall_ns"] = r.syscallNs;
  j["send_call_ns"] = r.sendCallNs;
  j["recv_call_ns"] = r.recvCallNs;
  j["round_trip_ns"] = r.roundTripNs;
  j["bulk_bytes_per_sec"] = r.bulkBytesPerSec;
  j["bulk_bytes"] = r.bulkBytes;
  return j.dump(2);
}

std::optional<TcpBenchResult> parseTcpBenchJson(const std::string& text, std::string& error) {
  const auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    error = "calibration file is not a JSON object";
    return std::nullopt;
  }
  TcpBenchResult r;
  const std::pair<const char*, double*> keys[] = {{"memcpy_bytes_per_sec", &r.memcpyBytesPerSec},
                                                  {"syscall_ns", &r.syscallNs},
                                                  {"send_call_ns", &r.sendCallNs},
                                                  {"recv_call_ns", &r.recvCallNs},
                                                  {"round_trip_ns", &r.roundTripNs}};
  for (const auto& [key, out] : keys) {
    if (!j.contains(key) || !j[key].is_number() || j[key].get<double>() <= 0) {
      error = std::string("calibration file lacks a positive number for ") + key;
      return std::nullopt;
    }
    *out = j[key].get<double>();
  }
  if (j.contains("bulk_bytes_per_sec") && j["bulk_bytes_per_sec"].is_number()) {
    r.bulkBytesPerSec = j["bulk_bytes_per_sec"].get<double>();
  }
  return r;
}

}  // namespace rdmascope::cli
