#pragma once
/// @file transport_host_state.h
/// What one host of a TCP or iWARP recording holds as an event leaves it: the socket buffers
/// of its TCP connection (filled by send() copies, drained by ACKs, filled by arriving
/// segments, drained by recv() copies) and, on iWARP, its rdma_cm connection steps, the MPA
/// exchange and the DDP segments its RNIC framed and placed. Built from the simulator's typed
/// trace events (sim::Narrative) by transport_recording.cpp; views only read it. Qt-free.

#include <cstdint>
#include <vector>

#include "rdmascope/sim/ceph_messenger.h"
#include "rdmascope/sim/trace.h"

namespace rdmascope::ui {

/// A host's TCP socket buffers and the counts of the socket path so far.
struct SocketBufferState {
  std::uint64_t sendCapacity = 0;  ///< SO_SNDBUF of the model
  std::uint64_t message = 0;       ///< bytes the transfer moves (the send bar's scale)
  std::uint64_t recvCapacity = 0;  ///< the receive buffer (the window the model advertises)
  std::uint64_t sendQueued = 0;    ///< bytes in the send buffer, not yet acknowledged
  std::uint64_t inFlight = 0;      ///< of those, bytes sent and not yet acknowledged
  std::uint64_t recvQueued = 0;    ///< bytes received in order and not yet read
  std::uint64_t copiedIn = 0;      ///< bytes the application copied into the send buffer
  std::uint64_t acked = 0;         ///< of those, bytes the peer acknowledged (freed)
  std::uint64_t received = 0;      ///< bytes that arrived in order (receive side)
  std::uint64_t copiedOut = 0;     ///< bytes copied from the receive buffer to the application
  std::uint64_t sendCalls = 0;     ///< send() system calls
  std::uint64_t recvCalls = 0;     ///< recv() system calls
  std::uint64_t copies = 0;        ///< CPU copies (either direction)
  std::uint64_t segmentsSent = 0;  ///< TCP segments this host put on the wire
  std::uint64_t interrupts = 0;
  bool appSleeping = false;  ///< the application is blocked in send() or recv()
};

/// A host's iWARP connection and RNIC work so far.
struct IwarpHostState {
  /// The connection steps this host took, in order: RdmaCmBind, RdmaCmListen, RdmaCmResolve,
  /// RdmaCmConnect, TcpEstablished, MpaRequestSent/Received, RdmaCmAccept,
  /// MpaReplySent/Received, RdmaCmEstablished.
  std::vector<sim::Narrative> connection;
  bool markers = false;  ///< negotiated for the stream this host receives (from its peer's frame)
  bool crc = false;
  std::uint32_t port = 0;
  std::uint64_t stagsRegistered = 0;
  std::uint64_t workPosted = 0;
  std::uint64_t segmentsSent = 0;  ///< DDP segments framed into FPDUs
  std::uint64_t bytesSent = 0;     ///< their payload bytes
  std::uint64_t segmentsPlaced = 0;
  std::uint64_t bytesPlaced = 0;  ///< payload bytes the RNIC placed in registered memory
  std::uint64_t completions = 0;
  std::uint8_t lastOpcode = 0;  ///< RDMAP opcode of the last DDP segment sent or placed
  bool lastTagged = false;
};

/// A host of Ceph's messenger (ceph_recording.h): its chunk pools and SRQ on the RDMA stack,
/// and on either stack the copies, system calls and CPU time of the messenger's steps so far.
struct CephHostState {
  std::uint32_t chunkBytes = 0;     ///< RDMA: bytes of one registered chunk
  std::uint32_t sendPool = 0;       ///< RDMA: chunks in the send pool
  std::uint32_t sendPoolFree = 0;   ///< RDMA: of those, free (the rest carry SENDs)
  std::uint32_t srqDepth = 0;       ///< RDMA: chunks the SRQ can hold
  std::uint32_t srqPosted = 0;      ///< RDMA: chunks posted to the SRQ, waiting for a SEND
  std::uint32_t chunksHeld = 0;     ///< RDMA: received chunks not yet copied out and reposted
  bool qpInfoSent = false;          ///< RDMA: this host wrote its QP information
  bool qpInfoReceived = false;      ///< RDMA: it read the peer's
  bool qpReady = false;             ///< RDMA: its QP is in RTS
  std::uint64_t copies = 0;         ///< CPU copies of message bytes
  std::uint64_t copyBytes = 0;      ///< bytes those copies moved
  std::uint64_t zeroCopyBytes = 0;  ///< RDMA: bytes sent from where they lay (no copy)
  std::uint64_t syscalls = 0;       ///< system calls of the steps (write, read, send, recv)
  std::uint64_t sends = 0;          ///< RDMA: signalled SENDs posted (the fin included)
  std::uint64_t polled = 0;         ///< RDMA: completions polled
  std::uint64_t reposted = 0;       ///< RDMA: chunks posted back to the SRQ
  std::uint64_t messagesSent = 0;
  std::uint64_t messagesDelivered = 0;
  double cpuNs = 0;     ///< CPU time of the steps so far, from the host cost model
  bool closed = false;  ///< the fin was sent or received (RDMA) or the socket closed
  /// The whole run's figures for this host as the simulator counted them (the same in every
  /// state): they add the TCP/IP work, interrupts and context switches the steps leave out.
  sim::CephHostCounters run;
};

/// Both parts; a TCP recording uses `socket`, an iWARP one both (TCP runs in the RNIC), a Ceph
/// one `ceph`.
struct TransportHostState {
  SocketBufferState socket;
  IwarpHostState iwarp;
  CephHostState ceph;
};

}  // namespace rdmascope::ui
