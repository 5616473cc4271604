#pragma once
/// @file verbs_types.h
/// Verbs-shaped value types (the verbs layer), shared by the simulator and both backends; the
/// layer depends on nothing else of the project. Numeric values equal
/// libibverbs' (ibv_wr_opcode, ibv_wc_status, ibv_wc_opcode, ibv_qp_state, ibv_qp_type,
/// ibv_access_flags, ibv_send_flags, ibv_qp_attr_mask, ibv_wc_flags), so a backend converts
/// by value, and printed completions compare line by line.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rdmascope::verbs {

using Gid = std::array<std::uint8_t, 16>;

enum class QpType : std::uint8_t { RC = 2, UC = 3, UD = 4 };

enum class QpState : std::uint8_t { Reset = 0, Init, Rtr, Rts, Sqd, Sqe, Err };

enum class WrOpcode : std::uint8_t {
  RdmaWrite = 0,
  RdmaWriteWithImm = 1,
  Send = 2,
  SendWithImm = 3,
  RdmaRead = 4,
  AtomicCmpAndSwp = 5,
  AtomicFetchAndAdd = 6,
  LocalInv = 7,
  BindMw = 8,
  SendWithInv = 9,
};

enum class WcStatus : std::uint8_t {
  Success = 0,
  LocLenErr,
  LocQpOpErr,
  LocEecOpErr,
  LocProtErr,
  WrFlushErr,
  MwBindErr,
  BadRespErr,
  LocAccessErr,
  RemInvReqErr,
  RemAccessErr,
  RemOpErr,
  RetryExcErr,
  RnrRetryExcErr,
  LocRddViolErr,
  RemInvRdReqErr,
  RemAbortErr,
  InvEecnErr,
  InvEecStateErr,
  FatalErr,
  RespTimeoutErr,
  GeneralErr,
};

enum class WcOpcode : std::uint8_t {
  Send = 0,
  RdmaWrite = 1,
  RdmaRead = 2,
  CompSwap = 3,
  FetchAdd = 4,
  BindMw = 5,
  LocalInv = 6,
  Recv = 128,
  RecvRdmaWithImm = 129,
};

enum class Mtu : std::uint8_t { Mtu256 = 1, Mtu512, Mtu1024, Mtu2048, Mtu4096 };

/// Bytes of an MTU enum value (256..4096).
constexpr std::uint32_t mtuBytes(Mtu m) {
  return 128u << static_cast<unsigned>(m);
}

namespace access {
inline constexpr unsigned kLocalWrite = 1;
inline constexpr unsigned kRemoteWrite = 2;
inline constexpr unsigned kRemoteRead = 4;
inline constexpr unsigned kRemoteAtomic = 8;
inline constexpr unsigned kMwBind = 16;
inline constexpr unsigned kZeroBased = 32;
inline constexpr unsigned kOnDemand = 64;  ///< IBV_ACCESS_ON_DEMAND (ODP)
}  // namespace access

namespace send_flags {
inline constexpr unsigned kFence = 1;
inline constexpr unsigned kSignaled = 2;
inline constexpr unsigned kSolicited = 4;
inline constexpr unsigned kInline = 8;
}  // namespace send_flags

namespace wc_flags {
inline constexpr unsigned kGrh = 1;
inline constexpr unsigned kWithImm = 2;
inline constexpr unsigned kWithInv = 8;
}  // namespace wc_flags

