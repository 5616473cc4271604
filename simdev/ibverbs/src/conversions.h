#pragma once
// Conversions between libibverbs' structs and the simulator's verbs value types (the simulator's
// enums carry libibverbs' numeric values, so they convert by value).

#include <infiniband/verbs.h>

#include "rdmascope/sim/verbs_types.h"

namespace rdmascope::ibverbs {

sim::AhAttr toSim(const ibv_ah_attr& attr);
ibv_ah_attr fromSim(const sim::AhAttr& attr);
sim::QpCap toSim(const ibv_qp_cap& cap);
ibv_qp_cap fromSim(const sim::QpCap& cap);
sim::QpAttr toSim(const ibv_qp_attr& attr);
void fromSim(const sim::QpAttr& attr, ibv_qp_attr& out);
/// ibv_send_wr without its UD address (the caller resolves the AH) and its SGEs.
sim::SendWr toSim(const ibv_send_wr& wr);
sim::RecvWr toSim(const ibv_recv_wr& wr);
void fromSim(const sim::WorkCompletion& wc, ibv_wc& out);

/// The access flags the device models (IBV_ACCESS_OPTIONAL_RANGE hints such as relaxed
/// ordering are dropped, as rxe ignores them).
unsigned simAccess(unsigned ibvAccess);

}  // namespace rdmascope::ibverbs
