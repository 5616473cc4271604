// The fast analysis path (`rdmascope-cli analyze`, issue 12) against the path it replaced, on
// every capture of the repository and on generated captures of what the repository holds no
// file of (iWARP with loss, CM MADs, RoCEv1, native IB in ERF records and raw, PFC pauses with
// ECN marks and CNPs, truncated and bit-flipped frames):
//   - PacketFactReader (payload not copied, ICRC computed once, address texts kept) gives the
//     facts readPacketFacts (parseIbFrame, then extractFacts) gives, frame by frame;
//   - an analyzer fed by addFrame and emptied by takeReport reports what one fed the
//     readPacketFacts facts reports through report();
//   - toJson (written as it goes) prints byte for byte what the nlohmann DOM printed, at every
//     indent, and formatText what the line-by-line ostringstream printed.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>

#include "../support/analysis_report_reference.h"
#include "../support/corrupted_frames.h"
#include "../support/iwarp_frames.h"
#include "../support/repository_captures.h"
#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/analysis/packet_facts.h"
#include "rdmascope/packets/ib_builder.h"
#include "rdmascope/packets/mac_control.h"
#include "rdmascope/packets/mad_builder.h"
#include "rdmascope/packets_io/capture_reader.h"

namespace rdmascope::analysis {
namespace {

using Frames = std::vector<std::vector<std::uint8_t>>;

struct Capture {
  std::string name;
  packets::LinkType link = packets::LinkType::Ethernet;
  Frames frames;
  std::vector<double> times;
};

Capture read(const std::string& path) {
  Capture c;
  c.name = path;
  std::string error;
  auto reader = packets_io::CaptureReader::open(path, error);
  EXPECT_TRUE(reader) << path << ": " << error;
  if (!reader) return c;
  c.link = reader->linkType();
  packets_io::FrameView v;
  std::int64_t first = 0;
  while (reader->next(v)) {
    if (reader->framesRead() == 1) first = v.timestampNs;
    c.frames.emplace_back(v.data.begin(), v.data.end());
    c.times.push_back(static_cast<double>(v.timestampNs - first) / 1e9);
  }
  return c;
}

Capture made(std::string name, packets::LinkType link, Frames frames) {
  Capture c{std::move(name), link, std::move(frames), {}};
  for (std::size_t i = 0; i < c.frames.size(); ++i)
    c.times.push_back(static_cast<double>(i) * 1.25e-6);
  return c;
}

std::vector<Capture> generated() {
  std::vector<Capture> out;
  Frames iwarp;
  for (const char* scenario : {"iwarp-read", "iwarp-write", "iwarp-send-recv"}) {
    const Frames frames = ::rdmascope::test::iwarpFrames(scenario);
    if (frames.empty()) continue;
    iwarp.insert(iwarp.end(), frames.begin(), frames.end());
    out.push_back(made(scenario, packets::LinkType::Ethernet, frames));
  }
  Frames ethernet, erf, cm;
  for (const auto& s : packets::sampleIbFrames())
    (s.link == packets::LinkType::Erf ? erf : ethernet).push_back(s.bytes);
  for (const auto& s : packets::sampleCmFrames())
    (s.link == packets::LinkType::Erf ? erf : cm).push_back(s.bytes);
  out.push_back(made("ib_samples", packets::LinkType::Ethernet, ethernet));
  out.push_back(made("ib_samples_erf", packets::LinkType::Erf, erf));
  out.push_back(made("cm_samples", packets::LinkType::Ethernet, cm));
  Frames raw;
  for (const auto& f : erf)
    if (f.size() > 16) raw.emplace_back(f.begin() + 16, f.end());  // LRH first
  out.push_back(made("raw_ib", packets::LinkType::InfiniBand, raw));
  Frames some = ethernet;
  some.insert(some.end(), cm.begin(), cm.end());
  out.push_back(made("corrupted_ethernet", packets::LinkType::Ethernet,
                     ::rdmascope::test::corruptedFrames(some)));
  out.push_back(
      made("corrupted_erf", packets::LinkType::Erf, ::rdmascope::test::corruptedFrames(erf)));
  // Congestion: PAUSE and PFC frames between ECN-marked writes and the CNPs answering them,
  // and the iWARP conversations' frames between RoCE frames.
  Frames congestion;
  const std::array<std::uint8_t, 6> port{0x02, 0x5e, 0, 0, 1, 3};
  for (int i = 0; i < 40; ++i) {
    packets::RoceAddressing a;
    a.ecn = i % 3 == 0 ? 3 : 0;
    packets::IbPacket p;
    p.bth.opcode = 0x0a;  // RC RDMA WRITE Only
    p.bth.destQp = 0x101;
    p.bth.psn = static_cast<std::uint32_t>(i);
    p.reth = packets::Reth{0x1000, 0x42, 64};
    p.payload.assign(64, static_cast<std::uint8_t>(i));
    congestion.push_back(packets::buildRoceV2(a, p));
    if (i % 3 == 1) {
      packets::RoceAddressing back;
      std::swap(back.srcIp, back.dstIp);
      packets::IbPacket n;
      n.bth.opcode = 0x81;  // CNP
      n.bth.destQp = 0x101;
      n.bth.becn = true;
      congestion.push_back(packets::buildRoceV2(back, n));
    }
    if (i % 7 == 0) congestion.push_back(packets::buildPauseFrame(port, i % 2 ? 0xffff : 0));
    if (i % 5 == 0 && !iwarp.empty()) congestion.push_back(iwarp[static_cast<std::size_t>(i)]);
  }
  out.push_back(made("congestion_and_iwarp", packets::LinkType::Ethernet, congestion));
  return out;
}

std::vector<Capture> everyCapture() {
  std::vector<Capture> all;
  for (const auto& path : test::repositoryCaptures())
    all.push_back(read(path));
  for (auto& c : generated())
    all.push_back(std::move(c));
  return all;
}

void expectReportsAsBefore(const Capture& c) {
  SCOPED_TRACE(c.name);
  PacketFactReader reader;
  FlowAnalyzer fast, before;
  std::size_t roce = 0;
  for (std::size_t i = 0; i < c.frames.size(); ++i) {
    const std::uint64_t n = i + 1;
    const double t = c.times[i];
    const auto old = readPacketFacts(c.frames[i], c.link, n, t);
    PacketFacts facts;
    const bool read = reader.read(c.frames[i], c.link, n, t, facts);
    ASSERT_EQ(read, old.has_value()) << "frame " << n;
    if (read) {
      ASSERT_TRUE(facts == *old) << "frame " << n;
      ++roce;
    }
    fast.addFrame(c.frames[i], c.link, n, t);
    // The path before: the facts of readPacketFacts, any other frame through addFrame (which
    // reads no facts from it either, and follows pauses and TCP).
    if (old && !(c.link == packets::LinkType::Ethernet && c.frames[i].size() >= 14 &&
                 c.frames[i][12] == 0x88 && c.frames[i][13] == 0x08))
      before.addPacket(*old);
    else
      before.addFrame(c.frames[i], c.link, n, t);
  }
  fast.finish();
  before.finish();
  const AnalysisReport expected = before.report();
  const AnalysisReport report = fast.takeReport();
  EXPECT_EQ(formatText(report), test::referenceFormatText(expected));
  for (int indent : {2, 0, -1, 4})
    EXPECT_EQ(toJson(report, indent), test::referenceToJson(expected, indent)) << indent;
  if (c.frames.size() > 20) {
    EXPECT_GT(roce + report.summary.iwarpFrames, 0u);
  }
}

TEST(FastAnalysis, EveryCaptureReportsAsThePathBefore) {
  const auto all = everyCapture();
  EXPECT_GE(all.size(), 40u);
  for (const auto& c : all)
    expectReportsAsBefore(c);
}

TEST(FastAnalysis, JsonEscapesAndNumbersAsTheDom) {
  AnalysisReport r;
  r.summary.frames = std::numeric_limits<std::uint64_t>::max();
  ConnectionReport c;
  c.id = -7;
  c.transport = "R\"C\\\t\n\r\b\f\x01\x1f\x7f";
  c.a.address = "caf\xc3\xa9 \xe2\x82\xac";  // UTF-8 passes as it is
  c.b.address = "";
  c.b.port = 4791;
  c.firstTime = -0.0;
  c.lastTime = 1e300;
  c.dir[0].rnrWaitTotal = std::numeric_limits<double>::quiet_NaN();
  c.dir[0].rnrWaitMax = std::numeric_limits<double>::infinity();
  c.dir[1].rnrWaitTotal = 1.0 / 3;
  c.dir[1].rnrWaitMax = 5e-324;
  c.dir[1].series.push_back({});
  c.dir[1].series.back().start = 123456789.0;
  c.dir[1].series.back().latencyCount = 3;
  c.dir[1].series.back().latencySum = 1e-7;
  r.connections.push_back(c);
  for (double t : {0.0, 1.5, 1e-5, 1e21, 123.456e-10, 2.0 / 3}) {
    Anomaly a;
    a.time = t;
    a.wait = t;
    a.count = 3;
    a.detail = "\"quoted\" \\ and a tab\t";
    r.anomalies.push_back(a);
  }
  MessageRecord m;
  m.outcome = Outcome::Completed;
  m.stag = 0xffffffffu;
  m.detail = "x";
  r.messages.push_back(m);
  for (int indent : {2, 0, -1, 3})
    EXPECT_EQ(toJson(r, indent), test::referenceToJson(r, indent)) << indent;
  EXPECT_EQ(formatText(r), test::referenceFormatText(r));
  // Bytes that are not UTF-8 are refused as the DOM refused them.
  r.anomalies[0].detail = "\xff";
  EXPECT_THROW((void)toJson(r), nlohmann::json::exception);
  EXPECT_THROW((void)test::referenceToJson(r, 2), nlohmann::json::exception);
}

TEST(FastAnalysis, WriteTextWritesTheTextOfALongAnomalyListInBlocks) {
  // 40,000 anomalies of some 100 bytes: the list crosses the 1 MiB blocks writeText writes it
  // in, with lines of every length around the block boundaries.
  AnalysisReport r;
  for (int i = 0; i < 40000; ++i) {
    Anomaly a;
    a.kind = static_cast<AnomalyKind>(i % 5);
    a.frame = static_cast<std::uint64_t>(i) * 977u;
    a.connection = i % 17 - 1;
    a.detail = std::string(static_cast<std::size_t>(40 + i % 83), static_cast<char>('a' + i % 26));
    r.anomalies.push_back(a);
  }
  r.anomaliesDropped = 12;
  std::ostringstream os;
  writeText(os, r);
  const std::string expected = test::referenceFormatText(r);
  EXPECT_GT(expected.size(), std::size_t{3} << 20);
  EXPECT_EQ(os.str(), expected);
  EXPECT_EQ(formatText(r), expected);
}

TEST(FastAnalysis, TakeReportMovesWhatReportCopies) {
  const Capture c =
      read(std::string(RDMASCOPE_SOURCE_DIR) + "/tests/lab/captures/rxe_rc_lossy_stream.pcap");
  FlowAnalyzer a;
  for (std::size_t i = 0; i < c.frames.size(); ++i)
    a.addFrame(c.frames[i], c.link, i + 1, c.times[i]);
  a.finish();
  const AnalysisReport copied = a.report();
  ASSERT_FALSE(copied.anomalies.empty());
  ASSERT_FALSE(copied.messages.empty());
  const AnalysisReport taken = a.takeReport();
  EXPECT_EQ(toJson(taken), toJson(copied));
  EXPECT_TRUE(a.report().anomalies.empty());
  EXPECT_EQ(a.retained().keptMessages, 0u);
}

}  // namespace
}  // namespace rdmascope::analysis
