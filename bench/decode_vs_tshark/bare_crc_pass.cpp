// The floor any verification pays: read a file (read(2) in 256 KiB chunks into a buffer on
// huge pages, as CaptureReader reads classic pcap files) and run ISA-L's CRC-32 (packets::crc32,
// as the ICRC uses) over every byte. Prints the best wall time of REPEAT passes in seconds,
// each pass including open, the reads and the CRC, then the best time of the CRC alone on the
// read chunks, then the CRC.
// Usage: bare_crc_pass FILE [REPEAT]   (default 3)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

#include "rdmascope/packets/crc.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bare_crc_pass FILE [REPEAT]\n");
    return 2;
  }
  const int repeat = argc > 2 ? std::stoi(argv[2]) : 3;
  double best = 1e30, bestCrc = 1e30;
  std::uint32_t crc = 0;
  for (int i = 0; i < repeat; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    const int fd = ::open(argv[1], O_RDONLY);
    struct stat st {};
    if (fd < 0 || ::fstat(fd, &st) != 0 || st.st_size == 0) {
      std::fprintf(stderr, "bare_crc_pass: cannot read %s\n", argv[1]);
      return 1;
    }
    constexpr std::size_t kChunk = std::size_t{256} << 10, kHuge = std::size_t{2} << 20;
    void* mem =
        ::mmap(nullptr, kHuge * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) {
      std::fprintf(stderr, "bare_crc_pass: no memory\n");
      return 1;
    }
    auto* buf = reinterpret_cast<std::uint8_t*>(
        (reinterpret_cast<std::uintptr_t>(mem) + kHuge - 1) & ~(kHuge - 1));
    ::madvise(buf, kHuge, MADV_HUGEPAGE);
    crc = 0;
    double crcSeconds = 0;
    for (ssize_t got; (got = ::read(fd, buf, kChunk)) > 0;) {
      const auto c0 = std::chrono::steady_clock::now();
      crc = rdmascope::packets::crc32({buf, static_cast<std::size_t>(got)}, crc);
      crcSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - c0).count();
    }
    if (crcSeconds < bestCrc) bestCrc = crcSeconds;
    ::munmap(mem, kHuge * 2);
    ::close(fd);
    const std::chrono::duration<double> t = std::chrono::steady_clock::now() - t0;
    if (t.count() < best) best = t.count();
  }
  std::printf("%.6f %.6f %08x\n", best, bestCrc, crc);
  return 0;
}
