#include "rdmascope/ui/congestion_run.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include "rdmascope/ui/congestion_step_text.h"
#include "rdmascope/ui/frame_store.h"

namespace rdmascope::ui {

using sim::FabricEvent;
using sim::SimTime;

CongestionRun::CongestionRun(QObject* parent) : QObject(parent) {}
CongestionRun::~CongestionRun() = default;

bool CongestionRun::load(const QString& path, QString& error) {
  std::string err;
  auto spec = sim::loadScenario(path.toStdString(), err);
  if (!spec) {
    error = QString::fromStdString(err);
    return false;
  }
  return run(*spec, path, error);
}

bool CongestionRun::run(const sim::ScenarioSpec& spec, const QString& path, QString& error) {
  std::unique_ptr<sim::Fabric> fabric;
  try {
    fabric = std::make_unique<sim::Fabric>(spec);
  } catch (const std::invalid_argument& e) {
    error = QStringLiteral("%1: %2").arg(path, QString::fromUtf8(e.what()));
    return false;
  }
  std::vector<sim::FabricEvent> events;
  std::vector<Frame> frames;
  std::unordered_map<std::string, int> portIndex;
  const auto ports = fabric->ports();
  for (std::size_t i = 0; i < ports.size(); ++i)
    portIndex[ports[i].name] = static_cast<int>(i);
  fabric->setEventSink([&events](const FabricEvent& e) { events.push_back(e); });
  fabric->setCaptureSink([&frames, &portIndex](const sim::FabricCapture& c) {
    const auto it = portIndex.find(c.port);
    frames.push_back(Frame{c.time, it == portIndex.end() ? 0 : it->second, c.bytes});
  });
  fabric->run();

  path_ = path;
  spec_ = spec;
  ports_ = ports;
  series_ = fabric->series();
  pauses_ = fabric->pauses();
  events_ = std::move(events);
  frames_ = std::move(frames);
  fabric_ = std::move(fabric);
  // Notable: every XOFF, XON, drop and deadlock; the first mark of each egress queue, the first
  // CNP and the first rate cut of each flow (later ones repeat what the first showed).
  notable_.assign(events_.size(), false);
  std::set<std::pair<std::string, int>> markedQueues;
  std::set<int> cnpFlows, cutFlows;
  for (std::size_t i = 0; i < events_.size(); ++i) {
    const FabricEvent& e = events_[i];
    switch (e.kind) {
      case FabricEvent::Kind::EcnMark:
        notable_[i] = markedQueues.insert({e.port, e.priority}).second;
        break;
      case FabricEvent::Kind::CnpSent:
        notable_[i] = cnpFlows.insert(e.flow).second;
        break;
      case FabricEvent::Kind::RateCut:
        notable_[i] = cutFlows.insert(e.flow).second;
        break;
      default:
        notable_[i] = true;
        break;
    }
  }
  time_ = SimTime();
  sliceStart_ = SimTime();
  current_ = -1;
  Q_EMIT timeChanged();
  return true;
}

void CongestionRun::fillStore(FrameStore& store) const {
  store.clear(packets::LinkType::Ethernet);
  std::size_t bytes = 0;
  for (const auto& f : frames_)
    bytes += f.bytes.size();
  store.reserve(frames_.size(), bytes);
  for (const auto& f : frames_)
    store.append(f.bytes, f.time.picos() / 1000);
}

int CongestionRun::sliceCount() const {
  if (!loaded() || slice() <= SimTime()) return 0;
  const auto n = (duration().picos() + slice().picos() - 1) / slice().picos();
  return static_cast<int>(n);
}

int CongestionRun::sliceIndex() const {
  if (!loaded() || slice() <= SimTime()) return 0;
  return static_cast<int>((time_.picos() + slice().picos() - 1) / slice().picos());
}

int CongestionRun::sampleIndex() const {
  const auto& t = series_.times;
  // the sample whose period holds the cursor: the first sample time at or after it
  const auto it = std::lower_bound(t.begin(), t.end(), time_);
  if (time_ <= SimTime()) return -1;
  if (it == t.end()) return t.empty() ? -1 : static_cast<int>(t.size()) - 1;
  return static_cast<int>(it - t.begin());
}

std::size_t CongestionRun::framesUpTo() const {
  const auto it = std::upper_bound(frames_.begin(), frames_.end(), time_,
                                   [](SimTime t, const Frame& f) { return t < f.time; });
  return static_cast<std::size_t>(it - frames_.begin());
}

void CongestionRun::moveTo(SimTime t, int event) {
  time_ = std::clamp(t, SimTime(), duration());
  current_ = event;
  Q_EMIT timeChanged();
}

bool CongestionRun::stepForward() {
  if (!loaded() || time_ >= duration()) return false;
  const std::int64_t s = slice().picos();
  sliceStart_ = SimTime::ps(time_.picos() / s * s);
  moveTo(SimTime::ps((time_.picos() / s + 1) * s), -1);
  return true;
}

bool CongestionRun::stepBack() {
  if (!loaded() || time_ <= SimTime()) return false;
  const std::int64_t s = slice().picos();
  const std::int64_t end = (time_.picos() - 1) / s * s;
  sliceStart_ = SimTime::ps(std::max<std::int64_t>(0, end - s));
  moveTo(SimTime::ps(end), -1);
  return true;
}

void CongestionRun::setTime(SimTime t) {
  sliceStart_ = std::max(SimTime(), t - slice());
  moveTo(t, -1);
}

void CongestionRun::goToSlice(int n) {
  const std::int64_t s = slice().picos();
  setTime(SimTime::ps(std::clamp(n, 0, sliceCount()) * s));
}

bool CongestionRun::matches(std::size_t i, CongestionStepTarget target) const {
  const FabricEvent::Kind k = events_[i].kind;
  switch (target) {
    case CongestionStepTarget::Notable:
      return notable_[i];
    case CongestionStepTarget::Xoff:
      return k == FabricEvent::Kind::Xoff;
    case CongestionStepTarget::EcnMark:
      return k == FabricEvent::Kind::EcnMark;
    case CongestionStepTarget::Cnp:
      return k == FabricEvent::Kind::CnpSent;
    case CongestionStepTarget::RateCut:
      return k == FabricEvent::Kind::RateCut;
    case CongestionStepTarget::Xon:
      return k == FabricEvent::Kind::Xon;
    case CongestionStepTarget::Drop:
      return k == FabricEvent::Kind::Drop;
  }
  return false;
}

bool CongestionRun::nextEvent(CongestionStepTarget target) {
  if (!loaded()) return false;
  // events after the cursor, or at its time after the one it stands on
  auto it = std::lower_bound(events_.begin(), events_.end(), time_,
                             [](const FabricEvent& e, SimTime t) { return e.time < t; });
  std::size_t i = static_cast<std::size_t>(it - events_.begin());
  if (current_ >= 0)
    i = static_cast<std::size_t>(current_) + 1;
  else if (time_ > SimTime())
    while (i < events_.size() && events_[i].time <= time_)
      ++i;
  for (; i < events_.size(); ++i) {
    if (!matches(i, target)) continue;
    moveTo(events_[i].time, static_cast<int>(i));
    return true;
  }
  return false;
}

bool CongestionRun::previousEvent(CongestionStepTarget target) {
  if (!loaded()) return false;
  auto it = std::lower_bound(events_.begin(), events_.end(), time_,
                             [](const FabricEvent& e, SimTime t) { return e.time < t; });
  auto i = static_cast<std::ptrdiff_t>(it - events_.begin()) - 1;
  if (current_ >= 0) i = current_ - 1;
  for (; i >= 0; --i) {
    if (!matches(static_cast<std::size_t>(i), target)) continue;
    moveTo(events_[static_cast<std::size_t>(i)].time, static_cast<int>(i));
    return true;
  }
  return false;
}

QString CongestionRun::stepTitle() const {
  return congestionStepTitle(*this);
}

QString CongestionRun::stepExplanation() const {
  if (current_ >= 0) return describeFabricEvent(events_[static_cast<std::size_t>(current_)], *this);
  return describeSlice(*this, sliceStart_, time_);
}

std::uint64_t CongestionRun::queueBytesNow(std::size_t queue) const {
  const int s = sampleIndex();
  if (s < 0 || queue >= series_.queues.size()) return 0;
  const auto& b = series_.queues[queue].bytes;
  return static_cast<std::size_t>(s) < b.size() ? b[static_cast<std::size_t>(s)] : 0;
}

std::uint64_t CongestionRun::xoffNow(const std::string& switchName) const {
  const int s = sampleIndex();
  const auto it = series_.xoffBytes.find(switchName);
  if (s < 0 || it == series_.xoffBytes.end() || static_cast<std::size_t>(s) >= it->second.size())
    return 0;
  return it->second[static_cast<std::size_t>(s)];
}

bool CongestionRun::pausedNow(const std::string& port, int priority) const {
  return std::any_of(pauses_.begin(), pauses_.end(), [&](const sim::PauseInterval& p) {
    return p.port == port && p.priority == priority && p.start <= time_ && time_ < p.end;
  });
}

}  // namespace rdmascope::ui
