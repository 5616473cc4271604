// tshark as the oracle for management datagrams and the Communication Manager: the CM
// handshake of sampleCmFrames() (REQ with RDMA CM's IP private data, MRA, REP, RTU, DREQ,
// DREP, REJ over RoCEv2/IPv4; REQ over RoCEv2/IPv6, RoCEv1 and native IB in ERF) is written to
// captures and every infiniband.* key both tshark and `rdmascope-cli decode` produce must
// agree frame by frame, and every CM and MAD key tshark has must have been compared. Where
// tshark 4.0 reads the wrong bits, the test asserts its value from those bits (so a fixed
// tshark is noticed) and rdmascope's IBTA value instead.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/mad_builder.h"
#include "rdmascope/packets_io/capture_reader.h"
#include "rdmascope/packets_io/capture_writer.h"
#include "rdmascope/verbs_backend/scenario.h"
#include "tshark_runner.h"

namespace rdmascope::packets {
namespace {

namespace rt = rdmascope::testing;

std::string hex32(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

struct Capture {
  LinkType link;
  std::vector<SampleFrame> frames;
};

std::string writeCapture(const Capture& c, const std::string& name) {
  const auto path = rt::tempCapturePath("cm_" + name);
  std::string error;
  auto w = packets_io::CaptureWriter::open(path, c.link, error);
  EXPECT_TRUE(w) << error;
  if (!w) return path;
  std::int64_t ns = 1700000000ll * 1000000000ll;
  for (const auto& f : c.frames)
    EXPECT_TRUE(w->write(f.bytes, ns += 1000000)) << w->error();
  EXPECT_TRUE(w->close()) << w->error();
  return path;
}

// Where the MAD data of a frame starts: after the carrier, BTH (12) and DETH (8), MAD header.
std::size_t madDataOffset(const SampleFrame& f) {
  const auto d = decodeFrame(f.bytes, f.link);
  const Node* cm = d.find("infiniband.cm");
  return cm ? cm->offset : 0;
}

struct Compared {
  std::size_t cells = 0;
  std::size_t cmFrames = 0;
  std::set<std::string> keys;
};

void compare(const Capture& c, const std::string& name, Compared& result) {
  const auto path = writeCapture(c, name);
  const auto theirKeys = rt::tsharkFieldKeys();
  std::set<std::string> mine;
  for (const auto& f : c.frames)
    for (const auto& n : decodeFrame(f.bytes, f.link).nodes)
      if (!n.value.empty() && n.key.starts_with("infiniband.") &&
          theirKeys.count(std::string(n.key)))
        mine.emplace(n.key);
  // tshark's CM and MAD keys are asked for even where rdmascope has none, so a field only
  // tshark decodes shows up as a difference.
  for (const auto& k : theirKeys)
    if (k.starts_with("infiniband.cm.") || k.starts_with("infiniband.mad")) mine.insert(k);
  const std::vector<std::string> keys(mine.begin(), mine.end());
  const auto theirs = rt::parseFieldRows(
      rt::runCommandStatus(rt::tsharkCommand() + " -r " + path + rt::fieldArgs(keys)).out, keys);
  const auto ourRun =
      rt::runCommandStatus(rt::cliCommand() + " decode " + path + rt::fieldArgs(keys));
  EXPECT_EQ(ourRun.exitCode, 0);
  const auto ours = rt::parseFieldRows(ourRun.out, keys);
  const auto info = rt::parseFieldRows(
      rt::runCommandStatus(rt::tsharkCommand() + " -r " + path + rt::fieldArgs({"_ws.col.Info"}))
          .out,
      {"_ws.col.Info"});
  ASSERT_EQ(theirs.size(), c.frames.size()) << name;
  ASSERT_EQ(ours.size(), c.frames.size()) << name;
  ASSERT_EQ(info.size(), c.frames.size()) << name;

  for (std::size_t i = 0; i < c.frames.size(); ++i) {
    const auto& f = c.frames[i];
    const auto& t = theirs[i];
    const auto& o = ours[i];
    const std::string where = name + " frame " + std::to_string(i + 1) + " (" + f.description + ")";
    const auto d = decodeFrame(f.bytes, f.link);
    std::set<std::string> skip;
    // The packet list names the same CM message ("CM: ConnectRequest" in tshark).
    const std::string theirInfo = info[i].count("_ws.col.Info") ? info[i].at("_ws.col.Info") : "";
    if (d.find("infiniband.cm")) {
      ++result.cmFrames;
      ASSERT_EQ(theirInfo.rfind("CM: ", 0), 0u) << where << ": " << theirInfo;
      EXPECT_EQ(d.summary.info.rfind("CM " + theirInfo.substr(4), 0), 0u)
          << where << ": " << d.summary.info << " vs " << theirInfo;
    }

    if (d.find("infiniband.cm.req")) {
      // tshark 4.0 reads each path's flow label from the top 12 bits of the word's first three
      // bytes, and the reserved bits and packet rate from its first byte. rdmascope reads the
      // IBTA's bits: flow label 31:12, reserved 11:6, packet rate 5:0 of the 32-bit word.
      const std::size_t data = madDataOffset(f);
      const auto req = std::get<CmReq>(*decodeCmMessage(0x0010, std::span(f.bytes).subspan(data)));
      for (const auto& [prefix, at, cmPath] :
           {std::tuple{std::string("prim_"), std::size_t{88}, req.primary},
            std::tuple{std::string("alt_"), std::size_t{132}, req.alternate}}) {
        const std::uint8_t b0 = f.bytes[data + at], b1 = f.bytes[data + at + 1];
        const std::string k = "infiniband.cm.req." + prefix;
        EXPECT_EQ(t.count(k + "flowlabel") ? t.at(k + "flowlabel") : "",
                  hex32(static_cast<std::uint32_t>((b0 << 4) | (b1 >> 4))))
            << where << ": tshark's flow label flaw is gone?";
        EXPECT_EQ(t.count(k + "pktrate") ? t.at(k + "pktrate") : "", hex32(b0 & 0x3fu)) << where;
        EXPECT_EQ(t.count(k + "reserved0") ? t.at(k + "reserved0") : "", hex32((b0 >> 6) & 3u))
            << where;
        EXPECT_EQ(o.at(k + "flowlabel"), hex32(cmPath.flowLabel)) << where;
        EXPECT_EQ(o.at(k + "pktrate"), hex32(cmPath.packetRate)) << where;
        EXPECT_EQ(o.at(k + "reserved0"), hex32(0)) << where;
        for (const char* field : {"flowlabel", "pktrate", "reserved0"}) {
          skip.insert(k + field);
          result.keys.insert(k + field);  // checked above, against tshark's reading of the bits
        }
      }
      if (d.find("ip.src")) {
        // Over IPv4, tshark shows the primary GIDs only as the IPv4 address in their last four
        // bytes; rdmascope shows the GID and, as it is IPv4-mapped, that address under it.
        for (const char* k :
             {"infiniband.cm.req.prim_localgid", "infiniband.cm.req.prim_remotegid"}) {
          EXPECT_EQ(t.count(k), 0u) << where << ": tshark now shows " << k;
          EXPECT_EQ(o.at(k).rfind("::ffff:", 0), 0u) << where;
          EXPECT_EQ(o.at(k).substr(7), o.at(std::string(k) + "_ipv4")) << where;
          skip.insert(k);
        }
      }
    }
    for (const auto& k : keys) {
      if (skip.count(k)) continue;
      const auto a = o.find(k), b = t.find(k);
      const std::string mineValue = a == o.end() ? "<absent>" : a->second;
      const std::string theirValue = b == t.end() ? "<absent>" : b->second;
      EXPECT_EQ(mineValue, theirValue) << where << ": " << k;
      if (a != o.end() || b != t.end()) {
        ++result.cells;
        result.keys.insert(k);
      }
    }
  }
  std::filesystem::remove(path);
}

TEST(CmTshark, EveryCmFieldAgreesWithTshark) {
  RDMASCOPE_NEED_ORACLES(Tshark, Cli);
  Capture ethernet{LinkType::Ethernet, {}}, erf{LinkType::Erf, {}};
  for (auto& f : sampleCmFrames()) {
    // tshark 4.0 names the MRA ("CM: MsgRcptAck") but decodes none of its fields.
    if (f.description.find(" MRA") != std::string::npos) continue;
    (f.link == LinkType::Erf ? erf : ethernet).frames.push_back(std::move(f));
  }
  ASSERT_GE(ethernet.frames.size(), 9u);
  ASSERT_EQ(erf.frames.size(), 1u);
  Compared c;
  compare(ethernet, "ethernet", c);
  compare(erf, "erf", c);
  // Every CM and MAD field tshark has was compared on some frame (both sides have it), except
  // the ones the IPv4 carrier swaps for their _ipv4 forms (compared over the other carriers).
  for (const auto& k : rt::tsharkFieldKeys())
    if (k.starts_with("infiniband.cm.") || k.starts_with("infiniband.mad")) {
      EXPECT_TRUE(c.keys.count(k)) << k << " was never compared";
    }
  std::printf("compared %zu cells over %zu keys\n", c.cells, c.keys.size());
}

// A real handshake: perftest's ib_send_lat -R between the lab's two rxe guests (RDMA CM over
// RoCEv2/IPv4): a REQ to a port nobody listens on and its REJ (invalid service ID), then two
// connections (REQ, REP, RTU), their RC traffic, and DREQ/DREP in both directions.
TEST(CmTshark, RealRxeHandshakeAgreesWithTshark) {
  RDMASCOPE_NEED_ORACLES(Tshark, Cli);
  const std::string path =
      std::string(RDMASCOPE_SOURCE_DIR) + "/tests/lab/captures/rxe_cm_send_lat.pcap";
  std::string error;
  auto reader = packets_io::CaptureReader::open(path, error);
  ASSERT_TRUE(reader) << error;
  Capture capture{reader->linkType(), {}};
  for (packets_io::CapturedFrame f; reader->next(f);)
    capture.frames.push_back({reader->linkType(), f.data, "rxe frame"});
  ASSERT_EQ(capture.frames.size(), 77u);
  Compared c;
  compare(capture, "rxe_cm", c);
  EXPECT_EQ(c.cmFrames, 13u);
  for (const char* k : {"infiniband.cm.req.serviceid.dport", "infiniband.cm.rej.reason",
                        "infiniband.cm.rep.localqpn", "infiniband.cm.rtu.remotecommid",
                        "infiniband.cm.req.remoteqpneecn", "infiniband.cm.drsp.localcommid",
                        "infiniband.cm.req.ip_cm.sip4", "infiniband.bth.psn"})
    EXPECT_TRUE(c.keys.count(k)) << k << " was never compared";
  const auto rej = decodeFrame(capture.frames[1].bytes, capture.link);
  EXPECT_EQ(rej.summary.info, "CM ConnectReject of REQ: Invalid Service ID (8) CommID=0x00000000");
  std::printf("compared %zu cells over %zu keys\n", c.cells, c.keys.size());
}

// The simulator's rdma_cm (sim --cm): every frame of each CM scenario's run (the handshake and
// the data) agrees with tshark key by key, on RoCEv2 over IPv4 and IPv6 and RoCEv1.
TEST(CmTshark, SimulatedCmRunsAgreeWithTshark) {
  RDMASCOPE_NEED_ORACLES(Tshark, Cli);
  Capture capture{LinkType::Ethernet, {}};  // every run in one capture: one tshark run
  for (const auto& name : verbs_backend::builtinScenarioNames()) {
    const verbs_backend::Scenario s = verbs_backend::builtinScenario(name);
    if (!verbs_backend::cmConnectedQp(s).ok() || name == "retry-exceeded") continue;
    for (auto wire :
         {sim::WireFormat::RoceV2Ipv4, sim::WireFormat::RoceV2Ipv6, sim::WireFormat::RoceV1}) {
      verbs_backend::RunOptions o;
      o.cm = true;
      o.wire = wire;
      const auto r = verbs_backend::runScenarioInSim(s, o);
      ASSERT_TRUE(r.ok) << r.error;
      for (const auto& f : r.frames)
        capture.frames.push_back({LinkType::Ethernet, f.bytes, name});
    }
  }
  Compared c;
  compare(capture, "sim", c);
  EXPECT_GE(c.cmFrames, 5u * 3u * 8u);
  for (const char* k : {"infiniband.cm.req.serviceid.dport", "infiniband.cm.rep.localqpn",
                        "infiniband.cm.rtu.remotecommid", "infiniband.cm.req.ip_cm.sip4",
                        "infiniband.cm.req.ip_cm.sip6", "infiniband.cm.drsp.localcommid"})
    EXPECT_TRUE(c.keys.count(k)) << k << " was never compared";
  std::printf("compared %zu cells over %zu keys on %zu CM frames\n", c.cells, c.keys.size(),
              c.cmFrames);
}

TEST(CmTshark, MraIsNamedButNotDecodedByTshark) {
  RDMASCOPE_NEED_ORACLES(Tshark, Cli);
  Capture mra{LinkType::Ethernet, {}};
  for (auto& f : sampleCmFrames())
    if (f.description.find(" MRA") != std::string::npos) mra.frames.push_back(std::move(f));
  ASSERT_EQ(mra.frames.size(), 1u);
  const auto path = writeCapture(mra, "mra");
  const std::vector<std::string> keys = {"_ws.col.Info", "infiniband.mad.attributeid",
                                         "infiniband.mad.data"};
  const auto t = rt::parseFieldRows(
      rt::runCommandStatus(rt::tsharkCommand() + " -r " + path + rt::fieldArgs(keys)).out, keys);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].at("_ws.col.Info"), "CM: MsgRcptAck");
  const auto d = decodeFrame(mra.frames[0].bytes, mra.frames[0].link);
  EXPECT_EQ(d.find("infiniband.mad.attributeid")->value, t[0].at("infiniband.mad.attributeid"));
  EXPECT_EQ(d.find("infiniband.mad.data")->value, t[0].at("infiniband.mad.data"));
  // rdmascope decodes the MRA's own fields (rdmascope keys, IBTA table "MRA Message Contents").
  EXPECT_EQ(d.find("infiniband.cm.mra.svctimeout")->number, 21u);
  EXPECT_EQ(d.find("infiniband.cm.mra.msgmraed")->number, 0u);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace rdmascope::packets
