#include "parallel_print.h"

#include <string>
#include <vector>

#include "batch_workers.h"
#include "rdmascope/packets/stream_decoder.h"

namespace rdmascope::cli {
namespace {

// Frames per batch: a line is some 100 bytes, a detail tree or JSON object some kilobytes, and
// up to four batches per thread wait to be written. The frames in flight must fit in the 2 MiB
// the reader keeps of a large file: four line batches of 512 real frames (some 300 KiB each) do.
constexpr std::size_t kLineBatchFrames = 512;
constexpr std::size_t kRecordBatchFrames = 64;

struct Slot {
  std::span<const std::uint8_t> data;
  packets::FrameInfo info;
  bool stream = false;  // decoded by the stateful decoder when the batch is written
  bool shown = false;
  std::uint32_t end = 0;  // end of its record in Batch::text
};

struct Batch {
  std::vector<Slot> slots;
  std::uint64_t mark = 0;  // the reader's position() before its first frame
  std::string text;
  bool done = false;  // guarded by the workers' lock
  void clear() {
    slots.clear();
    text.clear();
  }
};

// Formats a batch: the frames that cannot reach TCP, through the fast path when it can.
class Formatter {
 public:
  Formatter(packets::LinkType link, const packets::DecodeOptions& options,
            const std::optional<packets::DisplayFilter>& filter, const PacketPrinter& printer,
            const FastPath* fast)
      : link_(link), options_(options), filter_(filter), printer_(printer), fast_(fast) {}

  void operator()(Batch& b, packets::Dissection& d) const {
    for (auto& s : b.slots) {
      if (s.stream) {
      } else if (fast_) {
        s.shown = fast_->formatRecord(d, s.data, link_, s.info, printer_, b.text);
      } else {
        packets::decodeFrameInto(d, s.data, link_, s.info, options_);
        s.shown = !filter_ || filter_->matches(d);
        if (s.shown) printer_.formatRecord(d, s.info.epochNs, b.text);
      }
      s.end = static_cast<std::uint32_t>(b.text.size());
    }
  }

 private:
  const packets::LinkType link_;
  const packets::DecodeOptions& options_;
  const std::optional<packets::DisplayFilter>& filter_;
  const PacketPrinter& printer_;
  const FastPath* fast_;
};

}  // namespace

bool printInParallel(packets_io::CaptureReader& reader, FrameDecoder& decoder,
                     const std::optional<packets::DisplayFilter>& filter, PacketPrinter& printer,
                     std::uint64_t count, unsigned threads, const FastPath* fast) {
  const auto link = reader.linkType();
  BatchPipeline<Batch> pipeline(reader, Formatter(link, decoder.options(), filter, printer, fast),
                                threads,
                                printer.printsLines() ? kLineBatchFrames : kRecordBatchFrames);
  packets::Dissection scratch;
  std::string record;
  std::uint64_t shown = 0;
  std::int64_t first = 0, previous = 0;
  const auto add = [&](Batch& b, const packets_io::FrameView& v) {
    if (reader.framesRead() == 1) first = previous = v.timestampNs;
    Slot& s = b.slots.emplace_back();
    s.data = v.data;
    s.info = makeFrameInfo(reader.framesRead(), v.timestampNs, first, v.originalLength, previous);
    previous = v.timestampNs;
    s.stream = packets::mayReachTcp(v.data, link);
  };
  // Without a filter the count is known in advance: read no frame beyond it.
  const auto more = [&] { return filter || count == 0 || reader.framesRead() < count; };
  while (Batch* b = pipeline.oldest(scratch, add, more)) {
    // The batch's records are written in runs: up to each stream frame, whose record comes
    // between.
    const std::string_view text(b->text);
    std::uint32_t run = 0;
    for (const Slot& s : b->slots) {
      if (s.stream) {
        decoder.decodeInto(scratch, s.data, link, s.info);
        if (!filter || filter->matches(scratch)) {
          printer.writeRecords(text.substr(run, s.end - run));
          run = s.end;
          record.clear();
          printer.formatRecord(scratch, s.info.epochNs, record);
          printer.writeRecords(record);
          ++shown;
        }
      } else if (s.shown) {
        ++shown;
      }
      if (count != 0 && shown >= count) {
        printer.writeRecords(text.substr(run, s.end - run));
        pipeline.stop();
        return true;
      }
    }
    printer.writeRecords(text.substr(run));
    pipeline.release();
  }
  pipeline.stop();
  return false;
}

}  // namespace rdmascope::cli
