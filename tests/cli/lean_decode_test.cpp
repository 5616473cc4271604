// The fast passes of `rdmascope-cli decode` (summary, -Y, -T fields, -T json: lean dissections
// without labels, values only for the keys read; for the summary, -Y and -T fields of common
// RoCEv2 frames the fields read straight from the bytes, packets::FieldExtractor) print byte for
// byte what the full dissection
// (--full-dissection) prints, on every capture of the repository and on generated captures of
// what the repository holds no file of: iWARP conversations with loss (the stateful path), CM
// MADs, RoCEv1, native IB in ERF records, RoCEv2 behind VLAN tags and over IPv6, frames captured
// without their FCS, and corrupted (truncated, bit-flipped) frames; and `--verify`'s counts and
// named frames, its fast ICRC checks against the CRC status of every frame dissected. Every
// pass (summary, fields, -V, -T json, --verify) runs over every core (frames that may reach TCP
// through the one stream decoder) while --full-dissection runs in one thread, so the comparison
// also checks the threads' output against the sequential one; a capture of many batches mixes both
// kinds in each.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "../support/corrupted_frames.h"
#include "../support/iwarp_frames.h"
#include "../support/large_capture.h"
#include "../support/repository_captures.h"
#include "cli_runner.h"
#include "rdmascope/packets/ib_builder.h"
#include "rdmascope/packets/mad_builder.h"
#include "rdmascope/packets_io/capture_writer.h"

namespace rdmascope::cli::test {
namespace {

using Frames = std::vector<std::vector<std::uint8_t>>;

using ::rdmascope::test::repositoryCaptures;
using ::rdmascope::test::writeCaptureLargerThanTheRing;

// `wireExtra`: bytes each frame had on the wire beyond those captured (its recorded original
// length is that much larger).
std::string write(const std::string& name, packets::LinkType link, const Frames& frames,
                  std::uint32_t wireExtra = 0) {
  const std::string path = tempPath(name);
  std::string error;
  auto w = packets_io::CaptureWriter::open(path, link, error);
  EXPECT_TRUE(w) << error;
  if (!w) return path;
  std::int64_t t = 1'700'000'000'123'456'789;
  for (const auto& f : frames)
    w->write(f, t += 1'234'567, wireExtra ? static_cast<std::uint32_t>(f.size()) + wireExtra : 0);
  w->close();
  return path;
}

// Captures built here, in a temporary folder; removed by the destructor.
struct GeneratedCaptures {
  std::vector<std::string> paths;

