#include "parallel_print.h"

#include <algorithm>
#include <deque>
#include <memory>
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
  std::deque<std::unique_ptr<Batch>> inFlight;  // outlives the helpers that format its batches
  // Written batches, kept for reuse: their text buffers (megabytes for -V and JSON) are not
  // handed back to the system and faulted in again for every batch.
  std::vector<std::unique_ptr<Batch>> spare;
  BatchWorkers<Batch> work(Formatter(link, decoder.options(), filter, printer, fast));
  work.start(threads > 1 ? threads - 1 : 0);
  const std::size_t maxInFlight = 4 * std::max(1u, threads);
  const std::size_t batchFrames = printer.printsLines() ? kLineBatchFrames : kRecordBatchFrames;
  packets::Dissection scratch;
  std::string record;
  std::uint64_t shown = 0;
  std::int64_t first = 0;
  bool end = false;
  packets_io::FrameView v;
  while (true) {
    // Reading stops while the batches in flight hold as many bytes as the reader keeps.
    bool blocked = false;
    while (!end && !blocked && inFlight.size() < maxInFlight) {
      std::unique_ptr<Batch> b;
      if (spare.empty()) {
        b = std::make_unique<Batch>();
        b->slots.reserve(batchFrames);
      } else {
        b = std::move(spare.back());
        spare.pop_back();
        b->slots.clear();
        b->text.clear();
      }
      b->mark = reader.position();
      const std::uint64_t held = inFlight.empty() ? b->mark : inFlight.front()->mark;
      while (b->slots.size() < batchFrames) {
        // Without a filter the count is known in advance: read no frame beyond it.
        if (!filter && count != 0 && reader.framesRead() >= count) {
          end = true;
          break;
        }
        if (!reader.mayReadKeeping(held)) {
          blocked = true;
          break;
        }
        if (!reader.next(v)) {
          end = true;
          break;
        }
        if (reader.framesRead() == 1) first = v.timestampNs;
        Slot& s = b->slots.emplace_back();
        s.data = v.data;
        s.info = makeFrameInfo(reader.framesRead(), v.timestampNs, first, v.originalLength);
        s.stream = packets::mayReachTcp(v.data, link);
      }
      if (b->slots.empty()) {
        spare.push_back(std::move(b));
        break;
      }
      work.submit(b.get());
      inFlight.push_back(std::move(b));
    }
    if (inFlight.empty()) {
      work.stop();
      return false;
    }
    Batch& b = *inFlight.front();
    work.finish(&b, scratch);
    // The batch's records are written in runs: up to each stream frame, whose record comes
    // between.
    const std::string_view text(b.text);
    std::uint32_t run = 0;
    for (const Slot& s : b.slots) {
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
        work.stop();
        return true;
      }
    }
    printer.writeRecords(text.substr(run));
    spare.push_back(std::move(inFlight.front()));
    inFlight.pop_front();
  }
}

}  // namespace rdmascope::cli
