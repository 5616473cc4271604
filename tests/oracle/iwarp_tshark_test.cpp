// tshark as the oracle for iWARP: generated conversations (with and without markers and CRC,
// one FPDU per segment or FPDUs cut across segments) are written to pcap files; tshark must
// find every CRC good and agree with CaptureDecoder on every field both decode.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "packets/iwarp_conversation.h"
#include "rdmascope/packets/stream_decoder.h"
#include "tshark_runner.h"

namespace rdmascope::packets {
namespace {

using testing::buildConversation;
using testing::Conversation;
using testing::ConversationSpec;

// Fields both decoders produce, compared frame by frame (every occurrence, in order).
const std::vector<std::string> kKeys = {
    "iwarp_mpa.marker_flag",
    "iwarp_mpa.crc_flag",
    "iwarp_mpa.rej_flag",
    "iwarp_mpa.res",
    "iwarp_mpa.rev",
    "iwarp_mpa.pdlength",
    "iwarp_mpa.privatedata",
    "iwarp_mpa.key.req",
    "iwarp_mpa.key.rep",
    "iwarp_mpa.ulpdulength",
    "iwarp_mpa.pad",
    "iwarp_mpa.crc",
    "iwarp_mpa.crc_check",
    "iwarp_mpa.marker_res",
    "iwarp_mpa.marker_fpduptr",
    "iwarp_ddp.tagged_flag",
    "iwarp_ddp.last_flag",
    "iwarp_ddp.rsvd",
    "iwarp_ddp.dv",
    "iwarp_ddp.rsvdulp",
    "iwarp_ddp.stag",
    "iwarp_ddp.tagged_offset",
    "iwarp_ddp.qn",
    "iwarp_ddp.msn",
    "iwarp_ddp.mo",
    "iwarp_rdma.version",
    "iwarp_rdma.rsv",
    "iwarp_rdma.opcode",
    "iwarp_rdma.reserved",
    "iwarp_rdma.inval_stag",
    "iwarp_rdma.sinkstag",
    "iwarp_rdma.sinkto",
    "iwarp_rdma.rdmardsz",
    "iwarp_rdma.srcstag",
    "iwarp_rdma.srcto",
    "iwarp_rdma.term_layer",
    "iwarp_rdma.term_etype_ddp",
    "iwarp_rdma.term_errcode_ddp_untagged",
    "iwarp_rdma.term_hdrct_m",
    "iwarp_rdma.hdrct_d",
    "iwarp_rdma.hdrct_r",
    "iwarp_rdma.term_rsvd",
    "iwarp_rdma.term_ddp_seg_len",
    "iwarp_rdma.term_ddp_h",
};

std::string run(const std::string& cmd) {
  return rdmascope::testing::runCommand(cmd);
}

// Writes the frames, a microsecond apart, to a pcap for tshark.
void writePcap(const std::string& path, const std::vector<std::vector<std::uint8_t>>& frames) {
  std::string error;
  ASSERT_TRUE(rdmascope::testing::writeEthernetPcap(
      path, frames, [](const auto& f) { return std::span<const std::uint8_t>(f); },
      [](const auto&, std::int64_t i) { return 1'700'000'000'000'000'000 + i * 1000; }, error))
      << error;
}

std::string tsharkCmd(const std::string& pcap) {
  return rdmascope::testing::tsharkCommand() + " -r " + pcap + " -o tcp.check_checksum:TRUE";
}

// frame -> key -> values joined by ','
using Table = std::map<int, std::map<std::string, std::string>>;

Table tsharkFields(const std::string& pcap) {
  std::string cmd = tsharkCmd(pcap) +
                    " -T fields -E separator=/t -E occurrence=a -E aggregator=, -e frame.number";
  for (const auto& k : kKeys)
    cmd += " -e " + k;
  Table t;
  std::istringstream lines(run(cmd + " 2>/dev/null"));
  std::string line;
  while (std::getline(lines, line)) {
    std::vector<std::string> cols;
    std::size_t at = 0;
    for (;;) {
      const auto tab = line.find('\t', at);
      cols.push_back(line.substr(at, tab == std::string::npos ? std::string::npos : tab - at));
      if (tab == std::string::npos) break;
      at = tab + 1;
    }
    if (cols.size() != kKeys.size() + 1) continue;
    const int frame = std::stoi(cols[0]);
    for (std::size_t i = 0; i < kKeys.size(); ++i)
      if (!cols[i + 1].empty()) t[frame][kKeys[i]] = cols[i + 1];
  }
  return t;
}

Table ourFields(const Conversation& conv, std::vector<Dissection>* out = nullptr) {
  CaptureDecoder dec;
  Table t;
  for (std::size_t i = 0; i < conv.frames.size(); ++i) {
    FrameInfo info;
    info.number = i + 1;
    const auto d = dec.decode(conv.frames[i], LinkType::Ethernet, info);
    for (const auto& k : kKeys) {
      std::string joined;
      for (const auto* n : d.findAll(k))
        joined += (joined.empty() ? "" : ",") + n->value;
      if (!joined.empty()) t[static_cast<int>(i + 1)][k] = joined;
    }
    if (out) out->push_back(d);
  }
  return t;
}

// True when a marker sits directly in front of the CRC field of an FPDU in the frame.
bool markerBeforeCrc(const Dissection& d) {
  for (const auto* crc : d.findAll("iwarp_mpa.crc_check"))
    for (const auto* m : d.findAll("iwarp_mpa.marker_fpduptr"))
      if (m->length > 0 && m->offset + 2 == crc->offset) return true;
  for (const auto* crc : d.findAll("iwarp_mpa.crc"))
    for (const auto* m : d.findAll("iwarp_mpa.marker_fpduptr"))
      if (m->length > 0 && m->offset + 2 == crc->offset) return true;
  return false;
}

int count(const std::string& hay, const std::string& needle) {
  int n = 0;
  for (auto at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1))
    ++n;
  return n;
}

std::string tempPcap(const std::string& name) {
  return rdmascope::testing::tempCapturePath("iwarp_" + name);
}

struct Case {
  const char* name;
  ConversationSpec spec;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name;
}

class IwarpTshark : public ::testing::TestWithParam<Case> {};

TEST_P(IwarpTshark, AgreesOnEveryFieldAndEveryCrcIsGood) {
  RDMASCOPE_NEED_ORACLES(Tshark);
  const auto& c = GetParam();
  const auto conv = buildConversation(c.spec);
  const auto pcap = tempPcap(c.name);
  writePcap(pcap, conv.frames);
  std::vector<Dissection> ours;
  const auto mine = ourFields(conv, &ours);
  const auto theirs = tsharkFields(pcap);
  ASSERT_FALSE(theirs.empty()) << "tshark decoded no iWARP field in " << pcap;
  for (const auto& [frame, fields] : theirs)
    for (const auto& [key, value] : fields) {
      // tshark looks for a marker between pad and CRC at a fixed sequence number instead of
      // relative to the first FPDU, so it shows marker bytes as pad there; rdmascope is right.
      if (key == "iwarp_mpa.pad" && markerBeforeCrc(ours[frame - 1])) continue;
      const auto f = mine.find(frame);
      const std::string got =
          f == mine.end() || !f->second.count(key) ? "<absent>" : f->second.at(key);
      EXPECT_EQ(got, value) << c.name << " frame " << frame << " " << key;
    }
  for (const auto& [frame, fields] : mine)
    for (const auto& [key, value] : fields)
      EXPECT_TRUE(theirs.count(frame) && theirs.at(frame).count(key))
          << c.name << " frame " << frame << ": only rdmascope shows " << key << "=" << value;

  const auto verbose = run(tsharkCmd(pcap) + " -V 2>/dev/null");
  const int fpdus = static_cast<int>(conv.messages.size());
  if (c.spec.crc) {
    EXPECT_EQ(count(verbose, "(Good CRC32)"), fpdus) << c.name;
    for (const auto& d : ours)
      EXPECT_NE(d.crc, CrcStatus::Bad);
  }
  EXPECT_EQ(count(verbose, "Bad CRC32"), 0) << c.name;
  std::istringstream cols(
      run(tsharkCmd(pcap) + " -T fields -e frame.number -e _ws.col.Protocol 2>/dev/null"));
  int frame = 0;
  std::string protocol;
  while (cols >> frame >> protocol) {
    ASSERT_LE(static_cast<std::size_t>(frame), ours.size());
    const auto& mineProto = ours[frame - 1].summary.protocol;
    if (mineProto == "MPA" || mineProto == "DDP/RDMA" || protocol == "MPA" ||
        protocol == "DDP/RDMA") {
      EXPECT_EQ(mineProto, protocol) << c.name << " frame " << frame;
    }
  }
  std::filesystem::remove(pcap);
}

INSTANTIATE_TEST_SUITE_P(
    Conversations, IwarpTshark,
    ::testing::Values(Case{"plain_crc", {false, false, true, false, 1460, true}},
                      Case{"plain_nocrc", {false, false, false, false, 1460, true}},
                      Case{"markers_crc", {true, true, true, false, 1460, true}},
                      Case{"markers_nocrc", {true, true, false, false, 1460, true}},
                      Case{"ipv6_markers_crc", {true, true, true, true, 1460, true}},
                      Case{"split_crc", {false, false, true, false, 200, false}}),
    [](const auto& p) { return std::string(p.param.name); });

// RFC 5044: M in the Request asks the Responder for markers, M in the Reply asks the
// Initiator. tshark expects markers both ways when either side asks, so it loses the
// client's FPDUs here; rdmascope decodes every FPDU with a good CRC.
TEST(IwarpTsharkMarkers, OneWayMarkersTsharkIsWrong) {
  RDMASCOPE_NEED_ORACLES(Tshark);
  const auto conv = buildConversation({true, false, true, false, 1460, true});
  const auto pcap = tempPcap("oneway");
  writePcap(pcap, conv.frames);
  const auto verbose = run(tsharkCmd(pcap) + " -V 2>/dev/null");
  int serverFpdus = 0;
  for (const auto& m : conv.messages)
    serverFpdus += m.fromClient ? 0 : 1;
  EXPECT_EQ(count(verbose, "(Good CRC32)"), serverFpdus) << "tshark's flaw is gone?";
  std::vector<Dissection> ours;
  ourFields(conv, &ours);
  std::size_t good = 0;
  for (const auto& d : ours) {
    EXPECT_NE(d.crc, CrcStatus::Bad);
    good += d.findAll("iwarp_mpa.crc_check").size();
  }
  EXPECT_EQ(good, conv.messages.size());
  std::filesystem::remove(pcap);
}

// The frame builder's lengths and checksums, as tshark verifies them.
TEST(IwarpTsharkTcp, BuiltFramesHaveGoodIpAndTcpChecksums) {
  RDMASCOPE_NEED_ORACLES(Tshark);
  for (const bool v6 : {false, true}) {
    const auto conv = buildConversation({true, true, true, v6, 333, false});
    const auto pcap = tempPcap(v6 ? "csum6" : "csum4");
    writePcap(pcap, conv.frames);
    const auto out = run(tsharkCmd(pcap) +
                         " -o ip.check_checksum:TRUE -T fields -e tcp.checksum.status"
                         " -e ip.checksum.status -e _ws.expert.severity 2>/dev/null");
    std::istringstream lines(out);
    std::string line;
    std::size_t n = 0;
    while (std::getline(lines, line)) {
      ++n;
      // Status 1 is "Good" (0 bad, 2 unverified).
      EXPECT_EQ(line.rfind(v6 ? "1\t\t" : "1\t1\t", 0), 0u) << line;
    }
    EXPECT_EQ(n, conv.frames.size());
    std::filesystem::remove(pcap);
  }
}

// Corrupting one byte of an FPDU: tshark and rdmascope both call exactly that frame's CRC bad.
TEST(IwarpTsharkCrc, CorruptedFpduIsBadForBoth) {
  RDMASCOPE_NEED_ORACLES(Tshark);
  auto conv = buildConversation({true, true, true, false, 1460, true});
  // Frame index of the Write FPDU: handshake (3), Request, Reply, Send, Write.
  const std::size_t target = 6;
  conv.frames[target][conv.frames[target].size() - 100] ^= 0x20;
  const auto pcap = tempPcap("corrupt");
  writePcap(pcap, conv.frames);
  const auto verbose = run(tsharkCmd(pcap) + " -V 2>/dev/null");
  EXPECT_EQ(count(verbose, "Bad CRC32"), 1);
  EXPECT_EQ(count(verbose, "(Good CRC32)"), static_cast<int>(conv.messages.size()) - 1);
  CaptureDecoder dec;
  for (std::size_t i = 0; i < conv.frames.size(); ++i) {
    const auto d = dec.decode(conv.frames[i], LinkType::Ethernet);
    EXPECT_EQ(d.crc == CrcStatus::Bad, i == target) << "frame " << i;
  }
  std::filesystem::remove(pcap);
}

}  // namespace
}  // namespace rdmascope::packets
