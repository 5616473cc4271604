#pragma once
/// @file network.h
/// Two simulated hosts joined by one full-duplex link with latency, bandwidth, MTU and
/// injected faults. Every frame is real bytes with a valid ICRC; the receiver parses what it
/// gets and silently drops a frame whose ICRC does not verify, as hardware does. Corruption
/// (FaultConfig::corruptRate) is the only fault that changes bytes: a frame sent while it is
/// configured for its direction has its ICRC verified by the receiver; any other frame arrives
/// with exactly the bytes its ICRC was computed over, and the receiver skips that second CRC
/// pass (LinkStats::icrcChecked counts the verified frames).
///
/// The transport follows Linux Soft-RoCE (rdma_rxe: rxe_req.c, rxe_comp.c, rxe_resp.c): AckReq
/// on the last packet of a message and after 65 unacknowledged packets, at most 128
/// unacknowledged PSNs and 64 in-flight frames per QP, READ requests reserving the PSNs of their
/// responses, responder resources replaying duplicate READs and atomics, NAK PSN sequence error
/// with go-back-N, RNR NAK with the IBTA timer table (the retry flow waits for the RNR timer
/// and the retransmit timer keeps running meanwhile, as rxe 6.x), retry_cnt 7 and rnr_retry 7
/// meaning "forever" (rxe decrements neither when 7), rkey 0 for an MR without remote access.
/// Frame events and captured frames are timed when the frame's first bit goes on the wire.
/// Known differences: timers are exact (rxe rounds up to jiffies, 4 ms at Debian's HZ=250);
/// requester, completer and responder take no CPU time; a receive buffer that
/// is too small completes with LOC_LEN_ERR on the receiver (IBTA; rxe reports
/// REM_INV_REQ_ERR there); a UC FIRST/ONLY that interrupts an unfinished message starts a new
/// message (rxe drops that packet too).

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "rdmascope/sim/host.h"
#include "rdmascope/sim/sim_time.h"
#include "rdmascope/sim/simulator.h"

