#include "cm_tracker.h"

#include "rdmascope/packets/mad_headers.h"

namespace rdmascope::analysis {

std::optional<std::uint32_t> CmTracker::peerQpn(const std::string& address, std::uint32_t qpn,
                                                const std::string& peerAddress) const {
  for (auto it = handshakes_.rbegin(); it != handshakes_.rend(); ++it) {
    const CmHandshake& h = *it;
    if (h.client == address && h.server == peerAddress && h.clientQpn == qpn && h.serverQpn)
      return h.serverQpn;
    if (h.server == address && h.client == peerAddress && h.serverQpn == qpn && h.clientQpn)
      return h.clientQpn;
  }
  return std::nullopt;
}

// Follows a handshake by its communication IDs: the REQ starts it, the others join it.
std::optional<CmRejectNote> CmTracker::add(const PacketFacts& f) {
  using packets::CmAttribute;
  const CmFacts& m = *f.cm;
  const auto attr = static_cast<CmAttribute>(m.attribute);
  std::string_view name;
  switch (attr) {
    case CmAttribute::ConnectRequest:
      name = "REQ";
      break;
    case CmAttribute::MsgRcptAck:
      name = "MRA";
      break;
    case CmAttribute::ConnectReject:
      name = "REJ";
      break;
    case CmAttribute::ConnectReply:
      name = "REP";
      break;
    case CmAttribute::ReadyToUse:
      name = "RTU";
      break;
    case CmAttribute::DisconnectRequest:
      name = "DREQ";
      break;
    case CmAttribute::DisconnectReply:
      name = "DREP";
      break;
    default:
      return std::nullopt;
  }
  CmHandshake* h = nullptr;
  bool fromClient = true;
  if (attr == CmAttribute::ConnectRequest) {
    // A resent REQ joins the handshake it repeats.
    h = find([&](const CmHandshake& x) {
      return x.client == f.source && x.server == f.destination && x.clientCommId == m.localCommId;
    });
    if (!h) {
      if (handshakes_.size() >= maxHandshakes_) return std::nullopt;
      CmHandshake n;
      n.client = f.source;
      n.server = f.destination;
      n.clientCommId = m.localCommId;
      n.clientQpn = m.qpn;
      n.serviceId = m.serviceId.value_or(0);
      if (packets::isRdmaIpServiceId(n.serviceId))
        n.port = static_cast<std::uint16_t>(n.serviceId & 0xffff);
      handshakes_.push_back(std::move(n));
      h = &handshakes_.back();
    }
  } else {
    // The client's own ID is local in what it sends and remote in what the server sends.
    h = find([&](const CmHandshake& x) {
      return x.client == f.source && x.server == f.destination && x.clientCommId == m.localCommId &&
             (!x.serverCommId || m.remoteCommId == 0 || *x.serverCommId == m.remoteCommId);
    });
    if (!h) {
      fromClient = false;
      h = find([&](const CmHandshake& x) {
        return x.server == f.source && x.client == f.destination &&
               x.clientCommId == m.remoteCommId;
      });
    }
    if (!h) return std::nullopt;  // the handshake began before the capture
    if (!fromClient && !h->serverCommId && m.localCommId) h->serverCommId = m.localCommId;
    if (attr == CmAttribute::ConnectReply) h->serverQpn = m.qpn;
  }
  if (h->steps.size() < 16) h->steps.push_back({f.frame, f.time, std::string(name), fromClient});
  if (attr != CmAttribute::ConnectReject) return std::nullopt;
  h->rejectReason = m.rejectReason;
  CmRejectNote note;
  note.what.phrase = DetailPhrase::CmReject;
  note.what.code = m.rejected == 1 ? 1 : m.rejected == 0 ? 0 : 2;
  note.what.number = m.rejectReason.value_or(0);
  note.what.hasPort = h->port.has_value();
  note.what.from = h->port.value_or(0);
  note.source = f.source;
  return note;
}

bool CmHandshake::established() const {
  bool rep = false;
  for (const auto& s : steps) {
    if (s.message == "REP") rep = true;
    if (s.message == "RTU" && rep) return true;
  }
  return false;
}

bool CmHandshake::disconnected() const {
  for (const auto& s : steps)
    if (s.message == "DREP") return true;
  return false;
}

}  // namespace rdmascope::analysis
