#include <CLI/CLI.hpp>
#include <cstdio>
#include <map>

#include "commands.h"
#include "numeric_options.h"
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
#include "rdmascope/verbs_backend/ibv_cm_connection.h"

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
  bool cm = false;
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

#ifdef RDMASCOPE_HAVE_RDMACM
// --cm: the rdma_cm connects the QPs (REQ/REP/RTU), its private data carries what the exchange
// steps publish; the TCP connection on the same port number carries only the step barriers.
int runCmScenario(const VerbsArgs& a, const verbs_backend::Scenario& scenario, std::ostream& out,
                  std::ostream& err) {
  using namespace std::chrono_literals;
  using namespace verbs_backend;
  using Clock = std::chrono::steady_clock;
  if (Status s = cmAvailable(); !s.ok()) {
    reportError(err, s.message);
    return kExitFailure;
  }
  std::unique_ptr<CmConnection> cm;
  OobConnection oob;
  std::vector<std::uint8_t> request;
  if (a.server) {
    auto l = CmConnection::listen(a.port);
    if (!l.ok()) {
      reportError(err, l.status.message);
      return kExitFailure;
    }
    cm = std::move(l.value);
    auto tcp = OobListener::listen(a.port);
    if (!tcp.ok()) {
      reportError(err, "the TCP connection for the step barriers: " + tcp.status.message);
      return kExitFailure;
    }
    err << "# rdma_cm listens on port " << a.port
        << " (RDMA_PS_TCP); the step barriers use TCP port " << tcp.value.port() << '\n';
    auto c = tcp.value.accept(120s);
    if (!c.ok()) {
      reportError(err, "the TCP connection for the step barriers: " + c.status.message);
      return kExitFailure;
    }
    oob = std::move(c.value);
    if (std::string bad = exchangeScenarioHello(scenario, 0, oob); !bad.empty()) {
      reportError(err, bad);
      return kExitFailure;
    }
    auto req = cm->waitRequest(60s);
    if (!req.ok()) {
      reportError(err, "rdma_cm: " + req.status.message);
      return kExitFailure;
    }
    request = std::move(req.value);
    err << "# rdma_cm: REQ from " << cm->peerAddress() << " to " << cm->localAddress() << " on "
        << cm->deviceName() << " port " << int(cm->portNum()) << '\n';
  } else {
    const auto t0 = Clock::now();
    auto r = CmConnection::resolve(a.connect, a.port, 5s);
    if (!r.ok()) {
      reportError(err, "rdma_cm: " + r.status.message);
      return kExitFailure;
    }
    cm = std::move(r.value);
    const auto ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    char line[200];
    std::snprintf(line, sizeof line, "# rdma_cm: address and route resolved in %.1f ms: ", ms);
    err << line << cm->localAddress() << " -> " << cm->peerAddress() << " on " << cm->deviceName()
        << " port " << int(cm->portNum()) << '\n';
    auto c = OobConnection::connect(a.connect, a.port, 120s);
    if (!c.ok()) {
      reportError(err, "the TCP connection for the step barriers: " + c.status.message);
      return kExitFailure;
    }
    oob = std::move(c.value);
    // Its answer is read after the REQ (runScenarioSide), so a REJ is named as the reason.
    if (Status st = oob.sendLine(scenarioHello(scenario, 1)); !st.ok()) {
      reportError(err, "out-of-band connection: " + st.message);
      return kExitFailure;
    }
  }
  if (!a.device.empty() && a.device != cm->deviceName())
    err << "# --device " << a.device << " ignored: the rdma_cm's route uses " << cm->deviceName()
        << '\n';
  IbvOptions o;
  o.gidIndex = static_cast<std::uint8_t>(a.gidIndex);
  auto dev = cm->openBackend(o);
  if (!dev.ok()) {
    reportError(err, dev.status.message);
    return kExitFailure;
  }
  CmLink link{*cm, std::move(request)};
  SideHooks hooks;
  hooks.completion = [&](const std::string& line) { out << line << '\n' << std::flush; };
  hooks.note = [&](const std::string& line) { err << "# " << line << '\n'; };
  const SideRunResult r =
      runScenarioSide(scenario, a.server ? 0 : 1, *dev.value, oob, hooks, &link);
  if (!r.ok) {
    reportError(err, r.error);
    return kExitFailure;
  }
  return kExitOk;
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
  if (a.cm && !a.bench.empty()) {
    reportError(err, "--cm runs scenarios (--scenario NAME); the benchmarks connect over TCP");
    return kExitUsage;
  }
  std::optional<verbs_backend::Scenario> scenario;
  if (!a.scenario.empty()) {
    scenario = loadScenario(a.scenario, err);
    if (!scenario) return kExitUsage;
  }
  if (a.cm) {
    auto qp = cmConnectedQp(*scenario);
    if (!qp.ok()) {
      reportError(err, qp.status.message);
      return kExitUsage;
    }
#ifdef RDMASCOPE_HAVE_RDMACM
    return runCmScenario(a, *scenario, out, err);
#else
    reportError(err, "this build has no librdmacm: run the scenario without --cm");
    return kExitUsage;
#endif
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
  cmd->add_option("--device", args->device,
                  "RDMA device (default: the first one; with --cm, the route's)");
  checkRange(
      cmd->add_option("--gid-index", args->gidIndex, "GID index (Soft-RoCE: 1 is the IPv4 GID)"),
      IntegerRange{0, 255});
  cmd->add_option("--scenario", args->scenario, "Built-in scenario or scenario file");
  auto* server = cmd->add_flag("--server", args->server, "Be host 0 and wait for the peer");
  cmd->add_option("--connect", args->connect, "Be host 1 and connect to HOST")->excludes(server);
  checkRange(cmd->add_option("--port", args->port,
                             "TCP port of the out-of-band exchange, and with --cm the rdma_cm "
                             "port (default 18515)"),
             kPortRange);
  cmd->add_flag("--cm", args->cm,
                "Connect the QPs with librdmacm (rdma_cm REQ/REP/RTU) instead of the TCP "
                "exchange; the route picks the device");
  std::vector<std::string> ops;
  for (const auto& [name, op] : benchOps())
    ops.push_back(name);
  cmd->add_option("--bench", args->bench, "Benchmark: write, read, send or atomic")
      ->check(CLI::IsMember(ops));
  checkRange(cmd->add_option("--size", args->size, "Message size in bytes (default 65536)"),
             IntegerRange{1, std::uint64_t{1} << 30});
  checkRange(cmd->add_option("--iters", args->iters, "Iterations (default 1000)"),
             IntegerRange{1, 100000});
  cmd->add_flag("--sim", args->sim, "Run both sides of the benchmark on the simulator");
  cmd->add_flag("--lat", args->latency, "Measure latency instead of bandwidth");
  cmd->callback([args, &action] {
    action = [args](std::ostream& out, std::ostream& err) { return runVerbs(*args, out, err); };
  });
}

}  // namespace rdmascope::cli
