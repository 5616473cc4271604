// The simulator's own fault log (dropped frames, retries it started and why) against what the
// analysis finds in the pcap-equivalent frames the simulator captured at the senders.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "../sim/sim_test_support.h"
#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/analysis/psn.h"
#include "rdmascope/packets/ib_builder.h"
#include "roce_trace.h"

namespace rdmascope::analysis {
namespace {

namespace st = sim::testing;
using test::anomalyList;

struct SimLog {
  std::vector<std::uint32_t> timeoutRetries;  // PSNs the requester restarted from, by cause
  std::vector<std::uint32_t> nakRetries;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> dropped;  // frame number, PSN
};

// Read from the trace's typed fields: the retry's cause and PSN, the lost frame's number and PSN.
SimLog collect(const sim::Trace& trace) {
  SimLog log;
  for (const auto& e : trace.events()) {
    if (e.what == sim::Narrative::RetryStarted) {
      EXPECT_TRUE(e.args.retryCause.has_value());
      const bool timeout = e.args.retryCause == sim::RetryCause::Timeout;
      (timeout ? log.timeoutRetries : log.nakRetries).push_back(e.psn);
    }
    if (e.what == sim::Narrative::FrameLost) log.dropped.emplace_back(e.frameNumber, e.psn);
  }
  return log;
}

// The capture at the senders, or, without the frames lost on the link, as the receiving side
// of the link would record it.
AnalysisReport analyzeCapture(sim::Network& net, const SimLog* dropsRemoved = nullptr) {
  std::set<std::uint64_t> lost;
  if (dropsRemoved)
    for (const auto& [frame, psn] : dropsRemoved->dropped)
      lost.insert(frame);
  FlowAnalyzer a;
  std::uint64_t n = 0, kept = 0;
  for (const auto& f : net.frames()) {
    if (lost.count(++n)) continue;
    a.addFrame(f.bytes, packets::LinkType::Ethernet, ++kept, f.time.seconds());
  }
  a.finish();
  return a.report();
}

std::vector<std::uint32_t> psnsOf(const AnalysisReport& r, AnomalyKind kind) {
  std::vector<std::uint32_t> out;
  for (const auto& a : r.anomalies)
    if (a.kind == kind) out.push_back(a.psn);
  return out;
}

// One SEND of 4096 bytes (four packets at MTU 1024) through the pair's faults, traced.
void sendFourPackets(st::Pair& p) {
  p.net->sim().trace().setEnabled(true);
  ASSERT_TRUE(p.hb().postRecv(p.b.qpn, st::recvWr(1, p.b, 0, 4096)).ok());
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, st::sendWr(2, sim::WrOpcode::Send, p.a, 0, 4096, p.b)).ok());
  p.net->sim().run();
  ASSERT_EQ(p.ha().pollCq(p.a.cq, 4).size(), 1u);
}

TEST(SimAgreement, OneDroppedPsnIsOneNakAndAGoBackNResend) {
  st::PairOptions o;
  o.config.faults.dropPsns.push_back({0x101, 0, 1});  // the second packet of the SEND
  st::Pair p = st::makePair(o);
  ASSERT_NO_FATAL_FAILURE(sendFourPackets(p));

  const SimLog log = collect(p.net->sim().trace());
  ASSERT_EQ(log.dropped.size(), 1u);
  EXPECT_EQ(log.dropped[0].second, 0x101u);
  const AnalysisReport r = analyzeCapture(*p.net);
  // Captured at the sender, the lost frame is in the file: no gap, but the responder's NAK
  // and the requester's go-back-N from the lost PSN to the end of the message.
  EXPECT_EQ(r.summary.connections, 1u);
  EXPECT_EQ(r.summary.messages, 1u);
  EXPECT_EQ(r.summary.completedMessages, 1u);
  EXPECT_EQ(r.summary.psnGaps, 0u);
  EXPECT_EQ(r.summary.naks, log.nakRetries.size());
  EXPECT_EQ(r.summary.timeouts, log.timeoutRetries.size());
  EXPECT_EQ(psnsOf(r, AnomalyKind::Nak), log.nakRetries);
  EXPECT_EQ(psnsOf(r, AnomalyKind::Retransmission),
            (std::vector<std::uint32_t>{0x101, 0x102, 0x103}));
  EXPECT_EQ(r.summary.resentFrames, 3u);
  EXPECT_EQ(r.connections[0].a.qp, p.a.qpn);
  EXPECT_EQ(r.connections[0].b.qp, p.b.qpn);
}

