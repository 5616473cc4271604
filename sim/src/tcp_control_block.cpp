#include "rdmascope/sim/tcp_control_block.h"

#include <algorithm>

namespace rdmascope::sim {

std::string_view toString(TcpState s) {
  switch (s) {
    case TcpState::Closed:
      return "CLOSED";
    case TcpState::Listen:
      return "LISTEN";
    case TcpState::SynSent:
      return "SYN-SENT";
    case TcpState::SynReceived:
      return "SYN-RECEIVED";
    case TcpState::Established:
      return "ESTABLISHED";
    case TcpState::FinWait1:
      return "FIN-WAIT-1";
    case TcpState::FinWait2:
      return "FIN-WAIT-2";
    case TcpState::CloseWait:
      return "CLOSE-WAIT";
    case TcpState::Closing:
      return "CLOSING";
    case TcpState::LastAck:
      return "LAST-ACK";
    case TcpState::TimeWait:
      return "TIME-WAIT";
  }
  return "?";
}

std::uint32_t TcpSegment::seqLength() const {
  return static_cast<std::uint32_t>(payload.size()) + ((flags & tcp_flag::kSyn) ? 1 : 0) +
         ((flags & tcp_flag::kFin) ? 1 : 0);
}

TcpControlBlock::TcpControlBlock(TcpConfig config, TcpHooks& hooks)
    : config_(config),
      hooks_(hooks),
      cc_(config.mss, config.initialWindowSegments),
      rto_(config.minRtoNs) {}

void TcpControlBlock::listen() {
  state_ = TcpState::Listen;
}

void TcpControlBlock::connect(std::uint32_t isn) {
  iss_ = isn;
  state_ = TcpState::SynSent;
  sendSyn(false);
}

std::size_t TcpControlBlock::sendSpace() const {
  return config_.sendBufferBytes > sendBuffer_.size() ? config_.sendBufferBytes - sendBuffer_.size()
                                                      : 0;
}

std::uint32_t TcpControlBlock::bytesInFlight() const {
  return static_cast<std::uint32_t>(sndNxt_ - sndUna_);
}

std::size_t TcpControlBlock::write(std::span<const std::uint8_t> bytes) {
  if (finQueued_ || state_ == TcpState::Closed || state_ == TcpState::Listen) return 0;
  const std::size_t n = std::min(bytes.size(), sendSpace());
  sendBuffer_.insert(sendBuffer_.end(), bytes.begin(), bytes.begin() + static_cast<long>(n));
  trySend();
  return n;
}

bool TcpControlBlock::writeRecord(std::span<const std::uint8_t> record) {
  if (finQueued_ || state_ == TcpState::Closed || state_ == TcpState::Listen) return false;
  if (record.empty() || record.size() > config_.mss || record.size() > sendSpace()) return false;
  const std::uint64_t end = sndUna_ + sendBuffer_.size();
  if (end > sndUna_ && (boundaries_.empty() || boundaries_.back() != end)) {
    boundaries_.push_back(end);
  }
  sendBuffer_.insert(sendBuffer_.end(), record.begin(), record.end());
  boundaries_.push_back(end + record.size());
  trySend();
  return true;
}

std::size_t TcpControlBlock::read(std::span<std::uint8_t> out) {
  const bool wasClosed = advertisedWindow() < config_.mss;
  const std::size_t n = std::min(out.size(), receiveBuffer_.size());
  std::copy_n(receiveBuffer_.begin(), n, out.begin());
  receiveBuffer_.erase(receiveBuffer_.begin(), receiveBuffer_.begin() + static_cast<long>(n));
  // A window that reopens from below one MSS is announced at once (RFC 1122 4.2.3.3).
  if (n > 0 && wasClosed && advertisedWindow() >= config_.mss &&
      (state_ == TcpState::Established || state_ == TcpState::FinWait1 ||
       state_ == TcpState::FinWait2)) {
    sendAck();
  }
  return n;
}

void TcpControlBlock::close() {
  if (finQueued_) return;
  if (state_ == TcpState::Listen || state_ == TcpState::SynSent) {
    state_ = TcpState::Closed;
    hooks_.clearTimer(TcpTimer::Retransmit);
    hooks_.onEvent(TcpEvent::Closed);
    return;
  }
  finQueued_ = true;
  trySend();
}

std::uint32_t TcpControlBlock::advertisedWindow() const {
  const std::size_t used = receiveBuffer_.size();
  const std::size_t free =
      config_.receiveBufferBytes > used ? config_.receiveBufferBytes - used : 0;
  return static_cast<std::uint32_t>(std::min<std::size_t>(free, 65535));
}

std::uint32_t TcpControlBlock::ackSeq() const {
  return static_cast<std::uint32_t>(irs_ + 1 + rcvNxt_ + (peerFin_ ? 1 : 0));
}

std::uint32_t TcpControlBlock::segmentLengthAt(std::uint64_t offset) const {
  const std::uint64_t end = sndUna_ + sendBuffer_.size();
  std::uint64_t len = std::min<std::uint64_t>(config_.mss, end - offset);
  const auto next = std::upper_bound(boundaries_.begin(), boundaries_.end(), offset);
  if (next != boundaries_.end()) len = std::min(len, *next - offset);
  return static_cast<std::uint32_t>(len);
}

void TcpControlBlock::sendSyn(bool withAck) {
  TcpSegment seg;
  seg.seq = iss_;
  seg.flags = tcp_flag::kSyn | (withAck ? tcp_flag::kAck : 0);
  seg.ack = withAck ? irs_ + 1 : 0;
  seg.window = static_cast<std::uint16_t>(advertisedWindow());
  ++stats_.segmentsSent;
  hooks_.transmit(seg);
  armRetransmit();
}

void TcpControlBlock::sendSegmentAt(std::uint64_t offset, std::uint32_t length,
                                    bool retransmission) {
  TcpSegment seg;
  seg.seq = seqOf(offset);
  seg.ack = ackSeq();
  const std::uint64_t end = offset + length;
  const bool atBoundary = std::binary_search(boundaries_.begin(), boundaries_.end(), end);
  seg.flags =
      tcp_flag::kAck | ((end == sndUna_ + sendBuffer_.size() || atBoundary) ? tcp_flag::kPsh : 0);
  seg.window = static_cast<std::uint16_t>(advertisedWindow());
  const auto from = sendBuffer_.begin() + static_cast<long>(offset - sndUna_);
  seg.payload.assign(from, from + length);
  seg.retransmission = retransmission;
  ++stats_.segmentsSent;
  ++stats_.dataSegmentsSent;
  if (retransmission) {
    ++stats_.retransmittedSegments;
    if (timing_ && timedOffset_ > offset) timing_ = false;  // Karn's rule
  } else {
    stats_.bytesSent += length;
    if (!timing_) {
      timing_ = true;
      timedOffset_ = end;
      timedAtNs_ = hooks_.nowNs();
    }
  }
  unackedSegments_ = 0;  // the ACK rides on this segment
  hooks_.clearTimer(TcpTimer::DelayedAck);
  hooks_.transmit(seg);
}

void TcpControlBlock::sendAck() {
  TcpSegment seg;
  const std::uint64_t next = finSent_ ? sndUna_ + sendBuffer_.size() + 1 : sndNxt_;
  seg.seq = seqOf(next);
  seg.ack = ackSeq();
  seg.flags = tcp_flag::kAck;
  seg.window = static_cast<std::uint16_t>(advertisedWindow());
  ++stats_.segmentsSent;
  ++stats_.pureAcksSent;
  unackedSegments_ = 0;
  hooks_.clearTimer(TcpTimer::DelayedAck);
  hooks_.transmit(seg);
}

void TcpControlBlock::sendFin() {
  TcpSegment seg;
  seg.seq = seqOf(sndUna_ + sendBuffer_.size());
  seg.ack = ackSeq();
  seg.flags = tcp_flag::kFin | tcp_flag::kAck;
  seg.window = static_cast<std::uint16_t>(advertisedWindow());
  seg.retransmission = finSent_;
  if (!finSent_) {
    finSent_ = true;
    if (state_ == TcpState::Established) state_ = TcpState::FinWait1;
    if (state_ == TcpState::CloseWait) state_ = TcpState::LastAck;
  }
  ++stats_.segmentsSent;
  unackedSegments_ = 0;
  hooks_.clearTimer(TcpTimer::DelayedAck);
  hooks_.transmit(seg);
  armRetransmit();
}

void TcpControlBlock::armRetransmit() {
  hooks_.setTimer(TcpTimer::Retransmit, rto_.rtoNs());
}

void TcpControlBlock::trySend() {
  if (state_ != TcpState::Established && state_ != TcpState::CloseWait) return;
  const std::uint64_t end = sndUna_ + sendBuffer_.size();
  const std::uint64_t startedAt = sndNxt_;
  while (sndNxt_ < end) {
    const std::uint32_t len = segmentLengthAt(sndNxt_);
    const std::uint64_t window = std::min<std::uint64_t>(cc_.cwnd(), sndWnd_);
    const std::uint64_t flight = sndNxt_ - sndUna_;
    if (flight + len > window && flight > 0) break;
    if (window == 0) break;
    sendSegmentAt(sndNxt_, len, sndNxt_ < sndMax_);
    sndNxt_ += len;
    sndMax_ = std::max(sndMax_, sndNxt_);
  }
  if (finQueued_ && !finSent_ && sndNxt_ == end) sendFin();
  if (sndNxt_ > startedAt && startedAt == sndUna_) armRetransmit();
}

void TcpControlBlock::onSegment(const TcpSegment& seg) {
  ++stats_.segmentsReceived;
  if (seg.flags & tcp_flag::kRst) {
    if (state_ != TcpState::Listen) {
      state_ = TcpState::Closed;
      hooks_.clearTimer(TcpTimer::Retransmit);
      hooks_.clearTimer(TcpTimer::DelayedAck);
      hooks_.onEvent(TcpEvent::Reset);
    }
    return;
  }
  switch (state_) {
    case TcpState::Closed:
      return;
    case TcpState::Listen:
      if (seg.flags & tcp_flag::kSyn) {
        irs_ = seg.seq;
        sndWnd_ = seg.window;
        state_ = TcpState::SynReceived;
        sendSyn(true);
      }
      return;
    case TcpState::SynSent:
      if ((seg.flags & tcp_flag::kSyn) && (seg.flags & tcp_flag::kAck) && seg.ack == iss_ + 1) {
        irs_ = seg.seq;
        sndWnd_ = seg.window;
        state_ = TcpState::Established;
        hooks_.clearTimer(TcpTimer::Retransmit);
        sendAck();
        hooks_.onEvent(TcpEvent::Established);
        trySend();
      }
      return;
    case TcpState::SynReceived:
      if (seg.flags & tcp_flag::kSyn) {  // our SYN-ACK was lost: the peer repeats its SYN
        sendSyn(true);
        return;
      }
      if ((seg.flags & tcp_flag::kAck) && seg.ack == iss_ + 1) {
        state_ = TcpState::Established;
        hooks_.clearTimer(TcpTimer::Retransmit);
        hooks_.onEvent(TcpEvent::Established);
      } else {
        return;
      }
      break;
    default:
      if (seg.flags & tcp_flag::kSyn) {  // a repeated SYN-ACK: our ACK was lost
        sendAck();
        return;
      }
      break;
  }
  processAck(seg);
  processData(seg);
  trySend();
}

void TcpControlBlock::processAck(const TcpSegment& seg) {
  if (!(seg.flags & tcp_flag::kAck)) return;
  const std::uint64_t dataEnd = sndUna_ + sendBuffer_.size();
  const auto diff = static_cast<std::int32_t>(seg.ack - seqOf(sndUna_));
  if (diff < 0) return;  // old ACK
  std::uint64_t ackOffset = sndUna_ + static_cast<std::uint64_t>(diff);
  const bool finNowAcked = finSent_ && !finAcked_ && ackOffset == dataEnd + 1;
  if (ackOffset > dataEnd) ackOffset = dataEnd;
  if (ackOffset > sndMax_ && !finNowAcked) return;  // acknowledges what was never sent
  const std::uint32_t windowBefore = sndWnd_;
  sndWnd_ = seg.window;

  if (ackOffset > sndUna_ || finNowAcked) {
    const auto acked = static_cast<std::uint32_t>(ackOffset - sndUna_);
    sendBuffer_.erase(sendBuffer_.begin(), sendBuffer_.begin() + acked);
    while (!boundaries_.empty() && boundaries_.front() <= ackOffset)
      boundaries_.pop_front();
    if (timing_ && ackOffset >= timedOffset_) {
      rto_.onSample(hooks_.nowNs() - timedAtNs_);
      timing_ = false;
    }
    if (acked > 0) cc_.onNewAck(acked);
    sndUna_ = ackOffset;
    sndNxt_ = std::max(sndNxt_, sndUna_);
    dupAcks_ = 0;
    retries_ = 0;
    if (finNowAcked) {
      finAcked_ = true;
      if (state_ == TcpState::FinWait1) state_ = TcpState::FinWait2;
      if (state_ == TcpState::Closing) state_ = TcpState::TimeWait;
      if (state_ == TcpState::LastAck) state_ = TcpState::Closed;
      if (state_ == TcpState::TimeWait || state_ == TcpState::Closed) {
        hooks_.onEvent(TcpEvent::Closed);
      }
    }
    const bool outstanding = sndNxt_ > sndUna_ || (finSent_ && !finAcked_);
    if (outstanding) {
      armRetransmit();
    } else {
      hooks_.clearTimer(TcpTimer::Retransmit);
    }
    if (acked > 0) hooks_.onEvent(TcpEvent::Writable);
    return;
  }
  // Same ACK again, nothing else in it, data outstanding: a duplicate ACK (RFC 5681 2).
  if (seg.payload.empty() && !(seg.flags & (tcp_flag::kSyn | tcp_flag::kFin)) &&
      sndMax_ > sndUna_ && seg.window == windowBefore) {
    ++dupAcks_;
    ++stats_.duplicateAcksReceived;
    if (dupAcks_ == config_.dupAckThreshold) {
      ++stats_.fastRetransmits;
      cc_.onTripleDupAck(static_cast<std::uint32_t>(sndMax_ - sndUna_));
      recoverPoint_ = sndMax_;
      sendSegmentAt(sndUna_, segmentLengthAt(sndUna_), true);
    } else if (dupAcks_ > config_.dupAckThreshold) {
      cc_.onDupAckInRecovery();
    }
  }
}

void TcpControlBlock::processData(const TcpSegment& seg) {
  const bool dataAllowed = state_ == TcpState::Established || state_ == TcpState::FinWait1 ||
                           state_ == TcpState::FinWait2;
  if (!dataAllowed || (seg.payload.empty() && !(seg.flags & tcp_flag::kFin))) return;
  const auto rel =
      static_cast<std::int32_t>(seg.seq - static_cast<std::uint32_t>(irs_ + 1 + rcvNxt_));
  const std::int64_t segOff = static_cast<std::int64_t>(rcvNxt_) + rel;
  const auto len = static_cast<std::int64_t>(seg.payload.size());
  bool ackNow = false;

  if (len > 0) {
    if (segOff + len <= static_cast<std::int64_t>(rcvNxt_)) {
      ++stats_.duplicateSegments;
      sendAck();
      return;
    }
    if (segOff > static_cast<std::int64_t>(rcvNxt_)) {
      ++stats_.outOfOrderSegments;
      const auto key = static_cast<std::uint64_t>(segOff);
      if (receiveBuffer_.size() + seg.payload.size() <= config_.receiveBufferBytes) {
        outOfOrder_.emplace(key, seg.payload);
      }
      sendAck();  // a duplicate ACK tells the sender about the hole
      return;
    }
    const auto skip = static_cast<std::size_t>(static_cast<std::int64_t>(rcvNxt_) - segOff);
    const std::size_t room = config_.receiveBufferBytes > receiveBuffer_.size()
                                 ? config_.receiveBufferBytes - receiveBuffer_.size()
                                 : 0;
    const std::size_t take = std::min(seg.payload.size() - skip, room);
    receiveBuffer_.insert(receiveBuffer_.end(), seg.payload.begin() + static_cast<long>(skip),
                          seg.payload.begin() + static_cast<long>(skip + take));
    rcvNxt_ += take;
    stats_.bytesDelivered += take;
    // Segments that arrived early and now fit.
    while (!outOfOrder_.empty()) {
      auto it = outOfOrder_.begin();
      if (it->first > rcvNxt_) break;
      const std::uint64_t endOff = it->first + it->second.size();
      if (endOff > rcvNxt_) {
        const auto from = it->second.begin() + static_cast<long>(rcvNxt_ - it->first);
        const auto count = static_cast<std::size_t>(it->second.end() - from);
        receiveBuffer_.insert(receiveBuffer_.end(), from, it->second.end());
        rcvNxt_ += count;
        stats_.bytesDelivered += count;
      }
      outOfOrder_.erase(it);
      ackNow = true;
    }
    ++unackedSegments_;
    if (unackedSegments_ >= config_.delayedAckSegments) ackNow = true;
    hooks_.onEvent(TcpEvent::Readable);
  }
  if ((seg.flags & tcp_flag::kFin) && !peerFin_ &&
      segOff + len == static_cast<std::int64_t>(rcvNxt_)) {
    peerFin_ = true;
    ackNow = true;
    if (state_ == TcpState::Established) state_ = TcpState::CloseWait;
    if (state_ == TcpState::FinWait1) state_ = TcpState::Closing;
    if (state_ == TcpState::FinWait2) state_ = TcpState::TimeWait;
    hooks_.onEvent(TcpEvent::PeerClosed);
    if (state_ == TcpState::TimeWait) hooks_.onEvent(TcpEvent::Closed);
  }
  if (ackNow) {
    sendAck();
  } else if (unackedSegments_ > 0) {
    hooks_.setTimer(TcpTimer::DelayedAck, config_.delayedAckNs);
  }
}

void TcpControlBlock::onTimer(TcpTimer timer) {
  if (timer == TcpTimer::DelayedAck) {
    if (unackedSegments_ > 0) sendAck();
    return;
  }
  if (state_ == TcpState::SynSent || state_ == TcpState::SynReceived) {
    if (++retries_ > config_.maxRetransmissions) {
      state_ = TcpState::Closed;
      hooks_.onEvent(TcpEvent::Reset);
      return;
    }
    ++stats_.timeouts;
    rto_.backOff();
    sendSyn(state_ == TcpState::SynReceived);
    return;
  }
  const bool outstanding = sndNxt_ > sndUna_ || (finSent_ && !finAcked_);
  if (!outstanding) return;
  if (++retries_ > config_.maxRetransmissions) {
    state_ = TcpState::Closed;
    hooks_.clearTimer(TcpTimer::DelayedAck);
    hooks_.onEvent(TcpEvent::Reset);
    return;
  }
  ++stats_.timeouts;
  cc_.onTimeout(static_cast<std::uint32_t>(sndMax_ - sndUna_));
  rto_.backOff();
  timing_ = false;
  dupAcks_ = 0;
  sndNxt_ = sndUna_;  // go back: resend from the first unacknowledged byte
  if (!sendBuffer_.empty()) {
    const std::uint32_t len = segmentLengthAt(sndNxt_);
    sendSegmentAt(sndNxt_, len, true);
    sndNxt_ += len;
    armRetransmit();
  } else {
    sendFin();
  }
}

}  // namespace rdmascope::sim
