// The rdma_cm connection of a simulated run (ScenarioRun::useSimCm): the CM messages Linux's
// ib_cm and rdma_cm exchange over rxe, as real MADs between the two GSIs, with the field values
// of the lab capture tests/lab/captures/rxe_cm_send_lat.pcap (Debian 6.1 kernel).
#include <algorithm>
#include <cerrno>
#include <cstdio>

#include "rdmascope/packets/mad_builder.h"
#include "rdmascope/sim/network.h"
#include "rdmascope/verbs_backend/ibv_cm_connection.h"
#include "rdmascope/verbs_backend/scenario.h"
#include "rdmascope/verbs_backend/sim_backend.h"

namespace rdmascope::verbs_backend {

namespace {

namespace pk = packets;

// ib_cm's constants for an RC connection from rdma_cm (drivers/infiniband/core/cma.c, cm.c).
constexpr std::uint8_t kCmResponseTimeout = 20;  // CMA_CM_RESPONSE_TIMEOUT: 4.096 us x 2^20
constexpr std::uint8_t kMaxCmRetries = 15;       // CMA_MAX_CM_RETRIES
constexpr std::uint8_t kTargetAckDelay = 15;     // rxe's local_ca_ack_delay
constexpr std::uint8_t kLocalAckTimeout = 19;    // cm_ack_timeout(15, RoCE packet life 18)
constexpr std::uint32_t kRdmaPsTcp = 0x0106;     // RDMA_PS_TCP in the IP CM service ID

std::string hex(std::uint64_t v, int digits) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%0*llx", digits, static_cast<unsigned long long>(v));
  return b;
}

std::uint8_t mtuEnum(std::uint32_t bytes) {
  std::uint8_t e = 1;
  for (std::uint32_t m = 256; m < bytes && e < 5; m <<= 1)
    ++e;
  return e;
}

// The node GUID rxe derives from the netdev's MAC (EUI-64, universal/local bit flipped).
std::uint64_t guidFromMac(const pk::MacAddress& m) {
  const std::uint8_t b[8] = {
      static_cast<std::uint8_t>(m[0] ^ 2), m[1], m[2], 0xff, 0xfe, m[3], m[4], m[5]};
  std::uint64_t g = 0;
  for (std::uint8_t x : b)
    g = (g << 8) | x;
  return g;
}

pk::IpAddress ipOfGid(const sim::Gid& g) {
  static constexpr std::uint8_t kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  if (std::equal(std::begin(kMapped), std::end(kMapped), g.begin()))
    return pk::IpAddress::v4(g[12], g[13], g[14], g[15]);
  return pk::IpAddress::fromV6(g);
}

std::uint32_t swap32(std::uint32_t v) {
  return (v >> 24) | ((v >> 8) & 0xff00) | ((v << 8) & 0xff0000) | (v << 24);
}

const char* kRealDelays =
    "in the lab (two TCG guests) REQ->REP took ~60 ms and REP->RTU ~10 ms, almost all of it "
    "outside the wire: the kernel's ib_cm work queue, librdmacm's event channel "
    "(rdma_get_cm_event waking the application), the application's modify_qp and "
    "rdma_accept/rdma_establish calls; the simulator sends each message at once";

}  // namespace