  GeneratedCaptures() {
    Frames iwarp;
    for (const char* scenario : {"iwarp-read", "iwarp-write", "iwarp-send-recv"}) {
      const Frames frames = ::rdmascope::test::iwarpFrames(scenario);
      if (frames.empty()) continue;
      iwarp.insert(iwarp.end(), frames.begin(), frames.end());
      paths.push_back(write(std::string(scenario) + ".pcap", packets::LinkType::Ethernet, frames));
    }
    Frames ethernet, erf;
    for (const auto& s : packets::sampleIbFrames())
      (s.link == packets::LinkType::Erf ? erf : ethernet).push_back(s.bytes);
    Frames cm;
    for (const auto& s : packets::sampleCmFrames())
      (s.link == packets::LinkType::Erf ? erf : cm).push_back(s.bytes);
    paths.push_back(write("ib_samples.pcap", packets::LinkType::Ethernet, ethernet));
    paths.push_back(write("ib_samples_erf.pcap", packets::LinkType::Erf, erf));
    paths.push_back(write("cm_samples.pcap", packets::LinkType::Ethernet, cm));
    Frames someEthernet(ethernet.begin(),
                        ethernet.begin() + std::min<std::ptrdiff_t>(6, std::ssize(ethernet)));
    someEthernet.insert(someEthernet.end(), cm.begin(),
                        cm.begin() + std::min<std::ptrdiff_t>(3, std::ssize(cm)));
    Frames someErf(erf.begin(), erf.begin() + std::min<std::ptrdiff_t>(2, std::ssize(erf)));
    paths.push_back(write("corrupted_ethernet.pcap", packets::LinkType::Ethernet,
                          ::rdmascope::test::corruptedFrames(someEthernet)));
    paths.push_back(write("corrupted_erf.pcap", packets::LinkType::Erf,
                          ::rdmascope::test::corruptedFrames(someErf)));
    // Many batches of the parallel passes: RoCE frames between the iWARP conversations' frames
    // (kept in their order, repeated), so stream and other frames share every batch.
    paths.push_back(write("interleaved_batches.pcap", packets::LinkType::Ethernet, [&] {
      Frames out;
      for (std::size_t i = 0, j = 0; out.size() < 9000 && !iwarp.empty() && !ethernet.empty();
           ++i) {
        out.push_back(ethernet[i % ethernet.size()]);
        if (i % 3 == 0) out.push_back(iwarp[j++ % iwarp.size()]);
      }
      return out;
    }()));
    paths.push_back(write("raw_ib.pcap", packets::LinkType::InfiniBand, [&] {
      Frames ib;
      for (const auto& f : erf)
        if (f.size() > 16) ib.emplace_back(f.begin() + 16, f.end());  // ERF header off: LRH first
      return ib;
    }()));
    // RoCEv2 of every opcode behind 802.1Q, 802.1ad and 0x9100 tags and over IPv6, whole and
    // corrupted (the field extractor reads these shapes too).
    Frames tagged;
    for (const auto& s : packets::sampleIbFrames()) {
      const auto parsed = packets::parseIbFrame(s.bytes, s.link);
      if (!parsed || parsed->carrier != packets::IbCarrier::RoceV2) continue;
      packets::RoceAddressing a;
      a.vlan = packets::VlanTag{3, false, 100, 0x8100};
      tagged.push_back(packets::buildRoceV2(a, parsed->packet));
      a.outerVlans = {packets::VlanTag{1, true, 7, 0x88a8}, packets::VlanTag{0, false, 9, 0x9100}};
      a.srcIp = packets::IpAddress::fromV6({0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1});
      a.dstIp =
          packets::IpAddress::fromV6({0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2});
      tagged.push_back(packets::buildRoceV2(a, parsed->packet));
      a.vlan.reset();
      a.outerVlans.clear();
      tagged.push_back(packets::buildRoceV2(a, parsed->packet));
    }
    paths.push_back(write("vlan_ipv6.pcap", packets::LinkType::Ethernet, tagged));
    // Captured without the 4-byte FCS the wire carried: frame.len (the original length) is not
    // the captured length, in the summary line too.
    paths.push_back(write("fcs_not_captured.pcap", packets::LinkType::Ethernet, tagged, 4));
    paths.push_back(
        write("corrupted_vlan_ipv6.pcap", packets::LinkType::Ethernet,
              ::rdmascope::test::corruptedFrames(Frames(tagged.begin(), tagged.begin() + 12))));
  }
  ~GeneratedCaptures() {
    for (const auto& p : paths)
      std::remove(p.c_str());
  }
};

// Filters that read numbers, strings (values), reals, prefixes, aggregates, presence and
// several occurrences, under every operator and connective.
const std::vector<std::string> kFilters = {
    "infiniband.aeth.syndrome == 96",
    "infiniband.bth.opcode != 17 && !(frame.len > 200)",
    "infiniband.bth.opcode == \"RC Acknowledge\" or infiniband.bth.opcode eq 0x0a",
    "infiniband.bth.psn >= 100 and infiniband.bth.psn lt 1e6",
    "ip.addr == 192.168.0.0/16 || ipv6.addr",
    "eth.addr == 52:54:00:12:34:56 || eth.src != ff:ff:ff:ff:ff:ff",
    "frame.time_relative > 0.01 && frame.time_relative <= 1",
    "infiniband.icrc.status == \"bad\" || infiniband.vcrc.status == \"bad\"",
    "infiniband.aeth.kind == \"NAK\" || infiniband.aeth.kind == \"RNR NAK\"",
    "data.len > 100 || data.data",
    "infiniband.cm || infiniband.mad.attributeid == 0x0010",
    "tcp.len > 0 && iwarp_ddp.tagged_flag == 1 || iwarp_mpa",
    "udp.port == 4791 && infiniband.bth.destqp ge 0x11",
    "infiniband.lrh.dlid < 5 || erf.types.type == 21",
    "infiniband.bth.psn",
    "infiniband.reth && ip.ttl < 64 || infiniband.deth.srcqp == 0x11 || !udp",
    "vlan.id == 100 && infiniband.bth.psn > 3 || ieee8021ad || ipv6.src == fe80::1 && udp",
};

const std::vector<std::string> kFieldKeys = {
    "frame.number",
    "frame.time_relative",
    "frame.time_epoch",
    "frame.len",
    "eth.src",
    "ip.src",
    "ip.addr",
    "ipv6.dst",
    "udp.port",
    "tcp.len",
    "infiniband.bth",
    "infiniband.bth.opcode",
    "infiniband.bth.psn",
    "infiniband.bth.destqp",
    "infiniband.aeth.syndrome",
    "infiniband.aeth.kind",
    "infiniband.reth.va",
    "infiniband.icrc.value",
    "infiniband.icrc.status",
    "infiniband.lrh.dlid",
    "infiniband.vcrc.value",
    "erf.types.type",
    "infiniband.mad",
    "infiniband.cm.req.serviceid",
    "iwarp_ddp.msn",
    "iwarp_mpa.crc",
    "data.data",
    "data.len",
};

// Field lists whose every key the field extractor reads from the bytes (FieldExtractor): these
// -T fields passes take the fast path for the common RoCEv2 frames.
const std::vector<std::vector<std::string>> kExtractedFieldKeys = {
    {"frame.number", "ip.src", "ip.dst", "infiniband.bth.opcode", "infiniband.bth.destqp",
     "infiniband.bth.psn", "infiniband.aeth.syndrome"},
    {"frame.time_relative", "frame.time_epoch", "frame.cap_len", "eth.addr", "ip.addr", "udp.port",
     "ip.hdr_len", "ip.checksum", "infiniband.bth", "infiniband.reth.va", "infiniband.reth.dmalen",
     "infiniband.deth.srcqp", "infiniband.immdt", "infiniband.reserved",
     "infiniband.atomicacketh.origremdt", "infiniband.aeth"},
};

std::vector<std::vector<std::string>> passes() {
  std::vector<std::vector<std::string>> out = {{}, {"-T", "json"}};
  for (const auto& keys : kExtractedFieldKeys) {
    std::vector<std::string> pass = {"-T", "fields", "-E", "occurrence=a", "-E", "aggregator=;"};
    for (const auto& k : keys)
      pass.insert(pass.end(), {"-e", k});
    out.push_back(pass);
  }
  std::vector<std::string> fields = {"-T", "fields"};
  for (const auto& k : kFieldKeys) {
    fields.push_back("-e");
    fields.push_back(k);
  }
  out.push_back(fields);
  auto first = fields;
  first.insert(first.end(), {"-E", "occurrence=f", "-E", "header=y"});
  out.push_back(first);
  for (const auto& f : kFilters)
    out.push_back({"-Y", f});
  out.push_back({"-Y", kFilters[1], "-T", "fields", "-e", "infiniband.bth.psn", "-e", "ip.dst"});
  out.push_back({"-Y", kFilters[4], "-T", "json"});
  out.push_back({"-V"});
  out.push_back({"-V", "-c", "300"});
  out.push_back({"-Y", kFilters[8], "-V"});
  out.push_back({"-T", "json", "-c", "300"});
  // --verify: the fast ICRC checks over every core against every frame dissected in one thread.
  out.push_back({"--verify"});
  out.push_back({"--verify", "-c", "700"});
  return out;
}

void expectSameAsFull(const std::string& capture) {
  for (const auto& pass : passes()) {
    std::vector<std::string> args = {"decode", capture};
    args.insert(args.end(), pass.begin(), pass.end());
    const RunResult fast = runCli(args);
    args.push_back("--full-dissection");
    const RunResult full = runCli(args);
    std::string what = capture;
    for (const auto& a : pass)
      what.append(" ").append(a);
    EXPECT_EQ(fast.exitCode, full.exitCode) << what;
    EXPECT_EQ(fast.err, full.err) << what;
    EXPECT_TRUE(fast.out == full.out) << what << ": the fast pass prints otherwise";
    if (pass.empty()) {
      EXPECT_FALSE(full.out.empty()) << what;
    }
  }
}

TEST(LeanDecode, EveryRepositoryCapturePrintsAsTheFullDissection) {
  const auto captures = repositoryCaptures();
  ASSERT_GE(captures.size(), 30u);
  for (const auto& c : captures)
    expectSameAsFull(c);
}

TEST(LeanDecode, GeneratedIwarpCmRoceV1NativeIbAndCorruptedCapturesPrintAsTheFullDissection) {
  const GeneratedCaptures generated;
  ASSERT_EQ(generated.paths.size(), 13u);
  for (const auto& c : generated.paths)
    expectSameAsFull(c);
}

// Larger than the reader's ring (24 MiB): the line passes' batches in flight would hold more
// bytes than the reader keeps, so reading stops until the oldest batch is written.
TEST(LeanDecode, ACaptureLargerThanTheReadersRingPrintsAsTheFullDissection) {
  const std::string path = tempPath("lean_decode_large.pcap");
  ASSERT_EQ(writeCaptureLargerThanTheRing(path, ::rdmascope::test::repositoryEthernetFrames(), 24),
            "");
  const std::vector<std::vector<std::string>> largePasses = {
      {},
      {"-Y", kFilters[1]},
      {"-T", "fields", "-e", "frame.len", "-e", "infiniband.bth.psn"},
      {"--verify"}};
  for (const auto& pass : largePasses) {
    std::vector<std::string> args = {"decode", path};
    args.insert(args.end(), pass.begin(), pass.end());
    const RunResult fast = runCli(args);
    args.push_back("--full-dissection");
    const RunResult full = runCli(args);
    std::string what;
    for (const auto& a : pass)
      what.append(" ").append(a);
    EXPECT_EQ(fast.exitCode, full.exitCode) << what;
    EXPECT_TRUE(fast.out == full.out) << what << ": the fast pass prints otherwise";
    if (pass.size() == 1 && pass[0] == "--verify")
      EXPECT_NE(full.out.find(" bad CRC, "), std::string::npos) << full.out;
    else
      EXPECT_GT(full.out.size(), std::size_t{100000}) << what;
  }
  std::remove(path.c_str());
}

// The filters above are not vacuous: over the repository's captures each selects some frames
// and leaves others (so a wrong fast value would change the output).
TEST(LeanDecode, FiltersSelectSomeFramesOfTheCaptures) {
  const GeneratedCaptures generated;
  auto captures = repositoryCaptures();
  captures.insert(captures.end(), generated.paths.begin(), generated.paths.end());
  for (const auto& f : kFilters) {
    bool some = false, notAll = false;
    for (const auto& c : captures) {
      const RunResult all = runCli({"decode", c});
      const RunResult sel = runCli({"decode", c, "-Y", f});
      if (!sel.out.empty()) some = true;
      if (sel.out.size() < all.out.size()) notAll = true;
      if (some && notAll) break;
    }
    EXPECT_TRUE(some && notAll) << f;
  }
}

}  // namespace
}  // namespace rdmascope::cli::test
