#include "rdmascope/verbs_backend/sim_backend.h"

#include <cerrno>

namespace rdmascope::verbs_backend {

namespace {
Status toStatus(const sim::VerbsStatus& s) {
  return {s.errnum, s.message};
}
}  // namespace

SimBackend::SimBackend(std::shared_ptr<sim::Network> network, int hostIndex)
    : network_(std::move(network)), hostIndex_(hostIndex) {}

std::string SimBackend::name() const {
  return "sim:" + network_->host(hostIndex_).name();
}

Result<DeviceInfo> SimBackend::queryDevice() {
  DeviceInfo d;
  d.name = "sim" + std::to_string(hostIndex_);
  switch (network_->config().wire) {
    case sim::WireFormat::RoceV2Ipv4:
    case sim::WireFormat::RoceV2Ipv6:
      d.transport = "RoCEv2";
      break;
    case sim::WireFormat::RoceV1:
      d.transport = "RoCEv1";
      break;
    case sim::WireFormat::InfiniBand:
      d.transport = "InfiniBand";
      break;
  }
  d.gid = host().gid();
  d.gidIndex = 1;
  d.lid = host().config().lid;
  d.port = 1;
  const std::uint32_t m = network_->activeMtu();
  d.activeMtu = m >= 4096   ? sim::Mtu::Mtu4096
                : m >= 2048 ? sim::Mtu::Mtu2048
                : m >= 1024 ? sim::Mtu::Mtu1024
                : m >= 512  ? sim::Mtu::Mtu512
                            : sim::Mtu::Mtu256;
  return {d, {}};
}

Result<Handle> SimBackend::allocPd() {
  auto r = host().allocPd();
  return {r.value, toStatus(r.status)};
}

Result<MemoryRegion> SimBackend::regMr(Handle pd, std::uint64_t length, unsigned access) {
  if (length == 0) return {{}, Status::error(EINVAL, "MR length must be positive")};
  const std::uint64_t addr = host().allocate(length);
  // The host's memory comes from calloc: under a memory limit a large region has none.
  if (host().memory(addr, length).data() == nullptr)
    return {{},
            Status::error(ENOMEM, "cannot allocate " + std::to_string(length) +
                                      " bytes of host memory for the MR")};
  auto r = host().regMr(pd, addr, length, access);
  if (!r.ok()) return {{}, toStatus(r.status)};
  MemoryRegion mr;
  mr.pd = pd;
  mr.addr = r.value.addr;
  mr.length = r.value.length;
  mr.lkey = r.value.lkey;
  mr.rkey = r.value.rkey;
  mr.access = r.value.access;
  return {mr, {}};
}

std::span<std::uint8_t> SimBackend::memory(const MemoryRegion& mr) {
  return host().memory(mr.addr, mr.length);
}

Result<Handle> SimBackend::createCq(int depth) {
  auto r = host().createCq(depth);
  return {r.value, toStatus(r.status)};
}

Result<QueuePair> SimBackend::createQp(Handle pd, const QpInitAttr& attr) {
  sim::QpInitAttr a;
  a.qpType = attr.qpType;
  a.sendCq = attr.sendCq;
  a.recvCq = attr.recvCq;
  a.cap = attr.cap;
  a.sqSigAll = attr.sqSigAll;
  auto r = host().createQp(pd, a);
  if (!r.ok()) return {{}, toStatus(r.status)};
  return {{r.value, r.value}, {}};
}

Status SimBackend::modifyQp(Handle qp, const QpAttr& attr, unsigned attrMask) {
  return toStatus(host().modifyQp(qp, attr, attrMask));
}

Result<QpAttr> SimBackend::queryQp(Handle qp) {
  auto r = host().queryQp(qp);
  return {r.value, toStatus(r.status)};
}

Status SimBackend::postSend(Handle qp, const SendWr& wr) {
  return toStatus(host().postSend(qp, wr));
}

Status SimBackend::postRecv(Handle qp, const RecvWr& wr) {
  return toStatus(host().postRecv(qp, wr));
}

Result<std::vector<WorkCompletion>> SimBackend::pollCq(Handle cq, int max) {
  if (!host().cq(cq)) return {{}, Status::error(EINVAL, "no CQ " + std::to_string(cq))};
  return {host().pollCq(cq, max), {}};
}

Result<std::vector<WorkCompletion>> SimBackend::waitCq(Handle cq, int max,
                                                       std::chrono::milliseconds timeout) {
  if (!host().cq(cq)) return {{}, Status::error(EINVAL, "no CQ " + std::to_string(cq))};
  sim::Simulator& s = network_->sim();
  const sim::SimTime limit = s.now() + sim::SimTime::ms(timeout.count());
  if (!s.runWhile([&] { return host().cqCount(cq) > 0; }, limit)) s.runUntil(limit);
  return {host().pollCq(cq, max), {}};
}

Status SimBackend::letTimePass(std::chrono::microseconds duration, const std::atomic<bool>*) {
  sim::Simulator& s = network_->sim();
  s.runUntil(s.now() + sim::SimTime::ns(duration.count() * 1000));
  return {};
}

}  // namespace rdmascope::verbs_backend
