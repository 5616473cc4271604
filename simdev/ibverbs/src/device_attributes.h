#pragma once
// What the simulated device reports through ibv_query_device and ibv_query_port: Linux
// Soft-RoCE's values (drivers/infiniband/sw/rxe/rxe_param.h), except that the capabilities the
// simulator does not model (memory windows) are not claimed.

#include <infiniband/verbs.h>

#include <cstdint>

#include "rdmascope/simdev/nic.h"

namespace rdmascope::ibverbs {

inline constexpr std::uint32_t kRxeVendorId = 0xffffff;
inline constexpr int kRxeMaxQp = 1 << 20;
inline constexpr int kRxeMaxQpWr = 1 << 20;
inline constexpr int kRxeMaxSge = 32;
inline constexpr int kRxeMaxSgeRd = 32;
inline constexpr int kRxeMaxCq = 1 << 20;
inline constexpr int kRxeMaxCqe = (1 << 15) - 1;
inline constexpr int kRxeMaxMr = 1 << 20;
inline constexpr int kRxeMaxPd = 1 << 20;
inline constexpr int kRxeMaxQpRdAtom = 128;
inline constexpr int kRxeMaxResRdAtom = 0x3f000;
inline constexpr int kRxeMaxQpInitRdAtom = 128;
inline constexpr int kRxeMaxMcastGrp = 8192;
inline constexpr int kRxeMaxMcastQpAttach = 56;
inline constexpr int kRxeMaxTotMcastQpAttach = 0x70000;
inline constexpr int kRxeMaxAh = (1 << 15) - 1;
inline constexpr int kRxeMaxSrq = (1 << 20) - 0x20001;
inline constexpr int kRxeMaxSrqWr = 1 << 20;
inline constexpr int kRxeMaxSrqSge = 27;
inline constexpr int kRxeMaxPkeys = 64;
inline constexpr int kRxeLocalCaAckDelay = 15;
inline constexpr std::uint32_t kRxeMaxInlineData = 512;
inline constexpr std::uint32_t kRxeMaxMsgSize = 0x800000;  ///< RXE_PORT_MAX_MSG_SZ
inline constexpr int kRxePortGidTblLen = 1024;
inline constexpr int kRxePortPkeyTblLen = 1;
inline constexpr std::uint64_t kRxePageSizeCap = 0xfffff000;
/// The simulated host's own limits (sim::Host::createQp, createCq).
inline constexpr std::uint32_t kSimMaxQpWr = 16384;
inline constexpr int kSimMaxCqe = 65536;

/// rxe sizes its queues to a power of two and reports the room left (2^k - 1 >= the request);
/// a request whose rounded size exceeds `limit` keeps its own size.
inline std::uint32_t rxeQueueRoom(std::uint32_t requested, std::uint32_t limit) {
  std::uint32_t n = 1;
  while (n < requested + 1)
    n <<= 1;
  return n - 1 <= limit ? n - 1 : requested;
}

/// The node GUID: the EUI-64 of the NIC's MAC, as rxe derives it (network order).
std::uint64_t nodeGuid(const simdev::Nic& nic);
void fillDeviceAttr(const simdev::Nic& nic, ibv_device_attr& attr);
void fillPortAttr(const simdev::Nic& nic, ibv_port_attr& attr);
/// The IB MTU enum of a byte count (1024 -> IBV_MTU_1024).
ibv_mtu mtuEnum(std::uint32_t bytes);

}  // namespace rdmascope::ibverbs
