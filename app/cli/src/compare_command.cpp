#include <CLI/CLI.hpp>
#include <fstream>
#include <iomanip>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands.h"
#include "numeric_options.h"
#include "output_options.h"
#include "rdmascope/cli/cli.h"
#include "rdmascope/sim/host_cost_model.h"
#include "rdmascope/sim/transfer_cost.h"
#include "tcp_bench.h"

namespace rdmascope::cli {
namespace {

struct CompareArgs {
  std::string sizes = "4K,64K,1M,1G";
  std::string transports = "tcp,rocev2,iwarp";
  std::string op = "send";
  std::vector<std::string> settings;
  bool markers = false;
  bool completionEvents = false;
  bool csv = false;
  bool json = false;
  bool stages = false;
  bool listSettings = false;
  bool calibrated = false;
  std::string calibrationFile;
};

std::string sizeLabel(std::uint64_t bytes) {
  if (bytes % (1ull << 40) == 0) return std::to_string(bytes >> 40) + "T";
  if (bytes % (1ull << 30) == 0) return std::to_string(bytes >> 30) + "G";
  if (bytes % (1ull << 20) == 0) return std::to_string(bytes >> 20) + "M";
  if (bytes % 1024 == 0) return std::to_string(bytes >> 10) + "K";
  return std::to_string(bytes);
}

std::string fixed(double v, int precision) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(precision) << v;
  return s.str();
}

nlohmann::json toJson(const sim::TransferEstimate& e, bool withStages) {
  const auto& k = e.counters;
  nlohmann::json j;
  j["transport"] = sim::toString(e.transport);
  j["op"] = e.transport == sim::Transport::Tcp ? "send/recv" : std::string(sim::toString(e.op));
  j["bytes"] = e.bytes;
  j["latency_ns"] = e.latencyNs;
  j["throughput_bytes_per_sec"] = e.throughputBytesPerSec;
  j["cpu_ns"] = k.cpuNs();
  j["host_a_cpu_ns"] = k.hostACpuNs;
  j["host_b_cpu_ns"] = k.hostBCpuNs;
  j["cpu_bytes_copied"] = k.cpuBytesCopied;
  j["copies_per_byte"] = k.copiesPerByte;
  j["copy_operations"] = k.copyOperations;
  j["syscalls"] = k.syscalls;
  j["context_switches"] = k.contextSwitches;
  j["interrupts"] = k.interrupts;
  j["doorbells"] = k.doorbells;
  j["frames"] = k.frames;
  j["ack_frames"] = k.ackFrames;
  j["wire_bytes"] = k.wireBytes;
  j["nic_dma_read_bytes"] = k.nicDmaReadBytes;
  j["nic_dma_write_bytes"] = k.nicDmaWriteBytes;
  j["memory_bus_bytes"] = k.memoryBusBytes;
  j["bottleneck"] = e.bottleneck;
  if (withStages) {
    auto& stages = j["stages"] = nlohmann::json::array();
    for (const auto& s : e.stages) {
      stages.push_back({{"name", s.name},
                        {"where", sim::toString(s.place)},
                        {"who", sim::toString(s.worker)},
                        {"count", s.count},
                        {"first_ns", s.firstNs},
                        {"total_ns", s.totalNs}});
    }
  }
  return j;
}

void printSettings(const sim::HostCostSettings& s, std::ostream& out) {
  for (const auto& info : sim::costSettingTable()) {
    out << "  " << std::left << std::setw(16) << info.name << std::right << std::setw(14)
        << s.*(info.member) << " " << std::left << std::setw(9) << info.unit << info.description
        << "\n      source: " << info.source << "\n"
        << std::right;
  }
  out << "  completion      " << (s.completion == sim::CompletionMode::Poll ? "poll" : "event")
      << "\n";
}

void printTable(const std::vector<sim::TransferEstimate>& results, std::ostream& out) {
  const char* header[] = {"transport", "size",       "latency", "throughput",
                          "CPU time",  "CPU copied", "copies",  "syscalls",
                          "ctx sw",    "interrupts", "mem bus"};
  const int widths[] = {10, 6, 14, 12, 14, 12, 7, 9, 8, 11, 12};
  for (int i = 0; i < 11; ++i)
    out << std::setw(widths[i]) << header[i];
  out << "\n";
  auto human = [](double bytes) {
    if (bytes >= 1e9) return fixed(bytes / 1e9, 2) + " GB";
    if (bytes >= 1e6) return fixed(bytes / 1e6, 2) + " MB";
    if (bytes >= 1e3) return fixed(bytes / 1e3, 1) + " kB";
    return fixed(bytes, 0) + " B";
  };
  auto time = [](double ns) {
    if (ns >= 1e9) return fixed(ns / 1e9, 3) + " s";
    if (ns >= 1e6) return fixed(ns / 1e6, 3) + " ms";
    return fixed(ns / 1e3, 2) + " us";
  };
  for (const auto& e : results) {
    const auto& k = e.counters;
    out << std::setw(widths[0]) << sim::toString(e.transport) << std::setw(widths[1])
        << sizeLabel(e.bytes) << std::setw(widths[2]) << time(e.latencyNs) << std::setw(widths[3])
        << (fixed(e.throughputBytesPerSec * 8 / 1e9, 2) + " Gb/s") << std::setw(widths[4])
        << time(k.cpuNs()) << std::setw(widths[5]) << human(static_cast<double>(k.cpuBytesCopied))
        << std::setw(widths[6]) << k.copiesPerByte << std::setw(widths[7]) << k.syscalls
        << std::setw(widths[8]) << k.contextSwitches << std::setw(widths[9]) << k.interrupts
        << std::setw(widths[10]) << human(static_cast<double>(k.memoryBusBytes)) << "\n";
  }
}

void printStages(const sim::TransferEstimate& e, std::ostream& out) {
  out << "\n"
      << sim::toString(e.transport) << " " << sizeLabel(e.bytes)
      << ": stages (count, time on the first segment's path, total time; bottleneck: "
      << e.bottleneck << ")\n";
  for (const auto& s : e.stages) {
    out << "  " << std::left << std::setw(62) << s.name << std::setw(7) << sim::toString(s.place)
        << std::setw(6) << sim::toString(s.worker) << std::right << std::setw(10) << s.count
        << std::setw(14) << fixed(s.firstNs, 1) << std::setw(16) << fixed(s.totalNs, 1) << " ns\n";
  }
}

void printCsv(const std::vector<sim::TransferEstimate>& results, std::ostream& out) {
  out << "transport,op,bytes,latency_ns,throughput_bytes_per_sec,cpu_ns,host_a_cpu_ns,"
         "host_b_cpu_ns,cpu_bytes_copied,copies_per_byte,copy_operations,syscalls,"
         "context_switches,interrupts,doorbells,frames,ack_frames,wire_bytes,memory_bus_bytes,"
         "bottleneck\n";
  out << std::setprecision(17);
  for (const auto& e : results) {
    const auto& k = e.counters;
    out << sim::toString(e.transport) << ','
        << (e.transport == sim::Transport::Tcp ? "send/recv" : std::string(sim::toString(e.op)))
        << ',' << e.bytes << ',' << e.latencyNs << ',' << e.throughputBytesPerSec << ','
        << k.cpuNs() << ',' << k.hostACpuNs << ',' << k.hostBCpuNs << ',' << k.cpuBytesCopied << ','
        << k.copiesPerByte << ',' << k.copyOperations << ',' << k.syscalls << ','
        << k.contextSwitches << ',' << k.interrupts << ',' << k.doorbells << ',' << k.frames << ','
        << k.ackFrames << ',' << k.wireBytes << ',' << k.memoryBusBytes << ',' << e.bottleneck
        << '\n';
  }
}

int runCompare(const CompareArgs& a, std::ostream& out, std::ostream& err) {
  if (a.csv && a.json) {
    reportError(err, "compare takes --csv or --json, not both");
    return kExitUsage;
  }
  std::string error;
  const auto sizes = parseByteSizeList(a.sizes, kCompareSizeRange, error);
  if (!sizes) {
    reportError(err, "--size: " + error);
    return kExitUsage;
  }
  const auto transportNames = splitList(a.transports, error);
  if (!transportNames) {
    reportError(err, "--transports: " + error);
    return kExitUsage;
  }
  std::vector<sim::Transport> transports;
  for (const auto& item : *transportNames) {
    sim::Transport t{};
    if (!sim::parseTransport(item, t)) {
      reportError(err, "unknown transport '" + item + "' (tcp, rocev2, iwarp)");
      return kExitUsage;
    }
    transports.push_back(t);
  }
  sim::TransferOptions options;
  if (!sim::parseRdmaOp(a.op, options.op)) {
    reportError(err, "unknown operation '" + a.op + "' (send, write, read)");
    return kExitUsage;
  }
  options.mpaMarkers = a.markers;

  sim::HostCostSettings settings;
  std::string source = "defaults";
  if (!a.calibrationFile.empty() || a.calibrated) {
    std::optional<TcpBenchResult> measured;
    if (!a.calibrationFile.empty()) {
      std::ifstream in(a.calibrationFile);
      if (!in) {
        reportError(err, "cannot open calibration file " + a.calibrationFile);
        return kExitUsage;
      }
      std::stringstream text;
      text << in.rdbuf();
      measured = parseTcpBenchJson(text.str(), error);
      source = "calibrated from " + a.calibrationFile;
    } else {
      measured = runTcpBench(TcpBenchOptions{true}, error);
      source = "calibrated by measuring this machine (bench tcp --quick)";
    }
    if (!measured) {
      reportError(err, error);
      return kExitUsage;
    }
    settings = sim::calibrated(settings, measured->measured());
  }
  if (a.completionEvents) settings.completion = sim::CompletionMode::Event;
  for (const auto& s : a.settings) {
    if (auto bad = sim::applyCostSetting(settings, s)) {
      reportError(err, *bad);
      return kExitUsage;
    }
  }
  if (auto bad = sim::validate(settings)) {
    reportError(err, *bad);
    return kExitUsage;
  }
  if (a.listSettings && !a.json && !a.csv) {
    out << "Settings (" << source << "):\n";
    printSettings(settings, out);
    out << "\n";
  }

  std::vector<sim::TransferEstimate> results;
  for (auto t : transports) {
    for (auto size : *sizes)
      results.push_back(sim::estimateTransfer(t, size, settings, options));
  }
  if (a.json) {
    nlohmann::json j;
    j["settings_source"] = source;
    auto& js = j["settings"];
    for (const auto& info : sim::costSettingTable())
      js[std::string(info.name)] = settings.*(info.member);
    js["completion"] = settings.completion == sim::CompletionMode::Poll ? "poll" : "event";
    js["rdma_op"] = sim::toString(options.op);
    js["mpa_markers"] = options.mpaMarkers;
    auto& rs = j["results"] = nlohmann::json::array();
    for (const auto& e : results)
      rs.push_back(toJson(e, a.stages));
    out << j.dump(2) << '\n';
    return kExitOk;
  }
  if (a.csv) {
    printCsv(results, out);
    return kExitOk;
  }
  out << "One message of each size from host A's buffer to host B's (" << source << "; RDMA op "
      << sim::toString(options.op) << ", completion by "
      << (settings.completion == sim::CompletionMode::Poll ? "polling" : "events") << ")\n";
  printTable(results, out);
  if (a.stages) {
    for (const auto& e : results)
      printStages(e, out);
  }
  return kExitOk;
}

}  // namespace

