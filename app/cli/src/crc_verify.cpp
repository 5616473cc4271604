#include "crc_verify.h"

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "batch_workers.h"
#include "output_options.h"
#include "rdmascope/cli/cli.h"
#include "rdmascope/packets/ib_crc.h"

namespace rdmascope::cli {
namespace {

// The counts by CRC status, and the first frames that fail, named as they come.
class Tally {
 public:
  explicit Tally(std::ostream& out) : out_(out) {}

  std::uint64_t frames() const { return frames_; }

  void add(std::uint64_t frame, packets::CrcStatus status, const std::string& why) {
    ++frames_;
    switch (status) {
      case packets::CrcStatus::Good:
        ++good_;
        break;
      case packets::CrcStatus::Bad:
        ++bad_;
        if (++listed_ <= kMaxListed) out_ << "frame " << frame << ": bad CRC\n";
        break;
      case packets::CrcStatus::Unverified:
        ++unverified_;
        if (++listed_ <= kMaxListed)
          out_ << "frame " << frame << ": CRC not verified: " << why << "\n";
        break;
      case packets::CrcStatus::Absent:
        ++absent_;
        break;
    }
  }

  int report(const packets_io::CaptureReader& reader, std::ostream& err) const {
    if (listed_ > kMaxListed)
      out_ << "... and " << listed_ - kMaxListed << " more bad or unverified frames\n";
    out_ << frames_ << " frames: " << good_ << " good CRC, " << bad_ << " bad CRC, " << absent_
         << " without CRC";
    if (unverified_) out_ << ", " << unverified_ << " not verifiable";
    out_ << "\n";
    if (!reader.error().empty()) {
      reportError(err, reader.error());
      return kExitUsage;
    }
    return bad_ || unverified_ ? kExitBadCrc : kExitOk;
  }

 private:
  static constexpr std::uint64_t kMaxListed = 20;
  std::ostream& out_;
  std::uint64_t frames_ = 0, good_ = 0, bad_ = 0, absent_ = 0, unverified_ = 0, listed_ = 0;
};

// A frame the fast check cannot settle, dissected in capture order: its status, and for an
// unverifiable CRC the warning that says why.
packets::CrcStatus dissectedStatus(const packets::Dissection& d, std::string& why) {
  why.clear();
  if (d.crc == packets::CrcStatus::Unverified)
    for (const auto& diag : d.diagnostics)
      if (diag.severity == packets::Severity::Warning) why = diag.message;
  return d.crc;
}

void verifyInOneThread(packets_io::CaptureReader& reader,
                       const std::optional<packets::DisplayFilter>& filter,
                       const packets::DecodeOptions& options, const VerifyOptions& how,
                       Tally& tally) {
  FrameDecoder decoder(options);
  std::int64_t first = 0, previous = 0;
  packets_io::FrameView v;
  std::string why;
  const bool fast = !filter && !how.fullDissection;
  while ((how.count == 0 || tally.frames() < how.count) && reader.next(v)) {
    if (reader.framesRead() == 1) first = previous = v.timestampNs;
    const std::int64_t before = std::exchange(previous, v.timestampNs);
    auto status = fast ? packets::verifyFrameCrc(v.data, reader.linkType(), options)
                       : packets::CrcStatus::Absent;
    why.clear();
    if (status == packets::CrcStatus::Absent) {
      const auto d = decoder.decode(
          v.data, reader.linkType(),
          makeFrameInfo(reader.framesRead(), v.timestampNs, first, v.originalLength, before));
      if (filter && !filter->matches(d)) continue;
      status = dissectedStatus(d, why);
    }
    tally.add(reader.framesRead(), status, why);
  }
}

// Frames per batch: some 300 KiB of real frames; the batches in flight stop the reading when
// they hold the 2 MiB its ring keeps.
constexpr std::size_t kBatchFrames = 512;

struct Slot {
  std::span<const std::uint8_t> data;
  std::int64_t timestampNs = 0;
  std::uint32_t originalLength = 0;
  std::int64_t previousNs = 0;  // the timestamp of the frame before it
  packets::CrcStatus status = packets::CrcStatus::Absent;
};

struct Batch {
  std::vector<Slot> slots;
  std::uint64_t mark = 0;         // the reader's position() before its first frame
  std::uint64_t firstNumber = 0;  // of its first frame, from 1
  bool done = false;              // guarded by the workers' lock
  void clear() { slots.clear(); }
};

// Without a filter: the fast checks over every core, batch by batch; the frames they leave
// (Absent: no complete IB packet, maybe TCP) dissected in capture order on this thread, as in
// one thread.
void verifyOverEveryCore(packets_io::CaptureReader& reader, const packets::DecodeOptions& options,
                         const VerifyOptions& how, Tally& tally) {
  const auto link = reader.linkType();
  BatchPipeline<Batch> pipeline(
      reader,
      [link, &options](Batch& b, packets::Dissection&) {
        for (auto& s : b.slots)
          s.status = packets::verifyFrameCrc(s.data, link, options);
      },
      how.threads, kBatchFrames);
  FrameDecoder decoder(options);
  packets::Dissection scratch;
  std::string why;
  std::int64_t first = 0, previous = 0;
  const auto add = [&](Batch& b, const packets_io::FrameView& v) {
    if (reader.framesRead() == 1) first = previous = v.timestampNs;
    if (b.slots.empty()) b.firstNumber = reader.framesRead();
    b.slots.push_back({v.data, v.timestampNs, v.originalLength, previous, {}});
    previous = v.timestampNs;
  };
  const auto more = [&] { return how.count == 0 || reader.framesRead() < how.count; };
  while (Batch* b = pipeline.oldest(scratch, add, more)) {
    std::uint64_t number = b->firstNumber;
    for (const Slot& s : b->slots) {
      auto status = s.status;
      why.clear();
      if (status == packets::CrcStatus::Absent) {
        decoder.decodeInto(
            scratch, s.data, link,
            makeFrameInfo(number, s.timestampNs, first, s.originalLength, s.previousNs));
        status = dissectedStatus(scratch, why);
      }
      tally.add(number++, status, why);
    }
    pipeline.release();
  }
  pipeline.stop();
}

}  // namespace

int verifyCaptureCrcs(packets_io::CaptureReader& reader,
                      const std::optional<packets::DisplayFilter>& filter,
                      const packets::DecodeOptions& options, const VerifyOptions& how,
                      std::ostream& out, std::ostream& err) {
  Tally tally(out);
  if (!filter && !how.fullDissection && how.threads > 1 && reader.keepsViews())
    verifyOverEveryCore(reader, options, how, tally);
  else
    verifyInOneThread(reader, filter, options, how, tally);
  return tally.report(reader, err);
}

}  // namespace rdmascope::cli