Result<std::string> cmConnectedQp(const Scenario& scenario) {
  Result<std::string> r;
  for (const Step& st : scenario.steps) {
    const auto* x = std::get_if<ExchangeStep>(&st.action);
    if (x == nullptr) continue;
    if (!r.value.empty() && x->qp != r.value) {
      r.status = Status::error(EINVAL, "--cm connects one RC QP per host (RDMA_PS_TCP), but " +
                                           scenario.name + "'s exchange steps name QPs '" +
                                           r.value + "' and '" + x->qp + "': run it without --cm");
      return r;
    }
    r.value = x->qp;
  }
  if (r.value.empty()) {
    r.status = Status::error(EINVAL, "--cm connects the QP of the scenario's exchange steps, and " +
                                         scenario.name + " has none: run it without --cm");
    return r;
  }
  for (const HostSpec& h : scenario.hosts) {
    const QpSpec* q = nullptr;
    for (const QpSpec& c : h.qps)
      if (c.name == r.value) q = &c;
    if (q == nullptr) {
      r.status = Status::error(EINVAL, scenario.name + ": host " + h.name + " has no QP '" +
                                           r.value + "' for --cm to connect");
      return r;
    }
    if (q->type != QpType::RC) {
      r.status = Status::error(
          EINVAL, "--cm connects RC QPs (RDMA_PS_TCP), but " + scenario.name + "'s QP '" + r.value +
                      "' is " + std::string(sim::toString(q->type)) + ": run it without --cm");
      return r;
    }
  }
  // What each host publishes must fit its CM message: host 1's REQ, host 0's REP.
  for (int h = 0; h < 2; ++h) {
    std::size_t n = 0;
    for (const Step& st : scenario.steps)
      if (const auto* x = std::get_if<ExchangeStep>(&st.action); x != nullptr && x->from == h) ++n;
    const std::vector<PeerInfo> published(n);
    auto bytes = encodeCmPrivateData(
        published, h == 1 ? kCmReqPrivateDataMax : kCmRepPrivateDataMax,
        scenario.name + ": " + scenario.hosts[h].name + (h == 1 ? "'s CM REQ" : "'s CM REP"));
    if (!bytes.ok()) {
      r.status = bytes.status;
      return r;
    }
  }
  return r;
}

CmConnectParams cmConnectParams(const Scenario& scenario, int side, const std::string& qp) {
  CmConnectParams p;
  for (const Step& st : scenario.steps) {
    const auto* m = std::get_if<ModifyQpStep>(&st.action);
    if (st.host != side || m == nullptr || m->qp != qp) continue;
    if ((m->mask & sim::attr_mask::kMaxDestRdAtomic) != 0)
      p.responderResources = m->attr.maxDestRdAtomic;
    if ((m->mask & sim::attr_mask::kMaxQpRdAtomic) != 0) p.initiatorDepth = m->attr.maxRdAtomic;
    if ((m->mask & sim::attr_mask::kRetryCnt) != 0) p.retryCount = m->attr.retryCnt;
    if ((m->mask & sim::attr_mask::kRnrRetry) != 0) p.rnrRetry = m->attr.rnrRetry;
  }
  return p;
}

constexpr const char* kNames[] = {"REQ", "MRA", "REJ", "REP", "RTU", "DREQ", "DREP"};

class ScenarioRun::SimCm final : public Connector {
 public:
  const Scenario* scenario = nullptr;
  HostExecutor* hosts[2] = {nullptr, nullptr};
  sim::Network* net = nullptr;
  std::string qp;
  std::uint16_t port = 0;
  std::uint16_t srcPort = 0;
  std::uint32_t commId[2] = {0, 0};
  std::uint64_t tid = 0;
  std::optional<pk::CmMessage> inbox[2];
  std::uint64_t inboxFrame[2] = {0, 0};
  std::vector<PeerInfo> regions[2];  ///< what the other host published, as host i received it
  int published[2] = {0, 0};         ///< exchange steps run, by publishing host
  std::uint32_t announcedPsn[2] = {0, 0};
  bool reqSent = false, repSent = false, rtuSent = false, arrived[2] = {false, false};

  // Sends `m` from host `from` to the other GSI and runs the network until it is there; a lost
  // MAD is sent again after the CM response timeout, as ib_cm does (at most 15 retries).
  Status send(int from, const pk::CmMessage& m, const std::string& why,
              const std::string& onArrival) {
    sim::Simulator& sm = net->sim();
    const int to = 1 - from;
    const sim::SimTime timeout = sim::SimTime::ns(4096LL << kCmResponseTimeout);
    for (int attempt = 0; attempt <= kMaxCmRetries; ++attempt) {
      inbox[to].reset();
      net->host(from).sendGsi(
          pk::cmPacket(m, tid),
          attempt == 0 ? why : why + " (resent: attempt " + std::to_string(attempt + 1) + ")");
      sm.runWhile([&] { return inbox[to].has_value(); }, sm.now() + timeout);
      if (inbox[to]) {
        if (sm.tracing())
          net->host(to).emit(
              sim::TraceKind::Note, 1,
              "GSI (QP 1) got frame " + std::to_string(inboxFrame[to]) + ": " + onArrival);
        return {};
      }
      if (sm.tracing())
        net->host(from).emit(sim::TraceKind::TimerFired, 1,
                             "no answer within the CM response timeout (4.096 us x 2^20 = "
                             "4.3 s): ib_cm sends the MAD again");
    }
    return Status::error(ETIMEDOUT, "the CM " + std::string(kNames[m.index()]) + " from " +
                                        net->host(from).name() +
                                        " was lost 16 times (the link loses what it sends): "
                                        "ib_cm gives up and rdma_cm reports the connection "
                                        "as unreachable");
  }

