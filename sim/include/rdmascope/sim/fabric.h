#pragma once
/// @file fabric.h
/// A switched RoCEv2 fabric: the simulator's hosts (sim::Host with their RC requester,
/// completer and responder) joined by switches over links with their own speed and delay.
///
/// Every node port sends one frame at a time at its link's rate (Ethernet's 24 bytes of
/// preamble, FCS and gap included) and a frame arrives whole after the link's delay (store and
/// forward). A switch port keeps one egress queue per priority (from the DSCP, DSCP / 8, or
/// from the 802.1Q PCP), served highest priority first; PFC PAUSE frames go first of all. The
/// switch buffer (switch_buffer.h) decides admission, XOFF and XON per ingress port and
/// priority; an 802.1Qbb PAUSE with the configured quanta (XOFF, repeated while the ingress stays
/// above XON) or quanta 0 (XON) goes upstream on the wire, and the upstream port (switch or
/// NIC) stops that priority for quanta x 512 bit times. ECN marking (the congestion point) is
/// done at dequeue, from the egress queue's bytes, on ECN-capable frames: CE in the IP header,
/// the IP checksum updated (the ICRC masks the ECN bits).
///
/// A NIC sends its flows (each QP's outgoing packets) round robin, each paced at its DCQCN
/// rate. As notification point it answers a CE-marked packet with a CNP (BTH opcode 0x81 to
/// the sending QP, at most one per QP per CNP interval); as reaction point it runs dcqcn.h's
/// rate state machine per QP. A NIC receives at line rate (it never sends PAUSE).
///
/// Views follow a run through its typed events (setEventSink, fabric_events.h), its frames
/// (captures() or setCaptureSink) and its time series (series(), or seriesJson() for files).
///
/// Known limits: RoCEv2 over IPv4 only; switches forward by destination IP over the
/// shortest paths (or the scenario's routes) without TTL or MAC rewriting; a PAUSE takes effect
/// at the next frame boundary of the paused port.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "rdmascope/sim/dcqcn.h"
#include "rdmascope/sim/fabric_events.h"
#include "rdmascope/sim/network.h"
#include "rdmascope/sim/switch_buffer.h"
#include "rdmascope/sim/topology.h"

namespace rdmascope::sim {

/// A frame seen on a captured port (when its first bit went on the wire).
struct FabricCapture {
  SimTime time;
  std::string port;  ///< the sending port, e.g. "s0:3" or "h2"
  std::vector<std::uint8_t> bytes;
};

/// A period during which a port's priority was paused by its peer's PAUSE frames.
struct PauseInterval {
  std::string port;  ///< the paused (sending) port
  int priority = 0;
  SimTime start, end;
};

struct FabricCounters {
  std::uint64_t framesTransmitted = 0;  ///< link transmissions (every hop, every kind)
  std::uint64_t framesForwarded = 0;    ///< switch transmissions of host frames
  std::uint64_t dataFramesDelivered = 0;
  std::uint64_t dropsLossy = 0;     ///< a lossy priority's share of the buffer was full
  std::uint64_t dropsHeadroom = 0;  ///< a lossless priority overflowed its headroom
  std::uint64_t pauseFramesSent = 0, xonFramesSent = 0, pauseFramesReceived = 0;
  std::uint64_t cnpsSent = 0, cnpsReceived = 0;
  std::uint64_t ecnMarked = 0;    ///< frames a switch set CE on
  std::uint64_t ceDelivered = 0;  ///< CE frames that reached a NIC
};

struct FlowResult {
  std::string name;
  std::string src, dst;
  std::uint64_t bytesCompleted = 0;  ///< payload of completed WRITEs (goodput)
  std::uint64_t messagesCompleted = 0;
  std::uint64_t bytesOnWire = 0;  ///< payload of the flow's data frames that reached dst
  double goodputGbps = 0;         ///< bytesCompleted over the time since the flow started
  double finalRateGbps = 0;       ///< its DCQCN rate at the end (line rate without DCQCN)
  std::uint64_t cnpsReceived = 0;
  std::string error;  ///< a completion error (e.g. retry exceeded), or empty
};

struct DeadlockReport {
  SimTime detectedAt;
  std::vector<std::string> cycle;  ///< the egress queues "s0:2/3" (port/priority) in the cycle
};

/// One end of a link: a switch port ("l1:0", its node and index) or a host's NIC ("h8").
struct FabricPortInfo {
  std::string name;
  std::string node;
  int index = 0;     ///< on its node
  std::string peer;  ///< the port at the other end
  double gbps = 0;
  bool isSwitch = false;
};

/// The sampled time series of a run (every sampleInterval), typed: what seriesJson() writes.
struct FabricSeries {
  SimTime interval;
  std::vector<SimTime> times;  ///< the end of each sample period
  struct Queue {
    std::string port;  ///< a switch egress port
    int priority = 0;
    std::uint64_t headroomBytes = 0;  ///< of that port as an ingress
    std::vector<std::uint64_t> bytes;
  };
  std::vector<Queue> queues;  ///< every egress queue that ever held a frame
  struct Flow {
    std::string name, src, dst;
    std::vector<double> deliveredGbps;  ///< payload reaching dst per period
    std::vector<double> dcqcnRateGbps;  ///< the sender's DCQCN rate (line rate without)
  };
  std::vector<Flow> flows;
  /// Bytes each port (in ports() order) sent per period.
  std::vector<std::vector<std::uint64_t>> portTxBytes;
  /// Each switch's XOFF threshold (bytes of shared use) per period: dynamic thresholds move
  /// with the free shared buffer.
  std::map<std::string, std::vector<std::uint64_t>> xoffBytes;
};

class Fabric final : public FrameFabric, public EventTarget {
 public:
  /// Builds the fabric, its hosts and flows. Throws std::invalid_argument (one line) when the
  /// topology cannot carry the flows (no path, a host with several links, a bad capture port).
  explicit Fabric(const ScenarioSpec& spec);
  ~Fabric() override;
  Fabric(const Fabric&) = delete;
  Fabric& operator=(const Fabric&) = delete;

