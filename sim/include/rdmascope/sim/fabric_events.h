#pragma once
/// @file fabric_events.h
/// What happens in a switched fabric (fabric.h) that a person stepping through it wants to
/// see, as data: a switch ingress passing XOFF and sending PAUSE upstream, draining to XON, an
/// egress queue marking CE, a NIC answering a marked packet with a CNP, a sender's NIC cutting
/// its rate, a frame dropped, a PFC deadlock found. The sentence shown for an event is made
/// from these fields by the view (ui/), where it can be translated.

#include <cstdint>
#include <string>
#include <string_view>

#include "rdmascope/sim/sim_time.h"

namespace rdmascope::sim {

struct FabricEvent {
  enum class Kind : std::uint8_t {
    Xoff,      ///< `port` (a switch ingress) passed XOFF: PAUSE for `priority` sent to `peer`
    Xon,       ///< `port` drained below XON: quanta 0 (XON) sent to `peer`
    EcnMark,   ///< egress `port` set CE on a frame of `flow`; `bytes` queued, `probability`
    CnpSent,   ///< host `port` (notification point) answered CE from `flow` with a CNP to `peer`
    RateCut,   ///< host `port` (reaction point) cut `flow`'s rate on a CNP
    Drop,      ///< a frame of `bytes` arriving on `port` dropped (`lossless`: headroom overflow)
    Deadlock,  ///< a cycle of paused queues that cannot drain; `port` is the first in the cycle
  };
  SimTime time;
  Kind kind = Kind::Xoff;
  std::string port;  ///< where it happened: "l1:0" (switch port) or "h8" (a host)
  std::string peer;  ///< the other end: the paused upstream port, or the CNP's receiver
  int priority = 0;
  int flow = -1;  ///< index of the scenario flow concerned, -1 when none or unknown
  /// Xoff/Xon: the ingress's bytes (reserve, shared and headroom); EcnMark: the egress queue's
  /// bytes with the frame; Drop: the frame's bytes.
  std::uint64_t bytes = 0;
  /// Xoff: the XOFF threshold (bytes of shared use) then; Xon: the XON level; EcnMark: Kmin.
  std::uint64_t threshold = 0;
  double probability = 0;  ///< EcnMark: the marking probability at that depth
  double rateBeforeGbps = 0, rateAfterGbps = 0, alpha = 0;  ///< RateCut (alpha after the cut)
  bool lossless = false;                                    ///< Drop: a lossless priority's
};

std::string_view toString(FabricEvent::Kind kind);

}  // namespace rdmascope::sim