namespace rdmascope::sim {

/// How frames are put on the wire.
enum class WireFormat : std::uint8_t {
  RoceV2Ipv4,  ///< Ethernet / IPv4 / UDP 4791 / BTH ... / ICRC (default)
  RoceV2Ipv6,  ///< Ethernet / IPv6 / UDP 4791 / BTH ... / ICRC
  RoceV1,      ///< Ethernet (0x8915) / GRH / BTH ... / ICRC
  InfiniBand,  ///< LRH / BTH ... / ICRC / VCRC (pcap link type 247)
};

std::string_view toString(WireFormat format);

struct LinkConfig {
  SimTime latency = SimTime::us(1);  ///< propagation delay, each direction
  double gbps = 100.0;               ///< serialization rate
  std::uint32_t mtu = 9000;          ///< largest L3 packet (IP or GRH+IB) the link carries
};

/// Frames to lose or otherwise mistreat. Rates are per frame, drawn from the seeded PRNG.
struct FaultConfig {
  double lossRate = 0.0;
  double reorderRate = 0.0;  ///< chance a frame is held back by reorderDelay
  SimTime reorderDelay = SimTime::us(5);
  double duplicateRate = 0.0;             ///< chance a frame is delivered twice
  double corruptRate = 0.0;               ///< chance one byte of a frame is flipped
  std::vector<std::uint64_t> dropFrames;  ///< 1-based frame numbers (as in a capture) to lose
  /// Request packets to lose by PSN (responses are never matched).
  struct PsnDrop {
    std::uint32_t psn = 0;
    int fromHost = -1;  ///< -1: either direction
    int count = 1;      ///< how many transmissions of that PSN to lose (when occurrence is 0)
    /// Lose exactly the n-th transmission (1 = the first) of that PSN from fromHost (or from
    /// either host, counted per host), as a capture numbers them; 0: the next `count` ones.
    int occurrence = 0;
  };
  std::vector<PsnDrop> dropPsns;
  /// A requester's retransmit timer runs out right after its host has sent `afterRequests`
  /// request packets (counted in the order sent, lost or not): replays a lab run where rxe's
  /// timer, armed by an earlier message and never stopped by its ACK, expired mid-stream.
  struct TimerFire {
    int host = 0;
    std::uint32_t qpn = 0;
    std::uint64_t afterRequests = 0;
  };
  std::vector<TimerFire> timerFires;
  struct Pause {
    SimTime start;
    SimTime duration;
  };
  std::vector<Pause> pauses;  ///< the link transmits nothing during a pause (frames wait)
  /// Restrict the rates to frames sent by one host (-1: both directions).
  int onlyFromHost = -1;
};

/// Where frames go when the network's other hosts live outside this process (the simulated
/// verbs device: each program's library simulates its own host, and a fabric process relays
/// frames between them). The port gets every frame a local host puts on the wire.
class WirePort {
 public:
  virtual ~WirePort() = default;
  /// A frame leaving local host `fromHost`: its bytes exactly as on the wire.
  virtual void send(int fromHost, std::span<const std::uint8_t> frame) = 0;
};

class Network;
struct Frame;

/// Carries frames between the hosts of a network of more than two (the switched fabric of
/// fabric.h): it takes every frame a host puts on the wire and hands each back to
/// Network::deliverFrame() at its destination, or to Network::releaseFrame() when it is lost.
class FrameFabric {
 public:
  virtual ~FrameFabric() = default;
  /// A frame leaving host `fromHost`; the fabric owns it from now on. Returns the time the
  /// NIC expects the frame's last bit to leave (what the transport paces its in-flight
  /// frames by); the fabric may send it later (paused or rate-limited).
  virtual SimTime send(int fromHost, Frame& frame) = 0;
};

struct NetworkConfig {
  std::uint64_t seed = 1;
  /// Hosts simulated in this process: 2 (both ends of the link), or 1 with a `port` (the
  /// other hosts are reached through it).
  int localHosts = 2;
  /// Non-null: frames leave through this port instead of the link to the other local host,
  /// and frames from outside come in through Network::receive(). Not owned.
  WirePort* port = nullptr;
  WireFormat wire = WireFormat::RoceV2Ipv4;
  LinkConfig link;
  FaultConfig faults;
  HostConfig hosts[2];
  /// Non-null: the hosts are `fabricHosts` (any number), and frames go through this fabric
  /// instead of the link (RoCEv2 over IPv4 only). Not owned.
  FrameFabric* fabric = nullptr;
  std::vector<HostConfig> fabricHosts;
  /// Keep a copy of every frame sent (for pcap writing).
  bool captureFrames = false;
  /// Copy payload into each frame as rxe does into its skb (true), or reference host memory
  /// (false; faster, used by the benchmark: the referenced bytes must stay unchanged until
  /// the frame is received, as verbs require of a buffer until its work request completes).
  bool copyPayload = true;
  /// Model rxe's per-QP limit of 64 in-flight skbs (requester waits until 16 remain).
  bool limitInflight = true;
};

/// A frame as a capture sees it at the sender.
struct CapturedFrame {
  SimTime time;
  int fromHost = 0;
  std::vector<std::uint8_t> bytes;
};

struct LinkStats {
  std::uint64_t framesSent = 0;
  std::uint64_t framesDelivered = 0;
  std::uint64_t framesLost = 0;
  std::uint64_t framesCorrupted = 0;
  std::uint64_t framesDuplicated = 0;
  std::uint64_t framesReordered = 0;
  std::uint64_t icrcDrops = 0;
  /// Frames whose ICRC (and VCRC) the receiver verified: those sent while corruption was
  /// configured for their direction. The others reach it with exactly the bytes the sender's
  /// ICRC covers (nothing on this link rewrites a frame), so a second CRC pass is skipped.
  std::uint64_t icrcChecked = 0;
  std::uint64_t bytesSent = 0;
};

/// The transport fields of one frame, for ladder diagrams and tests.
struct PacketSummary {
  bool ok = false;    ///< parsed and ICRC (and VCRC) verified
  std::string error;  ///< why not, when !ok
  std::uint8_t opcode = 0;
  std::string opcodeName;  ///< e.g. "RC SEND FIRST"
  std::uint32_t psn = 0;
  std::uint32_t destQp = 0;
  bool ackReq = false;
  std::uint8_t pad = 0;
  bool hasReth = false, hasAeth = false, hasAtomicAck = false, hasImm = false, hasDeth = false;
  std::uint64_t va = 0;
  std::uint32_t rkey = 0;
  std::uint32_t dmaLen = 0;
  std::uint8_t syndrome = 0;
  std::uint32_t msn = 0;
  std::uint64_t origData = 0;
  std::uint32_t imm = 0;
  std::uint32_t qkey = 0;
  std::uint32_t srcQp = 0;
  std::uint32_t payloadLen = 0;
};

/// Parses one frame's bytes as the receiving NIC does.
PacketSummary summarizeFrame(WireFormat format, std::span<const std::uint8_t> bytes);

class Link;
struct WireAddress;

class Network {
 public:
  explicit Network(NetworkConfig config = defaultConfig());
  ~Network();
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;

