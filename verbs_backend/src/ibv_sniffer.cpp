#include <fcntl.h>
#include <infiniband/verbs.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <new>

#include "rdmascope/verbs_backend/verbs_sniffer.h"

// Exported by libibverbs (IBVERBS_1.0) but declared only in rdma-core's driver.h.
extern "C" int ibv_read_sysfs_file(const char* dir, const char* file, char* buf, size_t size);

namespace rdmascope::verbs_backend {

namespace {

constexpr std::uint8_t kPort = 1;
constexpr const char* kOutOfBuffer = "ports/1/hw_counters/out_of_buffer";

std::string sysfsText(ibv_device* device, const char* file) {
  char buf[256] = {};
  if (ibv_read_sysfs_file(device->ibdev_path, file, buf, sizeof buf) <= 0) return {};
  std::string text(buf);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
    text.pop_back();
  return text;
}

bool readCounter(ibv_device* device, const char* file, std::uint64_t& value) {
  const std::string text = sysfsText(device, file);
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return false;
  value = std::strtoull(text.c_str(), nullptr, 10);
  return true;
}

std::int64_t nowNs(clockid_t clock) {
  timespec ts{};
  ::clock_gettime(clock, &ts);
  return std::int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

// Frees the device list when the scope ends.
struct DeviceList {
  ibv_device** list = nullptr;
  int count = 0;
  DeviceList() { list = ibv_get_device_list(&count); }
  ~DeviceList() {
    if (list) ibv_free_device_list(list);
  }
  DeviceList(const DeviceList&) = delete;
  DeviceList& operator=(const DeviceList&) = delete;
  ibv_device* find(const std::string& name) const {
    for (int i = 0; list && i < count; ++i) {
      if (name == ibv_get_device_name(list[i])) return list[i];
    }
    return nullptr;
  }
};

std::string noSnifferSupport(const std::string& name, const std::string& netdev) {
  std::string line = name + " has no sniffer support (no raw-packet QP with a sniffer flow)";
  line += netdev.empty()
              ? ": capture on its network interface instead (rdmascope-cli capture -D)"
              : ": capture on its network interface instead: rdmascope-cli capture -i " + netdev;
  return line;
}

std::string permissionAdvice(const std::string& name) {
  return "no permission to capture on " + name +
         ": raw-packet QPs need CAP_NET_RAW (run as root or setcap cap_net_raw=eip rdmascope-cli)";
}

}  // namespace

struct VerbsSniffer::Impl {
  ibv_device* device = nullptr;  ///< in `devices`
  DeviceList* devices = nullptr;
  ibv_context* ctx = nullptr;
  ibv_pd* pd = nullptr;
  ibv_comp_channel* channel = nullptr;
  ibv_cq* cq = nullptr;
  ibv_cq_ex* cqx = nullptr;  ///< set when the CQ is an extended one with timestamps
  bool wallclock = false;    ///< cqx reads wall-clock ns; otherwise raw ticks converted
  std::uint64_t hcaKhz = 0;
  std::int64_t rawBaseNs = 0;  ///< the device clock at rawBaseTicks, as Unix ns
  std::uint64_t rawBaseTicks = 0;
  ibv_qp* qp = nullptr;
  ibv_flow* flow = nullptr;
  ibv_mr* mr = nullptr;
  std::unique_ptr<std::uint8_t[]> buffer;  ///< rqDepth slots, not written before the device does
  std::size_t bufferBytes = 0;
  std::uint32_t slot = 0;
  unsigned events = 0;  ///< completion events to acknowledge before the CQ is destroyed
  struct Done {
    std::uint64_t wrId;
    ibv_wc_status status;
    std::uint32_t length;
    std::int64_t ns;
  };
  std::deque<Done> ready;
  std::int64_t repost = -1;  ///< the slot of the frame handed out last, reposted on the next call
  std::uint64_t received = 0;
  std::uint64_t errors = 0;
  std::uint64_t overrunsAtStart = 0;
  bool overrunsKnown = false;

  int postSlot(std::uint64_t index) {
    ibv_sge sge{};
    sge.addr = reinterpret_cast<std::uintptr_t>(buffer.get() + index * slot);
    sge.length = slot;
    sge.lkey = mr->lkey;
    ibv_recv_wr wr{};
    wr.wr_id = index;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    ibv_recv_wr* bad = nullptr;
    return ibv_post_recv(qp, &wr, &bad);
  }

  std::int64_t hardwareNs(std::uint64_t ticks) const {
    if (wallclock) return static_cast<std::int64_t>(ticks);
    const auto delta = static_cast<long double>(ticks - rawBaseTicks);
    return rawBaseNs + static_cast<std::int64_t>(delta * 1e6L / static_cast<long double>(hcaKhz));
  }

