#pragma once
/// @file fabric.h
/// The fabric: N simulated hosts on one switch. Programs attach to it through their simulated
/// NIC (the drop-in libibverbs); it forwards each frame to the host that owns the destination
/// MAC address, loses frames at the configured rate, and writes every frame to a pcap that is
/// flushed as it goes, so tshark or the GUI can follow it live. It keeps running when a program
/// exits or crashes: that host is free again, and its peers see what rxe's would (retries, then
/// retry-exceeded errors).

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "rdmascope/sim/network.h"
#include "rdmascope/simdev/nic.h"

namespace rdmascope::simdev {

struct FabricConfig {
  std::string socketPath;  ///< where programs attach (defaultFabricSocket() when empty)
  int hosts = 2;           ///< 1..254
  double lossRate = 0.0;   ///< per frame, 0..1
  std::uint64_t seed = 1;
  sim::WireFormat wire = sim::WireFormat::RoceV2Ipv4;
  std::uint32_t linkMtu = 1500;
  std::string pcapPath;  ///< empty: none
};

/// What the fabric counted so far.
struct FabricStats {
  std::uint64_t frames = 0;      ///< received from hosts
  std::uint64_t forwarded = 0;   ///< delivered to the destination host
  std::uint64_t lost = 0;        ///< dropped by the configured loss
  std::uint64_t unroutable = 0;  ///< no attached host owns the destination
};

class Fabric {
 public:
  /// Binds the socket and opens the pcap. Null with a one-line `error` when the socket path
  /// is in use by a running fabric, cannot be created, or the pcap cannot be written.
  static std::unique_ptr<Fabric> open(const FabricConfig& config, std::string& error);
  ~Fabric();
  Fabric(const Fabric&) = delete;
  Fabric& operator=(const Fabric&) = delete;

  const FabricConfig& config() const;
  /// Serves until stop() (from any thread or a signal handler). Each line of the log (hosts
  /// attaching and leaving, what a program's verbs call did wrong) goes to `log`.
  void run(const std::function<void(const std::string& line)>& log);
  void stop();
  FabricStats stats() const;

 private:
  Fabric() = default;

 public:
  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace rdmascope::simdev
