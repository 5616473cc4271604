#pragma once
/// @file transfer_cost.h
/// The cost of moving one message of N bytes from an application buffer on host A to an
/// application buffer on host B, by the TCP socket path, RoCEv2 or iWARP, computed from the
/// formulas of the host cost model: every stage with its time and who does the work, and the
/// counters of CPU copies, system calls, context switches, interrupts, CPU time and memory
/// bus traffic. The event-driven simulator counts the same things frame by frame.
///
/// The timing is a pipeline. Each resource (a host's CPU, a host's NIC, a direction of the
/// wire) is busy for the sum of its stages. The first segment passes every stage on its path
/// once; the rest of the on-path work then follows at the pace of the busiest resource; work
/// off that path (ACKs, completions nobody waits for) overlaps, but no resource can finish
/// sooner than its total busy time:
///   latency = max(sum(first) + max_r(onPathBusy_r - first_r), max_r(busy_r)).
/// The TCP window is assumed open (connection established, buffers larger than the
/// bandwidth-delay product, which at the defaults is about 25 KB).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rdmascope/sim/host_cost_model.h"

namespace rdmascope::sim {

/// The data paths compared.
enum class Transport : std::uint8_t { Tcp, RoceV2, Iwarp };

/// The RDMA operation used to move the message (TCP always uses send()/recv()).
enum class RdmaOp : std::uint8_t { Send, Write, Read };

/// Who does the work of a stage: a CPU core, the NIC's packet pipeline, the NIC's PCIe DMA
/// engine (which runs in parallel with the pipeline), the wire, or nobody (a timer runs out, as
/// the NIC's interrupt moderation does).
enum class Worker : std::uint8_t { Cpu, Nic, Dma, Wire, Timer };

/// Where a stage runs. Host A makes the first call (send(), or posts the RDMA work request);
/// host B is its peer. For an RDMA Read the data flows from B to A.
enum class Place : std::uint8_t { HostA, HostB, WireAtoB, WireBtoA };

std::string_view toString(Transport t);
std::string_view toString(RdmaOp op);
std::string_view toString(Worker w);
std::string_view toString(Place p);

/// Parses "tcp", "rocev2" (or "roce"), "iwarp"; false on anything else.
bool parseTransport(std::string_view text, Transport& out);
/// Parses "send", "write", "read".
bool parseRdmaOp(std::string_view text, RdmaOp& out);

/// One stage of a data path.
struct Stage {
  std::string name;  ///< e.g. "copy into the socket send buffer"
  Place place = Place::HostA;
  Worker worker = Worker::Cpu;
  std::uint64_t count = 0;  ///< how many times it happens in the transfer
  double firstNs = 0;       ///< time on the first segment's path; 0 for work off that path
  double totalNs = 0;       ///< time over the whole transfer
};

/// What a transfer costs, in counts.
struct TransferCounters {
  std::uint64_t payloadBytes = 0;      ///< application bytes moved
  std::uint64_t cpuBytesCopied = 0;    ///< bytes the CPUs copied (memcpy / copy_*_user)
  std::uint32_t copiesPerByte = 0;     ///< times each payload byte is copied by a CPU
  std::uint64_t copyOperations = 0;    ///< separate copy operations (one per send()/recv())
  std::uint64_t syscalls = 0;          ///< system calls on both hosts
  std::uint64_t contextSwitches = 0;   ///< a thread sleeping and being woken, both hosts
  std::uint64_t interrupts = 0;        ///< interrupts on both hosts
  std::uint64_t doorbells = 0;         ///< MMIO doorbells rung by CPUs
  std::uint64_t frames = 0;            ///< Ethernet frames carrying the message (A to B)
  std::uint64_t ackFrames = 0;         ///< acknowledgement frames (B to A)
  std::uint64_t wireBytes = 0;         ///< bytes on the wire both ways, preamble and gap included
  std::uint64_t nicDmaReadBytes = 0;   ///< bytes the NICs read from host memory
  std::uint64_t nicDmaWriteBytes = 0;  ///< bytes the NICs wrote to host memory
  std::uint64_t memoryBusBytes = 0;    ///< CPU copy reads + writes plus NIC DMA reads + writes
  double hostACpuNs = 0;               ///< CPU time on host A
  double hostBCpuNs = 0;               ///< CPU time on host B
  [[nodiscard]] double cpuNs() const { return hostACpuNs + hostBCpuNs; }
};

/// A transfer's stages, counters, latency and throughput.
struct TransferEstimate {
  Transport transport = Transport::Tcp;
  RdmaOp op = RdmaOp::Send;
  std::uint64_t bytes = 0;
  std::vector<Stage> stages;
  TransferCounters counters;
  double latencyNs = 0;              ///< first call until the waiting side sees completion
  double throughputBytesPerSec = 0;  ///< bytes / latency
  std::string bottleneck;            ///< the busiest resource
};

/// Wire overheads per frame, in bytes (Ethernet II + preamble/SFD + inter-frame gap).
inline constexpr std::uint32_t kEthernetHeaderBytes = 14;
inline constexpr std::uint32_t kEthernetFcsBytes = 4;
inline constexpr std::uint32_t kPreambleAndGapBytes = 20;  ///< 8 preamble/SFD + 12 IFG
inline constexpr std::uint32_t kMinFrameBytes = 64;        ///< header to FCS inclusive
inline constexpr std::uint32_t kIpv4HeaderBytes = 20;
inline constexpr std::uint32_t kTcpHeaderBytes = 20;
inline constexpr std::uint32_t kUdpHeaderBytes = 8;
inline constexpr std::uint32_t kBthBytes = 12;
inline constexpr std::uint32_t kRethBytes = 16;
inline constexpr std::uint32_t kAethBytes = 4;
inline constexpr std::uint32_t kIcrcBytes = 4;
inline constexpr std::uint32_t kWqeBytes = 64;  ///< a send/receive WQE the NIC fetches
inline constexpr std::uint32_t kCqeBytes = 64;  ///< a CQE the NIC writes
/// RFC 5041: a tagged DDP header with the RDMAP control byte (ctrl 2 + STag 4 + TO 8).
inline constexpr std::uint32_t kDdpTaggedHeaderBytes = 14;
/// RFC 5041/5040: an untagged DDP header (ctrl 2 + reserved/Inv STag 4 + QN 4 + MSN 4 + MO 4).
inline constexpr std::uint32_t kDdpUntaggedHeaderBytes = 18;
/// RFC 5040: the Read Request's payload (sink STag/TO, length, source STag/TO).
inline constexpr std::uint32_t kRdmapReadRequestBytes = 28;

/// Bytes on the wire (preamble and gap included) of an Ethernet frame whose IP packet is
/// ipBytes long.
std::uint64_t wireBytesOfFrame(std::uint64_t ipBytes);

/// RFC 5044 section 8.1: the largest ULPDU (DDP segment) an FPDU may carry so that the FPDU,
/// with its length field, pad, CRC and markers, fits in one TCP segment of mss bytes.
std::uint32_t mpaMulpdu(std::uint32_t mss, bool markers);

/// Interrupts the receiving NIC raises for a run of `frames` frames arriving back to back,
/// each taking frameWireNs on the wire, under the settings' coalescing.
std::uint64_t coalescedInterrupts(std::uint64_t frames, double frameWireNs,
                                  const HostCostSettings& s);

/// Frames signalled per interrupt when frames arrive back to back every frameWireNs.
std::uint64_t framesPerInterrupt(double frameWireNs, const HostCostSettings& s);

/// Options of an estimate.
struct TransferOptions {
  RdmaOp op = RdmaOp::Send;  ///< RDMA operation (ignored for TCP)
  bool mpaMarkers = false;   ///< iWARP: MPA markers negotiated
  bool mpaCrc = true;        ///< iWARP: MPA CRC negotiated (its bytes are sent either way)
};

/// Computes the stages, counters, latency and throughput of moving `bytes` (at least 1).
TransferEstimate estimateTransfer(Transport transport, std::uint64_t bytes,
                                  const HostCostSettings& settings,
                                  const TransferOptions& options = {});

}  // namespace rdmascope::sim
