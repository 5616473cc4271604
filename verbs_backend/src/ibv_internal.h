#pragma once
// Shared by the ibv_*.cpp files only: it includes infiniband/verbs.h.

#include <infiniband/verbs.h>

#include <memory>

#include "rdmascope/verbs_backend/ibv_backend.h"

namespace rdmascope::verbs_backend {

/// ibv_qp_attr in the backend's types.
QpAttr qpAttrFromIbv(const ibv_qp_attr& a);

/// What other ibv_*.cpp files may do with an IbvBackend beyond its public interface.
struct IbvBackendAccess {
  /// An IbvBackend on a device context someone else opened and keeps open (the rdma_cm's);
  /// the backend destroys its own objects but never closes the context.
  static Result<std::unique_ptr<IbvBackend>> onContext(ibv_context* ctx, const IbvOptions& options);
};

}  // namespace rdmascope::verbs_backend