  Status exchange(HostExecutor& host, const ExchangeStep& a, StepOutcome& out) override;
  std::optional<Status> modifyQp(HostExecutor& host, const ModifyQpStep& a,
                                 StepOutcome& out) override;
  Status needPeer(HostExecutor&) override { return {}; }
  Status beforeStep(HostExecutor&, const Step&) override { return {}; }

 private:
  std::vector<PeerInfo> publishedBy(int host) const;
  void adjust(int host, const ModifyQpStep& a, QpAttr& attr, StepOutcome& out) const;
  Status afterModify(int host, const ModifyQpStep& a);
};

ScenarioRun::~ScenarioRun() = default;

void ScenarioRun::useSimCm(std::uint16_t port) {
  if (setupError_) return;
  auto checked = cmConnectedQp(scenario_);
  if (!checked.ok()) {
    setupError_ = checked.status.message;
    return;
  }
  const std::string& qp = checked.value;
  auto* b0 = dynamic_cast<SimBackend*>(&hosts_[0]->backend());
  auto* b1 = dynamic_cast<SimBackend*>(&hosts_[1]->backend());
  if (b0 == nullptr || b1 == nullptr || &b0->network() != &b1->network()) {
    setupError_ = "the simulated rdma_cm needs both hosts on one simulated network";
    return;
  }
  cm_ = std::make_shared<SimCm>();
  SimCm& c = *cm_;
  c.scenario = &scenario_;
  for (int i = 0; i < 2; ++i) {
    c.hosts[i] = hosts_[i].get();
    hosts_[i]->setConnector(&c);
  }
  c.net = &b0->network();
  c.qp = qp;
  c.port = port;
  auto& rng = c.net->sim().rng();
  // ib_cm's local communication IDs and rdma_cm's ephemeral source port are random per run.
  c.commId[0] = static_cast<std::uint32_t>(rng());
  c.commId[1] = static_cast<std::uint32_t>(rng());
  c.srcPort = static_cast<std::uint16_t>(32768 + rng() % (60999 - 32768 + 1));
  // MAD transaction ID: the sending agent's number (high half) and the active side's
  // communication ID as the CPU stores it; every message of the connection reuses it.
  c.tid = (std::uint64_t{1} << 32) | swap32(c.commId[1]);
  for (int i = 0; i < 2; ++i)
    c.announcedPsn[i] = hosts_[i]->psn(qp);
  // A scenario names the PSNs to lose by each host's own PSN; with the CM a host sends from
  // the other's announced PSN, so the drop moves with it to hit the same packet.
  for (sim::FaultConfig::PsnDrop& d : c.net->faults().dropPsns)
    if (d.fromHost == 0 || d.fromHost == 1)
      d.psn = (d.psn - c.announcedPsn[d.fromHost] + c.announcedPsn[1 - d.fromHost]) & 0xffffff;
  for (int i = 0; i < 2; ++i) {
    c.net->host(i).setGsiHandler(
        [cm = cm_.get(), i](std::span<const std::uint8_t> mad, std::uint64_t frame) {
          if (mad.size() < packets::kMadSize) return;
          const pk::MadHeader h = pk::decodeMadHeader(mad);
          auto m = pk::decodeCmMessage(h.attributeId, mad.subspan(24));
          if (!m) return;
          cm->inbox[i] = std::move(*m);
          cm->inboxFrame[i] = frame;
        });
  }
  if (note_) {
    note_(0, "rdma_cm (simulated): " + scenario_.hosts[0].name + " listens on TCP port " +
                 std::to_string(port) + " (rdma_listen, RDMA_PS_TCP); " + scenario_.hosts[1].name +
                 " resolves its address and route (rdma_resolve_addr/route) and will send the REQ "
                 "for QP '" +
                 qp + "' in place of the out-of-band exchange");
  }
}

