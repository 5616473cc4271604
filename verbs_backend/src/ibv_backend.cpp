#include "rdmascope/verbs_backend/ibv_backend.h"

#include <arpa/inet.h>
#include <infiniband/verbs.h>
#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>

#include "ibv_internal.h"
#include "rdmascope/verbs/ibv_field_conversions.h"

namespace rdmascope::verbs_backend {

// verbs_types.h promises libibverbs' numbers, so values convert by cast.
static_assert(int(QpType::RC) == IBV_QPT_RC && int(QpType::UC) == IBV_QPT_UC &&
              int(QpType::UD) == IBV_QPT_UD);
static_assert(int(QpState::Reset) == IBV_QPS_RESET && int(QpState::Init) == IBV_QPS_INIT &&
              int(QpState::Rtr) == IBV_QPS_RTR && int(QpState::Rts) == IBV_QPS_RTS &&
              int(QpState::Sqd) == IBV_QPS_SQD && int(QpState::Sqe) == IBV_QPS_SQE &&
              int(QpState::Err) == IBV_QPS_ERR);
static_assert(int(verbs::WrOpcode::RdmaWrite) == IBV_WR_RDMA_WRITE &&
              int(verbs::WrOpcode::RdmaWriteWithImm) == IBV_WR_RDMA_WRITE_WITH_IMM &&
              int(verbs::WrOpcode::Send) == IBV_WR_SEND &&
              int(verbs::WrOpcode::SendWithImm) == IBV_WR_SEND_WITH_IMM &&
              int(verbs::WrOpcode::RdmaRead) == IBV_WR_RDMA_READ &&
              int(verbs::WrOpcode::AtomicCmpAndSwp) == IBV_WR_ATOMIC_CMP_AND_SWP &&
              int(verbs::WrOpcode::AtomicFetchAndAdd) == IBV_WR_ATOMIC_FETCH_AND_ADD &&
              int(verbs::WrOpcode::LocalInv) == IBV_WR_LOCAL_INV &&
              int(verbs::WrOpcode::BindMw) == IBV_WR_BIND_MW &&
              int(verbs::WrOpcode::SendWithInv) == IBV_WR_SEND_WITH_INV);
static_assert(int(verbs::WcStatus::Success) == IBV_WC_SUCCESS &&
              int(verbs::WcStatus::LocLenErr) == IBV_WC_LOC_LEN_ERR &&
              int(verbs::WcStatus::LocQpOpErr) == IBV_WC_LOC_QP_OP_ERR &&
              int(verbs::WcStatus::LocEecOpErr) == IBV_WC_LOC_EEC_OP_ERR &&
              int(verbs::WcStatus::LocProtErr) == IBV_WC_LOC_PROT_ERR &&
              int(verbs::WcStatus::WrFlushErr) == IBV_WC_WR_FLUSH_ERR &&
              int(verbs::WcStatus::MwBindErr) == IBV_WC_MW_BIND_ERR &&
              int(verbs::WcStatus::BadRespErr) == IBV_WC_BAD_RESP_ERR &&
              int(verbs::WcStatus::LocAccessErr) == IBV_WC_LOC_ACCESS_ERR &&
              int(verbs::WcStatus::RemInvReqErr) == IBV_WC_REM_INV_REQ_ERR &&
              int(verbs::WcStatus::RemAccessErr) == IBV_WC_REM_ACCESS_ERR &&
              int(verbs::WcStatus::RemOpErr) == IBV_WC_REM_OP_ERR &&
              int(verbs::WcStatus::RetryExcErr) == IBV_WC_RETRY_EXC_ERR &&
              int(verbs::WcStatus::RnrRetryExcErr) == IBV_WC_RNR_RETRY_EXC_ERR &&
              int(verbs::WcStatus::LocRddViolErr) == IBV_WC_LOC_RDD_VIOL_ERR &&
              int(verbs::WcStatus::RemInvRdReqErr) == IBV_WC_REM_INV_RD_REQ_ERR &&
              int(verbs::WcStatus::RemAbortErr) == IBV_WC_REM_ABORT_ERR &&
              int(verbs::WcStatus::InvEecnErr) == IBV_WC_INV_EECN_ERR &&
              int(verbs::WcStatus::InvEecStateErr) == IBV_WC_INV_EEC_STATE_ERR &&
              int(verbs::WcStatus::FatalErr) == IBV_WC_FATAL_ERR &&
              int(verbs::WcStatus::RespTimeoutErr) == IBV_WC_RESP_TIMEOUT_ERR &&
              int(verbs::WcStatus::GeneralErr) == IBV_WC_GENERAL_ERR);
static_assert(int(verbs::WcOpcode::Send) == IBV_WC_SEND &&
              int(verbs::WcOpcode::RdmaWrite) == IBV_WC_RDMA_WRITE &&
              int(verbs::WcOpcode::RdmaRead) == IBV_WC_RDMA_READ &&
              int(verbs::WcOpcode::CompSwap) == IBV_WC_COMP_SWAP &&
              int(verbs::WcOpcode::FetchAdd) == IBV_WC_FETCH_ADD &&
              int(verbs::WcOpcode::BindMw) == IBV_WC_BIND_MW &&
              int(verbs::WcOpcode::LocalInv) == IBV_WC_LOCAL_INV &&
              int(verbs::WcOpcode::Recv) == IBV_WC_RECV &&
              int(verbs::WcOpcode::RecvRdmaWithImm) == IBV_WC_RECV_RDMA_WITH_IMM);
static_assert(int(verbs::Mtu::Mtu256) == IBV_MTU_256 && int(verbs::Mtu::Mtu512) == IBV_MTU_512 &&
              int(verbs::Mtu::Mtu1024) == IBV_MTU_1024 &&
              int(verbs::Mtu::Mtu2048) == IBV_MTU_2048 && int(verbs::Mtu::Mtu4096) == IBV_MTU_4096);
static_assert(verbs::access::kLocalWrite == IBV_ACCESS_LOCAL_WRITE &&
              verbs::access::kRemoteWrite == IBV_ACCESS_REMOTE_WRITE &&
              verbs::access::kRemoteRead == IBV_ACCESS_REMOTE_READ &&
              verbs::access::kRemoteAtomic == IBV_ACCESS_REMOTE_ATOMIC);
static_assert(verbs::send_flags::kFence == IBV_SEND_FENCE &&
              verbs::send_flags::kSignaled == IBV_SEND_SIGNALED &&
              verbs::send_flags::kSolicited == IBV_SEND_SOLICITED &&
              verbs::send_flags::kInline == IBV_SEND_INLINE);
static_assert(verbs::wc_flags::kGrh == IBV_WC_GRH && verbs::wc_flags::kWithImm == IBV_WC_WITH_IMM &&
              verbs::wc_flags::kWithInv == IBV_WC_WITH_INV);
static_assert(
    verbs::attr_mask::kState == IBV_QP_STATE && verbs::attr_mask::kCurState == IBV_QP_CUR_STATE &&
    verbs::attr_mask::kEnSqdAsyncNotify == IBV_QP_EN_SQD_ASYNC_NOTIFY &&
    verbs::attr_mask::kAccessFlags == IBV_QP_ACCESS_FLAGS &&
    verbs::attr_mask::kPkeyIndex == IBV_QP_PKEY_INDEX && verbs::attr_mask::kPort == IBV_QP_PORT &&
    verbs::attr_mask::kQkey == IBV_QP_QKEY && verbs::attr_mask::kAv == IBV_QP_AV &&
    verbs::attr_mask::kPathMtu == IBV_QP_PATH_MTU && verbs::attr_mask::kTimeout == IBV_QP_TIMEOUT &&
    verbs::attr_mask::kRetryCnt == IBV_QP_RETRY_CNT &&
    verbs::attr_mask::kRnrRetry == IBV_QP_RNR_RETRY && verbs::attr_mask::kRqPsn == IBV_QP_RQ_PSN &&
    verbs::attr_mask::kMaxQpRdAtomic == IBV_QP_MAX_QP_RD_ATOMIC &&
    verbs::attr_mask::kAltPath == IBV_QP_ALT_PATH &&
    verbs::attr_mask::kMinRnrTimer == IBV_QP_MIN_RNR_TIMER &&
    verbs::attr_mask::kSqPsn == IBV_QP_SQ_PSN &&
    verbs::attr_mask::kMaxDestRdAtomic == IBV_QP_MAX_DEST_RD_ATOMIC &&
    verbs::attr_mask::kPathMigState == IBV_QP_PATH_MIG_STATE &&
    verbs::attr_mask::kCap == IBV_QP_CAP && verbs::attr_mask::kDestQpn == IBV_QP_DEST_QPN);

namespace {

constexpr const char* kNoDevice =
    "no RDMA device found: run the Soft-RoCE lab (rdmascope-cli lab) or load rdma_rxe";

Status errnoStatus(int e, const std::string& what) {
  return Status::error(e, what + " failed: " + std::strerror(e));
}

template <class T>
Result<T> fail(Status s) {
  Result<T> r;
  r.status = std::move(s);
  return r;
}

template <class T>
Result<T> ok(T value) {
  Result<T> r;
  r.value = std::move(value);
  return r;
}

struct FreeDeleter {
  void operator()(std::uint8_t* p) const { std::free(p); }
};

ibv_ah_attr toIbv(const AhAttr& a, std::uint8_t defaultPort) {
  ibv_ah_attr r = verbs::ibv_fields::ahAttrTo<ibv_ah_attr>(a);
  if (a.portNum == 0) r.port_num = defaultPort;
  return r;
}

bool sameAh(const ibv_ah_attr& x, const ibv_ah_attr& y) {
  return x.is_global == y.is_global && std::memcmp(x.grh.dgid.raw, y.grh.dgid.raw, 16) == 0 &&
         x.grh.flow_label == y.grh.flow_label && x.grh.sgid_index == y.grh.sgid_index &&
         x.grh.hop_limit == y.grh.hop_limit && x.grh.traffic_class == y.grh.traffic_class &&
         x.dlid == y.dlid && x.sl == y.sl && x.port_num == y.port_num;
}

WorkCompletion fromIbv(const ibv_wc& wc) {
  WorkCompletion r;
  r.wrId = wc.wr_id;
  r.status = static_cast<verbs::WcStatus>(wc.status);
  r.opcode = static_cast<verbs::WcOpcode>(wc.opcode);
  r.vendorErr = wc.vendor_err;
  r.byteLen = wc.byte_len;
  if ((wc.wc_flags & IBV_WC_WITH_IMM) != 0) r.immData = ntohl(wc.imm_data);
  if ((wc.wc_flags & IBV_WC_WITH_INV) != 0) r.invalidatedRkey = wc.invalidated_rkey;
  r.qpNum = wc.qp_num;
  r.srcQp = wc.src_qp;
  r.wcFlags = wc.wc_flags;
  r.pkeyIndex = wc.pkey_index;
  r.slid = wc.slid;
  r.sl = wc.sl;
  return r;
}

}  // namespace

QpAttr qpAttrFromIbv(const ibv_qp_attr& a) {
  return verbs::ibv_fields::qpAttrFrom(a);
}

struct IbvBackend::Impl {
  struct Cq {
    ibv_comp_channel* channel = nullptr;
    ibv_cq* cq = nullptr;
    bool armed = false;
  };
  struct Qp {
    ibv_qp* qp = nullptr;
    ibv_pd* pd = nullptr;
  };
  struct Mr {
    ibv_mr* mr = nullptr;
    std::unique_ptr<std::uint8_t, FreeDeleter> buffer;
    std::uint64_t length = 0;
  };
  struct Ah {
    ibv_pd* pd = nullptr;
    ibv_ah_attr attr{};
    ibv_ah* ah = nullptr;
  };

