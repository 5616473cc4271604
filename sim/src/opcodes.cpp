#include "opcodes.h"

#include <array>

namespace rdmascope::sim {
namespace {

constexpr std::uint8_t headerBytes(std::uint32_t m) {
  std::uint32_t n = kBthBytes;
  if (m & kReth) n += kRethBytes;
  if (m & kAeth) n += kAethBytes;
  if (m & kAtmeth) n += kAtmethBytes;
  if (m & kAtmack) n += kAtmackBytes;
  if (m & kImmdt) n += kImmdtBytes;
  if (m & kIeth) n += kIethBytes;
  if (m & kDeth) n += kDethBytes;
  return static_cast<std::uint8_t>(n);
}

constexpr OpcodeInfo info(std::string_view name, std::uint32_t m) {
  return OpcodeInfo{name, m | kBth, headerBytes(m)};
}

constexpr std::array<OpcodeInfo, 256> buildTable() {
  std::array<OpcodeInfo, 256> t{};
  constexpr std::uint32_t kSendReq = kReq | kSend | kPayload;
  constexpr std::uint32_t kWriteReq = kReq | kWrite | kPayload;
  for (int uc = 0; uc < 2; ++uc) {
    const std::uint8_t b = uc ? op::kUc : 0;
    const bool isUc = uc != 0;
    t[b | op::kRcSendFirst] =
        info(isUc ? "UC SEND FIRST" : "RC SEND FIRST", kSendReq | kRwr | kStart);
    t[b | op::kRcSendMiddle] = info(isUc ? "UC SEND MIDDLE" : "RC SEND MIDDLE", kSendReq | kMiddle);
    t[b | op::kRcSendLast] = info(isUc ? "UC SEND LAST" : "RC SEND LAST", kSendReq | kComp | kEnd);
    t[b | op::kRcSendLastImm] =
        info(isUc ? "UC SEND LAST WITH IMMEDIATE" : "RC SEND LAST WITH IMMEDIATE",
             kSendReq | kImmdt | kComp | kEnd);
    t[b | op::kRcSendOnly] =
        info(isUc ? "UC SEND ONLY" : "RC SEND ONLY", kSendReq | kRwr | kComp | kStart | kEnd);
    t[b | op::kRcSendOnlyImm] =
        info(isUc ? "UC SEND ONLY WITH IMMEDIATE" : "RC SEND ONLY WITH IMMEDIATE",
             kSendReq | kRwr | kImmdt | kComp | kStart | kEnd);
    t[b | op::kRcWriteFirst] =
        info(isUc ? "UC RDMA WRITE FIRST" : "RC RDMA WRITE FIRST", kWriteReq | kReth | kStart);
    t[b | op::kRcWriteMiddle] =
        info(isUc ? "UC RDMA WRITE MIDDLE" : "RC RDMA WRITE MIDDLE", kWriteReq | kMiddle);
    t[b | op::kRcWriteLast] =
        info(isUc ? "UC RDMA WRITE LAST" : "RC RDMA WRITE LAST", kWriteReq | kEnd);
    t[b | op::kRcWriteLastImm] =
        info(isUc ? "UC RDMA WRITE LAST WITH IMMEDIATE" : "RC RDMA WRITE LAST WITH IMMEDIATE",
             kWriteReq | kImmdt | kRwr | kComp | kEnd);
    t[b | op::kRcWriteOnly] =
        info(isUc ? "UC RDMA WRITE ONLY" : "RC RDMA WRITE ONLY", kWriteReq | kReth | kStart | kEnd);
    t[b | op::kRcWriteOnlyImm] =
        info(isUc ? "UC RDMA WRITE ONLY WITH IMMEDIATE" : "RC RDMA WRITE ONLY WITH IMMEDIATE",
             kWriteReq | kReth | kImmdt | kRwr | kComp | kStart | kEnd);
  }
  t[op::kRcReadRequest] = info("RC RDMA READ REQUEST", kReq | kRead | kReth | kStart | kEnd);
  t[op::kRcReadResponseFirst] =
      info("RC RDMA READ RESPONSE FIRST", kAck | kAeth | kPayload | kRead | kStart);
  t[op::kRcReadResponseMiddle] =
      info("RC RDMA READ RESPONSE MIDDLE", kAck | kPayload | kRead | kMiddle);
  t[op::kRcReadResponseLast] =
      info("RC RDMA READ RESPONSE LAST", kAck | kAeth | kPayload | kRead | kEnd);
  t[op::kRcReadResponseOnly] =
      info("RC RDMA READ RESPONSE ONLY", kAck | kAeth | kPayload | kRead | kStart | kEnd);
  t[op::kRcAck] = info("RC ACKNOWLEDGE", kAck | kAeth | kStart | kEnd);
  t[op::kRcAtomicAck] =
      info("RC ATOMIC ACKNOWLEDGE", kAck | kAeth | kAtmack | kAtomic | kStart | kEnd);
  t[op::kRcCompareSwap] = info("RC COMPARE SWAP", kReq | kAtomic | kAtmeth | kStart | kEnd);
  t[op::kRcFetchAdd] = info("RC FETCH ADD", kReq | kAtomic | kAtmeth | kStart | kEnd);
  t[op::kRcSendLastInv] =
      info("RC SEND LAST WITH INVALIDATE", kReq | kSend | kPayload | kIeth | kComp | kEnd);
  t[op::kRcSendOnlyInv] = info("RC SEND ONLY WITH INVALIDATE",
                               kReq | kSend | kPayload | kRwr | kIeth | kComp | kStart | kEnd);
  t[op::kUdSendOnly] =
      info("UD SEND ONLY", kReq | kSend | kPayload | kRwr | kDeth | kComp | kStart | kEnd);
  t[op::kUdSendOnlyImm] =
      info("UD SEND ONLY WITH IMMEDIATE",
           kReq | kSend | kPayload | kRwr | kDeth | kImmdt | kComp | kStart | kEnd);
  return t;
}

constexpr std::array<OpcodeInfo, 256> kTable = buildTable();

}  // namespace

const OpcodeInfo& opcodeInfo(std::uint8_t opcode) {
  return kTable[opcode];
}

}  // namespace rdmascope::sim
