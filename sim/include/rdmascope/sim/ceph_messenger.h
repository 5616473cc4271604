#pragma once
/// @file ceph_messenger.h
/// Ceph's async messenger carrying messages from a client to an OSD over either of its network
/// stacks, modelled after src/msg/async/rdma and src/msg/async/PosixStack.cc:
///
/// - RDMA stack (ms_type async+rdma), on the simulator's RC engine over RoCEv2. The two sides
///   first connect a TCP side channel and swap their QP information there as one fixed-format
///   text message each ("lid:qpn:psn:peer_qpn:gid" in hex, 65 bytes with its NUL: the client's
///   with peer_qpn 0, the OSD's reply, the client's ack), then move their RC QPs to RTR and RTS
///   (path MTU 1024, min_rnr_timer 12, timeout 14, retry_cnt 7, rnr_retry 7). Every QP takes its
///   receive WQEs from one shared receive queue filled with registered chunks of
///   ms_async_rdma_buffer_size (128 KiB) from a memory pool. A message's bufferlist is copied
///   into registered send chunks (unless it already lives in them), each chunk goes out as one
///   signalled IBV_WR_SEND, the receiver copies each received chunk out to the reader and posts
///   it back to the SRQ, and close() sends a zero-length SEND (the "fin").
/// - POSIX stack (ms_type async+posix), on the simulator's TCP socket model: one send() of the
///   message into the socket buffer, recv() calls copying it out at the OSD.
///
/// Both runs report frames, bytes, copies (count and bytes), system calls, CPU time from the
/// host cost model (host_cost_model.h), the latency of each message and whether the bytes
/// arrived intact, and keep a typed step for everything the messenger does.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rdmascope/sim/host_cost_model.h"
#include "rdmascope/sim/sim_time.h"
#include "rdmascope/sim/tcp_network.h"
#include "rdmascope/sim/trace.h"