  // Takes what the CQ holds into `ready`; false with errno on a failed poll.
  bool harvest() {
    if (cqx) {
      ibv_poll_cq_attr attr{};
      int rc = ibv_start_poll(cqx, &attr);
      if (rc == ENOENT) return true;
      if (rc != 0) {
        errno = rc;
        return false;
      }
      // Each ibv_next_poll moves to a new completion, so the batch ends after a read, never
      // after a next_poll whose completion would be lost.
      for (int n = 0; rc == 0; ++n) {
        const std::uint64_t ticks =
            wallclock ? ibv_wc_read_completion_wallclock_ns(cqx) : ibv_wc_read_completion_ts(cqx);
        ready.push_back({cqx->wr_id, cqx->status, ibv_wc_read_byte_len(cqx), hardwareNs(ticks)});
        if (n == 255) break;
        rc = ibv_next_poll(cqx);
      }
      ibv_end_poll(cqx);
      return rc == 0 || rc == ENOENT;
    }
    ibv_wc wc[32];
    const int n = ibv_poll_cq(cq, 32, wc);
    if (n < 0) {
      errno = EIO;
      return false;
    }
    const std::int64_t ns = nowNs(CLOCK_REALTIME);
    for (int i = 0; i < n; ++i)
      ready.push_back({wc[i].wr_id, wc[i].status, wc[i].byte_len, ns});
    return true;
  }

