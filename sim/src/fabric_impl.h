#pragma once
// The fabric's inner state (fabric.cpp runs it, fabric_report.cpp reports it): ports with
// their queues and pause state, nodes with their switch buffer and routes, the NICs' flows,
// the scenario's connections and the time series.

#include <array>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "frame.h"
#include "rdmascope/sim/fabric.h"

namespace rdmascope::sim {

struct Fabric::Impl {
  struct Queued {
    Frame* f;
    std::int16_t inPort;  ///< ingress port on this switch, -1 for frames made here
    std::uint8_t prio;
    std::uint32_t bytes;
  };
  struct Port {
    int node = 0;
    int index = 0;  ///< on its node
    int peer = -1;  ///< global id of the other end
    double gbps = 100;
    SimTime delay;
    std::string name;
    bool capture = false;
    std::array<std::deque<Queued>, kPriorities> q;
    std::array<std::uint64_t, kPriorities> qBytes{};
    std::deque<Frame*> ctrl;
    bool busy = false;
    std::deque<Frame*> wire;  ///< sent towards the peer, in arrival order
    std::array<SimTime, kPriorities> pausedUntil{};
    std::array<SimTime, kPriorities> pauseStart{};
    std::array<bool, kPriorities> pauseOpen{};
    std::array<std::uint32_t, kPriorities> refreshGen{};  ///< XOFF repeats (see NicFlow)
    SimTime wakeAt = SimTime::max();
    std::vector<int> nicFlows;
    std::size_t rr = 0;
    std::uint64_t txFrames = 0;
    std::uint64_t txBytes = 0;
  };
  struct Node {
    std::string name;
    bool isSwitch = false;
    int host = -1;  ///< network host index
    std::vector<int> ports;
    std::unique_ptr<SwitchBuffer> buffer;
    /// next-hop ports (local indices) towards each network host
    std::vector<std::vector<int>> routes;
  };
  /// One QP's outgoing packets at its NIC.
  struct NicFlow {
    int host = 0;
    int port = 0;
    std::uint32_t qpn = 0;
    std::uint8_t prio = 0;
    std::deque<Frame*> q;
    SimTime nextAllowed;
    SimTime estimate;
    std::optional<DcqcnReactionPoint> rp;
    /// Timer events cannot be cancelled: each arms with a new generation, older ones are
    /// ignored when they fire.
    std::uint32_t alphaGen = 0, rateGen = 0;
    int scenarioFlow = -1;
  };
  struct FlowState {
    int srcHost = 0, dstHost = 0;
    std::uint32_t srcQpn = 0, dstQpn = 0, srcCq = 0;
    std::uint64_t srcBuf = 0, dstBuf = 0;
    std::uint32_t rkey = 0, lkey = 0;
    std::uint64_t posted = 0;
    std::uint64_t wrId = 0;
    int outstanding = 0;
    FlowResult result;
    int nicFlow = -1;
    std::vector<std::uint64_t> rateSeries;  ///< bytes delivered per sample
    std::vector<double> rcSeries;
    std::uint64_t lastBytes = 0;
  };
  struct QueueSeries {
    int port = 0;
    int prio = 0;
    std::vector<std::uint64_t> bytes;
  };

  Fabric& fab;
  Network* net = nullptr;
  std::vector<Port> ports;
  std::vector<Node> nodes;
  std::vector<int> hostNode;  ///< network host -> node
  std::unordered_map<std::uint32_t, int> hostByIp;
  std::vector<NicFlow> nicFlows;
  std::unordered_map<std::uint64_t, int> nicFlowByDest;  ///< (host, dst ip, dest qpn)
  std::unordered_map<std::uint64_t, int> nicFlowByQpn;   ///< (host, local qpn)
  std::unordered_map<std::uint64_t, SimTime> lastCnp;    ///< NP: (host, local qpn)
  std::unordered_map<std::uint64_t, int> flowByDst;      ///< (dst host, dst qpn) -> flow
  std::vector<FlowState> flows;
  std::vector<std::unordered_map<std::uint32_t, int>> flowByCq;  ///< per host
  std::vector<PauseInterval> closedPauses;
  std::vector<SimTime> sampleTimes;
  std::vector<QueueSeries> queueSeries;
  std::unordered_map<int, int> queueSeriesIndex;  ///< port*8+prio
  std::vector<std::uint64_t> deadlockTx;
  std::vector<std::vector<std::uint64_t>> portTxSeries;  ///< per port, bytes sent per sample
  std::vector<std::uint64_t> portTxLast;
  std::map<std::string, std::vector<std::uint64_t>> xoffSeries;  ///< per switch
  bool recordDcqcn = false;
  bool anyPause = false;
  std::vector<std::uint8_t> flat;

  explicit Impl(Fabric& f) : fab(f) {}

  Simulator& sim() { return net->sim(); }
  const ScenarioSpec& spec() const { return fab.spec_; }

  // --- building -----------------------------------------------------------------------
  void build();
  void setupFlows();
  void computeRoutes();

  // --- data path ----------------------------------------------------------------------
  void tryTx(int portId);
  void startTx(int portId, Frame* f, int prio, int inPort, bool isSwitch, int nicFlow);
  void arrive(int senderPortId);
  void switchReceive(Port& rx, Frame* f);
  void nicReceive(Port& rx, Frame* f);
  void receivePause(Port& rx, const Frame& f);
  void sendPause(int portId, int prio, bool xoff);
  void sendCnp(int host, const std::uint8_t* ip, std::uint32_t destQp);
  void wakeAt(int portId, SimTime t);
  int classify(const Frame& f) const;
  void capture(const Port& p, const Frame& f);
  int nicFlowFor(int host, const Frame& f);
  void armDcqcnTimers(int nf, bool alpha, bool rate);
  void onRateChange(int nf);

  // --- flows, sampling, deadlock ------------------------------------------------------
  void startFlow(int flow);
  void postWrites(int flow);
  void onCompletion(int host, std::uint32_t cq);
  void sample();
  void checkDeadlock();
  void closePause(Port& p, int prio, SimTime end);

  // --- events (fabric_events.h) -------------------------------------------------------
  bool tracing() const { return static_cast<bool>(fab.eventSink_); }
  void emitEvent(FabricEvent e);
  /// The scenario flow a RoCE frame belongs to (by destination host and QP), or -1.
  int flowOfFrame(const Frame& f) const;
};

}  // namespace rdmascope::sim
