#pragma once
/// @file live_capture.h
/// Capturing frames from a network interface through libpcap.

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rdmascope/packets/decode.h"
#include "rdmascope/packets_io/capture_reader.h"

namespace rdmascope::packets_io {

namespace detail {
struct PcapHandle;  ///< wraps libpcap's pcap_t, which stays out of public headers
}  // namespace detail

/// The capture filter used when none is given: RoCEv2 and RoCEv1.
inline constexpr const char* kDefaultCaptureFilter = "udp port 4791 or ether proto 0x8915";

/// An interface that can be captured on, as pcap_findalldevs reports it.
struct InterfaceInfo {
  std::string name;
  std::string description;  ///< libpcap's description, or a summary of the flags
  bool loopback = false;
  bool up = false;
  bool running = false;
  std::vector<std::string> addresses;  ///< IPv4/IPv6 addresses in text form
};

/// Options of a live capture.
struct LiveOptions {
  std::string filter = kDefaultCaptureFilter;  ///< BPF expression; empty captures everything
  std::uint32_t snapLength = 262144;
  bool promiscuous = false;
  std::int32_t bufferBytes = 4 << 20;
};

/// Statistics of a live capture (pcap_stats).
struct LiveStats {
  std::uint64_t received = 0;
  std::uint64_t dropped = 0;
  std::uint64_t droppedByInterface = 0;
};

/// A live capture on one interface. next() waits for a frame with a timeout; stop() may be
/// called from any thread and wakes a waiting next().
class LiveCapture {
 public:
  /// The interfaces libpcap can capture on. Sets `error` (and returns empty) on failure.
  static std::vector<InterfaceInfo> listInterfaces(std::string& error);

  /// Opens and activates a capture. On failure returns null and sets a one-line `error`:
  /// "no such capture interface: eth9 ...", "no permission to capture on eth0: ..." (with the
  /// advice to run as root or grant CAP_NET_RAW/CAP_NET_ADMIN), or "invalid capture filter".
  static std::unique_ptr<LiveCapture> open(const std::string& interfaceName, std::string& error,
                                           const LiveOptions& options = {});
  ~LiveCapture();
  LiveCapture(const LiveCapture&) = delete;
  LiveCapture& operator=(const LiveCapture&) = delete;

  enum class Result : std::uint8_t { Frame, Timeout, Stopped, Error };

  /// Waits up to timeoutMs (negative: forever) for a frame. On Frame, `frame` is valid until
  /// the next call. On Error, error() says why.
  Result next(FrameView& frame, int timeoutMs);
  /// Makes a waiting or later next() return Stopped. Safe from any thread.
  void stop();

  packets::LinkType linkType() const { return linkType_; }
  const std::string& interfaceName() const { return name_; }
  const std::string& error() const { return error_; }
  LiveStats stats() const;

 private:
  LiveCapture() = default;
  detail::PcapHandle* pcap_ = nullptr;
  int wakeFd_ = -1;
  std::atomic<bool> stopped_{false};
  packets::LinkType linkType_ = packets::LinkType::Ethernet;
  std::string name_;
  std::string error_;
};

}  // namespace rdmascope::packets_io
