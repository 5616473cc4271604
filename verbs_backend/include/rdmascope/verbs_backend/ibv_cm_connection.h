#pragma once
/// @file ibv_cm_connection.h
/// Connection management by librdmacm (rdma_cm), as an alternative to the out-of-band TCP
/// exchange: the active side resolves the peer's IP address and route (which picks the local
/// RDMA device), the CM exchanges REQ/REP/RTU over QP 1 (carrying each side's QPN and starting
/// PSN, and a little private data), and DREQ/DREP at the end. The QP stays the caller's: it is
/// created on the CM's device through an IbvBackend, and the caller moves it through INIT, RTR
/// and RTS with the attributes rdma_init_qp_attr returns. Built with librdmacm
/// (RDMASCOPE_HAVE_RDMACM); this header does not include rdma/rdma_cma.h or infiniband/verbs.h.

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "rdmascope/verbs_backend/backend.h"
#include "rdmascope/verbs_backend/oob_exchange.h"

namespace rdmascope::verbs_backend {

/// Largest private data of a REQ (rdma_connect) in RDMA_PS_TCP: the CM REQ's 92 bytes less
/// the 36 the rdma_cm uses for its own header (rdma_connect(3)).
inline constexpr std::size_t kCmReqPrivateDataMax = 56;
/// Largest private data of a REP (rdma_accept) in RDMA_PS_TCP (rdma_accept(3)).
inline constexpr std::size_t kCmRepPrivateDataMax = 196;

/// Encodes the regions one side publishes (addr, rkey, length of each PeerInfo, in order; the
/// QPN, PSN and GID travel in the CM messages themselves) as CM private data: "RSC1", a count,
/// then 20 bytes per region, big-endian. More than `limit` bytes is an EMSGSIZE error that
/// says how many regions fit.
Result<std::vector<std::uint8_t>> encodeCmPrivateData(std::span<const PeerInfo> published,
                                                      std::size_t limit, const std::string& what);
/// Decodes encodeCmPrivateData's bytes; trailing bytes are ignored (the CM pads private data
/// to its full size). Anything else is an EPROTO error naming what was wrong.
Result<std::vector<PeerInfo>> decodeCmPrivateData(std::span<const std::uint8_t> bytes);

/// The name of an IBTA CM REJ reason (e.g. 28 "consumer reject", 8 "invalid service ID").
std::string cmRejectReasonName(int reason);

/// Whether the rdma_cm can be used here: /dev/infiniband/rdma_cm must exist (the rdma_ucm
/// kernel module makes it). The error says which module is missing.
Status cmAvailable();

class IbvBackend;
struct IbvOptions;

/// QP attributes from rdma_init_qp_attr, in the backend's types.
struct CmQpAttributes {
  QpAttr attr;
  unsigned mask = 0;
};

/// One rdma_cm connection (an event channel and a cm_id, and for the passive side the
/// listening cm_id). Destroying it destroys the cm_ids and the channel; an IbvBackend opened
/// on it must be destroyed first (it uses the cm_id's device context).
class CmConnection {
 public:
  ~CmConnection();
  CmConnection(const CmConnection&) = delete;
  CmConnection& operator=(const CmConnection&) = delete;

  /// Passive side: binds RDMA_PS_TCP port `port` on all addresses and listens.
  static Result<std::unique_ptr<CmConnection>> listen(std::uint16_t port);
  /// Waits for the peer's REQ (RDMA_CM_EVENT_CONNECT_REQUEST) and returns its private data.
  /// Afterwards the connection has a device (deviceName, openBackend).
  Result<std::vector<std::uint8_t>> waitRequest(std::chrono::milliseconds timeout);
  /// Passive side: sends the REP (rdma_accept) for QP `qpNum` with `privateData`.
  Status accept(std::uint32_t qpNum, std::span<const std::uint8_t> privateData,
                std::uint8_t responderResources, std::uint8_t initiatorDepth,
                std::uint8_t rnrRetry);
  /// Passive side: refuses the REQ (a REJ with reason 28, consumer reject) with a text.
  Status reject(const std::string& why);
  /// Passive side: waits for the RTU (RDMA_CM_EVENT_ESTABLISHED).
  Status waitEstablished(std::chrono::milliseconds timeout);

  /// Active side: resolves `host` (a name or IPv4/IPv6 address) and the route to it on RDMA_PS_TCP
  /// port `port`. Errors: unknown host, address unresolvable, no route, timeout.
  static Result<std::unique_ptr<CmConnection>> resolve(const std::string& host, std::uint16_t port,
                                                       std::chrono::milliseconds timeout);
  /// Active side: sends the REQ (rdma_connect) for QP `qpNum` with `privateData`.
  Status connect(std::uint32_t qpNum, std::span<const std::uint8_t> privateData,
                 std::uint8_t responderResources, std::uint8_t initiatorDepth,
                 std::uint8_t retryCount, std::uint8_t rnrRetry);
  /// Active side: waits for the REP (RDMA_CM_EVENT_CONNECT_RESPONSE) and returns its private
  /// data. A REJ is an ECONNREFUSED error with the reject reason; no answer is ETIMEDOUT.
  Result<std::vector<std::uint8_t>> waitResponse(std::chrono::milliseconds timeout);
  /// Active side: sends the RTU (rdma_establish) once the QP is in RTS.
  Status establish();

  /// What rdma_init_qp_attr gives for moving the QP to `state` (INIT, RTR or RTS).
  Result<CmQpAttributes> qpAttributes(QpState state);

  /// The initiator sends the DREQ and waits for the DREP; the other side waits for the DREQ
  /// and answers it with the DREP (rdma_disconnect on both, as rdma_disconnect(3) asks).
  Status disconnect(bool initiate, std::chrono::milliseconds timeout);

  /// The error a CM event that arrived within `wait` reports (a REJ, no answer, a disconnect),
  /// else success. For when the other channel to the peer failed first: the CM may say why.
  Status pendingError(std::chrono::milliseconds wait);

  /// The RDMA device the address or the request arrived on (empty before that).
  std::string deviceName() const;
  std::uint8_t portNum() const;
  /// This side's and the peer's IP address and port ("10.9.0.1:18515") once resolved or
  /// requested (empty before).
  std::string localAddress() const;
  std::string peerAddress() const;
  /// An IbvBackend on the cm_id's device context (which the rdma_cm owns and keeps open).
  Result<std::unique_ptr<IbvBackend>> openBackend(const IbvOptions& options);

 private:
  struct Impl;
  explicit CmConnection(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace rdmascope::verbs_backend
