#pragma once
/// @file ibv_backend.h
/// IbvBackend: the Backend interface over rdma-core's libibverbs, for real RDMA devices and
/// Linux Soft-RoCE (rdma_rxe). Built only when libibverbs is present (RDMASCOPE_HAVE_IBVERBS);
/// this header does not include infiniband/verbs.h.

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "rdmascope/verbs_backend/backend.h"

namespace rdmascope::verbs_backend {

struct IbvBackendAccess;

/// How IbvBackend::waitCq waits for a completion.
enum class WaitMode : std::uint8_t {
  Channel,  ///< sleep on the CQ's completion channel (ibv_req_notify_cq + poll(2))
  BusyPoll  ///< call ibv_poll_cq in a loop until the timeout
};

/// Which device and port an IbvBackend opens.
struct IbvOptions {
  std::string deviceName;  ///< empty: the first device libibverbs lists
  std::uint8_t port = 1;
  std::uint8_t gidIndex = 1;  ///< for Soft-RoCE, index 1 is the IPv4-mapped RoCEv2 GID
  WaitMode waitMode = WaitMode::Channel;
};

/// One device context of libibverbs. Every object created through it (PDs, MRs with their
/// backend-owned buffers, CQs with their completion channels, QPs, address handles) is
/// destroyed in reverse order of creation when the backend is destroyed.
class IbvBackend final : public Backend {
 public:
  /// The names of the RDMA devices libibverbs sees (may be empty).
  static Result<std::vector<std::string>> listDevices();

  /// Opens a device. Without any device the error is "no RDMA device found: run the Soft-RoCE
  /// lab (rdmascope-cli lab) or load rdma_rxe" (ENODEV); an unknown name lists the devices.
  static Result<std::unique_ptr<IbvBackend>> open(const IbvOptions& options = {});

  ~IbvBackend() override;
  IbvBackend(const IbvBackend&) = delete;
  IbvBackend& operator=(const IbvBackend&) = delete;

  std::string name() const override;
  Result<DeviceInfo> queryDevice() override;
  Result<Handle> allocPd() override;
  Result<MemoryRegion> regMr(Handle pd, std::uint64_t length, unsigned access) override;
  std::span<std::uint8_t> memory(const MemoryRegion& mr) override;
  Result<Handle> createCq(int depth) override;
  Result<QueuePair> createQp(Handle pd, const QpInitAttr& attr) override;
  Status modifyQp(Handle qp, const QpAttr& attr, unsigned attrMask) override;
  Result<QpAttr> queryQp(Handle qp) override;
  Status postSend(Handle qp, const SendWr& wr) override;
  Status postRecv(Handle qp, const RecvWr& wr) override;
  Result<std::vector<WorkCompletion>> pollCq(Handle cq, int max) override;
  Result<std::vector<WorkCompletion>> waitCq(Handle cq, int max,
                                             std::chrono::milliseconds timeout) override;

 private:
  friend struct IbvBackendAccess;  // ibv_cm_connection.cpp: a backend on the rdma_cm's device
  struct Impl;
  explicit IbvBackend(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace rdmascope::verbs_backend
