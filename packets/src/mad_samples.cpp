#include "rdmascope/packets/mad_builder.h"

namespace rdmascope::packets {
namespace {

constexpr std::uint16_t kPort = 18515;
constexpr std::uint32_t kClientQpn = 0x11, kServerQpn = 0x12;
constexpr std::uint32_t kClientCommId = 0x3c1a5e01, kServerCommId = 0x7b22f002;

CmReq request(const IpAddress& client, const IpAddress& server, std::uint32_t commId) {
  CmReq r;
  r.localCommId = commId;
  r.serviceId = rdmaIpServiceId(0x06, kPort);
  r.localCaGuid = 0x5254000102030405ull;
  r.localQpn = kClientQpn;
  r.responderResources = 16;
  r.initiatorDepth = 16;
  r.remoteCmResponseTimeout = 20;
  r.startingPsn = 0x5a3c1f;
  r.localCmResponseTimeout = 20;
  r.retryCount = 7;
  r.pathMtu = 3;
  r.rnrRetryCount = 7;
  r.maxCmRetries = 15;
  r.primary.localLid = 0;
  r.primary.remoteLid = 0;
  r.primary.localGid = gidFromIp(client);
  r.primary.remoteGid = gidFromIp(server);
  r.primary.flowLabel = 0x1a2b3;
  r.primary.packetRate = 3;
  r.primary.hopLimit = 64;
  r.primary.sl = 0;
  r.primary.subnetLocal = true;
  r.primary.localAckTimeout = 18;
  IpCmPrivateData ip;
  ip.srcPort = 40123;
  ip.src = client;
  ip.dst = server;
  ip.consumerData = {'r', 'd', 'm', 'a', 's', 'c', 'o', 'p', 'e'};
  r.privateData = encodeIpCmPrivateData(ip);
  return r;
}

RoceAddressing reversed(RoceAddressing a) {
  std::swap(a.srcMac, a.dstMac);
  std::swap(a.srcIp, a.dstIp);
  return a;
}

}  // namespace

std::vector<SampleFrame> sampleCmFrames() {
  std::vector<SampleFrame> out;
  RoceAddressing toServer;
  const RoceAddressing toClient = reversed(toServer);
  const auto add = [&](const RoceAddressing& a, const CmMessage& m, std::uint64_t tid,
                       std::uint32_t psn, const char* what) {
    out.push_back({LinkType::Ethernet, buildRoceV2(a, cmPacket(m, tid, psn)),
                   std::string("RoCEv2/IPv4 CM ") + what});
  };
  const std::uint64_t tid = 0x00000000a1b2c3d4ull, tid2 = 0x00000000a1b2c3d5ull;
  add(toServer, request(toServer.srcIp, toServer.dstIp, kClientCommId), tid, 0x100, "REQ");
  add(toClient, CmMra{kServerCommId, kClientCommId, 0, 21, {}}, tid, 0x200, "MRA");
  CmRep rep;
  rep.localCommId = kServerCommId;
  rep.remoteCommId = kClientCommId;
  rep.localQpn = kServerQpn;
  rep.startingPsn = 0x2d4e6f;
  rep.responderResources = 16;
  rep.initiatorDepth = 16;
  rep.targetAckDelay = 15;
  rep.failoverAccepted = 3;
  rep.rnrRetryCount = 7;
  rep.localCaGuid = 0x5254000102030406ull;
  add(toClient, rep, tid, 0x201, "REP");
  add(toServer, CmRtu{kClientCommId, kServerCommId, {}}, tid, 0x101, "RTU");
  add(toServer, CmDreq{kClientCommId, kServerCommId, kServerQpn, {}}, tid + 2, 0x102, "DREQ");
  add(toClient, CmDrep{kServerCommId, kClientCommId, {}}, tid + 2, 0x202, "DREP");
  add(toServer, request(toServer.srcIp, toServer.dstIp, kClientCommId + 1), tid2, 0x103,
      "REQ (to be rejected)");
  CmRej rej{kServerCommId + 1, kClientCommId + 1, 0, 0, 28, {}, {'n', 'o'}};
  add(toClient, rej, tid2, 0x203, "REJ");

  RoceAddressing v6;
  v6.srcIp = *IpAddress::parse("fd00::1");
  v6.dstIp = *IpAddress::parse("fd00::2");
  out.push_back({LinkType::Ethernet,
                 buildRoceV2(v6, cmPacket(request(v6.srcIp, v6.dstIp, kClientCommId), tid, 0x300)),
                 "RoCEv2/IPv6 CM REQ"});

  RoceV1Addressing v1;
  v1.grh.sgid = IpAddress::parse("fe80::1")->bytes;
  v1.grh.dgid = IpAddress::parse("fe80::2")->bytes;
  out.push_back({LinkType::Ethernet,
                 buildRoceV1(v1, cmPacket(request(IpAddress::fromV6(v1.grh.sgid),
                                                  IpAddress::fromV6(v1.grh.dgid), kClientCommId),
                                          tid, 0x400)),
                 "RoCEv1 CM REQ"});

  NativeIbAddressing ib;
  ib.lrh.slid = 1;
  ib.lrh.dlid = 2;
  CmReq native = request(IpAddress::fromV6(Gid{}), IpAddress::fromV6(Gid{}), kClientCommId);
  native.serviceId = 0x0000000000001234ull;  // a plain IB service ID, no IP private data
  native.primary.localLid = 1;
  native.primary.remoteLid = 2;
  native.primary.subnetLocal = true;
  native.privateData = {1, 2, 3};
  out.push_back({LinkType::Erf, wrapErfInfiniband(buildNativeIb(ib, cmPacket(native, tid, 0x500))),
                 "native IB local CM REQ"});
  return out;
}

}  // namespace rdmascope::packets
