// The floor any verification pays: memory-map a file and run ISA-L's CRC-32 (packets::crc32,
// as the ICRC uses) over every byte. Prints the best wall time of REPEAT passes in seconds,
// each pass including open, mmap, the CRC and munmap, then the best time of the CRC alone on
// the mapped memory, then the CRC.
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
    const auto size = static_cast<std::size_t>(st.st_size);
    // Populated up front, as CaptureReader maps files up to 4 GiB.
    void* base = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (base == MAP_FAILED) {
      std::fprintf(stderr, "bare_crc_pass: cannot map %s\n", argv[1]);
      return 1;
    }
    ::madvise(base, size, MADV_SEQUENTIAL);
    const auto c0 = std::chrono::steady_clock::now();
    crc = rdmascope::packets::crc32({static_cast<const std::uint8_t*>(base), size});
    const std::chrono::duration<double> c = std::chrono::steady_clock::now() - c0;
    if (c.count() < bestCrc) bestCrc = c.count();
    ::munmap(base, size);
    ::close(fd);
    const std::chrono::duration<double> t = std::chrono::steady_clock::now() - t0;
    if (t.count() < best) best = t.count();
  }
  std::printf("%.6f %.6f %08x\n", best, bestCrc, crc);
  return 0;
}
