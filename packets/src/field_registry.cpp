#include "rdmascope/packets/field_registry.h"

#include <algorithm>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "rdmascope/packets/ib_headers.h"
#include "rdmascope/packets/iwarp_headers.h"
#include "rdmascope/packets/mac_control.h"
#include "rdmascope/packets/mad_headers.h"
#include "rdmascope/packets/net_headers.h"

namespace rdmascope::packets {
namespace {

// Every header table of the packets library: one line per table.
const HeaderDef* const kBuiltinHeaders[] = {
    &kEthernetHeader,      &kVlanHeader,         &kIpv4Header,
    &kIpv6Header,          &kUdpHeader,          &kTcpHeader,
    &kIeee8021adHeader,    &kIpv6HopOptsHeader,  &kIpv6DstOptsHeader,
    &kIpv6RoutingHeader,   &kIpv6FragmentHeader, &kIpv6OptionHeader,
    &kLrhHeader,           &kGrhHeader,          &kBthHeader,
    &kRdethHeader,         &kDethHeader,         &kXrcEthHeader,
    &kRethHeader,          &kAethHeader,         &kAtomicEthHeader,
    &kAtomicAckEthHeader,  &kImmDtHeader,        &kIethHeader,
    &kFethHeader,          &kCnpHeader,          &kMpaRequestHeader,
    &kMpaReplyHeader,      &kMpaMarkerHeader,    &kDdpTaggedHeader,
    &kDdpUntaggedHeader,   &kRdmapControlHeader, &kRdmaReadRequestHeader,
    &kMadHeader,           &kCmReqHeader,        &kCmMraHeader,
    &kCmRejHeader,         &kCmRepHeader,        &kCmRtuHeader,
    &kCmDreqHeader,        &kCmDrepHeader,       &kCmLapHeader,
    &kCmAprHeader,         &kCmSidrReqHeader,    &kCmSidrRepHeader,
    &kCmReqServiceIdParts, &kIpCmHeader,         &kIpCmIpv4Fields,
    &kIpCmIpv6Fields,      &kMacControlHeader,   &kMacPauseHeader,
    &kPfcHeader,
};

// Table fields that stand outside a HeaderDef (chosen by the dissector from context).
const FieldDef* const kBuiltinFields[] = {
    &kAethCreditCount,
    &kAethTimer,
    &kAethErrorCode,
    &kAethReservedValue,
    &kIcrcField,
    &kVcrcField,
    &kMpaUlpduLengthField,
    &kMpaCrcField,
    &kRdmapReservedField,
    &kRdmapInvalidateStagField,
    &kRdmaTermLayerField,
    &kRdmaTermHdrctM,
    &kRdmaTermHdrctD,
    &kRdmaTermHdrctR,
    &kRdmaTermReserved,
    &kCmAttributeIdField,
    &kMadDataField,
    &kCmReqPrimaryLocalGidIpv4,
    &kCmReqPrimaryRemoteGidIpv4,
    &kCmReqPrivateData,
    &kIpCmConsumerPrivateData,
};

// Keys dissectors add without a table (one per line, as tshark names them).
constexpr std::string_view kSyntheticKeys[] = {
    "frame",
    "frame.number",
    "frame.len",
    "frame.cap_len",
    "frame.time_relative",
    "frame.time_epoch",
    "frame.time",
    "frame.time_delta",
    "frame.protocols",
    "data",
    "data.data",
    "data.len",
    "tcp.len",
    "ipv6.hopopts.len_oct",
    "ipv6.dstopts.len_oct",
    "ipv6.routing.len_oct",
    "ipv6.opt.pad1",
    "ipv6.opt.padn",
    // ERF record header (ibdump's native InfiniBand captures)
    "erf",
    "erf.ts",
    "erf.types",
    "erf.types.type",
    "erf.types.ext_header",
    "erf.flags",
    "erf.flags.cap",
    "erf.flags.vlen",
    "erf.flags.trunc",
    "erf.flags.rxe",
    "erf.flags.dse",
    "erf.rlen",
    "erf.lctr",
    "erf.wlen",
    "erf.ehdr.types",
    // InfiniBand: the protocol node and rdmascope's own verification and decoding keys
    "infiniband",
    "infiniband.pad",
    "infiniband.aeth.kind",
    "infiniband.aeth.rnr_timer_ms",
    "infiniband.icrc.value",
    "infiniband.icrc.computed",
    "infiniband.icrc.status",
    "infiniband.vcrc.value",
    "infiniband.vcrc.computed",
    "infiniband.vcrc.status",
    // iWARP containers and fields the MPA/DDP/RDMAP dissector adds without a table
    "iwarp_mpa",
    "iwarp_mpa.fpdu",
    "iwarp_mpa.pad",
    "iwarp_mpa.privatedata",
    "iwarp_mpa.crc_check",
    "iwarp_ddp_rdmap",
    "iwarp_ddp.control_field",
    "iwarp_ddp.tagged",
    "iwarp_ddp.untagged",
    "iwarp_rdma",
    "iwarp_rdma.terminate",
    "iwarp_rdma.term_ctrl",
    "iwarp_rdma.term_hdrct",
    "iwarp_rdma.term_ddp_seg_len",
    "iwarp_rdma.term_ddp_h",
};

// Byte-string keys without a table entry of FieldType::Bytes: headers whose node carries the
// header's bytes as its value, and the payload, padding and private data that dissectors add.
constexpr std::string_view kByteStringKeys[] = {
    "data.data",
    "ipv6.opt.padn",
    "infiniband.lrh",
    "infiniband.grh",
    "infiniband.bth",
    "infiniband.rdeth",
    "infiniband.deth",
    "infiniband.reth",
    "infiniband.aeth",
    "infiniband.atomiceth",
    "infiniband.atomicacketh",
    "infiniband.mad",
    "infiniband.cm.req.ip_cm",
    "infiniband.vendor",
    "iwarp_mpa.pad",
    "iwarp_mpa.privatedata",
    "iwarp_rdma.term_ddp_seg_len",
    "iwarp_rdma.term_ddp_h",
};

struct Alias {
  std::string_view key;
  std::string_view targets[2];
};
constexpr Alias kAliases[] = {
    {"ip.addr", {"ip.src", "ip.dst"}},
    {"ipv6.addr", {"ipv6.src", "ipv6.dst"}},
    {"eth.addr", {"eth.src", "eth.dst"}},
    {"udp.port", {"udp.srcport", "udp.dstport"}},
    {"tcp.port", {"tcp.srcport", "tcp.dstport"}},
};

struct Registry {
  std::mutex mutex;
  std::unordered_map<std::string_view, const FieldDef*> keys;  // nullptr: no table entry

