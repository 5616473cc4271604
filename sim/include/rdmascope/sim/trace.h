#pragma once
/// @file trace.h
/// The trace stream of the simulator: every state change, WQE step, frame, CQE, NIC memory
/// access and timer is one TraceEvent. An event is data: a broad kind, a typed narrative (what
/// happened), typed reasons (why) and typed arguments (opcode, PSN, syndrome, retry cause,
/// key, address, length, ...). The sentence a person reads is made from them in one place,
/// narration.h's describe(). Views and tests subscribe; when tracing is off nothing per event
/// is built or retained.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rdmascope/sim/sim_time.h"
#include "rdmascope/sim/verbs_types.h"

namespace rdmascope::sim {

enum class TraceKind : std::uint8_t {
  QpState,        ///< a QP changed state
  WqePosted,      ///< a send or receive WQE was posted
  WqeStarted,     ///< the requester began a send WQE
  WqePacket,      ///< the requester built one packet of a WQE
  WqeCompleted,   ///< a WQE finished (its CQE may or may not be produced)
  FrameSent,      ///< a frame left a host (bytes attached)
  FrameReceived,  ///< a frame was accepted by a host (bytes attached)
  FrameDropped,   ///< a frame was lost on the link or discarded by a receiver (bytes attached)
  CqeProduced,    ///< a completion entered a CQ
  MemoryRead,     ///< the NIC read host memory (DMA)
  MemoryWritten,  ///< the NIC wrote host memory (DMA)
  TimerArmed,
  TimerFired,
  Note,  ///< anything else worth a line (e.g. a scenario step)
};

std::string_view toString(TraceKind kind);

/// What an event says. Each value is one sentence of the narration; the arguments it reads
/// are named beside it (fields of TraceEvent, or of TraceArgs as `args.x`).
enum class Narrative : std::uint16_t {
  Text,  ///< free text from outside the simulator's protocol code (scenario steps): args.text
  // queue pairs (qp.cpp, host.cpp)
  QpCreated,       ///< qpn, args.qpType, args.sqDepth, args.rqDepth
  QpDestroyed,     ///< qpn
  QpStateChanged,  ///< qpn, args.fromState, args.toState; reason (and detail)
  SendPosted,      ///< wrId, args.wrOpcode, args.bytes, args.signaled, args.inlined, args.fenced
  RecvPosted,      ///< wrId, args.bytes
  // timers
  RetransmitTimerArmed,   ///< args.durationUs, args.timeoutExponent
  RetransmitTimerFired,   ///< psn (oldest unacknowledged), args.durationUs
  RetransmitTimerForced,  ///< args.requests: the timer runs out after that many requests
  RnrTimerArmed,          ///< psn, args.durationUs, args.retriesLeft or args.retriesUnlimited
  RnrTimerFired,          ///< psn: the requester resends from there
  // requester (requester.cpp)
  FenceWait,             ///< wrId
  RdAtomicWait,          ///< wrId, args.limit (max_rd_atomic)
  UdTooLong,             ///< wrId, args.bytes, args.mtu
  LocalProtectionError,  ///< wrId; reason (the DMA failure)
  WqeStarted,            ///< wrId, psn, args.wrOpcode, args.bytes
  RequestPacket,  ///< wrId, psn, args.opcode, args.bytes, args.ackReq; READ: firstPsn..lastPsn
  GoBackN,        ///< psn: where the requester restarts
  // completer (completer.cpp)
  SendCompleted,           ///< wrId, psn (last), args.status, args.signaled; reason
  SendCqFull,              ///< wrId, args.cq
  ReadResponseUnstorable,  ///< wrId; reason (the DMA failure)
  RetryStarted,            ///< psn, args.retryCause, args.retriesLeft or args.retriesUnlimited
  RetryExhausted,          ///< psn, args.retryCount (retry_cnt)
  // responder (responder.cpp)
  RecvCompleted,            ///< wrId, psn, args.status; reason (and detail)
  RecvWqeMalformed,         ///< reason (the DMA failure)
  OutOfSequenceDropped,     ///< psn, args.opcode, args.expectedPsn (a NAK is outstanding)
  UcRestDropped,            ///< psn, args.opcode, args.expectedPsn
  UcMessageAbandoned,       ///< the previous UC message lacks its LAST packet
  UcNoRecvWqeDropped,       ///< psn, args.opcode
  UcWriteDropped,           ///< psn; reason
  UcClassDDropped,          ///< psn, args.opcode; reason
  DuplicateReadUnmatched,   ///< psn
  DuplicateReadReplayed,    ///< psn
  DuplicateAtomicReplayed,  ///< psn, args.value (the saved result)
  // memory (DMA)
  LocalBufferAccess,  ///< address, length (MemoryRead or MemoryWritten)
  ReadResponseData,   ///< address, length
  WriteData,          ///< address, length, psn, args.opcode
  AtomicExecuted,     ///< address, args.opcode, args.value (read), args.newValue (written)
  // completion queues (host.cpp)
  CqeProduced,  ///< wrId, args.cq, args.wcOpcode, args.status, args.bytes, args.immData
  CqOverflow,   ///< args.cq, args.depth
  // frames (network.cpp, host.cpp)
  FrameSent,       ///< frameNumber, length, psn, args.opcode, args.peer, args.queuedSinceUs; reason
  FrameLost,       ///< frameNumber, psn; reason (why the link lost it)
  FrameCorrupted,  ///< frameNumber, args.byteIndex, args.bitMask
  FrameDelayed,    ///< frameNumber, args.durationUs
  FrameDuplicated,  ///< frameNumber
  FrameDiscarded,   ///< frameNumber; reason (the receiving NIC's check that failed)
  FrameReceived,    ///< frameNumber, psn, args.opcode, args.destQpn, args.ackReq
  FrameRejected,    ///< frameNumber, psn, args.opcode; reason (the receiver's check)
  // the TCP socket path (tcp_network.cpp)
  TcpAppSleeps,        ///< reason (why it sleeps)
  TcpCopy,             ///< args.bytes; reason (where the CPU copies)
  TcpSendCall,         ///< args.bytes: the application calls send()
  TcpRecvCall,         ///< the application calls recv()
  TcpTransmitWork,     ///< args.bytes (0: an ACK): the CPU runs TCP/IP transmit
  TcpSegmentSent,      ///< frameNumber, length, args.seq, args.ack, args.bytes, args.tcpFlags
  TcpSegmentLost,      ///< frameNumber
  TcpInterrupt,        ///< args.packets: frames in the receive ring
  TcpChecksumDropped,  ///< the frame fails its IPv4/TCP checksum
  TcpWriterWoken,
  TcpReaderWoken,
  TcpEstablished,
  TcpReset,
  TcpClosed,
  /// The socket buffers after a copy (reason CopyIntoSocketBuffer or CopyIntoAppBuffer) or
  /// after the kernel (or an RNIC) processed arriving segments (reason None):
  /// args.sendQueued, args.inFlight, args.recvQueued, args.bytes (the change)
  TcpSocketBuffers,
  // iWARP (iwarp_session.cpp): the rdma_cm calls and events, MPA, DDP
  RdmaCmBind,          ///< args.port: rdma_bind_addr on the passive side
  RdmaCmListen,        ///< args.port: rdma_listen
  RdmaCmResolve,       ///< args.port: rdma_resolve_addr and rdma_resolve_route
  RdmaCmConnect,       ///< args.port: rdma_connect (the RNIC opens the TCP connection)
  RdmaCmAccept,        ///< rdma_accept after the CONNECT_REQUEST event
  RdmaCmEstablished,   ///< the ESTABLISHED event
  MpaRequestSent,      ///< args.markers, args.crc, args.bytes (private data)
  MpaRequestReceived,  ///< args.markers, args.crc, args.bytes: the CONNECT_REQUEST event
  MpaReplySent,        ///< args.markers, args.crc, args.bytes
  MpaReplyReceived,    ///< args.markers, args.crc, args.bytes
  StagRegistered,      ///< args.key (STag), args.bytes, args.access
  DdpSegmentSent,      ///< args.opcode (RDMAP), args.bytes, args.key (STag: tagged) and
                       ///< args.value (TO), or args.queue, args.msn and args.value (MO);
                       ///< args.lastSegment
  DdpSegmentPlaced,    ///< the same fields, on the receiving RNIC
  IwarpTerminateSent,  ///< args.value: layer, type and code (layer << 16 | type << 8 | code)
};

/// Why: the cause an event names (a QP state change, a completion, a frame sent or lost).
enum class Reason : std::uint16_t {
  None,
  Text,  ///< args.text, from outside the protocol code (the CM's MADs)
  // modify_qp
  ModifyToReset,
  ModifyResetToInit,
  ModifyInitToInit,
  ModifyToRtr,  ///< args.expectedPsn, args.destQpn
  ModifyToRts,  ///< args.firstPsn
  ModifyRtsToRts,
  ModifyToSqd,
  ModifyToSqe,
  ModifyToErr,
  // errors that move a QP to ERR
  CompletionError,  ///< args.status
  RecvCqOverflow,   ///< args.cq, args.depth
  ResponderError,   ///< detail: the responder's reason
  ResponderFailed,
  // completions
  Flushed,         ///< the QP is in ERR
  AckReceived,     ///< args.ackOpcode, args.ackPsn
  CoalescedAck,    ///< args.ackOpcode, args.ackPsn
  Done,            ///< an RC WQE found done
  LastPacketSent,  ///< UC/UD: the last packet went out
  ErrorStatus,     ///< args.status
  MessageEnds,     ///< args.requestOpcode, args.requestPsn
  // DMA through lkeys (copy_data)
  NoRoom,  ///< args.requested, args.available
  SgeListExhausted,
  LkeyUnknown,       ///< args.key
  LkeyNoLocalWrite,  ///< args.key
  SgeOutsideMr,      ///< args.sgeAddress, args.sgeLength, args.mrAddress, args.mrLength
  // the responder's checks
  AccessFlagsForbid,  ///< args.requestOpcode
  LengthAtMtu,        ///< args.requestOpcode, args.requested, args.mtu
  DmaLengthTooLarge,
  MrLacksAccess,        ///< args.key, args.access
  RkeyUnknown,          ///< args.key
  RangeOutsideMr,       ///< args.sgeAddress, args.sgeLength, args.mrAddress, args.mrLength
  WriteLengthMismatch,  ///< args.requestOpcode, args.requested, args.available
  GrhDoesNotFit,
  PayloadDoesNotFit,      ///< args.requested, args.available
  InvalidateRkeyUnknown,  ///< args.key
  RkeyInvalidated,        ///< args.key
  MisalignedAtomic,       ///< args.sgeAddress
  NoRdAtomicResources,
  OpcodeOutOfSequence,  ///< args.requestOpcode, args.previousOpcode (absent: none)
  // responses the responder sends
  Ack,           ///< args.opcode, psn, args.msn, args.syndrome; detail: why
  ReadResponse,  ///< args.opcode, psn, args.bytes, args.msn (when it has an AETH), args.replay
  AckReqSet,
  DuplicateAcked,    ///< args.requestOpcode, args.requestPsn
  PsnOutOfSequence,  ///< args.requestPsn, args.expectedPsn
  NoRecvWqe,
  OriginalValue,  ///< args.value
  // a request packet the requester built
  Request,  ///< wrId, args.opcode, psn, args.bytes, args.ackReq; READ: args.firstPsn..lastPsn
  // frames lost on the link
  ExceedsLinkMtu,             ///< args.bytes, args.mtu
  FrameOnDropList,            ///< frameNumber
  PsnTransmissionOnDropList,  ///< args.transmission, psn
  PsnOnDropList,              ///< psn
  RandomLoss,                 ///< args.lossRate
  // the receiving NIC's checks
  Truncated,
  NotRdma,
  MalformedHeader,
  IcrcMismatch,
  WrongDestinationAddress,
  WrongDestinationLid,
  PkeyMismatch,
  GsiTakesUdSendOnly,
  GsiQkeyMismatch,
  NoSuchQp,             ///< args.destQpn
  OpcodeClassMismatch,  ///< args.qpType
  QpNotReady,           ///< args.destQpn, args.qpState
  SourceAddressMismatch,
  QkeyMismatch,  ///< args.key, args.expectedKey
  // the TCP socket path
  SendBufferFull,
  NothingToRead,
  CopyIntoSocketBuffer,
  CopyIntoAppBuffer,
};

/// Why the requester retried.
enum class RetryCause : std::uint8_t { Timeout, NakPsnSequenceError };
/// When the requester asks for an ACK: not at all, at a message's end, or every 65 packets.
enum class AckRequest : std::uint8_t { None, LastPacket, Periodic };

std::string_view toString(Narrative n);
std::string_view toString(Reason r);
std::string_view toString(RetryCause c);
std::string_view toString(AckRequest a);

/// Every typed argument an event may carry, as one list: TraceArgs' members, the JSON writer
/// and merge() all come from it. X(type, name). (The two strings, peer and text, are plain
/// members: empty means absent.)
#define RDMASCOPE_TRACE_ARGS(X)   \
  X(std::uint8_t, opcode)         \
  X(WrOpcode, wrOpcode)           \
  X(WcOpcode, wcOpcode)           \
  X(WcStatus, status)             \
  X(QpType, qpType)               \
  X(QpState, qpState)             \
  X(QpState, fromState)           \
  X(QpState, toState)             \
  X(std::uint8_t, syndrome)       \
  X(std::uint32_t, msn)           \
  X(std::uint32_t, expectedPsn)   \
  X(std::uint32_t, firstPsn)      \
  X(std::uint32_t, lastPsn)       \
  X(std::uint32_t, packets)       \
  X(std::uint8_t, ackOpcode)      \
  X(std::uint32_t, ackPsn)        \
  X(std::uint8_t, requestOpcode)  \
  X(std::uint32_t, requestPsn)    \
  X(std::uint8_t, previousOpcode) \
  X(AckRequest, ackReq)           \
  X(RetryCause, retryCause)       \
  X(int, retriesLeft)             \
  X(bool, retriesUnlimited)       \
  X(int, retryCount)              \
  X(std::uint32_t, key)           \
  X(std::uint32_t, expectedKey)   \
  X(std::uint32_t, access)        \
  X(std::uint32_t, destQpn)       \
  X(std::uint32_t, cq)            \
  X(std::uint32_t, depth)         \
  X(std::uint32_t, sqDepth)       \
  X(std::uint32_t, rqDepth)       \
  X(std::uint32_t, limit)         \
  X(std::uint64_t, bytes)         \
  X(std::uint64_t, requested)     \
  X(std::uint64_t, available)     \
  X(std::uint32_t, mtu)           \
  X(std::uint64_t, sgeAddress)    \
  X(std::uint64_t, sgeLength)     \
  X(std::uint64_t, mrAddress)     \
  X(std::uint64_t, mrLength)      \
  X(std::uint64_t, value)         \
  X(std::uint64_t, newValue)      \
  X(std::uint32_t, immData)       \
  X(bool, signaled)               \
  X(bool, inlined)                \
  X(bool, fenced)                 \
  X(bool, replay)                 \
  X(double, durationUs)           \
  X(int, timeoutExponent)         \
  X(std::uint64_t, requests)      \
  X(int, transmission)            \
  X(double, lossRate)             \
  X(std::uint64_t, byteIndex)     \
  X(std::uint8_t, bitMask)        \
  X(double, queuedSinceUs)        \
  X(std::uint32_t, seq)           \
  X(std::uint32_t, ack)           \
  X(std::uint8_t, tcpFlags)       \
  X(std::uint32_t, port)          \
  X(bool, markers)                \
  X(bool, crc)                    \
  X(bool, lastSegment)            \
  X(std::uint32_t, queue)         \
  X(std::uint64_t, sendQueued)    \
  X(std::uint64_t, inFlight)      \
  X(std::uint64_t, recvQueued)

/// The typed arguments of an event: only those its narrative and reasons use are set.
struct TraceArgs {
#define RDMASCOPE_TRACE_ARG_MEMBER(type, name) std::optional<type> name;
  RDMASCOPE_TRACE_ARGS(RDMASCOPE_TRACE_ARG_MEMBER)
#undef RDMASCOPE_TRACE_ARG_MEMBER
  std::string peer;  ///< the host a frame goes to (empty: none)
  std::string text;  ///< Narrative::Text and Reason::Text: free text (empty: none)
  /// Sets every argument `other` has set.
  void merge(const TraceArgs& other);
};

/// A cause passed down to where the event is emitted (a frame sent for a request, a QP moved
/// to ERR for a responder error): the reason, its own reason, and their arguments.
struct TraceCause {
  TraceCause() = default;
  TraceCause(Reason r, Reason d = Reason::None) : reason(r), detail(d) {}  // NOLINT: implicit

