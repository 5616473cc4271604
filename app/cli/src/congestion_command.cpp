// `rdmascope-cli congestion`: runs a switched-fabric scenario (hosts, switches, PFC, ECN,
// DCQCN; sim/include/rdmascope/sim/fabric.h) and prints its summary; optionally writes a pcap
// of chosen ports and the time series as JSON.
#include <CLI/CLI.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "commands.h"
#include "numeric_options.h"
#include "output_files.h"
#include "rdmascope/cli/cli.h"
#include "rdmascope/sim/fabric.h"
#include "rdmascope/sim/topology.h"

namespace rdmascope::cli {

namespace {

struct CongestionArgs {
  std::string scenario;
  std::string pcap;
  std::string series;
  std::vector<std::string> ports;
  double durationUs = 0;
  bool explain = false;
};

int runCongestion(const CongestionArgs& a, std::ostream& out, std::ostream& err) {
  std::string error;
  auto spec = sim::loadScenario(a.scenario, error);
  if (!spec) {
    err << "congestion: " << error << '\n';
    return kExitUsage;
  }
  if (a.durationUs > 0)
    spec->duration = sim::SimTime::ps(static_cast<std::int64_t>(a.durationUs * 1e6));
  for (const auto& p : a.ports) {
    auto ref = sim::parsePortRef(p);
    if (!ref) {
      err << "congestion: --capture " << p << ": expected a port such as s0:1 or h0\n";
      return kExitUsage;
    }
    spec->capture.push_back(*ref);
  }
  if (!a.pcap.empty() && spec->capture.empty()) {
    err << "congestion: --pcap needs a port to capture (--capture, or \"capture\" in the "
           "scenario)\n";
    return kExitUsage;
  }
  std::unique_ptr<packets_io::CaptureWriter> writer;
  if (!a.pcap.empty()) {
    auto file = createOutput("--pcap", a.pcap, {a.scenario}, err);
    if (!file) return kExitUsage;
    writer = startCapture(std::move(file), packets::LinkType::Ethernet, err);
    if (!writer) return kExitUsage;
  }
  std::unique_ptr<sim::Fabric> fabric;
  try {
    fabric = std::make_unique<sim::Fabric>(*spec);
  } catch (const std::invalid_argument& e) {
    err << "congestion: " << a.scenario << ": " << e.what() << '\n';
    return kExitUsage;
  }
  for (const auto& w : fabric->configWarnings())
    err << "congestion: warning: " << w << '\n';
  // Frames go to the pcap as they are sent (memory stays bounded however long the run);
  // without --pcap none is kept.
  bool writeFailed = false;
  fabric->setCaptureSink([&](const sim::FabricCapture& c) {
    if (writer && !writeFailed) writeFailed = !writer->write(c.bytes, c.time.picos() / 1000);
  });
  fabric->run();
  if (a.explain) {
    if (!spec->description.empty()) out << spec->description << "\n\n";
    for (const auto& p : spec->explanation)
      out << "- " << p << '\n';
    if (!spec->explanation.empty()) out << '\n';
  }
  out << fabric->summary();
  if (writer) {
    if (writeFailed || !writer->close()) {
      err << "congestion: " << writer->error() << '\n';
      return kExitFailure;
    }
    out << "wrote " << writer->framesWritten() << " frames to " << a.pcap << '\n';
  }
  if (!a.series.empty()) {
    if (!writeTextFile(a.series, fabric->seriesJson().dump() + "\n", err)) return kExitFailure;
    out << "wrote the time series to " << a.series << '\n';
  }
  return kExitOk;
}

}  // namespace

void addCongestionCommand(CLI::App& app, Action& action) {
  CLI::App* c = app.add_subcommand(
      "congestion",
      "Run a switched-fabric scenario (PFC, ECN, CNP, DCQCN) and print drops, pauses, CNPs and "
      "per-flow throughput");
  auto a = std::make_shared<CongestionArgs>();
  c->add_option("scenario", a->scenario, "Scenario file (JSON, e.g. examples/congestion/*.json)")
      ->required();
  c->add_option("--pcap", a->pcap, "Write the frames of the captured ports to this pcap");
  c->add_option("--capture", a->ports,
                "A port to capture: s0:3 (switch s0, port 3) or h2 (a host)");
  c->add_option("--series", a->series,
                "Write the time series (queue depths, flow rates, pauses) as JSON");
  // Up to 10 s of simulated time, as a scenario file's durationUs.
  checkRange(c->add_option("--duration-us", a->durationUs,
                           "Simulated time in microseconds, overriding the scenario's"),
             RealRange{0, 1e7, true, false});
  c->add_flag("--explain", a->explain, "Print the scenario's explanation of its effects first");
  c->callback([a, &action] {
    action = [a](std::ostream& out, std::ostream& err) { return runCongestion(*a, out, err); };
  });
}

}  // namespace rdmascope::cli