  Registry() {
    for (const HeaderDef* h : kBuiltinHeaders)
      addHeader(*h);
    for (const FieldDef* f : kBuiltinFields)
      keys.insert_or_assign(f->key, f);
    // Terminate's error type and code fields, keyed by layer (RDMAP, DDP, MPA) and type.
    for (std::uint8_t layer = 0; layer < 3; ++layer)
      for (std::uint8_t etype = 0; etype < 16; ++etype) {
        const auto t = terminateErrorFields(layer, etype);
        if (t.etype) keys.insert_or_assign(t.etype->key, t.etype);
        if (t.errcode) keys.insert_or_assign(t.errcode->key, t.errcode);
      }
    for (auto k : kSyntheticKeys)
      keys.emplace(k, nullptr);
  }
  void addHeader(const HeaderDef& h) {
    keys.emplace(h.key, nullptr);
    for (const auto& f : h.fields)
      keys.insert_or_assign(f.key, &f);
  }
};

Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

bool isKnownFieldKey(std::string_view key) {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  return r.keys.contains(key) || !aliasTargets(key).empty();
}

const FieldDef* findFieldDef(std::string_view key) {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  const auto it = r.keys.find(key);
  return it == r.keys.end() ? nullptr : it->second;
}

bool isByteStringKey(std::string_view key) {
  if (const FieldDef* f = findFieldDef(key)) return f->type == FieldType::Bytes;
  return std::find(std::begin(kByteStringKeys), std::end(kByteStringKeys), key) !=
         std::end(kByteStringKeys);
}

std::vector<std::string_view> knownFieldKeys() {
  std::vector<std::string_view> keys;
  {
    auto& r = registry();
    std::lock_guard lock(r.mutex);
    keys.reserve(r.keys.size() + std::size(kAliases));
    for (const auto& [key, def] : r.keys)
      keys.push_back(key);
  }
  for (const auto& a : kAliases)
    keys.push_back(a.key);
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

std::span<const std::string_view> aliasTargets(std::string_view key) {
  for (const auto& a : kAliases)
    if (a.key == key) return a.targets;
  return {};
}

void registerHeader(const HeaderDef& header) {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  r.addHeader(header);
}

void registerSyntheticKey(std::string_view key) {
  auto& r = registry();
  std::lock_guard lock(r.mutex);
  r.keys.emplace(key, nullptr);
}

}  // namespace rdmascope::packets
