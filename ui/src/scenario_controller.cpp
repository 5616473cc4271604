#include "rdmascope/ui/scenario_controller.h"

#include <QCoreApplication>
#include <algorithm>

#include "rdmascope/sim/narration.h"
#include "rdmascope/ui/event_explanation.h"
#include "rdmascope/ui/fabric_models.h"
#include "rdmascope/ui/host_pane.h"
#include "rdmascope/ui/host_state_models.h"
#include "rdmascope/ui/ladder_view.h"
#include "rdmascope/ui/layer_stacks_view.h"
#include "rdmascope/ui/packet_pane.h"
#include "rdmascope/ui/scenario_narration.h"
#include "rdmascope/ui/transport_host_pane.h"

namespace rdmascope::ui {

namespace {

Stack stackOfWire(sim::WireFormat wire) {
  return wire == sim::WireFormat::InfiniBand || wire == sim::WireFormat::RoceV1 ? Stack::InfiniBand
                                                                                : Stack::RoceV2;
}

// Where an event sits on the RDMA data path of the layer stacks (see layer_stacks.cpp), or -1.
int pathStepOf(const ScenarioEvent& e) {
  using K = sim::TraceKind;
  switch (e.trace.kind) {
    case K::WqePosted:
      return 0;
    case K::WqeStarted:
      return 1;
    case K::MemoryRead:
      return 2;
    case K::WqePacket:
      return 3;
    case K::FrameSent:
    case K::FrameReceived:
    case K::FrameDropped:
      return 4;
    case K::MemoryWritten:
      return 5;
    case K::CqeProduced:
      return 6;
    default:
      return -1;
  }
}

// Where an event of a TCP recording sits on the socket path of the layer stacks (kTcpPath of
// layer_stacks.cpp: 0 send(), 1 copy in, 2 TCP/IP, 3 NIC DMA, 4 wire, 5 NIC DMA and interrupt,
// 6 receive processing, 7 recv(), 8 copy out), or -1.
int tcpPathStepOf(const ScenarioEvent& e) {
  using N = sim::Narrative;
  if (e.ceph) {
    using CK = sim::CephStepKind;
    switch (e.ceph->kind) {
      case CK::SocketSend:
        return 0;
      case CK::SocketCopyIn:
        return 1;
      case CK::SocketRecv:
        return 7;
      case CK::SocketCopyOut:
        return 8;
      default:
        return -1;
    }
  }
  if (e.trace.kind == sim::TraceKind::FrameSent && e.trace.what == N::Text) return 4;
  switch (e.trace.what) {
    case N::TcpSendCall:
      return 0;
    case N::TcpCopy:
      return e.trace.reason == sim::Reason::CopyIntoAppBuffer ? 8 : 1;
    case N::TcpTransmitWork:
      return 2;
    case N::TcpSegmentSent:
      return 4;
    case N::TcpInterrupt:
      return 5;
    case N::TcpSocketBuffers:
      return e.trace.reason == sim::Reason::None ? 6 : -1;
    case N::TcpRecvCall:
      return 7;
    default:
      return -1;
  }
}

}  // namespace

ScenarioController::ScenarioController(FrameStore* store, PacketPane* packets,
                                       std::array<HostPane*, 2> hosts, LadderView* ladder,
                                       LayerStacksView* stacks, EventListModel* events,
                                       QObject* parent)
    : QObject(parent),
      store_(store),
      packets_(packets),
      hosts_(hosts),
      ladder_(ladder),
      stacks_(stacks),
      events_(events) {
  connect(packets_, &PacketPane::frameSelected, this, [this](qint64 frame) {
    if (!syncing_ && rec_ && frame >= 0) goToFrame(static_cast<std::size_t>(frame));
  });
  connect(ladder_, &LadderView::frameClicked, this, [this](int row) {
    if (rec_ && row >= 0 && static_cast<std::size_t>(row) < rowEvent_.size())
      goTo(rowEvent_[static_cast<std::size_t>(row)]);
  });
  connect(packets_, &PacketPane::mrLinkActivated, this, [this](int host, int mr) {
    if (host >= 0 && host < 2) hosts_[static_cast<std::size_t>(host)]->showMr(mr);
  });
}

ScenarioController::~ScenarioController() = default;

int ScenarioController::eventCount() const {
  return rec_ ? static_cast<int>(rec_->events.size()) : 0;
}

bool ScenarioController::load(const std::string& id, sim::WireFormat wire, QString& error) {
  auto rec = std::make_unique<ScenarioRecording>();
  FrameStore frames;
  std::string err;
  if (!recordScenario(id, wire, *rec, frames, err, cm_)) {
    error = QString::fromStdString(err);
    return false;
  }
  adopt(std::move(rec), std::move(frames));
  return true;
}

bool ScenarioController::loadFile(const std::string& path, sim::WireFormat wire, QString& error) {
  auto rec = std::make_unique<ScenarioRecording>();
  FrameStore frames;
  std::string err;
  if (!recordScenarioFile(path, wire, *rec, frames, err, cm_)) {
    error = QString::fromStdString(err);
    return false;
  }
  adopt(std::move(rec), std::move(frames));
  return true;
}

void ScenarioController::adopt(std::unique_ptr<ScenarioRecording> rec, FrameStore frames) {
  Q_EMIT storeAboutToChange();
  events_->setRecording(nullptr);
  // Hide every row before the frames change underneath the packet list.
  packets_->packetModel()->setFrameLimit(0);
  rec_ = std::move(rec);
  *store_ = std::move(frames);
  hold_ = -2;
  packets_->setMrLinker([this](std::size_t frame) { return mrLinkOfFrame(frame); });
  for (HostPane* h : hosts_)
    h->showMr(-1);
  std::vector<LadderFrame> ladder = buildLadder();
  packets_->storeReset();
  ladder_->setHostNames(QString::fromStdString(rec_->hostNames[0]),
                        QString::fromStdString(rec_->hostNames[1]));
  ladder_->setFrames(std::move(ladder));
  events_->setRecording(rec_.get());
  for (int h = 0; h < 2; ++h) {
    const auto hi = static_cast<std::size_t>(h);
    const QString name = QString::fromStdString(rec_->hostNames[hi]);
    hosts_[hi]->setTitle(tr("%1 (simulated %2)")
                             .arg(name, QString::fromUtf8(sim::toString(rec_->wire).data(),
                                                          static_cast<qsizetype>(
                                                              sim::toString(rec_->wire).size()))));
    if (transportPanes_[hi])
      transportPanes_[hi]->setTitle(
          rec_->transport == RecordingTransport::Iwarp
              ? tr("%1 (simulated iWARP: rdma_cm, MPA, DDP over TCP in the RNIC)").arg(name)
          : rec_->transport == RecordingTransport::CephRdma
              ? tr("%1 (Ceph async+rdma: SRQ, registered chunks, SENDs over RoCEv2)").arg(name)
          : rec_->transport == RecordingTransport::CephPosix
              ? tr("%1 (Ceph async+posix: send(), recv(), kernel TCP/IP)").arg(name)
              : tr("%1 (simulated TCP sockets: send(), recv(), kernel TCP/IP)").arg(name));
  }
  stacks_->clearPaths();
  current_ = -2;
  goTo(-1);
}

void ScenarioController::unload() {
  events_->setRecording(nullptr);
  packets_->setMrLinker({});
  rec_.reset();
  hold_ = -2;
  framesUpTo_.clear();
  rowsUpTo_.clear();
  rowEvent_.clear();
  rowOfFrame_.clear();
  eventOfFrame_.clear();
  current_ = -1;
  currentFrame_ = -1;
  ladder_->setFrames({});
  ladder_->setVisibleCount(0);
  for (HostPane* h : hosts_)
    h->setSnapshot(nullptr, nullptr);
  packets_->packetModel()->setFrameLimit(SIZE_MAX);
}

namespace {

QString hex(std::uint64_t v) {
  return QStringLiteral("0x%1").arg(v, 0, 16);
}

// A GID as text: an IPv4-mapped one (RoCEv2 over IPv4) as ::ffff:a.b.c.d, else eight groups.
QString gidText(const std::array<std::uint8_t, 16>& g) {
  if (std::all_of(g.begin(), g.begin() + 10, [](std::uint8_t b) { return b == 0; }) &&
      g[10] == 0xff && g[11] == 0xff)
    return QStringLiteral("::ffff:%1.%2.%3.%4").arg(g[12]).arg(g[13]).arg(g[14]).arg(g[15]);
  QStringList groups;
  for (std::size_t i = 0; i < 16; i += 2)
    groups << QString::number((g[i] << 8) | g[i + 1], 16);
  return groups.join(QLatin1Char(':'));
}

}  // namespace

std::vector<LadderFrame> ScenarioController::buildLadder() {
  framesUpTo_.clear();
  rowsUpTo_.clear();
  rowEvent_.clear();
  rowOfFrame_.clear();
  eventOfFrame_.clear();
  std::vector<LadderFrame> ladder;
  std::array<std::int64_t, 2> lastReceived{-1, -1};
  auto rowOf = [&](std::int64_t frame) -> LadderFrame* {
    if (frame < 0 || static_cast<std::size_t>(frame) >= rowOfFrame_.size()) return nullptr;
    return &ladder[static_cast<std::size_t>(rowOfFrame_[static_cast<std::size_t>(frame)])];
  };
  std::size_t sent = 0;
  // What each host publishes (its exchange step): over TCP a side-channel row of its own, with
  // the rdma_cm the private data of its REQ or REP.
  const OobMessage* published[2] = {nullptr, nullptr};
  for (const ScenarioEvent& e : rec_->events)
    if (e.oob && e.oob->from >= 0 && e.oob->from < 2 && !published[e.oob->from])
      published[e.oob->from] = &*e.oob;
  // The row of a frame event i sent.
  auto addFrameRow = [&](LadderFrame f, std::size_t i) {
    f.fromHost = rec_->events[i].host == 1 ? 1 : 0;
    f.detail = QString::fromStdString(sim::describe(rec_->events[i].trace));
    f.sentUs = rec_->events[i].trace.time.micros();
    rowOfFrame_.push_back(static_cast<int>(ladder.size()));
    eventOfFrame_.push_back(static_cast<int>(i));
    rowEvent_.push_back(static_cast<int>(i));
    ladder.push_back(std::move(f));
    ++sent;
  };
  for (std::size_t i = 0; i < rec_->events.size(); ++i) {
    const ScenarioEvent& e = rec_->events[i];
    if (e.trace.kind == sim::TraceKind::FrameSent && rec_->transport != RecordingTransport::Verbs) {
      // TCP and iWARP frames: labelled as the packet list's Info names them.
      LadderFrame f;
      const auto frame = static_cast<std::size_t>(e.frame);
      f.label = frame < rec_->frameLabels.size() ? QString::fromStdString(rec_->frameLabels[frame])
                                                 : QString();
      addFrameRow(std::move(f), i);
    } else if (e.trace.kind == sim::TraceKind::FrameSent) {
      const auto s =
          sim::summarizeFrame(rec_->wire, store_->bytes(static_cast<std::size_t>(e.frame)));
      LadderFrame f;
      std::string name = s.opcodeName;
      if (name.rfind("RC ", 0) == 0) name = name.substr(3);
      // The rdma_cm's MADs are named by what they are ("CM REQ (rdma_connect)").
      const std::string& why = e.trace.args.text;
      const bool cmMessage = e.trace.reason == sim::Reason::Text && why.rfind("CM ", 0) == 0;
      if (cmMessage) name = why.substr(0, std::min(why.find(" from "), why.find(':')));
      f.label = QString::fromStdString(name);
      // With the rdma_cm the REQ and REP carry what each side publishes in their private data.
      if (cmMessage && (name.rfind("CM REQ", 0) == 0 || name.rfind("CM REP", 0) == 0))
        if (const OobMessage* m = published[e.host == 1 ? 1 : 0]; m && !m->mr.empty())
          f.secondLine = tr("private data: %1 addr %2  rkey %3  %4 bytes")
                             .arg(QString::fromStdString(m->mr), hex(m->addr), hex(m->rkey))
                             .arg(m->length);
      f.psn = s.psn;  // in PsnBase's base, as the host tables
      if (s.hasAeth && (s.syndrome & 0x60) != 0) {
        f.nak = true;
        f.note =
            (s.syndrome & 0x60) == 0x20 ? QStringLiteral("  RNR NAK") : QStringLiteral("  NAK");
      }
      addFrameRow(std::move(f), i);
    } else if (e.oob && !rec_->cm) {
      const OobMessage& m = *e.oob;
      const auto from = static_cast<std::size_t>(m.from);
      const QString sender = QString::fromStdString(rec_->hostNames[from]);
      const QString receiver = QString::fromStdString(rec_->hostNames[1 - from]);
      LadderFrame f;
      f.sideChannel = true;
      f.fromHost = m.from == 1 ? 1 : 0;
      f.label = tr("TCP: QPN %1").arg(hex(m.qpn));
      f.psn = m.psn;
      f.note = QStringLiteral("  ") + tr("GID %1").arg(gidText(m.gid));
      if (!m.mr.empty())
        f.secondLine = tr("%1: addr %2  rkey %3  %4 bytes")
                           .arg(QString::fromStdString(m.mr), hex(m.addr), hex(m.rkey))
                           .arg(m.length);
      f.detail = tr("Out-of-band exchange over a TCP socket, not an RDMA frame: %1 tells %2 its QP "
                    "number %3, first PSN %4 and GID %5, which %2 puts into its RTR attributes.")
                     .arg(sender, receiver, hex(m.qpn), hex(m.psn), gidText(m.gid));
      if (!m.mr.empty())
        f.detail += QLatin1Char(' ') +
                    tr("For one-sided operations it also names its region %1: address %2, "
                       "rkey %3, %4 bytes; %5 quotes them in the RETH of every READ or WRITE.")
                        .arg(QString::fromStdString(m.mr), hex(m.addr), hex(m.rkey))
                        .arg(m.length)
                        .arg(receiver);
      f.sentUs = e.trace.time.micros();
      rowEvent_.push_back(static_cast<int>(i));
      ladder.push_back(std::move(f));
    } else if (e.trace.kind == sim::TraceKind::FrameReceived && e.host >= 0 && e.frame >= 0) {
      lastReceived[static_cast<std::size_t>(e.host)] = e.frame;
    } else if (e.trace.kind == sim::TraceKind::FrameDropped) {
      if (e.trace.what == sim::Narrative::FrameLost) {
        if (LadderFrame* f = rowOf(e.frame)) {
          f->dropped = true;
          f->note += QStringLiteral("  \u2717 ") + tr("lost on the link");
        }
      } else if (e.host >= 0) {
        // The receiver discarded it: the frame it last accepted, unless the event names one.
        const std::int64_t frame =
            e.frame >= 0 ? e.frame : lastReceived[static_cast<std::size_t>(e.host)];
        if (LadderFrame* f = rowOf(frame); f && !f->droppedAtReceiver) {
          f->droppedAtReceiver = true;
          f->note +=
              QStringLiteral("  \u2717 ") +
              tr("dropped by %1")
                  .arg(QString::fromStdString(rec_->hostNames[static_cast<std::size_t>(e.host)]));
          f->detail += QStringLiteral("\n") + QString::fromStdString(sim::describe(e.trace));
        }
      }
    }
    framesUpTo_.push_back(sent);
    rowsUpTo_.push_back(ladder.size());
  }
  return ladder;
}

int ScenarioController::ladderRowOfFrame(std::size_t frame) const {
  return frame < rowOfFrame_.size() ? rowOfFrame_[frame] : -1;
}

std::optional<MrLink> ScenarioController::mrLinkOfFrame(std::size_t frame) const {
  if (!rec_ || frame >= eventOfFrame_.size()) return std::nullopt;
  const ScenarioEvent& e = rec_->events[static_cast<std::size_t>(eventOfFrame_[frame])];
  if (!e.remote) return std::nullopt;
  const RemoteTarget& t = *e.remote;
  const auto host = static_cast<std::size_t>(t.host);
  const QString name = QString::fromStdString(rec_->hostNames[host]);
  MrLink link;
  link.host = t.host;
  link.mr = t.mr;
  const HostSnapshot& hs = rec_->snapshots[e.snapshot].hosts[host];
  if (t.mr >= 0 && static_cast<std::size_t>(t.mr) < hs.mrs.size()) {
    const MrSnapshot& m = hs.mrs[static_cast<std::size_t>(t.mr)];
    link.text = QStringLiteral("\u2192 ") +
                tr("%1 MR #%2 %3 (rkey %4, %5)")
                    .arg(name)
                    .arg(t.mr + 1)
                    .arg(QString::fromStdString(m.name), hex(m.rkey), accessFlagNames(m.access));
  } else {
    link.mr = -1;
    link.text = QStringLiteral("\u2192 ") + tr("no MR of %1 has rkey %2").arg(name, hex(t.rkey));
  }
  return link;
}

std::size_t ScenarioController::framesShown() const {
  return current_ >= 0 ? framesUpTo_[static_cast<std::size_t>(current_)] : 0;
}

void ScenarioController::goTo(int event) {
  if (!rec_) return;
  event = std::clamp(event, -1, eventCount() - 1);
  if (hold_ >= -1 && event > hold_) {
    Q_EMIT held(event);
    event = std::max(hold_, current_);
  }
  if (event == current_) return;
  current_ = event;
  update();
  Q_EMIT currentChanged(current_);
}

void ScenarioController::holdAt(int last) {
  hold_ = last;
}

bool ScenarioController::stepForward() {
  if (!rec_ || current_ + 1 >= eventCount()) return false;
  if (hold_ >= -1 && current_ >= hold_) {
    Q_EMIT held(current_ + 1);
    return false;
  }
  goTo(current_ + 1);
  return true;
}

bool ScenarioController::stepBack() {
  if (!rec_ || current_ < 0) return false;
  goTo(current_ - 1);
  return true;
}

void ScenarioController::goToFrame(std::size_t frame) {
  if (!rec_) return;
  for (std::size_t i = 0; i < rec_->events.size(); ++i) {
    const auto& e = rec_->events[i];
    if (e.trace.kind == sim::TraceKind::FrameSent && e.frame == static_cast<std::int64_t>(frame)) {
      goTo(static_cast<int>(i));
      return;
    }
  }
}

QString ScenarioController::title() const {
  if (!rec_) return {};
  if (current_ < 0) {
    return tr("%1  \u2014  ready, %2 events").arg(narration(rec_->title)).arg(eventCount());
  }
  return EventExplainer::explain(*rec_, static_cast<std::size_t>(current_)).title;
}

QString ScenarioController::explanation() const {
  if (!rec_) return {};
  if (current_ < 0 && rec_->transport == RecordingTransport::TcpSockets)
    return tr(
        "Press Right to step (Left to step back, Space to run or pause). Each step is one "
        "event of the TCP model: a send() or recv() system call, a CPU copy between the "
        "application and a socket buffer, the kernel's TCP/IP work, a segment on the wire, an "
        "interrupt, or the socket buffers after a change. The host panes show each socket "
        "buffer filling and draining.");
  if (current_ < 0 && rec_->transport == RecordingTransport::Iwarp)
    return tr(
        "Press Right to step (Left to step back, Space to run or pause). Each step is one "
        "event of the iWARP model: an rdma_cm call or event, an MPA Request or Reply, a work "
        "request, a DDP segment framed or placed by the RNIC, a TCP segment, or a completion. "
        "The host panes list the connection steps and count the RNIC's work.");
  if (current_ < 0 && isCeph(rec_->transport))
    return tr(
        "Press Right to step (Left to step back, Space to run or pause). Each step is one "
        "step of Ceph's messenger (a system call, a CPU copy, a chunk taken, posted or "
        "reposted, a SEND posted, a completion polled), a frame on the wire, or the NIC "
        "placing a SEND's payload into a chunk. The host panes show each host's chunk pool, "
        "shared receive queue, copies, system calls and CPU time.");
  if (current_ < 0)
    return tr(
        "Press Right to step (Left to step back, Space to run or pause). Each step is one "
        "event of the simulator: a verbs call, a QP state change, a WQE, a frame, a DMA "
        "access or a completion. Every view follows the current event; click a frame in "
        "the ladder or the packet list to jump to it.");
  const auto& e = rec_->events[static_cast<std::size_t>(current_)];
  const EventExplanation x = EventExplainer::explain(*rec_, static_cast<std::size_t>(current_));
  const ScenarioPhase& phase = rec_->phases[e.phase];
  QString text = x.body;
  text += QStringLiteral("\n\n") +
          tr("Event %1 of %2 at %3 us, during the scenario step \u201c%4\u201d.")
              .arg(current_ + 1)
              .arg(eventCount())
              .arg(QString::number(e.trace.time.micros(), 'f', 3), narration(phase.title));
  if (!phase.text.empty() && phase.text != rec_->summary)
    text += QLatin1Char(' ') + narration(phase.text);
  return text;
}

QString ScenarioController::explanationDetail() const {
  if (!rec_ || current_ < 0) return {};
  return EventExplainer::explain(*rec_, static_cast<std::size_t>(current_)).detail;
}

QStringList ScenarioController::explanationTerms() const {
  if (!rec_ || current_ < 0) return {};
  return EventExplainer::explain(*rec_, static_cast<std::size_t>(current_)).terms;
}

void ScenarioController::update() {
  const ScenarioRecording& rec = *rec_;
  const ScenarioEvent* ev =
      current_ >= 0 ? &rec.events[static_cast<std::size_t>(current_)] : nullptr;

  // Hosts: state after this event's simulator step, changes against the previous event's.
  const Snapshot* snap =
      ev && ev->snapshot < rec.snapshots.size() ? &rec.snapshots[ev->snapshot] : nullptr;
  const Snapshot* prev = nullptr;
  if (current_ > 0) {
    const auto& pe = rec.events[static_cast<std::size_t>(current_ - 1)];
    if (pe.snapshot < rec.snapshots.size() && pe.snapshot != (ev ? ev->snapshot : SIZE_MAX))
      prev = &rec.snapshots[pe.snapshot];
  }
  const bool transport = rec.transport != RecordingTransport::Verbs;
  for (int h = 0; h < 2 && transport; ++h) {
    const auto hi = static_cast<std::size_t>(h);
    if (!transportPanes_[hi]) continue;
    const auto at = [&rec, hi](int i) -> const TransportHostState* {
      return i >= 0 && static_cast<std::size_t>(i) < rec.hostStates.size()
                 ? &rec.hostStates[static_cast<std::size_t>(i)][hi]
                 : nullptr;
    };
    transportPanes_[hi]->setState(rec.transport, at(current_), at(current_ - 1));
  }
  for (int h = 0; h < 2 && !transport; ++h) {
    const auto hi = static_cast<std::size_t>(h);
    HostPane* pane = hosts_[hi];
    pane->setSnapshot(snap ? &snap->hosts[hi] : nullptr, prev ? &prev->hosts[hi] : nullptr);
    // The QP's last transition, and the last DMA access of this phase.
    int lastState = -1, lastMemory = -1;
    for (int i = current_; i >= 0; --i) {
      const auto& e = rec.events[static_cast<std::size_t>(i)];
      if (e.host != h) continue;
      if (lastState < 0 && e.trace.kind == sim::TraceKind::QpState) lastState = i;
      if (lastMemory < 0 && ev && e.phase == ev->phase &&
          (e.trace.kind == sim::TraceKind::MemoryWritten ||
           e.trace.kind == sim::TraceKind::MemoryRead))
        lastMemory = i;
      if (lastState >= 0 && (lastMemory >= 0 || !ev || e.phase != ev->phase)) break;
    }
    if (lastState >= 0) {
      const auto& e = rec.events[static_cast<std::size_t>(lastState)];
      pane->setQpState(e.toState, e.fromState, e.fromState != e.toState);
    }
    std::uint32_t off = 0, len = 0;
    bool write = false;
    if (lastMemory >= 0 && snap) {
      const auto& e = rec.events[static_cast<std::size_t>(lastMemory)];
      const std::uint64_t base = snap->hosts[hi].bufferAddr;
      if (e.trace.address >= base && e.trace.address - base < rec.bufferSize) {
        off = static_cast<std::uint32_t>(e.trace.address - base);
        len = static_cast<std::uint32_t>(
            std::min<std::uint64_t>(e.trace.length, rec.bufferSize - off));
        write = e.trace.kind == sim::TraceKind::MemoryWritten;
      }
    }
    pane->setMemoryAccess(off, len, write, lastMemory == current_);
    // On a short screen the pane scrolls: what this event changes comes into view.
    if (ev && ev->host == h)
      if (const auto section = HostPane::sectionOf(ev->trace)) pane->bringIntoView(*section);
  }

  // Frames: those on the wire by now; the event's own frame, or the latest one, selected.
  const std::size_t shown = framesShown();
  std::int64_t frame = -1;
  for (int i = current_; i >= 0; --i) {
    const auto& e = rec.events[static_cast<std::size_t>(i)];
    if (e.frame >= 0 && static_cast<std::size_t>(e.frame) < shown) {
      frame = e.frame;
      break;
    }
  }
  currentFrame_ = frame;
  syncing_ = true;
  packets_->packetModel()->setFrameLimit(shown);
  if (frame >= 0) packets_->selectFrame(static_cast<std::size_t>(frame));
  syncing_ = false;
  // The ladder: its rows so far (frames and side-channel messages), the latest one current.
  int row = -1;
  for (int i = current_; i >= 0 && row < 0; --i) {
    const auto& e = rec.events[static_cast<std::size_t>(i)];
    if (e.oob)
      row = static_cast<int>(rowsUpTo_[static_cast<std::size_t>(i)]) - 1;
    else if (e.frame >= 0 && static_cast<std::size_t>(e.frame) < shown)
      row = rowOfFrame_[static_cast<std::size_t>(e.frame)];
  }
  ladder_->setVisibleCount(
      current_ >= 0 ? static_cast<int>(rowsUpTo_[static_cast<std::size_t>(current_)]) : 0);
  ladder_->setCurrentFrame(row);

  // Layer stacks: the step of the RDMA data path this event stands for.
  if (ev) {
    // The latest data-path step of this phase, so that a jump shows the path so far too.
    const Stack stack = rec.transport == RecordingTransport::TcpSockets ||
                                rec.transport == RecordingTransport::CephPosix
                            ? Stack::TcpIp
                        : rec.transport == RecordingTransport::Iwarp ? Stack::Iwarp
                                                                     : stackOfWire(rec.wire);
    int step = -1;
    for (int i = current_; i >= 0 && step < 0; --i) {
      const auto& e = rec.events[static_cast<std::size_t>(i)];
      if (e.phase != ev->phase) break;
      step = stack == Stack::TcpIp ? tcpPathStepOf(e) : pathStepOf(e);
    }
    if (step >= 0) stacks_->setPathStep(stack, step);
  } else {
    stacks_->clearPaths();
  }
  events_->setCurrent(current_);
}

}  // namespace rdmascope::ui
