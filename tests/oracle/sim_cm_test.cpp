// The simulator's rdma_cm connection (sim --cm) against the real one: the CM messages of a
// simulated run are checked field by field against the lab capture of Linux's ib_cm/rdma_cm
// over rxe (tests/lab/captures/rxe_cm_send_lat.pcap), and the data packets must keep the shape
// they have without the CM.
//
// Fields ignored against the lab, and why: communication IDs (random per connection),
// CA GUIDs (from each NIC's MAC), QPNs and starting PSNs (per run; checked instead to be the
// ones the data packets use), MAD transaction IDs (per agent and connection), the BTH PSN of
// the MADs (QP 1 numbers every MAD since boot), rdma_cm's source port (ephemeral) and so the
// REQ's flow label (a hash of the ports, checked on both sides to be that hash).
// Fields the application chooses (responder resources, initiator depth, retry and RNR retry
// counts, the consumer private data) are compared with the scenario's values, since the lab
// capture was made by perftest.
#include <gtest/gtest.h>

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/mad_builder.h"
#include "rdmascope/packets_io/capture_reader.h"
#include "rdmascope/verbs_backend/ibv_cm_connection.h"
#include "rdmascope/verbs_backend/scenario.h"

namespace rdmascope::verbs_backend {
namespace {

namespace pk = packets;

struct CmFrame {
  pk::MadHeader header;
  pk::CmMessage message;
  std::map<std::string, std::string> carrier;  ///< BTH, DETH, MAD, UDP and IP keys
};

// The CM message of a frame, if it carries one.
std::optional<CmFrame> cmOf(const std::vector<std::uint8_t>& bytes) {
  const pk::Dissection d = pk::decodeFrame(bytes, pk::LinkType::Ethernet);
  const pk::Node* cm = d.find("infiniband.cm");
  if (cm == nullptr || cm->offset < 24 || bytes.size() < cm->offset + pk::kMadDataSize)
    return std::nullopt;
  CmFrame f;
  f.header = pk::decodeMadHeader(std::span(bytes).subspan(cm->offset - 24, 24));
  auto m = pk::decodeCmMessage(f.header.attributeId,
                               std::span(bytes).subspan(cm->offset, pk::kMadDataSize));
  if (!m) return std::nullopt;
  f.message = std::move(*m);
  for (const pk::Node& n : d.nodes) {
    const std::string k(n.key);
    const bool carrier = k.starts_with("infiniband.bth.") || k.starts_with("infiniband.deth.") ||
                         k.starts_with("infiniband.mad.") || k == "udp.srcport" ||
                         k == "udp.dstport" || k == "ip.ttl" || k == "ip.flags.df" ||
                         k == "ip.dsfield";
    if (carrier && k != "infiniband.bth.psn" && k != "infiniband.mad.transactionid" &&
        k != "infiniband.mad.data")
      f.carrier[k] = n.value;
  }
  return f;
}

std::vector<std::vector<std::uint8_t>> labFrames() {
  std::string error;
  auto reader = packets_io::CaptureReader::open(
      std::string(RDMASCOPE_SOURCE_DIR) + "/tests/lab/captures/rxe_cm_send_lat.pcap", error);
  EXPECT_TRUE(reader) << error;
  std::vector<std::vector<std::uint8_t>> out;
  if (!reader) return out;
  for (packets_io::CapturedFrame f; reader->next(f);)
    out.push_back(f.data);
  return out;
}

std::vector<std::string> cmScenarios() {
  std::vector<std::string> out;
  for (const auto& name : builtinScenarioNames())
    if (cmConnectedQp(builtinScenario(name)).ok()) out.push_back(name);
  return out;
}

RunResult run(Scenario s, bool cm, std::optional<sim::WireFormat> wire = std::nullopt) {
  RunOptions o;
  o.cm = cm;
  o.wire = wire;
  return runScenarioInSim(s, o);
}

TEST(SimCm, TheScenariosVerbsCmAcceptsAndNoOthers) {
  const auto names = cmScenarios();
  EXPECT_GE(names.size(), 8u);
  for (const char* n : {"uc-write", "ud-send"}) {
    RunResult r = run(builtinScenario(n), true);
    EXPECT_FALSE(r.ok) << n;
    EXPECT_NE(r.error.find("--cm connects RC QPs"), std::string::npos) << r.error;
    EXPECT_TRUE(r.frames.empty());
  }
}

// Every frame decodes without a diagnostic error and with a good ICRC; REQ, REP, RTU open the
// run and DREQ, DREP close it, as UD SEND ONLY from QP 1 to QP 1 with the GSI's Q_Key.
TEST(SimCm, EveryCmRunDecodesCleanAndOpensAndClosesWithTheHandshake) {
  for (const auto& name : cmScenarios()) {
    if (name == "retry-exceeded") continue;  // its link loses everything host-a sends
    for (auto wire :
         {sim::WireFormat::RoceV2Ipv4, sim::WireFormat::RoceV2Ipv6, sim::WireFormat::RoceV1}) {
      SCOPED_TRACE(name + " wire " + std::to_string(static_cast<int>(wire)));
      const RunResult r = run(builtinScenario(name), true, wire);
      ASSERT_TRUE(r.ok) << r.error;
      ASSERT_GE(r.frames.size(), 6u);
      std::vector<std::uint16_t> attrs;
      for (const auto& f : r.frames) {
        const pk::Dissection d = pk::decodeFrame(f.bytes, pk::LinkType::Ethernet);
        EXPECT_FALSE(d.hasErrors());
        EXPECT_EQ(d.crc, pk::CrcStatus::Good);
        if (auto cm = cmOf(f.bytes)) {
          attrs.push_back(cm->header.attributeId);
          EXPECT_EQ(cm->carrier["infiniband.bth.destqp"], "0x000001");
          EXPECT_EQ(cm->carrier["infiniband.deth.srcqp"], "0x00000001");
          EXPECT_EQ(cm->carrier["infiniband.bth.opcode"], "100");
        }
      }
      EXPECT_EQ(attrs, (std::vector<std::uint16_t>{0x10, 0x13, 0x14, 0x15, 0x16}));
      for (std::size_t i : {0, 1, 2})
        EXPECT_TRUE(cmOf(r.frames[i].bytes)) << "frame " << i + 1;
      EXPECT_TRUE(cmOf(r.frames[r.frames.size() - 2].bytes));
      EXPECT_TRUE(cmOf(r.frames.back().bytes));
    }
  }
}

// The simulated REQ/REP/RTU/DREQ/DREP equal the lab's (frames 3, 4, 5 and the DREQ/DREP of
// that connection, 76 and 77) but for the fields named at the top of this file.
TEST(SimCm, CmMessagesEqualTheLabCapture) {
  const auto lab = labFrames();
  ASSERT_EQ(lab.size(), 77u);
  Scenario s = builtinScenario("rc-send-recv");
  s.link.mtu = 1500;  // the lab's eth0: path MTU 1024
  const RunResult r = run(s, true);
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<CmFrame> mine;
  for (const auto& f : r.frames)
    if (auto cm = cmOf(f.bytes)) mine.push_back(std::move(*cm));
  ASSERT_EQ(mine.size(), 5u);
  const std::size_t labIndex[] = {2, 3, 4, 75, 76};
  const CmConnectParams active = cmConnectParams(s, 1, "qp");
  const CmConnectParams passive = cmConnectParams(s, 0, "qp");
  for (std::size_t i = 0; i < 5; ++i) {
    SCOPED_TRACE("CM message " + std::to_string(i));
    auto real = cmOf(lab[labIndex[i]]);
    ASSERT_TRUE(real);
    CmFrame& sim = mine[i];
    EXPECT_EQ(sim.carrier, real->carrier);
    real->header.transactionId = sim.header.transactionId;
    EXPECT_EQ(sim.header, real->header);
    ASSERT_EQ(sim.message.index(), real->message.index());
    std::visit(
        [&](auto& want) {
          using T = std::decay_t<decltype(want)>;
          T got = std::get<T>(sim.message);
          if constexpr (requires { want.localCommId; }) want.localCommId = got.localCommId;
          if constexpr (requires { want.remoteCommId; }) want.remoteCommId = got.remoteCommId;
          if constexpr (std::is_same_v<T, pk::CmReq>) {
            EXPECT_EQ(got.responderResources, active.responderResources);
            EXPECT_EQ(got.initiatorDepth, active.initiatorDepth);
            EXPECT_EQ(got.retryCount, active.retryCount);
            EXPECT_EQ(got.rnrRetryCount, active.rnrRetry);
            want.responderResources = got.responderResources;
            want.initiatorDepth = got.initiatorDepth;
            want.retryCount = got.retryCount;
            want.rnrRetryCount = got.rnrRetryCount;
            want.localCaGuid = got.localCaGuid;
            want.localQpn = got.localQpn;
            want.startingPsn = got.startingPsn;
            auto wantIp = pk::decodeIpCmPrivateData(want.privateData);
            auto gotIp = pk::decodeIpCmPrivateData(got.privateData);
            ASSERT_TRUE(wantIp && gotIp);
            // The flow label is rdma_cm's hash of the ports, in the lab's REQ as in ours.
            auto label = [](std::uint32_t sport) { return (sport * 31 + 18515) & 0xfffff; };
            EXPECT_EQ(want.primary.flowLabel, label(wantIp->srcPort));
            EXPECT_EQ(got.primary.flowLabel, label(gotIp->srcPort));
            want.primary.flowLabel = got.primary.flowLabel;
            wantIp->srcPort = gotIp->srcPort;
            wantIp->consumerData = gotIp->consumerData;
            EXPECT_EQ(*gotIp, *wantIp);
            auto regions = decodeCmPrivateData(gotIp->consumerData);
            ASSERT_TRUE(regions.ok()) << regions.status.message;
            EXPECT_EQ(regions.value.size(), 1u);
            want.privateData = got.privateData;
          } else if constexpr (std::is_same_v<T, pk::CmRep>) {
            EXPECT_EQ(got.responderResources, passive.responderResources);
            EXPECT_EQ(got.initiatorDepth, passive.initiatorDepth);
            EXPECT_EQ(got.rnrRetryCount, passive.rnrRetry);
            want.responderResources = got.responderResources;
            want.initiatorDepth = got.initiatorDepth;
            want.rnrRetryCount = got.rnrRetryCount;
            want.localCaGuid = got.localCaGuid;
            want.localQpn = got.localQpn;
            want.startingPsn = got.startingPsn;
            ASSERT_TRUE(decodeCmPrivateData(got.privateData).ok());
            want.privateData = got.privateData;
          } else if constexpr (std::is_same_v<T, pk::CmDreq>) {
            want.remoteQpn = got.remoteQpn;
          }
          EXPECT_EQ(got, want);
        },
        real->message);
  }
}

struct Shape {
  std::string src;
  std::string opcode;
  std::uint32_t psnStep = 0;  ///< PSN minus the first PSN of its direction
  std::string length, ackreq, syndrome;
  bool operator==(const Shape&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Shape& s) {
  return os << "\n  " << s.src << " op " << s.opcode << " +" << s.psnStep << " len " << s.length
            << " A " << s.ackreq << " syn " << s.syndrome;
}

std::vector<Shape> dataShape(const RunResult& r, std::map<std::string, std::uint32_t>* firstPsn) {
  std::vector<Shape> out;
  std::map<std::string, std::uint32_t> first;
  for (const auto& f : r.frames) {
    const pk::Dissection d = pk::decodeFrame(f.bytes, pk::LinkType::Ethernet);
    const pk::Node* qp = d.find("infiniband.bth.destqp");
    if (qp == nullptr || qp->number == 1) continue;
    auto value = [&](const char* k) {
      const pk::Node* n = d.find(k);
      return n ? n->value : std::string();
    };
    Shape s;
    s.src = value("ip.src") + value("ipv6.src");
    s.opcode = value("infiniband.bth.opcode");
    const auto psn = static_cast<std::uint32_t>(d.find("infiniband.bth.psn")->number);
    const int op = std::stoi(s.opcode);  // RC requests: 0x00-0x0c, atomics, SEND with invalidate
    const bool isReq = op <= 0x0c || (op >= 0x13 && op <= 0x17);
    const std::string dir = s.src + (isReq ? "req" : "resp");
    if (!first.count(dir)) first[dir] = psn;
    s.psnStep = (psn - first[dir]) & 0xffffff;
    s.length = value("frame.len") + "/" + std::to_string(f.bytes.size());
    s.ackreq = value("infiniband.bth.ackreq");
    s.syndrome = value("infiniband.aeth.syndrome");
    out.push_back(s);
  }
  if (firstPsn) *firstPsn = first;
  return out;
}

// The data packets with --cm are those without, PSNs shifted to the announced ones: the
// passive side (host-a, 10.9.0.1) sends from the REQ's starting PSN, the active side from the
// REP's; completions are the same.
TEST(SimCm, DataPacketsKeepTheirShapeAndUseTheAnnouncedQpnsAndPsns) {
  for (const auto& name : cmScenarios()) {
    if (name == "retry-exceeded") continue;
    SCOPED_TRACE(name);
    const RunResult plain = run(builtinScenario(name), false);
    const RunResult cm = run(builtinScenario(name), true);
    ASSERT_TRUE(cm.ok) << cm.error;
    std::map<std::string, std::uint32_t> first;
    EXPECT_EQ(dataShape(cm, &first), dataShape(plain, nullptr));
    EXPECT_EQ(cm.completionsText(), plain.completionsText());
    const auto req = cmOf(cm.frames[0].bytes);
    const auto rep = cmOf(cm.frames[1].bytes);
    ASSERT_TRUE(req && rep);
    const auto& q = std::get<pk::CmReq>(req->message);
    const auto& p = std::get<pk::CmRep>(rep->message);
    if (first.count("10.9.0.1req")) {
      EXPECT_EQ(first["10.9.0.1req"], q.startingPsn);
    }
    if (first.count("10.9.0.2req")) {
      EXPECT_EQ(first["10.9.0.2req"], p.startingPsn);
    }
    for (const auto& f : cm.frames) {
      const pk::Dissection d = pk::decodeFrame(f.bytes, pk::LinkType::Ethernet);
      const pk::Node* qp = d.find("infiniband.bth.destqp");
      const pk::Node* src = d.find("ip.src");
      if (qp == nullptr || qp->number == 1) continue;
      EXPECT_EQ(qp->number, src->value == "10.9.0.2" ? p.localQpn : q.localQpn);
    }
  }
}

}  // namespace
}  // namespace rdmascope::verbs_backend
