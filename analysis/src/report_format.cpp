#include <charconv>
#include <cstdio>
#include <functional>
#include <iterator>
#include <ostream>
#include <sstream>

#include "json_writer.h"
#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/packets/mad_headers.h"
#include "report_sink.h"

namespace rdmascope::analysis {

namespace {

void endpointJson(JsonWriter& w, const Endpoint& e) {
  w.beginObject();
  w.field("address", e.address);
  w.key("qp");
  if (e.qp)
    w.value(*e.qp);
  else
    w.null();
  if (e.port) w.field("port", *e.port);
  w.endObject();
}

void latencyJson(JsonWriter& w, const LatencyStats& l) {
  w.beginObject();
  w.field("count", l.count());
  w.field("min_ns", l.min());
  w.field("p50_ns", l.percentile(50));
  w.field("p99_ns", l.percentile(99));
  w.field("max_ns", l.max());
  w.field("mean_ns", l.mean());
  w.field("exact", l.exact());
  w.endObject();
}

void directionJson(JsonWriter& w, const DirectionStats& s) {
  w.beginObject();
  w.field("request_frames", s.requestFrames);
  w.field("response_frames", s.responseFrames);
  w.field("payload_bytes", s.payloadBytes);
  w.field("wire_bytes", s.wireBytes);
  w.field("messages", s.messages);
  w.field("failed_messages", s.failedMessages);
  w.field("incomplete_messages", s.incompleteMessages);
  w.field("resent_frames", s.resentFrames);
  w.field("duplicates", s.duplicates);
  w.field("psn_gaps", s.psnGaps);
  w.field("missing_psns", s.missingPsns);
  w.field("naks", s.naks);
  w.field("rnr_naks", s.rnrNaks);
  w.field("timeouts", s.timeouts);
  w.field("cnps", s.cnps);
  w.field("ecn_marks", s.ecnMarks);
  w.field("icrc_failures", s.icrcFailures);
  w.field("crc_failures", s.crcFailures);
  w.field("terminates", s.terminates);
  w.field("out_of_order", s.outOfOrder);
  w.field("segment_gaps", s.segmentGaps);
  w.field("missing_bytes", s.missingBytes);
  w.field("rnr_wait_total_s", s.rnrWaitTotal);
  w.field("rnr_wait_max_s", s.rnrWaitMax);
  w.field("throughput_bytes_per_s", s.throughput());
  w.field("message_rate_per_s", s.messageRate());
  w.key("latency");
  latencyJson(w, s.latency);
  // The DOM this replaced put "series" after "series_width_s".
  w.field("series_width_s", s.seriesWidth);
  w.key("series");
  w.beginArray();
  for (const auto& b : s.series) {
    w.beginObject();
    w.field("start_s", b.start);
    w.field("frames", b.frames);
    w.field("bytes", b.bytes);
    w.field("messages", b.messages);
    w.field("latency_mean_s",
            b.latencyCount ? b.latencySum / static_cast<double>(b.latencyCount) : 0.0);
    w.field("latency_max_s", b.latencyMax);
    w.field("anomalies", b.anomalies);
    w.endObject();
  }
  w.endArray();
  w.endObject();
}

template <class T>
void optionalField(JsonWriter& w, std::string_view key, bool present, const T& value) {
  w.key(key);
  if (present)
    w.value(value);
  else
    w.null();
}

void mpaJson(JsonWriter& w, const MpaNegotiation& m) {
  w.beginObject();
  optionalField(w, "request_frame", m.requestSeen, m.requestFrame);
  optionalField(w, "reply_frame", m.replySeen, m.replyFrame);
  w.field("request_markers", m.requestMarkers);
  w.field("request_crc", m.requestCrc);
  w.field("reply_markers", m.replyMarkers);
  w.field("reply_crc", m.replyCrc);
  w.field("crc_in_use", m.crcInUse());
  w.field("rejected", m.rejected);
  w.field("request_revision", m.requestRevision);
  w.field("reply_revision", m.replyRevision);
  w.endObject();
}

void cmJson(JsonWriter& w, const CmHandshake& h) {
  w.beginObject();
  char sid[24];
  std::snprintf(sid, sizeof sid, "0x%016llx", static_cast<unsigned long long>(h.serviceId));
  w.field("client", h.client);
  w.field("server", h.server);
  w.field("service_id", sid);
  optionalField(w, "port", h.port.has_value(), h.port.value_or(0));
  w.field("client_comm_id", h.clientCommId);
  optionalField(w, "server_comm_id", h.serverCommId.has_value(), h.serverCommId.value_or(0));
  optionalField(w, "client_qpn", h.clientQpn.has_value(), h.clientQpn.value_or(0));
  optionalField(w, "server_qpn", h.serverQpn.has_value(), h.serverQpn.value_or(0));
  w.field("connection", h.connection);
  w.field("established", h.established());
  w.field("disconnected", h.disconnected());
  if (h.rejectReason) {
    w.field("reject_reason", *h.rejectReason);
    w.field("reject_reason_name", packets::cmRejectReasonName(*h.rejectReason));
  }
  w.key("steps");
  w.beginArray();
  for (const auto& st : h.steps) {
    w.beginObject();
    w.field("frame", st.frame);
    w.field("time_s", st.time);
    w.field("message", st.message);
    w.field("from", st.fromClient ? "client" : "server");
    w.endObject();
  }
  w.endArray();
  w.endObject();
}

// "REQ 3 -> REP 4 -> RTU 5 -> DREQ 76 -> DREP 77 (port 18515)".
std::string cmText(const CmHandshake& h) {
  std::string t;
  for (const auto& st : h.steps) {
    if (!t.empty()) t += " -> ";
    t += st.message + " " + std::to_string(st.frame);
  }
  if (h.port) t += " (port " + std::to_string(*h.port) + ")";
  if (h.rejectReason) {
    const auto name = packets::cmRejectReasonName(*h.rejectReason);
    t += ": rejected, " +
         (name.empty() ? "reason " + std::to_string(*h.rejectReason) : std::string(name));
  }
  return t;
}

std::string endpointText(const Endpoint& e) {
  if (e.port) return e.address + ":" + std::to_string(*e.port);
  return e.address + (e.qp ? " QP " + std::to_string(*e.qp) : " QP ?");
}

std::string mpaText(const MpaNegotiation& m) {
  if (!m.requestSeen) return "MPA Request not seen";
  std::string t = "MPA Request (frame " + std::to_string(m.requestFrame) +
                  ": M=" + (m.requestMarkers ? "1" : "0") + " C=" + (m.requestCrc ? "1" : "0") +
                  ")";
  if (!m.replySeen) return t + ", no Reply seen";
  t += ", Reply (frame " + std::to_string(m.replyFrame) + ": M=" + (m.replyMarkers ? "1" : "0") +
       " C=" + (m.replyCrc ? "1" : "0") + ")";
  if (m.rejected) return t + ": rejected";
  return t + ": CRC " + (m.crcInUse() ? "on" : "off") + ", markers to the initiator " +
         (m.replyMarkers ? "on" : "off") + ", to the responder " +
         (m.requestMarkers ? "on" : "off");
}

std::string nsText(std::uint64_t ns) {
  char buf[32];
  if (ns < 1000) {
    std::snprintf(buf, sizeof buf, "%llu ns", static_cast<unsigned long long>(ns));
  } else if (ns < 1000000) {
    std::snprintf(buf, sizeof buf, "%.1f us", static_cast<double>(ns) / 1e3);
  } else {
    std::snprintf(buf, sizeof buf, "%.3f ms", static_cast<double>(ns) / 1e6);
  }
  return buf;
}

std::string rateText(double bytesPerSecond) {
  char buf[32];
  const double bits = bytesPerSecond * 8;
  if (bits >= 1e9) {
    std::snprintf(buf, sizeof buf, "%.2f Gb/s", bits / 1e9);
  } else if (bits >= 1e6) {
    std::snprintf(buf, sizeof buf, "%.2f Mb/s", bits / 1e6);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f kb/s", bits / 1e3);
  }
  return buf;
}

}  // namespace

namespace {

// Writes the report into `out`; with `drain` set, hands it the text written so far (and clears
// it) between the items of the long arrays, whenever it holds more than kDrainBytes.
constexpr std::size_t kDrainBytes = std::size_t{1} << 20;

void writeReport(std::string& out, const AnalysisReport& report, int indent,
                 const std::function<void(std::string&)>& drain) {
  const auto drainSome = [&] {
    if (drain && out.size() > kDrainBytes) {
      drain(out);
      out.clear();
    }
  };
  JsonWriter w(out, indent);
  w.beginObject();
  const AnalysisSummary& s = report.summary;
  w.key("summary");
  w.beginObject();
  w.field("connections", s.connections);
  w.field("messages", s.messages);
  w.field("naks", s.naks);
  w.field("rnr_naks", s.rnrNaks);
  w.field("resent_frames", s.resentFrames);
  w.field("psn_gaps", s.psnGaps);
  w.field("duplicates", s.duplicates);
  w.field("icrc_failures", s.icrcFailures);
  w.field("incomplete_messages", s.incompleteMessages);
  w.field("cnps", s.cnps);
  w.field("frames", s.frames);
  w.field("rdma_frames", s.rdmaFrames);
  w.field("completed_messages", s.completedMessages);
  w.field("failed_messages", s.failedMessages);
  w.field("timeouts", s.timeouts);
  w.field("ecn_marks", s.ecnMarks);
  w.field("iwarp_frames", s.iwarpFrames);
  w.field("crc_failures", s.crcFailures);
  w.field("terminates", s.terminates);
  w.field("out_of_order_segments", s.outOfOrderSegments);
  w.field("segment_gaps", s.segmentGaps);
  w.field("mpa_rejects", s.mpaRejects);
  w.field("pause_frames", s.pauseFrames);
  w.field("pause_storms", s.pauseStorms);
  w.field("victim_flows", s.victimFlows);
  w.field("cnps_without_mark", s.cnpsWithoutMark);
  w.field("marks_without_cnp", s.marksWithoutCnp);
  w.endObject();

  w.key("connections");
  w.beginArray();
  for (const auto& c : report.connections) {
    w.beginObject();
    w.field("id", c.id);
    w.field("carrier", toString(c.carrier));
    w.field("transport", c.transport);
    w.key("a");
    endpointJson(w, c.a);
    w.key("b");
    endpointJson(w, c.b);
    w.field("frames", c.frames);
    w.field("first_frame", c.firstFrame);
    w.field("last_frame", c.lastFrame);
    w.field("first_time_s", c.firstTime);
    w.field("last_time_s", c.lastTime);
    w.key("a_to_b");
    directionJson(w, c.dir[0]);
    w.key("b_to_a");
    directionJson(w, c.dir[1]);
    if (c.mpa) {
      w.key("mpa");
      mpaJson(w, *c.mpa);
    }
    if (c.cm) {
      w.key("cm");
      cmJson(w, *c.cm);
    }
    w.endObject();
  }
  w.endArray();

  w.key("anomalies");
  w.beginArray();
  for (const auto& a : report.anomalies) {
    w.beginObject();
    w.field("kind", toString(a.kind));
    w.field("frame", a.frame);
    w.field("time_s", a.time);
    w.field("connection", a.connection);
    w.field("direction", a.direction == 0 ? "a_to_b" : a.direction == 1 ? "b_to_a" : "");
    w.field("psn", a.psn);
    if (a.relatedFrame) w.field("related_frame", a.relatedFrame);
    if (a.count) w.field("count", a.count);
    if (a.wait > 0) w.field("wait_s", a.wait);
    w.field("detail", a.detail);
    w.endObject();
    drainSome();
  }
  w.endArray();
  w.field("anomalies_dropped", report.anomaliesDropped);

  if (!report.pauses.empty()) {
    w.key("pauses");
    w.beginArray();
    for (const auto& p : report.pauses) {
      w.beginObject();
      w.field("port", p.port);
      w.field("priority", p.priority);
      w.field("frames", p.frames);
      w.field("xoff", p.xoff);
      w.field("xon", p.xon);
      w.field("quanta", p.quanta);
      w.field("paused_s", p.pausedSeconds);
      w.field("longest_pause_s", p.longestPause);
      w.field("storms", p.storms);
      w.field("first_frame", p.firstFrame);
      w.field("last_frame", p.lastFrame);
      w.endObject();
    }
    w.endArray();
    w.key("pause_intervals");
    w.beginArray();
    for (const auto& iv : report.pauseIntervals) {
      w.beginObject();
      w.field("port", iv.port);
      w.field("priority", iv.priority);
      w.field("start_s", iv.start);
      w.field("end_s", iv.end);
      w.field("start_frame", iv.startFrame);
      w.field("frames", iv.frames);
      w.endObject();
    }
    w.endArray();
    w.field("pause_intervals_dropped", report.pauseIntervalsDropped);
  }
  if (!report.cnps.empty()) {
    w.key("cnps");
    w.beginArray();
    for (const auto& m : report.cnps) {
      w.beginObject();
      w.field("frame", m.frame);
      w.field("time_s", m.time);
      w.field("connection", m.connection);
      w.field("direction", m.direction == 0 ? "a_to_b" : "b_to_a");
      w.field("dest_qp", m.destQp);
      w.field("marked", m.marked);
      if (m.marked) {
        w.field("first_marked_frame", m.firstMarkedFrame);
        w.field("last_marked_frame", m.lastMarkedFrame);
        w.field("reaction_s", m.reaction);
      }
      w.endObject();
    }
    w.endArray();
    w.field("cnps_dropped", report.cnpsDropped);
  }

  w.key("messages");
  w.beginArray();
  for (const auto& m : report.messages) {
    w.beginObject();
    w.field("connection", m.connection);
    w.field("direction", m.direction == 0 ? "a_to_b" : "b_to_a");
    w.field("kind", toString(m.kind));
    w.field("first_psn", m.firstPsn);
    w.field("last_psn", m.lastPsn);
    w.field("first_frame", m.firstFrame);
    w.field("last_request_frame", m.lastRequestFrame);
    w.field("end_frame", m.endFrame);
    w.field("bytes", m.bytes);
    w.field("packets", m.packets);
    w.field("resent_packets", m.resentPackets);
    if (m.stag) w.field("stag", *m.stag);
    if (m.msn) w.field("msn", *m.msn);
    w.field("outcome", toString(m.outcome));
    if (m.outcome == Outcome::Completed) w.field("latency_s", m.latency());
    if (!m.detail.empty()) w.field("detail", m.detail);
    w.endObject();
    drainSome();
  }
  w.endArray();
  w.field("messages_dropped", report.messagesDropped);
  if (!report.handshakes.empty()) {
    w.key("cm_handshakes");
    w.beginArray();
    for (const auto& h : report.handshakes)
      cmJson(w, h);
    w.endArray();
  }
  w.endObject();
}

}  // namespace

std::string toJson(const AnalysisReport& report, int indent) {
  std::string out;
  writeReport(out, report, indent, nullptr);
  return out;
}

void writeJson(std::ostream& os, const AnalysisReport& report, std::string_view lastMember,
               int indent) {
  std::string out;
  out.reserve(2 * kDrainBytes);
  writeReport(out, report, indent, [&os](std::string& text) { os << text; });
  // The text since the last drain ends with the report's closing brace.
  if (!lastMember.empty()) {
    const auto close = out.rfind('}');
    if (close != std::string::npos) out.insert(close, lastMember);
  }
  os << out;
}

void writeText(std::ostream& os, const AnalysisReport& report) {
  std::ostringstream out;
  const AnalysisSummary& s = report.summary;
  char line[512];
  out << "Conversations (" << report.connections.size() << ")\n";
  std::snprintf(line, sizeof line, "  %-3s %-10s %-4s %-34s %-34s %8s %8s\n", "id", "carrier",
                "svc", "endpoint A", "endpoint B", "frames", "messages");
  out << line;
  for (const auto& c : report.connections) {
    std::snprintf(
        line, sizeof line, "  %-3d %-10s %-4s %-34s %-34s %8llu %8llu\n", c.id,
        std::string(toString(c.carrier)).c_str(), c.transport.c_str(), endpointText(c.a).c_str(),
        endpointText(c.b).c_str(), static_cast<unsigned long long>(c.frames),
        static_cast<unsigned long long>(c.dir[0].messages + c.dir[1].messages +
                                        c.dir[0].failedMessages + c.dir[1].failedMessages +
                                        c.dir[0].incompleteMessages + c.dir[1].incompleteMessages));
    out << line;
    if (c.cm) out << "      CM " << cmText(*c.cm) << "\n";
  }
  bool header = false;
  for (const auto& h : report.handshakes) {
    if (h.connection >= 0) continue;
    if (!header) out << "\nCM handshakes without a connection\n";
    header = true;
    out << "  " << h.client << " -> " << h.server << ": " << cmText(h) << "\n";
  }

  out << "\nAnomalies (" << report.anomalies.size() + report.anomaliesDropped << ")\n";
  if (report.anomalies.empty()) out << "  none\n";
  // The list (a capture may have 100,000 anomalies, ten megabytes of text) is written a
  // megabyte at a time, each line "  frame {:<8} conn {:<3} {:<18} {}" appended piece by piece.
  os << out.str();
  out.str({});
  constexpr std::size_t kBlock = std::size_t{1} << 20;
  std::string text;
  text.reserve(kBlock + 4096);
  const auto padded = [&text](std::string_view field, std::size_t width) {
    text += field;
    if (field.size() < width) text.append(width - field.size(), ' ');
  };
  char number[24];
  const auto numberText = [&number](auto v) {
    return std::string_view(
        number, static_cast<std::size_t>(std::to_chars(number, number + 24, v).ptr - number));
  };
  for (const auto& a : report.anomalies) {
    text += "  frame ";
    padded(numberText(a.frame), 8);
    text += " conn ";
    padded(numberText(a.connection), 3);
    text += ' ';
    padded(toString(a.kind), 18);
    text += ' ';
    text += a.detail;
    text += '\n';
    if (text.size() >= kBlock) {
      os << text;
      text.clear();
    }
  }
  os << text;
  if (report.anomaliesDropped)
    out << "  ... and " << report.anomaliesDropped << " more not listed\n";

  out << "\nPer-connection statistics\n";
  for (const auto& c : report.connections) {
    for (int d = 0; d < 2; ++d) {
      const DirectionStats& st = c.dir[d];
      if (st.requestFrames == 0 && st.responseFrames == 0 && st.cnps == 0) continue;
      const Endpoint& from = d == 0 ? c.a : c.b;
      const Endpoint& to = d == 0 ? c.b : c.a;
      if (d == 0 && c.mpa) out << "  conn " << c.id << " " << mpaText(*c.mpa) << "\n";
      out << "  conn " << c.id << (c.mpa ? " sends " : " requests ") << endpointText(from) << " -> "
          << endpointText(to) << "\n";
      std::snprintf(line, sizeof line,
                    "    messages %llu completed, %llu failed, %llu incomplete; %llu bytes, %s, "
                    "%.1f msg/s\n",
                    static_cast<unsigned long long>(st.messages),
                    static_cast<unsigned long long>(st.failedMessages),
                    static_cast<unsigned long long>(st.incompleteMessages),
                    static_cast<unsigned long long>(st.payloadBytes),
                    rateText(st.throughput()).c_str(), st.messageRate());
      out << line;
      if (st.latency.count()) {
        out << "    latency p50 " << nsText(st.latency.percentile(50)) << ", p99 "
            << nsText(st.latency.percentile(99)) << ", max " << nsText(st.latency.max())
            << (st.latency.exact() ? "" : " (histogram)") << "\n";
      }
      if (c.carrier == Carrier::Iwarp) {
        out << "    TCP resent " << st.resentFrames << " (timeouts " << st.timeouts
            << "), duplicates " << st.duplicates << ", out of order " << st.outOfOrder << ", gaps "
            << st.segmentGaps << " (" << st.missingBytes << " bytes); CRC bad " << st.crcFailures
            << ", Terminates sent " << st.terminates << "\n";
        continue;
      }
      std::snprintf(
          line, sizeof line,
          "    resent %llu, duplicates %llu, PSN gaps %llu (%llu PSNs), NAKs %llu, RNR "
          "NAKs %llu, timeouts %llu, CNPs %llu, ECN %llu, ICRC bad %llu\n",
          static_cast<unsigned long long>(st.resentFrames),
          static_cast<unsigned long long>(st.duplicates),
          static_cast<unsigned long long>(st.psnGaps),
          static_cast<unsigned long long>(st.missingPsns), static_cast<unsigned long long>(st.naks),
          static_cast<unsigned long long>(st.rnrNaks), static_cast<unsigned long long>(st.timeouts),
          static_cast<unsigned long long>(st.cnps), static_cast<unsigned long long>(st.ecnMarks),
          static_cast<unsigned long long>(st.icrcFailures));
      out << line;
      if (st.rnrNaks) {
        std::snprintf(line, sizeof line, "    RNR wait total %.3f ms, max %.3f ms\n",
                      st.rnrWaitTotal * 1e3, st.rnrWaitMax * 1e3);
        out << line;
      }
    }
  }

  std::snprintf(
      line, sizeof line,
      "\nSummary: %llu frames (%llu RDMA), %llu connections, %llu messages (%llu "
      "completed, %llu failed, %llu incomplete), %llu NAKs, %llu RNR NAKs, %llu resent, "
      "%llu PSN gaps, %llu duplicates, %llu timeouts, %llu ICRC failures, %llu CNPs\n",
      static_cast<unsigned long long>(s.frames), static_cast<unsigned long long>(s.rdmaFrames),
      static_cast<unsigned long long>(s.connections), static_cast<unsigned long long>(s.messages),
      static_cast<unsigned long long>(s.completedMessages),
      static_cast<unsigned long long>(s.failedMessages),
      static_cast<unsigned long long>(s.incompleteMessages),
      static_cast<unsigned long long>(s.naks), static_cast<unsigned long long>(s.rnrNaks),
      static_cast<unsigned long long>(s.resentFrames), static_cast<unsigned long long>(s.psnGaps),
      static_cast<unsigned long long>(s.duplicates), static_cast<unsigned long long>(s.timeouts),
      static_cast<unsigned long long>(s.icrcFailures), static_cast<unsigned long long>(s.cnps));
  out << line;
  if (!report.pauses.empty()) {
    out << "\nPFC pauses (" << s.pauseFrames << " frames; per sending port and priority)\n";
    std::snprintf(line, sizeof line, "  %-17s %-5s %8s %8s %8s %12s %12s %6s\n", "port", "prio",
                  "frames", "XOFF", "XON", "paused", "longest", "storms");
    out << line;
    for (const auto& p : report.pauses) {
      std::snprintf(line, sizeof line, "  %-17s %-5s %8llu %8llu %8llu %12s %12s %6u\n",
                    p.port.c_str(), p.priority < 0 ? "all" : std::to_string(p.priority).c_str(),
                    static_cast<unsigned long long>(p.frames),
                    static_cast<unsigned long long>(p.xoff), static_cast<unsigned long long>(p.xon),
                    durationText(p.pausedSeconds).c_str(), durationText(p.longestPause).c_str(),
                    p.storms);
      out << line;
    }
  }
  if (s.cnps || s.marksWithoutCnp) {
    std::uint64_t marked = 0;
    double reactionSum = 0.0;
    std::uint64_t answered = 0;
    for (const auto& m : report.cnps)
      if (m.marked) {
        marked += m.marked;
        reactionSum += m.reaction;
        ++answered;
      }
    out << "\nCNPs: " << s.cnps << " (" << s.cnps - s.cnpsWithoutMark << " answer " << marked
        << " CE-marked packets";
    if (answered) out << ", mean reaction " << durationText(reactionSum / double(answered));
    out << "; " << s.cnpsWithoutMark << " without a marked packet); " << s.marksWithoutCnp
        << " CE-marked packets no CNP followed\n";
  }
  if (s.iwarpFrames) {
    out << "iWARP: " << s.iwarpFrames << " frames, " << s.crcFailures << " CRC failures, "
        << s.terminates << " Terminates, " << s.mpaRejects << " MPA rejects, "
        << s.outOfOrderSegments << " out-of-order segments, " << s.segmentGaps << " segment gaps\n";
  }
  os << out.str();
}

std::string formatText(const AnalysisReport& report) {
  std::ostringstream out;
  writeText(out, report);
  return std::move(out).str();
}

}  // namespace rdmascope::analysis
