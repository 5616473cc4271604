// rdma_getaddrinfo over getaddrinfo, as rdma-core's addrinfo.c converts between the two, and
// rpoll for programs that take it for poll (the simulated library has no rsockets: every fd is
// an ordinary one). The fabric's host names (host1, host2, ...) resolve to their addresses.
#include <arpa/inet.h>
#include <netdb.h>
#include <poll.h>
#include <rdma/rdma_cma.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "cm_library.h"

#define RDMACM_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

int copyAddr(sockaddr** to, socklen_t* toLen, const sockaddr* from, socklen_t len) {
  *to = static_cast<sockaddr*>(std::calloc(1, len));
  if (*to == nullptr) return EAI_MEMORY;
  std::memcpy(*to, from, len);
  *toLen = len;
  return 0;
}

// "hostN" of the fabric as its dotted address; anything else unchanged.
std::string fabricName(const char* node) {
  if (node == nullptr) return {};
  std::string error;
  auto* lib = rdmascope::simdev::rdmacm::Library::get(error);
  if (lib != nullptr) {
    for (const auto& h : lib->info.hosts) {
      if (h.name != node) continue;
      in_addr a{htonl(h.ipv4)};
      char b[INET_ADDRSTRLEN] = {};
      inet_ntop(AF_INET, &a, b, sizeof b);
      return b;
    }
  }
  return node;
}

}  // namespace

RDMACM_EXPORT int rdma_getaddrinfo(const char* node, const char* service,
                                   const rdma_addrinfo* hints, rdma_addrinfo** res) {
  if (res == nullptr || (node == nullptr && service == nullptr && hints == nullptr)) {
    errno = EINVAL;
    return -1;
  }
  static const rdma_addrinfo kNoHints{};
  if (hints == nullptr) hints = &kNoHints;
  auto* rai = static_cast<rdma_addrinfo*>(std::calloc(1, sizeof(rdma_addrinfo)));
  if (rai == nullptr) return EAI_MEMORY;
  int ret = 0;
  if (node != nullptr || service != nullptr) {
    addrinfo aiHints{};
    if (hints->ai_flags & RAI_PASSIVE) aiHints.ai_flags |= AI_PASSIVE;
    if (hints->ai_flags & RAI_NUMERICHOST) aiHints.ai_flags |= AI_NUMERICHOST;
    aiHints.ai_family = hints->ai_family;
    if (hints->ai_qp_type == IBV_QPT_RC) aiHints.ai_socktype = SOCK_STREAM;
    if (hints->ai_qp_type == IBV_QPT_UD) aiHints.ai_socktype = SOCK_DGRAM;
    if (hints->ai_port_space == RDMA_PS_TCP) aiHints.ai_protocol = IPPROTO_TCP;
    if (hints->ai_port_space == RDMA_PS_UDP) aiHints.ai_protocol = IPPROTO_UDP;
    const std::string name = fabricName(node);
    addrinfo* ai = nullptr;
    ret = getaddrinfo(node != nullptr ? name.c_str() : nullptr, service, &aiHints, &ai);
    if (ret == 0) {
      rai->ai_qp_type = hints->ai_qp_type != 0          ? hints->ai_qp_type
                        : ai->ai_socktype == SOCK_DGRAM ? IBV_QPT_UD
                                                        : IBV_QPT_RC;
      rai->ai_port_space = hints->ai_port_space != 0        ? hints->ai_port_space
                           : ai->ai_protocol == IPPROTO_UDP ? RDMA_PS_UDP
                                                            : RDMA_PS_TCP;
      rai->ai_family = ai->ai_family;
      if (ai->ai_flags & AI_PASSIVE) {
        rai->ai_flags = RAI_PASSIVE;
        ret = copyAddr(&rai->ai_src_addr, &rai->ai_src_len, ai->ai_addr, ai->ai_addrlen);
      } else {
        ret = copyAddr(&rai->ai_dst_addr, &rai->ai_dst_len, ai->ai_addr, ai->ai_addrlen);
      }
      freeaddrinfo(ai);
    }
  } else {
    rai->ai_flags = hints->ai_flags;
    rai->ai_family = hints->ai_family;
    rai->ai_qp_type = hints->ai_qp_type;
    rai->ai_port_space = hints->ai_port_space;
    if (hints->ai_dst_len != 0)
      ret = copyAddr(&rai->ai_dst_addr, &rai->ai_dst_len, hints->ai_dst_addr, hints->ai_dst_len);
  }
  if (ret == 0 && rai->ai_src_len == 0 && hints->ai_src_len != 0)
    ret = copyAddr(&rai->ai_src_addr, &rai->ai_src_len, hints->ai_src_addr, hints->ai_src_len);
  if (ret != 0) {
    rdma_freeaddrinfo(rai);
    return ret;
  }
  *res = rai;
  return 0;
}

RDMACM_EXPORT void rdma_freeaddrinfo(rdma_addrinfo* res) {
  while (res != nullptr) {
    rdma_addrinfo* next = res->ai_next;
    std::free(res->ai_src_addr);
    std::free(res->ai_dst_addr);
    std::free(res->ai_src_canonname);
    std::free(res->ai_dst_canonname);
    std::free(res->ai_route);
    std::free(res->ai_connect);
    std::free(res);
    res = next;
  }
}

RDMACM_EXPORT int rpoll(pollfd* fds, nfds_t nfds, int timeout) {
  return ::poll(fds, nfds, timeout);
}
