#pragma once
// What the simulated device reports through ibv_query_device and ibv_query_port: Linux
// Soft-RoCE's values (sim/device_limits.h, from rxe_param.h), except that the capabilities the
// simulator does not model (memory windows) are not claimed.

#include <infiniband/verbs.h>

#include <cstdint>

#include "rdmascope/sim/device_limits.h"
#include "rdmascope/simdev/nic.h"

namespace rdmascope::ibverbs {

/// The node GUID: the EUI-64 of the NIC's MAC, as rxe derives it (network order).
std::uint64_t nodeGuid(const simdev::Nic& nic);
void fillDeviceAttr(const simdev::Nic& nic, ibv_device_attr& attr);
void fillPortAttr(const simdev::Nic& nic, ibv_port_attr& attr);
/// The IB MTU enum of a byte count (1024 -> IBV_MTU_1024).
ibv_mtu mtuEnum(std::uint32_t bytes);

}  // namespace rdmascope::ibverbs
