// The device: its list, its contexts, and the queries of device, port and GID table.
#include <endian.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>
#include <string>

#include "context.h"
#include "device_attributes.h"

#undef ibv_query_port

using namespace rdmascope::ibverbs;
using rdmascope::simdev::FabricHost;
using rdmascope::simdev::Nic;
namespace sim = rdmascope::sim;

namespace {

constexpr std::uint8_t kPort = 1;

// The one device; it lives as long as the process (contexts point at it).
ibv_device* theDevice() {
  static ibv_device* device = [] {
    Nic* n = nic();
    if (!n) return static_cast<ibv_device*>(nullptr);
    auto* d = new ibv_device{};
    d->node_type = IBV_NODE_CA;
    d->transport_type = IBV_TRANSPORT_IB;
    std::snprintf(d->name, sizeof(d->name), "%s", n->info().deviceName.c_str());
    std::snprintf(d->dev_name, sizeof(d->dev_name), "uverbs0");
    std::snprintf(d->dev_path, sizeof(d->dev_path), "/sys/class/infiniband_verbs/uverbs0");
    std::snprintf(d->ibdev_path, sizeof(d->ibdev_path), "/sys/class/infiniband/%s", d->name);
    return d;
  }();
  return device;
}

bool ownDevice(ibv_device* device) {
  return device && device == theDevice();
}

std::uint32_t gidType(const Nic& n, int index) {
  if (index == 0 || n.info().wire == sim::WireFormat::RoceV1) return IBV_GID_TYPE_ROCE_V1;
  return IBV_GID_TYPE_ROCE_V2;
}

// 0 with the entry, ENODATA for an empty slot of the table, EINVAL outside it.
int gidEntry(ibv_context* context, std::uint32_t port, std::uint32_t index, ibv_gid_entry& out) {
  if (port != kPort || index >= sim::limits::kPortGidTableLength) return EINVAL;
  Nic& n = nicOf(context);
  sim::Gid g{};
  if (!n.gid(static_cast<int>(index), g)) return ENODATA;
  out = ibv_gid_entry{};
  std::memcpy(out.gid.raw, g.data(), g.size());
  out.gid_index = index;
  out.port_num = port;
  out.gid_type = gidType(n, static_cast<int>(index));
  out.ndev_ifindex = 0;
  return 0;
}

std::string sysfsValue(const Nic& n, std::string_view file) {
  auto guidText = [](std::uint64_t guidBe) {
    const std::uint64_t g = be64toh(guidBe);
    return fmt::format("{:04x}:{:04x}:{:04x}:{:04x}", (g >> 48) & 0xffff, (g >> 32) & 0xffff,
                       (g >> 16) & 0xffff, g & 0xffff);
  };
  if (file == "node_type") return "1: CA";
  if (file == "node_guid" || file == "sys_image_guid") return guidText(nodeGuid(n));
  if (file == "fw_ver") return "0.0.0";
  if (file == "ports/1/link_layer") return "Ethernet";
  if (file == "ports/1/state") return "4: ACTIVE";
  if (file == "ports/1/hw_counters/out_of_buffer") return std::to_string(outOfBufferCount());
  constexpr std::string_view kTypes = "ports/1/gid_attrs/types/";
  constexpr std::string_view kGids = "ports/1/gids/";
  const bool isType = file.substr(0, kTypes.size()) == kTypes;
  const bool isGid = file.substr(0, kGids.size()) == kGids;
  if (isType || isGid) {
    const std::string number(file.substr(isType ? kTypes.size() : kGids.size()));
    if (number.empty() || number.find_first_not_of("0123456789") != std::string::npos) return {};
    const int index = std::atoi(number.c_str());
    sim::Gid g{};
    if (!n.gid(index, g)) return {};
    if (isType) return gidType(n, index) == IBV_GID_TYPE_ROCE_V2 ? "RoCE v2" : "IB/RoCE v1";
    std::string text;
    for (std::size_t i = 0; i < g.size(); i += 2) {
      if (i) text += ':';
      text += fmt::format("{:02x}{:02x}", g[i], g[i + 1]);
    }
    return text;
  }
  return {};
}

int queryPortEx(ibv_context* context, uint8_t port, ibv_port_attr* attr, size_t size) {
  if (port != kPort) return fail("ibv_query_port", EINVAL, fmt::format("no port {}", port));
  ibv_port_attr full;
  fillPortAttr(nicOf(context), full);
  std::memcpy(attr, &full, std::min(size, sizeof(full)));
  return 0;
}

int queryDeviceEx(ibv_context* context, const ibv_query_device_ex_input* input,
                  ibv_device_attr_ex* attr, size_t size) {
  if (input && input->comp_mask) {
    return fail("ibv_query_device_ex", EINVAL, "comp_mask of the input must be 0");
  }
  ibv_device_attr_ex full{};
  fillDeviceAttr(nicOf(context), full.orig_attr);
  full.phys_port_cnt_ex = 1;
  // The completion clock (extended CQs) counts ns of Unix time: 1 GHz, 64 bits.
  full.completion_timestamp_mask = ~std::uint64_t{0};
  full.hca_core_clock = 1'000'000;  // kHz
  std::memcpy(attr, &full, std::min(size, sizeof(full)));
  return 0;
}

}  // namespace

