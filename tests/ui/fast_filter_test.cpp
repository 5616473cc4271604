// The packet list's display filter on fields read straight from the header bytes (the fast path
// PacketListModel::applyFilter takes with the filter's keys: packets::FieldExtractor, falling
// back to a lean dissection per frame and to the cache's stateful dissection for TCP stream
// frames) keeps exactly the rows the same filter keeps on full dissections: for filters on
// opcodes, PSN ranges, addresses, ports, AETH syndromes, presence, and/or/not, over every
// capture of the repository, RoCEv2/IPv6, 802.1Q, RoCEv1, ERF and native IB samples, CM MADs,
// simulated iWARP, and all of these with their frames corrupted (bits flipped, cut short).

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "../support/iwarp_frames.h"
#include "../support/repository_captures.h"
#include "rdmascope/packets/ib_builder.h"
#include "rdmascope/packets/mad_builder.h"
#include "rdmascope/ui/capture_loader.h"
#include "rdmascope/ui/dissection_cache.h"
#include "rdmascope/ui/filter_bar.h"
#include "rdmascope/ui/frame_store.h"
#include "rdmascope/ui/packet_list_model.h"
#include "test_frames.h"

namespace rdmascope::ui {
namespace {

using ::rdmascope::test::repositoryCaptures;

// Every key of these is one the field extractor reads from the bytes.
const char* const kFastFilters[] = {
    "infiniband.bth.opcode == 17",
    "infiniband.bth.opcode == \"RC Acknowledge\" || infiniband.bth.opcode == 4",
    "infiniband.bth.opcode >= 6 and infiniband.bth.opcode <= 12",
    "infiniband.bth.psn >= 100 && infiniband.bth.psn < 2000",
    "infiniband.bth.psn > 0x7fffff || infiniband.bth.psn == 0",
    "!(infiniband.bth.psn < 50) && infiniband.bth.destqp != 0x11",
    "ip.addr == 10.0.0.0/8",
    "ip.src == 192.168.122.1 || ip.dst == 10.0.0.2 || ip.dst == 192.168.50.2",
    "ip.addr != 10.0.0.1",
    "udp.port == 4791 && udp.srcport > 49152",
    "udp.srcport == 4791 || udp.length >= 100",
    "infiniband.aeth.syndrome == 0",
    "infiniband.aeth.syndrome >= 0x20 and infiniband.aeth.syndrome != 0x1f",
    "infiniband.aeth.syndrome.opcode == 3 || infiniband.aeth.msn > 3",
    "infiniband.aeth",
    "not infiniband.aeth and infiniband.bth",
    "infiniband.reth && infiniband.reth.dmalen > 1000",
    "infiniband.reth.r_key || infiniband.atomiceth || infiniband.atomicacketh",
    "infiniband.deth.srcqp == 1 || infiniband.deth.q_key",
    "infiniband.immdt || infiniband.ieth",
    "infiniband.bth.se == 1 || infiniband.bth.padcnt != 0 || infiniband.bth.m == 1",
    "eth.addr == 02:00:00:00:00:01 || eth.type != 0x0800",
    "ip.ttl < 64 || ip.dsfield.ecn == 3 || ip.flags.df == 0",
    "ip.checksum == 0 || ip.hdr_len > 20 || ip.len > 1000",
    "frame.len > 100 && frame.time_relative > 0.001",
    "frame.number <= 10 || frame.cap_len < frame.len",
    "frame.len != frame.cap_len",
    "infiniband && !udp",
    "udp && !infiniband",
    "infiniband.bth && !infiniband.reth && !infiniband.deth",
    "ipv6.addr || vlan.id == 100",
    "vlan && infiniband.bth.psn > 2 || ipv6.flow != 0 || ipv6.hlim < 64 || ipv6.plen > 100",
};

// Filters reading a key the extractor cannot produce: the whole filter takes the lean
// dissection (and the stream frames the cache's dissection).
const char* const kOtherFilters[] = {
    "infiniband.aeth.kind == \"NAK\" || infiniband.aeth.kind == \"RNR NAK\"",
    "infiniband.icrc.status == \"bad\" || infiniband.vcrc.status == \"bad\"",
    "tcp.port == 4420 || tcp.len > 0 && iwarp_ddp.tagged_flag == 1",
    "iwarp_mpa || iwarp_rdma.opcode == 1",
    "infiniband.cm || infiniband.mad.attributeid == 0x0010",
    "infiniband.lrh.dlid > 0 || infiniband.grh",
    "ipv6.hopopts || ipv6.fraghdr || infiniband.bth.opcode == 4",
    "data.len > 10 || data.data",
};

struct NamedStore {
  std::string name;
  FrameStore store;
};

// The same frames, each changed at random (fixed seed): a bit flipped in the headers, cut short
// (the wire length kept), a CRC byte changed, a header byte overwritten, or one of the fields
// the extractor's shape checks read (Ethernet/IPv4/UDP/BTH offsets) set to another value: IP
// version and header length, fragment flags and offset, IP total and UDP lengths, opcode.
FrameStore corrupted(const FrameStore& in, std::uint32_t seed) {
  std::mt19937 rng(seed);
  FrameStore out(in.linkType());
  for (std::size_t i = 0; i < in.size(); ++i) {
    const auto b = in.bytes(i);
    std::vector<std::uint8_t> g(b.begin(), b.end());
    const auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
    const auto byte = [&] { return static_cast<std::uint8_t>(rng()); };
    const std::size_t head = std::min<std::size_t>(g.size(), 96);
    if (g.size() >= 64) {
      switch (pick(8)) {
        case 0:
          g[pick(head)] ^= static_cast<std::uint8_t>(1u << pick(8));
          break;
        case 1:
          g.resize(pick(g.size()));
          break;
        case 2:
          g[g.size() - 1 - pick(4)] ^= static_cast<std::uint8_t>(1u << pick(8));
          break;
        case 3:
          g[pick(head)] = byte();
          break;
        case 4:  // IPv4 flags and fragment offset
          g[20 + pick(2)] ^= static_cast<std::uint8_t>(1u << pick(8));
          break;
        case 5: {  // IPv4 version and header length
          static constexpr std::uint8_t kFirst[] = {0x44, 0x46, 0x4f, 0x65, 0x35, 0x40};
          g[14] = kFirst[pick(std::size(kFirst))];
          break;
        }
        case 6:  // IPv4 total length or UDP length
          g[pick(2) ? 16 + pick(2) : 38 + pick(2)] = byte();
          break;
        default:  // the BTH opcode, or a DETH source QP made 0 or 1
          if (pick(2))
            g[42] = byte();
          else
            g[58 + pick(4)] = static_cast<std::uint8_t>(pick(2));
      }
    } else if (!g.empty()) {
      g[pick(g.size())] ^= static_cast<std::uint8_t>(1u << pick(8));
    }
    out.append(g, in.record(i).timestampNs, static_cast<std::uint32_t>(b.size()));
  }
  return out;
}

std::vector<NamedStore> stores() {
  std::vector<NamedStore> out;
  for (const auto& path : repositoryCaptures()) {
    FrameStore store;
    if (loadCaptureFile(path, store).ok()) out.push_back({path, std::move(store)});
  }
  // RoCEv2/IPv4 of every opcode, RoCEv2/IPv6, 802.1Q, RoCEv1, CM MADs (Ethernet), native IB in
  // ERF records, and the same native IB packets without the ERF record (link type InfiniBand).
  std::map<packets::LinkType, FrameStore> samples;
  FrameStore nativeIb(packets::LinkType::InfiniBand);
  std::int64_t t = 0;
  auto add = [&](const packets::SampleFrame& s) {
    auto [it, inserted] = samples.try_emplace(s.link, s.link);
    it->second.append(s.bytes, t += 1500);
    // An ERF record of type 21 without extension headers: 16 bytes, then the IB packet.
    if (s.link == packets::LinkType::Erf && s.bytes.size() > 16 && s.bytes[8] == 21)
      nativeIb.append(std::span(s.bytes).subspan(16), t);
  };
  for (const auto& s : packets::sampleIbFrames())
    add(s);
  for (const auto& s : packets::sampleCmFrames())
    add(s);
  for (auto& [link, store] : samples)
    out.push_back(
        {"samples of link type " + std::to_string(static_cast<int>(link)), std::move(store)});
  out.push_back({"native IB samples", std::move(nativeIb)});
  for (const char* scenario : {"iwarp-read", "iwarp-write"}) {
    const auto frames = ::rdmascope::test::iwarpFrames(scenario, 20000, 0.1, 11);
    if (frames.empty()) continue;
    FrameStore store;
    std::int64_t at = 0;
    for (const auto& f : frames)
      store.append(f, at += 1000);
    out.push_back({scenario, std::move(store)});
  }
  const std::size_t whole = out.size();
  for (std::uint32_t seed : {1u, 2u, 3u})
    for (std::size_t i = 0; i < whole; ++i)
      out.push_back({out[i].name + " (corrupted, seed " + std::to_string(seed) + ")",
                     corrupted(out[i].store, static_cast<std::uint32_t>(i) * 8 + seed)});
  return out;
}

std::vector<std::size_t> rows(const PacketListModel& model) {
  std::vector<std::size_t> out;
  for (int r = 0; r < model.rowCount(); ++r)
    out.push_back(model.frameAt(r));
  return out;
}

TEST(FastFilter, KeepsTheRowsOfTheFullDissectionOnEveryCapture) {
  const auto all = stores();
  ASSERT_GE(all.size(), 160u);
  std::map<std::string, std::size_t> extracted, kept;
  std::size_t fallbacks = 0, streamed = 0;
  for (const auto& named : all) {
    // Named references, not structured bindings: a lambda below captures them.
    const std::string& name = named.name;
    const FrameStore& store = named.store;
    // The full dissections, as the list shows them (stateful for TCP streams), once per store.
    DissectionCache cache(&store, SIZE_MAX);
    std::vector<std::shared_ptr<const packets::Dissection>> full;
    for (std::size_t f = 0; f < store.size(); ++f)
      full.push_back(cache.get(f));
    PacketListModel model(&store);
    const auto check = [&](const char* text, bool fast) {
      const CompiledFilter c = compileDisplayFilter(QString::fromUtf8(text));
      ASSERT_TRUE(c.ok()) << text << ": " << c.error.toStdString();
      ASSERT_TRUE(c.lean);
      std::vector<std::size_t> expected;
      for (std::size_t f = 0; f < full.size(); ++f)
        if (c.predicate(*full[f])) expected.push_back(f);
      std::size_t updates = 0, last = 0;
      ASSERT_TRUE(model.applyFilter(
          c.predicate,
          [&](std::size_t done, std::size_t total) {
            EXPECT_LE(done, total);
            EXPECT_EQ(total, store.size());
            ++updates;
            last = done;
            return true;
          },
          c.lean));
      EXPECT_EQ(rows(model), expected) << name << ": " << text;
      EXPECT_GE(updates, 1u);
      EXPECT_EQ(last, store.size());
      const auto& s = model.lastFilterStats();
      EXPECT_EQ(s.extracted + s.dissected + s.cached, store.size()) << name << ": " << text;
      if (!fast) {
        EXPECT_EQ(s.extracted, 0u) << name << ": " << text;
      }
      extracted[text] += s.extracted;
      kept[text] += expected.size();
      if (fast) fallbacks += s.dissected;
      streamed += s.cached;
      model.clearFilter();
    };
    for (const char* text : kFastFilters)
      check(text, true);
    for (const char* text : kOtherFilters)
      check(text, false);
  }
  // Each fast filter read fields from the bytes on many frames and kept rows somewhere; frames
  // the extractor refuses (other shapes, corrupted headers, MADs) fell back to a dissection.
  for (const char* text : kFastFilters) {
    EXPECT_GT(extracted[text], 4000u) << text;
    EXPECT_GT(kept[text], 0u) << text;
  }
  for (const char* text : kOtherFilters)
    EXPECT_GT(kept[text], 0u) << text;
  EXPECT_GT(fallbacks, 10000u);
  EXPECT_GT(streamed, 0u);
}

// A large capture of the extractor's shape: every frame takes the fast path, the progress
// dialog's callback is called block by block up to the total, and a cancel changes nothing.
TEST(FastFilter, ReportsProgressAndCancels) {
  FrameStore store;
  for (std::uint32_t i = 0; i < 50000; ++i)
    store.append(test::roceFrame(i, 16, i % 3 ? 0x04 : 0x11), 1000 * i);
  PacketListModel model(&store);
  const CompiledFilter c = compileDisplayFilter(QStringLiteral("infiniband.bth.psn >= 40000"));
  ASSERT_TRUE(c.ok());
  std::vector<std::size_t> seen;
  ASSERT_TRUE(model.applyFilter(
      c.predicate,
      [&](std::size_t done, std::size_t total) {
        EXPECT_EQ(total, store.size());
        seen.push_back(done);
        return true;
      },
      c.lean));
  EXPECT_EQ(model.rowCount(), 10000);
  EXPECT_EQ(model.frameAt(0), 40000u);
  EXPECT_EQ(model.lastFilterStats().extracted, store.size());
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.back(), store.size());
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));

  // Cancelled at the second update: the previous filter stays.
  const CompiledFilter other = compileDisplayFilter(QStringLiteral("infiniband.bth.opcode == 4"));
  int calls = 0;
  EXPECT_FALSE(model.applyFilter(
      other.predicate, [&](std::size_t, std::size_t) { return ++calls < 2; }, other.lean));
  EXPECT_EQ(model.rowCount(), 10000);
  EXPECT_EQ(model.frameAt(0), 40000u);
  model.clearFilter();
  EXPECT_FALSE(model.applyFilter(
      other.predicate, [](std::size_t, std::size_t) { return false; }, other.lean));
  EXPECT_FALSE(model.filtered());
  EXPECT_EQ(model.rowCount(), 50000);
}

}  // namespace
}  // namespace rdmascope::ui
