// Real Soft-RoCE captures from the lab (tests/lab/captures), one of them with 20% loss: every
// resend the analysis reports is a request frame whose PSN was already seen on that QP (from
// the same source), every such frame is reported, and every NAK and RNR NAK in the capture is
// listed with its frame number. The frames are read here with the packet layer's parser only.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/packets/ib_builder.h"
#include "rdmascope/packets_io/capture_reader.h"
#include "roce_trace.h"

namespace rdmascope::analysis {
namespace {

using test::framesOf;

struct Facts {
  std::set<std::uint64_t> resends;  // request frames whose (source, dest QP, PSN) came before
  std::set<std::uint64_t> naks, rnrNaks;
  std::uint64_t frames = 0;
};

struct Read {
  Facts facts;
  AnalysisReport report;
};

Read readCapture(const std::string& name) {
  const std::string path = std::string(RDMASCOPE_SOURCE_DIR) + "/tests/lab/captures/" + name;
  std::string error;
  auto reader = packets_io::CaptureReader::open(path, error);
  EXPECT_TRUE(reader) << error;
  Read out;
  if (!reader) return out;
  FlowAnalyzer a;
  std::set<std::tuple<std::string, std::uint32_t, std::uint32_t>> seen;
  packets_io::FrameView v;
  while (reader->next(v)) {
    const std::uint64_t n = reader->framesRead();
    a.addFrame(v.data, reader->linkType(), n, static_cast<double>(v.timestampNs) * 1e-9);
    ++out.facts.frames;
    const auto p = packets::parseIbFrame(v.data, reader->linkType());
    if (!p || !p->srcIp) continue;
    const std::uint8_t op = p->packet.bth.opcode & 0x1f;
    const bool answer = op >= 0x0d && op <= 0x12;  // READ responses, ACK, atomic ACK
    if (!answer &&
        !seen.emplace(p->srcIp->toString(), p->packet.bth.destQp, p->packet.bth.psn).second)
      out.facts.resends.insert(n);
    if (op == 0x11 && p->packet.aeth) {
      const int kind = (p->packet.aeth->syndrome >> 5) & 3;
      if (kind == 3) out.facts.naks.insert(n);
      if (kind == 1) out.facts.rnrNaks.insert(n);
    }
  }
  a.finish();
  out.report = a.report();
  return out;
}

TEST(RealCapture, LossyRxeCaptureResendsAreSeenPsnsAndEveryNakIsListed) {
  const Read r = readCapture("rxe_rc_verbs_ops_loss.pcap");
  ASSERT_EQ(r.facts.frames, 166u);
  const auto resent = framesOf(r.report, {AnomalyKind::Retransmission, AnomalyKind::Duplicate});
  // Every reported resend repeats a (source, QP, PSN) seen before, and none is missed.
  EXPECT_EQ(resent, r.facts.resends);
  EXPECT_EQ(r.report.summary.resentFrames, r.facts.resends.size());
  EXPECT_FALSE(r.facts.resends.empty());
  EXPECT_EQ(framesOf(r.report, {AnomalyKind::Nak}), r.facts.naks);
  EXPECT_EQ(framesOf(r.report, {AnomalyKind::RnrNak}), r.facts.rnrNaks);
  EXPECT_EQ(r.facts.naks.size(), 5u);  // three PSN sequence errors, two remote access errors
  EXPECT_EQ(r.report.summary.naks, 5u);
  // Each resend points at what caused it: a NAK listed before it, or a timeout at its frame.
  const auto timeouts = framesOf(r.report, {AnomalyKind::Timeout});
  for (const auto& a : r.report.anomalies) {
    if (a.kind != AnomalyKind::Retransmission) continue;
    const bool byNak = r.facts.naks.count(a.relatedFrame) > 0;
    const bool byTimeout = timeouts.count(a.frame) > 0 || timeouts.count(a.relatedFrame) > 0;
    EXPECT_TRUE(byNak || byTimeout) << "frame " << a.frame << ": " << a.detail;
  }
}

TEST(RealCapture, ReadsAskedAgainAreAnsweredAgainWithoutRepeatedResponses) {
  // ib_read_bw (8 KiB READs at MTU 1024, 4% loss on the requester's egress), captured at the
  // responder from mid-transfer: responses to READs sent before the capture began, a READ
  // re-requested from its last PSN, then every answered READ after it sent again (go-back-N
  // after the timer) and answered again by the responder.
  const Read r = readCapture("rxe_read_bw_loss.pcap");
  ASSERT_EQ(r.facts.frames, 256u);
  EXPECT_TRUE(framesOf(r.report, {AnomalyKind::RepeatedResponse}).empty());
  const auto resent = framesOf(r.report, {AnomalyKind::Retransmission, AnomalyKind::Duplicate});
  EXPECT_FALSE(r.facts.resends.empty());
  for (const auto frame : r.facts.resends)
    EXPECT_TRUE(resent.count(frame)) << "frame " << frame;
  for (const auto& a : r.report.anomalies) {
    if (a.kind != AnomalyKind::Retransmission || r.facts.resends.count(a.frame)) continue;
    // The only other resend: a READ asked again from a PSN inside its span.
    EXPECT_EQ(a.detail.rfind("READ re-requested from PSN", 0), 0u) << a.detail;
  }
  EXPECT_EQ(framesOf(r.report, {AnomalyKind::Timeout}).size(), 1u);
  EXPECT_GT(r.report.summary.completedMessages, 20u);
}

TEST(RealCapture, CleanRxeCapturesHaveNoResendsNoNaksAndCompleteMessages) {
  for (const char* name : {"rxe_atomic_lat.pcap", "rxe_ud_pingpong.pcap"}) {
    SCOPED_TRACE(name);
    const Read r = readCapture(name);
    EXPECT_EQ(r.facts.resends, framesOf(r.report, {AnomalyKind::Retransmission}));
    EXPECT_TRUE(r.facts.resends.empty());
    EXPECT_TRUE(r.facts.naks.empty());
    EXPECT_EQ(r.report.summary.naks, 0u);
    EXPECT_EQ(r.report.summary.psnGaps, 0u);
    EXPECT_GT(r.report.summary.completedMessages, 0u);
  }
}

}  // namespace
}  // namespace rdmascope::analysis
