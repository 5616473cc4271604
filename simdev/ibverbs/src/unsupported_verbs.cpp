// Exported verbs the simulated device does not model. Each fails as rdma-core does for a
// provider without the operation and names itself on stderr: never a silent wrong result.
#include <cerrno>

#include "context.h"

using namespace rdmascope::ibverbs;

RDMASCOPE_IBV_EXPORT int ibv_attach_mcast(ibv_qp*, const ibv_gid*, uint16_t) {
  return unsupported("ibv_attach_mcast (multicast)", EOPNOTSUPP);
}

RDMASCOPE_IBV_EXPORT int ibv_detach_mcast(ibv_qp*, const ibv_gid*, uint16_t) {
  return unsupported("ibv_detach_mcast (multicast)", EOPNOTSUPP);
}

RDMASCOPE_IBV_EXPORT int ibv_rereg_mr(ibv_mr*, int, ibv_pd*, void*, size_t, int) {
  return unsupported("ibv_rereg_mr", EOPNOTSUPP);
}

RDMASCOPE_IBV_EXPORT ibv_mr* ibv_reg_dmabuf_mr(ibv_pd*, uint64_t, size_t, uint64_t, int, int) {
  unsupported("ibv_reg_dmabuf_mr (dma-buf memory)", EOPNOTSUPP);
  return nullptr;
}

RDMASCOPE_IBV_EXPORT ibv_context* ibv_import_device(int) {
  unsupported("ibv_import_device", EOPNOTSUPP);
  return nullptr;
}

RDMASCOPE_IBV_EXPORT ibv_pd* ibv_import_pd(ibv_context*, uint32_t) {
  unsupported("ibv_import_pd", EOPNOTSUPP);
  return nullptr;
}

RDMASCOPE_IBV_EXPORT void ibv_unimport_pd(ibv_pd*) {
  unsupported("ibv_unimport_pd", EOPNOTSUPP);
}

RDMASCOPE_IBV_EXPORT ibv_mr* ibv_import_mr(ibv_pd*, uint32_t) {
  unsupported("ibv_import_mr", EOPNOTSUPP);
  return nullptr;
}

RDMASCOPE_IBV_EXPORT void ibv_unimport_mr(ibv_mr*) {
  unsupported("ibv_unimport_mr", EOPNOTSUPP);
}

RDMASCOPE_IBV_EXPORT ibv_dm* ibv_import_dm(ibv_context*, uint32_t) {
  unsupported("ibv_import_dm (device memory)", EOPNOTSUPP);
  return nullptr;
}

RDMASCOPE_IBV_EXPORT void ibv_unimport_dm(ibv_dm*) {
  unsupported("ibv_unimport_dm (device memory)", EOPNOTSUPP);
}

RDMASCOPE_IBV_EXPORT int ibv_set_ece(ibv_qp*, ibv_ece*) {
  return unsupported("ibv_set_ece", EOPNOTSUPP);
}

RDMASCOPE_IBV_EXPORT int ibv_query_ece(ibv_qp*, ibv_ece*) {
  return unsupported("ibv_query_ece", EOPNOTSUPP);
}

// rxe delivers every message's data in order; rdma-core answers 0 ("not guaranteed") for a
// provider without the query, which is what a program may assume safely.
RDMASCOPE_IBV_EXPORT int ibv_query_qp_data_in_order(ibv_qp*, ibv_wr_opcode, uint32_t) {
  return 0;
}
