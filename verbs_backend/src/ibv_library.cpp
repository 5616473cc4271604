// libibverbs, opened when a program first calls it (see ibv_lazy_library.h): the functions of
// libibverbs rdmascope calls, each looking itself up once. The compiler checks each definition
// against its declaration in infiniband/verbs.h. verbs.h defines ibv_get_device_list,
// ibv_query_port and ibv_reg_mr as macros over inline functions that call these; the macros are
// undone here so that the functions themselves can be defined.
#include <infiniband/verbs.h>

#include "ibv_lazy_library.h"

#undef ibv_get_device_list
#undef ibv_query_port
#undef ibv_reg_mr

#ifndef RDMASCOPE_IBVERBS_SONAME
#error "RDMASCOPE_IBVERBS_SONAME (the file name libibverbs is loaded by) is set by CMake"
#endif

namespace {
rdmascope::verbs_backend::LazyLibrary libibverbs(RDMASCOPE_IBVERBS_SONAME);
}  // namespace

#define RDMASCOPE_IBV_CALL(...) RDMASCOPE_LAZY_CALL(libibverbs, __VA_ARGS__)

// Not in verbs.h: exported by libibverbs for providers (ibv_sniffer.cpp declares it too).
extern "C" int ibv_read_sysfs_file(const char* dir, const char* file, char* buf, size_t size);

RDMASCOPE_IBV_CALL(int, _ibv_query_gid_ex,
                   (struct ibv_context * context, uint32_t port, uint32_t index,
                    struct ibv_gid_entry* entry, uint32_t flags, size_t size),
                   (context, port, index, entry, flags, size))
RDMASCOPE_IBV_CALL(void, ibv_ack_cq_events, (struct ibv_cq * cq, unsigned int events), (cq, events))
RDMASCOPE_IBV_CALL(struct ibv_pd*, ibv_alloc_pd, (struct ibv_context * context), (context))
RDMASCOPE_IBV_CALL(int, ibv_close_device, (struct ibv_context * context), (context))
RDMASCOPE_IBV_CALL(struct ibv_ah*, ibv_create_ah, (struct ibv_pd * pd, struct ibv_ah_attr* attr),
                   (pd, attr))
RDMASCOPE_IBV_CALL(struct ibv_comp_channel*, ibv_create_comp_channel,
                   (struct ibv_context * context), (context))
RDMASCOPE_IBV_CALL(struct ibv_cq*, ibv_create_cq,
                   (struct ibv_context * context, int cqe, void* cqContext,
                    struct ibv_comp_channel* channel, int vector),
                   (context, cqe, cqContext, channel, vector))
RDMASCOPE_IBV_CALL(struct ibv_qp*, ibv_create_qp,
                   (struct ibv_pd * pd, struct ibv_qp_init_attr* attr), (pd, attr))
RDMASCOPE_IBV_CALL(int, ibv_dealloc_pd, (struct ibv_pd * pd), (pd))
RDMASCOPE_IBV_CALL(int, ibv_dereg_mr, (struct ibv_mr * mr), (mr))
RDMASCOPE_IBV_CALL(int, ibv_destroy_ah, (struct ibv_ah * ah), (ah))
RDMASCOPE_IBV_CALL(int, ibv_destroy_comp_channel, (struct ibv_comp_channel * channel), (channel))
RDMASCOPE_IBV_CALL(int, ibv_destroy_cq, (struct ibv_cq * cq), (cq))
RDMASCOPE_IBV_CALL(int, ibv_destroy_qp, (struct ibv_qp * qp), (qp))
RDMASCOPE_IBV_CALL(void, ibv_free_device_list, (struct ibv_device * *list), (list))
RDMASCOPE_IBV_CALL(int, ibv_get_cq_event,
                   (struct ibv_comp_channel * channel, struct ibv_cq** cq, void** cqContext),
                   (channel, cq, cqContext))
RDMASCOPE_IBV_CALL(struct ibv_device**, ibv_get_device_list, (int* count), (count))
RDMASCOPE_IBV_CALL(const char*, ibv_get_device_name, (struct ibv_device * device), (device))
RDMASCOPE_IBV_CALL(int, ibv_modify_qp, (struct ibv_qp * qp, struct ibv_qp_attr* attr, int mask),
                   (qp, attr, mask))
RDMASCOPE_IBV_CALL(struct ibv_context*, ibv_open_device, (struct ibv_device * device), (device))
RDMASCOPE_IBV_CALL(int, ibv_query_device,
                   (struct ibv_context * context, struct ibv_device_attr* attr), (context, attr))
RDMASCOPE_IBV_CALL(int, ibv_query_gid,
                   (struct ibv_context * context, uint8_t port, int index, union ibv_gid* gid),
                   (context, port, index, gid))
RDMASCOPE_IBV_CALL(int, ibv_query_port,
                   (struct ibv_context * context, uint8_t port, struct _compat_ibv_port_attr* attr),
                   (context, port, attr))
RDMASCOPE_IBV_CALL(int, ibv_query_qp,
                   (struct ibv_qp * qp, struct ibv_qp_attr* attr, int mask,
                    struct ibv_qp_init_attr* init),
                   (qp, attr, mask, init))
RDMASCOPE_IBV_CALL(int, ibv_read_sysfs_file,
                   (const char* dir, const char* file, char* buf, size_t size),
                   (dir, file, buf, size))
RDMASCOPE_IBV_CALL(struct ibv_mr*, ibv_reg_mr,
                   (struct ibv_pd * pd, void* addr, size_t length, int access),
                   (pd, addr, length, access))
RDMASCOPE_IBV_CALL(struct ibv_mr*, ibv_reg_mr_iova2,
                   (struct ibv_pd * pd, void* addr, size_t length, uint64_t iova,
                    unsigned int access),
                   (pd, addr, length, iova, access))
