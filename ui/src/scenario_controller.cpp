#include "rdmascope/ui/scenario_controller.h"

#include <QCoreApplication>

#include "rdmascope/sim/narration.h"
#include "rdmascope/ui/event_explanation.h"
#include "rdmascope/ui/host_pane.h"
#include "rdmascope/ui/host_state_models.h"
#include "rdmascope/ui/ladder_view.h"
#include "rdmascope/ui/layer_stacks_view.h"
#include "rdmascope/ui/packet_pane.h"

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
  connect(ladder_, &LadderView::frameClicked, this, [this](int frame) {
    if (rec_ && frame >= 0) goToFrame(static_cast<std::size_t>(frame));
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
  if (!recordScenario(id, wire, *rec, frames, err)) {
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
  if (!recordScenarioFile(path, wire, *rec, frames, err)) {
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
  framesUpTo_.clear();
  std::size_t sent = 0;
  for (const auto& e : rec_->events) {
    if (e.trace.kind == sim::TraceKind::FrameSent) ++sent;
    framesUpTo_.push_back(sent);
  }
  packets_->storeReset();
  std::vector<LadderFrame> ladder;
  for (const auto& e : rec_->events) {
    if (e.trace.kind == sim::TraceKind::FrameSent) {
      const auto s =
          sim::summarizeFrame(rec_->wire, store_->bytes(static_cast<std::size_t>(e.frame)));
      LadderFrame f;
      f.fromHost = e.host == 1 ? 1 : 0;
      std::string name = s.opcodeName;
      if (name.rfind("RC ", 0) == 0) name = name.substr(3);
      f.label = QStringLiteral("%1  PSN %2")
                    .arg(QString::fromStdString(name))
                    .arg(s.psn);  // decimal, as the packet list and tshark show it
      if (s.hasAeth && (s.syndrome & 0x60) != 0) {
        f.nak = true;
        f.label +=
            (s.syndrome & 0x60) == 0x20 ? QStringLiteral("  RNR NAK") : QStringLiteral("  NAK");
      }
      f.detail = QString::fromStdString(sim::describe(e.trace));
      f.sentUs = e.trace.time.micros();
      ladder.push_back(std::move(f));
    } else if (e.trace.kind == sim::TraceKind::FrameDropped && e.frame >= 0 &&
               static_cast<std::size_t>(e.frame) < ladder.size()) {
      ladder[static_cast<std::size_t>(e.frame)].dropped = true;
    }
  }
  ladder_->setHostNames(QString::fromStdString(rec_->hostNames[0]),
                        QString::fromStdString(rec_->hostNames[1]));
  ladder_->setFrames(std::move(ladder));
  events_->setRecording(rec_.get());
  for (int h = 0; h < 2; ++h)
    hosts_[static_cast<std::size_t>(h)]->setTitle(
        QStringLiteral("%1 (simulated %2)")
            .arg(QString::fromStdString(rec_->hostNames[static_cast<std::size_t>(h)]),
                 QString::fromUtf8(sim::toString(rec_->wire).data(),
                                   static_cast<qsizetype>(sim::toString(rec_->wire).size()))));
  stacks_->clearPaths();
  current_ = -2;
  goTo(-1);
}

void ScenarioController::unload() {
  events_->setRecording(nullptr);
  rec_.reset();
  hold_ = -2;
  framesUpTo_.clear();
  current_ = -1;
  currentFrame_ = -1;
  ladder_->setFrames({});
  ladder_->setVisibleCount(0);
  for (HostPane* h : hosts_)
    h->setSnapshot(nullptr, nullptr);
  packets_->packetModel()->setFrameLimit(SIZE_MAX);
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

namespace {

// A scenario's narration in the GUI's language: its translations carry the built-ins' titles
// and explanations under the context "ScenarioNarration" (a file's own text stays as written).
QString narration(const std::string& text) {
  return text.empty() ? QString() : QCoreApplication::translate("ScenarioNarration", text.c_str());
}

}  // namespace

QString ScenarioController::title() const {
  if (!rec_) return {};
  if (current_ < 0) {
    return tr("%1  \u2014  ready, %2 events").arg(narration(rec_->title)).arg(eventCount());
  }
  return EventExplainer::explain(*rec_, static_cast<std::size_t>(current_)).title;
}

QString ScenarioController::explanation() const {
  if (!rec_) return {};
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
  for (int h = 0; h < 2; ++h) {
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
  ladder_->setVisibleCount(static_cast<int>(shown));
  ladder_->setCurrentFrame(static_cast<int>(frame));

  // Layer stacks: the step of the RDMA data path this event stands for.
  if (ev) {
    // The latest data-path step of this phase, so that a jump shows the path so far too.
    int step = -1;
    for (int i = current_; i >= 0 && step < 0; --i) {
      const auto& e = rec.events[static_cast<std::size_t>(i)];
      if (e.phase != ev->phase) break;
      step = pathStepOf(e);
    }
    if (step >= 0) stacks_->setPathStep(stackOfWire(rec.wire), step);
  } else {
    stacks_->clearPaths();
  }
  events_->setCurrent(current_);
}

}  // namespace rdmascope::ui
