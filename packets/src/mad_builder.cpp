#include "rdmascope/packets/mad_builder.h"

#include <algorithm>
#include <concepts>
#include <string>
#include <type_traits>

namespace rdmascope::packets {
namespace {

// Each message's members bound once to the keys of its table: `f(key, member)` for every
// field, with M const when encoding and mutable when decoding.
template <typename M, typename T>
concept MessageOf = std::same_as<std::remove_const_t<M>, T>;

// A REQ path's fields: the same names under "prim_" and "alt_".
template <typename P, typename F>
requires MessageOf<P, CmPath>
void bindPath(P& p, bool primary, F&& f) {
  const std::string_view k = primary ? "infiniband.cm.req.prim_" : "infiniband.cm.req.alt_";
  const auto key = [&](std::string_view tail) { return std::string(k) + std::string(tail); };
  f(key("locallid"), p.localLid);
  f(key("remotelid"), p.remoteLid);
  f(key("localgid"), p.localGid);
  f(key("remotegid"), p.remoteGid);
  f(key("flowlabel"), p.flowLabel);
  f(key("pktrate"), p.packetRate);
  f(key("tfcclass"), p.trafficClass);
  f(key("hoplim"), p.hopLimit);
  f(key("sl"), p.sl);
  f(key("subnetlocal"), p.subnetLocal);
  f(key("localacktout"), p.localAckTimeout);
}

template <typename M, typename F>
requires MessageOf<M, CmReq>
void bind(M& m, F&& f) {
  f("infiniband.cm.req", m.localCommId);
  f("infiniband.cm.req.serviceid", m.serviceId);
  f("infiniband.cm.req.localcaguid", m.localCaGuid);
  f("infiniband.cm.req.localqkey", m.localQkey);
  f("infiniband.cm.req.localqpn", m.localQpn);
  f("infiniband.cm.req.responderres", m.responderResources);
  f("infiniband.cm.req.localeecn", m.localEecn);
  f("infiniband.cm.req.initdepth", m.initiatorDepth);
  f("infiniband.cm.req.remoteeecn", m.remoteEecn);
  f("infiniband.cm.req.remoteresptout", m.remoteCmResponseTimeout);
  f("infiniband.cm.req.transpsvctype", m.transportServiceType);
  f("infiniband.cm.req.e2eflowctrl", m.endToEndFlowControl);
  f("infiniband.cm.req.startpsn", m.startingPsn);
  f("infiniband.cm.req.localresptout", m.localCmResponseTimeout);
  f("infiniband.cm.req.retrcount", m.retryCount);
  f("infiniband.cm.req.pkey", m.pkey);
  f("infiniband.cm.req.pppmtu", m.pathMtu);
  f("infiniband.cm.req.rdcexist", m.rdcExists);
  f("infiniband.cm.req.rnrretrcount", m.rnrRetryCount);
  f("infiniband.cm.req.maxcmretr", m.maxCmRetries);
  f("infiniband.cm.req.srq", m.srq);
  f("infiniband.cm.req.ext_transport", m.extendedTransport);
  bindPath(m.primary, true, f);
  bindPath(m.alternate, false, f);
  f(kCmReqPrivateData, m.privateData);
}

template <typename M, typename F>
requires MessageOf<M, CmMra>
void bind(M& m, F&& f) {
  f("infiniband.cm.mra.localcommid", m.localCommId);
  f("infiniband.cm.mra.remotecommid", m.remoteCommId);
  f("infiniband.cm.mra.msgmraed", m.messageMraed);
  f("infiniband.cm.mra.svctimeout", m.serviceTimeout);
  f("infiniband.cm.mra.private", m.privateData);
}

template <typename M, typename F>
requires MessageOf<M, CmRej>
void bind(M& m, F&& f) {
  f("infiniband.cm.rej.localcommid", m.localCommId);
  f("infiniband.cm.rej.remotecommid", m.remoteCommId);
  f("infiniband.cm.rej.msgrej", m.messageRejected);
  f("infiniband.cm.rej.rejinfolen", m.rejectInfoLength);
  f("infiniband.cm.rej.reason", m.reason);
  f("infiniband.cm.rej.ari", m.ari);
  f("infiniband.cm.rej.private", m.privateData);
}

template <typename M, typename F>
requires MessageOf<M, CmRep>
void bind(M& m, F&& f) {
  f("infiniband.cm.rep", m.localCommId);
  f("infiniband.cm.rep.remotecommid", m.remoteCommId);
  f("infiniband.cm.rep.localqkey", m.localQkey);
  f("infiniband.cm.rep.localqpn", m.localQpn);
  f("infiniband.cm.rep.localeecn", m.localEecn);
  f("infiniband.cm.rep.startpsn", m.startingPsn);
  f("infiniband.cm.rep.respres", m.responderResources);
  f("infiniband.cm.rep.initdepth", m.initiatorDepth);
  f("infiniband.cm.rep.tgtackdelay", m.targetAckDelay);
  f("infiniband.cm.rep.failoveracc", m.failoverAccepted);
  f("infiniband.cm.rep.e2eflowctrl", m.endToEndFlowControl);
  f("infiniband.cm.rep.rnrretrcount", m.rnrRetryCount);
  f("infiniband.cm.rep.srq", m.srq);
  f("infiniband.cm.rep.localcaguid", m.localCaGuid);
  f("infiniband.cm.rep.private", m.privateData);
}

template <typename M, typename F>
requires MessageOf<M, CmRtu>
void bind(M& m, F&& f) {
  f("infiniband.cm.rtu.localcommid", m.localCommId);
  f("infiniband.cm.rtu.remotecommid", m.remoteCommId);
  f("infiniband.cm.rtu.private", m.privateData);
}

template <typename M, typename F>
requires MessageOf<M, CmDreq>
void bind(M& m, F&& f) {
  f("infiniband.cm.dreq.localcommid", m.localCommId);
  f("infiniband.cm.dreq.remotecommid", m.remoteCommId);
  f("infiniband.cm.req.remoteqpneecn", m.remoteQpn);
  f("infiniband.cm.dreq.private", m.privateData);
}

template <typename M, typename F>
requires MessageOf<M, CmDrep>
void bind(M& m, F&& f) {
  f("infiniband.cm.drsp.localcommid", m.localCommId);
  f("infiniband.cm.drsp.remotecommid", m.remoteCommId);
  f("infiniband.cm.drsp.private", m.privateData);
}

template <typename M, typename F>
requires MessageOf<M, CmSidrReq>
void bind(M& m, F&& f) {
  f("infiniband.cm.sidr_req.requestid", m.requestId);
  f("infiniband.cm.sidr_req.pkey", m.pkey);
  f("infiniband.cm.sidr_req.serviceid", m.serviceId);
  f("infiniband.cm.sidr_req.private", m.privateData);
}

template <typename M, typename F>
requires MessageOf<M, CmSidrRep>
void bind(M& m, F&& f) {
  f("infiniband.cm.sidr_rep.requestid", m.requestId);
  f("infiniband.cm.sidr_rep.status", m.status);
  f("infiniband.cm.sidr_rep.addinfolen", m.additionalInfoLength);
  f("infiniband.cm.sidr_rep.qpn", m.qpn);
  f("infiniband.cm.sidr_rep.serviceid", m.serviceId);
  f("infiniband.cm.sidr_rep.qkey", m.qkey);
  f("infiniband.cm.sidr_rep.addinfo", m.additionalInfo);
  f("infiniband.cm.sidr_rep.private", m.privateData);
}

template <typename M, typename F>
requires MessageOf<M, MadHeader>
void bind(M& m, F&& f) {
  f("infiniband.mad.baseversion", m.baseVersion);
  f("infiniband.mad.mgmtclass", m.mgmtClass);
  f("infiniband.mad.classversion", m.classVersion);
  f("infiniband.mad.method", m.method);
  f("infiniband.mad.status", m.status);
  f("infiniband.mad.classspecific", m.classSpecific);
  f("infiniband.mad.transactionid", m.transactionId);
  f("infiniband.mad.attributeid", m.attributeId);
  f("infiniband.mad.attributemodifier", m.attributeModifier);
}

// The table entry of a key (the REQ's private data has its own FieldDef outside the table).
const FieldDef* fieldOf(const HeaderDef& h, std::string_view key) {
  return findField(h, key);
}
const FieldDef* fieldOf(const HeaderDef&, const FieldDef& field) {
  return &field;
}

// Writes a message's members into its bytes: integers through writeField, byte strings
// (private data, GIDs) copied and cut to the field.
template <typename M>
void encodeInto(const HeaderDef& h, std::span<std::uint8_t> out, const M& m) {
  bind(m, [&](const auto& key, const auto& member) {
    const FieldDef* f = fieldOf(h, key);
    if (!f) return;
    using T = std::remove_cvref_t<decltype(member)>;
    if constexpr (std::is_integral_v<T>) {
      writeField(*f, out, static_cast<std::uint64_t>(member));
    } else {
      const std::size_t n = std::min<std::size_t>(member.size(), f->bitWidth / 8);
      std::copy_n(member.begin(), n, out.begin() + f->bitOffset / 8);
    }
  });
}

// Reads a message's members back; byte strings come back at their field's full length.
template <typename M>
M decodeFrom(const HeaderDef& h, std::span<const std::uint8_t> in) {
  M m{};
  bind(m, [&](const auto& key, auto& member) {
    const FieldDef* f = fieldOf(h, key);
    if (!f) return;
    using T = std::remove_cvref_t<decltype(member)>;
    if constexpr (std::is_same_v<T, bool>) {
      member = readField(*f, in) != 0;
    } else if constexpr (std::is_integral_v<T>) {
      member = static_cast<T>(readField(*f, in));
    } else {
      const auto from = in.begin() + f->bitOffset / 8;
      const std::size_t n = f->bitWidth / 8;
      if constexpr (std::is_same_v<T, Gid>)
        std::copy_n(from, std::min(n, member.size()), member.begin());
      else
        member.assign(from, from + static_cast<std::ptrdiff_t>(n));
    }
  });
  return m;
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
      CmAttribute::ConnectRequest,  CmAttribute::MsgRcptAck,      CmAttribute::ConnectReject,
      CmAttribute::ConnectReply,    CmAttribute::ReadyToUse,      CmAttribute::DisconnectRequest,
      CmAttribute::DisconnectReply, CmAttribute::ServiceIdResReq, CmAttribute::ServiceIdResReqResp};
  return kByIndex[message.index()];
}

std::array<std::uint8_t, kMadDataSize> encodeCmMessage(const CmMessage& message) {
  std::array<std::uint8_t, kMadDataSize> out{};
  const HeaderDef& h = *cmMessageHeader(static_cast<std::uint16_t>(cmAttributeOf(message)));
  std::visit([&](const auto& m) { encodeInto(h, out, m); }, message);
  return out;
}

std::optional<CmMessage> decodeCmMessage(std::uint16_t attributeId,
                                         std::span<const std::uint8_t> data) {
  const HeaderDef* h = cmMessageHeader(attributeId);
  if (!h || data.size() < kMadDataSize) return std::nullopt;
  const auto in = data.first(kMadDataSize);
  switch (static_cast<CmAttribute>(attributeId)) {
    case CmAttribute::ConnectRequest:
      return decodeFrom<CmReq>(*h, in);
    case CmAttribute::MsgRcptAck:
      return decodeFrom<CmMra>(*h, in);
    case CmAttribute::ConnectReject:
      return decodeFrom<CmRej>(*h, in);
    case CmAttribute::ConnectReply:
      return decodeFrom<CmRep>(*h, in);
    case CmAttribute::ReadyToUse:
      return decodeFrom<CmRtu>(*h, in);
    case CmAttribute::DisconnectRequest:
      return decodeFrom<CmDreq>(*h, in);
    case CmAttribute::DisconnectReply:
      return decodeFrom<CmDrep>(*h, in);
    case CmAttribute::ServiceIdResReq:
      return decodeFrom<CmSidrReq>(*h, in);
    case CmAttribute::ServiceIdResReqResp:
      return decodeFrom<CmSidrRep>(*h, in);
    default:
      break;
  }
  return std::nullopt;
}

void encodeMadHeader(const MadHeader& h, std::span<std::uint8_t> out) {
  encodeInto(kMadHeader, out, h);
}

MadHeader decodeMadHeader(std::span<const std::uint8_t> in) {
  return decodeFrom<MadHeader>(kMadHeader, in);
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