TEST(SimAgreement, NamedLostFrameIsFoundExactlyAtTheSenderAndAtTheReceiver) {
  st::PairOptions o;
  o.config.faults.dropFrames = {2};  // the second packet of a four-packet SEND (PSN 0x101)
  st::Pair p = st::makePair(o);
  ASSERT_NO_FATAL_FAILURE(sendFourPackets(p));
  const SimLog log = collect(p.net->sim().trace());
  ASSERT_EQ(log.dropped, (std::vector<std::pair<std::uint64_t, std::uint32_t>>{{2, 0x101}}));
  // Frames: the 4 requests, the NAK, the 3 resends, the ACK (the sim's own parser says so).
  const auto summaries = st::packets(*p.net);
  ASSERT_EQ(summaries.size(), 9u);
  EXPECT_TRUE(summaries[4].hasAeth && (summaries[4].syndrome >> 5) == 3);

  // At the sender: the lost frame is in the capture; the NAK and the go-back-N resends of
  // PSNs 0x101..0x103 follow, nothing else.
  const AnalysisReport s = analyzeCapture(*p.net);
  EXPECT_EQ(anomalyList(s), (std::vector<std::string>{"nak@5", "retransmission@6",
                                                      "retransmission@7", "retransmission@8"}));
  EXPECT_EQ(s.summary.resentFrames, 3u);
  EXPECT_EQ(s.summary.psnGaps, 0u);
  EXPECT_EQ(s.summary.completedMessages, 1u);

  // At the receiver: PSN 0x102 (its frame 2) jumps the gap; the resend of 0x101 fills it.
  const AnalysisReport r = analyzeCapture(*p.net, &log);
  EXPECT_EQ(anomalyList(r), (std::vector<std::string>{"psn_gap@2", "nak@4", "gap_filled@5",
                                                      "retransmission@6", "retransmission@7"}));
  EXPECT_EQ(r.summary.resentFrames, 2u);
  EXPECT_EQ(r.summary.psnGaps, 1u);
  EXPECT_EQ(r.summary.completedMessages, 1u);
}

TEST(SimAgreement, RnrIsOneRnrNakAndOneResendAfterTheTimer) {
  st::PairOptions o;
  o.minRnrTimer = 1;  // 0.01 ms
  st::Pair p = st::makePair(o);
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, st::sendWr(2, sim::WrOpcode::Send, p.a, 0, 64, p.b)).ok());
  p.net->sim().runUntil(sim::SimTime::us(5));  // the SEND finds no receive buffer
  ASSERT_TRUE(p.hb().postRecv(p.b.qpn, st::recvWr(1, p.b, 0, 64)).ok());
  p.net->sim().run();
  ASSERT_EQ(p.ha().pollCq(p.a.cq, 4).size(), 1u);
  const AnalysisReport r = analyzeCapture(*p.net);
  EXPECT_EQ(anomalyList(r), (std::vector<std::string>{"rnr_nak@2", "retransmission@3"}));
  EXPECT_EQ(r.summary.rnrNaks, 1u);
  EXPECT_EQ(r.summary.resentFrames, 1u);
  EXPECT_EQ(r.summary.timeouts, 0u);
  EXPECT_EQ(r.summary.completedMessages, 1u);
  ASSERT_EQ(r.anomalies.size(), 2u);
  EXPECT_EQ(r.anomalies[1].relatedFrame, 2u);
  EXPECT_GE(r.anomalies[1].wait, 10e-6);  // the requester waited out the RNR timer
}

