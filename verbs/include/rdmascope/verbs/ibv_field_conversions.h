#pragma once
/// @file ibv_field_conversions.h
/// Field-by-field conversions between the verbs value types and libibverbs' ibv_ah_attr,
/// ibv_qp_cap and ibv_qp_attr, shared by the real backend and the simulated device's
/// libibverbs. They are templates over the libibverbs struct, written against its field names,
/// so that this header does not include infiniband/verbs.h: only the files allowed to include
/// it (verbs_backend/src/ibv_*.cpp, simdev/ibverbs) instantiate them. Enums convert by value
/// (verbs_types.h carries libibverbs' numbers).

#include <cstring>

#include "rdmascope/verbs/verbs_types.h"

namespace rdmascope::verbs::ibv_fields {

/// ibv_ah_attr to AhAttr.
template <class IbvAhAttr>
AhAttr ahAttrFrom(const IbvAhAttr& a) {
  AhAttr r;
  std::memcpy(r.dgid.data(), a.grh.dgid.raw, r.dgid.size());
  r.flowLabel = a.grh.flow_label;
  r.sgidIndex = a.grh.sgid_index;
  r.hopLimit = a.grh.hop_limit;
  r.trafficClass = a.grh.traffic_class;
  r.isGlobal = a.is_global != 0;
  r.dlid = a.dlid;
  r.sl = a.sl;
  r.portNum = a.port_num;
  return r;
}

/// AhAttr as an ibv_ah_attr (the fields AhAttr lacks are zero).
template <class IbvAhAttr>
IbvAhAttr ahAttrTo(const AhAttr& a) {
  IbvAhAttr out{};
  std::memcpy(out.grh.dgid.raw, a.dgid.data(), a.dgid.size());
  out.grh.flow_label = a.flowLabel;
  out.grh.sgid_index = a.sgidIndex;
  out.grh.hop_limit = a.hopLimit;
  out.grh.traffic_class = a.trafficClass;
  out.is_global = a.isGlobal ? 1 : 0;
  out.dlid = a.dlid;
  out.sl = a.sl;
  out.port_num = a.portNum;
  return out;
}

/// ibv_qp_cap to QpCap.
template <class IbvQpCap>
QpCap qpCapFrom(const IbvQpCap& c) {
  QpCap r;
  r.maxSendWr = c.max_send_wr;
  r.maxRecvWr = c.max_recv_wr;
  r.maxSendSge = c.max_send_sge;
  r.maxRecvSge = c.max_recv_sge;
  r.maxInlineData = c.max_inline_data;
  return r;
}

/// QpCap as an ibv_qp_cap.
template <class IbvQpCap>
IbvQpCap qpCapTo(const QpCap& c) {
  IbvQpCap out{};
  out.max_send_wr = c.maxSendWr;
  out.max_recv_wr = c.maxRecvWr;
  out.max_send_sge = c.maxSendSge;
  out.max_recv_sge = c.maxRecvSge;
  out.max_inline_data = c.maxInlineData;
  return out;
}

/// ibv_qp_attr to QpAttr (the fields QpAttr has; alternate paths are not modelled).
template <class IbvQpAttr>
QpAttr qpAttrFrom(const IbvQpAttr& a) {
  QpAttr r;
  r.qpState = static_cast<QpState>(a.qp_state);
  r.curQpState = static_cast<QpState>(a.cur_qp_state);
  r.pathMtu = static_cast<Mtu>(a.path_mtu);
  r.qkey = a.qkey;
  r.rqPsn = a.rq_psn;
  r.sqPsn = a.sq_psn;
  r.destQpNum = a.dest_qp_num;
  r.qpAccessFlags = static_cast<unsigned>(a.qp_access_flags);
  r.cap = qpCapFrom(a.cap);
  r.ahAttr = ahAttrFrom(a.ah_attr);
  r.pkeyIndex = a.pkey_index;
  r.maxRdAtomic = a.max_rd_atomic;
  r.maxDestRdAtomic = a.max_dest_rd_atomic;
  r.minRnrTimer = a.min_rnr_timer;
  r.portNum = a.port_num;
  r.timeout = a.timeout;
  r.retryCnt = a.retry_cnt;
  r.rnrRetry = a.rnr_retry;
  return r;
}

/// QpAttr into an ibv_qp_attr (the fields QpAttr has; the others are left as they are).
template <class IbvQpAttr>
void qpAttrTo(const QpAttr& a, IbvQpAttr& out) {
  out.qp_state = static_cast<decltype(out.qp_state)>(a.qpState);
  out.cur_qp_state = static_cast<decltype(out.cur_qp_state)>(a.curQpState);
  out.path_mtu = static_cast<decltype(out.path_mtu)>(a.pathMtu);
  out.qkey = a.qkey;
  out.rq_psn = a.rqPsn;
  out.sq_psn = a.sqPsn;
  out.dest_qp_num = a.destQpNum;
  out.qp_access_flags = a.qpAccessFlags;
  out.cap = qpCapTo<decltype(out.cap)>(a.cap);
  out.ah_attr = ahAttrTo<decltype(out.ah_attr)>(a.ahAttr);
  out.pkey_index = a.pkeyIndex;
  out.max_rd_atomic = a.maxRdAtomic;
  out.max_dest_rd_atomic = a.maxDestRdAtomic;
  out.min_rnr_timer = a.minRnrTimer;
  out.port_num = a.portNum;
  out.timeout = a.timeout;
  out.retry_cnt = a.retryCnt;
  out.rnr_retry = a.rnrRetry;
}

}  // namespace rdmascope::verbs::ibv_fields