  ~Impl() {
    if (flow) ibv_destroy_flow(flow);
    if (qp) ibv_destroy_qp(qp);
    if (mr) ibv_dereg_mr(mr);
    if (cq) {
      if (events) ibv_ack_cq_events(cq, events);
      ibv_destroy_cq(cq);
    }
    if (channel) ibv_destroy_comp_channel(channel);
    if (pd) ibv_dealloc_pd(pd);
    if (ctx) ibv_close_device(ctx);
    delete devices;
  }
};

VerbsSniffer::VerbsSniffer() : impl_(std::make_unique<Impl>()) {}

VerbsSniffer::~VerbsSniffer() {
  impl_.reset();
  if (wakeFd_ >= 0) ::close(wakeFd_);
}

std::vector<RdmaDeviceInfo> VerbsSniffer::listDevices() {
  std::vector<RdmaDeviceInfo> out;
  DeviceList devices;
  for (int i = 0; devices.list && i < devices.count; ++i) {
    ibv_device* d = devices.list[i];
    RdmaDeviceInfo info;
    info.name = ibv_get_device_name(d);
    info.netdev = sysfsText(d, "ports/1/gid_attrs/ndevs/0");
    if (ibv_context* ctx = ibv_open_device(d)) {
      ibv_port_attr port{};
      if (ibv_query_port(ctx, kPort, &port) == 0) {
        info.linkLayer = port.link_layer == IBV_LINK_LAYER_INFINIBAND ? "InfiniBand" : "Ethernet";
        info.active = port.state == IBV_PORT_ACTIVE;
      }
      ibv_close_device(ctx);
    }
    out.push_back(std::move(info));
  }
  return out;
}

bool VerbsSniffer::isDevice(const std::string& name) {
  DeviceList devices;
  return devices.find(name) != nullptr;
}

std::unique_ptr<VerbsSniffer> VerbsSniffer::open(const std::string& name, std::string& error,
                                                 const SnifferOptions& options) {
  error.clear();
  std::unique_ptr<VerbsSniffer> s(new VerbsSniffer());
  Impl& m = *s->impl_;
  s->name_ = name;
  m.devices = new DeviceList();
  m.device = m.devices->find(name);
  if (!m.device) {
    error = "no such RDMA device: " + name + " (rdmascope-cli capture -D lists them)";
    return nullptr;
  }
  if (options.rqDepth == 0 || options.slotBytes < 64) {
    error = "the receive queue needs at least 1 WQE of at least 64 bytes";
    return nullptr;
  }
  const std::string netdev = sysfsText(m.device, "ports/1/gid_attrs/ndevs/0");
  const auto failed = [&](const std::string& what, int e) {
    if (e == EPERM || e == EACCES) {
      error = permissionAdvice(name);
    } else if (e == EOPNOTSUPP || e == ENOSYS || e == EPROTONOSUPPORT || e == EINVAL) {
      error = noSnifferSupport(name, netdev);
    } else {
      error = "cannot capture on " + name + ": " + what + ": " + std::strerror(e);
    }
    return nullptr;
  };
  m.ctx = ibv_open_device(m.device);
  if (!m.ctx) return failed("ibv_open_device", errno);
  ibv_port_attr port{};
  if (ibv_query_port(m.ctx, kPort, &port) != 0) return failed("ibv_query_port", errno);
  s->infiniband_ = port.link_layer == IBV_LINK_LAYER_INFINIBAND;
  m.pd = ibv_alloc_pd(m.ctx);
  if (!m.pd) return failed("ibv_alloc_pd", errno);
  m.channel = ibv_create_comp_channel(m.ctx);
  if (!m.channel) return failed("ibv_create_comp_channel", errno);

  // A CQ with the device's completion timestamps where it has them: wall-clock ns if it
  // converts them itself, else raw ticks of hca_core_clock aligned once with the host's clock.
  ibv_device_attr limits{};
  if (ibv_query_device(m.ctx, &limits) != 0) return failed("ibv_query_device", errno);
  const auto most = static_cast<std::uint32_t>(std::min(limits.max_qp_wr, limits.max_cqe));
  if (options.rqDepth > most) {
    error = "cannot capture on " + name + ": a receive queue of " +
            std::to_string(options.rqDepth) + " WQEs is more than the device holds (" +
            std::to_string(most) + ": max_qp_wr " + std::to_string(limits.max_qp_wr) +
            ", max_cqe " + std::to_string(limits.max_cqe) + ")";
    return nullptr;
  }
  const int cqe = static_cast<int>(options.rqDepth);
  ibv_device_attr_ex dev{};
  const bool clock = options.hardwareTimestamps && ibv_query_device_ex(m.ctx, nullptr, &dev) == 0 &&
                     dev.completion_timestamp_mask != 0 && dev.hca_core_clock != 0;
  if (clock) {
    for (const bool wall : {true, false}) {
      ibv_cq_init_attr_ex attr{};
      attr.cqe = static_cast<std::uint32_t>(cqe);
      attr.channel = m.channel;
      attr.wc_flags =
          IBV_WC_EX_WITH_BYTE_LEN | (wall ? IBV_WC_EX_WITH_COMPLETION_TIMESTAMP_WALLCLOCK
                                          : IBV_WC_EX_WITH_COMPLETION_TIMESTAMP);
      ibv_values_ex values{};
      values.comp_mask = IBV_VALUES_MASK_RAW_CLOCK;
      if (!wall && ibv_query_rt_values_ex(m.ctx, &values) != 0) continue;
      m.cqx = ibv_create_cq_ex(m.ctx, &attr);
      if (!m.cqx) continue;
      m.wallclock = wall;
      m.hcaKhz = dev.hca_core_clock;
      if (!wall) {
        m.rawBaseTicks = static_cast<std::uint64_t>(values.raw_clock.tv_sec) * 1'000'000'000ull +
                         static_cast<std::uint64_t>(values.raw_clock.tv_nsec);
        m.rawBaseNs = nowNs(CLOCK_REALTIME);
      }
      m.cq = ibv_cq_ex_to_cq(m.cqx);
      s->timestamps_ = TimestampSource::Hardware;
      break;
    }
  }
  if (!m.cq) {
    m.cq = ibv_create_cq(m.ctx, cqe, nullptr, m.channel, 0);
    if (!m.cq) return failed("ibv_create_cq", errno);
  }

  ibv_qp_init_attr init{};
  init.send_cq = m.cq;
  init.recv_cq = m.cq;
  init.qp_type = IBV_QPT_RAW_PACKET;
  init.cap.max_recv_wr = options.rqDepth;
  init.cap.max_recv_sge = 1;
  init.cap.max_send_wr = 1;
  init.cap.max_send_sge = 1;
  m.qp = ibv_create_qp(m.pd, &init);
  if (!m.qp) return failed("ibv_create_qp(RAW_PACKET)", errno);
  ibv_qp_attr attr{};
  attr.qp_state = IBV_QPS_INIT;
  attr.port_num = kPort;
  if (ibv_modify_qp(m.qp, &attr, IBV_QP_STATE | IBV_QP_PORT) != 0) {
    return failed("ibv_modify_qp(INIT)", errno);
  }
  attr = ibv_qp_attr{};
  attr.qp_state = IBV_QPS_RTR;
  if (ibv_modify_qp(m.qp, &attr, IBV_QP_STATE) != 0) return failed("ibv_modify_qp(RTR)", errno);

  m.slot = options.slotBytes;
  m.bufferBytes = std::size_t{options.rqDepth} * m.slot;
  m.buffer.reset(new (std::nothrow) std::uint8_t[m.bufferBytes]);
  if (!m.buffer) return failed("allocating the receive buffers", ENOMEM);
  // (an int: verbs.h's ibv_reg_mr macro ORs the access with another enum type)
  m.mr = ibv_reg_mr(m.pd, m.buffer.get(), m.bufferBytes, static_cast<int>(IBV_ACCESS_LOCAL_WRITE));
  if (!m.mr) return failed("ibv_reg_mr", errno);
  for (std::uint32_t i = 0; i < options.rqDepth; ++i) {
    if (const int rc = m.postSlot(i); rc != 0) return failed("ibv_post_recv", rc);
  }
  if (ibv_req_notify_cq(m.cq, 0) != 0) return failed("ibv_req_notify_cq", errno);

  m.overrunsKnown = readCounter(m.device, kOutOfBuffer, m.overrunsAtStart);
  ibv_flow_attr flowAttr{};
  flowAttr.type = IBV_FLOW_ATTR_SNIFFER;
  flowAttr.size = sizeof flowAttr;
  flowAttr.port = kPort;
  m.flow = ibv_create_flow(m.qp, &flowAttr);
  if (!m.flow) return failed("ibv_create_flow(SNIFFER)", errno);

  s->wakeFd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  const int flags = ::fcntl(m.channel->fd, F_GETFL);
  ::fcntl(m.channel->fd, F_SETFL, flags | O_NONBLOCK);
  return s;
}

void VerbsSniffer::stop() {
  stopped_.store(true);
  if (wakeFd_ >= 0) {
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto n = ::write(wakeFd_, &one, sizeof one);
  }
}

VerbsSniffer::Result VerbsSniffer::next(SniffedFrame& frame, int timeoutMs) {
  using Clock = std::chrono::steady_clock;
  Impl& m = *impl_;
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeoutMs < 0 ? 0 : timeoutMs);
  if (m.repost >= 0) {
    const int rc = m.postSlot(static_cast<std::uint64_t>(m.repost));
    m.repost = -1;
    if (rc != 0) {
      error_ = "capture on " + name_ + " failed: ibv_post_recv: " + std::strerror(rc);
      return Result::Error;
    }
  }
  for (;;) {
    // What the device completed before the stop is still handed out (it was captured); then
    // Stopped.
    const bool stopping = stopped_.load();
    if (stopping && !drained_) {
      drained_ = true;
      if (!m.harvest()) return Result::Stopped;
    }
    while (!m.ready.empty()) {
      const Impl::Done d = m.ready.front();
      m.ready.pop_front();
      if (d.status != IBV_WC_SUCCESS) {
        if (d.status == IBV_WC_WR_FLUSH_ERR) continue;
        ++m.errors;
        if (const int rc = m.postSlot(d.wrId); rc != 0) {
          error_ = "capture on " + name_ + " failed: ibv_post_recv: " + std::strerror(rc);
          return Result::Error;
        }
        continue;
      }
      ++m.received;
      const std::uint32_t length = std::min(d.length, m.slot);
      frame.data = {m.buffer.get() + d.wrId * m.slot, length};
      frame.originalLength = d.length;
      frame.timestampNs = d.ns;
      m.repost = static_cast<std::int64_t>(d.wrId);
      return Result::Frame;
    }
    if (stopping) return Result::Stopped;
    if (!m.harvest()) {
      error_ = "capture on " + name_ + " failed: polling the CQ: " + std::strerror(errno);
      return Result::Error;
    }
    if (!m.ready.empty()) continue;
    int wait = -1;
    if (timeoutMs >= 0) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) return Result::Timeout;
      wait = static_cast<int>(left);
    }
    pollfd fds[2] = {{m.channel->fd, POLLIN, 0}, {wakeFd_, POLLIN, 0}};
    if (::poll(fds, 2, wait) < 0 && errno != EINTR) {
      error_ = "capture on " + name_ + " failed: " + std::strerror(errno);
      return Result::Error;
    }
    if (fds[0].revents & POLLIN) {
      ibv_cq* evCq = nullptr;
      void* evCtx = nullptr;
      if (ibv_get_cq_event(m.channel, &evCq, &evCtx) == 0) {
        ++m.events;
        if (m.events >= 1024) {
          ibv_ack_cq_events(m.cq, m.events);
          m.events = 0;
        }
        ibv_req_notify_cq(m.cq, 0);
      }
    }
  }
}

SnifferStats VerbsSniffer::stats() const {
  const Impl& m = *impl_;
  SnifferStats s;
  s.received = m.received;
  s.errors = m.errors;
  std::uint64_t now = 0;
  if (m.overrunsKnown && readCounter(m.device, kOutOfBuffer, now)) {
    s.dropsKnown = true;
    s.dropped = now >= m.overrunsAtStart ? now - m.overrunsAtStart : 0;
  }
  return s;
}

}  // namespace rdmascope::verbs_backend
