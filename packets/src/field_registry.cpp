#include "rdmascope/packets/field_registry.h"

#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "rdmascope/packets/net_headers.h"

namespace rdmascope::packets {
namespace {

// Every header table of the packets library: one line per table.
const HeaderDef* const kBuiltinHeaders[] = {
    &kEthernetHeader, &kVlanHeader, &kIpv4Header, &kIpv6Header, &kUdpHeader, &kTcpHeader,
};

// Keys dissectors add without a table (one per line, as tshark names them).
constexpr std::string_view kSyntheticKeys[] = {
    "frame",         "frame.number",        "frame.len",
    "frame.cap_len", "frame.time_relative", "frame.time_epoch",
    "data",          "data.data",           "data.len",
    "tcp.len",
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
