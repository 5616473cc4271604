#include "rdmascope/packets_io/capture_reader.h"

#include <fcntl.h>
#include <pcap/pcap.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "link_type_map.h"
#include "pcap_file_reader.h"
#include "pcap_format.h"
#include "stream_capture_reader.h"

namespace rdmascope::packets_io {
namespace {

std::string notACapture(const std::string& path) {
  return path + " is not a pcap or pcapng capture";
}

// What libpcap reads: a classic pcap (with microsecond or nanosecond stamps) or pcapng.
enum class Classic : std::uint8_t { No, Microseconds, Nanoseconds };

class LibpcapReader final : public CaptureReader {
 public:
  LibpcapReader(std::string path, packets::LinkType link, pcap_t* p, Classic classic)
      : CaptureReader(std::move(path), link), pcap_(p), classic_(classic) {}
  ~LibpcapReader() override { pcap_close(pcap_); }

  bool next(FrameView& frame) override {
    if (!error().empty() || done_) return false;
    pcap_pkthdr* header = nullptr;
    const u_char* data = nullptr;
    const int rc = pcap_next_ex(pcap_, &header, &data);
    if (rc == 1) {
      frame.data = {data, header->caplen};
      frame.originalLength = header->len;
      // Opened with nanosecond precision: tv_usec holds nanoseconds. libpcap reads a classic
      // pcap's seconds as a signed 32-bit number; the format's are unsigned (0xFFFFFFFF is
      // 2106, not 1969).
      std::int64_t sec = header->ts.tv_sec, frac = header->ts.tv_usec;
      if (classic_ != Classic::No) {
        // libpcap reads a classic pcap's seconds and fraction as signed 32-bit numbers; the
        // format's are unsigned (0xFFFFFFFF seconds is in 2106, not 1969, and 0xFFFFFFFF
        // microseconds is 4295 s, not -1 us).
        sec = static_cast<std::uint32_t>(sec);
        frac = classic_ == Classic::Nanoseconds
                   ? std::int64_t{static_cast<std::uint32_t>(frac)}
                   : std::int64_t{static_cast<std::uint32_t>(frac / 1000)} * 1000;
      }
      frame.timestampNs = sec * 1'000'000'000 + frac;
      ++framesRead_;
      return true;
    }
    done_ = true;
    if (rc == PCAP_ERROR_BREAK) return false;
    const std::string why = pcap_geterr(pcap_);
    const bool truncated = why.find("truncated") != std::string::npos;
    fail(path() + (truncated ? ": truncated record at frame " : ": corrupt record at frame ") +
         std::to_string(framesRead_ + 1) + " (" + why + ")");
    return false;
  }

 private:
  pcap_t* pcap_;
  Classic classic_;
  bool done_ = false;
};

std::unique_ptr<CaptureReader> openLibpcap(const std::string& path, Classic classic,
                                           std::string& error) {
  char errbuf[PCAP_ERRBUF_SIZE] = {};
  pcap_t* p =
      pcap_open_offline_with_tstamp_precision(path.c_str(), PCAP_TSTAMP_PRECISION_NANO, errbuf);
  if (!p) {
    error = path + ": " + errbuf;
    return nullptr;
  }
  return std::make_unique<LibpcapReader>(path, linkTypeFromDlt(pcap_datalink(p)), p, classic);
}

}  // namespace

bool CaptureReader::next(CapturedFrame& frame) {
  FrameView view;
  if (!next(view)) return false;
  frame.data.assign(view.data.begin(), view.data.end());
  frame.originalLength = view.originalLength;
  frame.timestampNs = view.timestampNs;
  return true;
}

std::unique_ptr<CaptureReader> CaptureReader::open(const std::string& path, std::string& error,
                                                   ReadMethod method) {
  error.clear();
  if (path == "-") {
    const int in = ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0);
    if (in < 0) {
      error = std::string("cannot read standard input: ") + std::strerror(errno);
      return nullptr;
    }
    return openStreamReader(path, in, error);
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = "cannot open " + path + ": " + std::strerror(errno);
    return nullptr;
  }
  struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    error = "cannot open " + path + ": " + std::strerror(S_ISDIR(st.st_mode) ? EISDIR : errno);
    return nullptr;
  }
  auto streamed = [&]() -> std::unique_ptr<CaptureReader> {
    const int own = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (own < 0) {
      error = "cannot read " + path + ": " + std::strerror(errno);
      return nullptr;
    }
    return openStreamReader(path, own, error);
  };
  // FIFOs, sockets and terminals cannot be mapped or read twice: parse them as a stream.
  if (!S_ISREG(st.st_mode) && method == ReadMethod::Auto) return streamed();
  std::uint8_t head[4];
  const ssize_t got = ::pread(fd, head, sizeof head, 0);
  if (got < 0) {
    error = "cannot read " + path + ": " + std::strerror(errno);
    return nullptr;
  }
  if (got < 4) {
    error = notACapture(path);
    return nullptr;
  }
  std::uint32_t magic;
  std::memcpy(&magic, head, 4);
  const bool pcap = magic == kPcapMagicUs || magic == kPcapMagicNs ||
                    magic == __builtin_bswap32(kPcapMagicUs) ||
                    magic == __builtin_bswap32(kPcapMagicNs);
  if (!pcap && magic != kPcapngMagic) {
    error = notACapture(path);
    return nullptr;
  }
  if (pcap && method == ReadMethod::Auto)
    return openPcapFile(path, fd, static_cast<std::size_t>(st.st_size), error);
  // libpcap refuses pcapng files whose sections differ in byte order; tshark reads them.
  if (method == ReadMethod::Auto) return streamed();
  const bool nanos = magic == kPcapMagicNs || magic == __builtin_bswap32(kPcapMagicNs);
  return openLibpcap(path,
                     !pcap   ? Classic::No
                     : nanos ? Classic::Nanoseconds
                             : Classic::Microseconds,
                     error);
}

}  // namespace rdmascope::packets_io
