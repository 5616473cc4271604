#pragma once
/// @file oob_exchange.h
/// The out-of-band exchange two verbs programs need before their QPs can talk, over one TCP
/// connection as rdma-core's rc_pingpong does it: each side sends its LID, QPN, PSN and GID,
/// plus the address, rkey and length of a region the peer may access, as one text line.
/// Barriers over the same connection let both sides agree that a phase is over (e.g. before
/// destroying QPs, so that no last ACK is lost to a peer that has gone).

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "rdmascope/verbs_backend/backend.h"

namespace rdmascope::verbs_backend {

/// What one side tells the other.
struct PeerInfo {
  std::uint16_t lid = 0;
  std::uint32_t qpn = 0;
  std::uint32_t psn = 0;  ///< 24 bits
  Gid gid{};
  std::uint64_t addr = 0;  ///< a region the peer may access remotely (0 if none)
  std::uint32_t rkey = 0;
  std::uint64_t length = 0;

  bool operator==(const PeerInfo&) const = default;
};

/// The line a PeerInfo travels as, e.g.
/// "rdmascope-oob 1 lid 0000 qpn 000011 psn 5d30ae gid 0000...ffff0a090001 addr ... rkey ...
/// len ...".
std::string formatPeerInfo(const PeerInfo& info);
/// Parses formatPeerInfo's line; a malformed line is an EPROTO error naming what was wrong.
Result<PeerInfo> parsePeerInfo(std::string_view line);

/// One connected TCP stream to the peer.
class OobConnection {
 public:
  /// Not connected; every call fails with ENOTCONN.
  OobConnection() = default;
  OobConnection(OobConnection&& other) noexcept;
  OobConnection& operator=(OobConnection&& other) noexcept;
  OobConnection(const OobConnection&) = delete;
  OobConnection& operator=(const OobConnection&) = delete;
  ~OobConnection();

  /// Connects to host:port, retrying refused connections until `timeout` (the peer may still
  /// be starting). When `stop` becomes true (another thread) it gives up with ECANCELED; the
  /// connection keeps `stop` for its own waits (setStop).
  static Result<OobConnection> connect(const std::string& host, std::uint16_t port,
                                       std::chrono::milliseconds timeout,
                                       const std::atomic<bool>* stop = nullptr);

  /// Every wait of this connection (readLine, barrier, exchange) ends with ECANCELED soon
  /// after `*stop` becomes true; nullptr: waits end only at their timeout.
  void setStop(const std::atomic<bool>* stop) { stop_ = stop; }

  /// Sends `local` and returns what the peer sent (both sides call this).
  Result<PeerInfo> exchange(const PeerInfo& local, std::chrono::milliseconds timeout);
  /// Sends one line (no newline inside) and reads the peer's next line.
  Status sendLine(std::string_view line);
  Result<std::string> readLine(std::chrono::milliseconds timeout);
  /// Both sides call barrier(name); it returns when the peer has reached the same barrier.
  Status barrier(std::string_view name, std::chrono::milliseconds timeout);

 private:
  friend class OobListener;
  explicit OobConnection(int fd);
  int fd_ = -1;
  std::string pending_;
  const std::atomic<bool>* stop_ = nullptr;
};

/// A listening TCP socket that accepts the peer's connection.
class OobListener {
 public:
  /// Not listening; accept() fails with ENOTCONN.
  OobListener() = default;
  OobListener(OobListener&& other) noexcept;
  OobListener& operator=(OobListener&& other) noexcept;
  OobListener(const OobListener&) = delete;
  OobListener& operator=(const OobListener&) = delete;
  ~OobListener();

  /// Listens on all IPv4 addresses at `port` (0: the kernel picks one; see port()).
  static Result<OobListener> listen(std::uint16_t port);
  std::uint16_t port() const { return port_; }
  /// Waits up to `timeout` for one connection (ECANCELED when `*stop` becomes true); the
  /// connection inherits the listener's stop flag.
  Result<OobConnection> accept(std::chrono::milliseconds timeout);
  /// See OobConnection::setStop.
  void setStop(const std::atomic<bool>* stop) { stop_ = stop; }

 private:
  OobListener(int fd, std::uint16_t port) : fd_(fd), port_(port) {}
  int fd_ = -1;
  std::uint16_t port_ = 0;
  const std::atomic<bool>* stop_ = nullptr;
};

}  // namespace rdmascope::verbs_backend
