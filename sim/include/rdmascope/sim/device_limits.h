#pragma once
/// @file device_limits.h
/// The limits of the simulated HCA: those of Linux Soft-RoCE as Debian 12's kernel (6.1) sets
/// them (drivers/infiniband/sw/rxe/rxe_param.h and rxe_init_device_param), so that
/// ibv_query_device and ibv_query_port report what they report on rxe, and the create verbs
/// refuse what rxe refuses (rxe_qp_chk_cap, rxe_cq_chk_attr, rxe_srq_chk_init) with the same
/// errno.

#include <cstdint>

namespace rdmascope::sim::limits {

/// rxe's DEFAULT_MAX_VALUE: most object counts and queue depths.
inline constexpr std::uint32_t kDefaultMax = 1u << 20;

// ibv_device_attr
inline constexpr std::uint64_t kMaxMrSize = ~std::uint64_t{0};   ///< max_mr_size
inline constexpr std::uint64_t kPageSizeCap = 0xfffff000;        ///< page_size_cap
inline constexpr std::uint32_t kVendorId = 0xffffff;             ///< vendor_id
inline constexpr std::uint32_t kVendorPartId = 0;                ///< vendor_part_id
inline constexpr std::uint32_t kHwVer = 0;                       ///< hw_ver
inline constexpr std::uint32_t kMaxQp = kDefaultMax - 16;        ///< max_qp
inline constexpr std::uint32_t kMaxQpWr = kDefaultMax;           ///< max_qp_wr
inline constexpr std::uint32_t kMaxSge = 32;                     ///< max_sge (send and receive)
inline constexpr std::uint32_t kMaxSgeRd = 32;                   ///< max_sge_rd
inline constexpr std::uint32_t kMaxCq = kDefaultMax;             ///< max_cq
inline constexpr std::uint32_t kMaxCqe = (1u << 15) - 1;         ///< max_cqe
inline constexpr std::uint32_t kMaxMr = (kDefaultMax >> 1) - 1;  ///< max_mr
inline constexpr std::uint32_t kMaxPd = kDefaultMax;             ///< max_pd
inline constexpr std::uint32_t kMaxQpRdAtom = 128;               ///< max_qp_rd_atom
inline constexpr std::uint32_t kMaxQpInitRdAtom = 128;           ///< max_qp_init_rd_atom
inline constexpr std::uint32_t kMaxResRdAtom = 0x3f000;          ///< max_res_rd_atom
/// atomic_cap: IBV_ATOMIC_HCA (atomics are atomic with respect to this HCA's own accesses).
inline constexpr std::uint32_t kAtomicCap = 1;
inline constexpr std::uint32_t kMaxMw = kDefaultMax - (kDefaultMax >> 1) - 1;  ///< max_mw
inline constexpr std::uint32_t kMaxMcastGrp = 8192;                            ///< max_mcast_grp
inline constexpr std::uint32_t kMaxMcastQpAttach = 56;            ///< max_mcast_qp_attach
inline constexpr std::uint32_t kMaxTotalMcastQpAttach = 0x70000;  ///< max_total_mcast_qp_attach
inline constexpr std::uint32_t kMaxAh = (1u << 15) - 1;           ///< max_ah
inline constexpr std::uint32_t kMaxSrq = kDefaultMax - 0x20001;   ///< max_srq
inline constexpr std::uint32_t kMaxSrqWr = kDefaultMax;           ///< max_srq_wr
inline constexpr std::uint32_t kMaxSrqSge = 27;                   ///< max_srq_sge
inline constexpr std::uint32_t kMaxFastRegPageListLen = 512;      ///< max_fast_reg_page_list_len
inline constexpr std::uint16_t kMaxPkeys = 64;                    ///< max_pkeys
inline constexpr std::uint8_t kLocalCaAckDelay = 15;              ///< local_ca_ack_delay
inline constexpr std::uint8_t kPhysPortCnt = 1;                   ///< phys_port_cnt
/// Inline data a send WQE can carry: rxe's largest WQE holds kMaxSge SGEs of 16 bytes.
inline constexpr std::uint32_t kMaxInlineData = kMaxSge * 16;

// ibv_port_attr
inline constexpr std::uint32_t kPortMaxMsgSize = 0x800000;  ///< max_msg_sz (6.1; 2 GiB from 6.6)
inline constexpr std::uint32_t kPortGidTableLength = 1024;  ///< gid_tbl_len
inline constexpr std::uint16_t kPortPkeyTableLength = 64;   ///< pkey_tbl_len
inline constexpr std::uint8_t kPortMaxMtu = 5;              ///< max_mtu: IBV_MTU_4096

/// The bytes of an ib_sge (struct ib_sge / ibv_sge), the unit of rxe's send WQE sizing.
inline constexpr std::uint32_t kSgeBytes = 16;

/// rxe_queue_init: a queue asked for n elements gets 2^k slots with one kept empty, and
/// reports 2^k - 1 (ibv_create_cq's cqe, ibv_create_qp's cap.max_send_wr, ...).
constexpr std::uint32_t queueCapacity(std::uint32_t n) {
  std::uint32_t slots = 1;
  while (slots < n + 1)
    slots <<= 1;
  return slots - 1;
}

}  // namespace rdmascope::sim::limits
