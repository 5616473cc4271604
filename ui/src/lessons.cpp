#include <QtGlobal>
#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <set>

#include "rdmascope/packets/ib_opcodes.h"
#include "rdmascope/ui/lesson.h"

namespace rdmascope::ui {

namespace {

using K = CheckpointKind;
using sim::Narrative;
using sim::TraceKind;

EventMatch frameSent(int host = -1, std::string_view opcode = {}) {
  EventMatch m;
  m.kind = TraceKind::FrameSent;
  m.host = host;
  m.opcodeContains = opcode;
  return m;
}

EventMatch frameThatIs(std::string_view fate, int host = -1) {
  EventMatch m = frameSent(host);
  m.fate = fate;
  return m;
}

EventMatch ofKind(TraceKind kind, int host = -1) {
  EventMatch m;
  m.kind = kind;
  m.host = host;
  return m;
}

EventMatch saying(Narrative what, int host = -1) {
  EventMatch m;
  m.what = what;
  m.host = host;
  return m;
}

EventMatch note(std::string_view text, int host = -1) {
  EventMatch m;
  m.kind = TraceKind::Note;
  m.textContains = text;
  m.host = host;
  return m;
}

EventMatch cephStep(sim::CephStepKind kind, int host = -1) {
  EventMatch m;
  m.ceph = kind;
  m.host = host;
  return m;
}

std::vector<LessonSpec> makeLessons() {
  std::vector<LessonSpec> l;
  l.push_back(
      {"tcp-copies",
       QT_TRANSLATE_NOOP("Lesson", "1. TCP copies"),
       "tcp-stream",
       QT_TRANSLATE_NOOP(
           "Lesson",
           "An application sends 64 KiB over an ordinary TCP socket. send() copies the bytes from "
           "the application's buffer into the kernel's socket send buffer, the kernel's TCP/IP "
           "stack cuts them into segments, and on the other side recv() copies them out of the "
           "socket receive buffer again. Watch who does each copy."),
       QT_TRANSLATE_NOOP("Lesson",
                         "Every byte was copied twice by a CPU, and every send() and recv() "
                         "crossed into the kernel. RDMA removes both: that is the next lesson."),
       {{K::Cpu, saying(Narrative::TcpCopy, 0),
         QT_TRANSLATE_NOOP("Lesson",
                           "The application has called send(). Who copies its bytes into the "
                           "socket send buffer?"),
         QT_TRANSLATE_NOOP("Lesson",
                           "send() runs in the kernel, on the sending host's processor.")},
        {K::Cpu, saying(Narrative::TcpCopy, 1),
         QT_TRANSLATE_NOOP("Lesson",
                           "Segments have arrived at host B. Who copies them into the "
                           "application's buffer?"),
         QT_TRANSLATE_NOOP("Lesson",
                           "recv() copies out of the socket receive buffer in the "
                           "kernel.")},
        {K::Sender, frameSent(1), QT_TRANSLATE_NOOP("Lesson", "Which host sends the next frame?"),
         QT_TRANSLATE_NOOP("Lesson", "TCP acknowledges what it has received.")}}});
  l.push_back(
      {"rdma-idea",
       QT_TRANSLATE_NOOP("Lesson", "2. The RDMA idea"),
       "rc-write",
       QT_TRANSLATE_NOOP(
           "Lesson",
           "RDMA lets the network card move data straight between registered application "
           "buffers: no copy through the kernel (zero-copy), no system call on the data path "
           "(kernel bypass), and the transport runs on the NIC (CPU offload). Here host A writes "
           "8 KiB into host B's memory with an RDMA WRITE. Whose CPU takes part?"),
       QT_TRANSLATE_NOOP("Lesson",
                         "Host A's CPU only posted the work request and later found its "
                         "completion; host B's CPU did nothing at all. The NICs read, sent, "
                         "wrote and completed."),
       {{K::Cpu, note("ibv_post_send", 0),
         QT_TRANSLATE_NOOP("Lesson",
                           "Host A's application starts the transfer. Whose CPU posts the work "
                           "request?"),
         QT_TRANSLATE_NOOP("Lesson",
                           "A verbs call is an ordinary function call in the "
                           "application's process.")},
        {K::Cpu, ofKind(TraceKind::MemoryRead, 0),
         QT_TRANSLATE_NOOP("Lesson",
                           "The data must leave host A's buffer. Who reads it from memory?"),
         QT_TRANSLATE_NOOP("Lesson", "The buffer is registered: the NIC may read it by DMA.")},
        {K::Cpu, ofKind(TraceKind::MemoryWritten, 1),
         QT_TRANSLATE_NOOP("Lesson",
                           "The first packet has reached host B. Who puts its payload into host "
                           "B's memory?"),
         QT_TRANSLATE_NOOP("Lesson", "Nothing runs on host B for a one-sided WRITE.")},
        {K::Cpu, ofKind(TraceKind::CqeProduced, 0),
         QT_TRANSLATE_NOOP("Lesson", "Who writes the completion into host A's completion queue?"),
         QT_TRANSLATE_NOOP("Lesson",
                           "The application only polls the CQ; something else fills "
                           "it.")}}});
  l.push_back(
      {"three-stacks",
       QT_TRANSLATE_NOOP("Lesson", "3. The three stacks"),
       "rc-send-recv",
       QT_TRANSLATE_NOOP(
           "Lesson",
           "The same transport, the InfiniBand BTH with its QP number and PSN, travels on three "
           "stacks: native InfiniBand (LRH, GRH when routed), RoCE v1 (Ethernet, GRH) and RoCE v2 "
           "(Ethernet, IP, UDP port 4791). The Transport box in the toolbar picks one; the lesson "
           "restarts when you change it."),
       QT_TRANSLATE_NOOP("Lesson",
                         "Whatever carried it, the BTH was the same: the RDMA transport does not "
                         "care which network is below. Try another Transport and see."),
       {{K::Stack, frameSent(),
         QT_TRANSLATE_NOOP("Lesson", "Which headers will the first packet carry, outermost first?"),
         QT_TRANSLATE_NOOP("Lesson", "Look at the Transport chosen in the toolbar.")},
        {K::Psn, frameSent(),
         QT_TRANSLATE_NOOP("Lesson",
                           "The BTH numbers every packet. Which PSN will the second packet "
                           "carry?"),
         QT_TRANSLATE_NOOP("Lesson",
                           "The first packet's PSN is in the packet list; each packet adds one.")},
        {K::Sender, frameSent(1), QT_TRANSLATE_NOOP("Lesson", "Which host sends the next packet?"),
         QT_TRANSLATE_NOOP("Lesson", "Reliable Connected: someone must acknowledge.")}}});
  l.push_back(
      {"verbs-workflow",
       QT_TRANSLATE_NOOP("Lesson", "4. The verbs workflow"),
       "tour",
       QT_TRANSLATE_NOOP(
           "Lesson",
           "Every verbs program follows the same steps: allocate a protection domain, register "
           "memory (and get its lkey and rkey), create the completion and queue pairs, exchange "
           "QP number, PSN, GID (and address and rkey) with the peer over an ordinary TCP "
           "connection, move the QP through INIT, RTR and RTS, then post work requests and poll "
           "for their completions."),
       QT_TRANSLATE_NOOP("Lesson",
                         "That is the whole workflow. The rest of the tour shows SEND, WRITE, "
                         "READ and an RNR NAK: the next lessons take them one at a time."),
       {{K::Verb, note("ibv_reg_mr", 0),
         QT_TRANSLATE_NOOP("Lesson",
                           "Host A has its protection domain. Which verbs call comes next?"),
         QT_TRANSLATE_NOOP("Lesson",
                           "The NIC may only touch memory it has been given keys "
                           "for.")},
        {K::QpState, saying(Narrative::QpStateChanged, 0),
         QT_TRANSLATE_NOOP("Lesson",
                           "Host A calls ibv_modify_qp for the first time. Which state does its "
                           "QP enter?"),
         QT_TRANSLATE_NOOP("Lesson", "A new QP is in RESET and moves one state at a time.")},
        {K::QpState, saying(Narrative::QpStateChanged, 0),
         QT_TRANSLATE_NOOP("Lesson",
                           "Host A now knows host B's QP number and PSN. Which state does its QP "
                           "enter?"),
         QT_TRANSLATE_NOOP("Lesson", "The responder side is set up first: ready to receive.")},
        {K::Psn, frameSent(0),
         QT_TRANSLATE_NOOP("Lesson",
                           "Host A posts its first SEND. Which PSN will its first packet carry?"),
         QT_TRANSLATE_NOOP("Lesson",
                           "Host A announced its starting PSN in the exchange over TCP.")}}});
  l.push_back(
      {"send-recv",
       QT_TRANSLATE_NOOP("Lesson", "5. SEND and RECV"),
       "rc-send-recv",
       QT_TRANSLATE_NOOP(
           "Lesson",
           "SEND is two-sided: the receiver must have posted a receive work request saying where "
           "the message goes. Host A sends 3000 bytes at a path MTU of 1024, so the message "
           "travels as several packets."),
       QT_TRANSLATE_NOOP("Lesson",
                         "Both sides took part: host B posted the receive and got a completion "
                         "for it, host A got one when the ACK came back."),
       {{K::Cpu, note("ibv_post_recv", 1),
         QT_TRANSLATE_NOOP("Lesson",
                           "Before anything is sent, a receive buffer must be posted. Whose CPU "
                           "posts it?"),
         QT_TRANSLATE_NOOP("Lesson",
                           "The receive buffer belongs to the receiving "
                           "application.")},
        {K::Opcode, frameSent(0),
         QT_TRANSLATE_NOOP("Lesson", "Which opcode will the first packet carry?"),
         QT_TRANSLATE_NOOP("Lesson", "3000 bytes do not fit in one 1024-byte packet.")},
        {K::Psn, frameSent(0),
         QT_TRANSLATE_NOOP("Lesson", "Which PSN will the second packet carry?"),
         QT_TRANSLATE_NOOP("Lesson", "Each packet of the message takes the next PSN.")},
        {K::Opcode, frameSent(0),
         QT_TRANSLATE_NOOP("Lesson", "Which opcode will the third packet carry?"),
         QT_TRANSLATE_NOOP("Lesson", "1024 + 1024 + 952 = 3000.")},
        {K::Cpu, ofKind(TraceKind::CqeProduced, 1),
         QT_TRANSLATE_NOOP("Lesson", "Who writes the receive completion into host B's CQ?"),
         QT_TRANSLATE_NOOP("Lesson", "Completions are written like data: by DMA.")},
        {K::Reply, frameSent(1),
         QT_TRANSLATE_NOOP("Lesson", "The whole message arrived. Will the responder ACK?"),
         QT_TRANSLATE_NOOP("Lesson",
                           "A receive WQE was posted and every PSN arrived in order.")}}});
  l.push_back(
      {"read",
       QT_TRANSLATE_NOOP("Lesson", "6. RDMA READ"),
       "rc-read",
       QT_TRANSLATE_NOOP(
           "Lesson",
           "READ is one-sided and pulls: host A names an address and rkey of host B's memory "
           "and host B's NIC sends the data back. One READ REQUEST reserves a PSN for every "
           "response packet."),
       QT_TRANSLATE_NOOP("Lesson",
                         "Host B's application never noticed: no receive, no completion on host "
                         "B."),
       {{K::Opcode, frameSent(0),
         QT_TRANSLATE_NOOP("Lesson", "Which opcode will host A's first packet carry?"),
         QT_TRANSLATE_NOOP("Lesson", "Host A asks; it does not send the data.")},
        {K::Cpu, ofKind(TraceKind::MemoryRead, 1),
         QT_TRANSLATE_NOOP("Lesson",
                           "The request reached host B. Who reads the requested "
                           "bytes?"),
         QT_TRANSLATE_NOOP("Lesson", "The rkey authorised host B's NIC, not its CPU.")},
        {K::Sender, frameSent(), QT_TRANSLATE_NOOP("Lesson", "Which host sends the next packet?"),
         QT_TRANSLATE_NOOP("Lesson", "A READ pulls: the data flows towards the requester.")},
        {K::Psn, frameSent(),
         QT_TRANSLATE_NOOP("Lesson", "Which PSN will the next READ RESPONSE carry?"),
         QT_TRANSLATE_NOOP("Lesson",
                           "Responses use the PSNs the request reserved, starting at the "
                           "request's own.")},
        {K::Cpu, ofKind(TraceKind::MemoryWritten, 0),
         QT_TRANSLATE_NOOP("Lesson", "Who writes the response data into host A's buffer?"),
         QT_TRANSLATE_NOOP("Lesson", "The same DMA as a WRITE, the other way round.")}}});
  l.push_back(
      {"write",
       QT_TRANSLATE_NOOP("Lesson", "7. RDMA WRITE"),
       "rc-write",
       QT_TRANSLATE_NOOP("Lesson",
                         "WRITE is one-sided and pushes: host A sends 8 KiB to an address and "
                         "rkey of host B's memory, which it learned in the exchange. The first "
                         "packet carries a RETH with them; no receive WQE is consumed."),
       QT_TRANSLATE_NOOP("Lesson",
                         "Eight packets, one ACK, one completion on host A, nothing on host B's "
                         "CPU."),
       {{K::Opcode, frameSent(0),
         QT_TRANSLATE_NOOP("Lesson", "Which opcode will the first packet carry?"),
         QT_TRANSLATE_NOOP("Lesson", "8 KiB at MTU 1024 is eight packets.")},
        {K::Psn, frameSent(0), QT_TRANSLATE_NOOP("Lesson", "Which PSN will the next packet carry?"),
         QT_TRANSLATE_NOOP("Lesson", "One more than the first.")},
        {K::Opcode, frameSent(0, "last"),
         QT_TRANSLATE_NOOP("Lesson", "Which opcode ends the message?"),
         QT_TRANSLATE_NOOP("Lesson", "Only the first packet carries the RETH.")},
        {K::Cpu, ofKind(TraceKind::MemoryWritten, 1),
         QT_TRANSLATE_NOOP("Lesson", "Who writes the data into host B's memory?"),
         QT_TRANSLATE_NOOP("Lesson", "Host B posted nothing for this transfer.")},
        {K::Reply, frameSent(1),
         QT_TRANSLATE_NOOP("Lesson", "The last packet asked for an ACK. Will the responder ACK?"),
         QT_TRANSLATE_NOOP("Lesson",
                           "Every PSN arrived in order and the rkey allowed remote "
                           "write.")}}});
  l.push_back(
      {"atomics",
       QT_TRANSLATE_NOOP("Lesson", "8. Atomics"),
       "rc-atomic",
       QT_TRANSLATE_NOOP(
           "Lesson",
           "An atomic operation reads, modifies and writes an 8-byte word of remote memory in one "
           "step no other access can split: FETCH_AND_ADD adds, COMPARE_AND_SWAP replaces the word "
           "only if it still holds the expected value. Each returns the word's original value."),
       QT_TRANSLATE_NOOP("Lesson",
                         "The responder's NIC did the arithmetic; the original values came back "
                         "in ATOMIC ACKNOWLEDGE packets."),
       {{K::Opcode, frameSent(0),
         QT_TRANSLATE_NOOP("Lesson", "Which opcode will host A send first?"),
         QT_TRANSLATE_NOOP("Lesson", "The first work request adds.")},
        {K::Cpu, saying(Narrative::AtomicExecuted, 1),
         QT_TRANSLATE_NOOP("Lesson", "Who performs the addition on host B's word?"),
         QT_TRANSLATE_NOOP("Lesson", "Atomics are one-sided, like READ and WRITE.")},
        {K::Opcode, frameSent(1),
         QT_TRANSLATE_NOOP("Lesson", "Which opcode will host B's answer carry?"),
         QT_TRANSLATE_NOOP("Lesson", "The answer must carry the original value.")},
        {K::Opcode, frameSent(0),
         QT_TRANSLATE_NOOP("Lesson", "Which opcode will host A send next?"),
         QT_TRANSLATE_NOOP("Lesson", "The second work request compares and swaps.")}}});
  l.push_back(
      {"errors",
       QT_TRANSLATE_NOOP("Lesson", "9. Errors and retries"),
       "lossy-go-back-n",
       QT_TRANSLATE_NOOP(
           "Lesson",
           "Reliable Connected recovers from loss itself. Host A writes 16 KiB across the PSN "
           "wrap (0xffffff to 0x000000) and the link loses one packet. The responder accepts "
           "only the PSN it expects, NAKs the first gap, and the requester goes back to the lost "
           "PSN and resends from there (go-back-N)."),
       QT_TRANSLATE_NOOP("Lesson",
                         "One lost packet cost a NAK and the resending of every packet after it: "
                         "go-back-N. The rnr-retry, remote-access-error and retry-exceeded "
                         "scenarios show the other errors."),
       {{K::Delivery, frameThatIs("lost"),
         QT_TRANSLATE_NOOP("Lesson", "What becomes of the next packet?"),
         QT_TRANSLATE_NOOP("Lesson", "Look for it among the frames host B receives.")},
        {K::Delivery, frameThatIs("dropped"),
         QT_TRANSLATE_NOOP("Lesson", "What becomes of this packet?"),
         QT_TRANSLATE_NOOP("Lesson", "Host B still waits for the PSN the link lost.")},
        {K::Reply, frameSent(1),
         QT_TRANSLATE_NOOP("Lesson", "Host B sees a gap in the PSNs. How does it answer?"),
         QT_TRANSLATE_NOOP("Lesson", "The responder tells the requester which PSN it expects.")},
        {K::Psn, frameSent(0),
         QT_TRANSLATE_NOOP("Lesson", "Host A got the NAK. Which PSN will its next packet carry?"),
         QT_TRANSLATE_NOOP("Lesson", "Go back to the PSN the NAK names.")}}});
  l.push_back(
      {"iwarp-cm",
       QT_TRANSLATE_NOOP("Lesson", "10. iWARP and rdma_cm"),
       "iwarp-write",
       QT_TRANSLATE_NOOP(
           "Lesson",
           "iWARP runs RDMA over TCP: RDMAP over DDP over MPA over a TCP connection. The "
           "connection is made with rdma_cm: the server binds and listens, the client resolves "
           "the address and route and connects, and MPA's request and reply start the stream."),
       QT_TRANSLATE_NOOP("Lesson",
                         "The data was placed directly into host B's buffer by DDP: zero-copy "
                         "even though TCP carried it."),
       {{K::Verb, saying(Narrative::RdmaCmBind, 1),
         QT_TRANSLATE_NOOP("Lesson", "Host B is the server. Which rdma_cm call comes next?"),
         QT_TRANSLATE_NOOP("Lesson", "A server first names the address it serves.")},
        {K::Verb, saying(Narrative::RdmaCmResolve, 0),
         QT_TRANSLATE_NOOP("Lesson", "Which rdma_cm call does host A make next?"),
         QT_TRANSLATE_NOOP("Lesson", "A client must find the server before it connects.")},
        {K::Sender, frameSent(), QT_TRANSLATE_NOOP("Lesson", "Which host sends the next frame?"),
         QT_TRANSLATE_NOOP("Lesson", "The client opens the TCP connection.")},
        {K::Cpu, ofKind(TraceKind::MemoryWritten, 1),
         QT_TRANSLATE_NOOP("Lesson", "Who places the data into host B's buffer?"),
         QT_TRANSLATE_NOOP("Lesson", "DDP segments name their target buffer.")}}});
  using CK = sim::CephStepKind;
  l.push_back(
      {"ceph",
       QT_TRANSLATE_NOOP("Lesson", "11. Ceph's messenger over RDMA"),
       "ceph-messenger",
       QT_TRANSLATE_NOOP(
           "Lesson",
           "Ceph's async messenger chooses its network stack per messenger: POSIX TCP or RDMA. "
           "Its RDMA stack first swaps QP information as a fixed text message over a TCP side "
           "channel, receives into registered 128 KiB chunks from a shared receive queue, "
           "copies each message's bufferlist into registered send chunks, sends them as "
           "signalled SENDs, copies received chunks out and reposts them, and closes with a "
           "zero-length SEND. A client sends three 300 KiB messages to an OSD."),
       QT_TRANSLATE_NOOP("Lesson",
                         "The messenger keeps its stream semantics over RDMA: one copy on each "
                         "side into and out of registered chunks, but no system call and no "
                         "kernel TCP/IP on the data path. The next lesson sends the same "
                         "messages over its TCP stack."),
       {{K::Cpu, cephStep(CK::QpInfoSent, 0),
         QT_TRANSLATE_NOOP("Lesson",
                           "The TCP side channel is up. Whose CPU writes the client's QP "
                           "information into the socket?"),
         QT_TRANSLATE_NOOP("Lesson",
                           "The QP information is an ordinary text message on an ordinary "
                           "socket.")},
        {K::Sender, frameSent(),
         QT_TRANSLATE_NOOP("Lesson", "Which host sends the next frame on the side channel?"),
         QT_TRANSLATE_NOOP("Lesson", "The side that wrote its QP information first.")},
        {K::Cpu, cephStep(CK::CopyIntoChunk, 0),
         QT_TRANSLATE_NOOP("Lesson",
                           "The client submits a 300 KiB message. Whose CPU copies the "
                           "bufferlist into the registered send chunk?"),
         QT_TRANSLATE_NOOP("Lesson",
                           "The bufferlist lies in ordinary memory, which the NIC may not "
                           "read.")},
        {K::Opcode, frameSent(0, "send"),
         QT_TRANSLATE_NOOP("Lesson", "Which opcode carries the first bytes of the chunk?"),
         QT_TRANSLATE_NOOP("Lesson",
                           "Ceph sends its stream two-sided, into posted receives; a 128 KiB "
                           "chunk takes many packets.")},
        {K::Psn, frameSent(0, "send"),
         QT_TRANSLATE_NOOP("Lesson", "Which PSN will the next packet carry?"),
         QT_TRANSLATE_NOOP("Lesson", "Each packet of an RC QP carries the next PSN.")},
        {K::Cpu, ofKind(TraceKind::MemoryWritten, 1),
         QT_TRANSLATE_NOOP("Lesson",
                           "The SEND reaches the OSD. Who places its bytes into the OSD's "
                           "registered chunk?"),
         QT_TRANSLATE_NOOP("Lesson",
                           "The chunk was posted to the shared receive queue before the SEND "
                           "arrived.")},
        {K::Cpu, cephStep(CK::CopyOut, 1),
         QT_TRANSLATE_NOOP("Lesson",
                           "The OSD has polled the receive completion. Whose CPU copies the "
                           "chunk out to the reader?"),
         QT_TRANSLATE_NOOP("Lesson",
                           "The chunk must go back to the shared receive queue; the reader "
                           "keeps the bytes.")},
        {K::Opcode, frameSent(0, "send only"),
         QT_TRANSLATE_NOOP("Lesson",
                           "All three messages are delivered and the client closes. Which "
                           "opcode carries the close?"),
         QT_TRANSLATE_NOOP("Lesson",
                           "RDMA has no FIN: the close is a SEND without payload, which fits "
                           "in one packet.")}}});
  l.push_back(
      {"ceph-tcp",
       QT_TRANSLATE_NOOP("Lesson", "12. Ceph's messenger over TCP"),
       "ceph-messenger-tcp",
       QT_TRANSLATE_NOOP(
           "Lesson",
           "The same three 300 KiB messages from the client to the OSD, with the messenger's "
           "POSIX stack: send() on a TCP socket, the kernel's TCP/IP, recv() at the OSD. "
           "Compare the copies, system calls and CPU time in the host panes with the RDMA "
           "stack's."),
       QT_TRANSLATE_NOOP("Lesson",
                         "Both stacks copy each message once on each side; the TCP stack adds "
                         "system calls, the kernel's TCP/IP work per segment and interrupts, "
                         "which the RDMA stack leaves to the NIC."),
       {{K::Cpu, cephStep(CK::SocketCopyIn, 0),
         QT_TRANSLATE_NOOP("Lesson",
                           "The client has called send() with a 300 KiB message. Whose CPU "
                           "copies it into the socket send buffer?"),
         QT_TRANSLATE_NOOP("Lesson", "send() runs in the kernel, on the sending host.")},
        {K::Sender, frameSent(1), QT_TRANSLATE_NOOP("Lesson", "Which host sends the next frame?"),
         QT_TRANSLATE_NOOP("Lesson", "TCP acknowledges what it has received.")},
        {K::Cpu, cephStep(CK::SocketCopyOut, 1),
         QT_TRANSLATE_NOOP("Lesson",
                           "Segments have reached the OSD. Whose CPU copies them to the "
                           "reader?"),
         QT_TRANSLATE_NOOP("Lesson",
                           "recv() copies out of the socket receive buffer in the kernel.")},
        {K::Sender, frameSent(), QT_TRANSLATE_NOOP("Lesson", "Which host sends the next frame?"),
         QT_TRANSLATE_NOOP("Lesson",
                           "Data still flows from the client, and the OSD acknowledges what it "
                           "has received.")}}});
  return l;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

struct FrameFacts {
  bool ok = false;
  std::uint8_t opcode = 0;
  std::uint32_t psn = 0;
  bool hasAeth = false;
  std::uint8_t syndrome = 0;
};

FrameFacts factsOf(const FrameStore& frames, std::int64_t frame) {
  FrameFacts f;
  if (frame < 0 || static_cast<std::size_t>(frame) >= frames.size()) return f;
  const auto d = frames.decode(static_cast<std::size_t>(frame));
  const auto* op = d.find("infiniband.bth.opcode");
  const auto* psn = d.find("infiniband.bth.psn");
  if (!op || !psn) return f;
  f.ok = true;
  f.opcode = static_cast<std::uint8_t>(op->number);
  f.psn = static_cast<std::uint32_t>(psn->number);
  if (const auto* syn = d.find("infiniband.aeth.syndrome")) {
    f.hasAeth = true;
    f.syndrome = static_cast<std::uint8_t>(syn->number);
  }
  return f;
}

std::string opcodeName(std::uint8_t opcode) {
  const auto* info = packets::ibOpcodeInfo(opcode);
  return info ? std::string(info->name) : "opcode " + std::to_string(opcode);
}

// "host-a: ibv_reg_mr(buf, ...)" -> "ibv_reg_mr"; create_qp is a QpState event.
std::string verbOf(const ScenarioEvent& e) {
  switch (e.trace.what) {
    case Narrative::QpCreated:
      return "ibv_create_qp";
    // The simulated rdma_cm's calls (iWARP): typed events, not notes.
    case Narrative::RdmaCmBind:
      return "rdma_bind_addr";
    case Narrative::RdmaCmListen:
      return "rdma_listen";
    case Narrative::RdmaCmResolve:
      return "rdma_resolve_addr";
    case Narrative::RdmaCmConnect:
      return "rdma_connect";
    case Narrative::RdmaCmAccept:
      return "rdma_accept";
    default:
      break;
  }
  if (e.trace.kind != TraceKind::Note) return {};
  const std::string& t = e.trace.args.text;
  const auto colon = t.find(": ");
  if (colon == std::string::npos) return {};
  const auto start = colon + 2;
  if (t.compare(start, 4, "ibv_") != 0 && t.compare(start, 5, "rdma_") != 0) return {};
  auto end = start;
  while (end < t.size() && (std::isalnum(static_cast<unsigned char>(t[end])) || t[end] == '_'))
    ++end;
  return t.substr(start, end - start);
}

bool cpuEvent(const ScenarioEvent& e) {
  // Every step of Ceph's messenger is its host's software (a copy, a system call, a verbs
  // call, a poll, the pools' bookkeeping); its frames and DMA writes are the NICs'.
  if (e.ceph) return true;
  switch (e.trace.what) {
    case Narrative::TcpCopy:
    case Narrative::TcpSendCall:
    case Narrative::TcpRecvCall:
    case Narrative::TcpTransmitWork:
    case Narrative::TcpInterrupt:
      return true;
    default:
      return !verbOf(e).empty();
  }
}

std::pair<std::string, std::size_t> deliveryOf(const ScenarioRecording& rec, std::size_t at);

bool matches(const EventMatch& m, const ScenarioRecording& rec, std::size_t at,
             const FrameStore& frames) {
  const ScenarioEvent& e = rec.events[at];
  if (!m.fate.empty() &&
      (e.trace.kind != TraceKind::FrameSent || deliveryOf(rec, at).first != m.fate))
    return false;
  if (m.kind && e.trace.kind != *m.kind) return false;
  if (m.ceph && (!e.ceph || e.ceph->kind != *m.ceph)) return false;
  if (m.what && e.trace.what != *m.what) return false;
  if (m.host >= 0 && e.host != m.host) return false;
  if (m.frameNumber && e.trace.frameNumber != m.frameNumber) return false;
  if (!m.textContains.empty() && e.trace.args.text.find(m.textContains) == std::string::npos)
    return false;
  if (!m.opcodeContains.empty()) {
    const auto f = factsOf(frames, e.frame);
    if (!f.ok || lower(opcodeName(f.opcode)).find(lower(m.opcodeContains)) == std::string::npos)
      return false;
  }
  return true;
}

std::string_view kindName(CheckpointKind k) {
  switch (k) {
    case K::Psn:
      return "PSN";
    case K::Opcode:
      return "opcode";
    case K::Sender:
      return "sender";
    case K::Cpu:
      return "CPU";
    case K::Reply:
      return "reply";
    case K::Delivery:
      return "delivery";
    case K::Stack:
      return "stack";
    case K::Verb:
      return "verbs call";
    case K::QpState:
      return "QP state";
  }
  return "?";
}

LessonChoice hostChoice(const ScenarioRecording& rec, int host) {
  return {"host:" + std::to_string(host), "%1", rec.hostNames[static_cast<std::size_t>(host)]};
}

std::string replyKey(const FrameFacts& f) {
  if (!f.hasAeth) return "none";
  switch (f.syndrome >> 5) {
    case 0:
      return "ack";
    case 1:
      return "rnr";
    case 3:
      return "nak:" + std::to_string(f.syndrome & 0x1f);
    default:
      return "reserved";
  }
}

LessonChoice replyChoice(const std::string& key) {
  if (key == "ack")
    return {key, QT_TRANSLATE_NOOP("Lesson", "ACK: everything up to it arrived"), {}};
  if (key == "rnr") return {key, QT_TRANSLATE_NOOP("Lesson", "RNR NAK: receiver not ready"), {}};
  if (key == "nak:0") return {key, QT_TRANSLATE_NOOP("Lesson", "NAK: PSN sequence error"), {}};
  if (key == "nak:1") return {key, QT_TRANSLATE_NOOP("Lesson", "NAK: invalid request"), {}};
  if (key == "nak:2") return {key, QT_TRANSLATE_NOOP("Lesson", "NAK: remote access error"), {}};
  if (key == "nak:3")
    return {key, QT_TRANSLATE_NOOP("Lesson", "NAK: remote operational error"), {}};
  return {key, QT_TRANSLATE_NOOP("Lesson", "A packet without an AETH"), {}};
}

// What becomes of the frame event `at` sends, and the event that shows it.
std::pair<std::string, std::size_t> deliveryOf(const ScenarioRecording& rec, std::size_t at) {
  const auto number = rec.events[at].trace.frameNumber;
  for (std::size_t i = at + 1; i < rec.events.size(); ++i) {
    const auto& e = rec.events[i];
    if (e.trace.frameNumber != number) continue;
    if (e.trace.kind == TraceKind::FrameDropped)
      return {e.trace.what == Narrative::FrameLost ? "lost" : "discarded", i};
    if (e.trace.kind != TraceKind::FrameReceived) continue;
    for (std::size_t j = i + 1; j < rec.events.size(); ++j) {
      if (rec.events[j].host != e.host) continue;
      if (rec.events[j].trace.kind == TraceKind::FrameDropped) return {"dropped", j};
      break;
    }
    return {"accepted", i};
  }
  return {"lost", at};
}

LessonChoice deliveryChoice(const std::string& key) {
  if (key == "accepted")
    return {key, QT_TRANSLATE_NOOP("Lesson", "It arrives and the responder takes it"), {}};
  if (key == "lost") return {key, QT_TRANSLATE_NOOP("Lesson", "The link loses it"), {}};
  if (key == "discarded")
    return {key, QT_TRANSLATE_NOOP("Lesson", "The receiving NIC discards it (a failed check)"), {}};
  return {key,
          QT_TRANSLATE_NOOP("Lesson", "It arrives, but the responder drops it (out of sequence)"),
          {}};
}

constexpr sim::WireFormat kWires[] = {sim::WireFormat::RoceV2Ipv4, sim::WireFormat::RoceV2Ipv6,
                                      sim::WireFormat::RoceV1, sim::WireFormat::InfiniBand};

bool placeOne(const CheckpointSpec& spec, const ScenarioRecording& rec, const FrameStore& frames,
              std::size_t at, Checkpoint& cp, std::string& error) {
  const ScenarioEvent& e = rec.events[at];
  cp.spec = &spec;
  cp.event = at;
  cp.shownAt = at;
  const bool frameEvent = e.trace.kind == TraceKind::FrameSent && e.frame >= 0;
  const FrameFacts facts = frameEvent ? factsOf(frames, e.frame) : FrameFacts{};
  auto needFrame = [&] {
    if (facts.ok) return true;
    error = "its event " + std::to_string(at + 1) + " sends no InfiniBand transport packet";
    return false;
  };
  switch (spec.kind) {
    case K::Psn:
      if (!needFrame()) return false;
      cp.answer = std::to_string(facts.psn);
      return true;
    case K::Opcode: {
      if (!needFrame()) return false;
      cp.answer = std::to_string(facts.opcode);
      // Alternatives: the other opcodes of this run, then the nearest ones of the same
      // transport service; shown in opcode order.
      std::set<std::uint8_t> seen;
      for (const auto& ev : rec.events)
        if (ev.trace.kind == TraceKind::FrameSent)
          if (const auto f = factsOf(frames, ev.frame); f.ok && f.opcode != facts.opcode)
            seen.insert(f.opcode);
      auto byDistance = [&](std::vector<std::uint8_t> v) {
        std::stable_sort(v.begin(), v.end(), [&](std::uint8_t a, std::uint8_t b) {
          return std::abs(a - facts.opcode) < std::abs(b - facts.opcode);
        });
        return v;
      };
      std::vector<std::uint8_t> picked{facts.opcode};
      for (auto op : byDistance({seen.begin(), seen.end()}))
        if (picked.size() < 4) picked.push_back(op);
      std::vector<std::uint8_t> family;
      const auto* info = packets::ibOpcodeInfo(facts.opcode);
      for (const auto& o : packets::kIbOpcodeTable)
        if (info && o.transport == info->transport &&
            std::find(picked.begin(), picked.end(), o.opcode) == picked.end())
          family.push_back(o.opcode);
      for (auto op : byDistance(family))
        if (picked.size() < 4) picked.push_back(op);
      std::sort(picked.begin(), picked.end());
      for (auto op : picked)
        cp.choices.push_back({std::to_string(op), "%1", opcodeName(op)});
      return true;
    }
    case K::Sender:
      if (!frameEvent || e.host < 0) {
        error = "its event " + std::to_string(at + 1) + " sends no frame";
        return false;
      }
      cp.answer = "host:" + std::to_string(e.host);
      cp.choices = {hostChoice(rec, 0), hostChoice(rec, 1)};
      return true;
    case K::Cpu:
      cp.answer = cpuEvent(e) && e.host >= 0 ? "cpu:" + std::to_string(e.host) : "nic";
      for (int h = 0; h < 2; ++h)
        cp.choices.push_back({"cpu:" + std::to_string(h), QT_TRANSLATE_NOOP("Lesson", "%1's CPU"),
                              rec.hostNames[static_cast<std::size_t>(h)]});
      cp.choices.push_back(
          {"nic", QT_TRANSLATE_NOOP("Lesson", "No CPU: the NIC does it on its own"), {}});
      return true;
    case K::Reply: {
      if (!needFrame()) return false;
      cp.answer = replyKey(facts);
      for (const char* k : {"ack", "rnr", "nak:0", "nak:2"})
        cp.choices.push_back(replyChoice(k));
      if (std::none_of(cp.choices.begin(), cp.choices.end(),
                       [&](const LessonChoice& c) { return c.key == cp.answer; }))
        cp.choices.push_back(replyChoice(cp.answer));
      return true;
    }
    case K::Delivery: {
      if (!frameEvent) {
        error = "its event " + std::to_string(at + 1) + " sends no frame";
        return false;
      }
      std::tie(cp.answer, cp.shownAt) = deliveryOf(rec, at);
      for (const char* k : {"accepted", "lost", "discarded", "dropped"})
        cp.choices.push_back(deliveryChoice(k));
      return true;
    }
    case K::Stack: {
      if (!frameEvent) {
        error = "its event " + std::to_string(at + 1) + " sends no frame";
        return false;
      }
      cp.answer = frameStack(frames, static_cast<std::size_t>(e.frame));
      // The alternatives are what the same packet carries on the other wire formats.
      std::set<std::string> stacks{cp.answer};
      for (auto wire : kWires) {
        if (wire == rec.wire) continue;
        ScenarioRecording other;
        FrameStore otherFrames;
        std::string ignored;
        if (recordScenario(rec.name, wire, other, otherFrames, ignored) && !otherFrames.empty())
          stacks.insert(frameStack(otherFrames, 0));
      }
      for (const auto& s : stacks)
        cp.choices.push_back({s, "%1", s});
      return true;
    }
    case K::Verb: {
      cp.answer = verbOf(e);
      if (cp.answer.empty()) {
        error = "its event " + std::to_string(at + 1) + " is not a verbs or rdma_cm call";
        return false;
      }
      std::vector<std::string> others;
      for (const auto& ev : rec.events)
        if (auto v = verbOf(ev); !v.empty() && v != cp.answer &&
                                 std::find(others.begin(), others.end(), v) == others.end())
          others.push_back(v);
      if (others.size() > 3) others.resize(3);
      others.push_back(cp.answer);
      std::sort(others.begin(), others.end());
      for (const auto& v : others)
        cp.choices.push_back({v, "%1", v});
      return true;
    }
    case K::QpState:
      if (e.trace.kind != TraceKind::QpState) {
        error = "its event " + std::to_string(at + 1) + " changes no QP state";
        return false;
      }
      cp.answer = std::string(qpStateName(e.toState));
      for (auto s : {sim::QpState::Reset, sim::QpState::Init, sim::QpState::Rtr, sim::QpState::Rts,
                     sim::QpState::Err})
        cp.choices.push_back({std::string(qpStateName(s)), "%1", std::string(qpStateName(s))});
      return true;
  }
  return false;
}

}  // namespace

const std::vector<LessonSpec>& lessons() {
  static const std::vector<LessonSpec> list = makeLessons();
  return list;
}

const LessonSpec* findLesson(std::string_view id) {
  for (const auto& l : lessons())
    if (l.id == id) return &l;
  return nullptr;
}

bool lessonAvailable(const LessonSpec& lesson) {
  const auto& all = builtInScenarios();
  return std::any_of(all.begin(), all.end(),
                     [&](const ScenarioInfo& s) { return s.id == lesson.scenario; });
}

bool planLesson(const LessonSpec& lesson, const ScenarioRecording& rec, const FrameStore& frames,
                LessonPlan& out, std::string& error) {
  out = {};
  out.lesson = &lesson;
  std::size_t from = 0;
  for (std::size_t k = 0; k < lesson.checkpoints.size(); ++k) {
    const auto& spec = lesson.checkpoints[k];
    std::size_t at = from;
    while (at < rec.events.size() && !matches(spec.before, rec, at, frames))
      ++at;
    const std::string which = "lesson " + std::string(lesson.id) + ": checkpoint " +
                              std::to_string(k + 1) + " (" + std::string(kindName(spec.kind)) + ")";
    if (at == rec.events.size()) {
      error = which + ": no matching event in scenario " + rec.name;
      return false;
    }
    Checkpoint cp;
    std::string why;
    if (!placeOne(spec, rec, frames, at, cp, why)) {
      error = which + ": " + why;
      return false;
    }
    out.checkpoints.push_back(std::move(cp));
    from = at + 1;
  }
  return true;
}

bool checkAnswer(const Checkpoint& checkpoint, std::string_view given) {
  if (checkpoint.spec && checkpoint.spec->kind == K::Psn) {
    std::string s = lower(given);
    s.erase(std::remove_if(s.begin(), s.end(), [](char c) { return std::isspace(c); }), s.end());
    int base = 10;
    if (s.rfind("0x", 0) == 0) {
      s.erase(0, 2);
      base = 16;
    }
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value, base);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return false;
    return std::to_string(value) == checkpoint.answer;
  }
  return given == checkpoint.answer;
}

std::string frameStack(const FrameStore& frames, std::size_t frame) {
  static const std::map<std::string_view, std::string_view> names = {
      {"eth", "Ethernet"},
      {"ip", "IPv4"},
      {"ipv6", "IPv6"},
      {"udp", "UDP"},
      {"tcp", "TCP"},
      {"infiniband.lrh", "LRH"},
      {"infiniband.grh", "GRH"},
      {"infiniband.bth", "BTH"},
      {"iwarp_mpa", "MPA"},
      {"iwarp_ddp_rdmap", "DDP/RDMAP"}};
  const auto d = frames.decode(frame);
  std::string out;
  for (const auto& n : d.nodes) {
    if (n.depth > 1) continue;
    const auto it = names.find(n.key);
    if (it == names.end()) continue;
    if (!out.empty()) out += " / ";
    out += it->second;
  }
  return out;
}

}  // namespace rdmascope::ui
