// FieldExtractor (the field-extraction fast path of `decode`'s summary, -Y and -T fields
// passes) against the lean dissection, frame by frame, on every capture of the repository and
// on each of their frames truncated and bit-flipped: the same nodes for the wanted keys and, in
// the summary mode, the same summary columns, CRC status and errors. The CLI's LeanDecode tests
// compare the printed output of the same passes.
#include <gtest/gtest.h>

#include "../support/field_extractor_check.h"
#include "../support/repository_captures.h"
#include "rdmascope/packets/ib_builder.h"
#include "rdmascope/packets/mad_builder.h"
#include "rdmascope/packets_io/capture_reader.h"

namespace rdmascope::packets::test {
namespace {

using ::rdmascope::test::checkExtraction;
using ::rdmascope::test::ExtractCheck;
using ::rdmascope::test::repositoryCaptures;

const std::vector<std::vector<std::string>> kKeySets = {
    // bench/decode_passes' -T fields keys
    {"frame.number", "ip.src", "ip.dst", "infiniband.bth.opcode", "infiniband.bth.destqp",
     "infiniband.bth.psn", "infiniband.aeth.syndrome"},
    // headers (IB headers' values are their bytes), aggregates, keys in several headers
    {"frame",
     "eth",
     "eth.addr",
     "vlan",
     "ieee8021ad",
     "ip",
     "ipv6",
     "ipv6.addr",
     "ip.addr",
     "udp",
     "udp.port",
     "infiniband",
     "infiniband.bth",
     "infiniband.reth",
     "infiniband.aeth",
     "infiniband.deth",
     "infiniband.immdt",
     "infiniband.ieth",
     "infiniband.atomiceth",
     "infiniband.atomicacketh",
     "infiniband.reserved",
     "infiniband.reth.va",
     "frame.cap_len",
     "frame.len",
     "frame.time_relative",
     "frame.time_epoch"},
    // fields of every width, base and type of the tables read
    {"eth.dst",
     "eth.type",
     "vlan.priority",
     "vlan.dei",
     "vlan.id",
     "vlan.etype",
     "ieee8021ad.id",
     "ieee8021ah.etype",
     "ipv6.tclass",
     "ipv6.flow",
     "ipv6.plen",
     "ipv6.hlim",
     "ip.version",
     "ip.hdr_len",
     "ip.dsfield.ecn",
     "ip.flags.df",
     "ip.ttl",
     "ip.checksum",
     "ip.len",
     "udp.srcport",
     "udp.length",
     "infiniband.bth.padcnt",
     "infiniband.bth.se",
     "infiniband.bth.m",
     "infiniband.bth.p_key",
     "infiniband.bth.fecn",
     "infiniband.bth.a",
     "infiniband.reth.r_key",
     "infiniband.reth.dmalen",
     "infiniband.aeth.msn",
     "infiniband.aeth.syndrome.opcode",
     "infiniband.deth.q_key",
     "infiniband.deth.srcqp",
     "infiniband.atomiceth.swapdt",
     "infiniband.atomicacketh.origremdt",
     "infiniband.immdt"},
};

ValueKeys valueKeys(const std::vector<std::string>& list, bool summary) {
  ValueKeys keys;
  if (summary)
    for (const char* k : {"frame.number", "frame.time_relative", "frame.len"})
      keys.add(k);
  for (const auto& k : list)
    keys.add(k);
  return keys;
}

struct Counts {
  std::size_t same = 0, refused = 0;
};

void check(const std::string& capture, const std::vector<std::vector<std::uint8_t>>& frames,
           LinkType link, Counts& counts) {
  const DecodeOptions options;
  for (const auto& list : kKeySets)
    for (const bool summary : {false, true}) {
      const ValueKeys keys = valueKeys(list, summary);
      const FieldExtractor extractor(keys, options);
      ASSERT_TRUE(extractor.usable());
      std::uint64_t number = 0;
      const auto one = [&](std::span<const std::uint8_t> frame, const char* how) {
        FrameInfo info{++number, 0.000125 * static_cast<double>(number), 1.7e9, 0,
                       static_cast<std::uint32_t>(frame.size() + (number % 3))};
        info.epochNs = 1'700'000'000'000'000'000 + static_cast<std::int64_t>(number) * 125'000;
        std::string why;
        switch (checkExtraction(extractor, summary, keys, frame, link, info, options, &why)) {
          case ExtractCheck::Same:
            ++counts.same;
            break;
          case ExtractCheck::Refused:
            ++counts.refused;
            break;
          case ExtractCheck::Differs:
            ADD_FAILURE() << capture << " frame " << number << " (" << how
                          << (summary ? ", summary" : "") << "): " << why;
            break;
        }
      };
      for (const auto& f : frames) {
        one(f, "as given");
        for (std::size_t cut = 0; cut < f.size(); cut += 11)
          one(std::span(f).first(cut), "truncated");
        for (std::size_t bit = 0; bit < std::min<std::size_t>(f.size(), 90) * 8; bit += 7) {
          auto g = f;
          g[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
          one(g, "bit flipped");
        }
      }
    }
}

void check(const std::string& capture, Counts& counts) {
  std::string error;
  auto reader = packets_io::CaptureReader::open(capture, error);
  ASSERT_TRUE(reader) << error;
  std::vector<std::vector<std::uint8_t>> frames;
  packets_io::FrameView v;
  while (reader->next(v))
    frames.emplace_back(v.data.begin(), v.data.end());
  check(capture, frames, reader->linkType(), counts);
}

TEST(FieldExtractor, ExtractsWhatTheDissectionHoldsOnEveryRepositoryCaptureAndItsCorruptions) {
  const auto captures = repositoryCaptures();
  ASSERT_GE(captures.size(), 30u);
  Counts counts;
  for (const auto& c : captures)
    check(c, counts);
  // Not vacuous: most real RoCEv2 frames take the fast path; corrupted ones and other
  // protocols (iWARP, RoCEv1, native IB, CM MADs) are refused.
  EXPECT_GT(counts.same, 100000u);
  EXPECT_GT(counts.refused, 10000u);
}

// RoCEv2 of every opcode behind 802.1Q, 802.1ad and pre-standard QinQ tags, over IPv6 (and
// IPv6 with an extension header, refused), and the samples of every carrier and CM MADs.
TEST(FieldExtractor, ExtractsVlanTaggedAndIpv6RoceV2) {
  std::vector<std::vector<std::uint8_t>> frames;
  std::size_t tagged = 0, v6 = 0;
  for (const auto& s : sampleIbFrames()) {
    if (s.link != LinkType::Ethernet) continue;
    frames.push_back(s.bytes);
    const auto parsed = parseIbFrame(s.bytes, s.link);
    if (!parsed || parsed->carrier != IbCarrier::RoceV2) continue;
    RoceAddressing a;
    a.vlan = VlanTag{3, false, 100, 0x8100};
    frames.push_back(buildRoceV2(a, parsed->packet));
    a.outerVlans = {VlanTag{1, true, 7, 0x88a8}, VlanTag{0, false, 9, 0x9100}};
    frames.push_back(buildRoceV2(a, parsed->packet));
    a.srcIp = IpAddress::fromV6({0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1});
    a.dstIp = IpAddress::fromV6({0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2});
    a.flowLabel = 0x12345;
    frames.push_back(buildRoceV2(a, parsed->packet));
    a.vlan.reset();
    a.outerVlans.clear();
    frames.push_back(buildRoceV2(a, parsed->packet));
    tagged += 2;
    v6 += 2;
  }
  for (const auto& s : sampleCmFrames())
    if (s.link == LinkType::Ethernet) frames.push_back(s.bytes);
  ASSERT_GT(v6, 20u);
  Counts counts;
  check("samples", frames, LinkType::Ethernet, counts);
  EXPECT_GT(counts.same, 20000u);
  EXPECT_GT(counts.refused, 10000u);
  // The tagged and IPv6 frames themselves are read, not refused.
  const DecodeOptions options;
  ValueKeys keys;
  for (const char* k : {"vlan.id", "ieee8021ad.id", "ipv6.src", "ipv6.flow", "ip.src",
                        "udp.srcport", "infiniband.bth.psn"})
    keys.add(k);
  const FieldExtractor extractor(keys, options);
  ASSERT_TRUE(extractor.usable());
  std::size_t read = 0;
  for (const auto& f : frames) {
    Dissection d;
    if (extractor.extract(d, f, LinkType::Ethernet, {}) &&
        (d.find("vlan.id") || d.find("ipv6.src")))
      ++read;
  }
  EXPECT_GE(read, (tagged + v6) * 9 / 10) << "of " << tagged + v6;
}

TEST(FieldExtractor, RefusesKeysItCannotProduce) {
  const DecodeOptions options;
  for (const char* key :
       {"data.len", "infiniband.aeth.syndrome.credit_count", "infiniband.icrc.status", "tcp.len",
        "ipv6.hopopts.nxt", "infiniband.lrh.dlid", "infiniband.aeth.kind", "infiniband.cm"}) {
    ValueKeys keys;
    keys.add("ip.addr");
    keys.add(key);
    EXPECT_FALSE(FieldExtractor(keys, options).usable()) << key;
  }
  ValueKeys keys;
  keys.add("ip.addr");
  keys.add("udp.port");
  EXPECT_TRUE(FieldExtractor(keys, options).usable());
  EXPECT_FALSE(FieldExtractor(ValueKeys::all(), options).usable());
}

}  // namespace
}  // namespace rdmascope::packets::test
