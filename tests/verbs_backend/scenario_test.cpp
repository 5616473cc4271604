#include "rdmascope/verbs_backend/scenario.h"

#include <gtest/gtest.h>

#include <fstream>

#include "rdmascope/packets/ib_crc.h"
#include "rdmascope/sim/narration.h"
#include "rdmascope/verbs_backend/sim_backend.h"

namespace rdmascope::verbs_backend {
namespace {

struct Pkt {
  int from;
  sim::PacketSummary s;
};

std::vector<Pkt> packetsOf(const RunResult& r) {
  std::vector<Pkt> out;
  for (const auto& f : r.frames)
    out.push_back({f.fromHost, sim::summarizeFrame(r.wire, f.bytes)});
  return out;
}

std::vector<std::string> names(const std::vector<Pkt>& p) {
  std::vector<std::string> out;
  for (const auto& x : p)
    out.push_back(x.s.opcodeName);
  return out;
}

RunResult runBuiltin(const std::string& name) {
  RunResult r = runScenarioInSim(builtinScenario(name));
  EXPECT_TRUE(r.ok) << name << ": " << r.error << "\n" << r.traceText();
  return r;
}

TEST(BuiltinScenarios, EveryOneRunsCleanlyAndEveryFrameVerifies) {
  for (const auto& name : builtinScenarioNames()) {
    RunResult r = runBuiltin(name);
    EXPECT_FALSE(r.frames.empty()) << name;
    for (const auto& f : r.frames) {
      EXPECT_EQ(packets::verifyFrameCrc(f.bytes, packets::LinkType::Ethernet),
                packets::CrcStatus::Good)
          << name;
    }
    EXPECT_FALSE(r.traceText().empty());
    // every trace line carries an explanation
    for (const auto& e : r.trace)
      EXPECT_FALSE(sim::describe(e).empty()) << name;
  }
}

TEST(BuiltinScenarios, RcSendRecvSequence) {
  RunResult r = runBuiltin("rc-send-recv");
  auto p = packetsOf(r);
  ASSERT_EQ(names(p), (std::vector<std::string>{"RC SEND FIRST", "RC SEND MIDDLE", "RC SEND LAST",
                                                "RC ACKNOWLEDGE"}));
  EXPECT_EQ(p[0].s.psn, 0x1a2b3cu);
  EXPECT_EQ(p[2].s.psn, 0x1a2b3eu);
  EXPECT_TRUE(p[2].s.ackReq);
  EXPECT_EQ(p[3].s.psn, 0x1a2b3eu);
  EXPECT_EQ(p[3].s.syndrome, 0x1f);
  EXPECT_EQ(p[3].from, 1);
}

TEST(BuiltinScenarios, RcWriteSequence) {
  auto p = packetsOf(runBuiltin("rc-write"));
  ASSERT_EQ(names(p), (std::vector<std::string>{
                          "RC RDMA WRITE FIRST", "RC RDMA WRITE MIDDLE", "RC RDMA WRITE MIDDLE",
                          "RC RDMA WRITE MIDDLE", "RC RDMA WRITE MIDDLE", "RC RDMA WRITE MIDDLE",
                          "RC RDMA WRITE MIDDLE", "RC RDMA WRITE LAST", "RC ACKNOWLEDGE"}));
  EXPECT_TRUE(p[0].s.hasReth);
  EXPECT_EQ(p[0].s.dmaLen, 8192u);
  EXPECT_FALSE(p[1].s.hasReth);
}

TEST(BuiltinScenarios, RcWriteImmAndReadAndAtomic) {
  auto w = packetsOf(runBuiltin("rc-write-imm"));
  ASSERT_EQ(names(w),
            (std::vector<std::string>{"RC RDMA WRITE FIRST", "RC RDMA WRITE LAST WITH IMMEDIATE",
                                      "RC ACKNOWLEDGE"}));
  EXPECT_EQ(w[1].s.imm, 0x1234u);
  auto rd = packetsOf(runBuiltin("rc-read"));
  ASSERT_EQ(names(rd),
            (std::vector<std::string>{"RC RDMA READ REQUEST", "RC RDMA READ RESPONSE FIRST",
                                      "RC RDMA READ RESPONSE LAST"}));
  EXPECT_EQ(rd[1].s.psn, rd[0].s.psn);
  EXPECT_EQ(rd[2].s.psn, rd[0].s.psn + 1);
  EXPECT_TRUE(rd[1].s.hasAeth);
  EXPECT_TRUE(rd[2].s.hasAeth);
  auto at = packetsOf(runBuiltin("rc-atomic"));
  // max_rd_atomic 1: the COMPARE SWAP waits for the FETCH ADD's acknowledge
  ASSERT_EQ(names(at), (std::vector<std::string>{"RC FETCH ADD", "RC ATOMIC ACKNOWLEDGE",
                                                 "RC COMPARE SWAP", "RC ATOMIC ACKNOWLEDGE"}));
  EXPECT_EQ(at[1].s.origData, 0u);
  EXPECT_EQ(at[3].s.origData, 5u);
}

TEST(BuiltinScenarios, UcAndUd) {
  auto uc = packetsOf(runBuiltin("uc-write"));
  for (const auto& x : uc)
    EXPECT_EQ(x.s.opcodeName.rfind("UC ", 0), 0u);
  EXPECT_EQ(uc.size(), 6u);  // 3 + 3 packets, no ACKs (one of them lost on the link)
  auto ud = packetsOf(runBuiltin("ud-send"));
  ASSERT_EQ(names(ud), (std::vector<std::string>{"UD SEND ONLY"}));
  EXPECT_TRUE(ud[0].s.hasDeth);
  EXPECT_EQ(ud[0].s.qkey, 0x11111111u);
}

TEST(BuiltinScenarios, RnrRetrySendsRnrNakThenResends) {
  RunResult r = runBuiltin("rnr-retry");
  auto p = packetsOf(r);
  ASSERT_GE(p.size(), 4u);
  EXPECT_EQ(p[0].s.opcodeName, "RC SEND ONLY");
  EXPECT_EQ(p[1].s.opcodeName, "RC ACKNOWLEDGE");
  EXPECT_EQ(p[1].s.syndrome, 0x20 | 12);
  EXPECT_EQ(p[2].s.opcodeName, "RC SEND ONLY");
  EXPECT_EQ(p[2].s.psn, p[0].s.psn);
  EXPECT_EQ(p[3].s.syndrome, 0x1f);
  // the resend waited the RNR timer (0.64 ms)
  EXPECT_GE((r.frames[2].time - r.frames[1].time).picos(), sim::SimTime::us(640).picos());
}

TEST(BuiltinScenarios, LossyGoBackNAcrossPsnWrap) {
  auto p = packetsOf(runBuiltin("lossy-go-back-n"));
  std::size_t nak = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i].s.opcodeName == "RC ACKNOWLEDGE" && p[i].s.syndrome == 0x60) nak = i;
  }
  ASSERT_GT(nak, 0u);
  EXPECT_EQ(p[nak].s.psn, 1u);
  EXPECT_EQ(p[nak + 1].s.psn, 1u);
  EXPECT_EQ(p[0].s.psn, 0xfffffau);
}

