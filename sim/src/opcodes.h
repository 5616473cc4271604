#pragma once
// Transport opcodes and the header set each carries (IBTA 9.2/9.3, as rxe_opcode.c tables them).

#include <cstdint>
#include <string_view>

namespace rdmascope::sim {

namespace op {
inline constexpr std::uint8_t kRcSendFirst = 0x00, kRcSendMiddle = 0x01, kRcSendLast = 0x02,
                              kRcSendLastImm = 0x03, kRcSendOnly = 0x04, kRcSendOnlyImm = 0x05,
                              kRcWriteFirst = 0x06, kRcWriteMiddle = 0x07, kRcWriteLast = 0x08,
                              kRcWriteLastImm = 0x09, kRcWriteOnly = 0x0a, kRcWriteOnlyImm = 0x0b,
                              kRcReadRequest = 0x0c, kRcReadResponseFirst = 0x0d,
                              kRcReadResponseMiddle = 0x0e, kRcReadResponseLast = 0x0f,
                              kRcReadResponseOnly = 0x10, kRcAck = 0x11, kRcAtomicAck = 0x12,
                              kRcCompareSwap = 0x13, kRcFetchAdd = 0x14, kRcSendLastInv = 0x16,
                              kRcSendOnlyInv = 0x17;
inline constexpr std::uint8_t kUc = 0x20;  ///< UC opcode = kUc | RC opcode (0x00..0x0b)
inline constexpr std::uint8_t kUdSendOnly = 0x64, kUdSendOnlyImm = 0x65;
}  // namespace op

enum Mask : std::uint32_t {
  kLrh = 1u << 0,
  kGrh = 1u << 1,
  kBth = 1u << 2,
  kImmdt = 1u << 3,
  kReth = 1u << 4,
  kAeth = 1u << 5,
  kAtmeth = 1u << 6,
  kAtmack = 1u << 7,
  kIeth = 1u << 8,
  kDeth = 1u << 9,
  kPayload = 1u << 10,
  kReq = 1u << 11,
  kAck = 1u << 12,
  kSend = 1u << 13,
  kWrite = 1u << 14,
  kRead = 1u << 15,
  kAtomic = 1u << 16,
  kRwr = 1u << 17,   ///< consumes a receive WQE
  kComp = 1u << 18,  ///< completes a receive WQE
  kStart = 1u << 19,
  kMiddle = 1u << 20,
  kEnd = 1u << 21,
};

struct OpcodeInfo {
  std::string_view name;    ///< e.g. "RC SEND FIRST"
  std::uint32_t mask = 0;   ///< 0: not a valid opcode here
  std::uint8_t length = 0;  ///< bytes of BTH and extension headers
};

/// Info of an opcode (mask 0 when the simulator does not know it).
const OpcodeInfo& opcodeInfo(std::uint8_t opcode);

inline constexpr std::uint32_t kBthBytes = 12, kRethBytes = 16, kAethBytes = 4, kAtmethBytes = 28,
                               kAtmackBytes = 8, kImmdtBytes = 4, kIethBytes = 4, kDethBytes = 8;

}  // namespace rdmascope::sim
