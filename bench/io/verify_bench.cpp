// Measures the RoCE ICRC verification of a large classic pcap (memory-mapped reader plus
// checkFrameCrcFast, as `rdmascope-cli decode --verify` runs it) against a bare CRC-32 pass
// over the same bytes. Usage: verify_bench [FILE [MiB]]; writes FILE (default
// /tmp/rdmascope_verify_bench.pcap, 1024 MiB of RoCEv2 RDMA WRITE frames) when absent.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "rdmascope/packets/crc.h"
#include "rdmascope/packets/frame_crc_check.h"
#include "rdmascope/packets_io/capture_reader.h"
#include "rdmascope/packets_io/capture_writer.h"

namespace {

namespace packets = rdmascope::packets;
namespace io = rdmascope::packets_io;

// Ethernet / IPv4 / UDP 4791 / BTH (RDMA WRITE MIDDLE) / payload / ICRC.
std::vector<std::uint8_t> roceFrame(std::size_t payload, std::uint32_t psn) {
  std::vector<std::uint8_t> f = {2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00};
  const std::size_t udpLen = 8 + 12 + payload + 4, ipLen = 20 + udpLen;
  const std::uint8_t ip[20] = {0x45,
                               0,
                               static_cast<std::uint8_t>(ipLen >> 8),
                               static_cast<std::uint8_t>(ipLen),
                               0,
                               0,
                               0x40,
                               0,
                               64,
                               17,
                               0,
                               0,
                               10,
                               0,
                               0,
                               1,
                               10,
                               0,
                               0,
                               2};
  f.insert(f.end(), ip, ip + 20);
  const std::uint8_t udp[8] = {0xc0,
                               0x00,
                               0x12,
                               0xb7,
                               static_cast<std::uint8_t>(udpLen >> 8),
                               static_cast<std::uint8_t>(udpLen),
                               0,
                               0};
  f.insert(f.end(), udp, udp + 8);
  const std::uint8_t bth[12] = {0x07,
                                0,
                                0xff,
                                0xff,
                                0,
                                0,
                                0,
                                0x11,
                                0,
                                static_cast<std::uint8_t>(psn >> 16),
                                static_cast<std::uint8_t>(psn >> 8),
                                static_cast<std::uint8_t>(psn)};
  f.insert(f.end(), bth, bth + 12);
  for (std::size_t i = 0; i < payload; ++i)
    f.push_back(static_cast<std::uint8_t>(i * 31 + psn));
  f.insert(f.end(), 4, 0);
  const auto icrc = packets::roceIcrc({f.data() + 14, f.size() - 14}, 20, true);
  for (int i = 0; i < 4; ++i)
    f[f.size() - 4 + i] = static_cast<std::uint8_t>(icrc >> (8 * i));
  return f;
}

bool makeFile(const std::string& path, std::size_t mib) {
  std::string error;
  auto w = io::CaptureWriter::open(path, packets::LinkType::Ethernet, error);
  if (!w) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return false;
  }
  std::vector<std::vector<std::uint8_t>> frames;
  for (std::uint32_t i = 0; i < 64; ++i)
    frames.push_back(roceFrame(4096, i));
  const std::size_t target = mib << 20;
  std::size_t written = 24;
  for (std::uint64_t n = 0; written < target; ++n) {
    const auto& f = frames[n % frames.size()];
    w->write(f, static_cast<std::int64_t>(n) * 1000);
    written += 16 + f.size();
  }
  return w->close();
}

// CPU seconds of this process (user + system): stable when other jobs share the cores.
double cpuNow() {
  timespec ts{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "/tmp/rdmascope_verify_bench.pcap";
  const std::size_t mib = argc > 2 ? std::stoul(argv[2]) : 1024;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 && !makeFile(path, mib)) return 1;
  ::stat(path.c_str(), &st);
  const double gib = static_cast<double>(st.st_size) / (1 << 30);

  // A bare CRC-32 pass over the mapped file: the floor any verification must pay.
  double bare = 1e9;
  std::uint32_t sink = 0;
  for (int rep = 0; rep < 3; ++rep) {
    const double t0 = cpuNow();
    const int fd = ::open(path.c_str(), O_RDONLY);
    const auto size = static_cast<std::size_t>(st.st_size);
    void* base = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    sink ^= packets::crc32({static_cast<const std::uint8_t*>(base), size});
    ::munmap(base, size);
    ::close(fd);
    bare = std::min(bare, cpuNow() - t0);
  }

  double verify = 1e9;
  std::uint64_t frames = 0, good = 0;
  for (int rep = 0; rep < 3; ++rep) {
    const double t0 = cpuNow();
    std::string error;
    auto reader = io::CaptureReader::open(path, error);
    if (!reader) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return 1;
    }
    frames = good = 0;
    io::FrameView v;
    while (reader->next(v)) {
      ++frames;
      good += packets::checkFrameCrcFast(v.data, reader->linkType()) == packets::CrcStatus::Good;
    }
    verify = std::min(verify, cpuNow() - t0);
  }
  std::printf("file %.2f GiB, %llu frames, %llu good ICRC (crc sink %08x)\n", gib,
              static_cast<unsigned long long>(frames), static_cast<unsigned long long>(good), sink);
  std::printf("bare CRC pass:   %.3f s CPU  (%.2f GiB/s)\n", bare, gib / bare);
  std::printf("verify (mmap):   %.3f s CPU  (%.2f GiB/s, %.0f%% of the bare pass's speed)\n",
              verify, gib / verify, 100.0 * bare / verify);
  return good == frames ? 0 : 1;
}