  /// Runs until the scenario's duration.
  void run();
  /// Runs until `until` (for stepping).
  void runUntil(SimTime until);

  Network& network() { return *net_; }
  const ScenarioSpec& spec() const { return spec_; }
  const FabricCounters& counters() const { return counters_; }
  std::vector<FlowResult> flows() const;
  const std::vector<FabricCapture>& captures() const { return captures_; }
  /// Hands each frame of a captured port to `sink` as it is sent instead of keeping it in
  /// captures() (which then stays empty): a long run streams its pcap in bounded memory, and a
  /// run without one keeps nothing. Call before run().
  void setCaptureSink(std::function<void(const FabricCapture&)> sink) {
    captureSink_ = std::move(sink);
  }
  std::vector<PauseInterval> pauses() const;
  /// Receives every event of fabric_events.h as it happens (nothing is built without a sink).
  /// Call before run().
  void setEventSink(std::function<void(const FabricEvent&)> sink) { eventSink_ = std::move(sink); }
  /// Every port of the fabric, two per link in the scenario's link order.
  std::vector<FabricPortInfo> ports() const;
  /// One line per switch whose buffer configuration defeats PFC (e.g. no shared buffer left
  /// after the reserves and headrooms): empty when none.
  std::vector<std::string> configWarnings() const;
  const std::optional<DeadlockReport>& deadlock() const { return deadlock_; }
  /// Bytes in all switch queues now (what the PFC scenarios must account for).
  std::uint64_t bytesQueued() const;

  /// The headroom an ingress needs on a link of `gbps` and `delay` for frames of up to
  /// `frameBytes` on the wire: what keeps arriving after the switch decides to pause: the
  /// frame the switch's port is sending (the PAUSE waits behind it), the PAUSE's own time on
  /// the wire, the link's round trip (the PAUSE travelling up, the data travelling down), and
  /// the frame the upstream port has started when the PAUSE arrives; plus one more frame for
  /// the quanta's granularity.
  static std::uint64_t requiredHeadroom(double gbps, SimTime delay, std::uint32_t frameBytes);
  /// The headroom in use on switch port "s0:3" (its configured or computed value).
  std::uint64_t headroomOf(const std::string& port) const;

  /// Keep every DCQCN step of each flow's reaction point.
  void recordDcqcn(bool on);
  /// The reaction point of scenario flow `flow` (null without DCQCN or before it sent).
  const DcqcnReactionPoint* reactionPoint(int flow) const;

  /// The time series for a GUI: per-queue depth, per-flow rate and DCQCN rate, the pause
  /// timeline, the thresholds, counters and the deadlock.
  nlohmann::json seriesJson() const;
  FabricSeries series() const;
  /// A text summary: drops, pauses, CNPs, ECN marks, per-flow throughput, deadlock.
  std::string summary() const;

  // FrameFabric
  SimTime send(int fromHost, Frame& frame) override;
  // EventTarget
  void onEvent(std::uint32_t code, std::uint64_t arg) override;

  struct Impl;

 private:
  ScenarioSpec spec_;
  std::unique_ptr<Network> net_;
  std::unique_ptr<Impl> impl_;
  FabricCounters counters_;
  std::vector<FabricCapture> captures_;
  std::function<void(const FabricCapture&)> captureSink_;
  std::function<void(const FabricEvent&)> eventSink_;
  std::optional<DeadlockReport> deadlock_;
};

}  // namespace rdmascope::sim
