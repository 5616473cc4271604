// Writes a classic pcap of real traffic for the pass benchmarks: the frames of the given
// captures (real Soft-RoCE captures from the lab), one capture after the other, repeated until
// the file holds at least MIN_FRAMES frames and MIN_MIB MiB. Each repetition keeps the frames'
// spacing in time and starts a millisecond after the previous one ended, so time only grows.
// Usage: make_real_capture OUT MIN_FRAMES MIN_MIB CAPTURE...
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "rdmascope/packets_io/capture_reader.h"
#include "rdmascope/packets_io/capture_writer.h"

namespace {

namespace io = rdmascope::packets_io;

struct Frame {
  std::vector<std::uint8_t> bytes;
  std::uint32_t originalLength = 0;
  std::int64_t offsetNs = 0;  // from the first frame of its capture
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: make_real_capture OUT MIN_FRAMES MIN_MIB CAPTURE...\n");
    return 2;
  }
  const std::string out = argv[1];
  const std::uint64_t minFrames = std::strtoull(argv[2], nullptr, 10);
  const std::uint64_t minBytes = std::strtoull(argv[3], nullptr, 10) << 20;
  std::vector<Frame> frames;
  std::int64_t span = 0;
  rdmascope::packets::LinkType link{};
  for (int i = 4; i < argc; ++i) {
    std::string error;
    auto reader = io::CaptureReader::open(argv[i], error);
    if (!reader) {
      std::fprintf(stderr, "make_real_capture: %s\n", error.c_str());
      return 1;
    }
    if (i == 4) link = reader->linkType();
    if (reader->linkType() != link) {
      std::fprintf(stderr, "make_real_capture: %s: link type differs from %s's\n", argv[i],
                   argv[4]);
      return 1;
    }
    io::FrameView v;
    std::int64_t first = 0, last = 0;
    while (reader->next(v)) {
      if (reader->framesRead() == 1) first = v.timestampNs;
      last = v.timestampNs - first;
      frames.push_back({{v.data.begin(), v.data.end()}, v.originalLength, span + last});
    }
    if (!reader->error().empty()) {
      std::fprintf(stderr, "make_real_capture: %s\n", reader->error().c_str());
      return 1;
    }
    span += last + 1'000'000;
  }
  if (frames.empty()) {
    std::fprintf(stderr, "make_real_capture: the captures hold no frame\n");
    return 1;
  }
  std::string error;
  auto writer = io::CaptureWriter::open(out, link, error);
  if (!writer) {
    std::fprintf(stderr, "make_real_capture: %s\n", error.c_str());
    return 1;
  }
  std::uint64_t written = 0, bytes = 24;
  std::int64_t base = 1'700'000'000'000'000'000;
  while (written < minFrames || bytes < minBytes) {
    for (const auto& f : frames) {
      if (!writer->write(f.bytes, base + f.offsetNs, f.originalLength)) {
        std::fprintf(stderr, "make_real_capture: %s\n", writer->error().c_str());
        return 1;
      }
      bytes += 16 + f.bytes.size();
      if (++written >= minFrames && bytes >= minBytes) break;
    }
    base += span;
  }
  if (!writer->close()) {
    std::fprintf(stderr, "make_real_capture: %s\n", writer->error().c_str());
    return 1;
  }
  std::printf("%s: %llu frames, %.1f MiB\n", out.c_str(), static_cast<unsigned long long>(written),
              static_cast<double>(bytes) / (1 << 20));
  return 0;
}
