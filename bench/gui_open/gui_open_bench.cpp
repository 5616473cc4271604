// Opens a capture of one million RoCEv2 frames the way the GUI does (loadCaptureFile into a
// FrameStore, then the packet pane's model) and times it up to the first rows shown, reports the
// memory held per frame, times the flow analysis the GUI then runs on its worker thread
// (against FlowAnalyzer::addFrame frame by frame over the same frames, and with --cli against
// the whole `rdmascope-cli analyze` process on the same file), and times
// tshark's full read of the same file in the same run. Then applies a display filter the way
// the filter bar does (the filter's fields read straight from the header bytes where the field
// extractor can, lean dissections otherwise, on every core, a progress callback) and once on
// full dissections, against tshark -Y with the same filter.
//
// Usage: gui_open_bench [--frames N] [--keep] [--no-tshark] [--cli RDMASCOPE_CLI] [FILE]
// FILE is read when it exists, otherwise generated (default: gui_open_<N>.pcap in the working
// directory, deleted afterwards unless --keep).

#include <sys/wait.h>
#include <unistd.h>

#include <QApplication>
#include <QHeaderView>
#include <QImage>
#include <QTableView>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <type_traits>

#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/heap/huge_page_heap.h"
#include "rdmascope/packets/ib_builder.h"
#include "rdmascope/packets/ib_opcodes.h"
#include "rdmascope/packets_io/capture_writer.h"
#include "rdmascope/ui/capture_analysis.h"
#include "rdmascope/ui/capture_loader.h"
#include "rdmascope/ui/filter_bar.h"
#include "rdmascope/ui/frame_store.h"
#include "rdmascope/ui/packet_list_model.h"
#include "rdmascope/ui/packet_pane.h"

namespace {

using Clock = std::chrono::steady_clock;
namespace packets = rdmascope::packets;
namespace ui = rdmascope::ui;

// Runs `work` in a forked child and returns what it returned (a trivially copyable result,
// through a pipe); a default result when the child fails.
template <typename Result, typename Work>
Result inChild(Work work) {
  static_assert(std::is_trivially_copyable_v<Result>);
  int fds[2];
  if (::pipe(fds) != 0) return Result{};
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    const Result r = work();
    const ssize_t written = ::write(fds[1], &r, sizeof r);
    ::_exit(written == static_cast<ssize_t>(sizeof r) ? 0 : 1);
  }
  ::close(fds[1]);
  Result r{};
  bool got = false;
  if (pid > 0) {
    got = ::read(fds[0], &r, sizeof r) == static_cast<ssize_t>(sizeof r);
    int status = 0;
    ::waitpid(pid, &status, 0);
    got = got && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }
  ::close(fds[0]);
  return got ? r : Result{};
}

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Resident set size of this process in bytes (Linux /proc/self/status VmRSS).
long long residentBytes() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmRSS:") {
      long long kib = 0;
      status >> kib;
      return kib * 1024;
    }
    status.ignore(1 << 16, '\n');
  }
  return -1;
}

