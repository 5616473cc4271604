// libFuzzer target: the lean field-extraction path (DecodeOptions::lean) against the full
// dissection. Arbitrary frames go through two CaptureDecoders (so TCP reassembly and iWARP
// are fuzzed statefully), one full and one lean; both must give the same nodes (keys, byte
// ranges, numbers, parents; the lean one without the header fields not asked for), summary,
// diagnostics and CRC status, the same values for the keys the lean one was asked for, and the
// same verdict of a display filter reading those keys. A frame that mayReachTcp rules out must
// decode alone (stateless) as it does in the stream and hold no TCP layer, and the relative
// time (any double, or whole nanoseconds) must print as printf's %.9f. The field extractor
// (FieldExtractor, the fast path of the summary, -Y and -T fields passes), built for the same
// keys, must yield for every frame it accepts what the lean dissection holds for them and, in
// its summary mode, the same summary columns, CRC status and errors. A lean decode that keeps
// labels (DecodeOptions::labels, the -V pass) must hold every node of the full one with its
// label, and the listed keys' values. The epoch time (whole nanoseconds, any sign) must print
// as printf's "%s%llu.%09llu" of its sign and magnitude. (Seeds named
// extractor_N_... select filter N; extractor_11_vlan_ipv6 holds RoCEv2 frames behind VLAN tags
// and over IPv6.)
//
// Input: byte 0 selects the link type (bits 0-2) and the key set (bits 3-7); then records
// until the input ends: a 2-byte big-endian length and that many bytes of one frame.

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "../support/field_extractor_check.h"
#include "rdmascope/packets/display_filter.h"
#include "rdmascope/packets/field_extractor.h"
#include "rdmascope/packets/stream_decoder.h"

