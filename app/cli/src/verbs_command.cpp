#include <CLI/CLI.hpp>
#include <cstdio>
#include <map>

#include "commands.h"
#include "output_options.h"
#include "perftest_report.h"
#include "rdmascope/cli/cli.h"
#include "rdmascope/verbs_backend/oob_exchange.h"
#include "rdmascope/verbs_backend/scenario_side.h"
#include "real_bench.h"
#include "scenario_source.h"
#include "sim_bench.h"
#ifdef RDMASCOPE_HAVE_IBVERBS
#include "rdmascope/verbs_backend/ibv_backend.h"
#endif

namespace rdmascope::cli {
namespace {

struct VerbsArgs {
  std::string device;
  std::string scenario;
  bool server = false;
  std::string connect;
  std::uint16_t port = verbs_backend::kDefaultOobPort;
  unsigned gidIndex = 1;
  std::string bench;
  std::uint64_t size = 65536;
  std::uint64_t iters = 1000;
  bool sim = false;
  bool latency = false;
};

const std::map<std::string, BenchOp>& benchOps() {
  static const std::map<std::string, BenchOp> ops{{"write", BenchOp::Write},
                                                  {"read", BenchOp::Read},
                                                  {"send", BenchOp::Send},
                                                  {"atomic", BenchOp::Atomic}};
  return ops;
}

BenchConfig benchConfig(const VerbsArgs& a) {
  BenchConfig b;
  b.op = benchOps().at(a.bench);
  b.size = a.size;
  b.iterations = a.iters;
  b.latency = a.latency;
  return b;
}

void printReport(const VerbsArgs& a, const std::string& banner, const std::vector<double>& posted,
                 const std::vector<double>& completed, const std::vector<double>& latencies,
                 std::ostream& out) {
  const std::string rule(88, '-');
  out << banner << '\n' << rule << '\n';
  if (a.latency) {
    out << latencyHeader() << '\n' << formatLatency(latencyReport(a.size, latencies)) << '\n';
  } else {
    out << bandwidthHeader() << '\n'
        << formatBandwidth(bandwidthReport(a.size, posted, completed)) << '\n';
  }
  out << rule << '\n';
}

int runSimBenchCommand(const VerbsArgs& a, std::ostream& out, std::ostream& err) {
  const sim::NetworkConfig cfg = sim::Network::defaultConfig();
  const SimBenchResult r = runSimBench(benchConfig(a), cfg);
  if (!r.ok) {
    reportError(err, "simulated " + a.bench + " benchmark: " + r.error);
    return r.error.find("--size") != std::string::npos ? kExitUsage : kExitFailure;
  }
  char banner[200];
  std::snprintf(banner, sizeof banner,
                "# simulated RC %s %s: %s, link %.0f Gb/s, latency %.2f us, path MTU 4096, "
                "times in simulated microseconds",
                a.bench.c_str(), a.latency ? "latency" : "bandwidth",
                std::string(sim::toString(cfg.wire)).c_str(), r.link.gbps, r.link.latency.micros());
  printReport(a, banner, r.postedUs, r.completedUs, r.latenciesUs, out);
  return kExitOk;
}

#ifdef RDMASCOPE_HAVE_IBVERBS
verbs_backend::Result<std::unique_ptr<verbs_backend::IbvBackend>> openDevice(const VerbsArgs& a) {
  verbs_backend::IbvOptions o;
  o.deviceName = a.device;
  o.gidIndex = static_cast<std::uint8_t>(a.gidIndex);
  return verbs_backend::IbvBackend::open(o);
}

verbs_backend::Result<verbs_backend::OobConnection> connectPeer(const VerbsArgs& a,
                                                                std::ostream& err) {
  using namespace std::chrono_literals;
  verbs_backend::SideHooks hooks;
  hooks.waiting = [&err](const std::string& what) { err << "# waiting for " << what << '\n'; };
  return verbs_backend::connectScenarioPeer({a.server, a.connect, a.port}, 120s, hooks);
}
#endif

int runVerbs(const VerbsArgs& a, std::ostream& out, std::ostream& err) {
  if (a.bench.empty() == a.scenario.empty()) {
    reportError(err, "verbs needs either --scenario NAME or --bench write|read|send|atomic");
    return kExitUsage;
  }
  if (a.bench == "atomic" && a.size != 8) {
    reportError(err, "atomic operations are 8 bytes: use --size 8");
    return kExitUsage;
  }
  if (!a.bench.empty() && a.sim) return runSimBenchCommand(a, out, err);
  if (a.server == !a.connect.empty()) {
    reportError(err, "verbs needs one of --server or --connect HOST");
    return kExitUsage;
  }
  std::optional<verbs_backend::Scenario> scenario;
  if (!a.scenario.empty()) {
    scenario = loadScenario(a.scenario, err);
    if (!scenario) return kExitUsage;
  }
#ifdef RDMASCOPE_HAVE_IBVERBS
  auto dev = openDevice(a);
  if (!dev.ok()) {
    reportError(err, dev.status.message);
    return kExitUsage;
  }
  auto oob = connectPeer(a, err);
  if (!oob.ok()) {
    reportError(err, "out-of-band connection: " + oob.status.message);
    return kExitFailure;
  }
  if (!a.bench.empty()) {
    const RealBenchResult r = runRealBench(benchConfig(a), *dev.value, oob.value, !a.server);
    if (!r.ok) {
      reportError(err, a.bench + " benchmark: " + r.error);
      return kExitFailure;
    }
    if (a.server) {
      err << "# served the " << a.bench << " benchmark; the client prints the report\n";
    } else {
      printReport(a,
                  "# RC " + a.bench + (a.latency ? " latency" : " bandwidth") + " on " +
                      dev.value->name() + ", wall-clock microseconds",
                  r.postedUs, r.completedUs, r.latenciesUs, out);
    }
    return kExitOk;
  }
  const int side = a.server ? 0 : 1;
  verbs_backend::SideHooks hooks;
  hooks.completion = [&](const std::string& line) { out << line << '\n' << std::flush; };
  hooks.note = [&](const std::string& line) { err << "# " << line << '\n'; };
  const verbs_backend::SideRunResult r =
      verbs_backend::runScenarioSide(*scenario, side, *dev.value, oob.value, hooks);
  if (!r.ok) {
    reportError(err, r.error);
    return kExitFailure;
  }
  return kExitOk;
#else
  reportError(err, "this build has no libibverbs: only --bench with --sim is available");
  return kExitUsage;
#endif
}

}  // namespace

void addVerbsCommand(CLI::App& app, Action& action) {
  auto args = std::make_shared<VerbsArgs>();
  CLI::App* cmd = app.add_subcommand(
      "verbs", "Run one side of a scenario on a real RDMA device, or a perftest-style benchmark");
  cmd->add_option("--device", args->device, "RDMA device (default: the first one)");
  cmd->add_option("--gid-index", args->gidIndex, "GID index (Soft-RoCE: 1 is the IPv4 GID)")
      ->check(CLI::Range(0, 255));
  cmd->add_option("--scenario", args->scenario, "Built-in scenario or scenario file");
  auto* server = cmd->add_flag("--server", args->server, "Be host 0 and wait for the peer");
  cmd->add_option("--connect", args->connect, "Be host 1 and connect to HOST")->excludes(server);
  cmd->add_option("--port", args->port, "TCP port of the out-of-band exchange (default 18515)");
  std::vector<std::string> ops;
  for (const auto& [name, op] : benchOps())
    ops.push_back(name);
  cmd->add_option("--bench", args->bench, "Benchmark: write, read, send or atomic")
      ->check(CLI::IsMember(ops));
  cmd->add_option("--size", args->size, "Message size in bytes (default 65536)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 30));
  cmd->add_option("--iters", args->iters, "Iterations (default 1000)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{100000}));
  cmd->add_flag("--sim", args->sim, "Run both sides of the benchmark on the simulator");
  cmd->add_flag("--lat", args->latency, "Measure latency instead of bandwidth");
  cmd->callback([args, &action] {
    action = [args](std::ostream& out, std::ostream& err) { return runVerbs(*args, out, err); };
  });
}

}  // namespace rdmascope::cli
