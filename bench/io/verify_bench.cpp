// Measures the RoCE ICRC verification of a large classic pcap (CaptureReader plus
// verifyFrameCrc, as `rdmascope-cli decode --verify` runs it) against a bare CRC-32 pass
// over the same bytes. Usage: verify_bench [FILE [MiB]]; writes FILE (default
// /tmp/rdmascope_verify_bench.pcap, 1024 MiB of RoCEv2 RDMA WRITE frames) when absent.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "rdmascope/packets/crc.h"
#include "rdmascope/packets/ib_builder.h"
#include "rdmascope/packets/ib_crc.h"
#include "rdmascope/packets/ib_opcodes.h"
#include "rdmascope/packets_io/capture_reader.h"
#include "rdmascope/packets_io/capture_writer.h"

namespace {

namespace packets = rdmascope::packets;
namespace io = rdmascope::packets_io;

// Ethernet / IPv4 / UDP 4791 / BTH (RDMA WRITE MIDDLE) / payload / ICRC, from the packet layer.
std::vector<std::uint8_t> roceFrame(std::size_t payload, std::uint32_t psn) {
  packets::IbPacket p;
  p.bth.opcode = static_cast<std::uint8_t>(packets::IbOpcode::RcRdmaWriteMiddle);
  p.bth.destQp = 0x11;
  p.bth.psn = psn & 0xffffff;
  p.payload.resize(payload);
  for (std::size_t i = 0; i < payload; ++i)
    p.payload[i] = static_cast<std::uint8_t>(i * 31 + psn);
  return packets::buildRoceV2({}, p);
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

  // A bare CRC-32 pass over the file read in 256 KiB chunks (as CaptureReader reads it): the
  // floor any verification must pay.
  double bare = 1e9;
  std::uint32_t sink = 0;
  std::vector<std::uint8_t> chunk(std::size_t{256} << 10);
  for (int rep = 0; rep < 3; ++rep) {
    const double t0 = cpuNow();
    const int fd = ::open(path.c_str(), O_RDONLY);
    std::uint32_t crc = 0;
    for (ssize_t got; (got = ::read(fd, chunk.data(), chunk.size())) > 0;)
      crc = packets::crc32({chunk.data(), static_cast<std::size_t>(got)}, crc);
    sink ^= crc;
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
      good += packets::verifyFrameCrc(v.data, reader->linkType()) == packets::CrcStatus::Good;
    }
    verify = std::min(verify, cpuNow() - t0);
  }
  std::printf("file %.2f GiB, %llu frames, %llu good ICRC (crc sink %08x)\n", gib,
              static_cast<unsigned long long>(frames), static_cast<unsigned long long>(good), sink);
  std::printf("bare CRC pass:   %.3f s CPU  (%.2f GiB/s)\n", bare, gib / bare);
  std::printf("verify (reader): %.3f s CPU  (%.2f GiB/s, %.0f%% of the bare pass's speed)\n",
              verify, gib / verify, 100.0 * bare / verify);
  return good == frames ? 0 : 1;
}
