#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "rdmascope/analysis/flow_analyzer.h"
#include "roce_trace.h"

namespace rdmascope::analysis {
namespace {

using Op = packets::IbOpcode;
using test::RoceTrace;

// Every kind of fault at once, with known counts.
RoceTrace faultyTrace() {
  RoceTrace t;
  t.request(Op::RcRdmaWriteFirst, 10, 1024, 2148);  // 1
  t.request(Op::RcRdmaWriteMiddle, 11, 1024);
  t.lose(2);
  t.request(Op::RcRdmaWriteLast, 12, 100);        // 2: gap
  t.nak(11, packets::NakCode::PsnSequenceError);  // 3
  t.request(Op::RcRdmaWriteMiddle, 11, 1024);     // 4
  t.copy(2);                                      // 5: resent
  t.ack(12);                                      // 6
  t.request(Op::RcSendOnly, 13, 8);               // 7
  t.copy(7);                                      // 8: duplicate (resent too)
  t.ack(13);                                      // 9
  t.request(Op::RcSendOnly, 14, 8);               // 10
  t.rnrNak(14, 2);                                // 11
  t.advance(20e-6);
  t.copy(10);                        // 12: resent
  t.ack(14);                         // 13
  t.request(Op::RcSendOnly, 15, 8);  // 14
  t.corrupt(14);
  t.cnp();                           // 15
  t.request(Op::RcSendOnly, 16, 8);  // 16: gap (15 was dropped)
  return t;
}

TEST(ReportJson, SummaryHasTheIssueCountsAsIntegers) {
  const AnalysisReport r = faultyTrace().analyze();
  const auto j = nlohmann::json::parse(toJson(r));
  ASSERT_TRUE(j.contains("summary"));
  const auto& s = j["summary"];
  // The corrupted SEND (frame 14) never reached the responder, so it is no message.
  const std::pair<const char*, std::uint64_t> expected[] = {
      {"connections", 1},         {"messages", 4}, {"naks", 1},       {"rnr_naks", 1},
      {"resent_frames", 3},       {"psn_gaps", 2}, {"duplicates", 1}, {"icrc_failures", 1},
      {"incomplete_messages", 1}, {"cnps", 1},
  };
  for (const auto& [key, value] : expected) {
    ASSERT_TRUE(s.contains(key)) << key;
    EXPECT_TRUE(s[key].is_number_integer()) << key;
    EXPECT_EQ(s[key].get<std::uint64_t>(), value) << key;
  }
  EXPECT_EQ(j["connections"].size(), 1u);
  EXPECT_EQ(j["connections"][0]["a"]["address"], "10.0.0.1");
  EXPECT_EQ(j["connections"][0]["b"]["qp"], 0x22);
  EXPECT_EQ(j["anomalies"].size(), r.anomalies.size());
  EXPECT_EQ(j["anomalies"][0]["kind"], "psn_gap");
  EXPECT_EQ(j["anomalies"][0]["frame"], 2);
  const auto& dir = j["connections"][0]["a_to_b"];
  EXPECT_EQ(dir["messages"], 3);
  EXPECT_EQ(dir["latency"]["count"], 3);
  EXPECT_GE(dir["latency"]["p99_ns"].get<std::uint64_t>(),
            dir["latency"]["p50_ns"].get<std::uint64_t>());
  EXPECT_FALSE(dir["series"].empty());
}

TEST(ReportJson, TextReportListsConversationsAnomaliesAndStatistics) {
  const std::string text = formatText(faultyTrace().analyze());
  EXPECT_NE(text.find("10.0.0.1 QP 17"), std::string::npos);
  EXPECT_NE(text.find("10.0.0.2 QP 34"), std::string::npos);
  EXPECT_NE(text.find("frame 3        conn 0   nak                PSN sequence error at PSN 11"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("latency p50"), std::string::npos);
  EXPECT_NE(text.find("3 resent"), std::string::npos);
}

// writeJson hands the text on a megabyte at a time: the same bytes as toJson, for a report far
// larger than that (the faulty trace's anomalies and messages repeated), with the last member
// put before the closing brace.
TEST(ReportJson, WrittenInPiecesItIsTheSameText) {
  AnalysisReport r = faultyTrace().analyze();
  ASSERT_FALSE(r.anomalies.empty());
  ASSERT_FALSE(r.messages.empty());
  const auto anomalies = r.anomalies;
  const auto messages = r.messages;
  while (r.anomalies.size() < 20000) {
    r.anomalies.insert(r.anomalies.end(), anomalies.begin(), anomalies.end());
    r.messages.insert(r.messages.end(), messages.begin(), messages.end());
  }
  const std::string whole = toJson(r);
  ASSERT_GT(whole.size(), std::size_t{3} << 20);
  std::ostringstream pieces;
  writeJson(pieces, r);
  EXPECT_TRUE(pieces.str() == whole);
  const std::string last = ",\n  \"extra\": {\"n\": 1}\n";
  std::ostringstream withLast;
  writeJson(withLast, r, last);
  std::string expected = whole;
  expected.insert(expected.rfind('}'), last);
  EXPECT_TRUE(withLast.str() == expected);
  EXPECT_EQ(nlohmann::json::parse(withLast.str())["extra"]["n"], 1);
}

}  // namespace
}  // namespace rdmascope::analysis
