#include "rdmascope/verbs_backend/qp_connect.h"

#include <cerrno>

namespace rdmascope::verbs_backend {

namespace m = verbs::attr_mask;

Status modifyQpToInit(Backend& backend, Handle qp, verbs::QpType type, std::uint8_t port,
                      unsigned access, std::uint32_t qkey) {
  QpAttr attr;
  attr.qpState = QpState::Init;
  attr.pkeyIndex = 0;
  attr.portNum = port;
  unsigned mask = m::kState | m::kPkeyIndex | m::kPort;
  if (type == QpType::UD) {
    attr.qkey = qkey;
    mask |= m::kQkey;
  } else {
    attr.qpAccessFlags = access;
    mask |= m::kAccessFlags;
  }
  return backend.modifyQp(qp, attr, mask);
}

Status connectQp(Backend& backend, Handle qp, verbs::QpType type, const PeerInfo& local,
                 const PeerInfo& peer, const PathOptions& path) {
  if (type != QpType::RC && type != QpType::UC)
    return Status::error(EINVAL, "connectQp is for RC and UC QPs; a UD QP takes activateUdQp");
  const bool rc = type == QpType::RC;
  QpAttr attr;
  attr.qpState = QpState::Rtr;
  attr.pathMtu = path.pathMtu;
  attr.destQpNum = peer.qpn;
  attr.rqPsn = peer.psn;
  attr.maxDestRdAtomic = path.maxDestRdAtomic;
  attr.minRnrTimer = path.minRnrTimer;
  attr.ahAttr.isGlobal = true;
  attr.ahAttr.dgid = peer.gid;
  attr.ahAttr.sgidIndex = path.sgidIndex;
  attr.ahAttr.hopLimit = path.hopLimit;
  attr.ahAttr.trafficClass = path.trafficClass;
  attr.ahAttr.dlid = peer.lid;
  attr.ahAttr.portNum = path.port;
  unsigned mask = m::kState | m::kAv | m::kPathMtu | m::kDestQpn | m::kRqPsn;
  if (rc) mask |= m::kMaxDestRdAtomic | m::kMinRnrTimer;
  if (Status s = backend.modifyQp(qp, attr, mask); !s.ok()) return s;

  attr.qpState = QpState::Rts;
  attr.sqPsn = local.psn;
  attr.timeout = path.timeout;
  attr.retryCnt = path.retryCnt;
  attr.rnrRetry = path.rnrRetry;
  attr.maxRdAtomic = path.maxRdAtomic;
  mask = m::kState | m::kSqPsn;
  if (rc) mask |= m::kTimeout | m::kRetryCnt | m::kRnrRetry | m::kMaxQpRdAtomic;
  return backend.modifyQp(qp, attr, mask);
}

Status activateUdQp(Backend& backend, Handle qp, std::uint32_t sqPsn) {
  QpAttr attr;
  attr.qpState = QpState::Rtr;
  if (Status s = backend.modifyQp(qp, attr, m::kState); !s.ok()) return s;
  attr.qpState = QpState::Rts;
  attr.sqPsn = sqPsn;
  return backend.modifyQp(qp, attr, m::kState | m::kSqPsn);
}

}  // namespace rdmascope::verbs_backend
