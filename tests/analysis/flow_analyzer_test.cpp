#include "rdmascope/analysis/flow_analyzer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <set>

#include "roce_trace.h"

namespace rdmascope::analysis {
namespace {

using test::anomalyList;
using test::RoceTrace;
using Op = packets::IbOpcode;
using Strings = std::vector<std::string>;

TEST(FlowAnalyzer, CleanConversationHasMessagesAndNoAnomalies) {
  RoceTrace t;
  t.request(Op::RcSendFirst, 0, 1024);
  t.request(Op::RcSendMiddle, 1, 1024);
  t.request(Op::RcSendLast, 2, 100);
  t.ack(2);                                      // 4
  t.request(Op::RcRdmaWriteOnly, 3, 64, 64);     // 5
  t.ack(3);                                      // 6
  t.request(Op::RcRdmaReadRequest, 4, 0, 2048);  // 7: two responses at PMTU 1024
  t.readResponse(Op::RcRdmaReadResponseFirst, 4, 1024);
  t.readResponse(Op::RcRdmaReadResponseLast, 5, 1024);  // 9
  t.request(Op::RcFetchAdd, 6);                         // 10
  t.aeth(Op::RcAtomicAcknowledge, 6, packets::Aeth::ack(0));
  t.request(Op::RcSendOnly, 7, 10);  // 12
  t.ack(7);                          // 13
  const AnalysisReport r = t.analyze();

  EXPECT_EQ(anomalyList(r), Strings{});
  EXPECT_EQ(r.summary.frames, 13u);
  EXPECT_EQ(r.summary.connections, 1u);
  EXPECT_EQ(r.summary.messages, 5u);
  EXPECT_EQ(r.summary.completedMessages, 5u);
  EXPECT_EQ(r.summary.resentFrames, 0u);
  ASSERT_EQ(r.connections.size(), 1u);
  const ConnectionReport& c = r.connections[0];
  EXPECT_EQ(c.transport, "RC");
  EXPECT_EQ(c.a.address, "10.0.0.1");
  EXPECT_EQ(c.b.address, "10.0.0.2");
  EXPECT_EQ(c.a.qp, 0x11u);
  EXPECT_EQ(c.b.qp, 0x22u);
  EXPECT_EQ(c.dir[0].messages, 5u);
  EXPECT_EQ(c.dir[0].payloadBytes, 2148u + 64 + 2048 + 10);
  EXPECT_EQ(c.dir[1].requestFrames, 0u);

  ASSERT_EQ(r.messages.size(), 5u);
  const MessageRecord& send = r.messages[0];
  EXPECT_EQ(send.kind, MessageKind::Send);
  EXPECT_EQ(send.firstPsn, 0u);
  EXPECT_EQ(send.lastPsn, 2u);
  EXPECT_EQ(send.bytes, 2148u);
  EXPECT_EQ(send.packets, 3u);
  EXPECT_EQ(send.firstFrame, 1u);
  EXPECT_EQ(send.endFrame, 4u);
  EXPECT_NEAR(send.latency(), 3e-6, 1e-9);
  EXPECT_EQ(r.messages[2].kind, MessageKind::Read);
  EXPECT_EQ(r.messages[2].bytes, 2048u);
  EXPECT_EQ(r.messages[2].lastPsn, 5u);
  EXPECT_EQ(r.messages[2].endFrame, 9u);
  EXPECT_EQ(r.messages[3].kind, MessageKind::Atomic);
  EXPECT_EQ(r.messages[3].endFrame, 11u);
  // Latencies: 3, 1, 2, 1, 1 us -> p50 1 us, p99 = max = 3 us.
  EXPECT_EQ(c.dir[0].latency.count(), 5u);
  EXPECT_NEAR(static_cast<double>(c.dir[0].latency.percentile(50)), 1000.0, 1.0);
  EXPECT_NEAR(static_cast<double>(c.dir[0].latency.percentile(99)), 3000.0, 1.0);
  EXPECT_NEAR(static_cast<double>(c.dir[0].latency.max()), 3000.0, 1.0);
  EXPECT_GT(c.dir[0].throughput(), 0.0);
}

// A READ before any multi-packet message has shown the path MTU: its responses size it.
TEST(FlowAnalyzer, FirstMessageReadIsSizedByItsResponses) {
  RoceTrace t;
  t.request(Op::RcRdmaReadRequest, 0, 0, 2000);  // 1: two responses at PMTU 1024
  t.readResponse(Op::RcRdmaReadResponseFirst, 0, 1024);
  t.readResponse(Op::RcRdmaReadResponseLast, 1, 976);  // 3
  t.request(Op::RcSendOnly, 2, 10);                    // 4
  t.ack(2);                                            // 5
  const AnalysisReport r = t.analyze();

  EXPECT_EQ(anomalyList(r), Strings{});
  EXPECT_EQ(r.summary.completedMessages, 2u);
  ASSERT_EQ(r.messages.size(), 2u);
  EXPECT_EQ(r.messages[0].kind, MessageKind::Read);
  EXPECT_EQ(r.messages[0].lastPsn, 1u);
  EXPECT_EQ(r.messages[0].bytes, 2000u);
  EXPECT_EQ(r.messages[0].endFrame, 3u);
}

TEST(FlowAnalyzer, LostFrameGivesGapNakAndGoBackN) {
  RoceTrace t;
  t.request(Op::RcRdmaWriteFirst, 10, 1024, 3172);  // 1
  t.request(Op::RcRdmaWriteMiddle, 11, 1024);
  t.lose(2);                                      // PSN 11 never reaches the capture
  t.request(Op::RcRdmaWriteMiddle, 12, 1024);     // 2: gap
  t.nak(11, packets::NakCode::PsnSequenceError);  // 3
  t.request(Op::RcRdmaWriteLast, 13, 100);        // 4 (already in flight)
  t.request(Op::RcRdmaWriteMiddle, 11, 1024);     // 5: fills the gap
  t.copy(2);                                      // 6: PSN 12 again
  t.copy(4);                                      // 7: PSN 13 again
  t.ack(13);                                      // 8
  const AnalysisReport r = t.analyze();

  EXPECT_EQ(anomalyList(r), (Strings{"psn_gap@2", "nak@3", "gap_filled@5", "retransmission@6",
                                     "retransmission@7"}));
  EXPECT_EQ(r.summary.psnGaps, 1u);
  EXPECT_EQ(r.summary.naks, 1u);
  EXPECT_EQ(r.summary.resentFrames, 2u);
  EXPECT_EQ(r.summary.duplicates, 0u);
  EXPECT_EQ(r.summary.timeouts, 0u);
  EXPECT_EQ(r.summary.messages, 1u);
  EXPECT_EQ(r.summary.incompleteMessages, 0u);
  ASSERT_EQ(r.messages.size(), 1u);
  EXPECT_EQ(r.messages[0].outcome, Outcome::Completed);
  EXPECT_EQ(r.messages[0].bytes, 3172u);
  EXPECT_EQ(r.messages[0].packets, 4u);
  EXPECT_EQ(r.messages[0].resentPackets, 2u);
  EXPECT_EQ(r.anomalies[1].detail, "PSN sequence error at PSN 11");
  EXPECT_EQ(r.anomalies[3].relatedFrame, 3u);
  EXPECT_EQ(r.connections[0].dir[0].missingPsns, 1u);
}

// Two SENDs of four packets (PSNs 0-3 and 4-7, 3 x 1024 + 1000 bytes each) where the
// transmissions of `lost` never reach the capture point: the responder NAKs the first PSN it
// misses, the requester goes back to it and resends everything from there, and the last PSN is
// acknowledged.
RoceTrace twoSendsLosing(std::initializer_list<std::uint32_t> lost) {
  RoceTrace t;
  const auto send = [&](std::uint32_t psn) {
    const Op op = psn % 4 == 0 ? Op::RcSendFirst : psn % 4 == 3 ? Op::RcSendLast : Op::RcSendMiddle;
    t.request(op, psn, psn % 4 == 3 ? 1000 : 1024);
  };
  std::uint32_t firstLost = 8;
  for (std::uint32_t psn = 0; psn < 8; ++psn) {
    if (std::find(lost.begin(), lost.end(), psn) != lost.end()) {
      firstLost = std::min(firstLost, psn);
      continue;
    }
    send(psn);
  }
  t.nak(firstLost, packets::NakCode::PsnSequenceError);
  for (std::uint32_t psn = firstLost; psn < 8; ++psn)
    send(psn);
  t.ack(7);
  return t;
}

void expectTwoWholeSends(const AnalysisReport& r, std::uint64_t firstEnd, std::uint64_t secondEnd) {
  EXPECT_EQ(r.summary.messages, 2u);
  EXPECT_EQ(r.summary.completedMessages, 2u);
  EXPECT_EQ(r.summary.incompleteMessages, 0u);
  ASSERT_EQ(r.messages.size(), 2u);
  for (std::uint32_t i = 0; i < 2; ++i) {
    SCOPED_TRACE(i);
    const MessageRecord& m = r.messages[i];
    EXPECT_EQ(m.kind, MessageKind::Send);
    EXPECT_EQ(m.outcome, Outcome::Completed);
    EXPECT_EQ(m.firstPsn, 4 * i);
    EXPECT_EQ(m.lastPsn, 4 * i + 3);
    EXPECT_EQ(m.bytes, 3u * 1024 + 1000);
    EXPECT_EQ(m.packets, 4u);
    EXPECT_FALSE(m.startMissing);
    EXPECT_EQ(m.detail, "");
    EXPECT_EQ(m.endFrame, i == 0 ? firstEnd : secondEnd);
  }
}

TEST(FlowAnalyzer, ResentFirstStartsTheMessageItsFirstTransmissionLost) {
  const RoceTrace t = twoSendsLosing({4});
  const AnalysisReport r = t.analyze();
  EXPECT_EQ(anomalyList(r), (Strings{"psn_gap@5", "nak@8", "gap_filled@9", "retransmission@10",
                                     "retransmission@11", "retransmission@12"}));
  expectTwoWholeSends(r, 8, 13);  // the first ends at the NAK of PSN 4 (after its LAST)
  EXPECT_EQ(r.messages[1].resentPackets, 3u);
}

TEST(FlowAnalyzer, ResentLastEndsTheMessageItsFirstTransmissionLost) {
  const RoceTrace t = twoSendsLosing({3});
  const AnalysisReport r = t.analyze();
  EXPECT_EQ(anomalyList(r),
            (Strings{"psn_gap@4", "nak@8", "gap_filled@9", "retransmission@10", "retransmission@11",
                     "retransmission@12", "retransmission@13"}));
  expectTwoWholeSends(r, 14, 14);  // not at the NAK of PSN 3: its LAST had not arrived
}

TEST(FlowAnalyzer, ResentLastAndFirstSplitWhatTheFirstTransmissionsJoined) {
  const RoceTrace t = twoSendsLosing({3, 4});
  const AnalysisReport r = t.analyze();
  EXPECT_EQ(anomalyList(r),
            (Strings{"psn_gap@4", "nak@7", "gap_filled@8", "gap_filled@9", "retransmission@10",
                     "retransmission@11", "retransmission@12"}));
  expectTwoWholeSends(r, 13, 13);
}

TEST(FlowAnalyzer, LostMiddleOfAResendIsJoinedWhenItArrives) {
  // PSN 2 is lost twice: the first resend starts a piece at 3 that PSN 2's second resend joins.
  RoceTrace t;
  t.request(Op::RcSendFirst, 0, 1024);
  t.request(Op::RcSendMiddle, 1, 1024);
  t.request(Op::RcSendLast, 3, 1000);            // 3: PSN 2 lost
  t.nak(2, packets::NakCode::PsnSequenceError);  // 4
  t.request(Op::RcSendLast, 3, 1000);            // 5: PSN 2 lost again
  t.advance(0.05);
  t.request(Op::RcSendMiddle, 2, 1024);  // 6: the timer's resend
  t.request(Op::RcSendLast, 3, 1000);    // 7
  t.ack(3);                              // 8
  const AnalysisReport r = t.analyze();
  EXPECT_EQ(r.summary.messages, 1u);
  ASSERT_EQ(r.messages.size(), 1u);
  EXPECT_EQ(r.messages[0].outcome, Outcome::Completed);
  EXPECT_EQ(r.messages[0].firstPsn, 0u);
  EXPECT_EQ(r.messages[0].lastPsn, 3u);
  EXPECT_EQ(r.messages[0].bytes, 3u * 1024 + 1000);
  EXPECT_EQ(r.messages[0].packets, 4u);
  EXPECT_EQ(r.messages[0].endFrame, 8u);
}

// READs of one packet each (1024 bytes, path MTU 1024: one READ response ONLY each, so the
// responses never show the MTU and each READ may use up to four PSNs). The request at PSN 1 is
// lost; the one at PSN 2 then looks like the end of the first READ's span, until the timer
// resends PSN 1 before the (slow) responder answered the first READ: a READ of its own.
TEST(FlowAnalyzer, ReadRequestSeenOnlyWhenResentIsAMessage) {
  RoceTrace t;
  t.request(Op::RcRdmaReadRequest, 0, 0, 1024);  // 1
  t.request(Op::RcRdmaReadRequest, 2, 0, 1024);  // 2: PSN 1 lost
  t.advance(0.07);
  t.request(Op::RcRdmaReadRequest, 1, 0, 1024);  // 3: the timer's resend
  t.request(Op::RcRdmaReadRequest, 2, 0, 1024);  // 4
  t.readResponse(Op::RcRdmaReadResponseOnly, 0, 1024);
  t.readResponse(Op::RcRdmaReadResponseOnly, 1, 1024);
  t.readResponse(Op::RcRdmaReadResponseOnly, 2, 1024);  // 7
  const AnalysisReport r = t.analyze();
  EXPECT_EQ(anomalyList(r), (Strings{"timeout@3", "gap_filled@3", "retransmission@4"}));
  EXPECT_EQ(r.summary.messages, 3u);
  EXPECT_EQ(r.summary.completedMessages, 3u);
  EXPECT_EQ(r.summary.incompleteMessages, 0u);
  ASSERT_EQ(r.messages.size(), 3u);
  for (std::uint32_t i = 0; i < 3; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(r.messages[i].kind, MessageKind::Read);
    EXPECT_EQ(r.messages[i].firstPsn, i);
    EXPECT_EQ(r.messages[i].lastPsn, i);
    EXPECT_EQ(r.messages[i].bytes, 1024u);
    EXPECT_EQ(r.messages[i].endFrame, 5u + i);
  }
  EXPECT_EQ(r.summary.resentFrames, 1u);  // only PSN 2's second request
}

// A READ answered in full at the capture point whose last responses were lost on the way to
// the requester: the requester asks again from the first PSN it misses. That request is no
// new READ, though its PSN was never requested before.
TEST(FlowAnalyzer, ReadReRequestAfterAnsweredReadIsNoNewMessage) {
  RoceTrace t;
  t.request(Op::RcSendFirst, 0, 1024);
  t.request(Op::RcSendLast, 1, 100);
  t.ack(1);                                      // 3
  t.request(Op::RcRdmaReadRequest, 2, 0, 3072);  // 4: three responses at PMTU 1024
  t.readResponse(Op::RcRdmaReadResponseFirst, 2, 1024);
  t.readResponse(Op::RcRdmaReadResponseMiddle, 3, 1024);
  t.readResponse(Op::RcRdmaReadResponseLast, 4, 1024);  // 7
  t.advance(0.07);
  t.request(Op::RcRdmaReadRequest, 3, 0, 2048);  // 8: PSNs 3 and 4 again
  t.readResponse(Op::RcRdmaReadResponseFirst, 3, 1024);
  t.readResponse(Op::RcRdmaReadResponseLast, 4, 1024);
  t.request(Op::RcSendOnly, 5, 10);  // 11
  t.ack(5);
  const AnalysisReport r = t.analyze();
  EXPECT_EQ(r.summary.messages, 3u);
  EXPECT_EQ(r.summary.completedMessages, 3u);
  ASSERT_EQ(r.messages.size(), 3u);
  EXPECT_EQ(r.messages[1].kind, MessageKind::Read);
  EXPECT_EQ(r.messages[1].bytes, 3072u);
  EXPECT_EQ(r.messages[1].endFrame, 7u);
  const auto re = std::find_if(r.anomalies.begin(), r.anomalies.end(),
                               [](const Anomaly& a) { return a.frame == 8; });
  ASSERT_NE(re, r.anomalies.end());
  EXPECT_EQ(re->kind, AnomalyKind::Retransmission);
  EXPECT_EQ(re->detail,
            "READ re-requested from PSN 3 (its responses did not all reach the requester)");
}

// The same before any request showed the path MTU: the READ's responses show the PSNs it used,
// so a request at its second PSN is within it (the simulator's rc-read with its LAST response
// lost twice).
TEST(FlowAnalyzer, ReadReRequestWithinASpanItsResponsesShowedIsNoNewMessage) {
  RoceTrace t;
  t.request(Op::RcRdmaReadRequest, 0, 0, 2000);  // 1
  t.readResponse(Op::RcRdmaReadResponseFirst, 0, 1024);
  t.readResponse(Op::RcRdmaReadResponseLast, 1, 976);  // 3
  t.advance(0.07);
  t.request(Op::RcRdmaReadRequest, 0, 0, 2000);  // 4: the timer's resend
  t.readResponse(Op::RcRdmaReadResponseFirst, 0, 1024);
  t.readResponse(Op::RcRdmaReadResponseLast, 1, 976);
  t.advance(0.07);
  t.request(Op::RcRdmaReadRequest, 1, 0, 976);  // 7: the rest again
  t.readResponse(Op::RcRdmaReadResponseOnly, 1, 976);
  const AnalysisReport r = t.analyze();
  EXPECT_EQ(r.summary.messages, 1u);
  ASSERT_EQ(r.messages.size(), 1u);
  EXPECT_EQ(r.messages[0].bytes, 2000u);
  EXPECT_EQ(r.messages[0].endFrame, 3u);
  EXPECT_EQ(test::framesOf(r, {AnomalyKind::Retransmission}), (std::set<std::uint64_t>{4, 7}));
}

TEST(FlowAnalyzer, BackToBackCopyIsADuplicate) {
  RoceTrace t;
  t.request(Op::RcSendOnly, 5, 32);
  t.copy(1);
  t.ack(5);
  t.ack(5);  // the responder answers the duplicate again
  const AnalysisReport r = t.analyze();
  EXPECT_EQ(anomalyList(r), Strings{"duplicate@2"});
  EXPECT_EQ(r.summary.duplicates, 1u);
  EXPECT_EQ(r.summary.resentFrames, 1u);
  EXPECT_EQ(r.summary.timeouts, 0u);
  EXPECT_EQ(r.summary.completedMessages, 1u);
  EXPECT_EQ(r.anomalies[0].relatedFrame, 1u);
}

TEST(FlowAnalyzer, ResendWithoutNakIsATimeout) {
  RoceTrace t;
  t.request(Op::RcSendOnly, 7, 32);
  t.advance(0.020);
  t.copy(1);
  t.ack(7);
  const AnalysisReport r = t.analyze();
  EXPECT_EQ(anomalyList(r), (Strings{"timeout@2", "retransmission@2"}));
  EXPECT_EQ(r.summary.timeouts, 1u);
  EXPECT_EQ(r.summary.resentFrames, 1u);
  EXPECT_EQ(r.summary.duplicates, 0u);
  EXPECT_NEAR(r.anomalies[0].wait, 0.020 + 1e-6, 1e-9);
  ASSERT_EQ(r.messages.size(), 1u);
  EXPECT_NEAR(r.messages[0].latency(), 0.020 + 2e-6, 1e-9);
  EXPECT_EQ(r.messages[0].resentPackets, 1u);
}

TEST(FlowAnalyzer, RnrNakAndTheWaitItCauses) {
  RoceTrace t;
  t.request(Op::RcSendOnly, 20, 64);
  t.rnrNak(20, 1);  // 0.01 ms
  t.advance(10e-6);
  t.copy(1);
  t.ack(20);
  const AnalysisReport r = t.analyze();
  EXPECT_EQ(anomalyList(r), (Strings{"rnr_nak@2", "retransmission@3"}));
  EXPECT_EQ(r.summary.rnrNaks, 1u);
  EXPECT_EQ(r.summary.naks, 0u);
  EXPECT_EQ(r.summary.resentFrames, 1u);
  EXPECT_EQ(r.summary.timeouts, 0u);
  EXPECT_NEAR(r.anomalies[0].wait, 10e-6, 1e-12);  // the timer asked for
  EXPECT_NEAR(r.anomalies[1].wait, 11e-6, 1e-9);   // the wait observed
  EXPECT_EQ(r.anomalies[1].relatedFrame, 2u);
  EXPECT_NEAR(r.connections[0].dir[0].rnrWaitMax, 11e-6, 1e-9);
  EXPECT_EQ(r.summary.completedMessages, 1u);
}

TEST(FlowAnalyzer, CorruptedIcrcIsDroppedAndItsConsequencesFollow) {
  RoceTrace t;
  t.request(Op::RcRdmaWriteFirst, 30, 1024, 2148);
  t.request(Op::RcRdmaWriteMiddle, 31, 1024);
  t.corrupt(2);
  t.request(Op::RcRdmaWriteLast, 32, 100);        // 3: the responder saw a gap
  t.nak(31, packets::NakCode::PsnSequenceError);  // 4
  t.request(Op::RcRdmaWriteMiddle, 31, 1024);     // 5
  t.copy(3);                                      // 6
  t.ack(32);                                      // 7
  const AnalysisReport r = t.analyze();
  EXPECT_EQ(anomalyList(r),
            (Strings{"icrc_failure@2", "psn_gap@3", "nak@4", "gap_filled@5", "retransmission@6"}));
  EXPECT_EQ(r.summary.icrcFailures, 1u);
  EXPECT_EQ(r.summary.psnGaps, 1u);
  EXPECT_EQ(r.summary.naks, 1u);
  EXPECT_EQ(r.summary.resentFrames, 1u);
  EXPECT_EQ(r.summary.completedMessages, 1u);
}

TEST(FlowAnalyzer, EcnMarkAndCnp) {
  RoceTrace t;
  t.request(Op::RcRdmaWriteOnly, 40, 64, 64, 3);
  t.cnp();
  t.ack(40);
  const AnalysisReport r = t.analyze();
  EXPECT_EQ(anomalyList(r), (Strings{"ecn_ce@1", "cnp@2"}));
  EXPECT_EQ(r.summary.cnps, 1u);
  EXPECT_EQ(r.summary.ecnMarks, 1u);
  EXPECT_EQ(r.summary.connections, 1u);
  EXPECT_EQ(r.connections[0].dir[0].cnps, 1u);
  EXPECT_EQ(r.summary.completedMessages, 1u);
}

TEST(FlowAnalyzer, ReorderedFrameIsNotAResend) {
  RoceTrace t;
  t.request(Op::RcSendOnly, 0, 8);
  t.request(Op::RcSendOnly, 1, 8);
  t.request(Op::RcSendOnly, 2, 8);
  t.swap(2, 3);
  t.request(Op::RcSendOnly, 3, 8);
  t.ack(3);
  const AnalysisReport r = t.analyze();
  EXPECT_EQ(anomalyList(r), (Strings{"psn_gap@2", "reordered@3"}));
  EXPECT_EQ(r.summary.resentFrames, 0u);
  EXPECT_EQ(r.summary.messages, 4u);
  EXPECT_EQ(r.summary.completedMessages, 4u);
}

TEST(FlowAnalyzer, UnansweredMessageIsIncomplete) {
  RoceTrace t;
  t.request(Op::RcSendOnly, 50, 8);
  t.ack(50);
  t.request(Op::RcSendFirst, 51, 1024);
  const AnalysisReport r = t.analyze();
  EXPECT_EQ(anomalyList(r), Strings{"incomplete_message@3"});
  EXPECT_EQ(r.summary.incompleteMessages, 1u);
  EXPECT_EQ(r.summary.messages, 2u);
  EXPECT_EQ(r.anomalies[0].detail, "SEND from PSN 51 never fully sent");
}

TEST(FlowAnalyzer, ErrorNakFailsTheMessage) {
  RoceTrace t;
  t.request(Op::RcRdmaWriteOnly, 60, 16, 16);
  t.nak(60, packets::NakCode::RemoteAccessError);
  const AnalysisReport r = t.analyze();
  EXPECT_EQ(anomalyList(r), Strings{"nak@2"});
  EXPECT_EQ(r.summary.naks, 1u);
  EXPECT_EQ(r.summary.failedMessages, 1u);
  EXPECT_EQ(r.summary.incompleteMessages, 0u);
  ASSERT_EQ(r.messages.size(), 1u);
  EXPECT_EQ(r.messages[0].outcome, Outcome::Failed);
  EXPECT_EQ(r.messages[0].detail, "remote access error");
}

TEST(FlowAnalyzer, TwoQpPairsBetweenTheSameHostsArePairedByPsn) {
  RoceTrace t;
  t.qpB = 0x22;
  t.request(Op::RcSendOnly, 100, 8);
  t.qpB = 0x23;
  t.request(Op::RcSendOnly, 5000, 8);
  t.qpA = 0x12;
  t.ack(5000);
  t.qpA = 0x11;
  t.ack(100);
  const AnalysisReport r = t.analyze();
  EXPECT_EQ(anomalyList(r), Strings{});
  ASSERT_EQ(r.connections.size(), 2u);
  EXPECT_EQ(r.connections[0].a.qp, 0x11u);
  EXPECT_EQ(r.connections[0].b.qp, 0x22u);
  EXPECT_EQ(r.connections[1].a.qp, 0x12u);
  EXPECT_EQ(r.connections[1].b.qp, 0x23u);
  EXPECT_EQ(r.connections[0].dir[0].messages, 1u);
  EXPECT_EQ(r.connections[1].dir[0].messages, 1u);
}

TEST(FlowAnalyzer, PsnWrapIsNotAGap) {
  RoceTrace t;
  for (std::uint32_t p : {0xfffffeu, 0xffffffu, 0u, 1u})
    t.request(Op::RcSendOnly, p, 8);
  t.ack(1);
  const AnalysisReport r = t.analyze();
  EXPECT_EQ(anomalyList(r), Strings{});
  EXPECT_EQ(r.summary.completedMessages, 4u);
}

TEST(FlowAnalyzer, UdSendsAreMessagesWithoutAcks) {
  RoceTrace t;
  t.request(Op::UdSendOnly, 1, 100);
  t.request(Op::UdSendOnly, 7, 100);
  const AnalysisReport r = t.analyze();
  EXPECT_EQ(anomalyList(r), Strings{});
  ASSERT_EQ(r.connections.size(), 1u);
  EXPECT_EQ(r.connections[0].transport, "UD");
  EXPECT_EQ(r.summary.completedMessages, 2u);
  EXPECT_EQ(r.connections[0].dir[0].payloadBytes, 200u);
}

TEST(FlowAnalyzer, NonRdmaFramesAreCountedOnly) {
  FlowAnalyzer a;
  const std::vector<std::uint8_t> junk(60, 0);
  a.addFrame(junk, packets::LinkType::Ethernet, 1, 0.0);
  a.finish();
  EXPECT_EQ(a.summary().frames, 1u);
  EXPECT_EQ(a.summary().rdmaFrames, 0u);
  EXPECT_EQ(a.summary().connections, 0u);
}

TEST(FlowAnalyzer, ObserversSeeMessagesAndAnomaliesAsFound) {
  RoceTrace t;
  t.request(Op::RcSendOnly, 1, 8);
  t.copy(1);
  t.ack(1);
  FlowAnalyzer a;
  std::vector<std::uint64_t> messageEnds;
  std::vector<AnomalyKind> kinds;
  a.onMessage([&](const MessageRecord& m) { messageEnds.push_back(m.endFrame); });
  a.onAnomaly([&](const Anomaly& x) { kinds.push_back(x.kind); });
  std::uint64_t n = 0;
  for (const auto& f : t.frames())
    a.addFrame(f.bytes, packets::LinkType::Ethernet, ++n, f.time);
  EXPECT_EQ(messageEnds, std::vector<std::uint64_t>{3});
  EXPECT_EQ(kinds, std::vector<AnomalyKind>{AnomalyKind::Duplicate});
}

}  // namespace
}  // namespace rdmascope::analysis

