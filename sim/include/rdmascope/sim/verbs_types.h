#pragma once
/// @file verbs_types.h
/// The verbs value types as the simulator names them: rdmascope::sim::X is rdmascope::verbs::X
/// (rdmascope/verbs/verbs_types.h). The simulator models a verbs device, so its code and its
/// users spell the types in the sim namespace; the real backend uses the verbs layer directly.

#include "rdmascope/verbs/verbs_types.h"

namespace rdmascope::sim {

using verbs::AhAttr;
using verbs::AsyncEvent;
using verbs::AsyncEventType;
using verbs::Gid;
using verbs::Mtu;
using verbs::mtuBytes;
using verbs::QpAttr;
using verbs::QpCap;
using verbs::QpInitAttr;
using verbs::QpState;
using verbs::QpType;
using verbs::RecvWr;
using verbs::SendWr;
using verbs::Sge;
using verbs::SrqAttr;
using verbs::WcOpcode;
using verbs::WcStatus;
using verbs::WorkCompletion;
using verbs::WrOpcode;

using verbs::attrMaskNames;
using verbs::toString;

namespace access = verbs::access;
namespace attr_mask = verbs::attr_mask;
namespace send_flags = verbs::send_flags;
namespace srq_attr_mask = verbs::srq_attr_mask;
namespace wc_flags = verbs::wc_flags;

}  // namespace rdmascope::sim