namespace rdmascope::ibverbs {

ibv_context* openContext(ibv_device* device) {
  Nic* n = nic();
  if (!n || !ownDevice(device)) {
    errno = ENODEV;
    return nullptr;
  }
  auto* c = new (std::nothrow) Context{};
  if (!c) {
    errno = ENOMEM;
    return nullptr;
  }
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    const int e = errno;
    delete c;
    errno = e;
    return nullptr;
  }
  // The hook writes under the NIC's lock: it must never block on a full pipe.
  ::fcntl(fds[1], F_SETFL, ::fcntl(fds[1], F_GETFL) | O_NONBLOCK);
  c->asyncWriteFd = fds[1];
  verbs_context& v = c->vctx;
  v.sz = sizeof(verbs_context);
  v.query_port = queryPortEx;
  v.query_device_ex = queryDeviceEx;
  initVerbsContextOps(v);
  ibv_context& ctx = v.context;
  ctx.device = device;
  initDataPathOps(ctx.ops);
  ctx.cmd_fd = -1;
  ctx.async_fd = fds[0];
  ctx.num_comp_vectors = 1;
  pthread_mutex_init(&ctx.mutex, nullptr);
  ctx.abi_compat = __VERBS_ABI_IS_EXTENDED;
  installEventListeners(*n);
  return &ctx;
}

void closeContext(Context* c) {
  ::close(c->vctx.context.async_fd);
  ::close(c->asyncWriteFd);
  pthread_mutex_destroy(&c->vctx.context.mutex);
  delete c;
}

}  // namespace rdmascope::ibverbs

RDMASCOPE_IBV_EXPORT ibv_device** ibv_get_device_list(int* num_devices) {
  auto** list = static_cast<ibv_device**>(std::calloc(2, sizeof(ibv_device*)));
  if (!list) {
    errno = ENOMEM;
    return nullptr;
  }
  list[0] = theDevice();
  if (num_devices) *num_devices = list[0] ? 1 : 0;
  return list;
}

RDMASCOPE_IBV_EXPORT void ibv_free_device_list(ibv_device** list) {
  std::free(list);
}

RDMASCOPE_IBV_EXPORT const char* ibv_get_device_name(ibv_device* device) {
  return device ? device->name : nullptr;
}

RDMASCOPE_IBV_EXPORT int ibv_get_device_index(ibv_device*) {
  return -1;  // no kernel device behind it, as rdma-core says without netlink
}

RDMASCOPE_IBV_EXPORT __be64 ibv_get_device_guid(ibv_device* device) {
  if (!ownDevice(device)) return 0;
  return nodeGuid(*nic());
}

RDMASCOPE_IBV_EXPORT ibv_context* ibv_open_device(ibv_device* device) {
  return openContext(device);
}

RDMASCOPE_IBV_EXPORT int ibv_close_device(ibv_context* context) {
  closeContext(toContext(context));
  return 0;
}

RDMASCOPE_IBV_EXPORT int ibv_query_device(ibv_context* context, ibv_device_attr* attr) {
  fillDeviceAttr(nicOf(context), *attr);
  return 0;
}

RDMASCOPE_IBV_EXPORT int ibv_query_port(ibv_context* context, uint8_t port_num,
                                        struct _compat_ibv_port_attr* attr) {
  return queryPortEx(context, port_num, reinterpret_cast<ibv_port_attr*>(attr),
                     sizeof(ibv_port_attr));
}

RDMASCOPE_IBV_EXPORT int ibv_query_gid(ibv_context* context, uint8_t port_num, int index,
                                       ibv_gid* gid) {
  ibv_gid_entry entry{};
  const int rc =
      index < 0 ? EINVAL : gidEntry(context, port_num, static_cast<std::uint32_t>(index), entry);
  if (rc == ENODATA) {
    std::memset(gid, 0, sizeof(*gid));
    return 0;
  }
  if (rc) {
    errno = rc;
    return -1;
  }
  *gid = entry.gid;
  return 0;
}

RDMASCOPE_IBV_EXPORT int _ibv_query_gid_ex(ibv_context* context, uint32_t port_num,
                                           uint32_t gid_index, ibv_gid_entry* entry, uint32_t flags,
                                           size_t entry_size) {
  if (flags) return EINVAL;
  ibv_gid_entry full{};
  const int rc = gidEntry(context, port_num, gid_index, full);
  if (rc) return rc;
  std::memcpy(entry, &full, std::min(entry_size, sizeof(full)));
  return 0;
}