namespace rdmascope::sim {

/// ms_async_rdma_buffer_size's default: the size of one registered chunk.
inline constexpr std::uint32_t kCephRdmaBufferSize = 128 * 1024;
/// ms_async_rdma_send_buffers' default (chunks in the send pool).
inline constexpr std::uint32_t kCephRdmaSendBuffers = 1024;
/// ms_async_rdma_receive_buffers' default (chunks in the receive pool).
inline constexpr std::uint32_t kCephRdmaReceiveBuffers = 32768;
/// The QP information message on the TCP side channel, its NUL included.
inline constexpr std::size_t kCephQpInfoBytes = 65;
/// The TCP port of the OSD's messenger (the first of Ceph's 6800-7300 range).
inline constexpr std::uint16_t kCephOsdPort = 6800;
/// The largest message the model carries.
inline constexpr std::uint64_t kCephMaxMessageBytes = 16ull << 20;
/// The most messages one run carries.
inline constexpr std::uint32_t kCephMaxMessages = 1000;

/// The network stack a messenger uses.
enum class CephStack : std::uint8_t {
  Rdma,   ///< async+rdma: RC QPs, SRQ, registered chunks
  Posix,  ///< async+posix: TCP sockets
};
std::string_view toString(CephStack stack);

struct CephMessengerOptions {
  std::uint64_t messageBytes = 300 * 1024;         ///< size of each message (1 .. 16 MiB)
  std::uint32_t messages = 3;                      ///< messages the client sends (1 .. 1000)
  std::uint32_t bufferSize = kCephRdmaBufferSize;  ///< RDMA: bytes per registered chunk
  /// RDMA: chunks in each host's send pool. Ceph's default is 1024; the model's pool is smaller
  /// so that its memory stays small (it matters only once a message needs more chunks).
  std::uint32_t sendBuffers = 64;
  /// RDMA: chunks posted to each host's SRQ (Ceph: up to 32768 in the pool).
  std::uint32_t receiveBuffers = 64;
  /// RDMA: the client builds each message inside registered send chunks (Ceph's
  /// is_tx_buffer()), so the messenger posts them without copying.
  bool preRegistered = false;
  std::uint64_t seed = 1;
  HostCostSettings costs;
  bool trace = false;  ///< keep the simulator's trace events too (frames, WQEs, CQEs)
};

/// One thing the messenger did.
enum class CephStepKind : std::uint8_t {
  SideChannelConnected,  ///< the TCP connection (RDMA: the side channel) is established
  QpInfoSent,            ///< write() of the QP information message (text)
  QpInfoReceived,        ///< read() of the peer's message (text)
  QpReady,               ///< the QP went to RTR and RTS with the peer's QPN, PSN and GID
  ReceivesPosted,        ///< chunks posted to the SRQ at start (count in `chunks`)
  MessageSubmitted,      ///< the messenger's send() of one message (bytes)
  ChunkTaken,            ///< a chunk left the send pool (chunk)
  CopyIntoChunk,         ///< the CPU copied bytes of the bufferlist into a chunk
  ChunkInPlace,          ///< the bufferlist already lives in this registered chunk: no copy
  PostSend,              ///< ibv_post_send of a chain of signalled SENDs (chunks, bytes)
  SendCompletion,        ///< a SEND's completion was polled (chunk)
  ChunkReturned,         ///< a send chunk went back to the pool (chunk)
  PoolEmpty,             ///< the send pool had no chunk: the rest waits for completions
  RecvCompletion,        ///< a receive completion was polled (chunk, bytes)
  Notified,              ///< the dispatcher woke the connection (eventfd write and read)
  CopyOut,               ///< the CPU copied a received chunk out to the reader (chunk, bytes)
  ChunkReposted,         ///< the chunk was posted back to the SRQ (chunk)
  MessageDelivered,      ///< the OSD holds the whole message (bytes)
  FinSent,               ///< close(): a zero-length signalled SEND
  FinReceived,           ///< a zero-length receive completion: the peer closed
  SocketSend,            ///< POSIX: send() (bytes)
  SocketCopyIn,          ///< POSIX: the kernel copied bytes into the socket send buffer
  SocketRecv,            ///< POSIX: recv()
  SocketCopyOut,         ///< POSIX: the kernel copied bytes out to the reader
  SocketClosed,          ///< the TCP connection (RDMA: the side channel) closed
};
std::string_view toString(CephStepKind kind);

struct CephStep {
  SimTime time;
  int host = 0;  ///< 0 the client, 1 the OSD
  CephStepKind kind = CephStepKind::MessageSubmitted;
  std::uint32_t message = 0;  ///< 1-based message number (0: none)
  int chunk = -1;             ///< index of the chunk in its pool (-1: none)
  std::uint32_t chunks = 0;   ///< chunks a PostSend or ReceivesPosted covers
  std::uint64_t bytes = 0;
  std::uint32_t qpn = 0;
  std::string text;  ///< QpInfoSent/QpInfoReceived: the message's text
};

/// One sentence saying what a step did.
std::string describe(const CephStep& step);

/// Per-host figures of one stack's run.
struct CephHostCounters {
  std::uint64_t copies = 0;     ///< copies the CPU made of message bytes
  std::uint64_t copyBytes = 0;  ///< bytes those copies moved
  std::uint64_t syscalls = 0;   ///< system calls (RDMA: side channel and eventfd)
  std::uint64_t contextSwitches = 0;
  std::uint64_t doorbells = 0;   ///< RDMA: WQEs written (send and receive)
  std::uint64_t cqPolls = 0;     ///< RDMA: completions polled
  std::uint64_t interrupts = 0;  ///< POSIX (and the RDMA side channel): NIC interrupts
  double cpuNs = 0;              ///< CPU time of all of it, from the host cost model
};

struct CephStackReport {
  CephStack stack = CephStack::Rdma;
  /// Every frame on the link in time order (RDMA: RoCEv2 and the TCP side channel), each
  /// timed when it left its sender.
  std::vector<TcpCapturedFrame> frames;
  std::uint64_t roceFrames = 0;    ///< RDMA: RoCEv2 frames
  std::uint64_t tcpFrames = 0;     ///< TCP frames (RDMA: the side channel)
  std::uint64_t wireBytes = 0;     ///< bytes of all frames
  std::uint64_t payloadBytes = 0;  ///< message bytes delivered
  std::array<CephHostCounters, 2> hosts{};
  std::vector<double> latencyUs;  ///< per message: the client's send() to the OSD holding it
  std::uint64_t sendWrs = 0;      ///< RDMA: SEND work requests, the fin included
  std::uint64_t postSendCalls = 0;
  std::uint64_t chunksReposted = 0;
  std::array<std::string, 3> qpInfo;  ///< RDMA: client, OSD, client ack, as sent
  bool finReceived = false;           ///< RDMA: the OSD saw the zero-length SEND
  bool dataIntact = false;            ///< every message arrived with exactly its bytes
  double elapsedUs = 0;               ///< from the first send() to the last delivery
  std::vector<CephStep> steps;
  std::vector<TraceEvent> trace;  ///< the simulator's own events (options.trace)
};

/// The QP information message as Ceph formats it: "%04x:%08x:%08x:%08x:" and the 16 GID bytes
/// in 32 hex digits (64 characters; sent with its NUL).
std::string formatCephQpInfo(std::uint16_t lid, std::uint32_t qpn, std::uint32_t psn,
                             std::uint32_t peerQpn, const Gid& gid);

struct CephQpInfo {
  std::uint16_t lid = 0;
  std::uint32_t qpn = 0;
  std::uint32_t psn = 0;
  std::uint32_t peerQpn = 0;
  Gid gid{};
};
/// Parses a QP information message; nullopt when it is not one.
std::optional<CephQpInfo> parseCephQpInfo(std::string_view text);

/// Checks the options; returns a one-line error naming the bad one, or nullopt.
std::optional<std::string> validate(const CephMessengerOptions& options);

/// Runs the messages over one stack. Nullopt and a one-line error for bad options or a run
/// that did not finish.
std::optional<CephStackReport> runCephMessenger(CephStack stack,
                                                const CephMessengerOptions& options,
                                                std::string& error);

}  // namespace rdmascope::sim
