#include <CLI/CLI.hpp>
#include <map>

#include "commands.h"
#include "output_options.h"
#include "rdmascope/cli/cli.h"
#include "rdmascope/packets/ib_builder.h"
#include "rdmascope/packets_io/capture_writer.h"
#include "rdmascope/sim/trace_analysis.h"
#include "rdmascope/verbs_backend/scenario.h"
#include "scenario_source.h"

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
  return kExitOk;
}

bool writePcap(const std::string& path, const verbs_backend::RunResult& r, std::ostream& err) {
  // Native IB goes into ERF records as ibdump writes them: tshark refuses link type 247.
  const bool ib = r.wire == sim::WireFormat::InfiniBand;
  const packets::LinkType link = ib ? packets::LinkType::Erf : packets::LinkType::Ethernet;
  std::string error;
  auto writer = packets_io::CaptureWriter::open(path, link, error);
  if (!writer) {
    reportError(err, error);
    return false;
  }
  for (const auto& f : r.frames) {
    const std::int64_t ns = f.time.picos() / 1000;
    if (ib) {
      // ERF's timestamp is 32.32 fixed-point seconds.
      const auto secs = static_cast<std::uint64_t>(ns / 1000000000);
      const auto frac = static_cast<std::uint64_t>(ns % 1000000000);
      const std::uint64_t erfTime = (secs << 32) | ((frac << 32) / 1000000000u);
      if (!writer->write(packets::wrapErfInfiniband(f.bytes, erfTime), ns)) break;
    } else if (!writer->write(f.bytes, ns)) {
      break;
    }
  }
  if (!writer->close()) {
    reportError(err, writer->error());
    return false;
  }
  return true;
}

int runSim(const SimArgs& a, std::ostream& out, std::ostream& err) {
  if (a.list) return listScenarios(out);
  if (a.scenario.empty()) {
    reportError(err, "sim needs a scenario NAME or FILE (--list shows the built-ins)");
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
  std::optional<sim::TraceAnalysis> analysis;
  if (a.analyze) analysis.emplace(session.network().sim().trace(), session.network().config().wire);
  const verbs_backend::RunResult r = session.runToEnd();
  if (trace == "text") {
    out << r.traceText() << '\n';
  } else if (trace == "json") {
    out << r.traceJson() << '\n';
  }
  if (trace != "none") out << "# completions\n";
  if (!a.analyze || trace != "none") {
    for (const auto& [host, wc] : r.completions)
      out << formatCompletion(r.hostNames[host], wc) << '\n';
  }
  if (analysis) {
    const analysis::AnalysisReport report = analysis->finish();
    out << (a.json ? analysis::toJson(report) + "\n" : analysis::formatText(report));
  }
  if (!a.pcap.empty() && !writePcap(a.pcap, r, err)) return kExitUsage;
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
  auto* traceOption = cmd->add_option("--trace", args->trace,
                                      "Trace output: text, json or none (with --analyze: none)")
                          ->check(CLI::IsMember({"text", "json", "none"}));
  cmd->add_option("--seed", args->seed, "Seed of the simulation (default: the scenario's)");
  cmd->add_option("--loss", args->loss, "Frame loss probability, 0 to below 1")
      ->check(CLI::Range(0.0, 0.999));
  std::vector<std::string> wires;
  for (const auto& [name, format] : wireNames())
    wires.push_back(name);
  cmd->add_option("--wire", args->wire, "Wire format: rocev2, rocev2-ipv6, rocev1 or ib")
      ->check(CLI::IsMember(wires));
  cmd->add_flag("--list", args->list, "List the built-in scenarios");
  cmd->add_flag("--analyze", args->analyze,
                "Print the flow analysis of the run (as `analyze` prints that of its pcap)");
  cmd->add_flag("--json", args->json, "With --analyze: the analysis as JSON");
  cmd->add_flag("--cm", args->cm,
                "Connect the RC QP as rdma_cm does (REQ/REP/RTU, DREQ/DREP on the wire), as "
                "verbs --cm does for real, instead of the out-of-band exchange");
  cmd->callback([args, traceOption, &action] {
    args->traceGiven = traceOption->count() > 0;
    action = [args](std::ostream& out, std::ostream& err) { return runSim(*args, out, err); };
  });
}

}  // namespace rdmascope::cli
