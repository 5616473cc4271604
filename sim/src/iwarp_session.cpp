#include "rdmascope/sim/iwarp_session.h"

#include <algorithm>
#include <cstring>
#include <functional>

#include "rdmascope/packets/crc.h"
#include "rdmascope/sim/transfer_cost.h"

namespace rdmascope::sim {

namespace {

using packets::RdmapOpcode;

// DDP/RDMAP error numbers of a Terminate (RFC 5040 section 7, RFC 5041 section 7).
constexpr std::uint8_t kLayerRdmap = 0;
constexpr std::uint8_t kLayerDdp = 1;
constexpr std::uint8_t kLayerLlp = 2;
constexpr std::uint8_t kRdmapRemoteProtection = 1;
constexpr std::uint8_t kRdmapRemoteOperation = 2;
constexpr std::uint8_t kDdpTaggedBuffer = 1;
constexpr std::uint8_t kDdpUntaggedBuffer = 2;
constexpr std::uint8_t kCodeInvalidStag = 0x00;
constexpr std::uint8_t kCodeBaseOrBounds = 0x01;
constexpr std::uint8_t kCodeAccessRights = 0x02;
constexpr std::uint8_t kCodeInvalidQn = 0x01;
constexpr std::uint8_t kCodeNoBuffer = 0x02;
constexpr std::uint8_t kCodeMsnRange = 0x03;
constexpr std::uint8_t kCodeTooLong = 0x05;
constexpr std::uint8_t kCodeUnexpectedOpcode = 0x06;
constexpr std::uint8_t kCodeNotInvalidatable = 0x09;
constexpr std::uint8_t kCodeStagNotOfStream = 0x02;
constexpr std::uint8_t kCodeMpaCrc = 0x02;

std::uint64_t field(const packets::HeaderDef& header, std::string_view key,
                    std::span<const std::uint8_t> bytes) {
  const auto* f = packets::findField(header, key);
  return f != nullptr ? packets::readField(*f, bytes) : 0;
}

bool isSend(RdmapOpcode op) {
  return op == RdmapOpcode::Send || op == RdmapOpcode::SendSe ||
         op == RdmapOpcode::SendInvalidate || op == RdmapOpcode::SendSeInvalidate;
}

struct Region {
  std::vector<std::uint8_t> bytes;
  unsigned access = 0;
  bool valid = true;
};

struct RecvWqe {
  std::uint64_t wrId = 0;
  std::uint32_t stag = 0;
  std::uint64_t offset = 0;
  std::uint32_t length = 0;
};

struct PendingAck {
  std::uint64_t streamEnd = 0;
  std::uint64_t wrId = 0;
  WcOpcode opcode = WcOpcode::Send;
};

struct PendingRead {
  std::uint64_t wrId = 0;
  std::uint32_t stag = 0;
  std::uint64_t offset = 0;
  std::uint32_t length = 0;
  std::uint32_t received = 0;
};

// Reports one iWARP step to the trace (nothing when tracing is off).
void note(TcpNetwork& net, int host, TraceKind kind, Narrative what, TraceArgs args = {},
          std::uint64_t wrId = 0, std::uint64_t address = 0, std::uint32_t length = 0) {
  Trace* trace = net.scheduler().trace();
  if (trace == nullptr) return;
  TraceEvent e;
  e.time = SimTime::ps(net.scheduler().nowPs());
  e.host = host == 0 ? "host-a" : "host-b";
  e.kind = kind;
  e.what = what;
  e.wrId = wrId;
  e.address = address;
  e.length = length;
  e.args = std::move(args);
  trace->emit(std::move(e));
}

TraceArgs mpaArgs(bool markers, bool crc, std::size_t privateData) {
  TraceArgs a;
  a.markers = markers;
  a.crc = crc;
  a.bytes = privateData;
  return a;
}

TraceArgs ddpArgs(const packets::DdpSegmentHeader& h, std::size_t bytes) {
  TraceArgs a;
  a.opcode = static_cast<std::uint8_t>(h.opcode);
  a.bytes = bytes;
  a.lastSegment = h.last;
  if (h.tagged()) {
    a.key = h.stag;
    a.value = h.taggedOffset;
  } else {
    a.queue = h.queue;
    a.msn = h.msn;
    a.value = h.messageOffset;
  }
  return a;
}

}  // namespace

struct IwarpSession::Side {
  MpaSettings mine;
  std::optional<MpaSettings> peer;
  bool fullOperation = false;
  bool gotFirstFpdu = false;
  bool error = false;
  std::unique_ptr<packets::MpaStreamEncoder> encoder;
  std::deque<std::vector<std::uint8_t>> txQueue;
  std::vector<std::function<void()>> waiting;  // work posted before full operation
  std::uint64_t streamQueued = 0;              // bytes handed to TCP
  std::uint64_t streamAssigned = 0;            // bytes handed to TCP or waiting in txQueue
  std::deque<PendingAck> pendingAcks;
  std::deque<RecvWqe> rq;
  std::deque<PendingRead> reads;
  std::uint32_t sendMsn[3] = {1, 1, 1};
  std::uint32_t recvMsn[3] = {1, 1, 1};
  std::map<std::uint32_t, Region> regions;
  std::vector<std::uint8_t> rx;
  std::uint64_t rxPos = 0;  // stream offset of rx[0], counted from the first FPDU
  IwarpStats stats;
};

IwarpSession::IwarpSession(TcpNetwork& net, MpaSettings initiator, MpaSettings responder)
    : net_(net) {
  sides_[0] = std::make_unique<Side>();
  sides_[1] = std::make_unique<Side>();
  sides_[0]->mine = std::move(initiator);
  sides_[1]->mine = std::move(responder);
  for (int h = 0; h < 2; ++h) {
    net_.setEventHandler(h, [this, h](TcpEvent e) { onTcpEvent(h, e); });
  }
}

IwarpSession::~IwarpSession() {
  for (int h = 0; h < 2; ++h)
    net_.setEventHandler(h, {});
}

void IwarpSession::connect() {
  TraceArgs port;
  port.port = net_.config().serverPort;
  note(net_, 1, TraceKind::Note, Narrative::RdmaCmBind, port);
  note(net_, 1, TraceKind::Note, Narrative::RdmaCmListen, port);
  note(net_, 0, TraceKind::Note, Narrative::RdmaCmResolve, port);
  note(net_, 0, TraceKind::Note, Narrative::RdmaCmConnect, port);
  net_.connect();
}

bool IwarpSession::established() const {
  return sides_[0]->fullOperation && sides_[1]->fullOperation;
}

bool IwarpSession::markersFrom(int host) const {
  const auto& peerWants = sides_[1 - host]->mine;
  return peerWants.markers;
}

bool IwarpSession::crcInUse() const {
  return sides_[0]->mine.crc || sides_[1]->mine.crc;
}

const std::vector<std::uint8_t>& IwarpSession::peerPrivateData(int host) const {
  static const std::vector<std::uint8_t> kNone;
  const auto& p = sides_[host]->peer;
  return p ? p->privateData : kNone;
}

std::uint32_t IwarpSession::registerMemory(int host, std::size_t bytes, unsigned accessFlags) {
  const std::uint32_t stag = nextStag_;
  nextStag_ += 0x100;
  sides_[host]->regions[stag] = Region{std::vector<std::uint8_t>(bytes), accessFlags, true};
  TraceArgs a;
  a.key = stag;
  a.bytes = bytes;
  a.access = accessFlags;
  note(net_, host, TraceKind::Note, Narrative::StagRegistered, std::move(a));
  return stag;
}

std::span<std::uint8_t> IwarpSession::memory(int host, std::uint32_t stag) {
  auto& regions = sides_[host]->regions;
  const auto it = regions.find(stag);
  return it == regions.end() ? std::span<std::uint8_t>{}
                             : std::span<std::uint8_t>(it->second.bytes);
}

bool IwarpSession::stagValid(int host, std::uint32_t stag) const {
  const auto& regions = sides_[host]->regions;
  const auto it = regions.find(stag);
  return it != regions.end() && it->second.valid;
}

bool IwarpSession::inError(int host) const {
  return sides_[host]->error;
}

const IwarpStats& IwarpSession::stats(int host) const {
  return sides_[host]->stats;
}

std::size_t IwarpSession::outstanding(int host) const {
  const Side& s = *sides_[host];
  return s.rq.size() + s.pendingAcks.size() + s.reads.size() + s.waiting.size();
}

void IwarpSession::complete(int host, std::uint64_t wrId, WcOpcode opcode, WcStatus status,
                            std::uint32_t byteLen) {
  IwarpCompletion c;
  c.host = host;
  c.wrId = wrId;
  c.opcode = opcode;
  c.status = status;
  c.byteLen = byteLen;
  completions_.push_back(c);
  noteCompletion(c);
}

void IwarpSession::notePosted(int host, std::uint64_t wrId, WrOpcode opcode, std::uint32_t length) {
  TraceArgs a;
  a.wrOpcode = opcode;
  a.bytes = length;
  a.signaled = true;
  note(net_, host, TraceKind::WqePosted, Narrative::SendPosted, std::move(a), wrId);
}

void IwarpSession::noteCompletion(const IwarpCompletion& c) {
  TraceArgs a;
  a.wcOpcode = c.opcode;
  a.status = c.status;
  a.bytes = c.byteLen;
  note(net_, c.host, TraceKind::CqeProduced, Narrative::CqeProduced, std::move(a), c.wrId);
}

void IwarpSession::onTcpEvent(int host, TcpEvent event) {
  Side& s = *sides_[host];
  switch (event) {
    case TcpEvent::Established:
      if (host == 0) {
        packets::MpaStartFrame req;
        req.markers = s.mine.markers;
        req.crc = s.mine.crc;
        req.privateData = s.mine.privateData;
        const auto bytes = packets::encodeMpaStartFrame(req);
        note(net_, host, TraceKind::Note, Narrative::MpaRequestSent,
             mpaArgs(req.markers, req.crc, req.privateData.size()));
        s.streamAssigned += bytes.size();
        s.txQueue.push_back(bytes);
        pump(host);
      }
      break;
    case TcpEvent::Readable:
      receive(host);
      break;
    case TcpEvent::Writable: {
      const std::uint64_t acked = s.streamQueued - net_.endpoint(host).unacknowledged();
      while (!s.pendingAcks.empty() && s.pendingAcks.front().streamEnd <= acked && !s.error) {
        const auto p = s.pendingAcks.front();
        s.pendingAcks.pop_front();
        complete(host, p.wrId, p.opcode, WcStatus::Success, 0);
      }
      pump(host);
      break;
    }
    case TcpEvent::Reset:
    case TcpEvent::PeerClosed:
    case TcpEvent::Closed:
      if (!s.error) enterError(host);
      break;
  }
}

void IwarpSession::pump(int host) {
  Side& s = *sides_[host];
  auto& tcb = net_.endpoint(host);
  // The MPA start frame goes at once; FPDUs wait for full operation, and the Responder's
  // also for the Initiator's first FPDU (RFC 5044 section 7.1.2).
  while (!s.txQueue.empty()) {
    const bool startFrame = s.streamQueued == 0 || !s.fullOperation;
    if (!startFrame && host == 1 && !s.gotFirstFpdu) break;
    if (!tcb.writeRecord(s.txQueue.front())) break;
    s.streamQueued += s.txQueue.front().size();
    s.txQueue.pop_front();
  }
}

void IwarpSession::receive(int host) {
  Side& s = *sides_[host];
  auto& tcb = net_.endpoint(host);
  const std::size_t before = s.rx.size();
  s.rx.resize(before + tcb.readable());
  s.rx.resize(before +
              tcb.read(std::span<std::uint8_t>(s.rx.data() + before, s.rx.size() - before)));
  if (!s.peer && !receiveStartFrame(host)) return;
  while (!s.error && receiveFpdu(host)) {
  }
}

bool IwarpSession::receiveStartFrame(int host) {
  Side& s = *sides_[host];
  if (s.rx.size() < packets::kMpaStartHeaderLength) return false;
  const auto& def = host == 0 ? packets::kMpaReplyHeader : packets::kMpaRequestHeader;
  const char* key = host == 0 ? packets::kMpaReplyKey : packets::kMpaRequestKey;
  const auto pdLength = static_cast<std::size_t>(field(def, "iwarp_mpa.pdlength", s.rx));
  if (s.rx.size() < packets::kMpaStartHeaderLength + pdLength) return false;
  if (std::memcmp(s.rx.data(), key, 16) != 0 || field(def, "iwarp_mpa.rej_flag", s.rx) != 0) {
    enterError(host);
    return false;
  }
  MpaSettings peer;
  peer.markers = field(def, "iwarp_mpa.marker_flag", s.rx) != 0;
  peer.crc = field(def, "iwarp_mpa.crc_flag", s.rx) != 0;
  const auto pd = s.rx.begin() + packets::kMpaStartHeaderLength;
  peer.privateData.assign(pd, pd + static_cast<long>(pdLength));
  s.rx.erase(s.rx.begin(), pd + static_cast<long>(pdLength));
  note(net_, host, TraceKind::Note,
       host == 1 ? Narrative::MpaRequestReceived : Narrative::MpaReplyReceived,
       mpaArgs(peer.markers, peer.crc, peer.privateData.size()));
  s.peer = std::move(peer);
  s.fullOperation = true;
  s.encoder = std::make_unique<packets::MpaStreamEncoder>(
      packets::MpaFraming{markersFrom(host), crcInUse()});
  if (host == 1) {
    packets::MpaStartFrame rep;
    rep.reply = true;
    rep.markers = s.mine.markers;
    rep.crc = crcInUse();
    rep.privateData = s.mine.privateData;
    const auto bytes = packets::encodeMpaStartFrame(rep);
    note(net_, host, TraceKind::Note, Narrative::RdmaCmAccept);
    note(net_, host, TraceKind::Note, Narrative::MpaReplySent,
         mpaArgs(rep.markers, rep.crc, rep.privateData.size()));
    s.streamAssigned += bytes.size();
    s.txQueue.push_front(bytes);
  }
  note(net_, host, TraceKind::Note, Narrative::RdmaCmEstablished);
  auto waiting = std::move(s.waiting);
  s.waiting.clear();
  for (auto& w : waiting)
    w();
  pump(host);
  return true;
}

bool IwarpSession::receiveFpdu(int host) {
  Side& s = *sides_[host];
  const bool markers = s.mine.markers;  // the stream this host receives carries what it asked
  const std::size_t lead = markers && s.rxPos % packets::kMpaMarkerInterval == 0 ? 4 : 0;
  if (s.rx.size() < lead + 2) return false;
  const std::size_t ulpduLength = (static_cast<std::size_t>(s.rx[lead]) << 8) | s.rx[lead + 1];
  const std::size_t logical = 2 + ulpduLength + packets::mpaPadLength(ulpduLength) + 4;
  const std::size_t wire = packets::fpduWireLength(logical, markers, s.rxPos);
  if (s.rx.size() < wire) return false;
  const std::span<const std::uint8_t> w(s.rx.data(), wire);
  if (crcInUse()) {
    const std::uint32_t expected = packets::crc32c(w.first(wire - 4));
    const std::uint32_t got = w[wire - 4] | (w[wire - 3] << 8) | (w[wire - 2] << 16) |
                              (static_cast<std::uint32_t>(w[wire - 1]) << 24);
    if (expected != got) {
      ++s.stats.crcErrors;
      sendTerminate(host, kLayerLlp, 0, kCodeMpaCrc, {});
      return false;
    }
  }
  std::vector<std::uint8_t> bytes;
  bytes.reserve(logical);
  for (std::size_t i = 0; i < wire;) {
    if (markers && (s.rxPos + i) % packets::kMpaMarkerInterval == 0) {
      i += packets::kMpaMarkerLength;
      continue;
    }
    bytes.push_back(w[i++]);
  }
  s.rx.erase(s.rx.begin(), s.rx.begin() + static_cast<long>(wire));
  s.rxPos += wire;
  ++s.stats.fpdusReceived;
  const bool first = !s.gotFirstFpdu;
  s.gotFirstFpdu = true;
  processSegment(host, std::span<const std::uint8_t>(bytes).subspan(2, ulpduLength));
  if (first) pump(host);
  return true;
}

void IwarpSession::processSegment(int host, std::span<const std::uint8_t> ulpdu) {
  Side& s = *sides_[host];
  if (s.error) return;
  if (ulpdu.size() < packets::kDdpTaggedHeaderLength) {
    sendTerminate(host, kLayerDdp, kDdpUntaggedBuffer, kCodeTooLong, {});
    return;
  }
  const bool tagged = field(packets::kDdpTaggedHeader, "iwarp_ddp.tagged_flag", ulpdu) != 0;
  const bool last = field(packets::kDdpTaggedHeader, "iwarp_ddp.last_flag", ulpdu) != 0;
  const auto opcode = static_cast<RdmapOpcode>(
      field(packets::kRdmapControlHeader, "iwarp_rdma.opcode", ulpdu.subspan(1)));

  if (tagged) {
    const auto header = ulpdu.first(packets::kDdpTaggedHeaderLength);
    const auto stag =
        static_cast<std::uint32_t>(field(packets::kDdpTaggedHeader, "iwarp_ddp.stag", ulpdu));
    const std::uint64_t to = field(packets::kDdpTaggedHeader, "iwarp_ddp.tagged_offset", ulpdu);
    const auto payload = ulpdu.subspan(packets::kDdpTaggedHeaderLength);
    const auto it = s.regions.find(stag);
    if (opcode != RdmapOpcode::Write && opcode != RdmapOpcode::ReadResponse) {
      sendTerminate(host, kLayerRdmap, kRdmapRemoteOperation, kCodeUnexpectedOpcode, header);
      return;
    }
    if (it == s.regions.end() || !it->second.valid) {
      sendTerminate(host, kLayerDdp, kDdpTaggedBuffer, kCodeInvalidStag, header);
      return;
    }
    if (to + payload.size() > it->second.bytes.size()) {
      sendTerminate(host, kLayerDdp, kDdpTaggedBuffer, kCodeBaseOrBounds, header);
      return;
    }
    const bool readResponse = opcode == RdmapOpcode::ReadResponse;
    if (!readResponse && !(it->second.access & access::kRemoteWrite)) {
      sendTerminate(host, kLayerRdmap, kRdmapRemoteProtection, kCodeAccessRights, header);
      return;
    }
    if (readResponse && (s.reads.empty() || s.reads.front().stag != stag)) {
      sendTerminate(host, kLayerDdp, kDdpTaggedBuffer, kCodeStagNotOfStream, header);
      return;
    }
    std::copy(payload.begin(), payload.end(), it->second.bytes.begin() + static_cast<long>(to));
    s.stats.bytesPlaced += payload.size();
    {
      packets::DdpSegmentHeader h;
      h.opcode = opcode;
      h.stag = stag;
      h.taggedOffset = to;
      h.last = last;
      note(net_, host, TraceKind::MemoryWritten, Narrative::DdpSegmentPlaced,
           ddpArgs(h, payload.size()), 0, to, static_cast<std::uint32_t>(payload.size()));
    }
    if (readResponse) {
      auto& rd = s.reads.front();
      rd.received += static_cast<std::uint32_t>(payload.size());
      if (last) {
        const auto done = rd;
        s.reads.pop_front();
        complete(host, done.wrId, WcOpcode::RdmaRead, WcStatus::Success, done.received);
      }
    }
    return;
  }

  if (ulpdu.size() < packets::kDdpUntaggedHeaderLength) {
    sendTerminate(host, kLayerDdp, kDdpUntaggedBuffer, kCodeTooLong, {});
    return;
  }
  const auto header = ulpdu.first(packets::kDdpUntaggedHeaderLength);
  const auto qn =
      static_cast<std::uint32_t>(field(packets::kDdpUntaggedHeader, "iwarp_ddp.qn", ulpdu));
  const auto msn =
      static_cast<std::uint32_t>(field(packets::kDdpUntaggedHeader, "iwarp_ddp.msn", ulpdu));
  const auto mo =
      static_cast<std::uint32_t>(field(packets::kDdpUntaggedHeader, "iwarp_ddp.mo", ulpdu));
  const auto payload = ulpdu.subspan(packets::kDdpUntaggedHeaderLength);
  if (qn > packets::kDdpQueueTerminate) {
    sendTerminate(host, kLayerDdp, kDdpUntaggedBuffer, kCodeInvalidQn, header);
    return;
  }
  if (msn != s.recvMsn[qn]) {
    sendTerminate(host, kLayerDdp, kDdpUntaggedBuffer, kCodeMsnRange, header);
    return;
  }
  if (qn == packets::kDdpQueueSend) {
    if (!isSend(opcode)) {
      sendTerminate(host, kLayerRdmap, kRdmapRemoteOperation, kCodeUnexpectedOpcode, header);
      return;
    }
    if (s.rq.empty()) {
      sendTerminate(host, kLayerDdp, kDdpUntaggedBuffer, kCodeNoBuffer, header);
      return;
    }
    const RecvWqe wqe = s.rq.front();
    auto region = s.regions.find(wqe.stag);
    if (static_cast<std::uint64_t>(mo) + payload.size() > wqe.length || region == s.regions.end() ||
        wqe.offset + wqe.length > region->second.bytes.size()) {
      sendTerminate(host, kLayerDdp, kDdpUntaggedBuffer, kCodeTooLong, header);
      return;
    }
    std::copy(payload.begin(), payload.end(),
              region->second.bytes.begin() + static_cast<long>(wqe.offset + mo));
    s.stats.bytesPlaced += payload.size();
    {
      packets::DdpSegmentHeader h;
      h.opcode = opcode;
      h.queue = qn;
      h.msn = msn;
      h.messageOffset = mo;
      h.last = last;
      note(net_, host, TraceKind::MemoryWritten, Narrative::DdpSegmentPlaced,
           ddpArgs(h, payload.size()), wqe.wrId, wqe.offset + mo,
           static_cast<std::uint32_t>(payload.size()));
    }
    if (!last) return;
    s.rq.pop_front();
    ++s.recvMsn[qn];
    IwarpCompletion c;
    c.host = host;
    c.wrId = wqe.wrId;
    c.opcode = WcOpcode::Recv;
    c.byteLen = mo + static_cast<std::uint32_t>(payload.size());
    c.solicited = opcode == RdmapOpcode::SendSe || opcode == RdmapOpcode::SendSeInvalidate;
    if (opcode == RdmapOpcode::SendInvalidate || opcode == RdmapOpcode::SendSeInvalidate) {
      const auto inv = static_cast<std::uint32_t>(
          packets::readField(packets::kRdmapInvalidateStagField, ulpdu.subspan(2)));
      auto r = s.regions.find(inv);
      if (r == s.regions.end() || !r->second.valid) {
        sendTerminate(host, kLayerRdmap, kRdmapRemoteProtection, kCodeNotInvalidatable, header);
        return;
      }
      r->second.valid = false;
      c.invalidatedStag = inv;
    }
    completions_.push_back(c);
    noteCompletion(c);
    return;
  }
  if (qn == packets::kDdpQueueReadRequest) {
    if (opcode != RdmapOpcode::ReadRequest || payload.size() < packets::kRdmaReadRequestLength) {
      sendTerminate(host, kLayerRdmap, kRdmapRemoteOperation, kCodeUnexpectedOpcode, header);
      return;
    }
    const auto& rr = packets::kRdmaReadRequestHeader;
    const auto sinkStag = static_cast<std::uint32_t>(field(rr, "iwarp_rdma.sinkstag", payload));
    const std::uint64_t sinkTo = field(rr, "iwarp_rdma.sinkto", payload);
    const auto size = static_cast<std::uint32_t>(field(rr, "iwarp_rdma.rdmardsz", payload));
    const auto srcStag = static_cast<std::uint32_t>(field(rr, "iwarp_rdma.srcstag", payload));
    const std::uint64_t srcTo = field(rr, "iwarp_rdma.srcto", payload);
    const auto src = s.regions.find(srcStag);
    if (src == s.regions.end() || !src->second.valid) {
      sendTerminate(host, kLayerRdmap, kRdmapRemoteProtection, kCodeInvalidStag, header);
      return;
    }
    if (!(src->second.access & access::kRemoteRead)) {
      sendTerminate(host, kLayerRdmap, kRdmapRemoteProtection, kCodeAccessRights, header);
      return;
    }
    if (srcTo + size > src->second.bytes.size()) {
      sendTerminate(host, kLayerRdmap, kRdmapRemoteProtection, kCodeBaseOrBounds, header);
      return;
    }
    ++s.recvMsn[qn];
    {
      packets::DdpSegmentHeader h;
      h.opcode = opcode;
      h.queue = qn;
      h.msn = msn;
      h.messageOffset = mo;
      h.last = last;
      note(net_, host, TraceKind::Note, Narrative::DdpSegmentPlaced, ddpArgs(h, payload.size()));
    }
    packets::DdpSegmentHeader response;
    response.opcode = RdmapOpcode::ReadResponse;
    response.stag = sinkStag;
    response.taggedOffset = sinkTo;
    const std::vector<std::uint8_t> data(
        src->second.bytes.begin() + static_cast<long>(srcTo),
        src->second.bytes.begin() + static_cast<long>(srcTo + size));
    queueMessage(host, response, data, 0, false, WcOpcode::RdmaRead);
    return;
  }
  // QN 2: a Terminate from the peer.
  ++s.recvMsn[qn];
  IwarpTerminate t;
  t.fromHost = 1 - host;
  if (payload.size() >= packets::kRdmaTerminateControlLength) {
    t.layer = static_cast<std::uint8_t>(payload[0] >> 4);
    t.errorType = static_cast<std::uint8_t>(payload[0] & 0x0f);
    t.errorCode = payload[1];
  }
  terminates_.push_back(t);
  enterError(host);
}

void IwarpSession::queueMessage(int host, packets::DdpSegmentHeader header,
                                std::span<const std::uint8_t> payload, std::uint64_t wrId,
                                bool completesOnAck, WcOpcode opcode) {
  Side& s = *sides_[host];
  const std::size_t headerLength =
      header.tagged() ? packets::kDdpTaggedHeaderLength : packets::kDdpUntaggedHeaderLength;
  const std::size_t mulpdu = mpaMulpdu(net_.endpoint(host).config().mss, markersFrom(host));
  const std::size_t maxPayload = mulpdu - headerLength;
  if (!header.tagged()) header.msn = s.sendMsn[header.queue]++;
  const std::uint64_t baseTo = header.taggedOffset;
  std::size_t sent = 0;
  do {
    std::size_t chunk = std::min(maxPayload, payload.size() - sent);
    // tshark 4.0 counts a marker due right after an FPDU as that FPDU's (its
    // number_of_markers), loses the stream and shows no more FPDUs. RFC 5044 lets the sender
    // pick any FPDU size up to the MULPDU, so an FPDU never ends on a marker position here.
    if (markersFrom(host) && chunk > 4) {
      const std::size_t logical =
          2 + headerLength + chunk + packets::mpaPadLength(headerLength + chunk) + 4;
      const std::uint64_t end = s.encoder->streamOffset() +
                                packets::fpduWireLength(logical, true, s.encoder->streamOffset());
      if (end % packets::kMpaMarkerInterval == 0) chunk -= 4;
    }
    header.last = sent + chunk == payload.size();
    if (header.tagged()) {
      header.taggedOffset = baseTo + sent;
    } else {
      header.messageOffset = static_cast<std::uint32_t>(sent);
    }
    const auto ulpdu = packets::encodeDdpSegment(header, payload.subspan(sent, chunk));
    note(net_, host, TraceKind::WqePacket, Narrative::DdpSegmentSent, ddpArgs(header, chunk), wrId);
    auto fpdu = s.encoder->fpdu(ulpdu);
    const std::size_t plain = 2 + ulpdu.size() + packets::mpaPadLength(ulpdu.size()) + 4;
    s.stats.markersSent += (fpdu.size() - plain) / packets::kMpaMarkerLength;
    ++s.stats.fpdusSent;
    s.streamAssigned += fpdu.size();
    s.txQueue.push_back(std::move(fpdu));
    sent += chunk;
  } while (sent < payload.size());
  if (completesOnAck) s.pendingAcks.push_back({s.streamAssigned, wrId, opcode});
  pump(host);
}

void IwarpSession::sendTerminate(int host, std::uint8_t layer, std::uint8_t type, std::uint8_t code,
                                 std::span<const std::uint8_t> ddpHeader) {
  Side& s = *sides_[host];
  if (s.error) return;
  packets::TerminateHeader term;
  term.layer = layer;
  term.errorType = type;
  term.errorCode = code;
  if (ddpHeader.size() == packets::kDdpTaggedHeaderLength ||
      ddpHeader.size() == packets::kDdpUntaggedHeaderLength) {
    term.ddpHeaderIncluded = true;
    term.ddpHeader.assign(ddpHeader.begin(), ddpHeader.end());
  }
  packets::DdpSegmentHeader header;
  header.opcode = RdmapOpcode::Terminate;
  header.queue = packets::kDdpQueueTerminate;
  terminates_.push_back({host, layer, type, code});
  {
    TraceArgs a;
    a.value =
        (static_cast<std::uint64_t>(layer) << 16) | (static_cast<std::uint64_t>(type) << 8) | code;
    note(net_, host, TraceKind::Note, Narrative::IwarpTerminateSent, std::move(a));
  }
  if (s.encoder)
    queueMessage(host, header, packets::encodeTerminate(term), 0, false, WcOpcode::Send);
  enterError(host);
}

void IwarpSession::enterError(int host) {
  Side& s = *sides_[host];
  s.error = true;
  for (const auto& w : s.rq)
    complete(host, w.wrId, WcOpcode::Recv, WcStatus::WrFlushErr, 0);
  for (const auto& p : s.pendingAcks)
    complete(host, p.wrId, p.opcode, WcStatus::WrFlushErr, 0);
  for (const auto& r : s.reads)
    complete(host, r.wrId, WcOpcode::RdmaRead, WcStatus::WrFlushErr, 0);
  s.rq.clear();
  s.pendingAcks.clear();
  s.reads.clear();
  s.waiting.clear();
}

void IwarpSession::postRecv(int host, std::uint64_t wrId, std::uint32_t stag, std::uint64_t offset,
                            std::uint32_t length) {
  Side& s = *sides_[host];
  if (s.error) {
    complete(host, wrId, WcOpcode::Recv, WcStatus::WrFlushErr, 0);
    return;
  }
  TraceArgs a;
  a.bytes = length;
  note(net_, host, TraceKind::WqePosted, Narrative::RecvPosted, std::move(a), wrId);
  s.rq.push_back({wrId, stag, offset, length});
}

void IwarpSession::postSend(int host, std::uint64_t wrId, std::uint32_t stag, std::uint64_t offset,
                            std::uint32_t length, RdmapOpcode opcode,
                            std::uint32_t invalidateStag) {
  Side& s = *sides_[host];
  if (!s.fullOperation) {
    s.waiting.push_back(
        [=, this] { postSend(host, wrId, stag, offset, length, opcode, invalidateStag); });
    return;
  }
  notePosted(host, wrId, WrOpcode::Send, length);
  const auto mem = memory(host, stag);
  if (s.error || !isSend(opcode) || offset + length > mem.size()) {
    complete(host, wrId, WcOpcode::Send, s.error ? WcStatus::WrFlushErr : WcStatus::LocProtErr, 0);
    return;
  }
  packets::DdpSegmentHeader header;
  header.opcode = opcode;
  header.queue = packets::kDdpQueueSend;
  header.invalidateStag = invalidateStag;
  queueMessage(host, header, mem.subspan(offset, length), wrId, true, WcOpcode::Send);
}

void IwarpSession::postWrite(int host, std::uint64_t wrId, std::uint32_t stag, std::uint64_t offset,
                             std::uint32_t length, std::uint32_t remoteStag,
                             std::uint64_t remoteOffset) {
  Side& s = *sides_[host];
  if (!s.fullOperation) {
    s.waiting.push_back(
        [=, this] { postWrite(host, wrId, stag, offset, length, remoteStag, remoteOffset); });
    return;
  }
  notePosted(host, wrId, WrOpcode::RdmaWrite, length);
  const auto mem = memory(host, stag);
  if (s.error || offset + length > mem.size()) {
    complete(host, wrId, WcOpcode::RdmaWrite, s.error ? WcStatus::WrFlushErr : WcStatus::LocProtErr,
             0);
    return;
  }
  packets::DdpSegmentHeader header;
  header.opcode = RdmapOpcode::Write;
  header.stag = remoteStag;
  header.taggedOffset = remoteOffset;
  queueMessage(host, header, mem.subspan(offset, length), wrId, true, WcOpcode::RdmaWrite);
}

void IwarpSession::postRead(int host, std::uint64_t wrId, std::uint32_t stag, std::uint64_t offset,
                            std::uint32_t length, std::uint32_t remoteStag,
                            std::uint64_t remoteOffset) {
  Side& s = *sides_[host];
  if (!s.fullOperation) {
    s.waiting.push_back(
        [=, this] { postRead(host, wrId, stag, offset, length, remoteStag, remoteOffset); });
    return;
  }
  notePosted(host, wrId, WrOpcode::RdmaRead, length);
  const auto mem = memory(host, stag);
  if (s.error || offset + length > mem.size()) {
    complete(host, wrId, WcOpcode::RdmaRead, s.error ? WcStatus::WrFlushErr : WcStatus::LocProtErr,
             0);
    return;
  }
  s.reads.push_back({wrId, stag, offset, length, 0});
  packets::ReadRequestHeader rr;
  rr.sinkStag = stag;
  rr.sinkTaggedOffset = offset;
  rr.readSize = length;
  rr.sourceStag = remoteStag;
  rr.sourceTaggedOffset = remoteOffset;
  packets::DdpSegmentHeader header;
  header.opcode = RdmapOpcode::ReadRequest;
  header.queue = packets::kDdpQueueReadRequest;
  queueMessage(host, header, packets::encodeReadRequest(rr), wrId, false, WcOpcode::RdmaRead);
}

}  // namespace rdmascope::sim
