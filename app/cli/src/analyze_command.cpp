#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "commands.h"
#include "numeric_options.h"
#include "output_options.h"
#include "parallel_analyze.h"
#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/cli/cli.h"
#include "rdmascope/heap/huge_page_heap.h"
#include "rdmascope/packets_io/capture_reader.h"

namespace rdmascope::cli {
namespace {

/// Whether the PSN gaps of a capture may be the capture's own loss: a capture point that drops
/// frames (a sniffer's full receive queue, a busy kernel) shows the same gaps a lossy network
/// does, but nothing resends what only the capture lost. A missing PSN seen later (resent, or
/// late) was the network's. Empty when there is nothing to say.
std::string captureLossNote(const analysis::AnalysisReport& report,
                            std::optional<std::uint64_t> dropped) {
  std::uint64_t gaps = 0, missing = 0, seenLater = 0;
  for (const analysis::Anomaly& x : report.anomalies) {
    if (x.kind == analysis::AnomalyKind::PsnGap) {
      ++gaps;
      missing += x.count;
    } else if (x.kind == analysis::AnomalyKind::GapFilled ||
               x.kind == analysis::AnomalyKind::Reordered) {
      ++seenLater;
    }
  }
  if (dropped && *dropped > 0) {
    return fmt::format(
        "the capture reported {} frame{} dropped (pcapng isb_ifdrop): {} PSN gap{} ({} PSN{} "
        "missing) may be capture loss, not network loss",
        *dropped, *dropped == 1 ? "" : "s", gaps, gaps == 1 ? "" : "s", missing,
        missing == 1 ? "" : "s");
  }
  // Every missing PSN came later: the network lost them and the transport recovered them.
  if (gaps == 0 || seenLater >= missing) return {};
  const std::uint64_t never = missing - seenLater;
  return fmt::format(
      "possible capture loss: {} of the {} PSN{} missing in {} PSN gap{} never seen later, in a "
      "capture that reported no drops{}: what the network loses is resent, so these were lost "
      "by the capture (or the capture ended before their resend)",
      never, missing, missing == 1 ? "" : "s", gaps, gaps == 1 ? "" : "s",
      dropped ? "" : " (it records no drop count)");
}

struct AnalyzeArgs {
  std::string file;
  bool json = false;
  unsigned rocePort = 4791;
  double seriesWidth = 1e-3;
  double linkGbps = 100;
  double pauseStorm = 10e-3;
  unsigned threads = 0;  // 0: as many as the machine has cores
};

int runAnalyze(const AnalyzeArgs& a, std::ostream& out, std::ostream& err) {
  std::string error;
  auto reader = packets_io::CaptureReader::open(a.file, error);
  if (!reader) {
    reportError(err, error);
    return kExitUsage;
  }
  analysis::AnalyzerOptions options;
  options.roceV2Port = static_cast<std::uint16_t>(a.rocePort);
  options.seriesWidth = a.seriesWidth;
  options.linkBitsPerSecond = a.linkGbps * 1e9;
  options.pauseStormSeconds = a.pauseStorm;
  // The report's anomalies, messages and JSON on huge pages (up to 256 MiB of them).
  heap::reserveHugePageHeap(std::size_t{256} << 20);
  analysis::FlowAnalyzer analyzer(options);
  const unsigned threads =
      a.threads != 0 ? a.threads : std::max(1u, std::thread::hardware_concurrency());
  analyzeCapture(*reader, analyzer, threads);
  analyzer.finish();
  const analysis::AnalysisReport report = analyzer.takeReport();
  const std::string loss = captureLossNote(report, reader->dropsReported());
  if (a.json) {
    // Only a capture that records its drops (pcapng statistics) gets the field: the report of
    // any other capture stays the analysis' own (the simulator's --analyze gives the same).
    std::string lastMember;
    if (const auto d = reader->dropsReported()) {
      nlohmann::json note = {{"note", loss}};
      note["dropped_by_capture"] = *d;
      lastMember = ",\n  \"capture_loss\": " + note.dump() + "\n";
    }
    analysis::writeJson(out, report, lastMember);
    out << '\n';
  } else {
    analysis::writeText(out, report);
    if (!loss.empty()) out << "\nCapture loss\n  " << loss << '\n';
  }
  if (!reader->error().empty()) {
    reportError(err, reader->error());
    return kExitUsage;
  }
  return kExitOk;
}

}  // namespace

void addAnalyzeCommand(CLI::App& app, Action& action) {
  auto args = std::make_shared<AnalyzeArgs>();
  CLI::App* c = app.add_subcommand(
      "analyze",
      "Flow analysis of a RoCE, InfiniBand or iWARP capture: conversations, messages, losses, "
      "resends, NAKs, latency, PFC pauses, CNPs and ECN marks");
  c->add_option("FILE", args->file, "Capture file (pcap or pcapng)")->required();
  c->add_flag("--json", args->json, "Print the report as JSON");
  addRocePortOption(*c, args->rocePort);
  // From a nanosecond, the pcap resolution, to a day.
  checkRange(c->add_option("--series-width", args->seriesWidth,
                           "Initial width of the time-series buckets in seconds (doubled as "
                           "needed)")
                 ->capture_default_str(),
             RealRange{1e-9, 86400});
  // From 10 Mb/s Ethernet to 1.6 Tb/s.
  checkRange(c->add_option("--link-speed", args->linkGbps,
                           "Link speed in Gb/s that turns PFC pause quanta (512 bit times) into "
                           "time")
                 ->capture_default_str(),
             RealRange{0.01, 1600});
  checkRange(c->add_option("--pause-storm", args->pauseStorm,
                           "Seconds a priority may stay paused without a break before it is "
                           "reported as a pause storm")
                 ->capture_default_str(),
             RealRange{1e-9, 86400});
  checkRange(c->add_option("--threads", args->threads,
                           "Threads to use (default: one per core); with two or more, one reads "
                           "the capture and its RoCE headers ahead of the analysis"),
             IntegerRange{1, 1024});
  c->callback([args, &action] {
    action = [args](std::ostream& out, std::ostream& err) { return runAnalyze(*args, out, err); };
  });
}

}  // namespace rdmascope::cli
