// Narration as data: the simulator's trace events carry typed fields; the sentences are made
// from them in one place (narration.h). These tests read the typed fields, never the prose,
// except where the prose itself is what is checked.
#include "rdmascope/sim/narration.h"

#include <gtest/gtest.h>

#include <set>

#include "rdmascope/sim/trace_json.h"
#include "sim_test_support.h"

namespace rdmascope::sim {
namespace {

using namespace testing;

std::vector<TraceEvent> eventsOf(const Trace& trace, Narrative what) {
  std::vector<TraceEvent> out;
  for (const TraceEvent& e : trace.events())
    if (e.what == what) out.push_back(e);
  return out;
}

// One SEND of 4096 bytes (four packets at MTU 1024) from A to B, traced.
void sendFourPackets(Pair& p) {
  p.net->sim().trace().setEnabled(true);
  ASSERT_TRUE(p.hb().postRecv(p.b.qpn, recvWr(1, p.b, 0, 4096)).ok());
  ASSERT_TRUE(p.ha().postSend(p.a.qpn, sendWr(2, WrOpcode::Send, p.a, 0, 4096, p.b)).ok());
  p.net->sim().run();
}

TEST(Narration, RetryCnt7RetriesWithoutLimitAndSaysSo) {
  PairOptions o;
  o.retryCnt = 7;
  o.config.faults.dropPsns.push_back({0x101, 0, 1});
  Pair p = makePair(o);
  ASSERT_NO_FATAL_FAILURE(sendFourPackets(p));
  const auto retries = eventsOf(p.net->sim().trace(), Narrative::RetryStarted);
  ASSERT_EQ(retries.size(), 1u);
  const TraceEvent& r = retries[0];
  EXPECT_EQ(r.psn, 0x101u);
  EXPECT_EQ(r.args.retryCause, RetryCause::NakPsnSequenceError);
  EXPECT_EQ(r.args.retriesUnlimited, true);
  EXPECT_FALSE(r.args.retriesLeft.has_value());
  // rxe treats retry_cnt 7 as infinite: the sentence must not count down from 7.
  const std::string text = describe(r);
  EXPECT_EQ(text.find("retries left"), std::string::npos) << text;
  EXPECT_NE(text.find("without limit"), std::string::npos) << text;
}

TEST(Narration, RetryCountsDownAndEndsInRetryExceeded) {
  PairOptions o;
  o.retryCnt = 3;
  o.timeout = 8;
  o.config.faults.dropPsns.push_back({0x101, 0, 100});  // every transmission of that PSN
  Pair p = makePair(o);
  ASSERT_NO_FATAL_FAILURE(sendFourPackets(p));
  const Trace& trace = p.net->sim().trace();
  std::vector<int> left;
  for (const TraceEvent& e : eventsOf(trace, Narrative::RetryStarted)) {
    EXPECT_FALSE(e.args.retriesUnlimited.has_value());
    ASSERT_TRUE(e.args.retriesLeft.has_value());
    left.push_back(*e.args.retriesLeft);
    EXPECT_EQ(e.psn, 0x101u);
  }
  EXPECT_EQ(left, (std::vector<int>{2, 1, 0}));
  const auto exhausted = eventsOf(trace, Narrative::RetryExhausted);
  ASSERT_EQ(exhausted.size(), 1u);
  EXPECT_EQ(exhausted[0].args.retryCount, 3);
  EXPECT_EQ(exhausted[0].psn, 0x101u);
  // the completion error moves the QP to ERR: a typed state change with its cause
  bool sawError = false;
  for (const TraceEvent& e : eventsOf(trace, Narrative::QpStateChanged)) {
    if (e.args.toState != QpState::Err) continue;
    sawError = true;
    EXPECT_EQ(e.reason, Reason::CompletionError);
    EXPECT_EQ(e.args.status, WcStatus::RetryExcErr);
  }
  EXPECT_TRUE(sawError);
}

TEST(Narration, PacketsAndAcksCarryOpcodePsnAndSyndrome) {
  PairOptions o;
  o.config.faults.dropPsns.push_back({0x101, 0, 1});
  Pair p = makePair(o);
  ASSERT_NO_FATAL_FAILURE(sendFourPackets(p));
  const Trace& trace = p.net->sim().trace();
  int requests = 0, naks = 0, lost = 0;
  for (const TraceEvent& e : eventsOf(trace, Narrative::FrameSent)) {
    ASSERT_TRUE(e.args.opcode.has_value());
    EXPECT_EQ(e.args.peer, e.host == "host-a" ? "host-b" : "host-a");
    if (e.reason == Reason::Request) {
      ++requests;
      EXPECT_EQ(e.wrId, 2u);
      EXPECT_TRUE(e.args.ackReq.has_value());
    }
    if (e.reason == Reason::Ack && e.args.syndrome == 0x60) {
      ++naks;
      EXPECT_EQ(e.detail, Reason::PsnOutOfSequence);
      EXPECT_EQ(e.psn, 0x101u);
      EXPECT_EQ(e.args.expectedPsn, 0x101u);
      EXPECT_EQ(e.args.requestPsn, 0x102u);
    }
  }
  for (const TraceEvent& e : eventsOf(trace, Narrative::FrameLost)) {
    ++lost;
    EXPECT_EQ(e.reason, Reason::PsnOnDropList);
    EXPECT_EQ(e.psn, 0x101u);
    EXPECT_GT(e.frameNumber, 0u);
  }
  EXPECT_EQ(requests, 4 + 3);  // four packets, then go-back-N resends three
  EXPECT_EQ(naks, 1);
  EXPECT_EQ(lost, 1);
  const auto cqes = eventsOf(trace, Narrative::CqeProduced);
  ASSERT_EQ(cqes.size(), 2u);
  for (const TraceEvent& e : cqes) {
    EXPECT_EQ(e.args.status, WcStatus::Success);
    EXPECT_EQ(e.args.bytes, 4096u);
  }
}

TEST(Narration, EveryNarrativeAndReasonHasItsSentenceAndName) {
  std::set<std::string_view> names;
  const auto last = static_cast<int>(Narrative::IwarpTerminateSent);
  for (int i = 0; i <= last; ++i) {
    TraceEvent e;
    e.what = static_cast<Narrative>(i);
    e.reason = Reason::Text;  // events that only name a reason (TcpAppSleeps) have one
    e.args.text = "x";
    e.args.seq = 1;
    EXPECT_FALSE(describe(e).empty()) << i;
    const std::string_view name = toString(e.what);
    EXPECT_NE(name, "?") << i;
    EXPECT_TRUE(names.insert(name).second) << name;
  }
  names.clear();
  const auto lastReason = static_cast<int>(Reason::CopyIntoAppBuffer);
  for (int i = 1; i <= lastReason; ++i) {
    TraceEvent e;
    e.args.text = "x";
    const auto r = static_cast<Reason>(i);
    EXPECT_FALSE(describeReason(r, e).empty()) << i;
    EXPECT_NE(toString(r), "?") << i;
    EXPECT_TRUE(names.insert(toString(r)).second) << toString(r);
  }
}

TEST(Narration, JsonCarriesTheTypedFieldsAndTheSentence) {
  PairOptions o;
  Pair p = makePair(o);
  ASSERT_NO_FATAL_FAILURE(sendFourPackets(p));
  const auto packets = eventsOf(p.net->sim().trace(), Narrative::RequestPacket);
  ASSERT_EQ(packets.size(), 4u);
  const nlohmann::json j = toJson(packets.back());
  EXPECT_EQ(j["what"], "request-packet");
  EXPECT_EQ(j["kind"], "wqe-packet");
  EXPECT_EQ(j["wr_id"], 2);
  EXPECT_EQ(j["psn"], 0x103);
  EXPECT_EQ(j["args"]["opcode"], 0x02);  // SEND LAST
  EXPECT_EQ(j["args"]["bytes"], 1024);
  EXPECT_EQ(j["args"]["ack_req"], "last-packet");
  EXPECT_FALSE(j["args"].contains("retry_cause"));  // only the arguments the event has
  EXPECT_EQ(j["explanation"], describe(packets.back()));
  const nlohmann::json posted = toJson(eventsOf(p.net->sim().trace(), Narrative::SendPosted)[0]);
  EXPECT_EQ(posted["args"]["wr_opcode"], "SEND");
  EXPECT_EQ(posted["args"]["signaled"], true);
}

}  // namespace
}  // namespace rdmascope::sim
