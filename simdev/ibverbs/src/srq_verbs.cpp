// TEMPORARY LOCAL BUILD ONLY (never committed): the simulator has no SRQ yet.
#include <cerrno>
#include "context.h"
using namespace rdmascope::ibverbs;
void rdmascope::ibverbs::useSrq(sim::QpInitAttr&, ibv_srq*) {}
int rdmascope::ibverbs::postSrqRecv(ibv_srq*, ibv_recv_wr*, ibv_recv_wr**) { return EOPNOTSUPP; }
RDMASCOPE_IBV_EXPORT ibv_srq* ibv_create_srq(ibv_pd*, ibv_srq_init_attr*) { unsupported("ibv_create_srq", EOPNOTSUPP); return nullptr; }
RDMASCOPE_IBV_EXPORT int ibv_modify_srq(ibv_srq*, ibv_srq_attr*, int) { return EOPNOTSUPP; }
RDMASCOPE_IBV_EXPORT int ibv_query_srq(ibv_srq*, ibv_srq_attr*) { return EOPNOTSUPP; }
RDMASCOPE_IBV_EXPORT int ibv_destroy_srq(ibv_srq*) { return EOPNOTSUPP; }