  Reason reason = Reason::None;
  Reason detail = Reason::None;
  std::uint64_t wrId = 0;
  TraceArgs args;
};

struct TraceEvent {
  SimTime time;  ///< when it happened; FrameSent and link losses: the frame's first bit on the wire
  std::uint64_t step = 0;  ///< number of the simulator event that produced it
  std::string host;
  TraceKind kind = TraceKind::Note;
  Narrative what = Narrative::Text;
  Reason reason = Reason::None;  ///< why (see Narrative for which events name one)
  Reason detail = Reason::None;  ///< why the reason (an ACK's cause, a responder error's)
  std::uint32_t qpn = 0;
  std::uint32_t psn = 0;
  std::uint64_t frameNumber = 0;  ///< 1-based frame number for frame events, else 0
  std::uint64_t wrId = 0;
  std::uint64_t address = 0;        ///< memory events
  std::uint32_t length = 0;         ///< memory events: bytes; frame events: frame length
  std::vector<std::uint8_t> bytes;  ///< frame events
  TraceArgs args;

  /// Takes the reason, detail, wrId (when set) and arguments of `cause`.
  void setCause(const TraceCause& cause);
};

/// Text line "time host kind explanation" (the explanation from narration.h's describe()).
std::string formatTraceLine(const TraceEvent& event);
/// One JSON object (no trailing newline): trace_json.h's toJson(), serialised.
std::string formatTraceJson(const TraceEvent& event);

/// Distributes trace events to subscribers and optionally keeps them.
class Trace {
 public:
  using Subscriber = std::function<void(const TraceEvent&)>;

  /// Off by default: nothing is built per event until enabled.
  bool enabled() const { return enabled_; }
  void setEnabled(bool on) { enabled_ = on; }
  /// Keep every event in events() (on by default when enabled).
  void setRetain(bool on) { retain_ = on; }
  int subscribe(Subscriber s);
  void unsubscribe(int id);
  void emit(TraceEvent event);
  const std::vector<TraceEvent>& events() const { return events_; }
  void clear() { events_.clear(); }

 private:
  bool enabled_ = false;
  bool retain_ = true;
  int nextId_ = 1;
  std::vector<std::pair<int, Subscriber>> subscribers_;
  std::vector<TraceEvent> events_;
};

}  // namespace rdmascope::sim
