#pragma once
// Anomalies of every detail phrase (analysis/anomaly_detail.h), for the tests of the typed
// details and of their rendering in the GUI: the anomalies of every repository capture, and of
// small captures made here for the phrases the repository holds no capture of (RoCE frames
// built one by one, PFC pauses and CNPs, simulated iWARP conversations with loss and faults).

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "../analysis/iwarp_pair.h"
#include "analyze_capture.h"
#include "iwarp_frames.h"
#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/packets/ib_builder.h"
#include "rdmascope/packets/mac_control.h"
#include "rdmascope/packets_io/capture_reader.h"
#include "rdmascope/sim/transport_scenarios.h"
#include "repository_captures.h"

namespace rdmascope::test {

struct AnomalyCase {
  std::string name;
  std::vector<analysis::Anomaly> anomalies;
};

namespace anomaly_cases {

using packets::IbPacket;
using packets::IpAddress;
using packets::RoceAddressing;

struct Feeder {
  analysis::FlowAnalyzer a;
  std::uint64_t n = 0;
  void frame(const std::vector<std::uint8_t>& f, double t) {
    a.addFrame(f, packets::LinkType::Ethernet, ++n, t);
  }
  std::vector<analysis::Anomaly> finish() {
    a.finish();
    return a.takeReport().anomalies;
  }
};

inline RoceAddressing between(std::uint8_t from, std::uint8_t to, std::uint8_t ecn = 2) {
  RoceAddressing r;
  r.srcMac = {0x02, 0, 0, 0, 0, from};
  r.dstMac = {0x02, 0x5e, 0, 0, 0x01, from};
  r.srcIp = IpAddress::v4(10, 0, 0, from);
  r.dstIp = IpAddress::v4(10, 0, 0, to);
  r.dscp = 26;  // priority 3
  r.ecn = ecn;
  return r;
}

// A packet from host `from` to host `to`'s QP 0x100 + to.
inline std::vector<std::uint8_t> packet(std::uint8_t from, std::uint8_t to, std::uint8_t opcode,
                                        std::uint32_t psn, std::uint32_t payload = 0,
                                        std::uint8_t ecn = 2) {
  IbPacket p;
  p.bth.opcode = opcode;
  p.bth.destQp = 0x100u + to;
  p.bth.psn = psn;
  if (opcode == 0x06 || opcode == 0x0a || opcode == 0x0c)
    p.reth = packets::Reth{0x1000, 0x42, opcode == 0x0c ? 4096u : 256u};
  if (opcode == 0x11 || opcode == 0x12 || (opcode >= 0x0d && opcode <= 0x10 && opcode != 0x0e))
    p.aeth = packets::Aeth{0x1f, psn};
  if (opcode == 0x12) p.atomicAckEth = packets::AtomicAckEth{7};
  p.payload.assign(payload, static_cast<std::uint8_t>(psn));
  return packets::buildRoceV2(between(from, to, ecn), p);
}

inline std::vector<std::uint8_t> nak(std::uint8_t from, std::uint8_t to, std::uint32_t psn,
                                     std::uint8_t syndrome) {
  IbPacket p;
  p.bth.opcode = 0x11;
  p.bth.destQp = 0x100u + to;
  p.bth.psn = psn;
  p.aeth = packets::Aeth{syndrome, psn};
  return packets::buildRoceV2(between(from, to), p);
}

// RC traffic from host 1 to host 2 with an RNR NAK, a copy, a gap and reordering, congestion
// marks, READ responses out of place, an unexpected atomic ACK and an unfinished WRITE.
inline std::vector<analysis::Anomaly> roce() {
  Feeder f;
  double t = 0;
  const auto at = [&](const std::vector<std::uint8_t>& frame, double dt = 1e-6) {
    t += dt;
    f.frame(frame, t);
  };
  at(packet(1, 2, 0x0a, 0, 256));
  at(packet(1, 2, 0x0a, 1, 256));
  at(packet(2, 1, 0x11, 1));
  at(packet(1, 2, 0x0a, 2, 256));
  at(nak(2, 1, 2, 0x20 | 14));             // RNR NAK
  at(packet(1, 2, 0x0a, 2, 256), 1e-3);    // resent after the RNR wait
  at(packet(1, 2, 0x0a, 2, 256), 0.5e-6);  // and copied
  at(packet(2, 1, 0x11, 2));
  at(packet(1, 2, 0x0a, 3, 256));
  at(packet(1, 2, 0x0a, 5, 256));  // PSN 4 missing ...
  at(packet(1, 2, 0x0a, 4, 256));  // ... arrives late
  at(packet(2, 1, 0x11, 5));
  at(packet(1, 2, 0x0a, 6, 256, 3));  // CE-marked
  {
    IbPacket p;
    p.bth.opcode = 0x0a;
    p.bth.destQp = 0x102;
    p.bth.psn = 7;
    p.bth.fecn = true;
    p.bth.becn = true;
    p.reth = packets::Reth{0x1000, 0x42, 256};
    p.payload.assign(256, 7);
    at(packets::buildRoceV2(between(1, 2), p));
  }
  at(packet(2, 1, 0x11, 7));
  for (int i = 0; i < 2; ++i) {  // CNPs: the first after the mark, the second after nothing
    IbPacket p;
    p.bth.opcode = 0x81;
    p.bth.destQp = 0x101;
    p.bth.becn = true;
    at(packets::buildRoceV2(between(2, 1), p), 10e-6);
  }
  at(packet(2, 1, 0x12, 40));       // an atomic ACK for no atomic
  at(packet(2, 1, 0x10, 50, 256));  // a READ response for no READ
  // A READ of 4 PSNs: responses 8, 9, 9 again, then 11 with 10 missing; re-requested from 10.
  at(packet(1, 2, 0x0c, 8));
  at(packet(2, 1, 0x0d, 8, 1024));
  at(packet(2, 1, 0x0e, 9, 1024));
  at(packet(2, 1, 0x0e, 9, 1024));
  at(packet(2, 1, 0x0e, 11, 1024));
  at(packet(1, 2, 0x0c, 10));
  at(packet(1, 2, 0x06, 20, 1024));  // a WRITE never finished
  return f.finish();
}

// Flows of hosts 1 and 2 to receiver 9 and of host 3 to receiver 8, priority 3 paused on their
// ports for 20 ms: a pause storm, and host 3's flow a victim of the incast to 9.
inline std::vector<analysis::Anomaly> pfc() {
  Feeder f;
  const std::array<std::uint8_t, 6> port = {0x02, 0x5e, 0, 0, 0x01, 0x03};
  const auto pause = [&](std::uint16_t quanta, double t) {
    packets::PfcPause p;
    p.enableVector = 1u << 3;
    p.quanta[3] = quanta;
    f.frame(packets::buildPfcFrame(port, p), t);
  };
  std::uint32_t psn = 0;
  const auto round = [&](double t) {
    f.frame(packet(1, 9, 0x0a, psn, 256), t);
    f.frame(packet(2, 9, 0x0a, psn, 256), t + 0.1e-6);
    f.frame(packet(3, 8, 0x0a, psn, 256), t + 0.2e-6);
    ++psn;
  };
  for (double t = 0; t < 100e-6; t += 1e-6)
    round(t);
  for (int i = 0; i <= 200; ++i)
    pause(0xffff, 100e-6 + i * 100e-6);
  pause(0, 20.2e-3);
  for (double t = 20.3e-3; t < 20.4e-3; t += 1e-6)
    round(t);
  return f.finish();
}

using TcpFrames = std::vector<sim::TcpCapturedFrame>;

inline std::vector<analysis::Anomaly> analyzeTcp(const TcpFrames& frames) {
  Feeder f;
  for (const auto& x : frames)
    f.frame(x.bytes, static_cast<double>(x.timePs) * 1e-12);
  return f.finish();
}

inline TcpFrames tcpScenario(const char* name, sim::TransportScenarioOptions o = {}) {
  std::string error;
  auto r = sim::runTransportScenario(name, o, error);
  EXPECT_TRUE(r) << error;
  return r ? r->frames : TcpFrames{};
}

constexpr std::size_t kTcpAt = 14 + 20;
inline std::size_t payloadAt(const std::vector<std::uint8_t>& f) {
  return kTcpAt + (f[kTcpAt + 12] >> 4) * 4u;
}
inline bool carriesData(const sim::TcpCapturedFrame& f) {
  return f.bytes.size() > payloadAt(f.bytes);
}

// iWARP: lossy conversations, and a Write with a copied, a swapped and a corrupted segment, a
// refused MPA Reply, cut-short captures and a Write to an unknown STag (Terminate).
inline std::vector<AnomalyCase> iwarp() {
  std::vector<AnomalyCase> out;
  for (const char* s : {"iwarp-read", "iwarp-write", "iwarp-send-recv"})
    for (std::uint64_t seed : {7u, 11u, 12u}) {
      sim::TransportScenarioOptions o;
      o.bytes = 60000;
      o.lossRate = 0.1;
      o.seed = seed;
      out.push_back(
          {std::string(s) + " lossy " + std::to_string(seed), analyzeTcp(tcpScenario(s, o))});
    }
  TcpFrames w = tcpScenario("iwarp-write");
  std::vector<std::size_t> data;  // the frames of host 0 carrying data (MPA Request first)
  for (std::size_t i = 0; i < w.size(); ++i)
    if (w[i].fromHost == 0 && carriesData(w[i])) data.push_back(i);
  if (data.size() < 6) {
    ADD_FAILURE() << "iwarp-write has too few data frames";
    return out;
  }
  {
    TcpFrames x = w;
    auto copy = x[data[4]];
    copy.timePs += 1000000;
    x.insert(x.begin() + static_cast<std::ptrdiff_t>(data[4]) + 1, copy);
    std::swap(x[data[2]].bytes, x[data[3]].bytes);
    auto& b = x[data[1]].bytes;
    b[payloadAt(b) + 40] ^= 0x5a;
    out.push_back({"iwarp-write faults", analyzeTcp(x)});
  }
  {
    TcpFrames x = w;
    const auto it = std::find_if(x.begin(), x.end(),
                                 [](const auto& f) { return f.fromHost == 1 && carriesData(f); });
    if (it != x.end()) it->bytes[payloadAt(it->bytes) + 16] |= 0x20;
    out.push_back({"iwarp-write MPA reject", analyzeTcp(x)});
  }
  {
    TcpFrames x = w;
    x.resize(data.back() + 1);
    out.push_back({"iwarp-write cut before the ACK", analyzeTcp(x)});
    TcpFrames y = w;
    y.resize(data[3] + 1);
    out.push_back({"iwarp-write cut in the middle", analyzeTcp(y)});
  }
  {
    TcpFrames r = tcpScenario("iwarp-read");
    std::vector<std::size_t> reqs, resps;
    for (std::size_t i = 0; i < r.size(); ++i)
      if (carriesData(r[i])) (r[i].fromHost == 0 ? reqs : resps).push_back(i);
    if (reqs.size() >= 2 && resps.size() >= 2) {
      TcpFrames x = r;
      x.resize(reqs[1] + 1);  // the Read Request, no response
      out.push_back({"iwarp-read cut before the responses", analyzeTcp(x)});
      TcpFrames y = r;
      y.erase(y.begin() + static_cast<std::ptrdiff_t>(reqs[1]));  // the responses, no request
      out.push_back({"iwarp-read without its request", analyzeTcp(y)});
    }
  }
  {
    analysis::test::IwarpPair p;
    const unsigned access = sim::access::kLocalWrite | sim::access::kRemoteWrite;
    const auto src = p.session.registerMemory(0, 4096, access);
    p.session.postWrite(0, 7, src, 0, 4096, 0xdead00, 0);
    p.sim.run();
    out.push_back({"iwarp Write to an unknown STag", analyzeTcp(p.net.captureAt(0))});
  }
  return out;
}

inline std::vector<analysis::Anomaly> captureAnomalies(const std::string& path) {
  return analyzeCaptureFile(path).anomalies;
}

}  // namespace anomaly_cases

/// Every repository capture's anomalies, then those of the captures made for the phrases the
/// repository has no capture of.
inline std::vector<AnomalyCase> anomalyCases() {
  std::vector<AnomalyCase> out;
  for (const auto& path : repositoryCaptures())
    out.push_back({path, anomaly_cases::captureAnomalies(path)});
  out.push_back({"RoCE made frame by frame", anomaly_cases::roce()});
  out.push_back({"PFC incast", anomaly_cases::pfc()});
  for (auto& c : anomaly_cases::iwarp())
    out.push_back(std::move(c));
  return out;
}

}  // namespace rdmascope::test