namespace attr_mask {
inline constexpr unsigned kState = 1u << 0;
inline constexpr unsigned kCurState = 1u << 1;
inline constexpr unsigned kEnSqdAsyncNotify = 1u << 2;
inline constexpr unsigned kAccessFlags = 1u << 3;
inline constexpr unsigned kPkeyIndex = 1u << 4;
inline constexpr unsigned kPort = 1u << 5;
inline constexpr unsigned kQkey = 1u << 6;
inline constexpr unsigned kAv = 1u << 7;
inline constexpr unsigned kPathMtu = 1u << 8;
inline constexpr unsigned kTimeout = 1u << 9;
inline constexpr unsigned kRetryCnt = 1u << 10;
inline constexpr unsigned kRnrRetry = 1u << 11;
inline constexpr unsigned kRqPsn = 1u << 12;
inline constexpr unsigned kMaxQpRdAtomic = 1u << 13;
inline constexpr unsigned kAltPath = 1u << 14;
inline constexpr unsigned kMinRnrTimer = 1u << 15;
inline constexpr unsigned kSqPsn = 1u << 16;
inline constexpr unsigned kMaxDestRdAtomic = 1u << 17;
inline constexpr unsigned kPathMigState = 1u << 18;
inline constexpr unsigned kCap = 1u << 19;
inline constexpr unsigned kDestQpn = 1u << 20;
}  // namespace attr_mask

struct Sge {
  std::uint64_t addr = 0;
  std::uint32_t length = 0;
  std::uint32_t lkey = 0;
};

/// Address vector (ibv_ah_attr with its GRH).
struct AhAttr {
  Gid dgid{};
  std::uint32_t flowLabel = 0;
  std::uint8_t sgidIndex = 0;
  std::uint8_t hopLimit = 64;
  std::uint8_t trafficClass = 0;
  bool isGlobal = true;
  std::uint16_t dlid = 0;
  std::uint8_t sl = 0;
  std::uint8_t portNum = 1;
};

struct SendWr {
  std::uint64_t wrId = 0;
  WrOpcode opcode = WrOpcode::Send;
  unsigned sendFlags = 0;
  std::vector<Sge> sgList;
  std::uint32_t immData = 0;         ///< host order; the wire carries it big-endian
  std::uint32_t invalidateRkey = 0;  ///< SEND_WITH_INV
  std::uint64_t remoteAddr = 0;      ///< RDMA and atomic
  std::uint32_t rkey = 0;
  std::uint64_t compareAdd = 0;  ///< atomic: compare (CAS) or add (FAA)
  std::uint64_t swap = 0;        ///< atomic CAS
  // UD
  AhAttr ah;
  std::uint32_t remoteQpn = 0;
  std::uint32_t remoteQkey = 0;
};

struct RecvWr {
  std::uint64_t wrId = 0;
  std::vector<Sge> sgList;
};

/// A work completion with the fields of ibv_wc.
struct WorkCompletion {
  std::uint64_t wrId = 0;
  WcStatus status = WcStatus::Success;
  WcOpcode opcode = WcOpcode::Send;
  std::uint32_t vendorErr = 0;
  std::uint32_t byteLen = 0;
  std::uint32_t immData = 0;  ///< host order
  std::uint32_t invalidatedRkey = 0;
  std::uint32_t qpNum = 0;
  std::uint32_t srcQp = 0;
  unsigned wcFlags = 0;
  std::uint16_t pkeyIndex = 0;
  std::uint16_t slid = 0;
  std::uint8_t sl = 0;
  /// The device's completion timestamp in ns (Unix time; 0: none), as an extended CQ created
  /// with IBV_WC_EX_WITH_COMPLETION_TIMESTAMP reads it.
  std::uint64_t timestampNs = 0;
};

struct QpCap {
  std::uint32_t maxSendWr = 64;
  std::uint32_t maxRecvWr = 64;
  std::uint32_t maxSendSge = 4;
  std::uint32_t maxRecvSge = 4;
  std::uint32_t maxInlineData = 64;
};

