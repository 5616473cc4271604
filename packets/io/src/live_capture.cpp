#include "rdmascope/packets_io/live_capture.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pcap/pcap.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "link_type_map.h"

namespace rdmascope::packets_io {
namespace detail {
struct PcapHandle {
  pcap_t* p = nullptr;
};
}  // namespace detail

namespace {

std::string addressText(const sockaddr* sa) {
  char buf[INET6_ADDRSTRLEN] = {};
  if (!sa) return {};
  if (sa->sa_family == AF_INET)
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(sa)->sin_addr, buf, sizeof buf);
  else if (sa->sa_family == AF_INET6)
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(sa)->sin6_addr, buf, sizeof buf);
  return buf;
}

std::string permissionAdvice(const std::string& name) {
  return "no permission to capture on " + name +
         ": run as root or grant CAP_NET_RAW and CAP_NET_ADMIN "
         "(setcap cap_net_raw,cap_net_admin=eip rdmascope-cli)";
}

}  // namespace

std::vector<InterfaceInfo> LiveCapture::listInterfaces(std::string& error) {
  error.clear();
  char errbuf[PCAP_ERRBUF_SIZE] = {};
  pcap_if_t* all = nullptr;
  if (pcap_findalldevs(&all, errbuf) != 0) {
    error = std::string("cannot list capture interfaces: ") + errbuf;
    return {};
  }
  std::vector<InterfaceInfo> out;
  for (pcap_if_t* d = all; d; d = d->next) {
    InterfaceInfo info;
    info.name = d->name;
    info.loopback = d->flags & PCAP_IF_LOOPBACK;
    info.up = d->flags & PCAP_IF_UP;
    info.running = d->flags & PCAP_IF_RUNNING;
    for (pcap_addr_t* a = d->addresses; a; a = a->next)
      if (auto text = addressText(a->addr); !text.empty()) info.addresses.push_back(text);
    if (d->description) {
      info.description = d->description;
    } else {
      info.description = info.loopback ? "Loopback" : "";
      const char* state = info.running ? "running" : info.up ? "up" : "down";
      info.description += (info.description.empty() ? "" : ", ") + std::string(state);
    }
    out.push_back(std::move(info));
  }
  pcap_freealldevs(all);
  return out;
}

std::unique_ptr<LiveCapture> LiveCapture::open(const std::string& name, std::string& error,
                                               const LiveOptions& options) {
  error.clear();
  char errbuf[PCAP_ERRBUF_SIZE] = {};
  pcap_t* p = pcap_create(name.c_str(), errbuf);
  if (!p) {
    error = "cannot capture on " + name + ": " + errbuf;
    return nullptr;
  }
  pcap_set_snaplen(p, static_cast<int>(options.snapLength));
  pcap_set_promisc(p, options.promiscuous ? 1 : 0);
  pcap_set_immediate_mode(p, 1);
  pcap_set_buffer_size(p, options.bufferBytes);
  pcap_set_tstamp_precision(p, PCAP_TSTAMP_PRECISION_NANO);
  const int rc = pcap_activate(p);
  if (rc < 0) {
    const std::string why = pcap_geterr(p);
    switch (rc) {
      case PCAP_ERROR_NO_SUCH_DEVICE:
        error = "no such capture interface: " + name + " (rdmascope-cli capture -D lists them)";
        break;
      case PCAP_ERROR_PERM_DENIED:
        error = permissionAdvice(name);
        break;
      case PCAP_ERROR_IFACE_NOT_UP:
        error = "cannot capture on " + name + ": the interface is down";
        break;
      default:
        error = "cannot capture on " + name + ": " + why;
    }
    pcap_close(p);
    return nullptr;
  }
  if (!options.filter.empty()) {
    bpf_program program{};
    if (pcap_compile(p, &program, options.filter.c_str(), 1, PCAP_NETMASK_UNKNOWN) != 0) {
      error = "invalid capture filter '" + options.filter + "': " + pcap_geterr(p);
      pcap_close(p);
      return nullptr;
    }
    const int set = pcap_setfilter(p, &program);
    pcap_freecode(&program);
    if (set != 0) {
      error = "cannot set capture filter on " + name + ": " + pcap_geterr(p);
      pcap_close(p);
      return nullptr;
    }
  }
  if (pcap_setnonblock(p, 1, errbuf) != 0) {
    error = "cannot capture on " + name + ": " + errbuf;
    pcap_close(p);
    return nullptr;
  }
  std::unique_ptr<LiveCapture> c(new LiveCapture);
  c->pcap_ = new detail::PcapHandle{p};
  c->wakeFd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  c->linkType_ = linkTypeFromDlt(pcap_datalink(p));
  c->name_ = name;
  return c;
}

LiveCapture::~LiveCapture() {
  if (pcap_) {
    pcap_close(pcap_->p);
    delete pcap_;
  }
  if (wakeFd_ >= 0) ::close(wakeFd_);
}

void LiveCapture::stop() {
  stopped_.store(true);
  if (wakeFd_ >= 0) {
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto n = ::write(wakeFd_, &one, sizeof one);
  }
}

LiveCapture::Result LiveCapture::next(FrameView& frame, int timeoutMs) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::milliseconds(timeoutMs < 0 ? 0 : timeoutMs);
  const int fd = pcap_get_selectable_fd(pcap_->p);
  for (;;) {
    if (stopped_.load()) return Result::Stopped;
    pcap_pkthdr* header = nullptr;
    const u_char* data = nullptr;
    const int rc = pcap_next_ex(pcap_->p, &header, &data);
    if (rc == 1) {
      frame.data = {data, header->caplen};
      frame.originalLength = header->len;
      frame.timestampNs =
          std::int64_t{header->ts.tv_sec} * 1'000'000'000 + std::int64_t{header->ts.tv_usec};
      return Result::Frame;
    }
    if (rc < 0) {
      error_ = "capture on " + name_ + " failed: " + pcap_geterr(pcap_->p);
      return Result::Error;
    }
    int wait = -1;
    if (timeoutMs >= 0) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) return Result::Timeout;
      wait = static_cast<int>(left);
    }
    // libpcap's ring can hold frames the poll on its descriptor does not announce (a partly
    // consumed block), so wake at least every 100 ms and ask again.
    if (wait < 0 || wait > 100) wait = 100;
    pollfd fds[2] = {{fd, POLLIN, 0}, {wakeFd_, POLLIN, 0}};
    if (::poll(fds, 2, wait) < 0 && errno != EINTR) {
      error_ = "capture on " + name_ + " failed: " + std::strerror(errno);
      return Result::Error;
    }
  }
}

LiveStats LiveCapture::stats() const {
  pcap_stat s{};
  if (pcap_stats(pcap_->p, &s) != 0) return {};
  return {s.ps_recv, s.ps_drop, s.ps_ifdrop};
}

}  // namespace rdmascope::packets_io
