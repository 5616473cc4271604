#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <csignal>
#include <functional>
#include <memory>
#include <optional>

#include "commands.h"
#include "frame_decoder.h"
#include "numeric_options.h"
#include "output_files.h"
#include "output_options.h"
#include "rdmascope/cli/cli.h"
#include "rdmascope/packets_io/live_capture.h"
#ifdef RDMASCOPE_HAVE_IBVERBS
#include "rdmascope/verbs_backend/verbs_sniffer.h"
#endif

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
  std::uint32_t rqDepth = 4096;
  OutputArgs output;
};

// SIGINT/SIGTERM end the capture: LiveCapture::stop() only stores an atomic and writes an
// eventfd, both async-signal-safe.
std::atomic<packets_io::LiveCapture*> gActive{nullptr};
#ifdef RDMASCOPE_HAVE_IBVERBS
std::atomic<verbs_backend::VerbsSniffer*> gSniffer{nullptr};
#endif

extern "C" void onSignal(int) {
  if (auto* c = gActive.load()) c->stop();
#ifdef RDMASCOPE_HAVE_IBVERBS
  if (auto* v = gSniffer.load()) v->stop();
#endif
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
#ifdef RDMASCOPE_HAVE_IBVERBS
  for (const auto& d : verbs_backend::VerbsSniffer::listDevices()) {
    out << ++i << ". " << d.name << " (RDMA device";
    if (!d.linkLayer.empty())
      out << ", " << d.linkLayer << " port " << (d.active ? "active" : "down");
    if (!d.netdev.empty()) out << ", netdev " << d.netdev;
    out << ")\n";
  }
#endif
  return kExitOk;
}

/// Where the frames of a capture come from: a network interface (libpcap) or an RDMA device
/// (a sniffer flow on a raw-packet QP).
struct FrameSource {
  enum class Result : std::uint8_t { Frame, Timeout, Stopped, Error };
  std::function<Result(packets_io::FrameView&, int)> next;
  std::function<std::string()> error;
  packets::LinkType link = packets::LinkType::Ethernet;
};

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
  std::unique_ptr<packets_io::LiveCapture> capture;
#ifdef RDMASCOPE_HAVE_IBVERBS
  std::unique_ptr<verbs_backend::VerbsSniffer> sniffer;
  if (verbs_backend::VerbsSniffer::isDevice(a.interfaceName)) {
    if (a.bpf != packets_io::kDefaultCaptureFilter && !a.bpf.empty()) {
      reportError(err, "-f: a capture filter applies to network interfaces only; " +
                           a.interfaceName + " is an RDMA device (use a display filter, -Y)");
      return kExitUsage;
    }
    verbs_backend::SnifferOptions sniffOptions;
    sniffOptions.rqDepth = a.rqDepth;
    sniffer = verbs_backend::VerbsSniffer::open(a.interfaceName, error, sniffOptions);
    if (!sniffer) {
      reportError(err, error);
      return kExitUsage;
    }
  }
#endif
  FrameSource source;
#ifdef RDMASCOPE_HAVE_IBVERBS
  if (sniffer) {
    source.link =
        sniffer->infiniband() ? packets::LinkType::InfiniBand : packets::LinkType::Ethernet;
    source.next = [&sniffer](packets_io::FrameView& v, int timeout) {
      verbs_backend::SniffedFrame f;
      switch (sniffer->next(f, timeout)) {
        case verbs_backend::VerbsSniffer::Result::Frame:
          v.data = f.data;
          v.originalLength = f.originalLength;
          v.timestampNs = f.timestampNs;
          return FrameSource::Result::Frame;
        case verbs_backend::VerbsSniffer::Result::Timeout:
          return FrameSource::Result::Timeout;
        case verbs_backend::VerbsSniffer::Result::Stopped:
          return FrameSource::Result::Stopped;
        case verbs_backend::VerbsSniffer::Result::Error:
          break;
      }
      return FrameSource::Result::Error;
    };
    source.error = [&sniffer] { return sniffer->error(); };
  }
#endif
  if (!source.next) {
    packets_io::LiveOptions live;
    live.filter = a.bpf;
    capture = packets_io::LiveCapture::open(a.interfaceName, error, live);
    if (!capture) {
      reportError(err, error);
      return kExitUsage;
    }
    source.link = capture->linkType();
    source.next = [&capture](packets_io::FrameView& v, int timeout) {
      switch (capture->next(v, timeout)) {
        case packets_io::LiveCapture::Result::Frame:
          return FrameSource::Result::Frame;
        case packets_io::LiveCapture::Result::Timeout:
          return FrameSource::Result::Timeout;
        case packets_io::LiveCapture::Result::Stopped:
          return FrameSource::Result::Stopped;
        case packets_io::LiveCapture::Result::Error:
          break;
      }
      return FrameSource::Result::Error;
    };
    source.error = [&capture] { return capture->error(); };
  }
  std::unique_ptr<packets_io::CaptureWriter> writer;
  if (output) {
    packets_io::CaptureInterface itf;
    itf.name = a.interfaceName;
#ifdef RDMASCOPE_HAVE_IBVERBS
    if (sniffer) {
      itf.description = "RDMA device " + a.interfaceName + ", sniffer flow on a raw-packet QP";
      itf.comment = sniffer->timestampSource() == verbs_backend::TimestampSource::Hardware
                        ? "timestamps: hardware (the device's completion clock, in Unix time)"
                        : "timestamps: software (the host's clock when the completion was polled)";
    }
#endif
    writer = startCapture(std::move(output), source.link, err, itf);
    if (!writer) return kExitUsage;
  }
  gActive.store(capture.get());
