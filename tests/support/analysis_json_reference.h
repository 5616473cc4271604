#pragma once
// The JSON report as analysis::toJson wrote it before it streamed (through an nlohmann
// ordered_json DOM, then dump()): the oracle the streaming writer is held to, byte for byte.

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/packets/mad_headers.h"

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

}  // namespace rdmascope::test
