#include <CLI/CLI.hpp>
#include <algorithm>
#include <memory>
#include <thread>

#include "commands.h"
#include "crc_verify.h"
#include "fast_path.h"
#include "frame_decoder.h"
#include "numeric_options.h"
#include "output_options.h"
#include "parallel_print.h"
#include "rdmascope/cli/cli.h"
#include "rdmascope/packets/stream_decoder.h"
#include "rdmascope/packets_io/capture_reader.h"

namespace rdmascope::cli {
namespace {

struct DecodeArgs {
  std::string file;
  OutputArgs output;
  std::uint64_t count = 0;
  bool verify = false;
  bool fullDissection = false;
};

int runDecode(const DecodeArgs& a, std::ostream& out, std::ostream& err) {
  PrintOptions print;
  std::optional<packets::DisplayFilter> filter;
  packets::DecodeOptions options;
  if (!prepareOutput(a.output, print, filter, options, err)) return kExitUsage;
  std::string error;
  auto reader = packets_io::CaptureReader::open(a.file, error);
  if (!reader) {
    reportError(err, error);
    return kExitUsage;
  }
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  if (a.verify)
    return verifyCaptureCrcs(*reader, filter, options, {a.count, a.fullDissection, threads}, out,
                             err);

  PacketPrinter printer(print, out);
  // Lean dissections: only the values read (by the printer and the filter); labels only for
  // the detail tree.
  std::optional<packets::ValueKeys> lean;
  if (!a.fullDissection) {
    lean = printer.valueKeys();
    if (filter)
      for (const auto& key : filter->keys())
        lean->add(key);
    options.lean = &*lean;
    options.labels = printer.printsLabels();
  }
  FrameDecoder decoder(options);
  // Filter and field passes read the few fields they need straight from the frames' bytes.
  std::optional<FastPath> fast;
  if (!a.fullDissection) fast.emplace(printer, filter, options);
  const FastPath* fastPath = fast && fast->active() ? &*fast : nullptr;
  printer.begin();
  if (!a.fullDissection && reader->keepsViews() && threads > 1) {
    const bool stoppedAtCount =
        printInParallel(*reader, decoder, filter, printer, a.count, threads, fastPath);
    printer.end();
    if (!stoppedAtCount && !reader->error().empty()) {
      reportError(err, reader->error());
      return kExitUsage;
    }
    return kExitOk;
  }
  std::uint64_t shown = 0;
  std::int64_t first = 0, previous = 0;
  packets_io::FrameView v;
  packets::Dissection d;
  std::string record;
  const auto link = reader->linkType();
  while ((a.count == 0 || shown < a.count) && reader->next(v)) {
    if (reader->framesRead() == 1) first = previous = v.timestampNs;
    const auto info =
        makeFrameInfo(reader->framesRead(), v.timestampNs, first, v.originalLength, previous);
    previous = v.timestampNs;
    // Frames that cannot reach TCP leave the stateful decoder's state as it is: the fast path
    // may settle them without it.
    if (fastPath && !packets::mayReachTcp(v.data, link)) {
      record.clear();
      if (!fastPath->formatRecord(d, v.data, link, info, printer, record)) continue;
      printer.writeRecords(record);
    } else {
      decoder.decodeInto(d, v.data, link, info);
      if (filter && !filter->matches(d)) continue;
      printer.print(d, v.timestampNs);
    }
    ++shown;
  }
  printer.end();
  if (!reader->error().empty()) {
    reportError(err, reader->error());
    return kExitUsage;
  }
  return kExitOk;
}

}  // namespace

void addDecodeCommand(CLI::App& app, Action& action) {
  auto args = std::make_shared<DecodeArgs>();
  CLI::App* c = app.add_subcommand("decode", "Decode a pcap/pcapng capture (like tshark -r)");
  c->add_option("FILE,-r", args->file, "Capture file (pcap or pcapng); -r FILE as in tshark")
      ->required();
  addOutputOptions(*c, args->output);
  checkRange(c->add_option("-c", args->count, "Stop after N packets (after the display filter)"),
             kPacketCountRange);
  c->add_flag("--verify", args->verify,
              "Check every ICRC/CRC; print the counts; exit 1 if any is bad or could not be "
              "reached (a fragment, a payload behind ESP)");
  c->add_flag("--full-dissection", args->fullDissection,
              "Dissect every frame in full (labels and values of every field) even when the "
              "output reads a few fields, and for --verify every frame in one thread: the "
              "reference the fast passes are tested against");
  c->callback([args, &action] {
    action = [args](std::ostream& out, std::ostream& err) { return runDecode(*args, out, err); };
  });
}

}  // namespace rdmascope::cli