#ifdef RDMASCOPE_HAVE_IBVERBS
  gSniffer.store(sniffer.get());
#endif
  auto previousInt = std::signal(SIGINT, onSignal);
  auto previousTerm = std::signal(SIGTERM, onSignal);
  err << "Capturing on '" << a.interfaceName << "'";
#ifdef RDMASCOPE_HAVE_IBVERBS
  if (sniffer) {
    err << " (RDMA device, sniffer flow, "
        << (sniffer->timestampSource() == verbs_backend::TimestampSource::Hardware ? "hardware"
                                                                                   : "software")
        << " timestamps)";
  }
#endif
  if (capture && !a.bpf.empty()) err << " with filter '" << a.bpf << "'";
  err << '\n';

  FrameDecoder decoder(options);
  PacketPrinter printer(print, out);
  printer.begin();
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t frames = 0, shown = 0;
  std::int64_t first = 0, last = 0;
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
    const auto r = source.next(v, timeout);
    if (r == FrameSource::Result::Stopped) break;
    if (r == FrameSource::Result::Timeout) continue;
    if (r == FrameSource::Result::Error) {
      reportError(err, source.error());
      status = kExitUsage;
      break;
    }
    if (++frames == 1) first = last = v.timestampNs;
    const auto d = decoder.decode(
        v.data, source.link, makeFrameInfo(frames, v.timestampNs, first, v.originalLength, last));
    last = v.timestampNs;
    if (filter && !filter->matches(d)) continue;
    ++shown;
    if (writer && !writer->write(v.data, v.timestampNs, v.originalLength)) {
      reportError(err, writer->error());
      status = kExitUsage;
      break;
    }
    if (!a.quiet) {
      printer.print(d, v.timestampNs);
      printer.flush();
      out.flush();
    }
  }
  printer.end();
  gActive.store(nullptr);
#ifdef RDMASCOPE_HAVE_IBVERBS
  gSniffer.store(nullptr);
#endif
  std::signal(SIGINT, previousInt);
  std::signal(SIGTERM, previousTerm);
  std::string dropText;
  std::optional<std::uint64_t> dropped;
  if (capture) {
    const auto stats = capture->stats();
    dropped = stats.dropped;
    if (stats.dropped) dropText = ", " + std::to_string(stats.dropped) + " dropped by the kernel";
  }
#ifdef RDMASCOPE_HAVE_IBVERBS
  if (sniffer) {
    const auto stats = sniffer->stats();
    if (stats.dropsKnown) {
      dropped = stats.dropped;
      dropText = ", " + std::to_string(stats.dropped) +
                 " dropped by the device (receive queue overruns, out_of_buffer)";
    } else {
      dropText = ", drops unknown (the device exposes no out_of_buffer counter)";
    }
    if (stats.errors) dropText += ", " + std::to_string(stats.errors) + " completions in error";
  }
#endif
  if (writer) {
    packets_io::CaptureStatistics st;
    st.endNs = frames ? last : 0;
    st.received = frames;
    st.dropped = dropped;
    writer->writeStatistics(st);
  }
  if (writer && !writer->close() && status == kExitOk) {
    reportError(err, writer->error());
    status = kExitUsage;
  }
  err << shown << " packet" << (shown == 1 ? "" : "s") << " captured" << dropText << '\n';
  return status;
}

}  // namespace

void addCaptureCommand(CLI::App& app, Action& action) {
  auto args = std::make_shared<CaptureArgs>();
  CLI::App* c = app.add_subcommand("capture", "Capture live traffic and decode it as it arrives");
  c->add_option("-i", args->interfaceName,
                "Network interface or RDMA device (e.g. mlx5_0) to capture on");
  c->add_flag("-D", args->list,
              "List the network interfaces and RDMA devices that can be captured on");
  c->add_option("-w", args->writeFile, "Also write the captured frames to a pcap file");
  checkRange(c->add_option("-c", args->count, "Stop after N packets (after the display filter)"),
             kPacketCountRange);
  c->add_option("-f", args->bpf, "Capture (BPF) filter; '' captures everything")
      ->default_str(packets_io::kDefaultCaptureFilter);
  checkRange(c->add_option("-a,--duration", args->duration, "Stop after SECONDS"),
             RealRange{0, 1e6, true, false});
  c->add_flag("-q", args->quiet, "Do not print packets (count only)");
  checkRange(c->add_option("--rq-depth", args->rqDepth,
                           "RDMA devices: receive WQEs posted, the capture's buffer in frames")
                 ->default_val(4096),
             IntegerRange{1, 1 << 20});
  addOutputOptions(*c, args->output);
  c->callback([args, &action] {
    action = [args](std::ostream& out, std::ostream& err) { return runCapture(*args, out, err); };
  });
}

}  // namespace rdmascope::cli
