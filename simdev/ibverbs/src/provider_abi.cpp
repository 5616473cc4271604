// rdma-core's provider interface (IBVERBS_PRIVATE_34). Programs such as perftest link provider
// libraries (libmlx5, libefa) directly, and those are bound at load time (BIND_NOW), so every
// symbol they import must exist. Their constructors register their driver: that is accepted and
// ignored, since the simulated device is the only device here. No other entry is reached
// (a provider's code runs only for its own devices); if one were, it fails naming itself.
#include <cerrno>

#include "context.h"

using namespace rdmascope::ibverbs;

namespace {

int providerOnly(const char* name) {
  return unsupported(name, EOPNOTSUPP);
}

}  // namespace

#define RDMASCOPE_PROVIDER_ONLY(name) \
  RDMASCOPE_IBV_EXPORT int name() {   \
    return providerOnly(#name);       \
  }

extern "C" {
__attribute__((visibility("default"))) bool verbs_allow_disassociate_destroy = false;
}

RDMASCOPE_IBV_EXPORT void verbs_register_driver_34(const void*) {}

RDMASCOPE_IBV_EXPORT void* _verbs_init_and_alloc_context() {
  providerOnly("_verbs_init_and_alloc_context");
  return nullptr;
}

RDMASCOPE_IBV_EXPORT void* verbs_open_device() {
  providerOnly("verbs_open_device");
  return nullptr;
}

RDMASCOPE_IBV_EXPORT void __verbs_log() {
  providerOnly("__verbs_log");
}

RDMASCOPE_IBV_EXPORT void verbs_set_ops() {
  providerOnly("verbs_set_ops");
}

RDMASCOPE_IBV_EXPORT void verbs_init_cq() {
  providerOnly("verbs_init_cq");
}

RDMASCOPE_IBV_EXPORT void verbs_uninit_context() {
  providerOnly("verbs_uninit_context");
}

RDMASCOPE_PROVIDER_ONLY(__ioctl_final_num_attrs)
RDMASCOPE_PROVIDER_ONLY(execute_ioctl)
RDMASCOPE_PROVIDER_ONLY(ibv_read_ibdev_sysfs_file)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_advise_mr)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_alloc_dm)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_alloc_mw)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_alloc_pd)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_attach_mcast)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_close_xrcd)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_create_ah)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_create_counters)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_create_cq)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_create_cq_ex)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_create_flow)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_create_flow_action_esp)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_create_qp)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_create_qp_ex)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_create_qp_ex2)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_create_rwq_ind_table)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_create_srq)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_create_srq_ex)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_create_wq)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_dealloc_mw)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_dealloc_pd)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_dereg_mr)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_destroy_ah)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_destroy_counters)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_destroy_cq)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_destroy_flow)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_destroy_flow_action)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_destroy_qp)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_destroy_rwq_ind_table)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_destroy_srq)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_destroy_wq)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_detach_mcast)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_free_dm)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_get_context)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_modify_cq)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_modify_flow_action_esp)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_modify_qp)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_modify_qp_ex)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_modify_srq)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_modify_wq)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_open_qp)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_open_xrcd)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_poll_cq)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_post_recv)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_post_send)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_post_srq_recv)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_query_context)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_query_device_any)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_query_mr)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_query_port)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_query_qp)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_query_srq)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_read_counters)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_reg_dm_mr)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_reg_dmabuf_mr)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_reg_mr)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_req_notify_cq)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_rereg_mr)
RDMASCOPE_PROVIDER_ONLY(ibv_cmd_resize_cq)
