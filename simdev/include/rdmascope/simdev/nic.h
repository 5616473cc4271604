#pragma once
/// @file nic.h
/// The simulated RDMA NIC inside a program: one simulated host (the simulator's HCA model, the
/// same QP/CQ/WQE engines as every other mode) whose memory is the program's own address
/// space, attached to a running fabric (`rdmascope-cli fabric`) that relays its frames to the
/// other hosts. The drop-in libibverbs.so.1 and librdmacm.so.1 are thin C layers over it.
///
/// Time is real: simulated time is the monotonic clock since attach, so the transport's timers
/// (retransmit, RNR) fire as rxe's do. Work is done by whichever thread holds the lock: a verbs
/// call runs what it made due (a post_send puts its packets on the wire before returning), a
/// poll takes in the frames that arrived, and a progress thread does both while the program
/// sleeps, so a one-sided WRITE lands in memory with no verbs call on the target.

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rdmascope/sim/host.h"
#include "rdmascope/sim/network.h"

namespace rdmascope::simdev {

/// Environment of a program on the fabric (set by `rdmascope-cli exec`, or by hand).
inline constexpr const char* kFabricEnv = "RDMASCOPE_FABRIC";  ///< the fabric's socket path
inline constexpr const char* kHostEnv = "RDMASCOPE_HOST";      ///< host number, 1-based
/// Set (to 1) by `rdmascope-cli exec --sniff`: the program attaches as a sniffer of the host's
/// port (it sees a copy of every frame the host sends and receives, through a raw-packet QP
/// with a sniffer flow) instead of taking the host, which another program may hold.
inline constexpr const char* kSniffEnv = "RDMASCOPE_SNIFF";

/// A host of the fabric as every host learns it when attaching.
struct FabricHost {
  int number = 0;  ///< 1-based
  std::string name;
  sim::MacAddress mac{};
  std::uint32_t ipv4 = 0;  ///< host order: 10.9.0.N
  sim::Gid ipv6{};         ///< fd00::a09:N, the GID of the IPv6 wire formats
};

/// What the fabric tells an attaching host.
struct FabricInfo {
  int self = 0;            ///< this host's number (1-based)
  std::string deviceName;  ///< "rdmascope0"
  sim::WireFormat wire = sim::WireFormat::RoceV2Ipv4;
  std::uint32_t linkMtu = 1500;   ///< largest L3 packet; the active MTU follows as on rxe
  std::vector<FabricHost> hosts;  ///< every host, index number-1
  const FabricHost& me() const { return hosts.at(static_cast<std::size_t>(self - 1)); }
};

class Nic {
 public:
  /// The process's NIC, attached on first use to the fabric named by the environment. Null
  /// when it cannot attach; `error` then holds one line naming why (no fabric at the path,
  /// the host is taken, the host does not exist, RDMASCOPE_FABRIC unset).
  static Nic* get(std::string& error);

  const FabricInfo& info() const { return info_; }
  /// The port's active MTU in bytes (1500 -> 1024, 9000 -> 4096, as rxe).
  std::uint32_t activeMtu() const;
  /// The GID table: index 0 the link-local fe80:: address from the MAC, index 1 the IPv4-mapped
  /// address (RoCEv2/IPv4) or the IPv6 address. False for any other index.
  bool gid(int index, sim::Gid& out) const;

  /// Exclusive use of the simulated host. Constructing it advances simulated time to now and
  /// takes in the frames that arrived; destroying it runs what the call made due and wakes the
  /// progress thread when the next timer moved earlier. Hold it for the whole verbs call.
  ///
  /// A session that names its verbs call (e.g. "ibv_post_send(QP 0x11, RDMA_WRITE, 4096 B)")
  /// is a step of the program: while an observer holds the fabric paused it waits before
  /// taking the lock until the observer lets one call through, and the observer is told the
  /// call. Polls and internal work use the unnamed form, which never waits.
  class Session {
   public:
    explicit Session(Nic& nic);
    Session(Nic& nic, std::string_view call);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;
    sim::Host& host() { return nic_.host(); }
    /// Runs the events that are due now (e.g. after a post, before returning to the caller).
    void runDue();

   private:
    Nic& nic_;
    std::unique_lock<std::mutex> lock_;
    bool named_ = false;
  };

  /// Called under the session lock after each completion is added to a CQ (wakes completion
  /// channels); one listener per process.
  void setCompletionListener(std::function<void(std::uint32_t cq)> listener);
  /// Sends one line to the fabric's log, prefixed with this host (what went wrong, in verbs
  /// terms). Also printed on stderr when RDMASCOPE_VERBOSE is set.
  void log(std::string_view line);
  /// False once the fabric has gone away (frames are then dropped, as on a dead link).
  bool fabricAlive() const;
  /// True while an observer watches the fabric: only then are named calls reported, so a
  /// verbs call builds its name only when this is true.
  bool observed() const;
  /// True when this program attached as a sniffer of its host's port (kSniffEnv): it sends
  /// nothing and receives no frames of its own, only the copies of the port's traffic.
  bool sniffing() const;
  /// Called under the session lock with the simulated host, each frame of the port a sniffer
  /// receives (sent or received by the host) and the Unix time in ns it passed the port, in
  /// the order the port saw them; one listener per process.
  using SniffListener =
      std::function<void(sim::Host&, std::span<const std::uint8_t>, std::int64_t)>;
  void setSniffListener(SniffListener listener);

  Nic(const Nic&) = delete;
  Nic& operator=(const Nic&) = delete;
  ~Nic();

 private:
  Nic();
  bool attach(std::string& error);
  sim::Host& host();
  void takeFrames();
  void control(std::span<const std::uint8_t> body);
  void sendState();
  void progressLoop();
  friend class Session;

  struct Impl;
  std::unique_ptr<Impl> impl_;
  FabricInfo info_;
};

}  // namespace rdmascope::simdev
