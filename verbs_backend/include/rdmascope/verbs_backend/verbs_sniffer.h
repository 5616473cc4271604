#pragma once
/// @file verbs_sniffer.h
/// Capturing every frame of an RDMA device's port through the verbs: a raw-packet QP with a
/// sniffer flow rule (ibv_create_flow with IBV_FLOW_ATTR_SNIFFER), as libpcap's rdmasniff and
/// ibdump do, with the drop accounting they lack. On a RoCE NIC the RDMA traffic never passes
/// the kernel's network stack, so a netdev capture shows none of it; this one does (mlx5, and
/// the simulated device under `rdmascope-cli exec --sniff`). rxe has no sniffer support.
///
/// The receive queue is the capture's only buffer: a frame that finds no receive WQE posted
/// is dropped by the device, which counts it (mlx5's hw_counters/out_of_buffer); stats() reads
/// that counter's growth since open().

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace rdmascope::verbs_backend {

/// An RDMA device as `ibv_devices` lists it, with its first port.
struct RdmaDeviceInfo {
  std::string name;       ///< e.g. "mlx5_0", "rxe0", "rdmascope0"
  std::string linkLayer;  ///< "Ethernet" or "InfiniBand" (empty when the port cannot be queried)
  std::string netdev;     ///< the network interface of a RoCE port, when the device names one
  bool active = false;    ///< port 1 is ACTIVE
};

/// Options of a verbs capture.
struct SnifferOptions {
  std::uint32_t rqDepth = 4096;    ///< receive WQEs posted (the capture's buffer, in frames)
  std::uint32_t slotBytes = 9216;  ///< bytes per receive buffer: the largest frame captured
  bool hardwareTimestamps = true;  ///< use the device's completion timestamps when it has them
};

/// Where the timestamps of a verbs capture come from.
enum class TimestampSource : std::uint8_t {
  Hardware,  ///< the device's completion clock (extended CQ), converted to Unix time
  Software,  ///< the host's clock when the completion was polled
};

/// Counters of a verbs capture.
struct SnifferStats {
  std::uint64_t received = 0;  ///< completions with a frame
  std::uint64_t errors = 0;    ///< completions in error (e.g. a frame longer than a slot)
  /// Frames the device dropped for want of a receive WQE since open() (its out_of_buffer
  /// counter); meaningful only when `dropsKnown`.
  std::uint64_t dropped = 0;
  bool dropsKnown = false;  ///< the device exposes the counter
};

/// One captured frame; `data` is valid until the next call of next().
struct SniffedFrame {
  std::span<const std::uint8_t> data;
  std::uint32_t originalLength = 0;
  std::int64_t timestampNs = 0;  ///< Unix time
};

/// A capture on port 1 of one RDMA device.
class VerbsSniffer {
 public:
  /// The RDMA devices of the machine, in libibverbs' order. Empty when there are none or
  /// rdmascope was built without libibverbs.
  static std::vector<RdmaDeviceInfo> listDevices();
  /// True when `name` is one of listDevices()' names.
  static bool isDevice(const std::string& name);

  /// Opens the device and starts the capture. On failure returns null with a one-line `error`:
  /// no such device, no permission (raw-packet QPs need CAP_NET_RAW), or no sniffer support
  /// (naming the netdev to capture on instead, when the device has one).
  static std::unique_ptr<VerbsSniffer> open(const std::string& device, std::string& error,
                                            const SnifferOptions& options = {});
  /// Tears the capture down in reverse order of creation: flow, QP, memory, CQ, channel, PD,
  /// device.
  ~VerbsSniffer();
  VerbsSniffer(const VerbsSniffer&) = delete;
  VerbsSniffer& operator=(const VerbsSniffer&) = delete;

  enum class Result : std::uint8_t { Frame, Timeout, Stopped, Error };
  /// Waits up to timeoutMs (negative: forever) for a frame. After stop() it still returns the
  /// frames the device completed before the stop, then Stopped. On Error, error() says why.
  Result next(SniffedFrame& frame, int timeoutMs);
  /// Makes a waiting or later next() return Stopped. Async-signal-safe, from any thread.
  void stop();

  /// True for an InfiniBand port (frames start with the LRH), false for Ethernet (RoCE).
  bool infiniband() const { return infiniband_; }
  TimestampSource timestampSource() const { return timestamps_; }
  const std::string& deviceName() const { return name_; }
  const std::string& error() const { return error_; }
  SnifferStats stats() const;

  struct Impl;

 private:
  VerbsSniffer();
  std::unique_ptr<Impl> impl_;
  int wakeFd_ = -1;
  std::atomic<bool> stopped_{false};
  bool drained_ = false;  ///< the completions made before the stop were taken
  bool infiniband_ = false;
  TimestampSource timestamps_ = TimestampSource::Software;
  std::string name_;
  std::string error_;
};

}  // namespace rdmascope::verbs_backend
