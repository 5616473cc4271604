#pragma once
/// @file qp_state_machine.h
/// The QP state transitions and attribute masks of the kernel's ib_modify_qp_is_ok
/// (drivers/infiniband/core/verbs.c, qp_state_table) for RC, UC and UD.

#include <string>

#include "rdmascope/sim/verbs_types.h"

namespace rdmascope::sim {

/// Whether `from -> to` is legal for `type`, and the attribute masks it requires and allows
/// (IBV_QP_STATE is always allowed and not listed).
struct TransitionRule {
  bool valid = false;
  unsigned required = 0;
  unsigned optional = 0;
};

TransitionRule transitionRule(QpState from, QpState to, QpType type);

/// Empty when modify_qp(from -> to, mask) is allowed; otherwise the EINVAL message naming the
/// missing or extra attributes, e.g. "attr_mask is missing IBV_QP_DEST_QPN (INIT->RTR for RC
/// requires IBV_QP_AV, ...)".
std::string checkTransition(QpState from, QpState to, QpType type, unsigned mask);

}  // namespace rdmascope::sim
