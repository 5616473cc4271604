#pragma once
/// @file large_capture.h
/// A classic pcap larger than the reader's ring (4 MiB; views kept for 2 MiB): Ethernet frames
/// (those of the repository's captures, or a test's own), repeated, with a 60,000-byte frame of an
/// experimental EtherType after every 50th, so that the parallel passes' batches in flight hold
/// more bytes than the reader keeps and must wait for it.

#include <cstdint>
#include <string>
#include <vector>

#include "rdmascope/packets_io/capture_reader.h"
#include "rdmascope/packets_io/capture_writer.h"
#include "repository_captures.h"

namespace rdmascope::test {

/// The frames of the repository's Ethernet captures, in order.
inline std::vector<std::vector<std::uint8_t>> repositoryEthernetFrames() {
  std::vector<std::vector<std::uint8_t>> frames;
  for (const auto& c : repositoryCaptures()) {
    std::string error;
    auto reader = packets_io::CaptureReader::open(c, error);
    if (!reader || reader->linkType() != packets::LinkType::Ethernet) continue;
    packets_io::FrameView v;
    while (reader->next(v))
      frames.emplace_back(v.data.begin(), v.data.end());
  }
  return frames;
}

/// Writes the capture to `path` (about `mebibytes` MiB) from `frames` (Ethernet), repeated;
/// returns "" or the error.
inline std::string writeCaptureLargerThanTheRing(
    const std::string& path, const std::vector<std::vector<std::uint8_t>>& frames,
    std::size_t mebibytes) {
  if (frames.empty()) return "no frames to write";
  std::vector<std::uint8_t> big(60000);
  for (std::size_t i = 0; i < big.size(); ++i)
    big[i] = static_cast<std::uint8_t>(i * 7);
  big[12] = 0x88;  // EtherType 0x88b5, local experimental
  big[13] = 0xb5;
  std::string error;
  auto w = packets_io::CaptureWriter::open(path, packets::LinkType::Ethernet, error);
  if (!w) return error;
  std::int64_t t = 1'700'000'000'000'000'000;
  std::size_t bytes = 0;
  for (std::size_t i = 0; bytes < (mebibytes << 20); ++i) {
    const auto& f = i % 51 == 50 ? big : frames[i % frames.size()];
    w->write(f, t += 1'234);
    bytes += 16 + f.size();
  }
  w->close();
  return "";
}

}  // namespace rdmascope::test