/// ibv_qp_attr: which members count is said by the attribute mask.
struct QpAttr {
  QpState qpState = QpState::Reset;
  QpState curQpState = QpState::Reset;
  Mtu pathMtu = Mtu::Mtu1024;
  std::uint32_t qkey = 0;
  std::uint32_t rqPsn = 0;
  std::uint32_t sqPsn = 0;
  std::uint32_t destQpNum = 0;
  unsigned qpAccessFlags = 0;
  QpCap cap;
  AhAttr ahAttr;
  std::uint16_t pkeyIndex = 0;
  std::uint8_t maxRdAtomic = 1;
  std::uint8_t maxDestRdAtomic = 1;
  std::uint8_t minRnrTimer = 0;  ///< IBTA encoded (0..31)
  std::uint8_t portNum = 1;
  std::uint8_t timeout = 14;  ///< 4.096 us x 2^timeout
  std::uint8_t retryCnt = 7;
  std::uint8_t rnrRetry = 7;  ///< 7 means infinite
};

/// ibv_qp_init_attr: CQs (and the SRQ) are named by their numbers on the same host.
struct QpInitAttr {
  QpType qpType = QpType::RC;
  std::uint32_t sendCq = 0;
  std::uint32_t recvCq = 0;
  QpCap cap;
  bool sqSigAll = false;
  /// The shared receive queue the QP takes its receive WQEs from; 0: its own receive queue
  /// (cap.maxRecvWr and cap.maxRecvSge are then ignored, as ib_core does).
  std::uint32_t srq = 0;
};

/// ibv_srq_attr.
struct SrqAttr {
  std::uint32_t maxWr = 0;
  std::uint32_t maxSge = 0;
  std::uint32_t srqLimit = 0;  ///< 0: the limit event is not armed
};

/// ibv_srq_attr_mask.
namespace srq_attr_mask {
inline constexpr unsigned kMaxWr = 1u << 0;  ///< IBV_SRQ_MAX_WR (resize)
inline constexpr unsigned kLimit = 1u << 1;  ///< IBV_SRQ_LIMIT (arm the limit event)
}  // namespace srq_attr_mask

/// libibverbs' enum ibv_event_type (the values the simulated device raises).
enum class AsyncEventType : std::uint8_t {
  CqErr = 0,             ///< IBV_EVENT_CQ_ERR: a CQ overflowed
  QpFatal = 1,           ///< IBV_EVENT_QP_FATAL
  QpReqErr = 2,          ///< IBV_EVENT_QP_REQ_ERR
  QpAccessErr = 3,       ///< IBV_EVENT_QP_ACCESS_ERR
  CommEst = 4,           ///< IBV_EVENT_COMM_EST
  SqDrained = 5,         ///< IBV_EVENT_SQ_DRAINED
  PortActive = 9,        ///< IBV_EVENT_PORT_ACTIVE
  PortErr = 10,          ///< IBV_EVENT_PORT_ERR
  SrqErr = 14,           ///< IBV_EVENT_SRQ_ERR
  SrqLimitReached = 15,  ///< IBV_EVENT_SRQ_LIMIT_REACHED
  QpLastWqeReached = 16  ///< IBV_EVENT_QP_LAST_WQE_REACHED
};

/// An asynchronous event as ibv_get_async_event returns it: the object it names is the QP,
/// CQ or SRQ by its number on the host (the others are 0).
struct AsyncEvent {
  AsyncEventType type = AsyncEventType::QpFatal;
  std::uint32_t qpn = 0;
  std::uint32_t cq = 0;
  std::uint32_t srq = 0;
};

/// Text of a completion status, as ibv_wc_status_str prints it.
std::string_view toString(WcStatus status);
/// Names as libibverbs' enum_strs (e.g. "RTS", "IBV_WC_RDMA_READ" without prefix: "RDMA_READ").
std::string_view toString(QpState state);
std::string_view toString(WcOpcode opcode);
std::string_view toString(WrOpcode opcode);
std::string_view toString(QpType type);
/// Names of ibv_qp_attr_mask bits as libibverbs spells them ("IBV_QP_DEST_QPN"), joined with
/// ", " for every bit set in `mask`.
std::string attrMaskNames(unsigned mask);

}  // namespace rdmascope::verbs
