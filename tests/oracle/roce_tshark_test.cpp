// tshark as the oracle for InfiniBand: every opcode and header (RoCEv2 over IPv4, IPv6 and
// 802.1Q, RoCEv1, native IB inside ERF records) is written to capture files, decoded by
// `tshark -T fields` and by `rdmascope-cli decode -T fields`, and every key both decode must
// agree frame by frame. Where tshark is wrong or silent, the test asserts tshark's flaw (so an
// upgrade that fixes it is noticed) and rdmascope's correct value instead.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/ib_builder.h"
#include "rdmascope/packets/ib_opcodes.h"
#include "rdmascope/packets_io/capture_writer.h"
#include "tshark_runner.h"

namespace rdmascope::packets {
namespace {

using rdmascope::testing::fieldArgs;
using rdmascope::testing::splitTabs;
using rdmascope::testing::tsharkFieldKeys;
using Row = rdmascope::testing::FieldRow;
using Output = rdmascope::testing::CommandOutput;

Output run(const std::string& cmd) {
  return rdmascope::testing::runCommandStatus(cmd);
}

std::string cli() {
  return rdmascope::testing::cliCommand();
}

std::string tshark() {
  return rdmascope::testing::tsharkCommand();
}

// Protocols whose keys are compared besides infiniband.*.
const std::vector<std::string> kPrefixes = {"infiniband.", "frame.", "eth.", "vlan.", "ip.",
                                            "ipv6.",       "udp.",   "erf.", "data."};

std::string tempCapture(const std::string& name) {
  // The process id keeps concurrent runs (ctest -j, several build trees) apart.
  return (std::filesystem::temp_directory_path() /
          ("rdmascope_roce_" + name + "_" + std::to_string(getpid()) + ".pcap"))
      .string();
}

// Frame i is stamped 1700000000 + i/8 s: exact both in nanoseconds and in ERF's 32.32 fixed
// point, which tshark reads from ERF records instead of the pcap record's time.
void writeCapture(const std::string& path, LinkType link,
                  std::vector<std::vector<std::uint8_t>> frames) {
  std::string error;
  auto w = packets_io::CaptureWriter::open(path, link, error);
  ASSERT_TRUE(w) << error;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const std::uint64_t seconds = 1700000000 + i / 8, eighths = i % 8;
    if (link == LinkType::Erf && frames[i].size() >= 16) {
      const std::uint64_t erf = seconds << 32 | eighths << 29;
      for (int b = 0; b < 8; ++b)
        frames[i][b] = static_cast<std::uint8_t>(erf >> (8 * b));
    }
    const auto ns = static_cast<std::int64_t>(seconds * 1000000000 + eighths * 125000000);
    ASSERT_TRUE(w->write(frames[i], ns)) << w->error();
  }
  ASSERT_TRUE(w->close()) << w->error();
}

// Keys rdmascope emits with a value on these frames, limited to the compared protocols.
std::set<std::string> ourKeys(const std::vector<std::vector<std::uint8_t>>& frames, LinkType link) {
  std::set<std::string> keys;
  for (const auto& f : frames) {
    const auto d = decodeFrame(f, link);
    for (const auto& n : d.nodes) {
      if (n.value.empty()) continue;
      for (const auto& p : kPrefixes)
        if (n.key.substr(0, p.size()) == p) keys.emplace(n.key);
    }
  }
  return keys;
}

std::vector<Row> parseFields(const std::string& text, const std::vector<std::string>& keys) {
  return rdmascope::testing::parseFieldRows(text, keys);
}

std::vector<Row> tsharkRows(const std::string& capture, const std::vector<std::string>& keys) {
  return parseFields(run(tshark() + " -r " + capture + fieldArgs(keys)).out, keys);
}

std::vector<Row> ourRows(const std::string& capture, const std::vector<std::string>& keys) {
  const auto r = run(cli() + " decode " + capture + fieldArgs(keys));
  EXPECT_EQ(r.exitCode, 0);
  return parseFields(r.out, keys);
}

std::string hex(std::span<const std::uint8_t> bytes) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (const auto b : bytes) {
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

std::uint64_t numberOf(const Dissection& d, std::string_view key) {
  const auto* n = d.find(key);
  EXPECT_TRUE(n && n->hasNumber) << "rdmascope shows no " << key;
  return n && n->hasNumber ? n->number : ~0ull;
}

// What a comparison covered: cells compared and the keys they belong to.
struct Comparison {
  std::size_t cells = 0;
  std::set<std::string> keysCompared;
};

// A frame of the capture together with what was built into it.
struct Built {
  std::vector<std::uint8_t> bytes;
  std::string description;
  std::optional<ParsedIbFrame> parsed;  // the builder's headers read back
};

// Checks one capture frame by frame and applies the documented exceptions.
void compareCapture(const std::string& name, LinkType link, const std::vector<Built>& frames,
                    Comparison& result) {
  std::vector<std::vector<std::uint8_t>> bytes;
  for (const auto& f : frames)
    bytes.push_back(f.bytes);
  const auto path = tempCapture(name);
  writeCapture(path, link, bytes);

  const auto theirKeys = tsharkFieldKeys();
  EXPECT_GT(theirKeys.size(), 1000u) << "tshark -G fields gave too few fields";
  std::vector<std::string> keys;
  for (const auto& k : ourKeys(bytes, link))
    if (theirKeys.count(k)) keys.push_back(k);
  const auto theirs = tsharkRows(path, keys);
  const auto ours = ourRows(path, keys);
  EXPECT_EQ(theirs.size(), frames.size()) << name;
  EXPECT_EQ(ours.size(), frames.size()) << name;

  for (std::size_t i = 0; i < frames.size() && i < theirs.size() && i < ours.size(); ++i) {
    const auto& f = frames[i];
    const auto d = decodeFrame(f.bytes, link);
    const std::string where = name + " frame " + std::to_string(i + 1) + " (" + f.description + ")";
    if (!f.parsed) {
      ADD_FAILURE() << where << ": the builder's frame does not parse";
      continue;
    }
    const auto& packet = f.parsed->packet;
    const auto opcode = packet.bth.opcode;
    const auto* info = ibOpcodeInfo(static_cast<IbOpcode>(opcode));
    const bool rd = opcode >= 0x40 && opcode <= 0x5f;
    // CNP, XRC, FLUSH and ATOMIC WRITE (IBTA 1.5; tshark 4.0 calls them "Unknown (28)" and
    // "Unknown (29)").
    const bool cnpOrXrc = opcode == 0x81 || opcode >= 0xa0 || opcode == 0x1c || opcode == 0x1d;
    const bool mad = packet.bth.destQp <= 1;
    const Row& t = theirs[i];
    const Row& o = ours[i];
    std::set<std::string> skip;

    if (rd) {
      // tshark decodes 0x40-0x5F as Mellanox DC with a 20-byte BTH, so it reads the RDETH,
      // the DETH and everything after them eight bytes late. rdmascope reads the IBTA's RD
      // layout: BTH (12 bytes), RDETH, DETH, then the opcode's other headers.
      EXPECT_TRUE(packet.rdeth) << where;
      if (packet.rdeth) {
        EXPECT_EQ(numberOf(d, "infiniband.rdeth.eecnxt"), packet.rdeth->eeContext) << where;
        EXPECT_NE(t.count("infiniband.rdeth.eecnxt") ? t.at("infiniband.rdeth.eecnxt") : "",
                  o.at("infiniband.rdeth.eecnxt"))
            << where << ": tshark's RD flaw is gone?";
      }
      if (packet.deth) {
        EXPECT_EQ(numberOf(d, "infiniband.deth.q_key"), packet.deth->qkey) << where;
        EXPECT_EQ(numberOf(d, "infiniband.deth.srcqp"), packet.deth->srcQp) << where;
      }
      if (packet.reth) {
        EXPECT_EQ(numberOf(d, "infiniband.reth.va"), packet.reth->va) << where;
        EXPECT_EQ(numberOf(d, "infiniband.reth.dmalen"), packet.reth->dmaLength) << where;
      }
      if (packet.aeth) {
        EXPECT_EQ(numberOf(d, "infiniband.aeth.msn"), packet.aeth->msn) << where;
      }
      for (const auto& k : keys)
        if (k.rfind("infiniband.", 0) == 0 && k.rfind("infiniband.bth.", 0) != 0 &&
            k.rfind("infiniband.lrh.", 0) != 0 && k.rfind("infiniband.grh.", 0) != 0)
          skip.insert(k);
      skip.insert("data.data");
      skip.insert("data.len");
    }
    if (cnpOrXrc) {
      // tshark names CNP (as "Unknown (129)") and XRC opcodes but decodes no header after the
      // BTH: the rest of the packet, ICRC included, is infiniband.vendor. rdmascope decodes
      // the CNP's reserved bytes and the XRCETH and the headers after it.
      EXPECT_TRUE(info) << where;
      // So tshark's chain of protocols ends at infiniband where rdmascope's goes on to the
      // payload (data).
      if (o.count("frame.protocols")) {
        std::string chain = o.at("frame.protocols");
        if (chain.ends_with(":data")) chain.resize(chain.size() - 5);
        EXPECT_EQ(t.count("frame.protocols") ? t.at("frame.protocols") : "<absent>", chain)
            << where;
        skip.insert("frame.protocols");
      }
      EXPECT_EQ(t.count("infiniband.invariant.crc"), 0u) << where << ": tshark's flaw is gone?";
      // The ICRC is stored little-endian; invariant.crc reads it big-endian, as tshark does.
      EXPECT_EQ(numberOf(d, "infiniband.invariant.crc"), __builtin_bswap32(f.parsed->icrcWire))
          << where;
      if (packet.xrcEth) {
        EXPECT_EQ(numberOf(d, "infiniband.xrceth.xrcsrq"), packet.xrcEth->xrcSrq) << where;
      }
      if (packet.reth) {
        EXPECT_EQ(numberOf(d, "infiniband.reth.va"), packet.reth->va) << where;
        EXPECT_EQ(numberOf(d, "infiniband.reth.r_key"), packet.reth->rkey) << where;
      }
      if (packet.aeth) {
        EXPECT_EQ(numberOf(d, "infiniband.aeth.syndrome"), packet.aeth->syndrome) << where;
      }
      if (packet.atomicEth) {
        EXPECT_EQ(numberOf(d, "infiniband.atomiceth.swapdt"), packet.atomicEth->swapAdd) << where;
      }
      if (packet.atomicAckEth) {
        EXPECT_EQ(numberOf(d, "infiniband.atomicacketh.origremdt"),
                  packet.atomicAckEth->origRemoteData)
            << where;
      }
      if (opcode == 0x81) {
        EXPECT_TRUE(d.find("infiniband.cnp.reserved")) << where;
      }
      for (const auto& k : keys)
        if (k.rfind("infiniband.", 0) == 0 && k.rfind("infiniband.bth.", 0) != 0 &&
            k.rfind("infiniband.lrh.", 0) != 0 && k.rfind("infiniband.grh.", 0) != 0)
          skip.insert(k);
      skip.insert("data.data");
      skip.insert("data.len");
    }
    if (mad) {
      // Both read every packet to QP 0 or 1 as a management datagram: the common MAD header is
      // compared below; tshark also decodes the subnet management class (1) after it, whose
      // fields add further infiniband.reserved occurrences after the DETH's and the MAD's.
      // (CM messages, class 7, are compared field by field in cm_tshark_test.cpp.)
      EXPECT_EQ(t.count("data.data"), 0u) << where << ": tshark no longer reads MADs on QP 0/1?";
      EXPECT_EQ(o.count("data.data"), 0u) << where;
      const auto& reserved = o.at("infiniband.reserved");
      EXPECT_EQ(t.at("infiniband.reserved").substr(0, reserved.size() + 1), reserved + ",")
          << where;
      skip.insert("infiniband.reserved");
      EXPECT_EQ(o.count("infiniband.mad.data") ? o.at("infiniband.mad.data") : "<absent>",
                hex(std::span(packet.payload).subspan(24)))
          << where;
    }
    if (!rd && !cnpOrXrc && !mad && o.count("data.data")) {
      // tshark's data.data runs to the ICRC, so it includes the pad bytes; rdmascope's stops
      // at the end of the payload and shows the pad as infiniband.pad.
      const std::vector<std::uint8_t> pad(packet.bth.padCount, 0);
      EXPECT_EQ(t.count("data.data") ? t.at("data.data") : "<absent>", o.at("data.data") + hex(pad))
          << where;
      EXPECT_EQ(t.count("data.len") ? t.at("data.len") : "<absent>",
                std::to_string(std::stoul(o.at("data.len")) + pad.size()))
          << where;
      skip.insert("data.len");
      EXPECT_EQ(o.at("data.data"), hex(packet.payload)) << where;
      skip.insert("data.data");
      result.keysCompared.insert("data.data");
    }

    if (o.count("ipv6.version")) {
      // tshark's IPv6 dissector also adds a hidden ip.version field; rdmascope's ip.* keys
      // belong to IPv4 only.
      EXPECT_EQ(t.count("ip.version") ? t.at("ip.version") : "<absent>", "6") << where;
      EXPECT_EQ(o.count("ip.version"), 0u) << where;
      skip.insert("ip.version");
    }
    if (link == LinkType::Erf) {
      // tshark takes the frame length from the ERF record's wire length (the IB packet);
      // rdmascope's frame.len and frame.cap_len are those of the pcap record (the whole ERF
      // record), as for every other link type.
      const auto wlen = std::to_string(f.bytes[14] << 8 | f.bytes[15]);
      EXPECT_EQ(t.count("frame.len") ? t.at("frame.len") : "", wlen) << where;
      EXPECT_EQ(t.count("frame.cap_len") ? t.at("frame.cap_len") : "", wlen) << where;
      EXPECT_EQ(o.count("frame.len") ? o.at("frame.len") : "", std::to_string(f.bytes.size()))
          << where;
      skip.insert("frame.len");
      skip.insert("frame.cap_len");
    }
    for (const auto& k : keys) {
      if (skip.count(k)) continue;
      const auto a = o.find(k), b = t.find(k);
      const std::string mine = a == o.end() ? "<absent>" : a->second;
      const std::string their = b == t.end() ? "<absent>" : b->second;
      EXPECT_EQ(mine, their) << where << ": " << k;
      if (a != o.end() || b != t.end()) {
        ++result.cells;
        result.keysCompared.insert(k);
      }
    }
  }
  std::filesystem::remove(path);
}

Built built(std::vector<std::uint8_t> bytes, std::string description, LinkType link) {
  Built b{std::move(bytes), std::move(description), {}};
  std::string error;
  b.parsed = parseIbFrame(b.bytes, link, {}, &error);
  EXPECT_TRUE(b.parsed) << b.description << ": " << error;
  return b;
}

std::vector<Built> samples(LinkType link) {
  std::vector<Built> out;
  for (auto& s : sampleIbFrames())
    if (s.link == link) out.push_back(built(std::move(s.bytes), s.description, link));
  return out;
}

// UD SEND Only to QP 0 and QP 1 (the management QPs).
std::vector<Built> managementFrames() {
  std::vector<Built> out;
  for (const std::uint32_t qp : {0u, 1u}) {
    IbPacket p;
    p.bth.opcode = static_cast<std::uint8_t>(IbOpcode::UdSendOnly);
    p.bth.destQp = qp;
    p.bth.psn = 77;
    p.deth = Deth{0x80010000, 1};
    p.payload.assign(256, 0);
    p.payload[0] = 1;  // a MAD header: base version 1, class 1 (SMP)
    p.payload[1] = 1;
    p.payload[2] = 1;
    p.payload[3] = 1;
    out.push_back(
        built(buildRoceV2({}, p), "UD SEND Only to QP " + std::to_string(qp), LinkType::Ethernet));
  }
  return out;
}

TEST(RoceTshark, EthernetCarriersAgreeOnEverySharedKey) {
  RDMASCOPE_NEED_ORACLES(Tshark, Cli);
  auto frames = samples(LinkType::Ethernet);
  for (auto& m : managementFrames())
    frames.push_back(std::move(m));
  Comparison c;
  compareCapture("ethernet", LinkType::Ethernet, frames, c);
  // The comparison covers every header of every carrier.
  for (const char* k : {"infiniband.bth.opcode",
                        "infiniband.bth.psn",
                        "infiniband.bth.destqp",
                        "infiniband.reth.va",
                        "infiniband.reth.dmalen",
                        "infiniband.aeth.syndrome",
                        "infiniband.aeth.msn",
                        "infiniband.deth.q_key",
                        "infiniband.deth.srcqp",
                        "infiniband.atomiceth.swapdt",
                        "infiniband.atomiceth.cmpdt",
                        "infiniband.atomicacketh.origremdt",
                        "infiniband.grh.sgid",
                        "infiniband.grh.flowlabel",
                        "infiniband.invariant.crc",
                        "ip.src",
                        "ipv6.src",
                        "udp.dstport",
                        "vlan.id",
                        "eth.src",
                        "data.data",
                        "infiniband.mad.mgmtclass",
                        "infiniband.mad.attributeid",
                        "infiniband.mad.data",
                        "frame.time",
                        "frame.time_delta",
                        "frame.protocols"})
    EXPECT_TRUE(c.keysCompared.count(k)) << k << " was never compared";
  std::printf("compared %zu cells over %zu keys:", c.cells, c.keysCompared.size());
  for (const auto& k : c.keysCompared)
    std::printf(" %s", k.c_str());
  std::printf("\n");
}

TEST(RoceTshark, NativeIbInErfAgreesOnEverySharedKey) {
  RDMASCOPE_NEED_ORACLES(Tshark, Cli);
  Comparison c;
  compareCapture("erf", LinkType::Erf, samples(LinkType::Erf), c);
  for (const char* k : {"infiniband.lrh.dlid", "infiniband.lrh.slid", "infiniband.lrh.pktlen",
                        "infiniband.lrh.lnh", "infiniband.grh.dgid", "infiniband.bth.opcode",
                        "infiniband.variant.crc", "infiniband.invariant.crc"})
    EXPECT_TRUE(c.keysCompared.count(k)) << k << " was never compared";
  std::printf("compared %zu cells over %zu keys:", c.cells, c.keysCompared.size());
  for (const auto& k : c.keysCompared)
    std::printf(" %s", k.c_str());
  std::printf("\n");
}

std::string verifyCommand(const std::string& capture) {
  return cli() + " decode --verify " + capture;
}

// Where the ICRC of a built frame starts: after the BTH, the extension headers, payload and pad.
std::size_t icrcOffset(const Built& b) {
  return b.parsed->bthOffset + encodeIbTransport(b.parsed->packet).size();
}

// tshark never checks the ICRC: a frame whose ICRC is wrong decodes exactly like the good
// one (only the shown invariant.crc value differs), with no expert item. rdmascope-cli
// --verify names the frame and exits 1.
TEST(RoceTsharkIcrc, TsharkShowsNoSignOfABadIcrcVerifyNamesTheFrame) {
  RDMASCOPE_NEED_ORACLES(Tshark, Cli);
  const auto frames = samples(LinkType::Ethernet);
  std::vector<std::vector<std::uint8_t>> good, bad;
  for (const auto& f : frames)
    good.push_back(f.bytes);
  bad = good;
  const std::size_t target = 4;  // RC SEND Only
  bad[target][icrcOffset(frames[target]) + 1] ^= 0x5a;
  const auto goodPath = tempCapture("icrc_good"), badPath = tempCapture("icrc_bad");
  writeCapture(goodPath, LinkType::Ethernet, good);
  writeCapture(badPath, LinkType::Ethernet, bad);

  const auto tsharkGood = run(tshark() + " -r " + goodPath + " -V");
  const auto tsharkBad = run(tshark() + " -r " + badPath + " -V");
  ASSERT_EQ(tsharkBad.exitCode, 0);
  std::istringstream a(tsharkGood.out), b(tsharkBad.out);
  std::vector<std::string> differing;
  for (std::string la, lb; std::getline(a, la) && std::getline(b, lb);)
    if (la != lb) differing.push_back(lb);
  ASSERT_EQ(differing.size(), 1u) << "tshark now reacts to a bad ICRC?";
  EXPECT_NE(differing[0].find("Invariant CRC: 0x"), std::string::npos) << differing[0];
  // Expert items (e.g. the zero UDP checksum of RoCEv2 over IPv6) are the same for both.
  const std::string expertArgs = " -T fields -e frame.number -e _ws.expert -e _ws.malformed";
  const auto expertGood = run(tshark() + " -r " + goodPath + expertArgs);
  const auto expertBad = run(tshark() + " -r " + badPath + expertArgs);
  EXPECT_FALSE(expertBad.out.empty());
  EXPECT_EQ(expertBad.out, expertGood.out);

  const auto okRun = run(verifyCommand(goodPath));
  EXPECT_EQ(okRun.exitCode, 0) << okRun.out;
  EXPECT_NE(okRun.out.find(std::to_string(good.size()) + " good CRC, 0 bad CRC"), std::string::npos)
      << okRun.out;
  const auto badRun = run(verifyCommand(badPath));
  EXPECT_EQ(badRun.exitCode, 1) << badRun.out;
  EXPECT_NE(badRun.out.find("frame " + std::to_string(target + 1) + ": bad CRC\n"),
            std::string::npos)
      << badRun.out;
  EXPECT_NE(badRun.out.find(std::to_string(good.size() - 1) + " good CRC, 1 bad CRC"),
            std::string::npos)
      << badRun.out;
  std::filesystem::remove(goodPath);
  std::filesystem::remove(badPath);
}

struct Carrier {
  const char* name;
  LinkType link;
  const char* prefix;         // of the sample descriptions
  std::size_t networkOffset;  // a byte the ICRC covers before the BTH (IP or GRH address, LRH)
};

void PrintTo(const Carrier& c, std::ostream* os) {
  *os << c.name;
}

class RoceCorruption : public ::testing::TestWithParam<Carrier> {};

// Corrupting one byte of one frame among many (in the addresses, the BTH, the payload or the
// ICRC itself) makes exactly that frame's ICRC (or VCRC) bad for rdmascope-cli --verify.
TEST_P(RoceCorruption, OneCorruptedByteMakesExactlyThatFrameBad) {
  RDMASCOPE_NEED_ORACLES(Cli);
  const auto& c = GetParam();
  std::vector<Built> frames;
  for (auto& f : samples(c.link))
    if (f.description.rfind(c.prefix, 0) == 0) frames.push_back(std::move(f));
  ASSERT_GE(frames.size(), 5u) << c.name;
  // Many frames: the carrier's samples four times over.
  std::vector<Built> all;
  for (int rep = 0; rep < 4; ++rep)
    all.insert(all.end(), frames.begin(), frames.end());
  std::vector<std::vector<std::uint8_t>> clean;
  for (const auto& f : all)
    clean.push_back(f.bytes);
  const auto path = tempCapture(std::string("corrupt_") + c.name);
  writeCapture(path, c.link, clean);
  const auto okRun = run(verifyCommand(path));
  EXPECT_EQ(okRun.exitCode, 0) << okRun.out;

  std::size_t target = 3;
  for (const char* where : {"network", "opcode", "psn", "payload", "icrc"}) {
    target = (target * 7 + 5) % all.size();
    const auto& f = all[target];
    const std::size_t bth = f.parsed->bthOffset, icrc = icrcOffset(f);
    const std::string w = where;
    const std::size_t at = w == "network"   ? c.networkOffset
                           : w == "opcode"  ? bth
                           : w == "psn"     ? bth + 11
                           : w == "payload" ? icrc - 1
                                            : icrc + 2;
    ASSERT_LT(at, f.bytes.size()) << c.name << " " << where;
    auto corrupted = clean;
    corrupted[target][at] ^= 0x01;
    writeCapture(path, c.link, corrupted);
    const auto r = run(verifyCommand(path));
    EXPECT_EQ(r.exitCode, 1) << c.name << " " << where << "\n" << r.out;
    // The only frame listed is the corrupted one.
    const std::string listed = "frame " + std::to_string(target + 1) + ": bad CRC\n";
    EXPECT_EQ(r.out.rfind(": bad CRC\n"), listed.size() - 10) << c.name << " " << where << "\n"
                                                              << r.out;
    EXPECT_EQ(r.out.rfind(listed, 0), 0u) << c.name << " " << where << "\n" << r.out;
    EXPECT_NE(r.out.find(std::to_string(all.size() - 1) + " good CRC, 1 bad CRC"),
              std::string::npos)
        << c.name << " " << where << " (byte " << at << " of frame " << target + 1 << ")\n"
        << r.out;
  }
  std::filesystem::remove(path);
}

// Offsets: Ethernet 14 bytes; IPv4 source address at 12, IPv6's at 8, the GRH's SGID at 8;
// the ERF record header is 16 bytes and the LRH's DLID is at 2.
INSTANTIATE_TEST_SUITE_P(
    Carriers, RoceCorruption,
    ::testing::Values(Carrier{"rocev2_ipv4", LinkType::Ethernet, "RoCEv2/IPv4 ", 14 + 12},
                      Carrier{"rocev2_ipv6", LinkType::Ethernet, "RoCEv2/IPv6 ", 14 + 8},
                      Carrier{"rocev2_vlan", LinkType::Ethernet, "RoCEv2/802.1Q/IPv4 ", 18 + 12},
                      Carrier{"rocev1", LinkType::Ethernet, "RoCEv1 ", 14 + 8},
                      Carrier{"native_ib_local", LinkType::Erf, "native IB local ", 16 + 2},
                      Carrier{"native_ib_global", LinkType::Erf, "native IB global ", 16 + 8 + 8}),
    [](const auto& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace rdmascope::packets
