#pragma once
// What rxe's requester, completer and responder share: PSN arithmetic, the AETH syndromes,
// the RNR timer table and the kinds of work request.

#include <cstdint>

#include "opcodes.h"
#include "rdmascope/sim/verbs_types.h"

namespace rdmascope::sim {

constexpr std::uint32_t kPsnMask = 0xffffff;
constexpr int kMaxPktPerAck = 64;               // RXE_MAX_PKT_PER_ACK
constexpr std::uint32_t kMaxUnackedPsns = 128;  // RXE_MAX_UNACKED_PSNS
constexpr std::size_t kInflightHigh = 64;       // RXE_INFLIGHT_SKBS_PER_QP_HIGH
constexpr std::size_t kInflightLow = 16;        // RXE_INFLIGHT_SKBS_PER_QP_LOW

constexpr std::uint8_t kAethAck = 0x00, kAethRnrNak = 0x20, kAethNak = 0x60;
constexpr std::uint8_t kAethTypeMask = 0xe0;
constexpr std::uint8_t kAethAckUnlimited = 0x1f;
constexpr std::uint8_t kNakPsnSeqError = 0x60, kNakInvalidRequest = 0x61, kNakRemoteAccess = 0x62,
                       kNakRemoteOp = 0x63;

/// psn_compare: signed distance in 24-bit PSN space.
inline int psnCompare(std::uint32_t a, std::uint32_t b) {
  const std::int32_t d = static_cast<std::int32_t>((a - b) << 8);
  return d;
}

// Microseconds of each encoded RNR timer value (IBTA table 45, as rxe_comp.c's rnrnak_usec).
inline constexpr std::uint32_t kRnrUsec[32] = {
    655360, 10,    20,    30,    40,    60,     80,     120,    160,    240,   320,
    480,    640,   960,   1280,  1920,  2560,   3840,   5120,   7680,   10240, 15360,
    20480,  30720, 40960, 61440, 81920, 122880, 163840, 245760, 327680, 491520};

// Kinds of work request (rxe's wr_opcode_mask).
constexpr std::uint32_t kWrSend = 1, kWrWrite = 2, kWrRead = 4, kWrAtomic = 8;

inline std::uint32_t wrMask(WrOpcode op, QpType t) {
  switch (op) {
    case WrOpcode::Send:
    case WrOpcode::SendWithImm:
      return kWrSend;
    case WrOpcode::SendWithInv:
      return t == QpType::RC ? kWrSend : 0;
    case WrOpcode::RdmaWrite:
    case WrOpcode::RdmaWriteWithImm:
      return t == QpType::UD ? 0 : kWrWrite;
    case WrOpcode::RdmaRead:
      return t == QpType::RC ? kWrRead : 0;
    case WrOpcode::AtomicCmpAndSwp:
    case WrOpcode::AtomicFetchAndAdd:
      return t == QpType::RC ? kWrAtomic : 0;
    default:
      return 0;
  }
}

inline WcOpcode wcOpcodeOf(WrOpcode op) {
  switch (op) {
    case WrOpcode::RdmaWrite:
    case WrOpcode::RdmaWriteWithImm:
      return WcOpcode::RdmaWrite;
    case WrOpcode::RdmaRead:
      return WcOpcode::RdmaRead;
    case WrOpcode::AtomicCmpAndSwp:
      return WcOpcode::CompSwap;
    case WrOpcode::AtomicFetchAndAdd:
      return WcOpcode::FetchAdd;
    default:
      return WcOpcode::Send;
  }
}

}  // namespace rdmascope::sim
