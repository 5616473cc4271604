#pragma once
/// @file tcp_control_block.h
/// One end of a simulated TCP connection (RFC 793/9293 state machine, RFC 5681 congestion
/// control, RFC 6298 retransmission timer, RFC 1122 delayed ACKs). It has no clock and no
/// network: the caller hands it segments and timer expiries through its methods, and it
/// answers through TcpHooks (segments to transmit, timers to arm, events for the
/// application). Sequence space is tracked internally as 64-bit stream offsets.
///
/// Record mode (for iWARP): writeRecord() marks where a segment must end, so every TCP
/// segment carries whole MPA FPDUs, as RNICs send them (RFC 5044 section 5, FPDU alignment);
/// retransmissions keep the same boundaries.

#include <cstdint>
#include <deque>
#include <map>
#include <span>
#include <string_view>
#include <vector>

#include "rdmascope/sim/tcp_congestion.h"

namespace rdmascope::sim {

enum class TcpState : std::uint8_t {
  Closed,
  Listen,
  SynSent,
  SynReceived,
  Established,
  FinWait1,
  FinWait2,
  CloseWait,
  Closing,
  LastAck,
  TimeWait,
};

std::string_view toString(TcpState s);

/// TCP header flag bits (the header's low flag byte).
namespace tcp_flag {
inline constexpr std::uint8_t kFin = 0x01;
inline constexpr std::uint8_t kSyn = 0x02;
inline constexpr std::uint8_t kRst = 0x04;
inline constexpr std::uint8_t kPsh = 0x08;
inline constexpr std::uint8_t kAck = 0x10;
}  // namespace tcp_flag

/// A TCP segment as the control block sees it (addresses and ports live in the network).
struct TcpSegment {
  std::uint32_t seq = 0;
  std::uint32_t ack = 0;
  std::uint8_t flags = 0;
  std::uint16_t window = 0;
  std::vector<std::uint8_t> payload;
  bool retransmission = false;  ///< set by the sender on retransmitted data (not on the wire)

  /// Sequence space the segment occupies (payload, plus one each for SYN and FIN).
  [[nodiscard]] std::uint32_t seqLength() const;
};

/// Timers a control block asks for.
enum class TcpTimer : std::uint8_t { Retransmit, DelayedAck };

/// What happened, for the application above.
enum class TcpEvent : std::uint8_t { Established, Readable, Writable, PeerClosed, Closed, Reset };

/// How a control block talks to its surroundings.
class TcpHooks {
 public:
  virtual std::int64_t nowNs() const = 0;
  virtual void transmit(const TcpSegment& segment) = 0;
  /// Arms (or re-arms) a timer to fire after delayNs; the caller then calls onTimer().
  virtual void setTimer(TcpTimer timer, std::int64_t delayNs) = 0;
  virtual void clearTimer(TcpTimer timer) = 0;
  virtual void onEvent(TcpEvent event) = 0;

 protected:
  ~TcpHooks() = default;
};

/// Settings of one end.
struct TcpConfig {
  std::uint32_t mss = 1460;                  ///< MTU 1500 - 40
  std::uint32_t sendBufferBytes = 4194304;   ///< bytes write() may queue
  std::uint32_t receiveBufferBytes = 65535;  ///< advertised window (no window scaling)
  std::uint32_t delayedAckSegments = 2;      ///< RFC 1122: ACK at least every 2nd segment
  std::int64_t delayedAckNs = 40'000'000;    ///< Linux TCP_DELACK_MIN, 40 ms
  std::uint32_t initialWindowSegments = 10;  ///< RFC 6928
  std::uint32_t dupAckThreshold = 3;         ///< RFC 5681 fast retransmit
  std::int64_t minRtoNs = 200'000'000;       ///< Linux TCP_RTO_MIN
  std::uint32_t maxRetransmissions = 15;     ///< Linux tcp_retries2
};

/// Counters of one end.
struct TcpStats {
  std::uint64_t segmentsSent = 0;
  std::uint64_t dataSegmentsSent = 0;
  std::uint64_t pureAcksSent = 0;
  std::uint64_t retransmittedSegments = 0;
  std::uint64_t fastRetransmits = 0;
  std::uint64_t timeouts = 0;
  std::uint64_t segmentsReceived = 0;
  std::uint64_t duplicateSegments = 0;
  std::uint64_t outOfOrderSegments = 0;
  std::uint64_t duplicateAcksReceived = 0;
  std::uint64_t bytesSent = 0;       ///< new payload bytes sent (not counting retransmissions)
  std::uint64_t bytesDelivered = 0;  ///< in-order payload bytes given to the receive buffer
};

class TcpControlBlock {
 public:
  TcpControlBlock(TcpConfig config, TcpHooks& hooks);

