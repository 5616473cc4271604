#include "sim_replay.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "output_options.h"
#include "rdmascope/analysis/loss_pattern.h"
#include "rdmascope/cli/cli.h"
#include "rdmascope/packets_io/capture_reader.h"

namespace rdmascope::cli {
namespace {

struct SimSide {
  verbs_backend::RunResult run;
  std::vector<analysis::PacketFacts> delivered;  ///< what a capture behind the loss sees
  std::map<std::string, int> hostOfSource;
  std::map<std::string, std::uint32_t> qpnOfAddress;  ///< from the responses sent to it
};

// Frames the simulator lost on the link are in its capture (it taps before the faults), but a
// lab capture never holds the frames netem dropped: keep only the delivered ones.
SimSide simulate(const verbs_backend::Scenario& scenario) {
  verbs_backend::RunOptions o;
  o.trace = true;
  o.captureFrames = true;
  SimSide s;
  s.run = verbs_backend::runScenarioInSim(scenario, o);
  std::set<std::uint64_t> lost;
  for (const auto& e : s.run.trace) {
    if (e.kind != sim::TraceKind::FrameDropped || e.frameNumber == 0 ||
        e.frameNumber > s.run.frames.size())
      continue;
    const auto& f = s.run.frames[e.frameNumber - 1];
    if (e.host == s.run.hostNames[f.fromHost]) lost.insert(e.frameNumber);
  }
  for (std::size_t i = 0; i < s.run.frames.size(); ++i) {
    const auto& f = s.run.frames[i];
    auto facts = analysis::readPacketFacts(f.bytes, packets::LinkType::Ethernet, i + 1,
                                           static_cast<double>(f.time.picos()) / 1e12);
    if (!facts) continue;
    s.hostOfSource[facts->source] = f.fromHost;
    // RC responses (READ RESPONSE FIRST 0x0d to ATOMIC ACKNOWLEDGE 0x12) name the
    // requester's QP
    if (facts->opcode >= 0x0d && facts->opcode <= 0x12)
      s.qpnOfAddress[facts->destination] = facts->destQp;
    if (!lost.count(i + 1)) s.delivered.push_back(std::move(*facts));
  }
  return s;
}

std::map<std::string, std::uint32_t> initialPsns(const verbs_backend::Scenario& scenario,
                                                 const std::map<std::string, int>& hostOfSource) {
  std::map<std::string, std::uint32_t> m;
  for (const auto& [source, host] : hostOfSource) {
    const auto& qps = scenario.hosts[host].qps;
    if (qps.size() == 1) m[source] = qps.front().psn;
  }
  return m;
}

// The requesters' retransmit timeouts, from the QP's timeout attribute (4.096 us x 2^timeout;
// rxe rounds it up to jiffies, which half of it leaves room for).
std::map<std::string, double> retransmitTimeouts(const verbs_backend::Scenario& scenario,
                                                 const std::map<std::string, int>& hostOfSource) {
  std::map<std::string, double> m;
  for (const auto& [source, host] : hostOfSource) {
    for (const auto& step : scenario.steps) {
      const auto* modify = std::get_if<verbs_backend::ModifyQpStep>(&step.action);
      if (step.host == host && modify && (modify->mask & sim::attr_mask::kTimeout) &&
          modify->attr.timeout != 0)
        m[source] = 4.096e-6 * std::ldexp(1.0, modify->attr.timeout);
    }
  }
  return m;
}

void sideBySide(std::ostream& out, const std::string& title, const std::vector<std::string>& a,
                const std::vector<std::string>& b) {
  out << "# " << title << (a == b ? " (same)" : " (DIFFER)") << '\n';
  for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    const std::string l = i < a.size() ? a[i] : "-";
    const std::string r = i < b.size() ? b[i] : "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%3zu%c ", i + 1, l == r ? ' ' : '*');
    out << buf << l << std::string(l.size() < 44 ? 44 - l.size() : 1, ' ') << "| " << r << '\n';
  }
}

}  // namespace

