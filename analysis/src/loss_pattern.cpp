#include "rdmascope/analysis/loss_pattern.h"

#include <algorithm>
#include <map>
#include <optional>

#include "opcode_class.h"
#include "rdmascope/analysis/psn.h"

namespace rdmascope::analysis {
namespace {

bool isRcRequest(const OpClass& c) {
  return c.transport == packets::IbTransport::Rc && c.role == Role::Request;
}

bool isRcResponse(const OpClass& c) {
  return c.transport == packets::IbTransport::Rc &&
         (c.role == Role::Ack || c.role == Role::AtomicAck || c.role == Role::ReadResponse);
}

std::string nakName(std::uint8_t syn) {
  switch (syn >> 5) {
    case 1:
      return "RNR NAK (timer " + std::to_string(syn & 0x1f) + ")";
    case 3:
      switch (syn & 0x1f) {
        case 0:
          return "NAK PSN sequence error";
        case 1:
          return "NAK invalid request";
        case 2:
          return "NAK remote access error";
        case 3:
          return "NAK remote operational error";
        case 4:
          return "NAK invalid RD request";
        default:
          return "NAK code " + std::to_string(syn & 0x1f);
      }
    default:
      return "syndrome " + std::to_string(syn);
  }
}

std::string signedRel(std::int32_t v) {
  // appended rather than "+" + to_string(v): GCC 12 at -O3 warns (-Wrestrict) on the latter
  std::string out = v >= 0 ? "+" : "";
  out += std::to_string(v);
  return out;
}

std::string ordinal(int n) {
  const char* suffix = (n % 100 >= 11 && n % 100 <= 13) ? "th"
                       : n % 10 == 1                    ? "st"
                       : n % 10 == 2                    ? "nd"
                       : n % 10 == 3                    ? "rd"
                                                        : "th";
  return std::to_string(n) + suffix;
}

// A timer resend comes a retransmit timeout after the timer was armed; under TCG the capture's
// clock shows bursts stalled by up to ~40 ms and timer resends 62 ms or more after the arming
// response with the lab's 67 ms timeout.
constexpr double kTimerFraction = 0.75;

struct StreamState {
  std::optional<std::uint32_t> next;  ///< PSN after the previous request of the current run
  bool midMessage = false;            ///< the previous request was a FIRST or MIDDLE
  std::map<std::uint32_t, int> sent;  ///< transmissions per PSN (captured + inferred lost)
  std::optional<std::size_t> openRun;
  /// Where a go-back-N resend starts (rxe's comp.psn): after the last PSN acknowledged, or
  /// at the PSN of the last NAK.
  std::optional<std::uint32_t> restart;
  std::optional<std::uint32_t> sentEnd;  ///< PSN after the highest request sent
  /// When the requester's retransmit timer was last (re)armed, as far as the capture tells:
  /// rxe re-arms it after each response it processes and on the first send after it fired.
  std::optional<double> armTime;
  /// rxe's comp.started_retry: a retry began and no ACK has come since; a NAK then starts
  /// no retry of its own.
  bool startedRetry = false;
  /// A NAK started a retry and no resend has been captured since.
  bool nakRetryPending = false;
  std::uint64_t transmissions = 0;  ///< requests sent so far (captured + inferred lost)
};

}  // namespace

LossPattern inferLossPattern(std::span<const PacketFacts> packets,
                             const LossInferenceOptions& options) {
  LossPattern out;
  // The path MTU, for the PSNs a READ request reserves: the largest FIRST/MIDDLE payload.
  std::uint32_t mtu = 0;
  for (const PacketFacts& p : packets) {
    const OpClass c = classifyOpcode(p.opcode);
    if (c.payload && !c.last) mtu = std::max(mtu, p.payloadLength);
  }
  // Where each message ends: every PSN of a LAST or ONLY request, per stream.
  std::map<std::tuple<std::string, std::string, std::uint32_t>, std::size_t> index;
  std::vector<std::vector<std::uint32_t>> lastPsns;
  auto streamOf = [&](const PacketFacts& p) {
    const auto key = std::make_tuple(p.source, p.destination, p.destQp);
    auto it = index.find(key);
    if (it != index.end()) return it->second;
    RequestStream s;
    s.source = p.source;
    s.destination = p.destination;
    s.destQp = p.destQp;
    const auto known = options.initialPsn.find(p.source);
    s.firstPsn = known != options.initialPsn.end() ? known->second : p.psn;
    out.streams.push_back(s);
    lastPsns.emplace_back();
    return index[key] = out.streams.size() - 1;
  };
  for (const PacketFacts& p : packets) {
    const OpClass c = classifyOpcode(p.opcode);
    if (!isRcRequest(c) || p.crcBad) continue;
    const std::size_t s = streamOf(p);
    if (c.last) lastPsns[s].push_back(p.psn);
  }

  std::vector<StreamState> state(out.streams.size());
  for (std::size_t s = 0; s < out.streams.size(); ++s) {
    if (options.initialPsn.count(out.streams[s].source)) {
      // Nothing acknowledged yet: the requester's completer (comp.psn) is at the initial PSN,
      // so a resend before the first ACK starts there.
      state[s].next = out.streams[s].firstPsn;
      state[s].restart = out.streams[s].firstPsn;
    }
  }
  auto lose = [&](std::size_t s, std::uint32_t psn, std::uint64_t frame, std::string why) {
    InferredLoss l;
    l.stream = s;
    l.psn = psn;
    l.relPsn = psnDiff(psn, out.streams[s].firstPsn);
    l.occurrence = ++state[s].sent[psn];
    ++state[s].transmissions;
    l.beforeFrame = frame;
    l.evidence = std::move(why);
    out.losses.push_back(std::move(l));
  };
  // The LAST or ONLY PSN of the message a PSN belongs to.
  auto messageEnd = [&](std::size_t s, std::uint32_t psn) {
    std::optional<std::uint32_t> end;
    for (std::uint32_t l : lastPsns[s]) {
      if (psnDiff(l, psn) >= 0 && (!end || psnDiff(l, *end) < 0)) end = l;
    }
    return end;
  };
  for (const PacketFacts& p : packets) {
    if (p.crcBad) continue;
    const OpClass c = classifyOpcode(p.opcode);
    if (isRcResponse(c)) {
      // A response goes back to the requester: the stream whose source is this packet's
      // destination.
      for (std::size_t s = 0; s < out.streams.size(); ++s) {
        if (out.streams[s].source != p.destination || out.streams[s].destination != p.source)
          continue;
        StreamState& st = state[s];
        st.armTime = p.time;
        if (!p.aethSyndrome) break;
        const int type = *p.aethSyndrome >> 5;
        const std::uint32_t restart = type == 0 ? psnAdd(p.psn, 1) : p.psn;
        // An ACK at or past comp.psn resets the retry counters (rxe's check_ack).
        if (type == 0 && (!st.restart || psnDiff(restart, *st.restart) > 0))
          st.startedRetry = false;
        if (type == 0 || *p.aethSyndrome == 0x60 || type == 1) {
          if (!st.restart || psnDiff(restart, *st.restart) > 0) st.restart = restart;
        }
        if (*p.aethSyndrome == 0x60 && !st.startedRetry && st.sentEnd &&
            psnDiff(*st.sentEnd, *st.restart) > 0) {
          st.startedRetry = true;
          st.nakRetryPending = true;
        }
        if (type != 0) {
          out.naks.push_back(
              {s, p.frame, psnDiff(p.psn, out.streams[s].firstPsn), *p.aethSyndrome});
        }
        break;
      }
      continue;
    }
    if (!isRcRequest(c)) continue;
    const std::size_t s = index.at(std::make_tuple(p.source, p.destination, p.destQp));
    StreamState& st = state[s];
    // After a pause of most of the retransmit timeout since the timer was armed, the timer has
    // fired (a burst sends a message's packets back to back): if PSNs were outstanding, this
    // request is a resend even when its PSN does not go back.
    const auto timeout = options.retransmitTimeout.find(p.source);
    const bool pause = timeout != options.retransmitTimeout.end() && st.armTime &&
                       p.time - *st.armTime >= timeout->second * kTimerFraction;
    const bool outstanding = st.restart && st.sentEnd && psnDiff(*st.sentEnd, *st.restart) > 0;
    // With nothing outstanding this send arms the timer afresh.
    if (!st.armTime || !outstanding) st.armTime = p.time;
    bool soonerThanTimer = false;
    std::uint64_t transmissionsBefore = st.transmissions;
    if (st.next) {
      const std::int32_t d = psnDiff(p.psn, *st.next);
      const bool timerResend = pause && outstanding;
      const bool resend = d < 0 || timerResend;
      soonerThanTimer =
          d < 0 && !pause && !st.nakRetryPending && timeout != options.retransmitTimeout.end();
      if (d > 0 && !resend) {
        for (std::uint32_t q = *st.next; q != p.psn; q = psnAdd(q, 1))
          lose(s, q, p.frame, "skipped in an ascending run of requests");
      } else if (resend && st.midMessage) {
        // The requester went back while a message was half captured: the rest of that
        // message was sent and lost.
        if (const auto end = messageEnd(s, *st.next)) {
          for (std::uint32_t q = *st.next;; q = psnAdd(q, 1)) {
            lose(s, q, p.frame,
                 st.nakRetryPending ? "the rest of a message the requester went back on (or never "
                                      "sent, if the NAK reached it mid-burst)"
                                    : "the rest of a message the requester went back on");
            if (q == *end) break;
          }
        }
      }
      // A NAK made the requester resend at once from its PSN up to the highest PSN sent;
      // when the timer's resend comes first, all of that was lost.
      if (timerResend && st.nakRetryPending) {
        for (std::uint32_t q = *st.restart; q != *st.sentEnd; q = psnAdd(q, 1))
          lose(s, q, p.frame, "the resend a NAK started was lost entirely");
      }
      transmissionsBefore = st.transmissions;
      // A resend starts where the requester's acknowledged PSNs end (or at the NAK's PSN):
      // when the capture's first resent PSN is later, the ones before it were lost again.
      if (resend && st.restart && psnDiff(p.psn, *st.restart) > 0) {
        for (std::uint32_t q = *st.restart; q != p.psn; q = psnAdd(q, 1))
          lose(s, q, p.frame, "a resend starts at the acknowledged or NAKed PSN");
      }
      if (resend) {
        st.startedRetry = true;
        st.nakRetryPending = false;
      }
      if (timerResend) st.armTime = p.time;
    }
    const int n = ++st.sent[p.psn];
    ++st.transmissions;
    ++out.streams[s].requests;
    out.streams[s].packets.emplace(psnDiff(p.psn, out.streams[s].firstPsn), p.opcode);
    if (n > 1) {
      ++out.streams[s].resent;
      const std::int32_t rel = psnDiff(p.psn, out.streams[s].firstPsn);
      if (st.openRun && out.resends[*st.openRun].lastRelPsn + 1 == rel) {
        ResendRun& r = out.resends[*st.openRun];
        r.lastRelPsn = rel;
        ++r.packets;
      } else {
        out.resends.push_back({s, p.frame, rel, rel, 1,
                               st.restart ? psnDiff(*st.restart, out.streams[s].firstPsn) : rel,
                               soonerThanTimer, transmissionsBefore});
        st.openRun = out.resends.size() - 1;
      }
    } else {
      st.openRun.reset();
    }
    std::uint32_t span = 1;
    if (c.kind == MessageKind::Read && p.dmaLength && mtu > 0)
      span = std::max<std::uint32_t>(1, static_cast<std::uint32_t>((*p.dmaLength + mtu - 1) / mtu));
    st.next = psnAdd(p.psn, span);
    // A burst sends the rest of a message in one go, captured or not.
    std::uint32_t sentEnd = *st.next;
    if (!c.last) {
      if (const auto end = messageEnd(s, p.psn)) sentEnd = psnAdd(*end, 1);
    }
    if (!st.sentEnd || psnDiff(sentEnd, *st.sentEnd) > 0) st.sentEnd = sentEnd;
    st.midMessage = !c.last;
  }
  return out;
}

std::vector<std::string> nakLines(const LossPattern& pattern) {
  std::vector<std::string> lines;
  for (const NakRecord& n : pattern.naks)
    lines.push_back(nakName(n.syndrome) + " at " + signedRel(n.relPsn));
  return lines;
}

std::vector<std::string> resendLines(const LossPattern& pattern, bool fromRestart) {
  std::vector<std::string> lines;
  for (const ResendRun& r : pattern.resends) {
    std::int32_t first = r.firstRelPsn;
    std::uint32_t packets = r.packets;
    if (fromRestart && first < r.restartRelPsn && r.restartRelPsn <= r.lastRelPsn) {
      packets -= static_cast<std::uint32_t>(r.restartRelPsn - first);
      first = r.restartRelPsn;
    }
    lines.push_back("resend " + signedRel(first) +
                    (r.lastRelPsn != first ? ".." + signedRel(r.lastRelPsn) : "") + " (" +
                    std::to_string(packets) + (packets == 1 ? " packet)" : " packets)"));
  }
  return lines;
}

std::vector<std::string> lossLines(const LossPattern& pattern) {
  std::vector<std::string> lines;
  for (const InferredLoss& l : pattern.losses) {
    lines.push_back("lost " + signedRel(l.relPsn) + " (" + ordinal(l.occurrence) +
                    " transmission, seen before frame " + std::to_string(l.beforeFrame) +
                    "): " + l.evidence);
  }
  return lines;
}

}  // namespace rdmascope::analysis
