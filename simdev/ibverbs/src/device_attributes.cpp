#include "device_attributes.h"

#include <endian.h>

#include <algorithm>
#include <cstring>

namespace rdmascope::ibverbs {

namespace limits = sim::limits;

std::uint64_t nodeGuid(const simdev::Nic& nic) {
  const sim::MacAddress& mac = nic.info().me().mac;
  const std::uint8_t eui[8] = {
      static_cast<std::uint8_t>(mac[0] ^ 2), mac[1], mac[2], 0xff, 0xfe, mac[3], mac[4], mac[5]};
  std::uint64_t guid = 0;
  std::memcpy(&guid, eui, sizeof(guid));
  return guid;
}

ibv_mtu mtuEnum(std::uint32_t bytes) {
  if (bytes >= 4096) return IBV_MTU_4096;
  if (bytes >= 2048) return IBV_MTU_2048;
  if (bytes >= 1024) return IBV_MTU_1024;
  if (bytes >= 512) return IBV_MTU_512;
  return IBV_MTU_256;
}

void fillDeviceAttr(const simdev::Nic& nic, ibv_device_attr& attr) {
  attr = ibv_device_attr{};
  std::strncpy(attr.fw_ver, "0.0.0", sizeof(attr.fw_ver) - 1);
  attr.node_guid = nodeGuid(nic);
  attr.sys_image_guid = attr.node_guid;
  attr.max_mr_size = limits::kMaxMrSize;
  attr.page_size_cap = limits::kPageSizeCap;
  attr.vendor_id = limits::kVendorId;
  attr.vendor_part_id = limits::kVendorPartId;
  attr.hw_ver = limits::kHwVer;
  attr.max_qp = static_cast<int>(limits::kMaxQp);
  attr.max_qp_wr = static_cast<int>(limits::kMaxQpWr);
  attr.device_cap_flags = IBV_DEVICE_BAD_PKEY_CNTR | IBV_DEVICE_BAD_QKEY_CNTR |
                          IBV_DEVICE_AUTO_PATH_MIG | IBV_DEVICE_CHANGE_PHY_PORT |
                          IBV_DEVICE_UD_AV_PORT_ENFORCE | IBV_DEVICE_PORT_ACTIVE_EVENT |
                          IBV_DEVICE_SYS_IMAGE_GUID | IBV_DEVICE_RC_RNR_NAK_GEN |
                          IBV_DEVICE_SRQ_RESIZE | IBV_DEVICE_MEM_MGT_EXTENSIONS;
  attr.max_sge = static_cast<int>(limits::kMaxSge);
  attr.max_sge_rd = static_cast<int>(limits::kMaxSgeRd);
  attr.max_cq = static_cast<int>(limits::kMaxCq);
  attr.max_cqe = static_cast<int>(limits::kMaxCqe);
  attr.max_mr = static_cast<int>(limits::kMaxMr);
  attr.max_pd = static_cast<int>(limits::kMaxPd);
  attr.max_qp_rd_atom = static_cast<int>(limits::kMaxQpRdAtom);
  attr.max_ee_rd_atom = 0;
  attr.max_res_rd_atom = static_cast<int>(limits::kMaxResRdAtom);
  attr.max_qp_init_rd_atom = static_cast<int>(limits::kMaxQpInitRdAtom);
  attr.max_ee_init_rd_atom = 0;
  attr.atomic_cap = static_cast<ibv_atomic_cap>(limits::kAtomicCap);
  attr.max_mcast_grp = static_cast<int>(limits::kMaxMcastGrp);
  attr.max_mcast_qp_attach = static_cast<int>(limits::kMaxMcastQpAttach);
  attr.max_total_mcast_qp_attach = static_cast<int>(limits::kMaxTotalMcastQpAttach);
  attr.max_ah = static_cast<int>(limits::kMaxAh);
  attr.max_srq = static_cast<int>(limits::kMaxSrq);
  attr.max_srq_wr = static_cast<int>(limits::kMaxSrqWr);
  attr.max_srq_sge = static_cast<int>(limits::kMaxSrqSge);
  attr.max_pkeys = limits::kMaxPkeys;
  attr.local_ca_ack_delay = limits::kLocalCaAckDelay;
  attr.phys_port_cnt = limits::kPhysPortCnt;
}

void fillPortAttr(const simdev::Nic& nic, ibv_port_attr& attr) {
  attr = ibv_port_attr{};
  attr.state = IBV_PORT_ACTIVE;
  attr.max_mtu = static_cast<ibv_mtu>(limits::kPortMaxMtu);
  attr.active_mtu = mtuEnum(nic.activeMtu());
  attr.gid_tbl_len = static_cast<int>(limits::kPortGidTableLength);
  attr.port_cap_flags = IBV_PORT_CM_SUP;
  attr.max_msg_sz = limits::kPortMaxMsgSize;
  attr.bad_pkey_cntr = 0;
  attr.qkey_viol_cntr = 0;
  attr.pkey_tbl_len = limits::kPortPkeyTableLength;
  attr.lid = 0;
  attr.sm_lid = 0;
  attr.lmc = 0;
  attr.max_vl_num = 1;
  attr.sm_sl = 0;
  attr.subnet_timeout = 0;
  attr.init_type_reply = 0;
  attr.active_width = 1;  // 1X
  attr.active_speed = 1;  // 2.5 Gb/s, what rxe reports
  attr.phys_state = 5;    // LinkUp
  attr.link_layer = IBV_LINK_LAYER_ETHERNET;
  attr.flags = 0;
  attr.port_cap_flags2 = 0;
}

}  // namespace rdmascope::ibverbs