int compareCaptureWithSim(const std::string& capturePath, const verbs_backend::Scenario& scenario,
                          std::ostream& out, std::ostream& err) {
  if (scenario.wire != sim::WireFormat::RoceV2Ipv4) {
    reportError(err, "scenario " + scenario.name + " is not RoCEv2 over IPv4, as the lab is");
    return kExitUsage;
  }
  std::string error;
  auto reader = packets_io::CaptureReader::open(capturePath, error);
  if (!reader) {
    reportError(err, error);
    return kExitUsage;
  }
  std::vector<analysis::PacketFacts> real;
  std::uint64_t realFrames = 0;
  packets_io::FrameView v;
  while (reader->next(v)) {
    auto facts = analysis::readPacketFacts(v.data, reader->linkType(), reader->framesRead(),
                                           static_cast<double>(v.timestampNs) / 1e9);
    if (!facts) continue;
    ++realFrames;
    real.push_back(std::move(*facts));
  }
  if (!reader->error().empty()) {
    reportError(err, reader->error());
    return kExitUsage;
  }

  // The scenario's own faults are the simulator's demonstration, not the lab's: drop them.
  verbs_backend::Scenario clean = scenario;
  clean.faults = {};
  const SimSide reference = simulate(clean);
  analysis::LossInferenceOptions options;
  options.initialPsn = initialPsns(scenario, reference.hostOfSource);
  options.retransmitTimeout = retransmitTimeouts(scenario, reference.hostOfSource);
  const analysis::LossPattern lab = analysis::inferLossPattern(real, options);

  verbs_backend::Scenario replay = clean;
  std::size_t unmapped = 0;
  for (const auto& l : lab.losses) {
    const auto& stream = lab.streams[l.stream];
    const auto host = reference.hostOfSource.find(stream.source);
    if (host == reference.hostOfSource.end()) {
      ++unmapped;
      continue;
    }
    sim::FaultConfig::PsnDrop d;
    d.psn = l.psn;
    d.fromHost = host->second;
    d.occurrence = l.occurrence;
    replay.faults.dropPsns.push_back(d);
  }
  // rxe's retransmit timer, armed by a send only when not pending and never stopped by an
  // ACK, can expire in the middle of a later message under the lab's timing: replay it where
  // the lab's did (after as many request transmissions), on the requester's QP.
  for (const auto& r : lab.resends) {
    if (!r.soonerThanTimer) continue;
    const auto& stream = lab.streams[r.stream];
    const auto host = reference.hostOfSource.find(stream.source);
    const auto qpn = reference.qpnOfAddress.find(stream.source);
    if (host == reference.hostOfSource.end() || qpn == reference.qpnOfAddress.end()) continue;
    replay.faults.timerFires.push_back({host->second, qpn->second, r.transmissionsBefore});
  }
  const SimSide simulated = simulate(replay);
  const analysis::LossPattern sim = analysis::inferLossPattern(simulated.delivered, options);

  out << "# " << capturePath << " against the simulator running " << scenario.name
      << " with the same request transmissions dropped\n";
  out << "#                       lab (real rxe)   simulator\n";
  auto row = [&](const char* what, std::uint64_t a, std::uint64_t b) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%-22s %16llu %11llu\n", what,
                  static_cast<unsigned long long>(a), static_cast<unsigned long long>(b));
    out << buf;
  };
  auto requests = [](const analysis::LossPattern& p) {
    std::uint64_t n = 0, r = 0;
    for (const auto& s : p.streams) {
      n += s.requests;
      r += s.resent;
    }
    return std::make_pair(n, r);
  };
  row("frames captured", realFrames, simulated.delivered.size());
  row("request packets", requests(lab).first, requests(sim).first);
  row("  of which resent", requests(lab).second, requests(sim).second);
  row("drops", lab.losses.size(), simulated.run.stats.framesLost);
  row("NAKs", lab.naks.size(), sim.naks.size());
  row("resend runs", lab.resends.size(), sim.resends.size());
  out << "# drops inferred from the capture (replayed in the simulator by host, PSN and "
         "occurrence)\n";
  for (const auto& line : analysis::lossLines(lab))
    out << "  " << line << '\n';
  const auto labNaks = analysis::nakLines(lab), simNaks = analysis::nakLines(sim);
  // Under TCG a NAK can take longer than the retransmit timer (68 ms): the lab's requester
  // then goes back to its last acknowledged PSN and ignores the NAK, where the simulator's
  // microsecond link always delivers the NAK first. Both are counted from the NAK's PSN.
  const auto labResends = analysis::resendLines(lab, true),
             simResends = analysis::resendLines(sim, true);
  sideBySide(out, "NAKs: lab | simulator", labNaks, simNaks);
  sideBySide(out, "resend runs: lab | simulator", labResends, simResends);
  for (const auto& r : lab.resends) {
    if (r.firstRelPsn < r.restartRelPsn && r.restartRelPsn <= r.lastRelPsn)
      out << "  note: the lab's resend at frame " << r.frame << " began at +" << r.firstRelPsn
          << ", before the NAKed +" << r.restartRelPsn
          << ": its retransmit timer fired before the NAK arrived\n";
  }
  for (const auto& r : lab.resends) {
    if (r.soonerThanTimer)
      out << "  note: the lab's resend at frame " << r.frame << " (+" << r.firstRelPsn
          << ") has no NAK and came sooner than the retransmit timeout: a timer an earlier "
             "message armed ran out (rxe never stops it on an ACK); the simulator's timer is "
             "made to run out there too\n";
  }
  bool ok = true;
  auto fail = [&](const std::string& why) {
    out << "DIFFERENCE: " << why << '\n';
    ok = false;
  };
  if (unmapped) fail(std::to_string(unmapped) + " drops come from an address the scenario lacks");
  if (simulated.run.stats.framesLost != lab.losses.size())
    fail("the simulator lost " + std::to_string(simulated.run.stats.framesLost) + " frames, " +
         std::to_string(lab.losses.size()) + " were inferred (a transmission it never made)");
  // The same messages: every request packet (relative PSN, opcode) of each stream.
  for (const auto& ls : lab.streams) {
    auto it = std::find_if(sim.streams.begin(), sim.streams.end(), [&](const auto& ss) {
      return ss.source == ls.source && ss.destination == ls.destination;
    });
    if (it == sim.streams.end()) {
      fail("the simulator sent no requests from " + ls.source + " to " + ls.destination);
    } else if (it->packets != ls.packets) {
      fail("the requests from " + ls.source + " are not the scenario's (" +
           std::to_string(ls.packets.size()) + " distinct packets captured, " +
           std::to_string(it->packets.size()) + " simulated)");
    }
  }
  if (lab.streams.size() != sim.streams.size())
    fail(std::to_string(lab.streams.size()) + " request streams captured, " +
         std::to_string(sim.streams.size()) + " simulated");
  if (labNaks != simNaks) fail("the NAKs differ");
  if (labResends != simResends) fail("the resend runs differ");
  if (!simulated.run.ok) fail("the simulated run failed: " + simulated.run.error);
  out << (ok ? "same NAK and resend pattern\n" : "the patterns differ\n");
  return ok ? kExitOk : kExitFailure;
}

}  // namespace rdmascope::cli
