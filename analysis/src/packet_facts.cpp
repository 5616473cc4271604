#include "rdmascope/analysis/packet_facts.h"

#include <cstdio>
#include <iterator>
#include <utility>

#include "rdmascope/packets/crc.h"
#include "rdmascope/packets/mad_builder.h"
#include "report_sink.h"

namespace rdmascope::analysis {

std::string_view toString(Carrier carrier) {
  static constexpr std::string_view kNames[] = {"RoCEv2", "RoCEv1", "InfiniBand", "iWARP"};
  static_assert(std::size(kNames) == static_cast<std::size_t>(Carrier::Iwarp) + 1);
  return nameOf(kNames, carrier);
}

std::uint64_t contentHash(std::span<const std::uint8_t> bytes) {
  // ISA-L's CRC-64 runs at memory speed; a byte-wise hash cost a fifth of the analysis.
  return packets::crc64(bytes);
}

namespace {

std::string gidText(const std::array<std::uint8_t, 16>& gid) {
  return packets::IpAddress::fromV6(gid).toString();
}

std::string lidText(std::uint16_t lid) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "LID %u", lid);
  return buf;
}

}  // namespace

namespace {

// The CM facts of a MAD, or nothing for other classes, attributes without a typed message and
// short MADs.
std::optional<CmFacts> cmFacts(std::span<const std::uint8_t> mad) {
  using namespace packets;
  if (mad.size() < kMadSize) return std::nullopt;
  const MadHeader h = decodeMadHeader(mad);
  if (h.mgmtClass != static_cast<std::uint8_t>(MadClass::ComMgt)) return std::nullopt;
  const auto message = decodeCmMessage(h.attributeId, mad.subspan(kMadHeaderSize));
  if (!message) return std::nullopt;
  CmFacts c;
  c.attribute = h.attributeId;
  c.transactionId = h.transactionId;
  std::visit(
      [&](const auto& m) {
        if constexpr (requires { m.localCommId; })
          c.localCommId = m.localCommId;
        else
          c.localCommId = m.requestId;  // SIDR: the request ID names the exchange
        if constexpr (requires { m.remoteCommId; }) c.remoteCommId = m.remoteCommId;
      },
      *message);
  if (const auto* req = std::get_if<CmReq>(&*message)) {
    c.qpn = req->localQpn;
    c.startingPsn = req->startingPsn;
    c.serviceId = req->serviceId;
  } else if (const auto* rep = std::get_if<CmRep>(&*message)) {
    c.qpn = rep->localQpn;
    c.startingPsn = rep->startingPsn;
  } else if (const auto* dreq = std::get_if<CmDreq>(&*message)) {
    c.qpn = dreq->remoteQpn;
  } else if (const auto* sidrReq = std::get_if<CmSidrReq>(&*message)) {
    c.serviceId = sidrReq->serviceId;
  } else if (const auto* sidrRep = std::get_if<CmSidrRep>(&*message)) {
    c.qpn = sidrRep->qpn;
    c.serviceId = sidrRep->serviceId;
  } else if (const auto* rej = std::get_if<CmRej>(&*message)) {
    c.rejectReason = rej->reason;
    c.rejected = rej->messageRejected;
  }
  return c;
}

}  // namespace