  /// Passive open.
  void listen();
  /// Active open with the given initial sequence number: sends SYN.
  void connect(std::uint32_t isn);
  /// For a listener: the ISN it will use in its SYN-ACK.
  void setIsn(std::uint32_t isn) { iss_ = isn; }

  /// Queues bytes for sending (as much as the send buffer takes); returns bytes accepted.
  std::size_t write(std::span<const std::uint8_t> bytes);
  /// Queues one record that must start and end a segment (at most one MSS). Returns false
  /// (queuing nothing) when the send buffer cannot take it whole or it is larger than the MSS.
  bool writeRecord(std::span<const std::uint8_t> record);
  /// Reads up to out.size() in-order bytes; returns how many.
  std::size_t read(std::span<std::uint8_t> out);
  /// Sends FIN once the queued data has gone.
  void close();

  void onSegment(const TcpSegment& segment);
  void onTimer(TcpTimer timer);

  [[nodiscard]] TcpState state() const { return state_; }
  [[nodiscard]] std::size_t readable() const { return receiveBuffer_.size(); }
  [[nodiscard]] std::size_t sendSpace() const;
  /// Bytes queued and not yet acknowledged.
  [[nodiscard]] std::size_t unacknowledged() const { return sendBuffer_.size(); }
  [[nodiscard]] std::uint32_t bytesInFlight() const;
  [[nodiscard]] const TcpCongestionControl& congestion() const { return cc_; }
  [[nodiscard]] const TcpRtoEstimator& rto() const { return rto_; }
  [[nodiscard]] const TcpStats& stats() const { return stats_; }
  [[nodiscard]] const TcpConfig& config() const { return config_; }
  [[nodiscard]] std::uint32_t isn() const { return iss_; }
  [[nodiscard]] std::uint32_t peerIsn() const { return irs_; }

 private:
  void sendSyn(bool withAck);
  void trySend();
  void sendSegmentAt(std::uint64_t offset, std::uint32_t length, bool retransmission);
  void sendAck();
  void sendFin();
  void armRetransmit();
  void processAck(const TcpSegment& seg);
  void processData(const TcpSegment& seg);
  std::uint32_t advertisedWindow() const;
  std::uint32_t seqOf(std::uint64_t offset) const {
    return static_cast<std::uint32_t>(iss_ + 1 + offset);
  }
  std::uint32_t ackSeq() const;
  std::uint32_t segmentLengthAt(std::uint64_t offset) const;

  TcpConfig config_;
  TcpHooks& hooks_;
  TcpState state_ = TcpState::Closed;
  TcpCongestionControl cc_;
  TcpRtoEstimator rto_;
  TcpStats stats_;

  // Send side: sendBuffer_ holds bytes from offset sndUna_ on.
  std::uint32_t iss_ = 0;
  std::uint64_t sndUna_ = 0;
  std::uint64_t sndNxt_ = 0;
  std::uint64_t sndMax_ = 0;  // highest offset ever sent
  std::uint32_t sndWnd_ = 65535;
  std::deque<std::uint8_t> sendBuffer_;
  std::deque<std::uint64_t> boundaries_;  // record ends (stream offsets), ascending
  bool finQueued_ = false;
  bool finSent_ = false;
  bool finAcked_ = false;
  std::uint32_t dupAcks_ = 0;
  std::uint64_t recoverPoint_ = 0;
  std::uint32_t retries_ = 0;
  // RTT sample: one timed segment at a time (Karn: not a retransmitted one).
  bool timing_ = false;
  std::uint64_t timedOffset_ = 0;
  std::int64_t timedAtNs_ = 0;

  // Receive side.
  std::uint32_t irs_ = 0;
  std::uint64_t rcvNxt_ = 0;  // offset of the next in-order byte
  std::deque<std::uint8_t> receiveBuffer_;
  std::map<std::uint64_t, std::vector<std::uint8_t>> outOfOrder_;
  std::uint32_t unackedSegments_ = 0;
  bool peerFin_ = false;
};

}  // namespace rdmascope::sim