TEST(SimAgreement, RandomLossRunsAgreeWithTheSimulatorsFaultLog) {
  std::size_t totalTimeouts = 0, totalNakRetries = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    st::PairOptions o;
    o.config.seed = seed;
    // Reordering, duplication and corruption happen on the link, after the capture point;
    // the analysis sees only their consequences (NAKs, resends, repeated ACKs).
    o.config.faults.lossRate = 0.08;
    o.config.faults.reorderRate = seed % 3 == 0 ? 0.05 : 0.0;
    o.config.faults.duplicateRate = seed % 4 == 0 ? 0.05 : 0.0;
    o.config.faults.corruptRate = seed % 5 == 0 ? 0.03 : 0.0;
    o.timeout = 8;  // ~1 ms
    st::Pair p = st::makePair(o);
    p.net->sim().trace().setEnabled(true);
    std::mt19937_64 rng(seed);
    int sends = 0;
    std::uint64_t off = 0;
    for (int i = 0; i < 10; ++i) {
      const auto len = static_cast<std::uint32_t>(1 + rng() % 6000);
      const bool write = rng() % 2 == 0;
      if (!write) {
        ASSERT_TRUE(p.hb().postRecv(p.b.qpn, st::recvWr(100 + i, p.b, off, len)).ok());
      }
      auto wr = st::sendWr(i, write ? sim::WrOpcode::RdmaWrite : sim::WrOpcode::Send, p.a, off, len,
                           p.b, off);
      ASSERT_TRUE(p.ha().postSend(p.a.qpn, wr).ok());
      ++sends;
      off += (len + 63) / 64 * 64;
    }
    p.net->sim().runUntil(sim::SimTime::ms(60000));
    const auto wcs = p.ha().pollCq(p.a.cq, 100);
    ASSERT_EQ(static_cast<int>(wcs.size()), sends);

    const SimLog log = collect(p.net->sim().trace());
    const AnalysisReport r = analyzeCapture(*p.net);
    EXPECT_EQ(r.summary.completedMessages, static_cast<std::uint64_t>(sends));
    EXPECT_EQ(r.summary.incompleteMessages, 0u);
    EXPECT_EQ(r.summary.psnGaps, 0u);  // the capture is taken before the link
    EXPECT_EQ(r.summary.icrcFailures, 0u);
    EXPECT_EQ(psnsOf(r, AnomalyKind::Timeout), log.timeoutRetries);
    // Every NAK-started retry is a NAK the analysis saw, at the PSN the retry began from.
    for (std::uint32_t psn : log.nakRetries) {
      const auto naks = psnsOf(r, AnomalyKind::Nak);
      EXPECT_NE(std::find(naks.begin(), naks.end(), psn), naks.end()) << std::hex << psn;
    }
    // Every request frame lost on the link was sent again.
    const auto resent = psnsOf(r, AnomalyKind::Retransmission);
    for (const auto& [frame, psn] : log.dropped) {
      const auto& bytes = p.net->frames().at(frame - 1);
      if (bytes.fromHost != 0) continue;
      EXPECT_NE(std::find(resent.begin(), resent.end(), psn), resent.end())
          << "frame " << frame << " PSN " << std::hex << psn;
    }
    EXPECT_EQ(r.summary.rdmaFrames, p.net->frames().size());
    totalTimeouts += log.timeoutRetries.size();
    totalNakRetries += log.nakRetries.size();
  }
  // Both kinds of retry occurred, so both comparisons above were exercised.
  EXPECT_GT(totalTimeouts, 0u);
  EXPECT_GT(totalNakRetries, 0u);
}

