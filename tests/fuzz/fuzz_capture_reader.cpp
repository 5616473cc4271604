// libFuzzer target: a capture file as the stream reader parses it (pcapng blocks: sections,
// interfaces with their options, packets, and the interface statistics whose isb_ifdrop a
// verbs sniffer capture writes; classic pcap headers). The input is a file in memory (memfd),
// opened by path as a user's file is. Every input ends in frames and a clean end or a one-line
// error; a crash, an exception escaping or a sanitizer report is a finding. Seeded with pcapng
// files that hold interface statistics.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "rdmascope/packets_io/capture_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rdmascope::packets_io;
  const int fd = ::memfd_create("capture", MFD_CLOEXEC);
  if (fd < 0) return 0;
  if (::write(fd, data, size) != static_cast<ssize_t>(size)) {
    ::close(fd);
    return 0;
  }
  std::string error;
  auto reader = CaptureReader::open("/proc/self/fd/" + std::to_string(fd), error);
  if (!reader) {
    if (error.empty() || error.find('\n') != std::string::npos) __builtin_trap();
    ::close(fd);
    return 0;
  }
  FrameView v;
  std::uint64_t frames = 0;
  while (reader->next(v)) {
    if (v.data.size() > size) __builtin_trap();  // a frame is bytes of the file
    ++frames;
  }
  if (frames != reader->framesRead()) __builtin_trap();
  if (reader->error().find('\n') != std::string::npos) __builtin_trap();
  (void)reader->dropsReported();
  reader.reset();
  ::close(fd);
  return 0;
}