/// A request/response stream: SEND Only with 16 payload bytes, then the responder's ACK.
bool generate(const std::string& path, std::size_t frames) {
  std::string error;
  auto writer =
      rdmascope::packets_io::CaptureWriter::open(path, packets::LinkType::Ethernet, error);
  if (!writer) {
    std::fprintf(stderr, "gui_open_bench: %s\n", error.c_str());
    return false;
  }
  packets::RoceAddressing there;
  packets::RoceAddressing back = there;
  std::swap(back.srcMac, back.dstMac);
  std::swap(back.srcIp, back.dstIp);
  for (std::size_t i = 0; i < frames; ++i) {
    const std::uint32_t psn = static_cast<std::uint32_t>(i / 2) & 0xffffff;
    packets::IbPacket p;
    p.bth.psn = psn;
    if (i % 2 == 0) {
      p.bth.opcode = static_cast<std::uint8_t>(packets::IbOpcode::RcSendOnly);
      p.bth.destQp = 0x12;
      p.bth.ackReq = true;
      p.payload.assign(16, static_cast<std::uint8_t>(i));
    } else {
      p.bth.opcode = static_cast<std::uint8_t>(packets::IbOpcode::RcAcknowledge);
      p.bth.destQp = 0x11;
      p.aeth = packets::Aeth::ack(psn);
    }
    const auto frame = packets::buildRoceV2(i % 2 == 0 ? there : back, p);
    if (!writer->write(frame, static_cast<std::int64_t>(1'700'000'000'000'000'000LL + i * 1000))) {
      std::fprintf(stderr, "gui_open_bench: %s\n", writer->error().c_str());
      return false;
    }
  }
  if (!writer->close()) {
    std::fprintf(stderr, "gui_open_bench: %s\n", writer->error().c_str());
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  rdmascope::heap::reserveHugePageHeap(std::size_t{256} << 20);  // as the GUI's main() does
  if (!std::getenv("QT_QPA_PLATFORM")) setenv("QT_QPA_PLATFORM", "offscreen", 1);
  QApplication app(argc, argv);
  std::size_t frames = 1'000'000;
  bool keep = false;
  bool runTshark = true;
  std::string path;
  std::string
      cliPath;  // rdmascope-cli, whose `analyze` of the same file is the GUI analysis's peer
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--frames" && i + 1 < argc) {
      frames = std::strtoull(argv[++i], nullptr, 10);
    } else if (a == "--keep") {
      keep = true;
    } else if (a == "--no-tshark") {
      runTshark = false;
    } else if (a == "--cli" && i + 1 < argc) {
      cliPath = argv[++i];
    } else if (!a.empty() && a[0] != '-' && path.empty()) {
      path = a;
    } else {
      std::fprintf(stderr, "gui_open_bench: unknown argument '%s'\n", a.c_str());
      return 2;
    }
  }
  if (frames == 0) {
    std::fprintf(stderr, "gui_open_bench: --frames must be a positive number\n");
    return 2;
  }
  if (path.empty()) path = "gui_open_" + std::to_string(frames) + ".pcap";
  const bool generated = !std::filesystem::exists(path);
  if (generated) {
    const auto start = Clock::now();
    if (!generate(path, frames)) return 1;
    std::printf("generated %s: %zu frames in %.2f s\n", path.c_str(), frames, secondsSince(start));
  }
  const auto fileBytes = std::filesystem::file_size(path);

  // The GUI's path: the packet pane over a FrameStore, the file read by the loader, the pane
  // told the store was refilled, then the first screenful of rows asked for every column (what
  // the view does when it paints them) and painted.
  ui::FrameStore store;
  ui::PacketPane pane(&store);
  pane.resize(1200, 900);
  QTableView* list = pane.packetList();
  const long long rssBefore = residentBytes();
  const auto start = Clock::now();
  const ui::LoadOutcome outcome = ui::loadCaptureFile(path, store);
  const double loadSeconds = secondsSince(start);
  if (!outcome.ok()) {
    std::fprintf(stderr, "gui_open_bench: %s\n", outcome.error.c_str());
    return 1;
  }
  pane.storeReset();
  ui::PacketListModel* model = pane.packetModel();
  constexpr int kFirstRows = 40;
  std::size_t cells = 0;
  for (int r = 0; r < std::min(kFirstRows, model->rowCount()); ++r)
    for (int c = 0; c < model->columnCount(); ++c)
      cells += model->index(r, c).data().toString().isEmpty() ? 0 : 1;
  const double firstRowsSeconds = secondsSince(start);
  pane.show();
  const QImage shown = pane.grab().toImage();
  const double paintedSeconds = secondsSince(start);
  const long long rssAfter = residentBytes();
  const int rowsVisible = list->rowAt(list->viewport()->height() - 1) - list->rowAt(0) + 1;

  const double n = static_cast<double>(store.size());
  const auto d = [](auto v) { return static_cast<double>(v); };
  std::printf("file: %s, %zu frames, %.1f MB\n", path.c_str(), store.size(), d(fileBytes) / 1e6);
  std::printf(
      "rdmascope: loaded in %.3f s; first %d rows' data (%zu cells) at %.3f s; "
      "pane painted (%d rows visible, %dx%d) at %.3f s\n",
      loadSeconds, kFirstRows, cells, firstRowsSeconds, rowsVisible, shown.width(), shown.height(),
      paintedSeconds);
  std::printf(
      "held per frame before decoding: index %.1f B, index + frame bytes %.1f B "
      "(frame bytes alone %.1f B); decoded dissections cached: %zu\n",
      d(store.indexBytes()) / n, d(store.indexBytes() + store.bufferBytes()) / n,
      d(store.bufferBytes()) / n, model->cache().size());
  std::printf(
      "  (the index's records in use: %zu B each; the rest is the vector's spare "
      "capacity)\n",
      sizeof(ui::FrameRecord));
  std::printf("process RSS grew by %.1f MB (%.1f B per frame)\n", d(rssAfter - rssBefore) / 1e6,
              d(rssAfter - rssBefore) / n);

  // Scrolling: screens of 40 rows at random places, every column and its colour, each needing
  // rows not decoded yet (a 60 Hz display allows 16.7 ms per screen).
  {
    std::uint32_t seed = 1;
    constexpr int kScreens = 200;
    const int rows = model->rowCount();
    const auto scrollStart = Clock::now();
    for (int s = 0; s < kScreens && rows > 40; ++s) {
      seed = seed * 1664525u + 1013904223u;
      const int top = static_cast<int>(seed % static_cast<std::uint32_t>(rows - 40));
      for (int r = top; r < top + 40; ++r)
        for (int c = 0; c < model->columnCount(); ++c) {
          model->index(r, c).data();
          model->index(r, c).data(Qt::BackgroundRole);
        }
    }
    const double ms = secondsSince(scrollStart) * 1e3;
    std::printf(
        "scrolling: %d screens of 40 undecoded rows in %.1f ms (%.2f ms per screen; "
        "a 60 Hz frame is 16.7 ms)\n",
        kScreens, ms, ms / kScreens);
  }

  // The flow analysis the GUI runs on a worker thread once the capture is shown: here, as
  // there, on a thread of the process that loaded the capture, the first analysis in it. Then
  // FlowAnalyzer::addFrame frame by frame over the same frames (no per-connection frame lists)
  // in a child process (a second run in this process would find the first one's freed heap
  // and skip the page faults of its own).
  struct AnalysisRun {
    double seconds = -1;
    std::size_t connections = 0, listed = 0, anomalies = 0;
  };
  AnalysisRun gui;
  std::thread([&] {
    AnalysisRun& r = gui;
    const auto begun = Clock::now();
    const ui::AnalysisOutcome analysed = ui::analyzeFrameStore(store);
    r.seconds = secondsSince(begun);
    r.connections = analysed.analysis.report.connections.size();
    r.anomalies = analysed.analysis.report.anomalies.size();
    for (const auto& f : analysed.analysis.frames)
      r.listed += f.size();
  }).join();
  const AnalysisRun cli = inChild<AnalysisRun>([&] {
    AnalysisRun r;
    const auto begun = Clock::now();
    rdmascope::analysis::FlowAnalyzer analyzer;
    for (std::size_t i = 0; i < store.size(); ++i)
      analyzer.addFrame(store.bytes(i), store.linkType(), i + 1, store.timeRelative(i));
    analyzer.finish();
    r.seconds = secondsSince(begun);
    return r;
  });
  if (gui.seconds < 0 || cli.seconds < 0) {
    std::fprintf(stderr, "gui_open: an analysis run failed\n");
    return 1;
  }
  const double analysisSeconds = gui.seconds;
  std::printf(
      "flow analysis (GUI worker, frames listed per connection): %.3f s, %zu connections, "
      "%zu frames listed, %zu anomalies; FlowAnalyzer::addFrame frame by frame in one thread: "
      "%.3f s; GUI / addFrame: %.2f\n",
      analysisSeconds, gui.connections, gui.listed, gui.anomalies, cli.seconds,
      analysisSeconds / cli.seconds);
  if (!cliPath.empty()) {
    // What a user of the CLI waits for: the whole `analyze` process on the same file (start,
    // read, analysis over every core, the text report), best of three.
    const std::string command = "'" + cliPath + "' analyze '" + path + "' > /dev/null 2>&1";
    double best = -1;
    for (int run = 0; run < 3; ++run) {
      const auto t0 = Clock::now();
      const int rc = std::system(command.c_str());
      const double s = secondsSince(t0);
      if (rc != 0) {
        std::fprintf(stderr, "gui_open_bench: '%s' failed (status %d)\n", command.c_str(), rc);
        return 1;
      }
      if (best < 0 || s < best) best = s;
    }
    std::printf(
        "rdmascope-cli analyze (whole process, same file): %.3f s; GUI analysis / CLI analyze: "
        "%.2f (goal <= 1, the CLI's speed: %s)\n",
        best, analysisSeconds / best, analysisSeconds <= best ? "met" : "NOT met");
  }

  // The display filter, as the filter bar applies it, then on full dissections (the path
  // before lean filtering), each with the progress callback the dialog gets.
  const QString filterText = QStringLiteral("infiniband.bth.opcode == 17");
  const ui::CompiledFilter compiled = ui::compileDisplayFilter(filterText);
  std::size_t progressCalls = 0;
  const auto countProgress = [&](std::size_t, std::size_t) {
    ++progressCalls;
    return true;
  };
  const auto filterStart = Clock::now();
  model->applyFilter(compiled.predicate, countProgress, compiled.lean);
  const double filterSeconds = secondsSince(filterStart);
  const int leanRows = model->rowCount();
  const std::size_t leanCalls = progressCalls;
  const ui::PacketListModel::FilterStats leanStats = model->lastFilterStats();
  model->clearFilter();
  const auto fullStart = Clock::now();
  model->applyFilter(compiled.predicate, countProgress);
  const double fullFilterSeconds = secondsSince(fullStart);
  const int fullRows = model->rowCount();
  model->clearFilter();
  std::printf(
      "display filter '%s' in the GUI: %.3f s, %d rows (%zu progress updates; frames read "
      "from the bytes %zu, dissected %zu, through the cache %zu); on full dissections: %.3f s, "
      "%d rows\n",
      filterText.toUtf8().constData(), filterSeconds, leanRows, leanCalls, leanStats.extracted,
      leanStats.dissected, leanStats.cached, fullFilterSeconds, fullRows);
  if (leanRows != fullRows) {
    std::fprintf(stderr, "gui_open_bench: the lean filter kept %d rows, the full one %d\n",
                 leanRows, fullRows);
    return 1;
  }

  if (runTshark) {
    {
      const std::string command =
          "tshark -r '" + path + "' -Y '" + filterText.toStdString() + "' > /dev/null 2>&1";
      const auto t0 = Clock::now();
      const int rc = std::system(command.c_str());
      const double tsharkFilter = secondsSince(t0);
      if (rc == 0)
        std::printf(
            "tshark -Y (same filter): %.3f s; GUI filter is %.1fx faster (goal >= 20x: %s)\n",
            tsharkFilter, tsharkFilter / filterSeconds,
            tsharkFilter / filterSeconds >= 20 ? "met" : "NOT met");
    }
    const std::string command = "tshark -r '" + path + "' > /dev/null 2>&1";
    const auto t0 = Clock::now();
    const int rc = std::system(command.c_str());
    const double tsharkSeconds = secondsSince(t0);
    if (rc != 0) {
      std::fprintf(stderr, "gui_open_bench: '%s' failed (status %d)\n", command.c_str(), rc);
    } else {
      std::printf("tshark -r (full read): %.3f s\n", tsharkSeconds);
      std::printf("first rows / tshark: %.4f (goal < 0.1); painted / tshark: %.4f\n",
                  firstRowsSeconds / tsharkSeconds, paintedSeconds / tsharkSeconds);
      std::printf("flow analysis / tshark: %.4f\n", analysisSeconds / tsharkSeconds);
    }
  }
  if (generated && !keep) std::filesystem::remove(path);
  return 0;
}
