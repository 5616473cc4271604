#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <csignal>
#include <memory>

#include "commands.h"
#include "frame_decoder.h"
#include "numeric_options.h"
#include "output_files.h"
#include "output_options.h"
#include "rdmascope/cli/cli.h"
#include "rdmascope/packets_io/live_capture.h"

namespace rdmascope::cli {
namespace {

struct CaptureArgs {
  std::string interfaceName;
  std::string writeFile;
  std::uint64_t count = 0;
  std::string bpf = packets_io::kDefaultCaptureFilter;
  bool list = false;
  bool quiet = false;
  double duration = 0;
  OutputArgs output;
};

// SIGINT/SIGTERM end the capture: LiveCapture::stop() only stores an atomic and writes an
// eventfd, both async-signal-safe.
std::atomic<packets_io::LiveCapture*> gActive{nullptr};

extern "C" void onSignal(int) {
  if (auto* c = gActive.load()) c->stop();
}

int listInterfaces(std::ostream& out, std::ostream& err) {
  std::string error;
  const auto list = packets_io::LiveCapture::listInterfaces(error);
  if (!error.empty()) {
    reportError(err, error);
    return kExitUsage;
  }
  int i = 0;
  for (const auto& itf : list) {
    out << ++i << ". " << itf.name;
    if (!itf.description.empty()) out << " (" << itf.description << ")";
    for (const auto& a : itf.addresses)
      out << ' ' << a;
    out << '\n';
  }
  return kExitOk;
}

int runCapture(const CaptureArgs& a, std::ostream& out, std::ostream& err) {
  if (a.list) return listInterfaces(out, err);
  if (a.interfaceName.empty()) {
    reportError(err, "capture needs -i INTERFACE (-D lists them)");
    return kExitUsage;
  }
  PrintOptions print;
  std::optional<packets::DisplayFilter> filter;
  packets::DecodeOptions options;
  if (!prepareOutput(a.output, print, filter, options, err)) return kExitUsage;

  // The -w file first: a place it cannot be written to fails before anything is captured.
  std::unique_ptr<packets_io::OutputFile> output;
  if (!a.writeFile.empty()) {
    output = createOutput("-w", a.writeFile, {}, err);
    if (!output) return kExitUsage;
  }
  std::string error;
  packets_io::LiveOptions live;
  live.filter = a.bpf;
  auto capture = packets_io::LiveCapture::open(a.interfaceName, error, live);
  if (!capture) {
    reportError(err, error);
    return kExitUsage;
  }
  std::unique_ptr<packets_io::CaptureWriter> writer;
  if (output) {
    writer = startCapture(std::move(output), capture->linkType(), err);
    if (!writer) return kExitUsage;
  }
  gActive.store(capture.get());
  auto previousInt = std::signal(SIGINT, onSignal);
  auto previousTerm = std::signal(SIGTERM, onSignal);
  err << "Capturing on '" << a.interfaceName << "'"
      << (a.bpf.empty() ? std::string() : " with filter '" + a.bpf + "'") << '\n';

  FrameDecoder decoder(options);
  PacketPrinter printer(print, out);
  printer.begin();
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t frames = 0, shown = 0;
  std::int64_t first = 0;
  int status = kExitOk;
  packets_io::FrameView v;
  while (a.count == 0 || shown < a.count) {
    int timeout = 250;
    if (a.duration > 0) {
      const double left =
          a.duration -
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (left <= 0) break;
      timeout = std::min(timeout, static_cast<int>(left * 1000) + 1);
    }
    const auto r = capture->next(v, timeout);
    if (r == packets_io::LiveCapture::Result::Stopped) break;
    if (r == packets_io::LiveCapture::Result::Timeout) continue;
    if (r == packets_io::LiveCapture::Result::Error) {
      reportError(err, capture->error());
      status = kExitUsage;
      break;
    }
    if (++frames == 1) first = v.timestampNs;
    const auto d = decoder.decode(v.data, capture->linkType(),
                                  makeFrameInfo(frames, v.timestampNs, first, v.originalLength));
    if (filter && !filter->matches(d)) continue;
    ++shown;
    if (writer && !writer->write(v.data, v.timestampNs, v.originalLength)) {
      reportError(err, writer->error());
      status = kExitUsage;
      break;
    }
    if (!a.quiet) {
      printer.print(d, v.timestampNs);
      out.flush();
    }
  }
  printer.end();
  gActive.store(nullptr);
  std::signal(SIGINT, previousInt);
  std::signal(SIGTERM, previousTerm);
  if (writer && !writer->close() && status == kExitOk) {
    reportError(err, writer->error());
    status = kExitUsage;
  }
  const auto stats = capture->stats();
  err << shown << " packet" << (shown == 1 ? "" : "s") << " captured";
  if (stats.dropped) err << ", " << stats.dropped << " dropped by the kernel";
  err << '\n';
  return status;
}

}  // namespace

void addCaptureCommand(CLI::App& app, Action& action) {
  auto args = std::make_shared<CaptureArgs>();
  CLI::App* c = app.add_subcommand("capture", "Capture live traffic and decode it as it arrives");
  c->add_option("-i", args->interfaceName, "Interface to capture on");
  c->add_flag("-D", args->list, "List the interfaces that can be captured on");
  c->add_option("-w", args->writeFile, "Also write the captured frames to a pcap file");
  checkRange(c->add_option("-c", args->count, "Stop after N packets (after the display filter)"),
             kPacketCountRange);
  c->add_option("-f", args->bpf, "Capture (BPF) filter; '' captures everything")
      ->default_str(packets_io::kDefaultCaptureFilter);
  checkRange(c->add_option("-a,--duration", args->duration, "Stop after SECONDS"),
             RealRange{0, 1e6, true, false});
  c->add_flag("-q", args->quiet, "Do not print packets (count only)");
  addOutputOptions(*c, args->output);
  c->callback([args, &action] {
    action = [args](std::ostream& out, std::ostream& err) { return runCapture(*args, out, err); };
  });
}

}  // namespace rdmascope::cli
