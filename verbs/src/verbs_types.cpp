#include "rdmascope/verbs/verbs_types.h"

#include <array>

namespace rdmascope::verbs {

std::string_view toString(WcStatus status) {
  // Same wording as libibverbs' ibv_wc_status_str.
  static constexpr std::array<std::string_view, 22> kNames = {"success",
                                                              "local length error",
                                                              "local QP operation error",
                                                              "local EE context operation error",
                                                              "local protection error",
                                                              "Work Request Flushed Error",
                                                              "memory management operation error",
                                                              "bad response error",
                                                              "local access error",
                                                              "remote invalid request error",
                                                              "remote access error",
                                                              "remote operation error",
                                                              "transport retry counter exceeded",
                                                              "RNR retry counter exceeded",
                                                              "local RDD violation error",
                                                              "remote invalid RD request",
                                                              "aborted error",
                                                              "invalid EE context number",
                                                              "invalid EE context state",
                                                              "fatal error",
                                                              "response timeout error",
                                                              "general error"};
  const auto i = static_cast<std::size_t>(status);
  return i < kNames.size() ? kNames[i] : "unknown";
}

std::string_view toString(QpState state) {
  static constexpr std::array<std::string_view, 7> kNames = {"RESET", "INIT", "RTR", "RTS",
                                                             "SQD",   "SQE",  "ERR"};
  const auto i = static_cast<std::size_t>(state);
  return i < kNames.size() ? kNames[i] : "unknown";
}

std::string_view toString(WcOpcode opcode) {
  switch (opcode) {
    case WcOpcode::Send:
      return "SEND";
    case WcOpcode::RdmaWrite:
      return "RDMA_WRITE";
    case WcOpcode::RdmaRead:
      return "RDMA_READ";
    case WcOpcode::CompSwap:
      return "COMP_SWAP";
    case WcOpcode::FetchAdd:
      return "FETCH_ADD";
    case WcOpcode::BindMw:
      return "BIND_MW";
    case WcOpcode::LocalInv:
      return "LOCAL_INV";
    case WcOpcode::Recv:
      return "RECV";
    case WcOpcode::RecvRdmaWithImm:
      return "RECV_RDMA_WITH_IMM";
  }
  return "unknown";
}

std::string_view toString(WrOpcode opcode) {
  static constexpr std::array<std::string_view, 10> kNames = {
      "RDMA_WRITE",         "RDMA_WRITE_WITH_IMM",  "SEND",      "SEND_WITH_IMM", "RDMA_READ",
      "ATOMIC_CMP_AND_SWP", "ATOMIC_FETCH_AND_ADD", "LOCAL_INV", "BIND_MW",       "SEND_WITH_INV"};
  const auto i = static_cast<std::size_t>(opcode);
  return i < kNames.size() ? kNames[i] : "unknown";
}

std::string_view toString(QpType type) {
  switch (type) {
    case QpType::RC:
      return "RC";
    case QpType::UC:
      return "UC";
    case QpType::UD:
      return "UD";
  }
  return "unknown";
}

}  // namespace rdmascope::verbs

namespace rdmascope::verbs {

std::string attrMaskNames(unsigned mask) {
  static constexpr std::array<std::string_view, 21> kNames = {"IBV_QP_STATE",
                                                              "IBV_QP_CUR_STATE",
                                                              "IBV_QP_EN_SQD_ASYNC_NOTIFY",
                                                              "IBV_QP_ACCESS_FLAGS",
                                                              "IBV_QP_PKEY_INDEX",
                                                              "IBV_QP_PORT",
                                                              "IBV_QP_QKEY",
                                                              "IBV_QP_AV",
                                                              "IBV_QP_PATH_MTU",
                                                              "IBV_QP_TIMEOUT",
                                                              "IBV_QP_RETRY_CNT",
                                                              "IBV_QP_RNR_RETRY",
                                                              "IBV_QP_RQ_PSN",
                                                              "IBV_QP_MAX_QP_RD_ATOMIC",
                                                              "IBV_QP_ALT_PATH",
                                                              "IBV_QP_MIN_RNR_TIMER",
                                                              "IBV_QP_SQ_PSN",
                                                              "IBV_QP_MAX_DEST_RD_ATOMIC",
                                                              "IBV_QP_PATH_MIG_STATE",
                                                              "IBV_QP_CAP",
                                                              "IBV_QP_DEST_QPN"};
  std::string out;
  for (unsigned i = 0; i < 32; ++i) {
    if (!(mask & (1u << i))) continue;
    if (!out.empty()) out += ", ";
    if (i < kNames.size()) {
      out += kNames[i];
    } else {
      out += "bit " + std::to_string(i);
    }
  }
  return out;
}

}  // namespace rdmascope::verbs