namespace rdmascope::analysis {
namespace {

TEST(FlowAnalyzerSeries, BucketsWidenToStayWithinTheLimitAndKeepTheTotals) {
  test::RoceTrace t;
  t.step = 1e-3;  // one frame per millisecond: 20 messages over 40 ms
  for (std::uint32_t i = 0; i < 20; ++i) {
    t.request(packets::IbOpcode::RcSendOnly, i, 100);
    t.ack(i);
  }
  AnalyzerOptions o;
  o.seriesWidth = 1e-3;
  o.maxSeriesBuckets = 8;
  const AnalysisReport r = t.analyze(o);
  const DirectionStats& s = r.connections.at(0).dir[0];
  EXPECT_LE(s.series.size(), 8u);
  EXPECT_DOUBLE_EQ(s.seriesWidth, 8e-3);  // 1 ms doubled until 40 ms fit in 8 buckets
  std::uint64_t messages = 0, bytes = 0, frames = 0;
  for (const auto& b : s.series) {
    messages += b.messages;
    bytes += b.bytes;
    frames += b.frames;
    if (b.latencyCount) {
      EXPECT_NEAR(b.latencyMax, 1e-3, 1e-9);
    }
  }
  EXPECT_EQ(messages, 20u);
  EXPECT_EQ(bytes, 2000u);
  EXPECT_EQ(frames, 40u);
  EXPECT_NEAR(s.series[1].start - s.series[0].start, 8e-3, 1e-12);
  // 20 messages of 100 bytes between the first and the last frame (39 ms).
  EXPECT_NEAR(s.throughput(), 2000.0 / 39e-3, 1e-6);
  EXPECT_NEAR(s.messageRate(), 20.0 / 39e-3, 1e-6);
}

}  // namespace
}  // namespace rdmascope::analysis