// Captured where the responder is (B's own frames all there, A's only when they were not lost
// on the link), as the lab captures: the first transmissions of FIRST and LAST packets and of
// READ requests go missing and only their resends show where messages begin and end. Every
// message A posted is found, with its length.
TEST(SimAgreement, RandomLossAtTheResponderKeepsEveryMessageAndItsLength) {
  std::size_t boundaryLosses = 0, readLosses = 0;
  for (std::uint64_t seed = 1; seed <= 24; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    st::PairOptions o;
    o.config.seed = seed;
    o.config.faults.lossRate = 0.05 + 0.01 * static_cast<double>(seed % 16);
    o.timeout = 8;  // ~1 ms
    st::Pair p = st::makePair(o);
    p.net->sim().trace().setEnabled(true);
    std::mt19937_64 rng(seed);
    struct Posted {
      MessageKind kind;
      std::uint32_t len;
    };
    std::vector<Posted> posted;
    std::uint64_t off = 0;
    for (int i = 0; i < 12; ++i) {
      const auto len = static_cast<std::uint32_t>(1 + rng() % 5000);
      const auto kind = static_cast<MessageKind>(rng() % 3);  // SEND, WRITE or READ
      const sim::WrOpcode op = kind == MessageKind::Send    ? sim::WrOpcode::Send
                               : kind == MessageKind::Write ? sim::WrOpcode::RdmaWrite
                                                            : sim::WrOpcode::RdmaRead;
      if (kind == MessageKind::Send) {
        ASSERT_TRUE(p.hb().postRecv(p.b.qpn, st::recvWr(100 + i, p.b, off, len)).ok());
      }
      ASSERT_TRUE(p.ha().postSend(p.a.qpn, st::sendWr(i, op, p.a, off, len, p.b, off)).ok());
      posted.push_back({kind, len});
      off += (len + 63) / 64 * 64;
    }
    p.net->sim().runUntil(sim::SimTime::ms(60000));
    ASSERT_EQ(p.ha().pollCq(p.a.cq, 100).size(), posted.size());

    std::set<std::uint64_t> lost;
    for (const auto& [frame, psn] : collect(p.net->sim().trace()).dropped)
      if (p.net->frames().at(frame - 1).fromHost == 0) lost.insert(frame);
    FlowAnalyzer a;
    std::uint64_t n = 0, kept = 0;
    std::set<std::uint32_t> seen;
    std::uint32_t highest = 0;
    for (const auto& f : p.net->frames()) {
      if (lost.count(++n)) continue;
      a.addFrame(f.bytes, packets::LinkType::Ethernet, ++kept, f.time.seconds());
      const auto parsed = packets::parseIbFrame(f.bytes, packets::LinkType::Ethernet);
      if (f.fromHost != 0 || !parsed) continue;
      const std::uint8_t op = parsed->packet.bth.opcode & 0x1f;
      const std::uint32_t psn = parsed->packet.bth.psn;
      const bool firstTime = seen.insert(psn).second;
      if (firstTime && seen.size() > 1 && psnDiff(psn, highest) < 0) {
        const bool boundary =
            op == 0x00 || op == 0x02 || op == 0x04 || op == 0x06 || op == 0x08 || op == 0x0a;
        boundaryLosses += boundary;
        readLosses += op == 0x0c;
      }
      if (seen.size() == 1 || psnDiff(psn, highest) > 0) highest = psn;
    }
    a.finish();
    const AnalysisReport r = a.report();
    EXPECT_EQ(r.summary.messages, posted.size());
    EXPECT_EQ(r.summary.completedMessages, posted.size());
    EXPECT_EQ(r.summary.incompleteMessages, 0u);
    std::vector<MessageRecord> byPsn = r.messages;
    std::sort(byPsn.begin(), byPsn.end(), [&](const MessageRecord& x, const MessageRecord& y) {
      return psnDiff(x.firstPsn, o.psnA) < psnDiff(y.firstPsn, o.psnA);
    });
    ASSERT_EQ(byPsn.size(), posted.size());
    for (std::size_t i = 0; i < posted.size(); ++i) {
      SCOPED_TRACE("message " + std::to_string(i));
      EXPECT_EQ(byPsn[i].kind, posted[i].kind);
      EXPECT_EQ(byPsn[i].bytes, posted[i].len);
      EXPECT_EQ(byPsn[i].detail, "");
    }
  }
  // The losses did hit message boundaries and READ requests.
  EXPECT_GT(boundaryLosses, 0u);
  EXPECT_GT(readLosses, 0u);
}

}  // namespace
}  // namespace rdmascope::analysis
