#pragma once
// The Communication Manager part of FlowAnalyzer: follows the rdma_cm handshakes (REQ, MRA, REJ,
// REP, RTU, DREQ, DREP between the GSIs, QP 1) by their communication IDs, and names the peer
// QP a handshake set up, which pairs flows that addresses alone cannot.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/analysis/packet_facts.h"

namespace rdmascope::analysis {

/// A ConnectReject's detail: the CmReject phrase and the address that sent it.
struct CmRejectNote {
  AnomalyDetail what;
  std::string source;
};

class CmTracker {
 public:
  /// Follows at most `maxHandshakes` handshakes (later REQs are not followed).
  explicit CmTracker(std::size_t maxHandshakes) : maxHandshakes_(maxHandshakes) {}

  /// Adds a CM packet (`f.cm` set) to the handshake it belongs to. For a ConnectReject of a
  /// handshake followed, returns the anomaly's detail (what was rejected, by whom and why).
  std::optional<CmRejectNote> add(const PacketFacts& f);

  /// The QPN of the peer of (address, qpn) in a handshake with peerAddress, if one names it.
  std::optional<std::uint32_t> peerQpn(const std::string& address, std::uint32_t qpn,
                                       const std::string& peerAddress) const;

  /// Every handshake followed, in the order their REQs were seen.
  const std::vector<CmHandshake>& handshakes() const { return handshakes_; }

 private:
  template <typename Pred>
  CmHandshake* find(Pred pred) {
    for (auto it = handshakes_.rbegin(); it != handshakes_.rend(); ++it)
      if (pred(*it)) return &*it;
    return nullptr;
  }

  std::size_t maxHandshakes_;
  std::vector<CmHandshake> handshakes_;
};

}  // namespace rdmascope::analysis
