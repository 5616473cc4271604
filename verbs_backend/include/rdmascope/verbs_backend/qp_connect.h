#pragma once
/// @file qp_connect.h
/// The QP state transitions every verbs program makes, as rdma-core's pingpong examples make
/// them: RESET -> INIT -> RTR -> RTS with the attribute masks each transport requires. They
/// work on any Backend (IbvBackend or SimBackend).

#include <cstdint>

#include "rdmascope/verbs_backend/backend.h"
#include "rdmascope/verbs_backend/oob_exchange.h"

namespace rdmascope::verbs_backend {

/// Path and retry attributes of a connected (RC or UC) QP.
struct PathOptions {
  verbs::Mtu pathMtu = verbs::Mtu::Mtu1024;
  std::uint8_t port = 1;
  std::uint8_t sgidIndex = 1;
  std::uint8_t hopLimit = 64;
  std::uint8_t trafficClass = 0;
  std::uint8_t timeout = 14;  ///< RC: 4.096 us x 2^timeout before a retransmission
  std::uint8_t retryCnt = 7;
  std::uint8_t rnrRetry = 7;  ///< 7: retry forever
  std::uint8_t minRnrTimer = 12;
  std::uint8_t maxRdAtomic = 1;      ///< RC: outstanding READ/atomic requests as requester
  std::uint8_t maxDestRdAtomic = 1;  ///< RC: as responder
};

/// RESET -> INIT. RC and UC get `access` (remote access flags); UD gets `qkey`.
Status modifyQpToInit(Backend& backend, Handle qp, verbs::QpType type, std::uint8_t port,
                      unsigned access, std::uint32_t qkey = 0);

/// INIT -> RTR -> RTS of an RC or UC QP towards `peer` (its QPN, PSN, GID and LID), sending
/// from `local.psn`.
Status connectQp(Backend& backend, Handle qp, verbs::QpType type, const PeerInfo& local,
                 const PeerInfo& peer, const PathOptions& path = {});

/// INIT -> RTR -> RTS of a UD QP, sending from `sqPsn`.
Status activateUdQp(Backend& backend, Handle qp, std::uint32_t sqPsn);

}  // namespace rdmascope::verbs_backend
