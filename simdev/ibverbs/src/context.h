#pragma once
// The objects of the drop-in libibverbs: each wraps the struct verbs.h gives the program (first
// member, so the program's pointer is the object's) and names the simulated resource behind it.

#include <infiniband/verbs.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rdmascope/sim/host.h"
#include "rdmascope/simdev/nic.h"

#define RDMASCOPE_IBV_EXPORT extern "C" __attribute__((visibility("default")))

// Declared by rdma-core's private driver.h, which libibverbs-dev does not install.
enum ibv_gid_type_sysfs {
  IBV_GID_TYPE_SYSFS_IB_ROCE_V1,
  IBV_GID_TYPE_SYSFS_ROCE_V2,
};
extern "C" {
int ibv_query_gid_type(struct ibv_context* context, uint8_t port_num, unsigned int index,
                       enum ibv_gid_type_sysfs* type);
int ibv_read_sysfs_file(const char* dir, const char* file, char* buf, size_t size);
const char* ibv_get_sysfs_path(void);
int ibv_dontfork_range(void* base, size_t size);
int ibv_dofork_range(void* base, size_t size);
}

namespace rdmascope::ibverbs {

using simdev::Nic;

/// The process's NIC; null when it cannot attach (the reason is printed once on stderr).
Nic* nic();
/// The NIC of an opened context (never null: a context exists only once the NIC does).
Nic& nicOf(ibv_context* context);

/// Logs a failed verbs call on the fabric ("verb: why"), sets errno and returns the errno.
int fail(std::string_view verb, const sim::VerbsStatus& status);
/// The same for a failure whose message names the verb and the object already (the
/// simulator's modify_qp and post errors): the line is the message as it is.
int fail(const sim::VerbsStatus& status);
/// The same for a failure the library itself detects.
int fail(std::string_view verb, int errnum, std::string_view why);
/// One line on stderr naming a verb the simulated device does not support; returns `errnum`
/// and sets errno to it.
int unsupported(std::string_view verb, int errnum);

struct Context {
  verbs_context vctx;  ///< vctx.context is the ibv_context the program holds
  int asyncWriteFd = -1;
};
Context* toContext(ibv_context* context);
/// Opens the context of the one device; sets errno and returns null on failure.
ibv_context* openContext(ibv_device* device);
void closeContext(Context* context);

struct Pd {
  ibv_pd pd;
  std::uint32_t id = 0;
};

struct Mr {
  ibv_mr mr;
};

struct CompChannel {
  ibv_comp_channel channel;
  int writeFd = -1;
};

struct Cq {
  union {
    ibv_cq cq;      ///< what ibv_create_cq returns
    ibv_cq_ex cqx;  ///< ibv_create_cq_ex: the same fields first, then the poll functions
  };
  std::uint32_t id = 0;
  bool armed = false;  ///< req_notify_cq called since the last event (guarded by the session)
  std::uint64_t wcFlags = 0;    ///< ibv_create_cq_ex's wc_flags
  sim::WorkCompletion current;  ///< the completion an extended poll is at
};

struct Srq {
  ibv_srq srq;
  std::uint32_t id = 0;
};

struct Ah {
  ibv_ah ah;
  std::uint32_t id = 0;
  sim::AhAttr attr;
};

struct RawQp;

struct Qp {
  ibv_qp_ex qpx;         ///< qpx.qp_base is the ibv_qp the program holds
  RawQp* raw = nullptr;  ///< a raw-packet QP (raw_packet_verbs.cpp); null for RC, UC, UD
  sim::QpType type = sim::QpType::RC;
  ibv_qp_cap cap{};
  bool sqSigAll = false;
  // The work requests built between ibv_wr_start and ibv_wr_complete.
  std::vector<sim::SendWr> batch;
  int batchError = 0;
  std::string batchWhy;
};

inline Pd* toPd(ibv_pd* pd) {
  return reinterpret_cast<Pd*>(pd);
}
inline Cq* toCq(ibv_cq* cq) {
  return reinterpret_cast<Cq*>(cq);
}
inline Qp* toQp(ibv_qp* qp) {
  return reinterpret_cast<Qp*>(qp);
}
inline Srq* toSrq(ibv_srq* srq) {
  return reinterpret_cast<Srq*>(srq);
}
inline Ah* toAh(ibv_ah* ah) {
  return reinterpret_cast<Ah*>(ah);
}

/// Registers a CQ, QP or SRQ for the completion and asynchronous events that name it (call
/// inside a session).
void registerCq(Cq* cq);
void unregisterCq(Cq* cq);
void registerQp(Qp* qp);
void unregisterQp(Qp* qp);
void registerSrq(Srq* srq);
void unregisterSrq(Srq* srq);
/// Installs the NIC's completion listener and the host's asynchronous event hook once.
void installEventListeners(Nic& nic);

/// Raw-packet QPs, sniffer flows and extended CQs (raw_packet_verbs.cpp). The simulated
/// device's raw-packet QPs only receive, through a sniffer flow, on a NIC attached with
/// `rdmascope-cli exec --sniff`.
ibv_qp* createRawQp(ibv_context* context, ibv_pd* pd, const ibv_qp_init_attr& attr);
int modifyRawQp(Qp* qp, const ibv_qp_attr& attr, unsigned mask);
int queryRawQp(Qp* qp, ibv_qp_attr& attr);
int destroyRawQp(Qp* qp);
int postRawRecv(Qp* qp, ibv_recv_wr* wr, ibv_recv_wr** bad);
/// Frames the device dropped because a raw-packet QP's receive queue was empty (mlx5's
/// hw_counters/out_of_buffer).
std::uint64_t outOfBufferCount();
/// Installs create_flow, destroy_flow, create_cq_ex and query_rt_values in the context.
void initRawPacketOps(verbs_context& context);

/// The ibv_qp_ex function table of a new QP (the post-send API the device supports).
void initQpEx(Qp* qp, std::uint64_t sendOpsFlags);
/// A QP created with an SRQ takes its receives from it.
void useSrq(sim::QpInitAttr& init, ibv_srq* srq);
/// ibv_context.ops.post_srq_recv.
int postSrqRecv(ibv_srq* srq, ibv_recv_wr* wr, ibv_recv_wr** bad);
/// The context's data-path operations (ibv_context.ops).
void initDataPathOps(ibv_context_ops& ops);
/// The extended operations of struct verbs_context the device supports (create_qp_ex); the
/// others stay null, so verbs.h's inline wrappers answer EOPNOTSUPP as on rxe.
void initVerbsContextOps(verbs_context& context);

}  // namespace rdmascope::ibverbs