RDMASCOPE_IBV_EXPORT ssize_t _ibv_query_gid_table(ibv_context* context, ibv_gid_entry* entries,
                                                  size_t max_entries, uint32_t flags,
                                                  size_t entry_size) {
  if (flags || entry_size < sizeof(ibv_gid_entry)) return -EINVAL;
  size_t n = 0;
  for (std::uint32_t i = 0; i < sim::limits::kPortGidTableLength; ++i) {
    ibv_gid_entry e{};
    if (gidEntry(context, kPort, i, e) != 0) continue;
    if (n == max_entries) return -EINVAL;
    std::memcpy(reinterpret_cast<std::uint8_t*>(entries) + n * entry_size, &e, sizeof(e));
    ++n;
  }
  return static_cast<ssize_t>(n);
}

RDMASCOPE_IBV_EXPORT int ibv_query_gid_type(ibv_context* context, uint8_t port_num,
                                            unsigned int index, ibv_gid_type_sysfs* type) {
  ibv_gid_entry entry{};
  const int rc = gidEntry(context, port_num, index, entry);
  if (rc == ENODATA) {
    *type = IBV_GID_TYPE_SYSFS_IB_ROCE_V1;
    return 0;
  }
  if (rc) {
    errno = rc;
    return -1;
  }
  *type = entry.gid_type == IBV_GID_TYPE_ROCE_V2 ? IBV_GID_TYPE_SYSFS_ROCE_V2
                                                 : IBV_GID_TYPE_SYSFS_IB_ROCE_V1;
  return 0;
}

RDMASCOPE_IBV_EXPORT int ibv_query_pkey(ibv_context*, uint8_t port_num, int index, __be16* pkey) {
  if (port_num != kPort || index < 0 || index >= sim::limits::kPortPkeyTableLength) {
    errno = EINVAL;
    return -1;
  }
  *pkey = index == 0 ? htobe16(0xffff) : 0;  // the default P_Key, the rest of the table empty
  return 0;
}

RDMASCOPE_IBV_EXPORT int ibv_get_pkey_index(ibv_context*, uint8_t port_num, __be16 pkey) {
  if (port_num == kPort && pkey == htobe16(0xffff)) return 0;
  errno = ENOENT;
  return -1;
}

RDMASCOPE_IBV_EXPORT int ibv_resolve_eth_l2_from_gid(ibv_context* context, ibv_ah_attr* attr,
                                                     uint8_t eth_mac[6], uint16_t* vid) {
  if (!attr->is_global) {
    errno = EINVAL;
    return EINVAL;
  }
  sim::Gid dgid{};
  std::memcpy(dgid.data(), attr->grh.dgid.raw, dgid.size());
  for (const FabricHost& h : nicOf(context).info().hosts) {
    if (dgid == sim::ipv4MappedGid(h.ipv4) || dgid == h.ipv6 || dgid == sim::linkLocalGid(h.mac)) {
      std::memcpy(eth_mac, h.mac.data(), 6);
      if (vid) *vid = 0xffff;
      return 0;
    }
  }
  return fail("ibv_resolve_eth_l2_from_gid", EHOSTUNREACH, "no host of the fabric has that GID");
}

RDMASCOPE_IBV_EXPORT const char* ibv_get_sysfs_path(void) {
  return "/sys";
}

RDMASCOPE_IBV_EXPORT int ibv_read_sysfs_file(const char* dir, const char* file, char* buf,
                                             size_t size) {
  if (size == 0) {
    errno = EINVAL;
    return -1;
  }
  ibv_device* own = theDevice();
  if (own && std::strcmp(dir, own->ibdev_path) == 0) {
    const std::string value = sysfsValue(*nic(), file);
    if (value.empty()) {
      errno = ENOENT;
      return -1;
    }
    std::snprintf(buf, size, "%s", value.c_str());
    return static_cast<int>(std::min(value.size(), size - 1));
  }
  const std::string path = fmt::format("{}/{}", dir, file);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  const ssize_t len = ::read(fd, buf, size);
  ::close(fd);
  if (len <= 0) return -1;
  std::size_t n = static_cast<std::size_t>(len);
  if (n == size) {
    buf[size - 1] = '\0';
    n = size - 1;
  } else {
    buf[n] = '\0';
  }
  while (n > 0 && buf[n - 1] == '\n')
    buf[--n] = '\0';
  return static_cast<int>(n);
}

RDMASCOPE_IBV_EXPORT int ibv_fork_init(void) {
  return 0;
}

RDMASCOPE_IBV_EXPORT ibv_fork_status ibv_is_fork_initialized(void) {
  return IBV_FORK_UNNEEDED;
}

RDMASCOPE_IBV_EXPORT int ibv_dontfork_range(void*, size_t) {
  return 0;
}

RDMASCOPE_IBV_EXPORT int ibv_dofork_range(void*, size_t) {
  return 0;
}