namespace {

// extractFacts with the payload where it lies, and the texts of IP addresses from `texts`.
template <class IpText>
void factsInto(PacketFacts& f, const packets::ParsedIbFrame& parsed,
               std::span<const std::uint8_t> payload, std::span<const std::uint8_t> frame,
               std::uint64_t frameNumber, double time, IpText&& ipText) {
  f.frame = frameNumber;
  f.time = time;
  f.frameLength = static_cast<std::uint32_t>(frame.size());
  const auto& p = parsed.packet;
  switch (parsed.carrier) {
    case packets::IbCarrier::RoceV2:
      f.carrier = Carrier::RoceV2;
      if (parsed.srcIp) f.source = ipText(*parsed.srcIp);
      if (parsed.dstIp) f.destination = ipText(*parsed.dstIp);
      f.ipEcn = parsed.ecn;
      f.priority = static_cast<std::uint8_t>(parsed.dscp >> 3);
      break;
    case packets::IbCarrier::RoceV1:
      f.carrier = Carrier::RoceV1;
      break;
    case packets::IbCarrier::NativeIb:
      f.carrier = Carrier::NativeIb;
      break;
  }
  if (parsed.carrier != packets::IbCarrier::RoceV2) {
    if (parsed.grh) {
      f.source = gidText(parsed.grh->sgid);
      f.destination = gidText(parsed.grh->dgid);
      f.ipEcn = parsed.grh->trafficClass & 3;
    } else if (parsed.lrh) {
      f.source = lidText(parsed.lrh->slid);
      f.destination = lidText(parsed.lrh->dlid);
    }
  }
  if (parsed.vlan) f.priority = parsed.vlan->priority;
  if (parsed.srcMac)
    for (std::uint8_t b : *parsed.srcMac)
      f.sourceMac = (f.sourceMac << 8) | b;
  f.opcode = p.bth.opcode;
  f.psn = p.bth.psn;
  f.destQp = p.bth.destQp;
  f.ackRequest = p.bth.ackReq;
  f.fecn = p.bth.fecn;
  f.becn = p.bth.becn;
  if (p.aeth) f.aethSyndrome = p.aeth->syndrome;
  if (p.reth) f.dmaLength = p.reth->dmaLength;
  if (p.deth) f.sourceQp = p.deth->srcQp;
  f.payloadLength = static_cast<std::uint32_t>(payload.size());
  if (p.deth && (p.bth.destQp <= 1 || p.deth->srcQp <= 1)) f.cm = cmFacts(payload);
  f.crcBad = parsed.crc == packets::CrcStatus::Bad;
  if (parsed.bthOffset < frame.size()) f.contentHash = contentHash(frame.subspan(parsed.bthOffset));
}

}  // namespace

PacketFacts extractFacts(const packets::ParsedIbFrame& parsed, std::span<const std::uint8_t> frame,
                         std::uint64_t frameNumber, double time) {
  PacketFacts f;
  factsInto(f, parsed, parsed.packet.payload, frame, frameNumber, time,
            [](const packets::IpAddress& ip) { return ip.toString(); });
  return f;
}

std::optional<PacketFacts> readPacketFacts(std::span<const std::uint8_t> frame,
                                           packets::LinkType link, std::uint64_t frameNumber,
                                           double time, const packets::DecodeOptions& options) {
  auto parsed = packets::parseIbFrame(frame, link, options);
  if (!parsed) return std::nullopt;
  PacketFacts f = extractFacts(*parsed, frame, frameNumber, time);
  // An ERF record's header and padding are no part of the frame: its wire length says.
  if (link == packets::LinkType::Erf && frame.size() >= 16)
    f.frameLength = static_cast<std::uint32_t>((frame[14] << 8) | frame[15]);
  return f;
}

const std::string& PacketFactReader::ipText(const packets::IpAddress& ip) {
  Text& t = texts_[(ip.bytes[ip.v6 ? 15 : 3] ^ ip.bytes[ip.v6 ? 14 : 2]) % texts_.size()];
  if (!t.valid || !(t.ip == ip)) {
    t.valid = true;
    t.ip = ip;
    t.text = ip.toString();
  }
  return t.text;
}

bool PacketFactReader::read(std::span<const std::uint8_t> frame, packets::LinkType link,
                            std::uint64_t frameNumber, double time, PacketFacts& out) {
  packets::ParsedIbFrame parsed;
  const auto payload = packets::parseIbFrameHeaders(frame, link, options_, parsed);
  if (!payload) return false;
  out = PacketFacts{};
  factsInto(out, parsed, *payload, frame, frameNumber, time,
            [this](const packets::IpAddress& ip) -> const std::string& { return ipText(ip); });
  if (link == packets::LinkType::Erf && frame.size() >= 16)
    out.frameLength = static_cast<std::uint32_t>((frame[14] << 8) | frame[15]);
  return true;
}

}  // namespace rdmascope::analysis