  IbvOptions options;
  ibv_context* ctx = nullptr;
  bool ownsContext = true;
  std::string deviceName;
  std::map<Handle, ibv_pd*> pds;
  std::map<Handle, Cq> cqs;
  std::map<Handle, Qp> qps;
  std::map<std::uint32_t, Mr> mrs;  // by lkey
  std::vector<Ah> ahs;
  Handle nextHandle = 1;
  // Run in reverse on destruction: every object goes before what it was created from.
  std::vector<std::function<void()>> teardown;

  ~Impl() {
    for (auto it = teardown.rbegin(); it != teardown.rend(); ++it)
      (*it)();
    if (ctx != nullptr && ownsContext) ibv_close_device(ctx);
  }

  Result<ibv_pd*> pd(Handle h) const {
    auto it = pds.find(h);
    if (it == pds.end())
      return fail<ibv_pd*>(Status::error(EINVAL, "unknown PD handle " + std::to_string(h)));
    return ok(it->second);
  }
  Result<Cq*> cq(Handle h) {
    auto it = cqs.find(h);
    if (it == cqs.end())
      return fail<Cq*>(Status::error(EINVAL, "unknown CQ handle " + std::to_string(h)));
    return ok(&it->second);
  }
  Result<Qp*> qp(Handle h) {
    auto it = qps.find(h);
    if (it == qps.end())
      return fail<Qp*>(Status::error(EINVAL, "unknown QP handle " + std::to_string(h)));
    return ok(&it->second);
  }

