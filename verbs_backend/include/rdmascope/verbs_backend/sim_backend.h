#pragma once
/// @file sim_backend.h
/// The verbs Backend over one host of a simulated network. Two SimBackends over the same
/// Network are the two ends of a scenario; waitCq advances simulated time.

#include <memory>

#include "rdmascope/sim/network.h"
#include "rdmascope/verbs_backend/backend.h"

namespace rdmascope::verbs_backend {

class SimBackend : public Backend {
 public:
  /// Drives host `hostIndex` (0 or 1) of `network`.
  SimBackend(std::shared_ptr<sim::Network> network, int hostIndex);

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
  /// Runs the simulator until `cq` has a completion or `timeout` of simulated time passes.
  Result<std::vector<WorkCompletion>> waitCq(Handle cq, int max,
                                             std::chrono::milliseconds timeout) override;
  /// Runs the simulator for `duration` of simulated time.
  Status letTimePass(std::chrono::microseconds duration, const std::atomic<bool>* stop) override;

  sim::Network& network() { return *network_; }
  sim::Host& host() { return network_->host(hostIndex_); }

 private:
  std::shared_ptr<sim::Network> network_;
  int hostIndex_;
};

}  // namespace rdmascope::verbs_backend