void addCompareCommand(CLI::App& app, Action& action) {
  auto args = std::make_shared<CompareArgs>();
  CLI::App* c = app.add_subcommand(
      "compare", "Compare the TCP socket path with RoCEv2 and iWARP: time, CPU, copies, syscalls");
  checkRange(c->add_option("--size", args->sizes, "Message sizes")->capture_default_str(),
             kCompareSizeRange);
  c->add_option("--transports", args->transports, "Comma separated: tcp, rocev2, iwarp");
  c->add_option("--op", args->op, "RDMA operation: send, write or read");
  c->add_option("--set", args->settings, "Override a cost setting, name=value (repeatable)");
  c->add_flag("--markers", args->markers, "iWARP with MPA markers");
  c->add_flag("--events", args->completionEvents,
              "RDMA completions by event (interrupt + read()) instead of polling");
  c->add_flag("--csv", args->csv, "Comma separated values, raw units (ns, bytes)");
  c->add_flag("--json", args->json, "JSON with the settings and every counter");
  c->add_flag("--stages", args->stages, "Show every stage: who does it, how often, how long");
  c->add_flag("--settings", args->listSettings,
              "Show every setting and where its default comes from");
  c->add_flag("--calibrated", args->calibrated,
              "Measure this machine over loopback first (as bench tcp --quick) and use it");
  c->add_option("--calibration", args->calibrationFile, "Use figures saved by 'bench tcp --json'");
  c->callback([args, &action] {
    action = [args](std::ostream& out, std::ostream& err) { return runCompare(*args, out, err); };
  });
}

}  // namespace rdmascope::cli
