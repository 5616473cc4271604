// libibverbs' enum-to-text and rate conversions, with rdma-core's wording (enum_strs.c, verbs.c).
#include <array>
#include <string_view>
#include <utility>

#include "context.h"

namespace {

struct RateRow {
  ibv_rate rate;
  int mult;  ///< multiple of 2.5 Gb/s; -1 when the rate is not one
  int mbps;
};

constexpr std::array<RateRow, 23> kRates = {{
    {IBV_RATE_2_5_GBPS, 1, 2500},      {IBV_RATE_5_GBPS, 2, 5000},
    {IBV_RATE_10_GBPS, 4, 10000},      {IBV_RATE_20_GBPS, 8, 20000},
    {IBV_RATE_30_GBPS, 12, 30000},     {IBV_RATE_40_GBPS, 16, 40000},
    {IBV_RATE_60_GBPS, 24, 60000},     {IBV_RATE_80_GBPS, 32, 80000},
    {IBV_RATE_120_GBPS, 48, 120000},   {IBV_RATE_14_GBPS, -1, 14062},
    {IBV_RATE_56_GBPS, -1, 56250},     {IBV_RATE_112_GBPS, -1, 112500},
    {IBV_RATE_168_GBPS, -1, 168750},   {IBV_RATE_25_GBPS, -1, 25781},
    {IBV_RATE_100_GBPS, -1, 103125},   {IBV_RATE_200_GBPS, -1, 206250},
    {IBV_RATE_300_GBPS, -1, 309375},   {IBV_RATE_28_GBPS, -1, 28125},
    {IBV_RATE_50_GBPS, -1, 53125},     {IBV_RATE_400_GBPS, -1, 425000},
    {IBV_RATE_600_GBPS, -1, 637500},   {IBV_RATE_800_GBPS, -1, 850000},
    {IBV_RATE_1200_GBPS, -1, 1275000},
}};

}  // namespace

RDMASCOPE_IBV_EXPORT const char* ibv_wc_status_str(ibv_wc_status status) {
  if (status == IBV_WC_TM_ERR) return "TM error";
  if (status == IBV_WC_TM_RNDV_INCOMPLETE) return "TM software rendezvous";
  return rdmascope::sim::toString(static_cast<rdmascope::sim::WcStatus>(status)).data();
}

RDMASCOPE_IBV_EXPORT const char* ibv_event_type_str(ibv_event_type event) {
  static constexpr std::array<const char*, 20> kNames = {
      "CQ error",
      "local work queue catastrophic error",
      "invalid request local work queue error",
      "local access violation work queue error",
      "communication established",
      "send queue drained",
      "path migrated",
      "path migration request error",
      "local catastrophic error",
      "port active",
      "port error",
      "LID change",
      "P_Key change",
      "SM change",
      "SRQ catastrophic error",
      "SRQ limit reached",
      "last WQE reached",
      "client reregistration",
      "GID table change",
      "WQ fatal",
  };
  const auto i = static_cast<std::size_t>(event);
  return i < kNames.size() ? kNames[i] : "unknown";
}

RDMASCOPE_IBV_EXPORT const char* ibv_node_type_str(ibv_node_type node_type) {
  switch (node_type) {
    case IBV_NODE_CA:
      return "InfiniBand channel adapter";
    case IBV_NODE_SWITCH:
      return "InfiniBand switch";
    case IBV_NODE_ROUTER:
      return "InfiniBand router";
    case IBV_NODE_RNIC:
      return "iWARP NIC";
    case IBV_NODE_USNIC:
      return "usNIC";
    case IBV_NODE_USNIC_UDP:
      return "usNIC UDP";
    case IBV_NODE_UNSPECIFIED:
      return "unspecified";
    default:
      return "unknown";
  }
}

RDMASCOPE_IBV_EXPORT const char* ibv_port_state_str(ibv_port_state port_state) {
  static constexpr std::array<const char*, 6> kNames = {
      "no state change (NOP)", "down", "init", "armed", "active", "active defer"};
  const auto i = static_cast<std::size_t>(port_state);
  return i < kNames.size() ? kNames[i] : "unknown";
}

RDMASCOPE_IBV_EXPORT int ibv_rate_to_mult(ibv_rate rate) {
  for (const RateRow& r : kRates)
    if (r.rate == rate) return r.mult;
  return -1;
}

RDMASCOPE_IBV_EXPORT ibv_rate mult_to_ibv_rate(int mult) {
  for (const RateRow& r : kRates)
    if (r.mult == mult && mult > 0) return r.rate;
  return IBV_RATE_MAX;
}

RDMASCOPE_IBV_EXPORT int ibv_rate_to_mbps(ibv_rate rate) {
  for (const RateRow& r : kRates)
    if (r.rate == rate) return r.mbps;
  return -1;
}

RDMASCOPE_IBV_EXPORT ibv_rate mbps_to_ibv_rate(int mbps) {
  for (const RateRow& r : kRates)
    if (r.mbps == mbps) return r.rate;
  return IBV_RATE_MAX;
}
