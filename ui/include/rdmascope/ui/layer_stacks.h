#pragma once
/// @file layer_stacks.h
/// The four protocol stacks rdmascope compares (TCP/IP sockets, RoCEv2, native InfiniBand,
/// iWARP) as data: their layers, the zone each runs in (user space, kernel, NIC), the header
/// keys each layer owns, and the data path of one message from host A to host B, step by step.
/// Qt-free so that views and tests share one table.

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "rdmascope/packets/dissection.h"

namespace rdmascope::ui {

enum class Stack : std::uint8_t { TcpIp, RoceV2, InfiniBand, Iwarp };
inline constexpr std::size_t kStackCount = 4;

/// Where a layer's work is done.
enum class Zone : std::uint8_t { User, Kernel, Nic };

/// One layer of a stack.
struct LayerDef {
  std::string_view name;    ///< short box label, e.g. "Socket buffer"
  std::string_view detail;  ///< one sentence for the tooltip
  Zone zone;
  std::span<const std::string_view> keys;  ///< header keys (Node::key) this layer owns
};

/// What happens in one step of the data path.
enum class PathKind : std::uint8_t {
  Syscall,     ///< the application enters the kernel
  CpuCopy,     ///< the CPU copies the payload between buffers
  Processing,  ///< headers are built or parsed (no copy of the payload)
  Doorbell,    ///< user space tells the NIC directly (MMIO), no system call
  Dma,         ///< the NIC reads or writes host memory
  Wire,        ///< the frame crosses the link
  Completion,  ///< a completion is reported to the application
};

/// One step of the data path; layers are indices into the stack's layers.
struct PathStep {
  PathKind kind;
  bool fromHostB;  ///< side of `from` (false: host A, the sender)
  std::uint8_t from;
  bool toHostB;
  std::uint8_t to;
  std::string_view text;  ///< what happens, one or two sentences
};

struct StackDef {
  Stack stack;
  std::string_view name;  ///< "TCP/IP sockets", "RoCEv2", ...
  std::span<const LayerDef> layers;
  std::span<const PathStep> path;
};

/// The table of every stack, in display order.
std::span<const StackDef> stackDefs();
const StackDef& stackDef(Stack stack);

/// Counts of a stack's data path: what the comparison is about.
struct PathCounts {
  int cpuCopies = 0;
  int syscalls = 0;
  int dmas = 0;
  int doorbells = 0;
};
PathCounts countPath(const StackDef& def);

/// The stack a decoded frame belongs to (RoCEv1 maps to InfiniBand: same transport and GRH),
/// or -1 when it carries none of them.
int stackOfFrame(const packets::Dissection& dissection);
/// The layers of `def` that the frame has headers for, as a bit mask over layer indices.
std::uint32_t layersOfFrame(const StackDef& def, const packets::Dissection& dissection);

}  // namespace rdmascope::ui
