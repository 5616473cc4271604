#include <CLI/CLI.hpp>
#include <iomanip>
#include <memory>

#include "commands.h"
#include "output_options.h"
#include "rdmascope/cli/cli.h"
#include "tcp_bench.h"

namespace rdmascope::cli {
namespace {

struct BenchTcpArgs {
  bool json = false;
  bool quick = false;
};

int runBenchTcp(const BenchTcpArgs& a, std::ostream& out, std::ostream& err) {
  std::string error;
  const auto r = runTcpBench(TcpBenchOptions{a.quick}, error);
  if (!r) {
    reportError(err, error);
    return kExitUsage;
  }
  if (a.json) {
    out << tcpBenchJson(*r) << '\n';
    return kExitOk;
  }
  out << std::fixed << std::setprecision(1);
  out << "TCP socket path on this machine (loopback 127.0.0.1)\n";
  out << "  memcpy bandwidth        " << r->memcpyBytesPerSec / 1e9 << " GB/s\n";
  out << "  system call (getppid)   " << r->syscallNs << " ns\n";
  out << "  send() of 64 bytes      " << r->sendCallNs << " ns per call\n";
  out << "  recv() of 64 bytes      " << r->recvCallNs << " ns per call (data already queued)\n";
  out << "  1-byte round trip       " << r->roundTripNs / 1000 << " us\n";
  out << "  bulk, 128 KiB send()    " << r->bulkBytesPerSec * 8 / 1e9 << " Gb/s ("
      << r->bulkBytes / (1024 * 1024) << " MiB)\n";
  out << "Feed these to the model: rdmascope-cli bench tcp --json > costs.json; "
         "rdmascope-cli compare --calibration costs.json (or compare --calibrated)\n";
  return kExitOk;
}

}  // namespace

void addBenchCommand(CLI::App& app, Action& action) {
  CLI::App* bench = app.add_subcommand("bench", "Measure this machine's real costs");
  bench->require_subcommand(1);
  auto args = std::make_shared<BenchTcpArgs>();
  CLI::App* tcp = bench->add_subcommand(
      "tcp", "TCP over loopback: memcpy bandwidth, send/recv cost per call, round trip");
  tcp->add_flag("--json", args->json, "Print the figures as JSON (input of compare --calibration)");
  tcp->add_flag("--quick", args->quick, "Fewer iterations (less accurate, about 0.2 s)");
  tcp->callback([args, &action] {
    action = [args](std::ostream& out, std::ostream& err) { return runBenchTcp(*args, out, err); };
  });
}

}  // namespace rdmascope::cli
