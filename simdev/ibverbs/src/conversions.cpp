#include "conversions.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cstring>

namespace rdmascope::ibverbs {

sim::AhAttr toSim(const ibv_ah_attr& attr) {
  sim::AhAttr out;
  std::memcpy(out.dgid.data(), attr.grh.dgid.raw, out.dgid.size());
  out.flowLabel = attr.grh.flow_label;
  out.sgidIndex = attr.grh.sgid_index;
  out.hopLimit = attr.grh.hop_limit;
  out.trafficClass = attr.grh.traffic_class;
  out.isGlobal = attr.is_global != 0;
  out.dlid = attr.dlid;
  out.sl = attr.sl;
  out.portNum = attr.port_num;
  return out;
}

ibv_ah_attr fromSim(const sim::AhAttr& attr) {
  ibv_ah_attr out{};
  std::memcpy(out.grh.dgid.raw, attr.dgid.data(), attr.dgid.size());
  out.grh.flow_label = attr.flowLabel;
  out.grh.sgid_index = attr.sgidIndex;
  out.grh.hop_limit = attr.hopLimit;
  out.grh.traffic_class = attr.trafficClass;
  out.is_global = attr.isGlobal ? 1 : 0;
  out.dlid = attr.dlid;
  out.sl = attr.sl;
  out.port_num = attr.portNum;
  return out;
}

sim::QpCap toSim(const ibv_qp_cap& cap) {
  sim::QpCap out;
  out.maxSendWr = cap.max_send_wr;
  out.maxRecvWr = cap.max_recv_wr;
  out.maxSendSge = cap.max_send_sge;
  out.maxRecvSge = cap.max_recv_sge;
  out.maxInlineData = cap.max_inline_data;
  return out;
}

ibv_qp_cap fromSim(const sim::QpCap& cap) {
  ibv_qp_cap out{};
  out.max_send_wr = cap.maxSendWr;
  out.max_recv_wr = cap.maxRecvWr;
  out.max_send_sge = cap.maxSendSge;
  out.max_recv_sge = cap.maxRecvSge;
  out.max_inline_data = cap.maxInlineData;
  return out;
}

sim::QpAttr toSim(const ibv_qp_attr& attr) {
  sim::QpAttr out;
  out.qpState = static_cast<sim::QpState>(attr.qp_state);
  out.curQpState = static_cast<sim::QpState>(attr.cur_qp_state);
  out.pathMtu = static_cast<sim::Mtu>(attr.path_mtu);
  out.qkey = attr.qkey;
  out.rqPsn = attr.rq_psn;
  out.sqPsn = attr.sq_psn;
  out.destQpNum = attr.dest_qp_num;
  out.qpAccessFlags = attr.qp_access_flags;
  out.cap = toSim(attr.cap);
  out.ahAttr = toSim(attr.ah_attr);
  out.pkeyIndex = attr.pkey_index;
  out.maxRdAtomic = attr.max_rd_atomic;
  out.maxDestRdAtomic = attr.max_dest_rd_atomic;
  out.minRnrTimer = attr.min_rnr_timer;
  out.portNum = attr.port_num;
  out.timeout = attr.timeout;
  out.retryCnt = attr.retry_cnt;
  out.rnrRetry = attr.rnr_retry;
  return out;
}

void fromSim(const sim::QpAttr& attr, ibv_qp_attr& out) {
  out.qp_state = static_cast<ibv_qp_state>(attr.qpState);
  out.cur_qp_state = static_cast<ibv_qp_state>(attr.curQpState);
  out.path_mtu = static_cast<ibv_mtu>(attr.pathMtu);
  out.path_mig_state = IBV_MIG_MIGRATED;
  out.qkey = attr.qkey;
  out.rq_psn = attr.rqPsn;
  out.sq_psn = attr.sqPsn;
  out.dest_qp_num = attr.destQpNum;
  out.qp_access_flags = attr.qpAccessFlags;
  out.cap = fromSim(attr.cap);
  out.ah_attr = fromSim(attr.ahAttr);
  out.pkey_index = attr.pkeyIndex;
  out.max_rd_atomic = attr.maxRdAtomic;
  out.max_dest_rd_atomic = attr.maxDestRdAtomic;
  out.min_rnr_timer = attr.minRnrTimer;
  out.port_num = attr.portNum;
  out.timeout = attr.timeout;
  out.retry_cnt = attr.retryCnt;
  out.rnr_retry = attr.rnrRetry;
}

sim::SendWr toSim(const ibv_send_wr& wr) {
  sim::SendWr out;
  out.wrId = wr.wr_id;
  out.opcode = static_cast<sim::WrOpcode>(wr.opcode);
  out.sendFlags = wr.send_flags;
  if (wr.opcode == IBV_WR_SEND_WITH_INV) {
    out.invalidateRkey = wr.invalidate_rkey;
  } else {
    out.immData = ntohl(wr.imm_data);
  }
  switch (wr.opcode) {
    case IBV_WR_ATOMIC_CMP_AND_SWP:
    case IBV_WR_ATOMIC_FETCH_AND_ADD:
      out.remoteAddr = wr.wr.atomic.remote_addr;
      out.rkey = wr.wr.atomic.rkey;
      out.compareAdd = wr.wr.atomic.compare_add;
      out.swap = wr.wr.atomic.swap;
      break;
    case IBV_WR_RDMA_WRITE:
    case IBV_WR_RDMA_WRITE_WITH_IMM:
    case IBV_WR_RDMA_READ:
      out.remoteAddr = wr.wr.rdma.remote_addr;
      out.rkey = wr.wr.rdma.rkey;
      break;
    default:
      break;
  }
  out.sgList.reserve(static_cast<std::size_t>(std::max(wr.num_sge, 0)));
  for (int i = 0; i < wr.num_sge; ++i) {
    out.sgList.push_back({wr.sg_list[i].addr, wr.sg_list[i].length, wr.sg_list[i].lkey});
  }
  return out;
}

sim::RecvWr toSim(const ibv_recv_wr& wr) {
  sim::RecvWr out;
  out.wrId = wr.wr_id;
  out.sgList.reserve(static_cast<std::size_t>(std::max(wr.num_sge, 0)));
  for (int i = 0; i < wr.num_sge; ++i) {
    out.sgList.push_back({wr.sg_list[i].addr, wr.sg_list[i].length, wr.sg_list[i].lkey});
  }
  return out;
}

void fromSim(const sim::WorkCompletion& wc, ibv_wc& out) {
  out = ibv_wc{};
  out.wr_id = wc.wrId;
  out.status = static_cast<ibv_wc_status>(wc.status);
  out.opcode = static_cast<ibv_wc_opcode>(wc.opcode);
  out.vendor_err = wc.vendorErr;
  out.byte_len = wc.byteLen;
  if (wc.wcFlags & IBV_WC_WITH_INV) {
    out.invalidated_rkey = wc.invalidatedRkey;
  } else {
    out.imm_data = htonl(wc.immData);
  }
  out.qp_num = wc.qpNum;
  out.src_qp = wc.srcQp;
  out.wc_flags = wc.wcFlags;
  out.pkey_index = wc.pkeyIndex;
  out.slid = wc.slid;
  out.sl = wc.sl;
}

unsigned simAccess(unsigned ibvAccess) {
  return ibvAccess & ~static_cast<unsigned>(IBV_ACCESS_OPTIONAL_RANGE);
}

}  // namespace rdmascope::ibverbs
