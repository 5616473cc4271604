#pragma once
/// @file switch_buffer.h
/// A switch's shared packet buffer, accounted per ingress port and priority as PFC needs it
/// (the model of the HPCC ns-3 simulator's switch MMU, with headroom per port and lossless
/// priority): each (ingress port, priority) first fills its own reserve, then takes from the
/// shared pool up to the XOFF threshold, and a lossless priority then fills its headroom,
/// the bytes still arriving after its PAUSE was sent. The XOFF threshold is static (bytes of
/// shared buffer) or dynamic: alpha times the shared buffer still free. An ingress goes into
/// XOFF (the switch sends PAUSE upstream) when it uses headroom or reaches the threshold, and
/// back to XON when its headroom is empty and its shared use is `xonOffset` below the
/// threshold (or zero).

#include <array>
#include <cstdint>
#include <vector>

namespace rdmascope::sim {

inline constexpr int kPriorities = 8;

struct PfcThresholds {
  /// Dynamic threshold: XOFF at alpha x free shared buffer (HPCC: alpha = 1/2^pfc_a_shift,
  /// shift 3 for a switch port at the NICs' rate). Static: XOFF at `xoff` bytes of shared use.
  bool dynamic = true;
  double alpha = 1.0 / 8.0;
  std::uint64_t xoff = 256 * 1024;
  /// XON this far below the XOFF threshold (HPCC's resume_offset, 3 KiB).
  std::uint64_t xonOffset = 3 * 1024;
};

struct SwitchBufferConfig {
  std::uint64_t bufferBytes = 12ull * 1024 * 1024;  ///< HPCC's SwitchMmu default, 12 MiB
  std::uint64_t reserve = 4 * 1024;                 ///< per ingress port and priority (HPCC: 4 KiB)
  PfcThresholds pfc;
  /// Priorities with PFC (lossless); the others drop when their share is used up.
  std::array<bool, kPriorities> lossless{false, false, false, true, false, false, false, false};
};

/// Where an admitted packet's bytes went (for its release).
enum class Admission : std::uint8_t { Reserve, Shared, Headroom, Dropped };

class SwitchBuffer {
 public:
  /// `headroom[p]`: bytes of headroom of ingress port p for each lossless priority.
  SwitchBuffer(const SwitchBufferConfig& config, std::vector<std::uint64_t> headroom);

  /// Admits a packet of `bytes` arriving on (port, prio), or drops it.
  Admission admit(int port, int prio, std::uint32_t bytes);
  /// Releases a packet's bytes when it leaves the switch.
  void release(int port, int prio, std::uint32_t bytes);

  /// The ingress has passed XOFF and no PAUSE was sent yet.
  bool shouldPause(int port, int prio) const;
  /// The ingress is paused and back below XON.
  bool shouldResume(int port, int prio) const;
  void setPaused(int port, int prio, bool paused);
  bool paused(int port, int prio) const { return at(port, prio).paused; }

  std::uint64_t xoffThreshold() const;
  std::uint64_t sharedUsed() const { return sharedUsed_; }
  /// The shared pool: the buffer minus every reserve and headroom.
  std::uint64_t sharedPool() const { return sharedPool_; }
  std::uint64_t ingressBytes(int port, int prio) const { return at(port, prio).bytes; }
  std::uint64_t headroomBytes(int port, int prio) const { return at(port, prio).headroom; }
  std::uint64_t headroom(int port) const { return headroom_[static_cast<std::size_t>(port)]; }
  /// Bytes above the reserve that count against the threshold.
  std::uint64_t sharedUse(int port, int prio) const;
  const SwitchBufferConfig& config() const { return config_; }

 private:
  struct Ingress {
    std::uint64_t bytes = 0;     ///< reserve + shared
    std::uint64_t headroom = 0;  ///< headroom in use
    bool paused = false;
  };
  Ingress& at(int port, int prio) {
    return ingress_[static_cast<std::size_t>(port * kPriorities + prio)];
  }
  const Ingress& at(int port, int prio) const {
    return ingress_[static_cast<std::size_t>(port * kPriorities + prio)];
  }

  SwitchBufferConfig config_;
  std::vector<std::uint64_t> headroom_;
  std::vector<Ingress> ingress_;
  std::uint64_t sharedPool_ = 0;  ///< buffer minus reserves and headrooms
  std::uint64_t sharedUsed_ = 0;
};

}  // namespace rdmascope::sim