  Result<ibv_ah*> ahFor(ibv_pd* p, const AhAttr& attr) {
    ibv_ah_attr a = toIbv(attr, options.port);
    for (const Ah& e : ahs)
      if (e.pd == p && sameAh(e.attr, a)) return ok(e.ah);
    ibv_ah* ah = ibv_create_ah(p, &a);
    if (ah == nullptr) return fail<ibv_ah*>(errnoStatus(errno, "ibv_create_ah"));
    ahs.push_back({p, a, ah});
    teardown.emplace_back([ah] { ibv_destroy_ah(ah); });
    return ok(ah);
  }

  Result<std::vector<WorkCompletion>> poll(Cq& c, int max) {
    if (max <= 0)
      return fail<std::vector<WorkCompletion>>(Status::error(EINVAL, "pollCq needs max > 0"));
    std::vector<ibv_wc> wcs(static_cast<std::size_t>(max));
    int n = ibv_poll_cq(c.cq, max, wcs.data());
    if (n < 0)
      return fail<std::vector<WorkCompletion>>(
          Status::error(EIO, "ibv_poll_cq failed (the CQ is in error)"));
    std::vector<WorkCompletion> out;
    out.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
      out.push_back(fromIbv(wcs[static_cast<std::size_t>(i)]));
    return ok(std::move(out));
  }
};

IbvBackend::IbvBackend(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
IbvBackend::~IbvBackend() = default;

Result<std::vector<std::string>> IbvBackend::listDevices() {
  int n = 0;
  ibv_device** list = ibv_get_device_list(&n);
  std::vector<std::string> names;
  if (list == nullptr) {
    // ENOSYS: the kernel has no uverbs support at all, which is "no device" to a user.
    if (errno == ENOSYS) return ok(std::move(names));
    return fail<std::vector<std::string>>(errnoStatus(errno, "ibv_get_device_list"));
  }
  for (int i = 0; i < n; ++i)
    names.emplace_back(ibv_get_device_name(list[i]));
  ibv_free_device_list(list);
  return ok(std::move(names));
}

Result<std::unique_ptr<IbvBackend>> IbvBackend::open(const IbvOptions& options) {
  using R = std::unique_ptr<IbvBackend>;
  int n = 0;
  ibv_device** list = ibv_get_device_list(&n);
  if (list == nullptr || n == 0) {
    if (list != nullptr) ibv_free_device_list(list);
    return fail<R>(Status::error(ENODEV, kNoDevice));
  }
  ibv_device* dev = nullptr;
  std::string names;
  for (int i = 0; i < n; ++i) {
    std::string name = ibv_get_device_name(list[i]);
    names += (i != 0 ? ", " : "") + name;
    if (dev == nullptr && (options.deviceName.empty() || options.deviceName == name)) dev = list[i];
  }
  if (dev == nullptr) {
    ibv_free_device_list(list);
    return fail<R>(Status::error(
        ENODEV, "no RDMA device named '" + options.deviceName + "' (devices: " + names + ")"));
  }
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  impl->deviceName = ibv_get_device_name(dev);
  impl->ctx = ibv_open_device(dev);
  int openErr = errno;
  ibv_free_device_list(list);
  if (impl->ctx == nullptr)
    return fail<R>(errnoStatus(openErr, "ibv_open_device(" + impl->deviceName + ")"));
  ibv_port_attr port{};
  if (int e = ibv_query_port(impl->ctx, options.port, &port); e != 0)
    return fail<R>(errnoStatus(
        e, impl->deviceName + ": ibv_query_port(" + std::to_string(options.port) + ")"));
  return ok(R(new IbvBackend(std::move(impl))));
}

Result<std::unique_ptr<IbvBackend>> IbvBackendAccess::onContext(ibv_context* ctx,
                                                                const IbvOptions& options) {
  using R = std::unique_ptr<IbvBackend>;
  if (ctx == nullptr) return fail<R>(Status::error(ENODEV, "the rdma_cm gave no device context"));
  auto impl = std::make_unique<IbvBackend::Impl>();
  impl->options = options;
  impl->ctx = ctx;
  impl->ownsContext = false;
  impl->deviceName = ibv_get_device_name(ctx->device);
  ibv_port_attr port{};
  if (int e = ibv_query_port(ctx, options.port, &port); e != 0)
    return fail<R>(errnoStatus(
        e, impl->deviceName + ": ibv_query_port(" + std::to_string(options.port) + ")"));
  return ok(R(new IbvBackend(std::move(impl))));
}

std::string IbvBackend::name() const {
  return impl_->deviceName;
}

Result<DeviceInfo> IbvBackend::queryDevice() {
  ibv_port_attr port{};
  const std::uint8_t portNum = impl_->options.port;
  if (int e = ibv_query_port(impl_->ctx, portNum, &port); e != 0)
    return fail<DeviceInfo>(errnoStatus(e, "ibv_query_port(" + std::to_string(portNum) + ")"));
  DeviceInfo info;
  info.name = impl_->deviceName;
  info.port = portNum;
  info.lid = port.lid;
  info.activeMtu = static_cast<verbs::Mtu>(port.active_mtu);
  info.gidIndex = impl_->options.gidIndex;
  ibv_gid gid{};
  if (int e = ibv_query_gid(impl_->ctx, portNum, impl_->options.gidIndex, &gid); e != 0)
    return fail<DeviceInfo>(
        errnoStatus(e != -1 ? e : errno,
                    "ibv_query_gid(index " + std::to_string(impl_->options.gidIndex) + ")"));
  std::memcpy(info.gid.data(), gid.raw, 16);
  if (impl_->ctx->device->transport_type == IBV_TRANSPORT_IWARP) {
    info.transport = "iWARP";
  } else if (port.link_layer == IBV_LINK_LAYER_ETHERNET) {
    ibv_gid_entry entry{};
    if (ibv_query_gid_ex(impl_->ctx, portNum, impl_->options.gidIndex, &entry, 0) == 0)
      info.transport = entry.gid_type == IBV_GID_TYPE_ROCE_V1 ? "RoCEv1" : "RoCEv2";
    else
      info.transport = "RoCEv2";
  } else {
    info.transport = "InfiniBand";
  }
  return ok(std::move(info));
}

Result<Handle> IbvBackend::allocPd() {
  ibv_pd* pd = ibv_alloc_pd(impl_->ctx);
  if (pd == nullptr) return fail<Handle>(errnoStatus(errno, "ibv_alloc_pd"));
  Handle h = impl_->nextHandle++;
  impl_->pds[h] = pd;
  impl_->teardown.emplace_back([pd] { ibv_dealloc_pd(pd); });
  return ok(h);
}

Result<MemoryRegion> IbvBackend::regMr(Handle pd, std::uint64_t length, unsigned access) {
  auto p = impl_->pd(pd);
  if (!p.ok()) return fail<MemoryRegion>(p.status);
  if (length == 0) return fail<MemoryRegion>(Status::error(EINVAL, "regMr needs a length above 0"));
  constexpr std::uint64_t kPage = 4096;
  const std::uint64_t rounded = (length + kPage - 1) / kPage * kPage;
  auto* raw = static_cast<std::uint8_t*>(std::aligned_alloc(kPage, rounded));
  if (raw == nullptr)
    return fail<MemoryRegion>(
        Status::error(ENOMEM, "cannot allocate " + std::to_string(length) + " bytes for an MR"));
  std::unique_ptr<std::uint8_t, FreeDeleter> buffer(raw);
  std::memset(raw, 0, rounded);
  ibv_mr* mr = ibv_reg_mr(p.value, raw, length, static_cast<int>(access));
  if (mr == nullptr)
    return fail<MemoryRegion>(
        errnoStatus(errno, "ibv_reg_mr of " + std::to_string(length) + " bytes"));
  MemoryRegion out;
  out.pd = pd;
  out.addr = reinterpret_cast<std::uintptr_t>(raw);
  out.length = length;
  out.lkey = mr->lkey;
  out.rkey = mr->rkey;
  out.access = access;
  const std::uint32_t lkey = mr->lkey;
  impl_->mrs[lkey] = Impl::Mr{mr, std::move(buffer), length};
  Impl* impl = impl_.get();
  impl_->teardown.emplace_back([impl, lkey] {
    auto it = impl->mrs.find(lkey);
    ibv_dereg_mr(it->second.mr);
    impl->mrs.erase(it);
  });
  return ok(out);
}

std::span<std::uint8_t> IbvBackend::memory(const MemoryRegion& mr) {
  auto it = impl_->mrs.find(mr.lkey);
  if (it == impl_->mrs.end()) return {};
  return {it->second.buffer.get(), static_cast<std::size_t>(it->second.length)};
}

Result<Handle> IbvBackend::createCq(int depth) {
  if (depth <= 0) return fail<Handle>(Status::error(EINVAL, "createCq needs a depth above 0"));
  ibv_comp_channel* channel = ibv_create_comp_channel(impl_->ctx);
  if (channel == nullptr) return fail<Handle>(errnoStatus(errno, "ibv_create_comp_channel"));
  impl_->teardown.emplace_back([channel] { ibv_destroy_comp_channel(channel); });
  ibv_cq* cq = ibv_create_cq(impl_->ctx, depth, nullptr, channel, 0);
  if (cq == nullptr)
    return fail<Handle>(errnoStatus(errno, "ibv_create_cq of depth " + std::to_string(depth)));
  impl_->teardown.emplace_back([cq] { ibv_destroy_cq(cq); });
  Handle h = impl_->nextHandle++;
  impl_->cqs[h] = Impl::Cq{channel, cq, false};
  return ok(h);
}

Result<QueuePair> IbvBackend::createQp(Handle pd, const QpInitAttr& attr) {
  auto p = impl_->pd(pd);
  if (!p.ok()) return fail<QueuePair>(p.status);
  auto scq = impl_->cq(attr.sendCq);
  if (!scq.ok()) return fail<QueuePair>(scq.status);
  auto rcq = impl_->cq(attr.recvCq);
  if (!rcq.ok()) return fail<QueuePair>(rcq.status);
  ibv_qp_init_attr init{};
  init.send_cq = scq.value->cq;
  init.recv_cq = rcq.value->cq;
  init.qp_type = static_cast<ibv_qp_type>(attr.qpType);
  init.sq_sig_all = attr.sqSigAll ? 1 : 0;
  init.cap.max_send_wr = attr.cap.maxSendWr;
  init.cap.max_recv_wr = attr.cap.maxRecvWr;
  init.cap.max_send_sge = attr.cap.maxSendSge;
  init.cap.max_recv_sge = attr.cap.maxRecvSge;
  init.cap.max_inline_data = attr.cap.maxInlineData;
  ibv_qp* qp = ibv_create_qp(p.value, &init);
  if (qp == nullptr)
    return fail<QueuePair>(errnoStatus(
        errno, std::string("ibv_create_qp of type ") + std::string(verbs::toString(attr.qpType))));
  impl_->teardown.emplace_back([qp] { ibv_destroy_qp(qp); });
  Handle h = impl_->nextHandle++;
  impl_->qps[h] = Impl::Qp{qp, p.value};
  return ok(QueuePair{h, qp->qp_num});
}

Status IbvBackend::modifyQp(Handle qp, const QpAttr& attr, unsigned attrMask) {
  auto q = impl_->qp(qp);
  if (!q.ok()) return q.status;
  ibv_qp_attr a{};
  verbs::ibv_fields::qpAttrTo(attr, a);
  a.ah_attr = toIbv(attr.ahAttr, impl_->options.port);
  if (int e = ibv_modify_qp(q.value->qp, &a, static_cast<int>(attrMask)); e != 0) {
    std::string what = "ibv_modify_qp of QP " + std::to_string(q.value->qp->qp_num);
    if ((attrMask & IBV_QP_STATE) != 0) what += " to " + std::string(verbs::toString(attr.qpState));
    return errnoStatus(e, what);
  }
  return Status::success();
}

Result<QpAttr> IbvBackend::queryQp(Handle qp) {
  auto q = impl_->qp(qp);
  if (!q.ok()) return fail<QpAttr>(q.status);
  ibv_qp_attr a{};
  ibv_qp_init_attr init{};
  const int mask = IBV_QP_STATE | IBV_QP_CUR_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
                   IBV_QP_ACCESS_FLAGS | IBV_QP_QKEY | IBV_QP_AV | IBV_QP_PATH_MTU |
                   IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_RQ_PSN |
                   IBV_QP_MAX_QP_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER | IBV_QP_SQ_PSN |
                   IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_DEST_QPN | IBV_QP_CAP;
  if (int e = ibv_query_qp(q.value->qp, &a, mask, &init); e != 0)
    return fail<QpAttr>(
        errnoStatus(e, "ibv_query_qp of QP " + std::to_string(q.value->qp->qp_num)));
  return ok(qpAttrFromIbv(a));
}

Status IbvBackend::postSend(Handle qp, const SendWr& wr) {
  auto q = impl_->qp(qp);
  if (!q.ok()) return q.status;
  std::vector<ibv_sge> sges;
  sges.reserve(wr.sgList.size());
  for (const verbs::Sge& s : wr.sgList)
    sges.push_back(ibv_sge{s.addr, s.length, s.lkey});
  ibv_send_wr w{};
  w.wr_id = wr.wrId;
  w.sg_list = sges.data();
  w.num_sge = static_cast<int>(sges.size());
  w.opcode = static_cast<ibv_wr_opcode>(wr.opcode);
  w.send_flags = wr.sendFlags;
  switch (wr.opcode) {
    case verbs::WrOpcode::SendWithImm:
    case verbs::WrOpcode::RdmaWriteWithImm:
      w.imm_data = htonl(wr.immData);
      break;
    case verbs::WrOpcode::SendWithInv:
    case verbs::WrOpcode::LocalInv:
      w.invalidate_rkey = wr.invalidateRkey;
      break;
    default:
      break;
  }
  switch (wr.opcode) {
    case verbs::WrOpcode::RdmaWrite:
    case verbs::WrOpcode::RdmaWriteWithImm:
    case verbs::WrOpcode::RdmaRead:
      w.wr.rdma.remote_addr = wr.remoteAddr;
      w.wr.rdma.rkey = wr.rkey;
      break;
    case verbs::WrOpcode::AtomicCmpAndSwp:
    case verbs::WrOpcode::AtomicFetchAndAdd:
      w.wr.atomic.remote_addr = wr.remoteAddr;
      w.wr.atomic.rkey = wr.rkey;
      w.wr.atomic.compare_add = wr.compareAdd;
      w.wr.atomic.swap = wr.swap;
      break;
    default:
      break;
  }
  if (q.value->qp->qp_type == IBV_QPT_UD) {
    auto ah = impl_->ahFor(q.value->pd, wr.ah);
    if (!ah.ok()) return ah.status;
    w.wr.ud.ah = ah.value;
    w.wr.ud.remote_qpn = wr.remoteQpn;
    w.wr.ud.remote_qkey = wr.remoteQkey;
  }
  ibv_send_wr* bad = nullptr;
  if (int e = ibv_post_send(q.value->qp, &w, &bad); e != 0)
    return errnoStatus(e, "ibv_post_send of " + std::string(verbs::toString(wr.opcode)) +
                              " on QP " + std::to_string(q.value->qp->qp_num));
  return Status::success();
}

Status IbvBackend::postRecv(Handle qp, const RecvWr& wr) {
  auto q = impl_->qp(qp);
  if (!q.ok()) return q.status;
  std::vector<ibv_sge> sges;
  sges.reserve(wr.sgList.size());
  for (const verbs::Sge& s : wr.sgList)
    sges.push_back(ibv_sge{s.addr, s.length, s.lkey});
  ibv_recv_wr w{};
  w.wr_id = wr.wrId;
  w.sg_list = sges.data();
  w.num_sge = static_cast<int>(sges.size());
  ibv_recv_wr* bad = nullptr;
  if (int e = ibv_post_recv(q.value->qp, &w, &bad); e != 0)
    return errnoStatus(e, "ibv_post_recv on QP " + std::to_string(q.value->qp->qp_num));
  return Status::success();
}

Result<std::vector<WorkCompletion>> IbvBackend::pollCq(Handle cq, int max) {
  auto c = impl_->cq(cq);
  if (!c.ok()) return fail<std::vector<WorkCompletion>>(c.status);
  return impl_->poll(*c.value, max);
}

Result<std::vector<WorkCompletion>> IbvBackend::waitCq(Handle cq, int max,
                                                       std::chrono::milliseconds timeout) {
  using Clock = std::chrono::steady_clock;
  using Wcs = std::vector<WorkCompletion>;
  auto c = impl_->cq(cq);
  if (!c.ok()) return fail<Wcs>(c.status);
  Impl::Cq& q = *c.value;
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    auto r = impl_->poll(q, max);
    if (!r.ok() || !r.value.empty()) return r;
    if (impl_->options.waitMode == WaitMode::BusyPoll) {
      if (Clock::now() >= deadline) return r;
      continue;
    }
    if (!q.armed) {
      if (int e = ibv_req_notify_cq(q.cq, 0); e != 0)
        return fail<Wcs>(errnoStatus(e, "ibv_req_notify_cq"));
      q.armed = true;
      // A completion that arrived before arming raises no event: look once more.
      r = impl_->poll(q, max);
      if (!r.ok() || !r.value.empty()) return r;
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return r;
    pollfd pfd{q.channel->fd, POLLIN, 0};
    int n = ::poll(&pfd, 1, static_cast<int>(std::min<long long>(left.count() + 1, 1 << 30)));
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail<Wcs>(errnoStatus(errno, "poll on the completion channel"));
    }
    if (n == 0) continue;
    ibv_cq* evCq = nullptr;
    void* evCtx = nullptr;
    if (ibv_get_cq_event(q.channel, &evCq, &evCtx) != 0)
      return fail<Wcs>(errnoStatus(errno, "ibv_get_cq_event"));
    ibv_ack_cq_events(evCq, 1);
    q.armed = false;
  }
}

}  // namespace rdmascope::verbs_backend
