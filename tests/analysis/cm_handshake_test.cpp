// The Communication Manager in flow analysis: a connection set up through CM gets its two QPNs
// from the REQ and REP, its handshake frames (REQ -> REP -> RTU, DREQ -> DREP) are listed with
// it, a REJ is an anomaly, the handshake pairs the two flows of a connection even between hosts
// with several connections, and reports of captures without CM keep their JSON unchanged.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/packets/mad_builder.h"
#include "rdmascope/packets_io/capture_reader.h"

namespace rdmascope::analysis {
namespace {

using namespace packets;

AnalysisReport analyzeCapture(const std::string& name) {
  const std::string path = std::string(RDMASCOPE_SOURCE_DIR) + "/tests/lab/captures/" + name;
  std::string error;
  auto reader = packets_io::CaptureReader::open(path, error);
  EXPECT_TRUE(reader) << error;
  FlowAnalyzer a;
  packets_io::FrameView v;
  while (reader && reader->next(v))
    a.addFrame(v.data, reader->linkType(), reader->framesRead(),
               static_cast<double>(v.timestampNs) * 1e-9);
  a.finish();
  return a.report();
}

std::string steps(const CmHandshake& h) {
  std::string s;
  for (const auto& st : h.steps)
    s += (s.empty() ? "" : " ") + st.message + "@" + std::to_string(st.frame) +
         (st.fromClient ? "c" : "s");
  return s;
}

TEST(CmHandshake, RealRxeCaptureListsHandshakesAndTheReject) {
  const auto r = analyzeCapture("rxe_cm_send_lat.pcap");
  ASSERT_EQ(r.handshakes.size(), 3u);
  const auto& rejected = r.handshakes[0];
  EXPECT_EQ(steps(rejected), "REQ@1c REJ@2s");
  EXPECT_EQ(rejected.port, 9999);
  EXPECT_EQ(rejected.rejectReason, 8);
  EXPECT_EQ(rejected.connection, -1);
  EXPECT_FALSE(rejected.established());

  ASSERT_EQ(r.connections.size(), 4u);
  int withCm = 0;
  for (const auto& c : r.connections) {
    if (!c.cm) continue;
    ++withCm;
    EXPECT_EQ(c.transport, "RC");
    EXPECT_EQ(c.cm->connection, c.id);
    EXPECT_EQ(c.cm->port, 18515);
    EXPECT_TRUE(c.cm->established());
    EXPECT_TRUE(c.cm->disconnected());
    // The endpoints' QPNs are the ones the REQ and REP named.
    const bool clientIsA = c.a.address == c.cm->client;
    EXPECT_EQ(clientIsA ? c.a.qp : c.b.qp, c.cm->clientQpn);
    EXPECT_EQ(clientIsA ? c.b.qp : c.a.qp, c.cm->serverQpn);
  }
  EXPECT_EQ(withCm, 2);
  EXPECT_EQ(steps(r.handshakes[1]), "REQ@3c REP@4s RTU@5c DREQ@76c DREP@77s");
  EXPECT_EQ(r.handshakes[1].clientQpn, 0x12u);
  EXPECT_EQ(r.handshakes[1].serverQpn, 0x11u);
  EXPECT_EQ(steps(r.handshakes[2]), "REQ@26c REP@27s RTU@28c DREQ@73s DREQ@74c DREP@75c");

  int rejects = 0;
  for (const auto& a : r.anomalies)
    if (a.kind == AnomalyKind::CmReject) {
      ++rejects;
      EXPECT_EQ(a.frame, 2u);
      EXPECT_EQ(a.detail,
                "CM ConnectReject of REQ from 10.9.0.1: Invalid Service ID (8), port 9999");
    }
  EXPECT_EQ(rejects, 1);

  const auto j = nlohmann::json::parse(toJson(r));
  ASSERT_EQ(j["cm_handshakes"].size(), 3u);
  EXPECT_EQ(j["cm_handshakes"][0]["reject_reason_name"], "Invalid Service ID");
  EXPECT_EQ(j["cm_handshakes"][1]["service_id"], "0x0000000001064853");
  int cmConnections = 0;
  for (const auto& c : j["connections"])
    if (c.contains("cm")) {
      ++cmConnections;
      EXPECT_EQ(c["cm"]["steps"][0]["message"], "REQ");
      EXPECT_EQ(c["cm"]["established"], true);
    }
  EXPECT_EQ(cmConnections, 2);
  const auto text = formatText(r);
  EXPECT_NE(text.find("CM REQ 3 -> REP 4 -> RTU 5 -> DREQ 76 -> DREP 77 (port 18515)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("10.9.0.2 -> 10.9.0.1: REQ 1 -> REJ 2 (port 9999): rejected, Invalid "
                      "Service ID"),
            std::string::npos)
      << text;
}

TEST(CmHandshake, CapturesWithoutCmKeepTheirJsonKeys) {
  const auto j =
      nlohmann::ordered_json::parse(toJson(analyzeCapture("rxe_rc_verbs_ops_loss.pcap")));
  EXPECT_FALSE(j.contains("cm_handshakes"));
  for (const auto& c : j["connections"])
    EXPECT_FALSE(c.contains("cm"));
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it)
    keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"summary", "connections", "anomalies",
                                            "anomalies_dropped", "messages", "messages_dropped"}));
}

