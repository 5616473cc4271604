#include "rdmascope/sim/trace.h"

#include <algorithm>

#include "strfmt.h"

namespace rdmascope::sim {

std::string_view toString(TraceKind kind) {
  switch (kind) {
    case TraceKind::QpState:
      return "qp-state";
    case TraceKind::WqePosted:
      return "wqe-posted";
    case TraceKind::WqeStarted:
      return "wqe-started";
    case TraceKind::WqePacket:
      return "wqe-packet";
    case TraceKind::WqeCompleted:
      return "wqe-completed";
    case TraceKind::FrameSent:
      return "frame-sent";
    case TraceKind::FrameReceived:
      return "frame-received";
    case TraceKind::FrameDropped:
      return "frame-dropped";
    case TraceKind::CqeProduced:
      return "cqe";
    case TraceKind::MemoryRead:
      return "mem-read";
    case TraceKind::MemoryWritten:
      return "mem-write";
    case TraceKind::TimerArmed:
      return "timer-armed";
    case TraceKind::TimerFired:
      return "timer-fired";
    case TraceKind::Note:
      return "note";
  }
  return "?";
}

std::string formatTraceLine(const TraceEvent& e) {
  return fmt::format("{:>14.6f} us  {:<8} {:<14} {}", static_cast<double>(e.time.picos()) / 1e6,
                     e.host, toString(e.kind), e.explanation);
}

namespace {
std::string jsonEscape(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        } else {
          out += c;
        }
    }
  }
  return out;
}
}  // namespace

std::string formatTraceJson(const TraceEvent& e) {
  std::string hex;
  hex.reserve(e.bytes.size() * 2);
  static constexpr char kHex[] = "0123456789abcdef";
  for (std::uint8_t b : e.bytes) {
    hex += kHex[b >> 4];
    hex += kHex[b & 15];
  }
  return fmt::format(
      R"({{"time_ps":{},"step":{},"host":"{}","kind":"{}","qpn":{},"psn":{},"frame":{},)"
      R"("wr_id":{},"address":{},"length":{},"bytes":"{}","explanation":"{}"}})",
      e.time.picos(), e.step, jsonEscape(e.host), toString(e.kind), e.qpn, e.psn, e.frameNumber,
      e.wrId, e.address, e.length, hex, jsonEscape(e.explanation));
}

int Trace::subscribe(Subscriber s) {
  const int id = nextId_++;
  subscribers_.emplace_back(id, std::move(s));
  return id;
}

void Trace::unsubscribe(int id) {
  std::erase_if(subscribers_, [id](const auto& p) { return p.first == id; });
}

void Trace::emit(TraceEvent event) {
  if (!enabled_) return;
  for (const auto& [id, fn] : subscribers_)
    fn(event);
  if (retain_) events_.push_back(std::move(event));
}

}  // namespace rdmascope::sim
