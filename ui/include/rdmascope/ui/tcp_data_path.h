#pragma once
/// @file tcp_data_path.h
/// The TCP socket path of one transfer as the simulator's TCP model runs it
/// (sim::runTransportScenario "tcp-stream": send()/recv() through both hosts' kernels): the
/// model's own counts of system calls, CPU copies with their bytes, segments, ACKs, interrupts
/// and wakeups, from the first recv() until the reader has every byte, turned into the steps
/// the layer stacks draw. Qt-free.

#include <cstdint>
#include <string>
#include <vector>

#include "rdmascope/sim/host_cost_model.h"
#include "rdmascope/ui/layer_stacks.h"

namespace rdmascope::ui {

/// What the TCP model did to move one message from host A's application to host B's.
struct TcpTransferCounts {
  std::uint64_t sendCalls = 0;       ///< send() system calls on host A
  std::uint64_t copiesA = 0;         ///< copies application buffer -> socket send buffer
  std::uint64_t bytesCopiedA = 0;    ///< their bytes
  std::uint64_t writerSleeps = 0;    ///< send() slept on a full send buffer
  std::uint64_t dataSegments = 0;    ///< segments with payload, host A to B
  std::uint64_t payloadBytes = 0;    ///< their payload bytes
  std::uint64_t dataFrameBytes = 0;  ///< their frame bytes (Ethernet header to TCP payload)
  std::uint64_t ackFrames = 0;       ///< pure ACKs, host B to A
  std::uint64_t interruptsA = 0;     ///< interrupts on host A (ACKs arriving)
  std::uint64_t interruptsB = 0;     ///< interrupts on host B (data arriving)
  std::uint64_t recvCalls = 0;       ///< recv() system calls on host B
  std::uint64_t readerSleeps = 0;    ///< recv() slept with nothing to read
  std::uint64_t copiesB = 0;         ///< copies socket receive buffer -> application buffer
  std::uint64_t bytesCopiedB = 0;    ///< their bytes
  double elapsedUs = 0;              ///< first recv() to the last byte read
};

/// The stages of the socket path, in the order the steps follow.
enum class TcpStage : std::uint8_t {
  SendCall,
  SendCopy,
  WriterSleep,
  Segments,
  NicRead,
  Wire,
  NicWrite,
  RxKernel,
  RecvCall,
  RecvCopy,
  AckInterrupts
};

/// One step of the TCP path with its own text.
struct TcpPathStep {
  TcpStage stage;
  PathKind kind;
  bool fromHostB;
  std::uint8_t from;
  bool toHostB;
  std::uint8_t to;
  std::string text;
};

/// The TCP path of a transfer of `bytes`.
struct TcpDataPath {
  std::uint64_t bytes = 0;     ///< the transfer asked for
  std::uint64_t modelled = 0;  ///< the size the model ran (bytes, capped at the model's maximum)
  TcpTransferCounts counts;
  std::vector<TcpPathStep> steps;
  std::string error;  ///< the model could not run (steps empty)
};

/// Runs the TCP model on a message of `bytes` (at least 1) and builds its steps: send() calls,
/// the copy into the socket buffer, sleeps on a full send buffer (only when they happen),
/// segments built and read by the NIC, the wire, the receiving NIC's DMA and interrupts, the
/// kernel's receive processing and ACKs, recv() calls, the copy out to the application, and
/// host A's interrupts for the ACKs.
TcpDataPath runTcpDataPath(std::uint64_t bytes, const sim::HostCostSettings& costs = {});

/// The step of a TCP path that corresponds to a step of the RDMA path (0 post the WQE,
/// 1 doorbell, 2 DMA read, 3 headers, 4 wire, 5 DMA write, 6 completion), -1 for none.
int tcpStepForRdmaStep(const TcpDataPath& path, int rdmaStep);

}  // namespace rdmascope::ui
