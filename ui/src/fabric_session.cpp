#include "rdmascope/ui/fabric_session.h"

#include <QSocketNotifier>
#include <algorithm>
#include <chrono>
#include <set>

#include "rdmascope/ui/frame_store.h"

namespace rdmascope::ui {

namespace {

std::int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

FabricSession::FabricSession(FrameStore* store, QObject* parent) : QObject(parent), store_(store) {}

FabricSession::~FabricSession() = default;

bool FabricSession::attach(const QString& socketPath, QString& error) {
  std::string why;
  auto observer = simdev::FabricObserver::connect(socketPath.toStdString(), why);
  if (!observer) {
    error = QString::fromStdString(why);
    return false;
  }
  detach();
  Q_EMIT storeAboutToChange();
  store_->clear(packets::LinkType::Ethernet);
  observer_ = std::move(observer);
  socketPath_ = QString::fromStdString(observer_->socketPath());
  info_ = observer_->info();
  hosts_.clear();
  for (const auto& h : info_.hosts) {
    FabricHostView v;
    v.number = h.number;
    v.name = h.name;
    hosts_.push_back(std::move(v));
  }
  frameHosts_.clear();
  timeline_.clear();
  held_.clear();
  paused_ = false;
  // What the fabric was doing before the observer came: its programs and its pause.
  for (const auto& a : observer_->attachedAtConnect()) {
    simdev::FabricEvent e;
    e.kind = simdev::FabricEvent::Kind::Attached;
    e.host = a.host;
    e.program = a.program;
    e.pid = a.pid;
    apply(e);
  }
  if (observer_->pausedAtConnect()) {
    simdev::FabricEvent e;
    e.kind = simdev::FabricEvent::Kind::Paused;
    apply(e);
  }
  Q_EMIT storeReset();
  for (const auto& h : hosts_)
    Q_EMIT hostChanged(h.number);
  Q_EMIT holdChanged();
  notifier_ = new QSocketNotifier(observer_->fd(), QSocketNotifier::Read, this);
  connect(notifier_, &QSocketNotifier::activated, this, [this] { poll(); });
  poll();
  return true;
}

void FabricSession::detach() {
  delete notifier_;
  notifier_ = nullptr;
  observer_.reset();
}

FabricHostView* FabricSession::host(int number) {
  if (number < 1 || static_cast<std::size_t>(number) > hosts_.size()) return nullptr;
  return &hosts_[static_cast<std::size_t>(number - 1)];
}

int FabricSession::frameSource(std::size_t frame) const {
  return frame < frameHosts_.size() ? frameHosts_[frame].from : 0;
}

int FabricSession::frameDestination(std::size_t frame) const {
  return frame < frameHosts_.size() ? frameHosts_[frame].to : 0;
}

bool FabricSession::frameHeld(std::size_t frame) const {
  return std::find(held_.begin(), held_.end(), frame) != held_.end();
}

void FabricSession::pause() {
  if (observer_) observer_->pause();
}

void FabricSession::resume() {
  if (observer_) observer_->resume();
}

void FabricSession::stepFrame() {
  if (!observer_ || !paused_ || held_.empty()) return;
  observer_->stepFrame();
  // The fabric forwards its oldest held frame without telling observers: so does the view.
  held_.erase(held_.begin());
  Q_EMIT holdChanged();
}

void FabricSession::stepCall(int number) {
  if (observer_ && host(number)) observer_->stepCall(number);
}

void FabricSession::addTimeline(FabricTimelineEntry entry) {
  timeline_.push_back(std::move(entry));
}

std::size_t FabricSession::poll() {
  if (!observer_) return 0;
  auto events = observer_->read();
  if (events.empty()) return 0;
  const std::size_t framesBefore = store_->size();
  const std::size_t timelineBefore = timeline_.size();
  const bool pausedBefore = paused_;
  const std::size_t heldBefore = held_.size();
  std::set<int> changed;
  QString closedWhy;
  bool closed = false;
  for (auto& e : events) {
    if (e.kind == simdev::FabricEvent::Kind::Attached ||
        e.kind == simdev::FabricEvent::Kind::Detached || e.kind == simdev::FabricEvent::Kind::State)
      changed.insert(e.host);
    if (e.kind == simdev::FabricEvent::Kind::Closed) {
      closed = true;
      closedWhy = QString::fromStdString(e.text);
    }
    apply(e);
  }
  if (store_->size() > framesBefore) Q_EMIT framesAppended(store_->size() - framesBefore);
  for (int h : changed)
    if (host(h)) Q_EMIT hostChanged(h);
  if (timeline_.size() > timelineBefore)
    Q_EMIT timelineAppended(timelineBefore, timeline_.size() - timelineBefore);
  if (paused_ != pausedBefore || held_.size() != heldBefore) Q_EMIT holdChanged();
  if (closed) {
    detach();
    Q_EMIT this->closed(closedWhy);
  }
  return events.size();
}

void FabricSession::apply(simdev::FabricEvent& e) {
  using Kind = simdev::FabricEvent::Kind;
  FabricTimelineEntry t;
  t.host = e.host;
  t.timeNs = e.timeNs ? e.timeNs : nowNs();  // a call carries when the program made it
  switch (e.kind) {
    case Kind::Attached:
      if (auto* h = host(e.host)) {
        h->program = e.program;
        h->pid = e.pid;
        h->attached = true;
        h->hasState = false;
        h->state = {};
      }
      t.kind = FabricTimelineEntry::Kind::Attached;
      t.text = e.program + " (pid " + std::to_string(e.pid) + ")";
      break;
    case Kind::Detached:
      if (auto* h = host(e.host)) h->attached = false;
      t.kind = FabricTimelineEntry::Kind::Detached;
      break;
    case Kind::State:
      if (auto* h = host(e.host)) {
        h->state = std::move(e.state);
        h->hasState = true;
        if (!h->state.program.empty()) h->program = h->state.program;
        if (h->state.pid) h->pid = h->state.pid;
        if (!h->attached && !h->program.empty()) h->attached = true;
      }
      return;
    case Kind::Frame: {
      const std::size_t index = store_->append(e.bytes, e.timeNs);
      FrameHosts fh;
      fh.from = static_cast<std::uint8_t>(std::clamp(e.host, 0, 255));
      if (e.bytes.size() >= 6)
        for (const auto& h : info_.hosts)
          if (std::equal(h.mac.begin(), h.mac.end(), e.bytes.begin()))
            fh.to = static_cast<std::uint8_t>(h.number);
      frameHosts_.push_back(fh);
      if (e.held) held_.push_back(index);
      t.kind = FabricTimelineEntry::Kind::Frame;
      t.timeNs = e.timeNs;
      t.frame = static_cast<std::int64_t>(index);
      break;
    }
    case Kind::Call:
      t.kind = FabricTimelineEntry::Kind::Call;
      t.text = std::move(e.text);
      break;
    case Kind::Log:
      t.kind = FabricTimelineEntry::Kind::Log;
      t.text = std::move(e.text);
      break;
    case Kind::Paused:
      if (paused_) return;
      paused_ = true;
      t.kind = FabricTimelineEntry::Kind::Paused;
      break;
    case Kind::Resumed:
      if (!paused_) return;
      paused_ = false;
      held_.clear();  // the fabric forwards every held frame on resuming
      t.kind = FabricTimelineEntry::Kind::Resumed;
      break;
    case Kind::Closed:
      t.kind = FabricTimelineEntry::Kind::Closed;
      t.text = std::move(e.text);
      break;
  }
  addTimeline(std::move(t));
}

}  // namespace rdmascope::ui
