#include "rdmascope/ui/ceph_recording.h"

#include <QtGlobal>
#include <algorithm>

#include "rdmascope/sim/network.h"
#include "rdmascope/ui/dissection_cache.h"

namespace rdmascope::ui {

namespace {

using CK = sim::CephStepKind;

std::vector<ScenarioPhase> phasesOf(sim::CephStack stack) {
  if (stack == sim::CephStack::Rdma)
    return {
        {QT_TRANSLATE_NOOP("ScenarioNarration",
                           "Connect: TCP side channel, QP information, shared receive queue"),
         QT_TRANSLATE_NOOP(
             "ScenarioNarration",
             "The client connects a TCP socket to the OSD's port 6800; both post registered "
             "128 KiB chunks to their shared receive queue and swap their QP information as "
             "fixed text messages over the socket, then move their RC QPs to RTR and RTS.")},
        {QT_TRANSLATE_NOOP("ScenarioNarration", "Send three messages of 300 KiB as SENDs"),
         QT_TRANSLATE_NOOP(
             "ScenarioNarration",
             "The client copies each message's bufferlist into registered send chunks and posts "
             "one signalled SEND per chunk; the OSD's NIC places each SEND into a chunk of its "
             "SRQ, and the OSD's CPU copies it out to the reader and reposts the chunk.")},
        {QT_TRANSLATE_NOOP("ScenarioNarration", "Close: a zero-length SEND"),
         QT_TRANSLATE_NOOP("ScenarioNarration",
                           "close() posts a SEND without payload; its receive completion of "
                           "length 0 tells the OSD that the client closed. Then the side "
                           "channel's socket closes.")}};
  return {{QT_TRANSLATE_NOOP("ScenarioNarration", "Connect: the TCP three-way handshake"),
           QT_TRANSLATE_NOOP("ScenarioNarration",
                             "The client connects to the OSD's port 6800: SYN, SYN-ACK, ACK.")},
          {QT_TRANSLATE_NOOP("ScenarioNarration",
                             "Send three messages of 300 KiB with send() and recv()"),
           QT_TRANSLATE_NOOP(
               "ScenarioNarration",
               "Each send() copies the message into the client's socket send buffer; the "
               "kernels carry it as TCP segments; each recv() copies it out of the OSD's socket "
               "receive buffer.")},
          {QT_TRANSLATE_NOOP("ScenarioNarration", "Close the connection"),
           QT_TRANSLATE_NOOP("ScenarioNarration", "Both sides close: FIN and ACK each way.")}};
}

// The TCP payload of an Ethernet/IPv4 frame, or an empty range.
std::pair<std::size_t, std::size_t> tcpPayload(const std::vector<std::uint8_t>& f) {
  if (f.size() < 14 + 20 + 20 || f[12] != 0x08 || f[13] != 0x00) return {0, 0};
  const std::size_t ip = 14;
  const std::size_t ihl = (f[ip] & 0x0f) * 4u;
  if (f[ip + 9] != 6 || f.size() < ip + ihl + 20) return {0, 0};
  const std::size_t total = (std::size_t{f[ip + 2]} << 8) | f[ip + 3];
  const std::size_t tcp = ip + ihl;
  const std::size_t off = tcp + (f[tcp + 12] >> 4) * 4u;
  const std::size_t end = std::min(f.size(), ip + total);
  return off < end ? std::make_pair(off, end - off) : std::make_pair(off, std::size_t{0});
}

bool isRoce(const std::vector<std::uint8_t>& f) {
  return f.size() > 14 + 20 && f[12] == 0x08 && f[13] == 0x00 && f[14 + 9] == 17;
}

}  // namespace

std::uint32_t cephSendPayload(const std::vector<std::uint8_t>& f) {
  if (!isRoce(f)) return 0;
  const auto s = sim::summarizeFrame(sim::WireFormat::RoceV2Ipv4, f);
  if (!s.ok || s.opcode > 5) return 0;  // RC SEND First .. Only with Immediate
  const std::size_t ipTotal = (std::size_t{f[14 + 2]} << 8) | f[14 + 3];
  const std::size_t headers = 20 + 8 + 12 + 4 + s.pad + (s.hasImm ? 4 : 0);
  return ipTotal > headers ? static_cast<std::uint32_t>(ipTotal - headers) : 0;
}

namespace {

struct Item {
  std::int64_t ps = 0;
  int order = 0;  // at the same time: steps, frames, placements
  std::size_t index = 0;
};

}  // namespace

const std::vector<ScenarioInfo>& cephScenarios() {
  static const std::vector<ScenarioInfo> list = {
      {"ceph-messenger",
       QT_TRANSLATE_NOOP("ScenarioNarration",
                         "Ceph messenger, RDMA stack: QP info over TCP, SRQ chunks, SENDs"),
       QT_TRANSLATE_NOOP(
           "ScenarioNarration",
           "Ceph's async messenger (async+rdma) sends three 300 KiB messages from a client to "
           "an OSD: QP information over a TCP side channel, registered 128 KiB chunks in a "
           "shared receive queue, the bufferlist copied into send chunks and sent as signalled "
           "SENDs, received chunks copied out and reposted, a zero-length SEND as the close")},
      {"ceph-messenger-tcp",
       QT_TRANSLATE_NOOP("ScenarioNarration",
                         "Ceph messenger, POSIX stack: the same messages over TCP sockets"),
       QT_TRANSLATE_NOOP(
           "ScenarioNarration",
           "Ceph's async messenger (async+posix) sends the same three 300 KiB messages from a "
           "client to an OSD over a TCP socket: send() copies into the socket buffer, recv() "
           "copies out of it")},
  };
  return list;
}

bool isCephScenario(const std::string& id) {
  return id == "ceph-messenger" || id == "ceph-messenger-tcp";
}

double cephStepCpuNs(const sim::CephStep& s, const sim::HostCostSettings& c) {
  const auto copy = [&] { return static_cast<double>(s.bytes) * 1e9 / c.memcpyBytesPerSec; };
  switch (s.kind) {
    case CK::QpInfoSent:
    case CK::QpInfoReceived:
    case CK::SocketSend:
    case CK::SocketRecv:
      return c.syscallNs;
    case CK::Notified:
      return 2 * c.syscallNs;  // eventfd write by the dispatcher, read by the worker
    case CK::CopyIntoChunk:
    case CK::CopyOut:
    case CK::SocketCopyIn:
    case CK::SocketCopyOut:
      return copy();
    case CK::ReceivesPosted:
    case CK::PostSend:
      return c.doorbellNs * s.chunks;
    case CK::ChunkReposted:
    case CK::FinSent:
      return c.doorbellNs;
    case CK::SendCompletion:
    case CK::RecvCompletion:
      return c.pollCqNs;
    default:
      return 0;
  }
}

void applyCephStep(const sim::CephStep& s, const sim::HostCostSettings& costs, CephHostState& st) {
  st.cpuNs += cephStepCpuNs(s, costs);
  switch (s.kind) {
    case CK::ReceivesPosted:
      st.srqPosted += s.chunks;
      break;
    case CK::QpInfoSent:
      st.qpInfoSent = true;
      ++st.syscalls;
      break;
    case CK::QpInfoReceived:
      st.qpInfoReceived = true;
      ++st.syscalls;
      break;
    case CK::QpReady:
      st.qpReady = true;
      break;
    case CK::MessageSubmitted:
      ++st.messagesSent;
      break;
    case CK::ChunkTaken:
      if (st.sendPoolFree > 0) --st.sendPoolFree;
      break;
    case CK::CopyIntoChunk:
    case CK::CopyOut:
    case CK::SocketCopyIn:
    case CK::SocketCopyOut:
      ++st.copies;
      st.copyBytes += s.bytes;
      break;
    case CK::ChunkInPlace:
      st.zeroCopyBytes += s.bytes;
      break;
    case CK::PostSend:
      st.sends += s.chunks;
      break;
    case CK::SendCompletion:
      ++st.polled;
      break;
    case CK::ChunkReturned:
      st.sendPoolFree = std::min(st.sendPool, st.sendPoolFree + 1);
      break;
    case CK::RecvCompletion:
      ++st.polled;
      if (st.srqPosted > 0) --st.srqPosted;
      ++st.chunksHeld;
      break;
    case CK::Notified:
      st.syscalls += 2;
      break;
    case CK::ChunkReposted:
      ++st.srqPosted;
      if (st.chunksHeld > 0) --st.chunksHeld;
      ++st.reposted;
      break;
    case CK::MessageDelivered:
      ++st.messagesDelivered;
      break;
    case CK::FinSent:
      ++st.sends;
      st.closed = true;
      break;
    case CK::FinReceived:
    case CK::SocketClosed:
      st.closed = true;
      break;
    case CK::SocketSend:
    case CK::SocketRecv:
      ++st.syscalls;
      break;
    case CK::SideChannelConnected:
    case CK::PoolEmpty:
      break;
  }
}

bool recordCephScenario(const std::string& id, ScenarioRecording& out, FrameStore& frames,
                        std::string& error) {
  if (!isCephScenario(id)) {
    error = "'" + id + "' is not a Ceph messenger scenario";
    return false;
  }
  const sim::CephStack stack =
      id == "ceph-messenger-tcp" ? sim::CephStack::Posix : sim::CephStack::Rdma;
  sim::CephMessengerOptions o;
  o.trace = stack == sim::CephStack::Rdma;  // the NIC's DMA writes into the OSD's chunks
  const auto run = sim::runCephMessenger(stack, o, error);
  if (!run) return false;

  out = startRecording(
      stack == sim::CephStack::Rdma ? RecordingTransport::CephRdma : RecordingTransport::CephPosix,
      id, cephScenarios(), {"client", "osd"});
  out.phases = phasesOf(stack);
  if (!run->dataIntact) out.problem = "the OSD does not hold the bytes the client sent";

  // Frames in time order (RoCEv2 and the TCP side channel merged, as the run reports them);
  // the simulator's RoCE frame numbers map onto them in order.
  frames.clear(packets::LinkType::Ethernet);
  // The SEND packets with payload each host received, in order: the NIC places each into the
  // receiver's chunk in that order (RC delivers in order; the model loses nothing).
  std::array<std::vector<std::size_t>, 2> payloadFrames;
  for (std::size_t i = 0; i < run->frames.size(); ++i) {
    frames.append(run->frames[i].bytes, run->frames[i].timePs / 1000);
    if (cephSendPayload(run->frames[i].bytes) > 0)
      payloadFrames[run->frames[i].fromHost == 1 ? 0 : 1].push_back(i);
  }
  std::array<std::size_t, 2> placements{};
  // The NIC's placements of SEND payloads into the receiver's chunks.
  std::vector<const sim::TraceEvent*> placed;
  for (const auto& e : run->trace)
    if (e.kind == sim::TraceKind::MemoryWritten) placed.push_back(&e);

  std::vector<Item> items;
  for (std::size_t i = 0; i < run->steps.size(); ++i)
    items.push_back({run->steps[i].time.picos(), 0, i});
  for (std::size_t i = 0; i < run->frames.size(); ++i)
    items.push_back({run->frames[i].timePs, 1, i});
  for (std::size_t i = 0; i < placed.size(); ++i)
    items.push_back({placed[i]->time.picos(), 2, i});
  std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    return a.ps != b.ps ? a.ps < b.ps : a.order < b.order;
  });

  std::array<TransportHostState, 2> state{};
  for (int h = 0; h < 2; ++h) {
    CephHostState& c = state[static_cast<std::size_t>(h)].ceph;
    if (stack == sim::CephStack::Rdma) {
      c.chunkBytes = o.bufferSize;
      c.sendPool = c.sendPoolFree = o.sendBuffers;
      c.srqDepth = o.receiveBuffers;
    }
    c.run = run->hosts[static_cast<std::size_t>(h)];
  }
  std::size_t phase = 0;
  for (const Item& it : items) {
    ScenarioEvent ev;
    if (it.order == 0) {
      const sim::CephStep& s = run->steps[it.index];
      ev.ceph = s;
      ev.host = s.host;
      ev.trace.kind = sim::TraceKind::Note;
      ev.trace.time = s.time;
      ev.trace.host = out.hostNames[static_cast<std::size_t>(s.host)];
      ev.trace.qpn = s.qpn;
      ev.trace.args.text = sim::describe(s);
      if (s.kind == CK::MessageSubmitted && phase == 0) phase = 1;
      if ((s.kind == CK::FinSent || s.kind == CK::SocketClosed) && phase == 1) phase = 2;
      applyCephStep(s, o.costs, state[static_cast<std::size_t>(s.host)].ceph);
    } else if (it.order == 1) {
      const sim::TcpCapturedFrame& f = run->frames[it.index];
      ev.host = f.fromHost;
      ev.frame = static_cast<std::int64_t>(it.index);
      ev.trace.kind = sim::TraceKind::FrameSent;
      ev.trace.time = sim::SimTime::ps(f.timePs);
      ev.trace.host = out.hostNames[static_cast<std::size_t>(f.fromHost == 1 ? 1 : 0)];
      ev.trace.frameNumber = it.index + 1;
      ev.trace.length = static_cast<std::uint32_t>(f.bytes.size());
      if (isRoce(f.bytes)) {
        const auto sum = sim::summarizeFrame(sim::WireFormat::RoceV2Ipv4, f.bytes);
        ev.trace.psn = sum.psn;
        ev.trace.qpn = sum.destQp;
        ev.trace.args.opcode = sum.opcode;
        if (sum.opcode <= 5) ev.trace.args.bytes = cephSendPayload(f.bytes);
      }
    } else {
      const sim::TraceEvent& e = *placed[it.index];
      ev.trace = e;
      ev.trace.bytes.clear();
      ev.host = e.host == "client" ? 0 : e.host == "osd" ? 1 : -1;
      ev.trace.frameNumber = 0;
      if (ev.host >= 0) {
        const auto h = static_cast<std::size_t>(ev.host);
        if (placements[h] < payloadFrames[h].size()) {
          const std::size_t f = payloadFrames[h][placements[h]++];
          ev.frame = static_cast<std::int64_t>(f);
          ev.trace.frameNumber = f + 1;
        }
      }
    }
    ev.phase = phase;
    out.events.push_back(std::move(ev));
    out.hostStates.push_back(state);
  }

  // Ladder labels: the packet list's Info column for TCP, the opcode and PSN for RoCE, and the
  // side channel's QP information as its text.
  DissectionCache cache(&frames, 16);
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const auto& bytes = run->frames[i].bytes;
    std::string label;
    const auto [off, len] = tcpPayload(bytes);
    if (len == sim::kCephQpInfoBytes) {
      const std::string text(reinterpret_cast<const char*>(bytes.data() + off), len - 1);
      if (sim::parseCephQpInfo(text)) label = "QP info " + text.substr(0, 32) + "...";
    }
    if (label.empty() && isRoce(bytes)) {
      // Short enough for the ladder's arrow: the opcode and the PSN.
      const auto sum = sim::summarizeFrame(sim::WireFormat::RoceV2Ipv4, bytes);
      std::string name = sum.opcodeName;
      if (name.rfind("RC ", 0) == 0) name = name.substr(3);
      if (sum.ok) label = name + " PSN=" + std::to_string(sum.psn);
    }
    if (label.empty()) {
      const auto d = cache.get(i);
      label = d ? d->summary.info : std::string();
    }
    if (label.size() > 60) label = label.substr(0, 57) + "...";
    out.frameLabels.push_back(std::move(label));
  }
  return true;
}

}  // namespace rdmascope::ui
