#include "rdmascope/ui/transport_recording.h"

#include <QtGlobal>
#include <algorithm>

#include "rdmascope/sim/tcp_control_block.h"
#include "rdmascope/sim/transport_scenarios.h"
#include "rdmascope/ui/dissection_cache.h"

namespace rdmascope::ui {

namespace {

using N = sim::Narrative;

bool isConnectionStep(N what) {
  switch (what) {
    case N::RdmaCmBind:
    case N::RdmaCmListen:
    case N::RdmaCmResolve:
    case N::RdmaCmConnect:
    case N::RdmaCmAccept:
    case N::RdmaCmEstablished:
    case N::MpaRequestSent:
    case N::MpaRequestReceived:
    case N::MpaReplySent:
    case N::MpaReplyReceived:
    case N::TcpEstablished:
      return true;
    default:
      return false;
  }
}

// The phases of a transfer: connection setup, the transfer, the close.
std::vector<ScenarioPhase> phasesOf(RecordingTransport t) {
  if (t == RecordingTransport::TcpSockets)
    return {
        {QT_TRANSLATE_NOOP("ScenarioNarration", "Connect: the TCP three-way handshake"),
         QT_TRANSLATE_NOOP(
             "ScenarioNarration",
             "host-b listens, host-a connects: SYN, SYN-ACK, ACK. No application data yet.")},
        {QT_TRANSLATE_NOOP("ScenarioNarration", "Send 64 KiB with send(), receive it with recv()"),
         QT_TRANSLATE_NOOP(
             "ScenarioNarration",
             "Each send() copies from the application buffer into host-a's socket send buffer; "
             "the kernel cuts it into segments; host-b's kernel queues them in its socket "
             "receive buffer and ACKs them; each recv() copies from there into the "
             "application buffer.")},
        {QT_TRANSLATE_NOOP("ScenarioNarration", "Close the connection"),
         QT_TRANSLATE_NOOP("ScenarioNarration", "Both sides close: FIN and ACK each way.")}};
  return {{QT_TRANSLATE_NOOP("ScenarioNarration",
                             "Connect with rdma_cm: bind, listen, connect, accept"),
           QT_TRANSLATE_NOOP(
               "ScenarioNarration",
               "host-b binds and listens, host-a resolves and connects: the RNICs open a TCP "
               "connection, then exchange the MPA Request and Reply (markers, CRC, private data) "
               "before any DDP segment may flow.")},
          {QT_TRANSLATE_NOOP("ScenarioNarration",
                             "Register memory, post the work request, move 64 KiB"),
           QT_TRANSLATE_NOOP(
               "ScenarioNarration",
               "Both hosts register memory (an STag each); the RNIC cuts the message into DDP "
               "segments, each in one MPA FPDU in one TCP segment, and the peer's RNIC places "
               "their payload directly into registered memory: no CPU copy, no system call.")},
          {QT_TRANSLATE_NOOP("ScenarioNarration", "Close the connection"),
           QT_TRANSLATE_NOOP("ScenarioNarration", "The TCP connection below iWARP closes.")}};
}

std::string completionLine(const std::string& host, const sim::IwarpCompletion& c) {
  std::string line = host + " wr_id " + std::to_string(c.wrId) + " ";
  line += std::string(sim::toString(c.status));
  if (c.status != sim::WcStatus::Success) return line;
  return line + " " + std::string(sim::toString(c.opcode)) + " byte_len " +
         std::to_string(c.byteLen);
}

}  // namespace

const std::vector<ScenarioInfo>& transportScenarios() {
  static const std::vector<ScenarioInfo> list = {
      {"tcp-stream",
       QT_TRANSLATE_NOOP("ScenarioNarration", "TCP stream: 64 KiB through send() and recv()"),
       QT_TRANSLATE_NOOP(
           "ScenarioNarration",
           "One 64 KiB transfer over the TCP socket path: send() copies into the socket send "
           "buffer, the kernel sends segments, recv() copies out of the socket receive buffer")},
      {"iwarp-send-recv",
       QT_TRANSLATE_NOOP("ScenarioNarration",
                         "iWARP SEND/RECV of 64 KiB (rdma_cm, MPA, untagged DDP)"),
       QT_TRANSLATE_NOOP(
           "ScenarioNarration",
           "One 64 KiB SEND over iWARP: rdma_cm connects, MPA negotiates, untagged DDP segments "
           "fill the posted receive buffer")},
      {"iwarp-write",
       QT_TRANSLATE_NOOP("ScenarioNarration", "iWARP RDMA WRITE of 64 KiB (tagged DDP)"),
       QT_TRANSLATE_NOOP("ScenarioNarration",
                         "One 64 KiB RDMA WRITE over iWARP: tagged DDP segments name the peer's "
                         "STag and offset")},
      {"iwarp-read",
       QT_TRANSLATE_NOOP("ScenarioNarration",
                         "iWARP RDMA READ of 64 KiB (Read Request, tagged Read Response)"),
       QT_TRANSLATE_NOOP(
           "ScenarioNarration",
           "One 64 KiB RDMA READ over iWARP: a Read Request, answered by tagged Read Response "
           "segments placed into the reader's memory")},
  };
  return list;
}

bool isTransportScenario(const std::string& id) {
  const auto& l = transportScenarios();
  return std::any_of(l.begin(), l.end(), [&](const ScenarioInfo& i) { return i.id == id; });
}

RecordingTransport transportOfScenario(const std::string& id) {
  if (id == "tcp-stream") return RecordingTransport::TcpSockets;
  if (id == "ceph-messenger") return RecordingTransport::CephRdma;
  if (id == "ceph-messenger-tcp") return RecordingTransport::CephPosix;
  if (id.rfind("iwarp-", 0) == 0 && isTransportScenario(id)) return RecordingTransport::Iwarp;
  return RecordingTransport::Verbs;
}

void applyTransportEvent(const sim::TraceEvent& e, TransportHostState& state) {
  SocketBufferState& s = state.socket;
  IwarpHostState& w = state.iwarp;
  const sim::TraceArgs& a = e.args;
  if (isConnectionStep(e.what)) w.connection.push_back(e.what);
  switch (e.what) {
    case N::TcpSendCall:
      ++s.sendCalls;
      s.appSleeping = false;
      break;
    case N::TcpRecvCall:
      ++s.recvCalls;
      s.appSleeping = false;
      break;
    case N::TcpCopy:
      ++s.copies;
      break;
    case N::TcpAppSleeps:
      s.appSleeping = true;
      break;
    case N::TcpWriterWoken:
    case N::TcpReaderWoken:
      s.appSleeping = false;
      break;
    case N::TcpInterrupt:
      ++s.interrupts;
      break;
    case N::TcpSegmentSent:
      ++s.segmentsSent;
      break;
    case N::TcpSocketBuffers: {
      const std::uint64_t change = a.bytes.value_or(0);
      if (e.reason == sim::Reason::CopyIntoSocketBuffer) s.copiedIn += change;
      if (e.reason == sim::Reason::CopyIntoAppBuffer) s.copiedOut += change;
      s.sendQueued = a.sendQueued.value_or(0);
      s.inFlight = a.inFlight.value_or(0);
      s.recvQueued = a.recvQueued.value_or(0);
      break;
    }
    case N::RdmaCmBind:
    case N::RdmaCmListen:
    case N::RdmaCmResolve:
    case N::RdmaCmConnect:
      w.port = a.port.value_or(w.port);
      break;
    case N::MpaRequestReceived:
    case N::MpaReplyReceived:
      w.markers = a.markers.value_or(false);
      w.crc = a.crc.value_or(false);
      break;
    case N::StagRegistered:
      ++w.stagsRegistered;
      break;
    case N::SendPosted:
    case N::RecvPosted:
      ++w.workPosted;
      break;
    case N::DdpSegmentSent:
      ++w.segmentsSent;
      w.bytesSent += a.bytes.value_or(0);
      w.lastOpcode = a.opcode.value_or(0);
      w.lastTagged = a.key.has_value();
      break;
    case N::DdpSegmentPlaced:
      ++w.segmentsPlaced;
      if (e.kind == sim::TraceKind::MemoryWritten) w.bytesPlaced += a.bytes.value_or(0);
      w.lastOpcode = a.opcode.value_or(0);
      w.lastTagged = a.key.has_value();
      break;
    case N::CqeProduced:
      ++w.completions;
      break;
    default:
      break;
  }
  // Bytes the peer acknowledged leave the send buffer; bytes read plus bytes waiting arrived.
  s.acked = s.copiedIn - std::min(s.copiedIn, s.sendQueued);
  s.received = s.copiedOut + s.recvQueued;
}

bool recordTransportScenario(const std::string& id, ScenarioRecording& out, FrameStore& frames,
                             std::string& error) {
  const RecordingTransport transport = transportOfScenario(id);
  if (!isTransportScenario(id)) {
    error = "'" + id + "' is not a transfer over TCP or iWARP";
    return false;
  }
  sim::TransportScenarioOptions o;
  o.trace = true;
  const auto run = sim::runTransportScenario(id, o, error);
  if (!run) return false;

  out = startRecording(transport, id, transportScenarios(), {"host-a", "host-b"});
  out.phases = phasesOf(transport);
  if (!run->dataIntact) out.problem = "the destination does not hold the bytes sent";
  for (const auto& c : run->completions)
    out.completions.push_back(completionLine(c.host == 0 ? "host-a" : "host-b", c));

  frames.clear(packets::LinkType::Ethernet);
  std::array<TransportHostState, 2> state{};
  for (auto& h : state) {
    h.socket.sendCapacity = static_cast<std::uint64_t>(o.costs.sndbufBytes);
    h.socket.recvCapacity = sim::TcpConfig{}.receiveBufferBytes;
    h.socket.message = o.bytes;
  }
  std::size_t phase = 0;
  bool established = false;
  for (const sim::TraceEvent& e : run->trace) {
    ScenarioEvent ev;
    ev.trace = e;
    ev.trace.bytes.clear();
    ev.host = e.host == "host-a" ? 0 : e.host == "host-b" ? 1 : -1;
    if (e.kind == sim::TraceKind::FrameSent) {
      frames.append(e.bytes, e.time.picos() / 1000);
      ev.frame = static_cast<std::int64_t>(frames.size()) - 1;
      // The close begins with the first FIN once the transfer has begun.
      if (phase == 1 && (e.args.tcpFlags.value_or(0) & 0x01) != 0) phase = 2;
    } else if (e.frameNumber > 0 && e.frameNumber <= frames.size()) {
      ev.frame = static_cast<std::int64_t>(e.frameNumber) - 1;
    }
    // The transfer begins with the first step after the connection is up.
    const bool up = transport == RecordingTransport::TcpSockets
                        ? e.what == N::TcpEstablished && ev.host == 1
                        : e.what == N::RdmaCmEstablished && ev.host == 0;
    if (phase == 0 && established && !up) phase = 1;
    if (up) established = true;
    ev.phase = phase;
    if (ev.host >= 0) applyTransportEvent(e, state[static_cast<std::size_t>(ev.host)]);
    out.events.push_back(std::move(ev));
    out.hostStates.push_back(state);
  }
  // Ladder labels: each frame as the packet list's Info column shows it (the stream decode
  // reassembles MPA, DDP and RDMAP over TCP).
  DissectionCache cache(&frames, 16);
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const auto d = cache.get(i);
    std::string label = d ? d->summary.info : std::string();
    if (label.size() > 60) label = label.substr(0, 57) + "...";
    out.frameLabels.push_back(std::move(label));
  }
  return true;
}

}  // namespace rdmascope::ui
