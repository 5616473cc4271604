#include "conversions.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cstring>

#include "rdmascope/verbs/ibv_field_conversions.h"

namespace rdmascope::ibverbs {

sim::AhAttr toSim(const ibv_ah_attr& attr) {
  return verbs::ibv_fields::ahAttrFrom(attr);
}

ibv_ah_attr fromSim(const sim::AhAttr& attr) {
  return verbs::ibv_fields::ahAttrTo<ibv_ah_attr>(attr);
}

sim::QpCap toSim(const ibv_qp_cap& cap) {
  return verbs::ibv_fields::qpCapFrom(cap);
}

ibv_qp_cap fromSim(const sim::QpCap& cap) {
  return verbs::ibv_fields::qpCapTo<ibv_qp_cap>(cap);
}

sim::QpAttr toSim(const ibv_qp_attr& attr) {
  return verbs::ibv_fields::qpAttrFrom(attr);
}

void fromSim(const sim::QpAttr& attr, ibv_qp_attr& out) {
  verbs::ibv_fields::qpAttrTo(attr, out);
  out.path_mig_state = IBV_MIG_MIGRATED;
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