TEST(BuiltinScenarios, ErrorScenarios) {
  RunResult ra = runBuiltin("remote-access-error");
  auto p = packetsOf(ra);
  ASSERT_EQ(names(p),
            (std::vector<std::string>{"RC RDMA WRITE ONLY", "RC SEND ONLY", "RC ACKNOWLEDGE"}));
  EXPECT_EQ(p[2].s.syndrome, 0x62);  // NAK remote access error
  EXPECT_EQ(p[2].s.psn, p[0].s.psn);
  RunResult re = runBuiltin("retry-exceeded");
  std::size_t sent = 0;
  for (const auto& f : re.frames)
    sent += f.fromHost == 0;
  EXPECT_EQ(sent, 3u);  // first try and retry_cnt 2 retransmissions
  EXPECT_EQ(re.stats.framesLost, 3u);
}

TEST(BuiltinScenarios, TraceFormats) {
  RunResult r = runBuiltin("tour");
  const std::string text = r.traceText();
  EXPECT_NE(text.find("frame-sent"), std::string::npos);
  EXPECT_NE(text.find("qp-state"), std::string::npos);
  EXPECT_NE(text.find("out of band"), std::string::npos) << text.substr(0, 2000);
  const auto j = nlohmann::json::parse(r.traceJson());
  ASSERT_TRUE(j.is_array());
  EXPECT_EQ(j.size(), r.trace.size());
  EXPECT_FALSE(r.completionsText().empty());
}

