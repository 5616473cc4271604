#pragma once
/// @file backend.h
/// One verbs-shaped interface over one host's RDMA device: SimBackend drives a simulated host,
/// IbvBackend drives rdma-core's libibverbs. A scenario runs unchanged on either.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "rdmascope/verbs/verbs_types.h"

namespace rdmascope::verbs_backend {

using verbs::AhAttr;
using verbs::Gid;
using verbs::QpAttr;
using verbs::QpCap;
using verbs::QpState;
using verbs::QpType;
using verbs::RecvWr;
using verbs::SendWr;
using verbs::WorkCompletion;

/// Outcome of a call: errnum 0 on success, else an errno value and one sentence.
struct Status {
  int errnum = 0;
  std::string message;
  bool ok() const { return errnum == 0; }
  static Status success() { return {}; }
  static Status error(int e, std::string m) { return {e, std::move(m)}; }
};

/// A value or the error that prevented it.
template <class T>
struct Result {
  T value{};
  Status status;
  bool ok() const { return status.ok(); }
};

/// Opaque handle of a backend object (PD, CQ, QP); 0 is never valid.
using Handle = std::uint32_t;

struct DeviceInfo {
  std::string name;       ///< e.g. "rxe0" or "sim0"
  std::string transport;  ///< "RoCEv2", "RoCEv1", "InfiniBand", "iWARP"
  Gid gid{};              ///< the GID at gidIndex
  std::uint8_t gidIndex = 1;
  std::uint16_t lid = 0;
  std::uint8_t port = 1;
  verbs::Mtu activeMtu = verbs::Mtu::Mtu1024;
};

/// A registered region of backend-owned memory.
struct MemoryRegion {
  Handle pd = 0;
  std::uint64_t addr = 0;  ///< virtual address as the peer uses it in RETH/AtomicETH
  std::uint64_t length = 0;
  std::uint32_t lkey = 0;
  std::uint32_t rkey = 0;
  unsigned access = 0;
};

struct QpInitAttr {
  QpType qpType = QpType::RC;
  Handle sendCq = 0;
  Handle recvCq = 0;
  QpCap cap;
  bool sqSigAll = false;
};

struct QueuePair {
  Handle handle = 0;
  std::uint32_t qpNum = 0;
};

/// One host's verbs context. Objects are destroyed in reverse order of creation when the
/// backend is destroyed.
class Backend {
 public:
  virtual ~Backend() = default;

  virtual std::string name() const = 0;
  virtual Result<DeviceInfo> queryDevice() = 0;
  virtual Result<Handle> allocPd() = 0;
  /// Allocates `length` bytes of host memory and registers them.
  virtual Result<MemoryRegion> regMr(Handle pd, std::uint64_t length, unsigned access) = 0;
  /// The bytes of a registered region (reads and writes go to the host memory itself).
  virtual std::span<std::uint8_t> memory(const MemoryRegion& mr) = 0;
  virtual Result<Handle> createCq(int depth) = 0;
  virtual Result<QueuePair> createQp(Handle pd, const QpInitAttr& attr) = 0;
  virtual Status modifyQp(Handle qp, const QpAttr& attr, unsigned attrMask) = 0;
  virtual Result<QpAttr> queryQp(Handle qp) = 0;
  virtual Status postSend(Handle qp, const SendWr& wr) = 0;
  virtual Status postRecv(Handle qp, const RecvWr& wr) = 0;
  /// Up to `max` completions now (may be none).
  virtual Result<std::vector<WorkCompletion>> pollCq(Handle cq, int max) = 0;
  /// Makes progress until at least one completion is ready on `cq` or the timeout passes
  /// (simulated time for SimBackend, wall time for IbvBackend). Returns the completions.
  virtual Result<std::vector<WorkCompletion>> waitCq(Handle cq, int max,
                                                     std::chrono::milliseconds timeout) = 0;
  /// Lets `duration` of the backend's time pass (a scenario's run_us step). This default
  /// sleeps (wall time) and ends with ECANCELED within 100 ms once `*stop` is true; SimBackend
  /// advances simulated time instead.
  virtual Status letTimePass(std::chrono::microseconds duration, const std::atomic<bool>* stop);
};

}  // namespace rdmascope::verbs_backend