// Two connections between the same two hosts; the server speaks first on the second one. By
// addresses alone its SEND could belong to either unpaired connection; the REP names the QPs.
TEST(CmHandshake, TheHandshakePairsFlowsBetweenHostsWithSeveralConnections) {
  const RoceAddressing toServer;
  RoceAddressing toClient = toServer;
  std::swap(toClient.srcIp, toClient.dstIp);
  std::swap(toClient.srcMac, toClient.dstMac);
  FlowAnalyzer a;
  std::uint64_t n = 0;
  const auto feed = [&](const std::vector<std::uint8_t>& frame) {
    ++n;
    a.addFrame(frame, LinkType::Ethernet, n, static_cast<double>(n) * 1e-3);
  };
  const auto send = [](std::uint32_t destQp, std::uint32_t psn) {
    IbPacket p;
    p.bth.opcode = static_cast<std::uint8_t>(IbOpcode::RcSendOnly);
    p.bth.destQp = destQp;
    p.bth.psn = psn;
    p.bth.ackReq = true;
    p.payload.assign(64, 0xab);
    return p;
  };
  for (const std::uint32_t k : {0u, 1u}) {
    CmReq req;
    req.localCommId = 100 + k;
    req.localQpn = 0x11 + 2 * k;  // client QPs 0x11, 0x13
    req.serviceId = rdmaIpServiceId(0x06, 7471);
    CmRep rep;
    rep.localCommId = 200 + k;
    rep.remoteCommId = 100 + k;
    rep.localQpn = 0x21 + 2 * k;  // server QPs 0x21, 0x23
    feed(buildRoceV2(toServer, cmPacket(req, k)));
    feed(buildRoceV2(toClient, cmPacket(rep, k)));
    feed(buildRoceV2(toServer, cmPacket(CmRtu{100 + k, 200 + k, {}}, k)));
  }
  feed(buildRoceV2(toServer, send(0x21, 1)));  // client QP 0x11 -> server QP 0x21
  feed(buildRoceV2(toServer, send(0x23, 1)));  // client QP 0x13 -> server QP 0x23
  feed(buildRoceV2(toClient, send(0x13, 9)));  // server QP 0x23 -> client QP 0x13
  a.finish();
  const auto r = a.report();
  int rc = 0;
  for (const auto& c : r.connections) {
    if (c.transport != "RC") continue;
    ++rc;
    ASSERT_TRUE(c.cm) << c.id;
    EXPECT_EQ(*c.a.qp + 0x10, *c.b.qp) << "client QP 0x1x pairs with server QP 0x2x";
  }
  EXPECT_EQ(rc, 2) << "the server's SEND joined the connection its REP named";
  EXPECT_EQ(r.handshakes.size(), 2u);
  EXPECT_TRUE(r.handshakes[1].established());
  EXPECT_FALSE(r.handshakes[1].disconnected());
}

}  // namespace
}  // namespace rdmascope::analysis
