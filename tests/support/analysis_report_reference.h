#pragma once
// The reports as analysis::toJson and analysis::formatText wrote them before they were made
// fast: JSON through an nlohmann ordered_json DOM, then dump(); text through an ostringstream
// line by line. The oracles the streaming writers are held to, byte for byte.

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <string_view>

#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/packets/mad_headers.h"

namespace rdmascope::analysis {
std::string durationText(double seconds);  // report_sink.h (inside the library)
}  // namespace rdmascope::analysis

namespace rdmascope::test::json_reference {

using namespace rdmascope::analysis;

using nlohmann::ordered_json;

inline ordered_json endpointJson(const Endpoint& e) {
  ordered_json j;
  j["address"] = e.address;
  j["qp"] = e.qp ? ordered_json(*e.qp) : ordered_json(nullptr);
  if (e.port) j["port"] = *e.port;
  return j;
}

inline ordered_json latencyJson(const LatencyStats& l) {
  ordered_json j;
  j["count"] = l.count();
  j["min_ns"] = l.min();
  j["p50_ns"] = l.percentile(50);
  j["p99_ns"] = l.percentile(99);
  j["max_ns"] = l.max();
  j["mean_ns"] = l.mean();
  j["exact"] = l.exact();
  return j;
}

inline ordered_json directionJson(const DirectionStats& s) {
  ordered_json j;
  j["request_frames"] = s.requestFrames;
  j["response_frames"] = s.responseFrames;
  j["payload_bytes"] = s.payloadBytes;
  j["wire_bytes"] = s.wireBytes;
  j["messages"] = s.messages;
  j["failed_messages"] = s.failedMessages;
  j["incomplete_messages"] = s.incompleteMessages;
  j["resent_frames"] = s.resentFrames;
  j["duplicates"] = s.duplicates;
  j["psn_gaps"] = s.psnGaps;
  j["missing_psns"] = s.missingPsns;
  j["naks"] = s.naks;
  j["rnr_naks"] = s.rnrNaks;
  j["timeouts"] = s.timeouts;
  j["cnps"] = s.cnps;
  j["ecn_marks"] = s.ecnMarks;
  j["icrc_failures"] = s.icrcFailures;
  j["crc_failures"] = s.crcFailures;
  j["terminates"] = s.terminates;
  j["out_of_order"] = s.outOfOrder;
  j["segment_gaps"] = s.segmentGaps;
  j["missing_bytes"] = s.missingBytes;
  j["rnr_wait_total_s"] = s.rnrWaitTotal;
  j["rnr_wait_max_s"] = s.rnrWaitMax;
  j["throughput_bytes_per_s"] = s.throughput();
  j["message_rate_per_s"] = s.messageRate();
  j["latency"] = latencyJson(s.latency);
  ordered_json series = ordered_json::array();
  for (const auto& b : s.series) {
    ordered_json e;
    e["start_s"] = b.start;
    e["frames"] = b.frames;
    e["bytes"] = b.bytes;
    e["messages"] = b.messages;
    e["latency_mean_s"] = b.latencyCount ? b.latencySum / static_cast<double>(b.latencyCount) : 0.0;
    e["latency_max_s"] = b.latencyMax;
    e["anomalies"] = b.anomalies;
    series.push_back(std::move(e));
  }
  j["series_width_s"] = s.seriesWidth;
  j["series"] = std::move(series);
  return j;
}

inline ordered_json mpaJson(const MpaNegotiation& m) {
  ordered_json j;
  j["request_frame"] = m.requestSeen ? ordered_json(m.requestFrame) : ordered_json(nullptr);
  j["reply_frame"] = m.replySeen ? ordered_json(m.replyFrame) : ordered_json(nullptr);
  j["request_markers"] = m.requestMarkers;
  j["request_crc"] = m.requestCrc;
  j["reply_markers"] = m.replyMarkers;
  j["reply_crc"] = m.replyCrc;
  j["crc_in_use"] = m.crcInUse();
  j["rejected"] = m.rejected;
  j["request_revision"] = m.requestRevision;
  j["reply_revision"] = m.replyRevision;
  return j;
}

inline ordered_json cmJson(const CmHandshake& h) {
  ordered_json j;
  char sid[24];
  std::snprintf(sid, sizeof sid, "0x%016llx", static_cast<unsigned long long>(h.serviceId));
  j["client"] = h.client;
  j["server"] = h.server;
  j["service_id"] = sid;
  j["port"] = h.port ? ordered_json(*h.port) : ordered_json(nullptr);
  j["client_comm_id"] = h.clientCommId;
  j["server_comm_id"] = h.serverCommId ? ordered_json(*h.serverCommId) : ordered_json(nullptr);
  j["client_qpn"] = h.clientQpn ? ordered_json(*h.clientQpn) : ordered_json(nullptr);
  j["server_qpn"] = h.serverQpn ? ordered_json(*h.serverQpn) : ordered_json(nullptr);
  j["connection"] = h.connection;
  j["established"] = h.established();
  j["disconnected"] = h.disconnected();
  if (h.rejectReason) {
    j["reject_reason"] = *h.rejectReason;
    j["reject_reason_name"] = std::string(packets::cmRejectReasonName(*h.rejectReason));
  }
  ordered_json steps = ordered_json::array();
  for (const auto& st : h.steps) {
    ordered_json e;
    e["frame"] = st.frame;
    e["time_s"] = st.time;
    e["message"] = st.message;
    e["from"] = st.fromClient ? "client" : "server";
    steps.push_back(std::move(e));
  }
  j["steps"] = std::move(steps);
  return j;
}

// "REQ 3 -> REP 4 -> RTU 5 -> DREQ 76 -> DREP 77 (port 18515)".
inline std::string cmText(const CmHandshake& h) {
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

inline std::string endpointText(const Endpoint& e) {
  if (e.port) return e.address + ":" + std::to_string(*e.port);
  return e.address + (e.qp ? " QP " + std::to_string(*e.qp) : " QP ?");
}

inline std::string mpaText(const MpaNegotiation& m) {
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

inline std::string nsText(std::uint64_t ns) {
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

inline std::string rateText(double bytesPerSecond) {
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

inline std::string referenceFormatText(const analysis::AnalysisReport& report) {
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
  // One buffer for the whole list (a capture may have 100,000 anomalies).
  // (fmt's "  frame {:<8} conn {:<3} {:<18} {}\n" there, the same as this printf.)
  for (const auto& a : report.anomalies) {
    const std::string_view kind = toString(a.kind);
    std::snprintf(line, sizeof line, "  frame %-8llu conn %-3d %-18.*s ",
                  static_cast<unsigned long long>(a.frame), a.connection,
                  static_cast<int>(kind.size()), kind.data());
    out << line << a.detail << '\n';
  }
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
  return out.str();
}

}  // namespace rdmascope::test::json_reference

namespace rdmascope::test {

inline std::string referenceToJson(const analysis::AnalysisReport& report, int indent) {
  json_reference::ordered_json j;
  const analysis::AnalysisSummary& s = report.summary;
  json_reference::ordered_json sum;
  sum["connections"] = s.connections;
  sum["messages"] = s.messages;
  sum["naks"] = s.naks;
  sum["rnr_naks"] = s.rnrNaks;
  sum["resent_frames"] = s.resentFrames;
  sum["psn_gaps"] = s.psnGaps;
  sum["duplicates"] = s.duplicates;
  sum["icrc_failures"] = s.icrcFailures;
  sum["incomplete_messages"] = s.incompleteMessages;
  sum["cnps"] = s.cnps;
  sum["frames"] = s.frames;
  sum["rdma_frames"] = s.rdmaFrames;
  sum["completed_messages"] = s.completedMessages;
  sum["failed_messages"] = s.failedMessages;
  sum["timeouts"] = s.timeouts;
  sum["ecn_marks"] = s.ecnMarks;
  sum["iwarp_frames"] = s.iwarpFrames;
  sum["crc_failures"] = s.crcFailures;
  sum["terminates"] = s.terminates;
  sum["out_of_order_segments"] = s.outOfOrderSegments;
  sum["segment_gaps"] = s.segmentGaps;
  sum["mpa_rejects"] = s.mpaRejects;
  sum["pause_frames"] = s.pauseFrames;
  sum["pause_storms"] = s.pauseStorms;
  sum["victim_flows"] = s.victimFlows;
  sum["cnps_without_mark"] = s.cnpsWithoutMark;
  sum["marks_without_cnp"] = s.marksWithoutCnp;
  j["summary"] = std::move(sum);

  json_reference::ordered_json conns = json_reference::ordered_json::array();
  for (const auto& c : report.connections) {
    json_reference::ordered_json e;
    e["id"] = c.id;
    e["carrier"] = std::string(analysis::toString(c.carrier));
    e["transport"] = c.transport;
    e["a"] = json_reference::endpointJson(c.a);
    e["b"] = json_reference::endpointJson(c.b);
    e["frames"] = c.frames;
    e["first_frame"] = c.firstFrame;
    e["last_frame"] = c.lastFrame;
    e["first_time_s"] = c.firstTime;
    e["last_time_s"] = c.lastTime;
    e["a_to_b"] = json_reference::directionJson(c.dir[0]);
    e["b_to_a"] = json_reference::directionJson(c.dir[1]);
    if (c.mpa) e["mpa"] = json_reference::mpaJson(*c.mpa);
    if (c.cm) e["cm"] = json_reference::cmJson(*c.cm);
    conns.push_back(std::move(e));
  }
  j["connections"] = std::move(conns);

  json_reference::ordered_json anomalies = json_reference::ordered_json::array();
  for (const auto& a : report.anomalies) {
    json_reference::ordered_json e;
    e["kind"] = std::string(analysis::toString(a.kind));
    e["frame"] = a.frame;
    e["time_s"] = a.time;
    e["connection"] = a.connection;
    e["direction"] = a.direction == 0 ? "a_to_b" : a.direction == 1 ? "b_to_a" : "";
    e["psn"] = a.psn;
    if (a.relatedFrame) e["related_frame"] = a.relatedFrame;
    if (a.count) e["count"] = a.count;
    if (a.wait > 0) e["wait_s"] = a.wait;
    e["detail"] = a.detail;
    anomalies.push_back(std::move(e));
  }
  j["anomalies"] = std::move(anomalies);
  j["anomalies_dropped"] = report.anomaliesDropped;

  if (!report.pauses.empty()) {
    json_reference::ordered_json pauses = json_reference::ordered_json::array();
    for (const auto& p : report.pauses) {
      json_reference::ordered_json e;
      e["port"] = p.port;
      e["priority"] = p.priority;
      e["frames"] = p.frames;
      e["xoff"] = p.xoff;
      e["xon"] = p.xon;
      e["quanta"] = p.quanta;
      e["paused_s"] = p.pausedSeconds;
      e["longest_pause_s"] = p.longestPause;
      e["storms"] = p.storms;
      e["first_frame"] = p.firstFrame;
      e["last_frame"] = p.lastFrame;
      pauses.push_back(std::move(e));
    }
    j["pauses"] = std::move(pauses);
    json_reference::ordered_json intervals = json_reference::ordered_json::array();
    for (const auto& iv : report.pauseIntervals) {
      json_reference::ordered_json e;
      e["port"] = iv.port;
      e["priority"] = iv.priority;
      e["start_s"] = iv.start;
      e["end_s"] = iv.end;
      e["start_frame"] = iv.startFrame;
      e["frames"] = iv.frames;
      intervals.push_back(std::move(e));
    }
    j["pause_intervals"] = std::move(intervals);
    j["pause_intervals_dropped"] = report.pauseIntervalsDropped;
  }
  if (!report.cnps.empty()) {
    json_reference::ordered_json cnps = json_reference::ordered_json::array();
    for (const auto& m : report.cnps) {
      json_reference::ordered_json e;
      e["frame"] = m.frame;
      e["time_s"] = m.time;
      e["connection"] = m.connection;
      e["direction"] = m.direction == 0 ? "a_to_b" : "b_to_a";
      e["dest_qp"] = m.destQp;
      e["marked"] = m.marked;
      if (m.marked) {
        e["first_marked_frame"] = m.firstMarkedFrame;
        e["last_marked_frame"] = m.lastMarkedFrame;
        e["reaction_s"] = m.reaction;
      }
      cnps.push_back(std::move(e));
    }
    j["cnps"] = std::move(cnps);
    j["cnps_dropped"] = report.cnpsDropped;
  }

  json_reference::ordered_json messages = json_reference::ordered_json::array();
  for (const auto& m : report.messages) {
    json_reference::ordered_json e;
    e["connection"] = m.connection;
    e["direction"] = m.direction == 0 ? "a_to_b" : "b_to_a";
    e["kind"] = std::string(analysis::toString(m.kind));
    e["first_psn"] = m.firstPsn;
    e["last_psn"] = m.lastPsn;
    e["first_frame"] = m.firstFrame;
    e["last_request_frame"] = m.lastRequestFrame;
    e["end_frame"] = m.endFrame;
    e["bytes"] = m.bytes;
    e["packets"] = m.packets;
    e["resent_packets"] = m.resentPackets;
    if (m.stag) e["stag"] = *m.stag;
    if (m.msn) e["msn"] = *m.msn;
    e["outcome"] = std::string(analysis::toString(m.outcome));
    if (m.outcome == analysis::Outcome::Completed) e["latency_s"] = m.latency();
    if (!m.detail.empty()) e["detail"] = m.detail;
    messages.push_back(std::move(e));
  }
  j["messages"] = std::move(messages);
  j["messages_dropped"] = report.messagesDropped;
  if (!report.handshakes.empty()) {
    json_reference::ordered_json handshakes = json_reference::ordered_json::array();
    for (const auto& h : report.handshakes)
      handshakes.push_back(json_reference::cmJson(h));
    j["cm_handshakes"] = std::move(handshakes);
  }
  return j.dump(indent);
}

using json_reference::referenceFormatText;

}  // namespace rdmascope::test
