#pragma once
// Builds RoCEv2 frame sequences between two RC QPs with the packet layer's builders, so tests
// can inject named faults (lost, reordered, duplicated, corrupted frames, NAKs, CNPs) and feed
// the analyzer exactly what a capture would hold.

#include <cstdint>
#include <initializer_list>
#include <set>
#include <string>
#include <vector>

#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/packets/ib_builder.h"

namespace rdmascope::analysis::test {

struct TraceFrame {
  std::vector<std::uint8_t> bytes;
  double time = 0.0;
};

class RoceTrace {
 public:
  using Op = packets::IbOpcode;

  RoceTrace() {
    a_.srcIp = packets::IpAddress::v4(10, 0, 0, 1);
    a_.dstIp = packets::IpAddress::v4(10, 0, 0, 2);
    b_ = a_;
    std::swap(b_.srcIp, b_.dstIp);
    std::swap(b_.srcMac, b_.dstMac);
  }

  std::uint32_t qpA = 0x11;  ///< A's QP: destination of B's frames
  std::uint32_t qpB = 0x22;  ///< B's QP: destination of A's frames
  double step = 1e-6;        ///< seconds between frames unless advanced

  /// A request from A to B. Returns the frame number.
  std::uint64_t request(Op op, std::uint32_t psn, std::size_t payload = 0,
                        std::uint32_t dmaLength = 0, std::uint8_t ecn = 0) {
    packets::IbPacket p;
    p.bth.opcode = static_cast<std::uint8_t>(op);
    p.bth.destQp = qpB;
    p.bth.psn = psn & 0xffffff;
    const auto* info = packets::ibOpcodeInfo(op);
    for (auto e : info->extensions()) {
      if (e == packets::IbExt::Reth) p.reth = packets::Reth{0x1000, 0x77, dmaLength};
      if (e == packets::IbExt::AtomicEth) p.atomicEth = packets::AtomicEth{0x2000, 0x77, 1, 0};
      if (e == packets::IbExt::ImmDt) p.immDt = 0xabcd;
    }
    p.payload.assign(payload, static_cast<std::uint8_t>(psn));
    auto addr = a_;
    addr.ecn = ecn;
    return push(packets::buildRoceV2(addr, p));
  }

  /// An ACK-family frame from B to A (ACK, NAK, RNR NAK).
  std::uint64_t aeth(Op op, std::uint32_t psn, packets::Aeth aeth, std::size_t payload = 0) {
    packets::IbPacket p;
    p.bth.opcode = static_cast<std::uint8_t>(op);
    p.bth.destQp = qpA;
    p.bth.psn = psn & 0xffffff;
    const auto* info = packets::ibOpcodeInfo(op);
    for (auto e : info->extensions()) {
      if (e == packets::IbExt::Aeth) p.aeth = aeth;
      if (e == packets::IbExt::AtomicAckEth) p.atomicAckEth = packets::AtomicAckEth{5};
    }
    p.payload.assign(payload, 0x5a);
    return push(packets::buildRoceV2(b_, p));
  }

  std::uint64_t ack(std::uint32_t psn) {
    return aeth(Op::RcAcknowledge, psn, packets::Aeth::ack(msn_++));
  }
  std::uint64_t nak(std::uint32_t psn, packets::NakCode code) {
    return aeth(Op::RcAcknowledge, psn, packets::Aeth::nak(msn_, code));
  }
  std::uint64_t rnrNak(std::uint32_t psn, std::uint8_t timer) {
    return aeth(Op::RcAcknowledge, psn, packets::Aeth::rnrNak(msn_, timer));
  }
  std::uint64_t readResponse(Op op, std::uint32_t psn, std::size_t payload) {
    return aeth(op, psn, packets::Aeth::ack(msn_), payload);
  }
  /// A CNP from B to A's QP.
  std::uint64_t cnp() {
    packets::IbPacket p;
    p.bth.opcode = static_cast<std::uint8_t>(Op::Cnp);
    p.bth.destQp = qpA;
    p.bth.becn = true;
    return push(packets::buildRoceV2(b_, p));
  }

  /// Copies an earlier frame (a network duplicate or a resend of identical bytes).
  std::uint64_t copy(std::uint64_t frame) { return push(frames_.at(frame - 1).bytes); }
  /// Removes a frame as if lost before the capture point (later numbers shift down).
  void lose(std::uint64_t frame) { frames_.erase(frames_.begin() + static_cast<long>(frame - 1)); }
  /// Swaps two frames' bytes, keeping the times in order.
  void swap(std::uint64_t x, std::uint64_t y) {
    std::swap(frames_.at(x - 1).bytes, frames_.at(y - 1).bytes);
  }
  /// Flips a bit in the last payload byte before the ICRC, so the ICRC fails.
  void corrupt(std::uint64_t frame) {
    auto& b = frames_.at(frame - 1).bytes;
    b[b.size() - 5] ^= 0x01;
  }
  void advance(double seconds) { now_ += seconds; }

  const std::vector<TraceFrame>& frames() const { return frames_; }

  /// Feeds every frame to a new analyzer and finishes it.
  AnalysisReport analyze(AnalyzerOptions options = {}) const {
    FlowAnalyzer analyzer(options);
    std::uint64_t n = 0;
    for (const auto& f : frames_)
      analyzer.addFrame(f.bytes, packets::LinkType::Ethernet, ++n, f.time);
    analyzer.finish();
    return analyzer.report();
  }

 private:
  std::uint64_t push(std::vector<std::uint8_t> bytes) {
    now_ += step;
    frames_.push_back({std::move(bytes), now_});
    return frames_.size();
  }

  packets::RoceAddressing a_, b_;
  std::vector<TraceFrame> frames_;
  double now_ = 0.0;
  std::uint32_t msn_ = 0;
};

/// "kind@frame" for every anomaly, in order: compact to compare exactly.
inline std::vector<std::string> anomalyList(const AnalysisReport& r) {
  std::vector<std::string> out;
  for (const auto& a : r.anomalies)
    out.push_back(std::string(toString(a.kind)) + "@" + std::to_string(a.frame));
  return out;
}

/// The frames of the anomalies of the given kinds.
inline std::set<std::uint64_t> framesOf(const AnalysisReport& r,
                                        std::initializer_list<AnomalyKind> kinds) {
  std::set<std::uint64_t> out;
  for (const auto& a : r.anomalies)
    for (AnomalyKind k : kinds)
      if (a.kind == k) out.insert(a.frame);
  return out;
}

}  // namespace rdmascope::analysis::test