TEST(BuiltinScenarios, DeterministicForASeed) {
  RunOptions o;
  o.loss = 0.2;
  o.seed = 7;
  RunResult a = runScenarioInSim(builtinScenario("tour"), o);
  RunResult b = runScenarioInSim(builtinScenario("tour"), o);
  EXPECT_EQ(a.traceText(), b.traceText());
  ASSERT_EQ(a.frames.size(), b.frames.size());
  for (std::size_t i = 0; i < a.frames.size(); ++i)
    EXPECT_EQ(a.frames[i].bytes, b.frames[i].bytes);
}

std::string parseError(const std::string& text) {
  try {
    parseScenario(nlohmann::json::parse(text), "s.json");
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

TEST(ScenarioParsing, ErrorsNameFilePathAndExpectation) {
  nlohmann::json j = builtinScenarioJson("rc-send-recv");
  j["hosts"][1]["qps"][0]["type"] = "XX";
  EXPECT_EQ(parseError(j.dump()),
            "s.json: /hosts/1/qps/0/type: expected one of RC, UC, UD, got \"XX\"");
  j = builtinScenarioJson("rc-send-recv");
  j["steps"][0]["modify_qp"]["state"] = 3;
  EXPECT_EQ(parseError(j.dump()),
            "s.json: /steps/0/modify_qp/state: expected one of RESET, INIT, RTR, RTS, SQD, SQE, "
            "ERR, got 3");
  j = builtinScenarioJson("rc-send-recv");
  j["faults"] = {{"loss", 1.5}};
  EXPECT_EQ(parseError(j.dump()), "s.json: /faults/loss: expected a rate between 0 and 1, got 1.5");
  j = builtinScenarioJson("rc-send-recv");
  j["steps"][8]["post_recv"]["sge"][0]["mr"] = "nope";
  EXPECT_NE(parseError(j.dump()).find("s.json: /steps/8/post_recv/sge/0/mr: expected the name"),
            std::string::npos)
      << parseError(j.dump());
  j = builtinScenarioJson("rc-send-recv");
  j.erase("hosts");
  EXPECT_EQ(parseError(j.dump()), "s.json: /: missing \"hosts\"");
  EXPECT_EQ(parseError("[]"), "s.json: /: expected a JSON object, got []");
}

TEST(ScenarioParsing, FileErrors) {
  try {
    loadScenarioFile("/nonexistent/x.json");
    FAIL();
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/x.json: cannot be opened"),
              std::string::npos);
  }
  const std::string path = std::string(RDMASCOPE_BINARY_DIR) + "/bad_scenario.json";
  std::ofstream(path) << "{ \"hosts\": [";
  try {
    loadScenarioFile(path);
    FAIL();
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("not valid JSON"), std::string::npos);
  }
}

TEST(ScenarioParsing, MissingMaskAttributeFailsWithEinval) {
  nlohmann::json j = builtinScenarioJson("rc-send-recv");
  // drop dest_qpn from host-a's RTR transition and expect the verbs error
  j["steps"][4]["modify_qp"].erase("dest_qpn");
  j["steps"][4]["expect_error"] = "EINVAL";
  RunResult r = runScenarioInSim(parseScenario(j, "s.json"));
  ASSERT_GT(r.steps.size(), 4u);
  EXPECT_TRUE(r.steps[4].ok);
  EXPECT_NE(r.steps[4].message.find("missing IBV_QP_DEST_QPN"), std::string::npos)
      << r.steps[4].message;
}

TEST(SimBackend, WaitCqAdvancesSimulatedTime) {
  auto net = std::make_shared<sim::Network>();
  SimBackend a(net, 0);
  auto dev = a.queryDevice();
  ASSERT_TRUE(dev.ok());
  EXPECT_EQ(dev.value.transport, "RoCEv2");
  EXPECT_EQ(dev.value.gid, net->host(0).gid());
  auto cq = a.createCq(4);
  ASSERT_TRUE(cq.ok());
  auto r = a.waitCq(cq.value, 1, std::chrono::milliseconds(5));
  EXPECT_TRUE(r.value.empty());
  EXPECT_EQ(net->sim().now(), sim::SimTime::ms(5));
  EXPECT_FALSE(a.pollCq(999, 1).ok());
}

}  // namespace
}  // namespace rdmascope::verbs_backend
