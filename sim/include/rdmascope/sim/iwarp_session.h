#pragma once
/// @file iwarp_session.h
/// An iWARP connection between two simulated RNICs, carried by the TCP model (TcpNetwork in
/// offloaded placement, so TCP retransmits whatever the link loses):
/// - setup as rdma_cm does it for iWARP: the TCP handshake, then the MPA Request and Reply
///   (RFC 5044 section 7.1) carrying private data and negotiating markers (per direction,
///   asked by the receiver) and CRC (if either side asks);
/// - RDMAP (RFC 5040) Send, Send with Solicited Event and/or Invalidate, RDMA Write, RDMA Read
///   Request and Read Response, and Terminate on errors;
/// - DDP (RFC 5041) tagged and untagged segments (STag/TO, QN/MSN/MO, last flag), each in one
///   MPA FPDU with pad, CRC32c and markers every 512 octets, one FPDU per TCP segment.
/// Frames are encoded with packets' iWARP encoder; the receiving RNIC deframes the TCP byte
/// stream itself (markers removed, CRC checked) and reads the DDP/RDMAP fields through
/// packets' field tables.

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "rdmascope/packets/iwarp_encoder.h"
#include "rdmascope/packets/iwarp_headers.h"
#include "rdmascope/sim/tcp_network.h"
#include "rdmascope/sim/verbs_types.h"

namespace rdmascope::sim {

/// What one side asks for in its MPA start frame.
struct MpaSettings {
  bool markers = false;  ///< M: this side wants to receive markers
  bool crc = true;       ///< C: this side wants CRC
  std::vector<std::uint8_t> privateData;
};

/// A completion on one host.
struct IwarpCompletion {
  int host = 0;
  std::uint64_t wrId = 0;
  WcOpcode opcode = WcOpcode::Send;
  WcStatus status = WcStatus::Success;
  std::uint32_t byteLen = 0;
  bool solicited = false;                        ///< a Send with Solicited Event arrived
  std::optional<std::uint32_t> invalidatedStag;  ///< a Send with Invalidate invalidated it
};

/// A Terminate message as sent or received.
struct IwarpTerminate {
  int fromHost = 0;
  std::uint8_t layer = 0;  ///< 0 RDMAP, 1 DDP, 2 LLP
  std::uint8_t errorType = 0;
  std::uint8_t errorCode = 0;
};

/// Counters of one host's RNIC.
struct IwarpStats {
  std::uint64_t fpdusSent = 0;
  std::uint64_t fpdusReceived = 0;
  std::uint64_t markersSent = 0;
  std::uint64_t crcErrors = 0;
  std::uint64_t bytesPlaced = 0;  ///< payload bytes the RNIC placed in host memory
};

class IwarpSession {
 public:
  /// net must use TcpStackPlacement::Offloaded. Host 0 is the MPA Initiator.
  IwarpSession(TcpNetwork& net, MpaSettings initiator, MpaSettings responder);
  ~IwarpSession();
  IwarpSession(const IwarpSession&) = delete;
  IwarpSession& operator=(const IwarpSession&) = delete;

  /// Starts the TCP handshake; the MPA exchange follows by itself.
  void connect();
  /// Both sides have exchanged MPA Request and Reply.
  [[nodiscard]] bool established() const;
  /// Markers negotiated for the stream that `host` sends.
  [[nodiscard]] bool markersFrom(int host) const;
  [[nodiscard]] bool crcInUse() const;
  /// Private data the peer of `host` sent in its MPA frame.
  [[nodiscard]] const std::vector<std::uint8_t>& peerPrivateData(int host) const;

  /// Registers `bytes` of zeroed memory with the given access flags (sim::access); returns its
  /// STag. Tagged offsets are zero-based within the region.
  std::uint32_t registerMemory(int host, std::size_t bytes, unsigned accessFlags);
  /// The bytes of a region (empty if the STag is unknown).
  std::span<std::uint8_t> memory(int host, std::uint32_t stag);
  [[nodiscard]] bool stagValid(int host, std::uint32_t stag) const;

  /// Posts a receive buffer for untagged Sends.
  void postRecv(int host, std::uint64_t wrId, std::uint32_t stag, std::uint64_t offset,
                std::uint32_t length);
  /// Send (opcode Send, SendSe, SendInvalidate or SendSeInvalidate) from local memory.
  void postSend(int host, std::uint64_t wrId, std::uint32_t stag, std::uint64_t offset,
                std::uint32_t length, packets::RdmapOpcode opcode = packets::RdmapOpcode::Send,
                std::uint32_t invalidateStag = 0);
  /// RDMA Write of local memory to the peer's (remoteStag, remoteOffset).
  void postWrite(int host, std::uint64_t wrId, std::uint32_t stag, std::uint64_t offset,
                 std::uint32_t length, std::uint32_t remoteStag, std::uint64_t remoteOffset);
  /// RDMA Read of the peer's (remoteStag, remoteOffset) into local memory.
  void postRead(int host, std::uint64_t wrId, std::uint32_t stag, std::uint64_t offset,
                std::uint32_t length, std::uint32_t remoteStag, std::uint64_t remoteOffset);

  [[nodiscard]] const std::vector<IwarpCompletion>& completions() const { return completions_; }
  [[nodiscard]] const std::vector<IwarpTerminate>& terminates() const { return terminates_; }
  [[nodiscard]] bool inError(int host) const;
  [[nodiscard]] const IwarpStats& stats(int host) const;
  /// Work requests posted on `host` and not yet completed.
  [[nodiscard]] std::size_t outstanding(int host) const;

 private:
  struct Side;
  void onTcpEvent(int host, TcpEvent event);
  void pump(int host);
  void receive(int host);
  bool receiveStartFrame(int host);
  bool receiveFpdu(int host);
  void processSegment(int host, std::span<const std::uint8_t> ulpdu);
  void queueMessage(int host, packets::DdpSegmentHeader header,
                    std::span<const std::uint8_t> payload, std::uint64_t wrId, bool completesOnAck,
                    WcOpcode opcode);
  void sendTerminate(int host, std::uint8_t layer, std::uint8_t type, std::uint8_t code,
                     std::span<const std::uint8_t> ddpHeader);
  void enterError(int host);
  void complete(int host, std::uint64_t wrId, WcOpcode opcode, WcStatus status,
                std::uint32_t byteLen);
  void notePosted(int host, std::uint64_t wrId, WrOpcode opcode, std::uint32_t length);
  void noteCompletion(const IwarpCompletion& c);

  TcpNetwork& net_;
  std::unique_ptr<Side> sides_[2];
  std::vector<IwarpCompletion> completions_;
  std::vector<IwarpTerminate> terminates_;
  std::uint32_t nextStag_ = 0x100;
};

}  // namespace rdmascope::sim
