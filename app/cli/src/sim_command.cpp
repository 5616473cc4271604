#include <CLI/CLI.hpp>
#include <algorithm>
#include <map>

#include "ceph_messenger_run.h"
#include "commands.h"
#include "numeric_options.h"
#include "output_files.h"
#include "output_options.h"
#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/cli/cli.h"
#include "rdmascope/packets/ib_builder.h"
#include "rdmascope/sim/trace_json.h"
#include "rdmascope/sim/transport_scenarios.h"
#include "rdmascope/verbs_backend/scenario.h"
#include "scenario_source.h"
#include "trace_analysis.h"

namespace rdmascope::cli {
namespace {

struct SimArgs {
  std::string scenario;
  std::string pcap;
  std::string trace = "text";
  std::optional<std::uint64_t> seed;
  std::optional<double> loss;
  std::string wire;
  bool list = false;
  bool analyze = false;
  bool json = false;
  bool traceGiven = false;
  bool cm = false;
  bool show = false;
  std::string messageSize;                ///< ceph-messenger: --message-size
  std::optional<std::uint32_t> messages;  ///< ceph-messenger: --messages
  bool registered = false;                ///< ceph-messenger: --registered
  std::string runOption;  ///< the first option given that only a run takes (with --show)
};

const std::map<std::string, sim::WireFormat>& wireNames() {
  static const std::map<std::string, sim::WireFormat> names{
      {"rocev2", sim::WireFormat::RoceV2Ipv4},
      {"rocev2-ipv6", sim::WireFormat::RoceV2Ipv6},
      {"rocev1", sim::WireFormat::RoceV1},
      {"ib", sim::WireFormat::InfiniBand}};
  return names;
}

int listScenarios(std::ostream& out) {
  for (const auto& name : verbs_backend::builtinScenarioNames()) {
    out << name << '\t' << verbs_backend::builtinScenario(name).description << '\n';
  }
  for (const auto name : sim::transportScenarioNames())
    out << name << "\tOne 64 KiB transfer over "
        << (name == "tcp-stream" ? "the TCP socket path" : "iWARP (TCP, MPA, DDP, RDMAP)")
        << " (no verbs trace; --pcap, --loss, --seed, --analyze)\n";
  listCephScenarios(out);
  return kExitOk;
}

bool isTransportScenario(const std::string& name) {
  const auto names = sim::transportScenarioNames();
  return std::find(names.begin(), names.end(), name) != names.end();
}

// tcp-stream and the iWARP transfers run on the TCP model, not on the HCA: their frames are
// written and analysed, but they have no verbs trace and no wire format to choose.
int runTransport(const SimArgs& a, std::ostream& out, std::ostream& err) {
  if (!a.wire.empty()) {
    reportError(err, "--wire does not apply to '" + a.scenario + "' (it runs over TCP)");
    return kExitUsage;
  }
  if (a.traceGiven && a.trace != "none") {
    reportError(err, "--trace does not apply to '" + a.scenario + "' (it has no verbs trace)");
    return kExitUsage;
  }
  std::unique_ptr<packets_io::CaptureWriter> writer;
  if (!a.pcap.empty()) {
    auto file = createOutput("--pcap", a.pcap, {}, err);
    if (!file) return kExitUsage;
    writer = startCapture(std::move(file), packets::LinkType::Ethernet, err);
    if (!writer) return kExitUsage;
  }
  sim::TransportScenarioOptions o;
  if (a.seed) o.seed = *a.seed;
  if (a.loss) o.lossRate = *a.loss;
  std::string error;
  const auto r = sim::runTransportScenario(a.scenario, o, error);
  if (!r) {
    if (writer) writer->discard();  // no frames: an existing file stays
    reportError(err, error);
    return kExitFailure;
  }
  if (a.analyze) {
    analysis::FlowAnalyzer analyzer;
    // Times in whole nanoseconds, as the pcap holds them, so both analyses agree.
    const std::int64_t first = r->frames.empty() ? 0 : r->frames.front().timePs / 1000;
    for (std::size_t i = 0; i < r->frames.size(); ++i)
      analyzer.addFrame(r->frames[i].bytes, packets::LinkType::Ethernet, i + 1,
                        static_cast<double>(r->frames[i].timePs / 1000 - first) / 1e9);
    analyzer.finish();
    const analysis::AnalysisReport report = analyzer.report();
    if (a.json) {
      analysis::writeJson(out, report);
      out << '\n';
    } else {
      out << analysis::formatText(report);
    }
  } else {
    out << r->name << ": " << r->frames.size() << " frames captured at host A, " << r->framesLost
        << " lost, " << r->elapsedUs << " us, data " << (r->dataIntact ? "intact" : "NOT intact")
        << '\n';
  }
  if (writer) {
    for (const auto& f : r->frames)
      if (!writer->write(f.bytes, f.timePs / 1000)) break;
    if (!writer->close()) {
      reportError(err, writer->error());
      return kExitUsage;
    }
  }
  if (!r->dataIntact) {
    reportError(err, r->name + ": the destination buffer does not hold the source bytes");
    return kExitFailure;
  }
  return kExitOk;
}

// The Ceph messenger runs on both stacks of its own model: no wire format, loss or CM to choose.
int runCeph(const SimArgs& a, std::ostream& out, std::ostream& err) {
  for (const auto& [given, name] :
       {std::pair{!a.wire.empty(), "--wire"}, std::pair{a.loss.has_value(), "--loss"},
        std::pair{a.cm, "--cm"}}) {
    if (given) {
      reportError(err, std::string(name) + " does not apply to '" + a.scenario + "'");
      return kExitUsage;
    }
  }
  CephRunArgs c;
  c.scenario = a.scenario;
  c.pcap = a.pcap;
  c.trace = a.trace;
  c.traceGiven = a.traceGiven;
  c.seed = a.seed;
  c.messageSize = a.messageSize;
  c.messages = a.messages;
  c.registered = a.registered;
  c.analyze = a.analyze;
  c.json = a.json;
  return runCephScenario(c, out, err);
}

// `--trace json`: one JSON array, the trace events with their typed fields (the completions are
// among them, as "cqe" events).
std::string traceDocument(const verbs_backend::RunResult& r) {
  nlohmann::json events = nlohmann::json::array();
  for (const auto& e : r.trace)
    events.push_back(sim::toJson(e));
  return events.dump(1) + "\n";
}

// Native IB goes into ERF records as ibdump writes them: tshark refuses link type 247.
packets::LinkType pcapLinkType(sim::WireFormat wire) {
  return wire == sim::WireFormat::InfiniBand ? packets::LinkType::Erf : packets::LinkType::Ethernet;
}

bool writePcap(packets_io::CaptureWriter& writer, const verbs_backend::RunResult& r,
               std::ostream& err) {
  const bool ib = pcapLinkType(r.wire) == packets::LinkType::Erf;
  for (const auto& f : r.frames) {
    const std::int64_t ns = f.time.picos() / 1000;
    if (ib) {
      // ERF's timestamp is 32.32 fixed-point seconds.
      const auto secs = static_cast<std::uint64_t>(ns / 1000000000);
      const auto frac = static_cast<std::uint64_t>(ns % 1000000000);
      const std::uint64_t erfTime = (secs << 32) | ((frac << 32) / 1000000000u);
      if (!writer.write(packets::wrapErfInfiniband(f.bytes, erfTime), ns)) break;
    } else if (!writer.write(f.bytes, ns)) {
      break;
    }
  }
  if (!writer.close()) {
    reportError(err, writer.error());
    return false;
  }
  return true;
}

// `--show`: the scenario as the JSON file that runs it, to start one's own from.
int showScenario(const SimArgs& a, std::ostream& out, std::ostream& err) {
  if (isCephScenario(a.scenario)) {
    reportError(err, "'" + a.scenario + "' runs the Ceph messenger model and has no scenario file");
    return kExitUsage;
  }
  if (isTransportScenario(a.scenario)) {
    reportError(err, "'" + a.scenario +
                         "' runs over the TCP model and has no scenario file (--list shows the "
                         "built-ins)");
    return kExitUsage;
  }
  auto scenario = loadScenario(a.scenario, err);
  if (!scenario) return kExitUsage;
  out << verbs_backend::scenarioJsonText(scenario->json);
  return kExitOk;
}

int runSim(const SimArgs& a, std::ostream& out, std::ostream& err) {
  if (a.list) return listScenarios(out);
  if (a.scenario.empty()) {
    reportError(err, "sim needs a scenario NAME or FILE (--list shows the built-ins)");
    return kExitUsage;
  }
  if (a.show) {
    if (!a.runOption.empty()) {
      reportError(
          err, "--show prints the scenario and runs nothing: " + a.runOption + " does not apply");
      return kExitUsage;
    }
    return showScenario(a, out, err);
  }
  if (a.json && !a.analyze) {
    reportError(err, "--json applies to --analyze (the trace as JSON is --trace json)");
    return kExitUsage;
  }
  if (isTransportScenario(a.scenario)) return runTransport(a, out, err);
  if (isCephScenario(a.scenario)) return runCeph(a, out, err);
  if (!a.messageSize.empty() || a.messages || a.registered) {
    reportError(err, "--message-size, --messages and --registered apply to ceph-messenger");
    return kExitUsage;
  }
  if (a.analyze && a.trace == "json") {
    reportError(err,
                "--trace json and --analyze each print a document of their own: run them "
                "one at a time");
    return kExitUsage;
  }
  auto scenario = loadScenario(a.scenario, err);
  if (!scenario) return kExitUsage;
  if (a.cm) {
    if (auto qp = verbs_backend::cmConnectedQp(*scenario); !qp.ok()) {
      reportError(err, qp.status.message);
      return kExitUsage;
    }
  }
  verbs_backend::RunOptions options;
  options.cm = a.cm;
  options.seed = a.seed;
  options.loss = a.loss;
  if (!a.wire.empty()) options.wire = wireNames().at(a.wire);
  // --analyze prints the analysis alone unless a trace was asked for too.
  const std::string trace = a.analyze && !a.traceGiven ? "none" : a.trace;
  options.trace = trace != "none" || a.analyze;  // the analysis reads the frames off the trace
  options.captureFrames = !a.pcap.empty();
  verbs_backend::SimScenarioSession session(*scenario, options);
  std::unique_ptr<packets_io::CaptureWriter> writer;
  if (!a.pcap.empty()) {
    auto file = createOutput("--pcap", a.pcap, scenarioFiles(a.scenario), err);
    if (!file) return kExitUsage;
    writer = startCapture(std::move(file), pcapLinkType(session.network().config().wire), err);
    if (!writer) return kExitUsage;
  }
  std::optional<TraceAnalysis> analysis;
  if (a.analyze) analysis.emplace(session.network().sim().trace(), session.network().config().wire);
  const verbs_backend::RunResult r = session.runToEnd();
  std::optional<analysis::AnalysisReport> report;
  if (analysis) report = analysis->finish();
  if (trace == "json") {
    out << traceDocument(r);
  } else {
    if (trace == "text") out << r.traceText() << '\n' << "# completions\n";
    if (!a.analyze || trace != "none") {
      for (const auto& [host, wc] : r.completions)
        out << verbs_backend::formatCompletion(r.hostNames[host], wc) << '\n';
    }
    if (report && a.json) {
      analysis::writeJson(out, *report);
      out << '\n';
    } else if (report) {
      out << analysis::formatText(*report);
    }
  }
  if (writer && !writePcap(*writer, r, err)) return kExitUsage;
  if (!r.ok) {
    reportError(err, r.error);
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace

void addSimCommand(CLI::App& app, Action& action) {
  auto args = std::make_shared<SimArgs>();
  CLI::App* cmd = app.add_subcommand(
      "sim", "Run a built-in scenario or a scenario file (JSON) in the simulator");
  cmd->add_option("scenario", args->scenario, "Built-in scenario name or scenario file");
  cmd->add_option("--pcap", args->pcap, "Write the frames, with simulated timestamps, to a pcap");
  auto* traceOption =
      cmd->add_option("--trace", args->trace,
                      "Trace output: text, json (one JSON array of the events with their typed "
                      "fields; not with --analyze) or none (with --analyze: none)")
          ->check(CLI::IsMember({"text", "json", "none"}));
  checkRange(
      cmd->add_option("--seed", args->seed, "Seed of the simulation (default: the scenario's)"),
      kSeedRange);
  checkRange(cmd->add_option("--loss", args->loss, "Frame loss probability"), kLossRange);
  std::vector<std::string> wires;
  for (const auto& [name, format] : wireNames())
    wires.push_back(name);
  cmd->add_option("--wire", args->wire, "Wire format: rocev2, rocev2-ipv6, rocev1 or ib")
      ->check(CLI::IsMember(wires));
  cmd->add_flag("--list", args->list, "List the built-in scenarios");
  cmd->add_flag(
      "--show", args->show,
      "Print the scenario as the JSON file that runs it (a built-in as a starting point for "
      "one's own; format: docs/scenario-format.md)");
  cmd->add_flag("--analyze", args->analyze,
                "Print the flow analysis of the run (as `analyze` prints that of its pcap)");
  cmd->add_flag("--json", args->json, "With --analyze: the analysis as JSON (needs --analyze)");
  cmd->add_flag("--cm", args->cm,
                "Connect the RC QP as rdma_cm does (REQ/REP/RTU, DREQ/DREP on the wire), as "
                "verbs --cm does for real, instead of the out-of-band exchange");
  cmd->add_option("--message-size", args->messageSize,
                  "ceph-messenger: bytes per message (K, M suffixes; default 300K, at most 16M)");
  checkRange(cmd->add_option("--messages", args->messages,
                             "ceph-messenger: messages the client sends (default 3)"),
             IntegerRange{1, 1000});
  cmd->add_flag("--registered", args->registered,
                "ceph-messenger: the messages already live in registered chunks (no copy in)");
  cmd->callback([args, traceOption, cmd, &action] {
    args->traceGiven = traceOption->count() > 0;
    for (const char* runOnly : {"--pcap", "--trace", "--seed", "--loss", "--wire", "--analyze",
                                "--json", "--cm", "--message-size", "--messages", "--registered"}) {
      if (cmd->get_option(runOnly)->count() > 0 && args->runOption.empty())
        args->runOption = runOnly;
    }
    action = [args](std::ostream& out, std::ostream& err) { return runSim(*args, out, err); };
  });
}

}  // namespace rdmascope::cli