namespace {

void applyRegion(const std::vector<PeerInfo>& regions, int index, PeerInfo& peer) {
  if (index < 0 || static_cast<std::size_t>(index) >= regions.size()) return;
  const PeerInfo& p = regions[static_cast<std::size_t>(index)];
  peer.addr = p.addr;
  peer.rkey = p.rkey;
  peer.length = p.length;
}

}  // namespace

// What `host`'s exchange steps publish, in order (as verbs --cm sends it).
std::vector<PeerInfo> ScenarioRun::SimCm::publishedBy(int host) const {
  std::vector<PeerInfo> out;
  for (const Step& st : scenario->steps)
    if (const auto* x = std::get_if<ExchangeStep>(&st.action); x != nullptr && x->from == host) {
      PeerInfo info;
      if (const MemoryRegion* m = x->mr.empty() ? nullptr : hosts[host]->mr(x->mr)) {
        info.addr = m->addr;
        info.rkey = m->rkey;
        info.length = m->length;
      }
      out.push_back(info);
    }
  return out;
}

Status ScenarioRun::SimCm::exchange(HostExecutor& host, const ExchangeStep& a, StepOutcome& out) {
  if (host.side() != a.from) return {};  // the CM messages deliver, not the receiver
  SimCm& c = *this;
  const int from = a.from, to = 1 - a.from;
  ++c.published[from];
  if (c.arrived[to] && hosts[to]->peer())
    applyRegion(c.regions[to], c.published[from] - 1, *hosts[to]->peer());
  out.message = std::string("(rdma_cm) published in the ") + (from == 1 ? "REQ" : "REP") +
                "'s private data; the QPN and PSN travel in the CM message itself";
  if (from != 1 || c.reqSent) return {};

  HostExecutor& h = *hosts[1];
  auto consumer = encodeCmPrivateData(publishedBy(1), kCmReqPrivateDataMax,
                                      scenario->hosts[1].name + "'s CM REQ");
  if (!consumer.ok()) return consumer.status;
  auto dev0 = hosts[0]->backend().queryDevice();
  auto dev1 = h.backend().queryDevice();
  if (!dev0.ok()) return dev0.status;
  if (!dev1.ok()) return dev1.status;
  const CmConnectParams par = cmConnectParams(*scenario, 1, c.qp);
  const bool ib = c.net->config().wire == sim::WireFormat::InfiniBand;

  pk::CmReq req;
  req.localCommId = c.commId[1];
  req.serviceId = (std::uint64_t{kRdmaPsTcp} << 16) | c.port;
  req.localCaGuid = guidFromMac(c.net->host(1).config().mac);
  req.localQpn = h.qp(c.qp)->qpNum;
  req.responderResources = par.responderResources;
  req.initiatorDepth = par.initiatorDepth;
  req.remoteCmResponseTimeout = kCmResponseTimeout;
  req.startingPsn = c.announcedPsn[1];
  req.localCmResponseTimeout = kCmResponseTimeout;
  req.retryCount = par.retryCount;
  req.pathMtu = mtuEnum(c.net->activeMtu());
  req.rnrRetryCount = par.rnrRetry;
  req.maxCmRetries = kMaxCmRetries;
  req.primary.localLid = ib ? dev1.value.lid : 0xffff;
  req.primary.remoteLid = ib ? dev0.value.lid : 0xffff;
  req.primary.localGid = dev1.value.gid;
  req.primary.remoteGid = dev0.value.gid;
  // rdma_cm's RoCE flow label: a hash of its source and destination ports (the lab's REQ has
  // exactly this); packet rate 0, as there.
  req.primary.flowLabel = (std::uint32_t{c.srcPort} * 31 + c.port) & 0xfffff;
  req.primary.hopLimit = 64;
  req.primary.localAckTimeout = kLocalAckTimeout;
  pk::IpCmPrivateData ipData;
  ipData.srcPort = c.srcPort;
  ipData.src = ipOfGid(dev1.value.gid);
  ipData.dst = ipOfGid(dev0.value.gid);
  if (ipData.src.v6 != ipData.dst.v6) ipData.src = pk::IpAddress::fromV6(dev1.value.gid);
  ipData.consumerData = consumer.value;
  req.privateData = pk::encodeIpCmPrivateData(ipData);

  c.reqSent = true;
  const std::string why =
      "CM REQ (rdma_connect) from " + scenario->hosts[1].name + "'s GSI: service ID " +
      hex(req.serviceId, 16) + " (RDMA_PS_TCP, port " + std::to_string(c.port) + "), QPN " +
      hex(req.localQpn, 6) + ", starting PSN " + hex(req.startingPsn, 6) +
      ", responder resources " + std::to_string(req.responderResources) + ", initiator depth " +
      std::to_string(req.initiatorDepth) + ", retry " + std::to_string(req.retryCount) +
      ", RNR retry " + std::to_string(req.rnrRetryCount) + ", path MTU " +
      std::to_string(c.net->activeMtu()) + ", private data: rdma_cm's IP header (source port " +
      std::to_string(c.srcPort) + ") then " + std::to_string(consumer.value.size()) +
      " bytes 'RSC1' (the published regions); " + kRealDelays;
  const std::string arrival = "REQ received: " + scenario->hosts[0].name + " learns QPN " +
                              hex(req.localQpn, 6) + " and PSN " + hex(req.startingPsn, 6) +
                              " (rdma_cm event CONNECT_REQUEST); its QP may now "
                              "go INIT->RTR, after which rdma_accept sends the REP";
  if (Status st = c.send(1, req, why, arrival); !st.ok()) return st;
  const auto& got = std::get<pk::CmReq>(*c.inbox[0]);
  auto ip = pk::decodeIpCmPrivateData(got.privateData);
  if (!ip) return Status::error(EPROTO, "the simulated REQ's RDMA CM private data does not decode");
  auto decoded = decodeCmPrivateData(ip->consumerData);
  if (!decoded.ok()) return decoded.status;
  c.regions[0] = std::move(decoded.value);
  c.arrived[0] = true;
  PeerInfo p0;
  p0.qpn = got.localQpn;
  p0.psn = c.announcedPsn[0];  // Linux's CM: a side's rq_psn is the PSN it announces itself
  p0.gid = got.primary.localGid;
  p0.lid = dev1.value.lid;
  applyRegion(c.regions[0], c.published[1] - 1, p0);
  hosts[0]->peer() = p0;
  return {};
}