namespace {

using namespace rdmascope::packets;

constexpr LinkType kLinks[] = {LinkType::Ethernet, LinkType::Erf,  LinkType::Raw,
                               LinkType::Ipv4,     LinkType::Ipv6, LinkType::InfiniBand,
                               LinkType::Ethernet, LinkType::Erf};

// Filters over keys of every layer; each also names the keys a lean decode formats.
constexpr std::array<std::string_view, 12> kFilters = {
    "frame.number >= 2 && frame.time_relative > 0.5 || frame.len < 100",
    "eth.addr == 02:00:00:00:00:01 || ip.addr == 10.0.0.0/8 || ipv6.addr",
    "infiniband.bth.opcode == \"RC Acknowledge\" || infiniband.bth.psn != 5",
    "infiniband.aeth.kind == \"NAK\" || infiniband.icrc.status == \"bad\" || infiniband.bth",
    "data.data || data.len > 3 || tcp.len == 0 || udp.port == 4791",
    "iwarp_ddp.msn > 1 || iwarp_mpa.crc_check || iwarp_rdma",
    "infiniband.mad || infiniband.cm.req.serviceid || infiniband.vcrc.status == \"good\"",
    "erf.types.type == 21 || infiniband.lrh.dlid <= 3 || infiniband.grh",
    // keys the field extractor reads from the bytes
    "infiniband.bth.psn > 3 && ip.addr == 10.0.0.0/8 || eth.addr == 02:00:00:00:00:01 || "
    "frame.time_epoch",
    "infiniband.reth.va || infiniband.aeth.syndrome == 96 || infiniband.deth.srcqp == 1 || "
    "udp.port == 4791 || infiniband.immdt || infiniband.reserved != 0",
    "ip.hdr_len > 20 || ip.checksum == 0 || infiniband.bth == 00 || infiniband.atomicacketh || "
    "frame.cap_len > 60 || infiniband.bth.opcode == \"RC Acknowledge\"",
    // 802.1Q/802.1ad tags and IPv6, which the field extractor reads too
    "vlan.id == 100 || ieee8021ad.id > 5 || vlan || ipv6.addr == fe80::1 || ipv6.flow > 5 || "
    "ipv6.plen < 100 || ieee8021ah.etype == 0x8100 || infiniband.bth.psn > 3",
};

// The lean nodes are the full ones in order, less header fields whose keys were not asked
// for; parents and diagnostics are compared through the nodes they name.
bool sameDissection(const Dissection& full, const Dissection& lean, const ValueKeys& keys);

// A lean dissection with labels: every node of the full one, with its label.
bool sameTree(const Dissection& full, const Dissection& labelled, const ValueKeys& keys) {
  if (full.nodes.size() != labelled.nodes.size()) return false;
  for (std::size_t i = 0; i < full.nodes.size(); ++i) {
    const Node& a = full.nodes[i];
    const Node& b = labelled.nodes[i];
    if (a.key != b.key || a.label != b.label || a.parent != b.parent) return false;
  }
  return sameDissection(full, labelled, keys);
}

bool sameDissection(const Dissection& full, const Dissection& lean, const ValueKeys& keys) {
  if (full.crc != lean.crc || full.frameLength != lean.frameLength ||
      full.summary.source != lean.summary.source ||
      full.summary.destination != lean.summary.destination ||
      full.summary.protocol != lean.summary.protocol || full.summary.info != lean.summary.info ||
      full.diagnostics.size() != lean.diagnostics.size())
    return false;
  std::vector<std::int32_t> leanIndex(full.nodes.size(), -1);
  std::vector<bool> hasChildren(full.nodes.size(), false);
  for (const Node& n : full.nodes)
    if (n.parent >= 0) hasChildren[static_cast<std::size_t>(n.parent)] = true;
  std::size_t j = 0;
  for (std::size_t i = 0; i < full.nodes.size(); ++i) {
    const Node& a = full.nodes[i];
    const bool droppable = a.field && !hasChildren[i] && !keys.contains(a.key);
    if (j == lean.nodes.size()) {
      if (droppable) continue;
      return false;
    }
    const Node& b = lean.nodes[j];
    const bool same =
        a.key == b.key && a.offset == b.offset && a.length == b.length && a.depth == b.depth &&
        a.number == b.number && a.hasNumber == b.hasNumber && a.field == b.field &&
        (a.parent < 0 ? b.parent == -1 : b.parent == leanIndex[static_cast<std::size_t>(a.parent)]);
    if (!same) {
      if (droppable) continue;
      return false;
    }
    if (keys.contains(a.key) && a.value != b.value) return false;
    leanIndex[i] = static_cast<std::int32_t>(j++);
  }
  if (j != lean.nodes.size()) return false;
  for (std::size_t i = 0; i < full.diagnostics.size(); ++i) {
    const auto& x = full.diagnostics[i];
    const auto& y = lean.diagnostics[i];
    const std::int32_t node = x.node < 0 || static_cast<std::size_t>(x.node) >= full.nodes.size()
                                  ? -1
                                  : leanIndex[static_cast<std::size_t>(x.node)];
    if (x.severity != y.severity || x.message != y.message || node != y.node) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const LinkType link = kLinks[data[0] & 7];
  const std::string_view text = kFilters[(data[0] >> 3) % kFilters.size()];
  std::string error;
  const auto filter = DisplayFilter::compile(text, error);
  if (!filter) __builtin_trap();  // the fixed filters are valid
  ValueKeys keys;
  for (const auto& k : filter->keys())
    keys.add(k);
  if ((data[0] >> 3) >= kFilters.size()) keys.add("frame.number");
  DecodeOptions fullOptions, leanOptions, labelledOptions;
  leanOptions.lean = &keys;
  labelledOptions.lean = &keys;
  labelledOptions.labels = true;
  CaptureDecoder full(fullOptions), lean(leanOptions), labelled(labelledOptions);
  const FieldExtractor extractor(keys, fullOptions);
  Dissection d;  // reused across frames, as the CLI does
  std::span<const std::uint8_t> in(data + 1, size - 1);
  for (std::uint64_t number = 1; in.size() >= 2; ++number) {
    const std::size_t len = std::min<std::size_t>((std::size_t{in[0]} << 8) | in[1], in.size() - 2);
    const auto frame = in.subspan(2, len);
    in = in.subspan(2 + len);
    FrameInfo info{number, 0.25 * static_cast<double>(number), 1e9, 0};
    if (frame.size() >= 8 && (frame[0] & 1)) {  // any double: the time printed as %.9f prints it
      std::uint64_t bits = 0;
      for (std::size_t i = 0; i < 8; ++i)
        bits = bits << 8 | frame[i];
      std::memcpy(&info.timeRelative, &bits, sizeof bits);
    } else if (frame.size() >= 8) {  // whole nanoseconds, as the CLI computes them
      std::int64_t ns = 0;
      for (std::size_t i = 0; i < 8; ++i)
        ns = static_cast<std::int64_t>(static_cast<std::uint64_t>(ns) << 8 | frame[i]);
      info.timeRelative = static_cast<double>(ns >> (frame[1] & 15)) / 1e9;
    }
    if (frame.size() >= 16) {  // any epoch in nanoseconds
      std::uint64_t bits = 0;
      for (std::size_t i = 8; i < 16; ++i)
        bits = bits << 8 | frame[i];
      info.epochNs = static_cast<std::int64_t>(bits);
    }
    const Dissection a = full.decode(frame, link, info);
    if (info.epochNs != 0) {
      const std::uint64_t magnitude = info.epochNs < 0
                                          ? 0 - static_cast<std::uint64_t>(info.epochNs)
                                          : static_cast<std::uint64_t>(info.epochNs);
      char epoch[48];
      std::snprintf(epoch, sizeof epoch, "%s%llu.%09llu", info.epochNs < 0 ? "-" : "",
                    static_cast<unsigned long long>(magnitude / 1'000'000'000),
                    static_cast<unsigned long long>(magnitude % 1'000'000'000));
      const Node* e = a.find("frame.time_epoch");
      if (!e || e->value != epoch) __builtin_trap();
    }
    char expected[48];  // the size the decoder formats into
    std::snprintf(expected, sizeof expected, "%.9f", info.timeRelative);
    const Node* time = a.find("frame.time_relative");
    if (!time || time->value != expected) __builtin_trap();
    char summaryTime[48];  // the summary line's time, without the node
    const std::size_t timeLength = formatTimeRelative(info, summaryTime);
    if (std::string_view(summaryTime, timeLength) != expected) __builtin_trap();
    lean.decodeInto(d, frame, link, info);
    if (!sameDissection(a, d, keys)) __builtin_trap();
    if (filter->matches(a) != filter->matches(d)) __builtin_trap();
    const Dissection tree = labelled.decode(frame, link, info);
    if (!sameTree(a, tree, keys) || filter->matches(a) != filter->matches(tree)) __builtin_trap();
    // The parallel passes decode the frames mayReachTcp rules out without the stream decoder.
    if (!mayReachTcp(frame, link)) {
      if (a.find("tcp")) __builtin_trap();
      Dissection alone;
      decodeFrameInto(alone, frame, link, info, leanOptions);
      if (!sameDissection(a, alone, keys)) __builtin_trap();
    }
    if (extractor.usable()) {
      using rdmascope::test::checkExtraction;
      using rdmascope::test::ExtractCheck;
      if (checkExtraction(extractor, false, keys, frame, link, info, fullOptions, nullptr) ==
              ExtractCheck::Differs ||
          checkExtraction(extractor, true, keys, frame, link, info, fullOptions, nullptr) ==
              ExtractCheck::Differs)
        __builtin_trap();
    }
  }
  return 0;
}
