// librdmacm, opened when a program first calls it (see ibv_lazy_library.h): the functions of
// librdmacm rdmascope calls, each looking itself up once. The compiler checks each definition
// against its declaration in rdma/rdma_cma.h.
#include <rdma/rdma_cma.h>

#include "ibv_lazy_library.h"

#ifndef RDMASCOPE_RDMACM_SONAME
#error "RDMASCOPE_RDMACM_SONAME (the file name librdmacm is loaded by) is set by CMake"
#endif

namespace {
rdmascope::verbs_backend::LazyLibrary librdmacm(RDMASCOPE_RDMACM_SONAME);
}  // namespace

#define RDMASCOPE_CM_CALL(...) RDMASCOPE_LAZY_CALL(librdmacm, __VA_ARGS__)

RDMASCOPE_CM_CALL(int, rdma_accept, (struct rdma_cm_id * id, struct rdma_conn_param* param),
                  (id, param))
RDMASCOPE_CM_CALL(int, rdma_ack_cm_event, (struct rdma_cm_event * event), (event))
RDMASCOPE_CM_CALL(int, rdma_bind_addr, (struct rdma_cm_id * id, struct sockaddr* addr), (id, addr))
RDMASCOPE_CM_CALL(int, rdma_connect, (struct rdma_cm_id * id, struct rdma_conn_param* param),
                  (id, param))
RDMASCOPE_CM_CALL(struct rdma_event_channel*, rdma_create_event_channel, (void), ())
RDMASCOPE_CM_CALL(int, rdma_create_id,
                  (struct rdma_event_channel * channel, struct rdma_cm_id** id, void* context,
                   enum rdma_port_space space),
                  (channel, id, context, space))
RDMASCOPE_CM_CALL(void, rdma_destroy_event_channel, (struct rdma_event_channel * channel),
                  (channel))
RDMASCOPE_CM_CALL(int, rdma_destroy_id, (struct rdma_cm_id * id), (id))
RDMASCOPE_CM_CALL(int, rdma_disconnect, (struct rdma_cm_id * id), (id))
RDMASCOPE_CM_CALL(int, rdma_establish, (struct rdma_cm_id * id), (id))
RDMASCOPE_CM_CALL(const char*, rdma_event_str, (enum rdma_cm_event_type event), (event))
RDMASCOPE_CM_CALL(int, rdma_get_cm_event,
                  (struct rdma_event_channel * channel, struct rdma_cm_event** event),
                  (channel, event))
RDMASCOPE_CM_CALL(int, rdma_init_qp_attr,
                  (struct rdma_cm_id * id, struct ibv_qp_attr* attr, int* mask), (id, attr, mask))
RDMASCOPE_CM_CALL(int, rdma_listen, (struct rdma_cm_id * id, int backlog), (id, backlog))
RDMASCOPE_CM_CALL(int, rdma_reject, (struct rdma_cm_id * id, const void* data, uint8_t length),
                  (id, data, length))
RDMASCOPE_CM_CALL(int, rdma_resolve_addr,
                  (struct rdma_cm_id * id, struct sockaddr* source, struct sockaddr* destination,
                   int timeoutMs),
                  (id, source, destination, timeoutMs))
RDMASCOPE_CM_CALL(int, rdma_resolve_route, (struct rdma_cm_id * id, int timeoutMs), (id, timeoutMs))