void ScenarioRun::SimCm::adjust(int host, const ModifyQpStep& a, QpAttr& attr,
                                StepOutcome& out) const {
  const SimCm& c = *this;
  if (a.qp != c.qp) return;
  // As the lab shows Linux's CM doing it: the passive side sends from the REQ's starting PSN,
  // the active side from the REP's; each side expects from the PSN it announced itself.
  if (a.sqPsnOwn) {
    attr.sqPsn = c.announcedPsn[1 - host];
    out.message = "sq_psn " + hex(attr.sqPsn, 6) + ": the starting PSN of the " +
                  (host == 0 ? "REQ" : "REP") + " (Linux's CM gives each side its send PSN so)";
  }
  if (a.rqPsnFromPeer) {
    attr.rqPsn = c.announcedPsn[host];
    out.message = "rq_psn " + hex(attr.rqPsn, 6) + ": the starting PSN of the " +
                  (host == 0 ? "REP" : "REQ") + ", which this side announced";
  }
}

Status ScenarioRun::SimCm::afterModify(int host, const ModifyQpStep& a) {
  SimCm& c = *this;
  if (a.qp != c.qp) return {};
  const QpState to = a.attr.qpState;
  if (host == 0 && to == QpState::Rtr && !c.repSent) {
    auto consumer = encodeCmPrivateData(publishedBy(0), kCmRepPrivateDataMax,
                                        scenario->hosts[0].name + "'s CM REP");
    if (!consumer.ok()) return consumer.status;
    const CmConnectParams par = cmConnectParams(*scenario, 0, c.qp);
    pk::CmRep rep;
    rep.localCommId = c.commId[0];
    rep.remoteCommId = c.commId[1];
    rep.localQpn = hosts[0]->qp(c.qp)->qpNum;
    rep.startingPsn = c.announcedPsn[0];
    rep.responderResources = par.responderResources;
    rep.initiatorDepth = par.initiatorDepth;
    rep.targetAckDelay = kTargetAckDelay;
    rep.rnrRetryCount = par.rnrRetry;
    rep.localCaGuid = guidFromMac(c.net->host(0).config().mac);
    rep.privateData = consumer.value;
    c.repSent = true;
    const std::string why = "CM REP (rdma_accept) from " + scenario->hosts[0].name +
                            ", whose QP is now RTR: QPN " + hex(rep.localQpn, 6) +
                            ", starting PSN " + hex(rep.startingPsn, 6) + ", target ACK delay " +
                            std::to_string(kTargetAckDelay) +
                            ", private data: " + std::to_string(consumer.value.size()) +
                            " bytes 'RSC1' (the published regions); " + kRealDelays;
    const std::string arrival =
        "REP received: " + scenario->hosts[1].name + " learns QPN " + hex(rep.localQpn, 6) +
        " and PSN " + hex(rep.startingPsn, 6) +
        " (rdma_cm event CONNECT_RESPONSE); its QP may now go INIT->RTR->RTS, after which "
        "rdma_establish sends the RTU";
    if (Status st = c.send(0, rep, why, arrival); !st.ok()) return st;
    const auto& got = std::get<pk::CmRep>(*c.inbox[1]);
    auto decoded = decodeCmPrivateData(got.privateData);
    if (!decoded.ok()) return decoded.status;
    auto dev0 = hosts[0]->backend().queryDevice();
    if (!dev0.ok()) return dev0.status;
    c.regions[1] = std::move(decoded.value);
    c.arrived[1] = true;
    PeerInfo p1;
    p1.qpn = got.localQpn;
    p1.psn = c.announcedPsn[1];
    p1.gid = dev0.value.gid;  // from address resolution: the REP carries no GID
    p1.lid = dev0.value.lid;
    applyRegion(c.regions[1], c.published[0] - 1, p1);
    hosts[1]->peer() = p1;
  }
  if (host == 1 && to == QpState::Rts && !c.rtuSent) {
    pk::CmRtu rtu;
    rtu.localCommId = c.commId[1];
    rtu.remoteCommId = c.commId[0];
    c.rtuSent = true;
    const std::string why = "CM RTU (rdma_establish) from " + scenario->hosts[1].name +
                            ", whose QP is now RTS: the connection is ready to use; " + kRealDelays;
    const std::string arrival =
        "RTU received (rdma_cm event ESTABLISHED): " + scenario->hosts[0].name +
        "'s QP may now go RTR->RTS";
    if (Status st = c.send(1, rtu, why, arrival); !st.ok()) return st;
  }
  return {};
}

