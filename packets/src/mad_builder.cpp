#include "rdmascope/packets/mad_builder.h"

#include <algorithm>
#include <cstring>

namespace rdmascope::packets {
namespace {

// Fields of one table written into (or read from) one message, by key.
struct Writer {
  const HeaderDef& h;
  std::span<std::uint8_t> msg;

  void put(std::string_view key, std::uint64_t value) const {
    if (const FieldDef* f = findField(h, key)) writeField(*f, msg, value);
  }
  void putBytes(std::string_view key, std::span<const std::uint8_t> bytes) const {
    const FieldDef* f = findField(h, key);
    if (!f) return;
    const std::size_t n = std::min<std::size_t>(bytes.size(), f->bitWidth / 8);
    std::copy_n(bytes.begin(), n, msg.begin() + f->bitOffset / 8);
  }
};

struct Reader {
  const HeaderDef& h;
  std::span<const std::uint8_t> msg;

  std::uint64_t get(std::string_view key) const {
    const FieldDef* f = findField(h, key);
    return f ? readField(*f, msg) : 0;
  }
  std::vector<std::uint8_t> bytes(std::string_view key) const {
    const FieldDef* f = findField(h, key);
    if (!f) return {};
    const auto from = msg.begin() + f->bitOffset / 8;
    return {from, from + f->bitWidth / 8};
  }
  Gid gid(std::string_view key) const {
    Gid g{};
    const auto b = bytes(key);
    std::copy_n(b.begin(), std::min(b.size(), g.size()), g.begin());
    return g;
  }
};

// A REQ path's fields share their keys' tail: "prim_" or "alt_".
struct PathKeys {
  std::string_view locallid, remotelid, localgid, remotegid, flowlabel, pktrate, tfcclass, hoplim,
      sl, subnetlocal, localacktout;
};
constexpr PathKeys kPrimary{
    "infiniband.cm.req.prim_locallid",    "infiniband.cm.req.prim_remotelid",
    "infiniband.cm.req.prim_localgid",    "infiniband.cm.req.prim_remotegid",
    "infiniband.cm.req.prim_flowlabel",   "infiniband.cm.req.prim_pktrate",
    "infiniband.cm.req.prim_tfcclass",    "infiniband.cm.req.prim_hoplim",
    "infiniband.cm.req.prim_sl",          "infiniband.cm.req.prim_subnetlocal",
    "infiniband.cm.req.prim_localacktout"};
constexpr PathKeys kAlternate{
    "infiniband.cm.req.alt_locallid",    "infiniband.cm.req.alt_remotelid",
    "infiniband.cm.req.alt_localgid",    "infiniband.cm.req.alt_remotegid",
    "infiniband.cm.req.alt_flowlabel",   "infiniband.cm.req.alt_pktrate",
    "infiniband.cm.req.alt_tfcclass",    "infiniband.cm.req.alt_hoplim",
    "infiniband.cm.req.alt_sl",          "infiniband.cm.req.alt_subnetlocal",
    "infiniband.cm.req.alt_localacktout"};

void putPath(const Writer& w, const PathKeys& k, const CmPath& p) {
  w.put(k.locallid, p.localLid);
  w.put(k.remotelid, p.remoteLid);
  w.putBytes(k.localgid, p.localGid);
  w.putBytes(k.remotegid, p.remoteGid);
  w.put(k.flowlabel, p.flowLabel);
  w.put(k.pktrate, p.packetRate);
  w.put(k.tfcclass, p.trafficClass);
  w.put(k.hoplim, p.hopLimit);
  w.put(k.sl, p.sl);
  w.put(k.subnetlocal, p.subnetLocal);
  w.put(k.localacktout, p.localAckTimeout);
}

CmPath getPath(const Reader& r, const PathKeys& k) {
  CmPath p;
  p.localLid = static_cast<std::uint16_t>(r.get(k.locallid));
  p.remoteLid = static_cast<std::uint16_t>(r.get(k.remotelid));
  p.localGid = r.gid(k.localgid);
  p.remoteGid = r.gid(k.remotegid);
  p.flowLabel = static_cast<std::uint32_t>(r.get(k.flowlabel));
  p.packetRate = static_cast<std::uint8_t>(r.get(k.pktrate));
  p.trafficClass = static_cast<std::uint8_t>(r.get(k.tfcclass));
  p.hopLimit = static_cast<std::uint8_t>(r.get(k.hoplim));
  p.sl = static_cast<std::uint8_t>(r.get(k.sl));
  p.subnetLocal = r.get(k.subnetlocal) != 0;
  p.localAckTimeout = static_cast<std::uint8_t>(r.get(k.localacktout));
  return p;
}

template <typename T>
T narrow(std::uint64_t v) {
  return static_cast<T>(v);
}

void encode(const Writer& w, const CmReq& m) {
  w.put("infiniband.cm.req", m.localCommId);
  w.put("infiniband.cm.req.serviceid", m.serviceId);
  w.put("infiniband.cm.req.localcaguid", m.localCaGuid);
  w.put("infiniband.cm.req.localqkey", m.localQkey);
  w.put("infiniband.cm.req.localqpn", m.localQpn);
  w.put("infiniband.cm.req.responderres", m.responderResources);
  w.put("infiniband.cm.req.localeecn", m.localEecn);
  w.put("infiniband.cm.req.initdepth", m.initiatorDepth);
  w.put("infiniband.cm.req.remoteeecn", m.remoteEecn);
  w.put("infiniband.cm.req.remoteresptout", m.remoteCmResponseTimeout);
  w.put("infiniband.cm.req.transpsvctype", m.transportServiceType);
  w.put("infiniband.cm.req.e2eflowctrl", m.endToEndFlowControl);
  w.put("infiniband.cm.req.startpsn", m.startingPsn);
  w.put("infiniband.cm.req.localresptout", m.localCmResponseTimeout);
  w.put("infiniband.cm.req.retrcount", m.retryCount);
  w.put("infiniband.cm.req.pkey", m.pkey);
  w.put("infiniband.cm.req.pppmtu", m.pathMtu);
  w.put("infiniband.cm.req.rdcexist", m.rdcExists);
  w.put("infiniband.cm.req.rnrretrcount", m.rnrRetryCount);
  w.put("infiniband.cm.req.maxcmretr", m.maxCmRetries);
  w.put("infiniband.cm.req.srq", m.srq);
  w.put("infiniband.cm.req.ext_transport", m.extendedTransport);
  putPath(w, kPrimary, m.primary);
  putPath(w, kAlternate, m.alternate);
  const std::size_t n = std::min(m.privateData.size(), kCmReqPrivateSize);
  std::copy_n(m.privateData.begin(), n, w.msg.begin() + kCmReqPrivateOffset);
}

CmReq decodeReq(const Reader& r) {
  CmReq m;
  m.localCommId = narrow<std::uint32_t>(r.get("infiniband.cm.req"));
  m.serviceId = r.get("infiniband.cm.req.serviceid");
  m.localCaGuid = r.get("infiniband.cm.req.localcaguid");
  m.localQkey = narrow<std::uint32_t>(r.get("infiniband.cm.req.localqkey"));
  m.localQpn = narrow<std::uint32_t>(r.get("infiniband.cm.req.localqpn"));
  m.responderResources = narrow<std::uint8_t>(r.get("infiniband.cm.req.responderres"));
  m.localEecn = narrow<std::uint32_t>(r.get("infiniband.cm.req.localeecn"));
  m.initiatorDepth = narrow<std::uint8_t>(r.get("infiniband.cm.req.initdepth"));
  m.remoteEecn = narrow<std::uint32_t>(r.get("infiniband.cm.req.remoteeecn"));
  m.remoteCmResponseTimeout = narrow<std::uint8_t>(r.get("infiniband.cm.req.remoteresptout"));
  m.transportServiceType = narrow<std::uint8_t>(r.get("infiniband.cm.req.transpsvctype"));
  m.endToEndFlowControl = r.get("infiniband.cm.req.e2eflowctrl") != 0;
  m.startingPsn = narrow<std::uint32_t>(r.get("infiniband.cm.req.startpsn"));
  m.localCmResponseTimeout = narrow<std::uint8_t>(r.get("infiniband.cm.req.localresptout"));
  m.retryCount = narrow<std::uint8_t>(r.get("infiniband.cm.req.retrcount"));
  m.pkey = narrow<std::uint16_t>(r.get("infiniband.cm.req.pkey"));
  m.pathMtu = narrow<std::uint8_t>(r.get("infiniband.cm.req.pppmtu"));
  m.rdcExists = r.get("infiniband.cm.req.rdcexist") != 0;
  m.rnrRetryCount = narrow<std::uint8_t>(r.get("infiniband.cm.req.rnrretrcount"));
  m.maxCmRetries = narrow<std::uint8_t>(r.get("infiniband.cm.req.maxcmretr"));
  m.srq = r.get("infiniband.cm.req.srq") != 0;
  m.extendedTransport = narrow<std::uint8_t>(r.get("infiniband.cm.req.ext_transport"));
  m.primary = getPath(r, kPrimary);
  m.alternate = getPath(r, kAlternate);
  const auto from = r.msg.begin() + kCmReqPrivateOffset;
  m.privateData.assign(from, from + kCmReqPrivateSize);
  return m;
}

void encode(const Writer& w, const CmMra& m) {
  w.put("infiniband.cm.mra.localcommid", m.localCommId);
  w.put("infiniband.cm.mra.remotecommid", m.remoteCommId);
  w.put("infiniband.cm.mra.msgmraed", m.messageMraed);
  w.put("infiniband.cm.mra.svctimeout", m.serviceTimeout);
  w.putBytes("infiniband.cm.mra.private", m.privateData);
}

void encode(const Writer& w, const CmRej& m) {
  w.put("infiniband.cm.rej.localcommid", m.localCommId);
  w.put("infiniband.cm.rej.remotecommid", m.remoteCommId);
  w.put("infiniband.cm.rej.msgrej", m.messageRejected);
  w.put("infiniband.cm.rej.rejinfolen", m.rejectInfoLength);
  w.put("infiniband.cm.rej.reason", m.reason);
  w.putBytes("infiniband.cm.rej.ari", m.ari);
  w.putBytes("infiniband.cm.rej.private", m.privateData);
}

void encode(const Writer& w, const CmRep& m) {
  w.put("infiniband.cm.rep", m.localCommId);
  w.put("infiniband.cm.rep.remotecommid", m.remoteCommId);
  w.put("infiniband.cm.rep.localqkey", m.localQkey);
  w.put("infiniband.cm.rep.localqpn", m.localQpn);
  w.put("infiniband.cm.rep.localeecn", m.localEecn);
  w.put("infiniband.cm.rep.startpsn", m.startingPsn);
  w.put("infiniband.cm.rep.respres", m.responderResources);
  w.put("infiniband.cm.rep.initdepth", m.initiatorDepth);
  w.put("infiniband.cm.rep.tgtackdelay", m.targetAckDelay);
  w.put("infiniband.cm.rep.failoveracc", m.failoverAccepted);
  w.put("infiniband.cm.rep.e2eflowctrl", m.endToEndFlowControl);
  w.put("infiniband.cm.rep.rnrretrcount", m.rnrRetryCount);
  w.put("infiniband.cm.rep.srq", m.srq);
  w.put("infiniband.cm.rep.localcaguid", m.localCaGuid);
  w.putBytes("infiniband.cm.rep.private", m.privateData);
}

void encode(const Writer& w, const CmRtu& m) {
  w.put("infiniband.cm.rtu.localcommid", m.localCommId);
  w.put("infiniband.cm.rtu.remotecommid", m.remoteCommId);
  w.putBytes("infiniband.cm.rtu.private", m.privateData);
}

void encode(const Writer& w, const CmDreq& m) {
  w.put("infiniband.cm.dreq.localcommid", m.localCommId);
  w.put("infiniband.cm.dreq.remotecommid", m.remoteCommId);
  w.put("infiniband.cm.req.remoteqpneecn", m.remoteQpn);
  w.putBytes("infiniband.cm.dreq.private", m.privateData);
}

void encode(const Writer& w, const CmDrep& m) {
  w.put("infiniband.cm.drsp.localcommid", m.localCommId);
  w.put("infiniband.cm.drsp.remotecommid", m.remoteCommId);
  w.putBytes("infiniband.cm.drsp.private", m.privateData);
}

}  // namespace

Gid gidFromIp(const IpAddress& ip) {
  if (ip.v6) return ip.bytes;
  Gid g{};
  g[10] = 0xff;
  g[11] = 0xff;
  std::copy_n(ip.bytes.begin(), 4, g.begin() + 12);
  return g;
}

CmAttribute cmAttributeOf(const CmMessage& message) {
  static constexpr CmAttribute kByIndex[] = {
      CmAttribute::ConnectRequest, CmAttribute::MsgRcptAck, CmAttribute::ConnectReject,
      CmAttribute::ConnectReply,   CmAttribute::ReadyToUse, CmAttribute::DisconnectRequest,
      CmAttribute::DisconnectReply};
  return kByIndex[message.index()];
}

std::array<std::uint8_t, kMadDataSize> encodeCmMessage(const CmMessage& message) {
  std::array<std::uint8_t, kMadDataSize> out{};
  const HeaderDef& h = *cmMessageHeader(static_cast<std::uint16_t>(cmAttributeOf(message)));
  const Writer w{h, out};
  std::visit([&](const auto& m) { encode(w, m); }, message);
  return out;
}

std::optional<CmMessage> decodeCmMessage(std::uint16_t attributeId,
                                         std::span<const std::uint8_t> data) {
  const HeaderDef* h = cmMessageHeader(attributeId);
  if (!h || data.size() < kMadDataSize) return std::nullopt;
  const Reader r{*h, data.first(kMadDataSize)};
  switch (static_cast<CmAttribute>(attributeId)) {
    case CmAttribute::ConnectRequest:
      return decodeReq(r);
    case CmAttribute::MsgRcptAck:
      return CmMra{narrow<std::uint32_t>(r.get("infiniband.cm.mra.localcommid")),
                   narrow<std::uint32_t>(r.get("infiniband.cm.mra.remotecommid")),
                   narrow<std::uint8_t>(r.get("infiniband.cm.mra.msgmraed")),
                   narrow<std::uint8_t>(r.get("infiniband.cm.mra.svctimeout")),
                   r.bytes("infiniband.cm.mra.private")};
    case CmAttribute::ConnectReject:
      return CmRej{narrow<std::uint32_t>(r.get("infiniband.cm.rej.localcommid")),
                   narrow<std::uint32_t>(r.get("infiniband.cm.rej.remotecommid")),
                   narrow<std::uint8_t>(r.get("infiniband.cm.rej.msgrej")),
                   narrow<std::uint8_t>(r.get("infiniband.cm.rej.rejinfolen")),
                   narrow<std::uint16_t>(r.get("infiniband.cm.rej.reason")),
                   r.bytes("infiniband.cm.rej.ari"),
                   r.bytes("infiniband.cm.rej.private")};
    case CmAttribute::ConnectReply: {
      CmRep m;
      m.localCommId = narrow<std::uint32_t>(r.get("infiniband.cm.rep"));
      m.remoteCommId = narrow<std::uint32_t>(r.get("infiniband.cm.rep.remotecommid"));
      m.localQkey = narrow<std::uint32_t>(r.get("infiniband.cm.rep.localqkey"));
      m.localQpn = narrow<std::uint32_t>(r.get("infiniband.cm.rep.localqpn"));
      m.localEecn = narrow<std::uint32_t>(r.get("infiniband.cm.rep.localeecn"));
      m.startingPsn = narrow<std::uint32_t>(r.get("infiniband.cm.rep.startpsn"));
      m.responderResources = narrow<std::uint8_t>(r.get("infiniband.cm.rep.respres"));
      m.initiatorDepth = narrow<std::uint8_t>(r.get("infiniband.cm.rep.initdepth"));
      m.targetAckDelay = narrow<std::uint8_t>(r.get("infiniband.cm.rep.tgtackdelay"));
      m.failoverAccepted = narrow<std::uint8_t>(r.get("infiniband.cm.rep.failoveracc"));
      m.endToEndFlowControl = r.get("infiniband.cm.rep.e2eflowctrl") != 0;
      m.rnrRetryCount = narrow<std::uint8_t>(r.get("infiniband.cm.rep.rnrretrcount"));
      m.srq = r.get("infiniband.cm.rep.srq") != 0;
      m.localCaGuid = r.get("infiniband.cm.rep.localcaguid");
      m.privateData = r.bytes("infiniband.cm.rep.private");
      return m;
    }
    case CmAttribute::ReadyToUse:
      return CmRtu{narrow<std::uint32_t>(r.get("infiniband.cm.rtu.localcommid")),
                   narrow<std::uint32_t>(r.get("infiniband.cm.rtu.remotecommid")),
                   r.bytes("infiniband.cm.rtu.private")};
    case CmAttribute::DisconnectRequest:
      return CmDreq{narrow<std::uint32_t>(r.get("infiniband.cm.dreq.localcommid")),
                    narrow<std::uint32_t>(r.get("infiniband.cm.dreq.remotecommid")),
                    narrow<std::uint32_t>(r.get("infiniband.cm.req.remoteqpneecn")),
                    r.bytes("infiniband.cm.dreq.private")};
    case CmAttribute::DisconnectReply:
      return CmDrep{narrow<std::uint32_t>(r.get("infiniband.cm.drsp.localcommid")),
                    narrow<std::uint32_t>(r.get("infiniband.cm.drsp.remotecommid")),
                    r.bytes("infiniband.cm.drsp.private")};
    default:
      break;
  }
  return std::nullopt;
}

void encodeMadHeader(const MadHeader& h, std::span<std::uint8_t> out) {
  const Writer w{kMadHeader, out};
  w.put("infiniband.mad.baseversion", h.baseVersion);
  w.put("infiniband.mad.mgmtclass", h.mgmtClass);
  w.put("infiniband.mad.classversion", h.classVersion);
  w.put("infiniband.mad.method", h.method);
  w.put("infiniband.mad.status", h.status);
  w.put("infiniband.mad.classspecific", h.classSpecific);
  w.put("infiniband.mad.transactionid", h.transactionId);
  w.put("infiniband.mad.attributeid", h.attributeId);
  w.put("infiniband.mad.attributemodifier", h.attributeModifier);
}

MadHeader decodeMadHeader(std::span<const std::uint8_t> in) {
  const Reader r{kMadHeader, in};
  MadHeader h;
  h.baseVersion = narrow<std::uint8_t>(r.get("infiniband.mad.baseversion"));
  h.mgmtClass = narrow<std::uint8_t>(r.get("infiniband.mad.mgmtclass"));
  h.classVersion = narrow<std::uint8_t>(r.get("infiniband.mad.classversion"));
  h.method = narrow<std::uint8_t>(r.get("infiniband.mad.method"));
  h.status = narrow<std::uint16_t>(r.get("infiniband.mad.status"));
  h.classSpecific = narrow<std::uint16_t>(r.get("infiniband.mad.classspecific"));
  h.transactionId = r.get("infiniband.mad.transactionid");
  h.attributeId = narrow<std::uint16_t>(r.get("infiniband.mad.attributeid"));
  h.attributeModifier = narrow<std::uint32_t>(r.get("infiniband.mad.attributemodifier"));
  return h;
}

std::array<std::uint8_t, kMadSize> encodeMad(const MadHeader& header,
                                             std::span<const std::uint8_t> data) {
  std::array<std::uint8_t, kMadSize> out{};
  encodeMadHeader(header, out);
  std::copy_n(data.begin(), std::min(data.size(), kMadDataSize), out.begin() + kMadHeaderSize);
  return out;
}

std::vector<std::uint8_t> encodeIpCmPrivateData(const IpCmPrivateData& p) {
  std::vector<std::uint8_t> out(kCmReqPrivateSize, 0);
  out[0] = static_cast<std::uint8_t>((p.majorVersion << 4) | (p.minorVersion & 15));
  out[1] = static_cast<std::uint8_t>((p.src.v6 ? 6 : 4) << 4);
  out[2] = static_cast<std::uint8_t>(p.srcPort >> 8);
  out[3] = static_cast<std::uint8_t>(p.srcPort);
  const auto place = [&](const IpAddress& a, std::size_t at) {
    if (a.v6)
      std::copy_n(a.bytes.begin(), 16, out.begin() + static_cast<std::ptrdiff_t>(at));
    else
      std::copy_n(a.bytes.begin(), 4, out.begin() + static_cast<std::ptrdiff_t>(at + 12));
  };
  place(p.src, 4);
  place(p.dst, 20);
  std::copy_n(p.consumerData.begin(), std::min<std::size_t>(p.consumerData.size(), 56),
              out.begin() + 36);
  return out;
}

std::optional<IpCmPrivateData> decodeIpCmPrivateData(std::span<const std::uint8_t> in) {
  if (in.size() < 36) return std::nullopt;
  const unsigned version = in[1] >> 4;
  if (version != 4 && version != 6) return std::nullopt;
  IpCmPrivateData p;
  p.majorVersion = static_cast<std::uint8_t>(in[0] >> 4);
  p.minorVersion = static_cast<std::uint8_t>(in[0] & 15);
  p.srcPort = static_cast<std::uint16_t>((in[2] << 8) | in[3]);
  const auto take = [&](std::size_t at) {
    IpAddress a;
    a.v6 = version == 6;
    if (a.v6)
      std::copy_n(in.begin() + static_cast<std::ptrdiff_t>(at), 16, a.bytes.begin());
    else
      std::copy_n(in.begin() + static_cast<std::ptrdiff_t>(at + 12), 4, a.bytes.begin());
    return a;
  };
  p.src = take(4);
  p.dst = take(20);
  p.consumerData.assign(in.begin() + 36, in.end());
  return p;
}

IbPacket cmPacket(const CmMessage& message, std::uint64_t transactionId, std::uint32_t psn,
                  std::uint16_t pkey) {
  MadHeader h;
  h.transactionId = transactionId;
  h.attributeId = static_cast<std::uint16_t>(cmAttributeOf(message));
  const auto data = encodeCmMessage(message);
  const auto mad = encodeMad(h, data);
  IbPacket p;
  p.bth.opcode = static_cast<std::uint8_t>(IbOpcode::UdSendOnly);
  p.bth.pkey = pkey;
  p.bth.destQp = 1;
  p.bth.psn = psn & 0xffffff;
  p.deth = Deth{kGsiQkey, 1};
  p.payload.assign(mad.begin(), mad.end());
  return p;
}

}  // namespace rdmascope::packets