  /// Hosts "host-a" 10.9.0.1 and "host-b" 10.9.0.2, RoCEv2 over IPv4, 100 Gb/s, 1 us.
  static NetworkConfig defaultConfig();

  Simulator& sim() { return sim_; }
  Host& host(int index) { return *hosts_[static_cast<std::size_t>(index)]; }
  const NetworkConfig& config() const { return config_; }
  FaultConfig& faults();
  const std::vector<CapturedFrame>& frames() const { return captured_; }
  const LinkStats& stats() const;
  /// Frames sent so far (the next frame gets number framesSent()+1).
  std::uint64_t framesSent() const;

  /// The port's active MTU in bytes: the largest IB MTU that fits the link MTU with rxe's
  /// 80 bytes of headroom (1500 -> 1024, 9000 -> 4096).
  std::uint32_t activeMtu() const;

  // --- used by the transport ---------------------------------------------------------
  Frame& allocFrame();
  void releaseFrame(Frame& frame);
  /// Puts a built frame on the wire; returns when its last bit has left the sender's NIC.
  /// `why` (null when not tracing) is the cause its FrameSent event names.
  SimTime transmit(int fromHost, Frame& frame, const TraceCause* why);
  /// Source and destination addresses for a packet from `fromHost` to the address vector.
  WireAddress addressFor(int fromHost, const AhAttr& ah, std::uint32_t qpn) const;
  void capture(int fromHost, SimTime time, const std::vector<std::uint8_t>& bytes);

  /// A frame from outside (through the port) arrives now: its ICRC is verified, and a frame
  /// that does not verify, is not RDMA or is not for a local host is dropped as a NIC drops it.
  /// Returns why it was dropped, or an empty string when it was delivered.
  std::string_view receive(std::span<const std::uint8_t> frame);
  /// A frame the fabric carried to host `toHost`: parsed (ICRC checked when it may have been
  /// changed) and delivered, or dropped as a NIC drops it; the frame is released either way.
  std::string_view deliverFrame(int toHost, Frame& frame);
  /// The number of local hosts (NetworkConfig::localHosts, or the fabric's hosts).
  int localHosts() const { return config_.localHosts; }
  /// True when `index` names a local host.
  bool hasHost(int index) const {
    return index >= 0 && index < config_.localHosts &&
           hosts_[static_cast<std::size_t>(index)] != nullptr;
  }

 private:
  NetworkConfig config_;
  Simulator sim_;
  std::vector<std::unique_ptr<Host>> hosts_;
  std::unique_ptr<Link> link_;
  std::vector<CapturedFrame> captured_;
};

}  // namespace rdmascope::sim
