#include "congestion_tracker.h"

#include <algorithm>
#include <cstdio>

#include "report_sink.h"

namespace rdmascope::analysis {
namespace {

constexpr std::size_t kMaxIntervals = 4096;  // per priority, for the victim-flow overlap

// AnomalyDetail::code of a PFC priority (-1: every priority).
std::uint8_t priorityCode(int priority) {
  return static_cast<std::uint8_t>(priority < 0 ? 0 : priority + 1);
}

}  // namespace

std::string CongestionTracker::macText(std::uint64_t mac) {
  char buf[24];
  std::snprintf(
      buf, sizeof buf, "%02x:%02x:%02x:%02x:%02x:%02x", static_cast<unsigned>((mac >> 40) & 0xff),
      static_cast<unsigned>((mac >> 32) & 0xff), static_cast<unsigned>((mac >> 24) & 0xff),
      static_cast<unsigned>((mac >> 16) & 0xff), static_cast<unsigned>((mac >> 8) & 0xff),
      static_cast<unsigned>(mac & 0xff));
  return buf;
}

void CongestionTracker::checkStorm(PauseState& s, double now, std::uint64_t frame,
                                   std::vector<Anomaly>& out) {
  const double held = std::min(now, s.end) - s.start;
  if (s.stormReported || held <= options_.pauseStormSeconds) return;
  s.stormReported = true;
  ++storms_;
  ++s.stats.storms;
  Anomaly a = makeAnomaly(AnomalyKind::PauseStorm, frame, now, -1, 0, DetailPhrase::PauseStorm);
  a.what.code = priorityCode(s.stats.priority);
  a.detailNames.push_back(s.stats.port);
  a.relatedFrame = s.startFrame;
  a.wait = held;
  a.count = static_cast<std::uint32_t>(std::min<std::uint64_t>(s.framesInPause, UINT32_MAX));
  out.push_back(std::move(a));
}

void CongestionTracker::closeInterval(PauseState& s, double end, std::vector<Anomaly>& out,
                                      std::uint64_t frame) {
  end = std::max(end, s.start);
  checkStorm(s, end, frame, out);
  const double held = end - s.start;
  s.stats.pausedSeconds += held;
  s.stats.longestPause = std::max(s.stats.longestPause, held);
  if (intervals_.size() < options_.maxPauseIntervals)
    intervals_.push_back(
        {s.stats.port, s.stats.priority, s.start, end, s.startFrame, s.framesInPause});
  else
    ++intervalsDropped_;
  const Interval iv{s.start, end, s.port};
  for (int p = 0; p < 8; ++p) {
    if (s.stats.priority >= 0 && p != s.stats.priority) continue;
    history_[p].push_back(iv);
    if (history_[p].size() > kMaxIntervals) history_[p].pop_front();
  }
  s.active = false;
  s.stormReported = false;
}

std::vector<Anomaly> CongestionTracker::pauseFrame(const packets::MacControlFrame& m,
                                                   std::uint64_t frame, double time) {
  std::vector<Anomaly> out;
  if (!m.pfc && !m.pauseTime) return out;
  ++pauseFrames_;
  std::uint64_t port = 0;
  for (std::uint8_t b : m.source)
    port = (port << 8) | b;
  auto apply = [&](int priority, std::uint16_t quanta) {
    const auto key = std::make_pair(port, priority);
    auto [it, added] = pauseStates_.try_emplace(key);
    PauseState& s = it->second;
    if (added) {
      s.port = port;
      s.stats.port = macText(port);
      s.stats.priority = priority;
      s.stats.firstFrame = frame;
      pauseOrder_.push_back(key);
    }
    ++s.stats.frames;
    s.stats.lastFrame = frame;
    if (s.active && time > s.end) closeInterval(s, s.end, out, frame);  // it had run out
    if (quanta == 0) {
      ++s.stats.xon;
      if (s.active) closeInterval(s, time, out, frame);
      return;
    }
    ++s.stats.xoff;
    s.stats.quanta += quanta;
    const double until = time + packets::pauseQuantaSeconds(quanta, options_.linkBitsPerSecond);
    if (!s.active) {
      s.active = true;
      s.start = time;
      s.startFrame = frame;
      s.framesInPause = 0;
    }
    s.end = until;  // a refresh replaces the remaining time
    ++s.framesInPause;
    checkStorm(s, time, frame, out);
  };
  if (m.pfc) {
    for (int p = 0; p < 8; ++p)
      if (m.pfc->enabled(static_cast<unsigned>(p)))
        apply(p, m.pfc->quanta[static_cast<std::size_t>(p)]);
  } else {
    apply(-1, *m.pauseTime);
  }
  return out;
}

double CongestionTracker::pausedWithin(int priority, double from, double to, std::uint64_t except,
                                       std::uint64_t& port) const {
  std::vector<Interval> pieces;
  auto take = [&](double s, double e, std::uint64_t p) {
    s = std::max(s, from);
    e = std::min(e, to);
    if (e > s && p != except) pieces.push_back({s, e, p});
  };
  const auto& h = history_[priority];
  for (auto it = h.rbegin(); it != h.rend() && it->end > from; ++it)
    take(it->start, it->end, it->port);
  for (const auto& [key, s] : pauseStates_)
    if (s.active && (key.second == priority || key.second < 0)) take(s.start, s.end, s.port);
  if (pieces.empty()) return 0.0;
  std::sort(pieces.begin(), pieces.end(),
            [](const Interval& a, const Interval& b) { return a.start < b.start; });
  double total = 0.0, longest = 0.0, curStart = pieces[0].start, curEnd = pieces[0].end;
  for (const auto& iv : pieces) {
    if (iv.end - iv.start > longest) {
      longest = iv.end - iv.start;
      port = iv.port;
    }
    if (iv.start > curEnd) {
      total += curEnd - curStart;
      curStart = iv.start;
      curEnd = iv.end;
    } else {
      curEnd = std::max(curEnd, iv.end);
    }
  }
  return total + (curEnd - curStart);
}

void CongestionTracker::request(int c, int d, const PacketFacts& f,
                                const std::string& destination) {
  FlowState& fl = flows_[{c, d}];
  if (f.ipEcn == 3) {
    ++fl.marks;
    if (fl.pending++ == 0) fl.firstPending = f.frame;
    fl.lastPending = f.frame;
    fl.lastPendingTime = f.time;
  }
  fl.bytes += f.payloadLength;
  if (fl.seen && f.time > fl.lastTime) {
    // A silence longer than twice the flow's usual gap that pauses of its priority cover is
    // time the flow was held; a flow that kept sending through a pause was not held by it.
    const double gap = f.time - fl.lastTime;
    double p = 0.0;
    std::uint64_t port = 0;
    if (pauseFrames_ > 0 && (fl.gap == 0.0 || gap > 2 * fl.gap))
      p = pausedWithin(std::min<int>(f.priority, 7), fl.lastTime, f.time, f.sourceMac, port);
    if (p > 0) {
      if (fl.paused == 0) {
        fl.firstPausedFrame = f.frame;
        fl.firstPausedTime = f.time;
        fl.pausingPort = port;
      }
      fl.paused += p;
    } else {
      fl.gap = fl.gap == 0.0 ? gap : 0.875 * fl.gap + 0.125 * gap;
    }
  }
  fl.seen = true;
  fl.priority = f.priority;
  fl.sourceMac = f.sourceMac;
  fl.destination = destination;
  fl.lastTime = std::max(fl.lastTime, f.time);
}

std::optional<Anomaly> CongestionTracker::cnp(int c, int d, const PacketFacts& f) {
  FlowState& fl = flows_[{c, d}];
  ++fl.cnps;
  CnpMatch m;
  m.frame = f.frame;
  m.time = f.time;
  m.connection = c;
  m.direction = d;
  m.destQp = f.destQp;
  m.marked = fl.pending;
  m.firstMarkedFrame = fl.firstPending;
  m.lastMarkedFrame = fl.lastPending;
  if (fl.pending) m.reaction = f.time - fl.lastPendingTime;
  fl.pending = fl.firstPending = fl.lastPending = 0;
  if (matches_.size() < options_.maxCnpMatches)
    matches_.push_back(m);
  else
    ++matchesDropped_;
  if (m.marked) return std::nullopt;
  ++cnpsWithoutMark_;
  Anomaly a = makeAnomaly(AnomalyKind::CnpWithoutMark, f.frame, f.time, d, f.psn,
                          DetailPhrase::CnpWithoutMark);
  a.what.number = f.destQp;
  return a;
}

std::vector<Anomaly> CongestionTracker::finish(double endTime) {
  std::vector<Anomaly> out;
  if (finished_) return out;
  finished_ = true;
  for (auto& [key, s] : pauseStates_)
    if (s.active)
      closeInterval(s, std::min(s.end, std::max(endTime, s.start)), out, s.stats.lastFrame);
  for (const auto& [key, fl] : flows_)
    marksWithoutCnp_ += fl.pending;

  // The congested receiver: the destination most paused flows go to (ties: more bytes). Flows
  // paused on the way to another receiver, with no mark or CNP of their own, are its victims.
  std::map<std::string, std::pair<std::size_t, std::uint64_t>> pausedTo;
  for (const auto& [key, fl] : flows_)
    if (fl.paused > 0) {
      auto& e = pausedTo[fl.destination];
      ++e.first;
      e.second += fl.bytes;
    }
  if (pausedTo.size() < 2) return out;
  const auto hot = std::max_element(pausedTo.begin(), pausedTo.end(), [](auto& a, auto& b) {
    return a.second.first != b.second.first ? a.second.first < b.second.first
                                            : a.second.second < b.second.second;
  });
  for (const auto& [key, fl] : flows_) {
    if (fl.paused <= 0 || fl.destination == hot->first || fl.marks || fl.cnps) continue;
    ++victims_;
    Anomaly a = makeAnomaly(AnomalyKind::VictimFlow, fl.firstPausedFrame, fl.firstPausedTime,
                            key.second, 0, DetailPhrase::VictimFlow);
    a.what.code = priorityCode(fl.priority);
    a.what.number = static_cast<std::uint32_t>(hot->second.first);
    a.detailNames = {fl.destination, macText(fl.pausingPort), hot->first};
    a.connection = key.first;
    a.wait = fl.paused;
    out.push_back(std::move(a));
  }
  return out;
}

std::vector<PauseStats> CongestionTracker::pauses() const {
  std::vector<PauseStats> out;
  for (const auto& key : pauseOrder_) {
    const PauseState& s = pauseStates_.at(key);
    PauseStats st = s.stats;
    if (s.active) {  // still held: count it up to the last frame seen
      st.pausedSeconds += std::max(0.0, s.end - s.start);
      st.longestPause = std::max(st.longestPause, s.end - s.start);
    }
    out.push_back(std::move(st));
  }
  return out;
}

std::size_t CongestionTracker::retainedIntervals() const {
  std::size_t n = 0;
  for (const auto& h : history_)
    n += h.size();
  return n;
}

}  // namespace rdmascope::analysis