std::optional<Status> ScenarioRun::SimCm::modifyQp(HostExecutor& host, const ModifyQpStep& a,
                                                   StepOutcome& out) {
  QpAttr attr = a.attr;
  if (Status st = host.fillFromPeer(a, attr); !st.ok()) return st;
  adjust(host.side(), a, attr, out);
  if (Status st = host.backend().modifyQp(host.qp(a.qp)->handle, attr, a.mask); !st.ok()) return st;
  return afterModify(host.side(), a);
}

Status ScenarioRun::simCmDisconnect() {
  if (!cm_ || !cm_->rtuSent) return {};
  SimCm& c = *cm_;
  pk::CmDreq dreq;
  dreq.localCommId = c.commId[1];
  dreq.remoteCommId = c.commId[0];
  dreq.remoteQpn = hosts_[0]->qp(c.qp)->qpNum;
  const std::string keep =
      "; the QPs keep their state: rdma_cm moves a QP to ERR only when it created it "
      "(rdma_create_qp), and the scenario's QPs are its own";
  if (Status st = c.send(1, dreq,
                         "CM DREQ (rdma_disconnect) from " + scenario_.hosts[1].name +
                             " for remote QPN " + hex(dreq.remoteQpn, 6) + keep,
                         "DREQ received (rdma_cm event DISCONNECTED): the kernel answers with "
                         "the DREP");
      !st.ok())
    return st;
  pk::CmDrep drep;
  drep.localCommId = c.commId[0];
  drep.remoteCommId = c.commId[1];
  return c.send(0, drep, "CM DREP from " + scenario_.hosts[0].name + ": disconnect acknowledged",
                "DREP received (rdma_cm event DISCONNECTED): the connection is closed");
}

}  // namespace rdmascope::verbs_backend
