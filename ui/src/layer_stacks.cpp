#include "rdmascope/ui/layer_stacks.h"

#include <QtGlobal>
#include <algorithm>

namespace rdmascope::ui {

namespace {

using K = std::string_view;
constexpr std::array<K, 0> kNone{};
constexpr std::array<K, 2> kEth{"eth", "vlan"};
constexpr std::array<K, 2> kIp{"ip", "ipv6"};
constexpr std::array<K, 1> kUdp{"udp"};
constexpr std::array<K, 1> kTcp{"tcp"};
constexpr std::array<K, 10> kIbTransport{
    "infiniband.bth",   "infiniband.reth",  "infiniband.aeth",      "infiniband.deth",
    "infiniband.ieth",  "infiniband.immdt", "infiniband.atomiceth", "infiniband.atomicacketh",
    "infiniband.rdeth", "infiniband.xrceth"};
constexpr std::array<K, 1> kGrh{"infiniband.grh"};
constexpr std::array<K, 1> kLrh{"infiniband.lrh"};
constexpr std::array<K, 1> kRdmap{"iwarp_rdma"};
constexpr std::array<K, 1> kDdp{"iwarp_ddp"};
constexpr std::array<K, 1> kMpa{"iwarp_mpa"};

constexpr LayerDef kAppMr{
    QT_TRANSLATE_NOOP("LayerStacks", "App MR"),
    QT_TRANSLATE_NOOP(
        "LayerStacks",
        "The application's buffer, registered as a memory region: the NIC may read and "
        "write it directly."),
    Zone::User, kNone};
constexpr LayerDef kVerbs{
    QT_TRANSLATE_NOOP("LayerStacks", "Verbs"),
    QT_TRANSLATE_NOOP("LayerStacks",
                      "libibverbs: ibv_post_send / ibv_post_recv / ibv_poll_cq run in user space: "
                      "WQEs and CQEs live in memory shared with the NIC."),
    Zone::User, kNone};

constexpr std::array kTcpLayers{
    LayerDef{QT_TRANSLATE_NOOP("LayerStacks", "App buffer"),
             QT_TRANSLATE_NOOP("LayerStacks", "The application's own buffer."), Zone::User, kNone},
    LayerDef{QT_TRANSLATE_NOOP("LayerStacks", "Socket API"),
             QT_TRANSLATE_NOOP("LayerStacks",
                               "send() / recv(): each call is a system call into the kernel."),
             Zone::User, kNone},
    LayerDef{QT_TRANSLATE_NOOP("LayerStacks", "Socket buffer"),
             QT_TRANSLATE_NOOP("LayerStacks",
                               "Kernel memory holding data until TCP sends or the app reads it."),
             Zone::Kernel, kNone},
    LayerDef{
        QT_TRANSLATE_NOOP("LayerStacks", "TCP"),
        QT_TRANSLATE_NOOP("LayerStacks",
                          "Segments, sequence numbers, ACKs and retransmission, in the kernel."),
        Zone::Kernel, kTcp},
    LayerDef{QT_TRANSLATE_NOOP("LayerStacks", "IP"),
             QT_TRANSLATE_NOOP("LayerStacks", "Routing and the IP header, in the kernel."),
             Zone::Kernel, kIp},
    LayerDef{
        QT_TRANSLATE_NOOP("LayerStacks", "Eth driver"),
        QT_TRANSLATE_NOOP("LayerStacks", "Builds the Ethernet header and hands frames to the NIC."),
        Zone::Kernel, kEth},
    LayerDef{QT_TRANSLATE_NOOP("LayerStacks", "NIC"),
             QT_TRANSLATE_NOOP(
                 "LayerStacks",
                 "A plain Ethernet NIC: moves frames between wire and kernel memory by DMA."),
             Zone::Nic, kNone},
};

constexpr std::array kRoceLayers{
    kAppMr,
    kVerbs,
    LayerDef{QT_TRANSLATE_NOOP("LayerStacks", "IB transport"),
             QT_TRANSLATE_NOOP("LayerStacks",
                               "BTH and extension headers (RETH, AETH, ...), PSNs, ACKs and "
                               "retries, all in the NIC."),
             Zone::Nic, kIbTransport},
    LayerDef{QT_TRANSLATE_NOOP("LayerStacks", "UDP :4791"),
             QT_TRANSLATE_NOOP("LayerStacks",
                               "RoCEv2 rides in UDP to port 4791 so that IP routers forward it."),
             Zone::Nic, kUdp},
    LayerDef{QT_TRANSLATE_NOOP("LayerStacks", "IP"),
             QT_TRANSLATE_NOOP("LayerStacks", "IPv4 or IPv6 header built by the NIC."), Zone::Nic,
             kIp},
    LayerDef{
        QT_TRANSLATE_NOOP("LayerStacks", "Ethernet"),
        QT_TRANSLATE_NOOP("LayerStacks", "Ethernet header; the ICRC covers the invariant fields."),
        Zone::Nic, kEth},
};

constexpr std::array kIbLayers{
    kAppMr,
    kVerbs,
    LayerDef{QT_TRANSLATE_NOOP("LayerStacks", "IB transport"),
             QT_TRANSLATE_NOOP("LayerStacks", "BTH and extension headers, reliability in the HCA."),
             Zone::Nic, kIbTransport},
    LayerDef{
        QT_TRANSLATE_NOOP("LayerStacks", "Network (GRH)"),
        QT_TRANSLATE_NOOP("LayerStacks", "Global Route Header, present when leaving the subnet."),
        Zone::Nic, kGrh},
    LayerDef{
        QT_TRANSLATE_NOOP("LayerStacks", "Link (LRH)"),
        QT_TRANSLATE_NOOP("LayerStacks", "Local Route Header with LIDs and the VCRC, per hop."),
        Zone::Nic, kLrh},
    LayerDef{QT_TRANSLATE_NOOP("LayerStacks", "Physical"),
             QT_TRANSLATE_NOOP("LayerStacks",
                               "InfiniBand link with credit-based flow control (lossless)."),
             Zone::Nic, kNone},
};

constexpr std::array kIwarpLayers{
    kAppMr,
    kVerbs,
    LayerDef{QT_TRANSLATE_NOOP("LayerStacks", "RDMAP"),
             QT_TRANSLATE_NOOP("LayerStacks",
                               "RDMA operations: Send, Write, Read Request/Response, Terminate."),
             Zone::Nic, kRdmap},
    LayerDef{
        QT_TRANSLATE_NOOP("LayerStacks", "DDP"),
        QT_TRANSLATE_NOOP("LayerStacks",
                          "Direct Data Placement: tagged (STag+offset) or untagged (queue, MSN)."),
        Zone::Nic, kDdp},
    LayerDef{QT_TRANSLATE_NOOP("LayerStacks", "MPA"),
             QT_TRANSLATE_NOOP("LayerStacks",
                               "Framing over the TCP byte stream: length, markers, CRC32c."),
             Zone::Nic, kMpa},
    LayerDef{QT_TRANSLATE_NOOP("LayerStacks", "TCP (in RNIC)"),
             QT_TRANSLATE_NOOP("LayerStacks", "A full TCP inside the RNIC, not in the kernel."),
             Zone::Nic, kTcp},
    LayerDef{QT_TRANSLATE_NOOP("LayerStacks", "IP"),
             QT_TRANSLATE_NOOP("LayerStacks", "IP header built by the RNIC."), Zone::Nic, kIp},
    LayerDef{QT_TRANSLATE_NOOP("LayerStacks", "Ethernet"),
             QT_TRANSLATE_NOOP("LayerStacks", "Ethernet header built by the RNIC."), Zone::Nic,
             kEth},
};

constexpr std::array kTcpPath{
    PathStep{PathKind::Syscall, false, 1, false, 2,
             QT_TRANSLATE_NOOP(
                 "LayerStacks",
                 "send(): the application enters the kernel with a system call (a mode switch).")},
    PathStep{PathKind::CpuCopy, false, 0, false, 2,
             QT_TRANSLATE_NOOP(
                 "LayerStacks",
                 "The CPU copies the payload from the application buffer into the socket send "
                 "buffer in the kernel.")},
    PathStep{PathKind::Processing, false, 2, false, 5,
             QT_TRANSLATE_NOOP("LayerStacks",
                               "The kernel's TCP, IP and Ethernet code builds the headers.")},
    PathStep{PathKind::Dma, false, 5, false, 6,
             QT_TRANSLATE_NOOP("LayerStacks",
                               "The NIC reads the frame from kernel memory by DMA and sends it.")},
    PathStep{PathKind::Wire, false, 6, true, 6,
             QT_TRANSLATE_NOOP("LayerStacks", "The frame crosses the link.")},
    PathStep{PathKind::Dma, true, 6, true, 5,
             QT_TRANSLATE_NOOP(
                 "LayerStacks",
                 "The receiving NIC writes the frame into kernel memory by DMA and raises an "
                 "interrupt: the kernel is entered.")},
    PathStep{PathKind::Processing, true, 5, true, 2,
             QT_TRANSLATE_NOOP(
                 "LayerStacks",
                 "The kernel parses Ethernet, IP and TCP, sends the ACK, and queues the payload in "
                 "the socket receive buffer.")},
    PathStep{PathKind::Syscall, true, 1, true, 2,
             QT_TRANSLATE_NOOP(
                 "LayerStacks",
                 "recv(): the application enters the kernel with a system call (and may sleep "
                 "until data arrives).")},
    PathStep{PathKind::CpuCopy, true, 2, true, 0,
             QT_TRANSLATE_NOOP(
                 "LayerStacks",
                 "The CPU copies the payload from the socket buffer into the application buffer.")},
};

constexpr std::array<PathStep, 7> rdmaPath(std::uint8_t transport, std::uint8_t bottom,
                                           std::string_view headers) {
  return {
      PathStep{PathKind::Processing, false, 0, false, 1,
               QT_TRANSLATE_NOOP(
                   "LayerStacks",
                   "ibv_post_send(): the library writes a WQE into the send queue in user memory; "
                   "no system call.")},
      PathStep{PathKind::Doorbell, false, 1, false, transport,
               QT_TRANSLATE_NOOP(
                   "LayerStacks",
                   "A doorbell (an MMIO write from user space) tells the NIC there is work; the "
                   "kernel is not entered.")},
      PathStep{PathKind::Dma, false, 0, false, transport,
               QT_TRANSLATE_NOOP(
                   "LayerStacks",
                   "The NIC reads the payload from the registered memory region by DMA: no CPU "
                   "copy.")},
      PathStep{PathKind::Processing, false, transport, false, bottom, headers},
      PathStep{PathKind::Wire, false, bottom, true, bottom,
               QT_TRANSLATE_NOOP("LayerStacks", "The frame crosses the link.")},
      PathStep{PathKind::Dma, true, transport, true, 0,
               QT_TRANSLATE_NOOP(
                   "LayerStacks",
                   "The receiving NIC checks the frame and writes the payload by DMA straight into "
                   "the application's buffer (the posted receive or the RETH address).")},
      PathStep{PathKind::Completion, true, transport, true, 1,
               QT_TRANSLATE_NOOP(
                   "LayerStacks",
                   "The NIC writes a completion (CQE) to the CQ; ibv_poll_cq() reads it in user "
                   "space.")},
  };
}

constexpr auto kRocePath =
    rdmaPath(2, 5,
             QT_TRANSLATE_NOOP("LayerStacks",
                               "The NIC builds BTH, UDP, IP and Ethernet headers and the ICRC."));
constexpr auto kIbPath = rdmaPath(
    2, 5,
    QT_TRANSLATE_NOOP("LayerStacks",
                      "The HCA builds BTH, GRH (if routed) and LRH, the ICRC and the VCRC."));
constexpr auto kIwarpPath =
    rdmaPath(2, 7,
             QT_TRANSLATE_NOOP(
                 "LayerStacks",
                 "The RNIC builds RDMAP, DDP, MPA (with CRC32c), TCP, IP and Ethernet headers."));

constexpr std::array kStacks{
    StackDef{Stack::TcpIp, QT_TRANSLATE_NOOP("LayerStacks", "TCP/IP sockets"), kTcpLayers,
             kTcpPath},
    StackDef{Stack::RoceV2, QT_TRANSLATE_NOOP("LayerStacks", "RoCEv2"), kRoceLayers, kRocePath},
    StackDef{Stack::InfiniBand, QT_TRANSLATE_NOOP("LayerStacks", "InfiniBand"), kIbLayers, kIbPath},
    StackDef{Stack::Iwarp, QT_TRANSLATE_NOOP("LayerStacks", "iWARP"), kIwarpLayers, kIwarpPath},
};

bool hasPrefixKey(const packets::Dissection& d, std::string_view key) {
  return std::any_of(d.nodes.begin(), d.nodes.end(), [key](const packets::Node& n) {
    return n.key == key || (n.key.size() > key.size() && n.key.substr(0, key.size()) == key &&
                            (n.key[key.size()] == '.' || n.key[key.size()] == '_'));
  });
}

}  // namespace

std::span<const StackDef> stackDefs() {
  return kStacks;
}

const StackDef& stackDef(Stack stack) {
  return kStacks[static_cast<std::size_t>(stack)];
}

PathCounts countPath(const StackDef& def) {
  PathCounts c;
  for (const auto& s : def.path) {
    if (s.kind == PathKind::CpuCopy) ++c.cpuCopies;
    if (s.kind == PathKind::Syscall) ++c.syscalls;
    if (s.kind == PathKind::Dma) ++c.dmas;
    if (s.kind == PathKind::Doorbell) ++c.doorbells;
  }
  return c;
}

int stackOfFrame(const packets::Dissection& d) {
  if (hasPrefixKey(d, "iwarp_mpa") || hasPrefixKey(d, "iwarp_ddp") || hasPrefixKey(d, "iwarp_rdma"))
    return static_cast<int>(Stack::Iwarp);
  if (d.find("infiniband.bth") || d.find("infiniband.lrh")) {
    if (d.find("udp")) return static_cast<int>(Stack::RoceV2);
    return static_cast<int>(Stack::InfiniBand);
  }
  if (d.find("tcp")) return static_cast<int>(Stack::TcpIp);
  return -1;
}

std::uint32_t layersOfFrame(const StackDef& def, const packets::Dissection& d) {
  std::uint32_t mask = 0;
  for (std::size_t i = 0; i < def.layers.size(); ++i)
    for (auto key : def.layers[i].keys)
      if (hasPrefixKey(d, key)) {
        mask |= 1u << i;
        break;
      }
  return mask;
}

}  // namespace rdmascope::ui
