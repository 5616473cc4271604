#include "pcap_file_reader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <deque>
#include <limits>
#include <vector>

#include "link_type_map.h"
#include "pcap_format.h"

namespace rdmascope::packets_io {
namespace {

constexpr std::size_t kFileHeaderSize = 24;
constexpr std::size_t kRecordHeaderSize = 16;
constexpr std::size_t kHugePage = std::size_t{2} << 20;

// The ring. A file that fits is read into a buffer of its own size and never wraps: every
// view lasts until the reader is destroyed. A larger file goes through a ring of kRing bytes,
// filled kChunk bytes per read(2) as the frames need them. A record of more than kRingRecord
// bytes (its header included) is read into a buffer of its own instead.
//
// Why views last kKept bytes in the ring: the ring wraps when the next record does not fit
// before its end, at a point past kRing - kRingRecord, moving the bytes not yet returned (at
// most kRingRecord + kChunk) to its start. After a wrap, the reader writes at most
// kRingRecord + kChunk bytes beyond the bytes it has returned. The bytes returned since a mark
// less than kKept behind lie behind the read point, within the last kKept bytes of the ring
// (across the wrap): the writer, less than kKept + kRingRecord + kChunk past the wrap, stays
// clear of them while kRing - kRingRecord > kKept + kRingRecord + kChunk.
//
// Why so small: the kernel zeroes each fresh huge page, and on this project's VMs the host backs
// it at its first touch as well. A 16 MiB ring cost a sixth of the summary pass's CPU on 200k
// frames; 4 MiB (with the line passes' batches of 512 frames) cut that pass from 0.07 to 0.05 s,
// and 2 MiB gained nothing more. Reads of 1 MiB walk the page cache faster than reads of
// 256 KiB (--verify over 121 MiB: 0.036 s against 0.038 s).
constexpr std::size_t kRing = std::size_t{4} << 20;
constexpr std::size_t kChunk = std::size_t{1} << 20;
constexpr std::size_t kRingRecord = std::size_t{256} << 10;
constexpr std::uint64_t kKept = std::uint64_t{2} << 20;
static_assert(kRing - kRingRecord > kKept + kRingRecord + kChunk);

// Anonymous memory, on transparent huge pages from 2 MiB up (the copies into it and the reads
// out of it then miss no TLB entry per 4 KiB).
class Memory {
 public:
  explicit Memory(std::size_t size) : size_(size < kHugePage ? size : size + kHugePage) {
    void* p = ::mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return;
    base_ = static_cast<std::uint8_t*>(p);
    data_ = base_;
    if (size >= kHugePage) {
      const auto at = reinterpret_cast<std::uintptr_t>(base_);
      data_ = base_ + ((kHugePage - at % kHugePage) % kHugePage);
      ::madvise(data_, size, MADV_HUGEPAGE);
    }
  }
  ~Memory() {
    if (base_) ::munmap(base_, size_);
  }
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;

  std::uint8_t* data() const { return data_; }

 private:
  std::size_t size_;
  std::uint8_t* base_ = nullptr;
  std::uint8_t* data_ = nullptr;
};

class PcapFileReader final : public CaptureReader {
 public:
  PcapFileReader(std::string path, packets::LinkType link, int fd, std::size_t size, bool swap,
                 bool nanos)
      : CaptureReader(std::move(path), link),
        fd_(fd),
        size_(size),
        wraps_(size > kRing),
        ringSize_(wraps_ ? kRing : std::max<std::size_t>(size, 1)),
        memory_(ringSize_),
        swap_(swap),
        nanos_(nanos) {
    position_ = kFileHeaderSize;
    fileOffset_ = kFileHeaderSize;
    keptBytes_ = wraps_ ? kKept : std::numeric_limits<std::uint64_t>::max();
  }
  ~PcapFileReader() override { ::close(fd_); }

  bool allocated() const { return memory_.data() != nullptr; }

  bool next(FrameView& frame) override {
    if (position_ >= size_ || !error().empty()) return false;
    const std::uint64_t left = size_ - position_;
    const std::uint64_t number = framesRead_ + 1;
    if (left < kRecordHeaderSize) {
      fail(path() + ": truncated record at frame " + std::to_string(number) +
           " (record header needs 16 bytes, file has " + std::to_string(left) + ")");
      return false;
    }
    if (!need(kRecordHeaderSize)) return failRead(number, kRecordHeaderSize);
    const std::uint8_t* h = memory_.data() + pos_;
    const std::uint32_t sec = load32(h, swap_), frac = load32(h + 4, swap_);
    const std::uint32_t incl = load32(h + 8, swap_), orig = load32(h + 12, swap_);
    if (incl > kMaxRecord) {
      fail(path() + ": corrupt record at frame " + std::to_string(number) + " (captured length " +
           std::to_string(incl) + " is implausible)");
      return false;
    }
    if (left - kRecordHeaderSize < incl) {
      fail(path() + ": truncated record at frame " + std::to_string(number) + " (frame needs " +
           std::to_string(incl) + " bytes, file has " + std::to_string(left - kRecordHeaderSize) +
           ")");
      return false;
    }
    frame.originalLength = orig;
    frame.timestampNs = std::int64_t{sec} * 1'000'000'000 +
                        (nanos_ ? std::int64_t{frac} : std::int64_t{frac} * 1000);
    const std::size_t record = kRecordHeaderSize + incl;
    if (wraps_ && record > kRingRecord) {
      if (!readLarge(incl, frame)) return failRead(number, record);
    } else {
      if (!need(record)) return failRead(number, record);
      frame.data = {memory_.data() + pos_ + kRecordHeaderSize, incl};
      pos_ += record;
    }
    position_ += record;
    ++framesRead_;
    return true;
  }

 private:
  // Makes `n` bytes available at pos_ (n fits the ring: kRingRecord at most when it wraps).
  bool need(std::size_t n) {
    if (end_ - pos_ >= n) return true;
    if (ringSize_ - pos_ < n) {
      std::memmove(memory_.data(), memory_.data() + pos_, end_ - pos_);
      end_ -= pos_;
      pos_ = 0;
    }
    while (end_ - pos_ < n) {
      const std::size_t want = std::min<std::uint64_t>(
          {kChunk, ringSize_ - end_, static_cast<std::uint64_t>(size_) - fileOffset_});
      const std::size_t got = readAt(memory_.data() + end_, want);
      if (got == 0) return false;
      end_ += got;
    }
    return true;
  }

  // Reads a record too large for the ring into a buffer of its own, kept while a mark before
  // it may still be honoured (see mayReadKeeping()).
  bool readLarge(std::uint32_t incl, FrameView& frame) {
    while (!large_.empty() && position_ - large_.front().start >= kKept)
      large_.pop_front();
    Large& l = large_.emplace_back();
    l.start = position_;
    l.bytes.resize(incl);
    pos_ += kRecordHeaderSize;
    const std::size_t inRing = std::min<std::size_t>(end_ - pos_, incl);
    std::memcpy(l.bytes.data(), memory_.data() + pos_, inRing);
    pos_ += inRing;
    for (std::size_t have = inRing; have < incl;) {
      const std::size_t got = readAt(l.bytes.data() + have, incl - have);
      if (got == 0) return false;
      have += got;
    }
    frame.data = {l.bytes.data(), incl};
    return true;
  }

  // One read(2) at fileOffset_; 0 at an unexpected end of the file or an error (readError_).
  std::size_t readAt(std::uint8_t* to, std::size_t want) {
    while (true) {
      const ssize_t got = ::pread(fd_, to, want, static_cast<off_t>(fileOffset_));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) readError_ = std::strerror(errno);
      if (got <= 0) return 0;
      fileOffset_ += static_cast<std::uint64_t>(got);
      return static_cast<std::size_t>(got);
    }
  }

  // The file ended before its size at open, or a read failed.
  bool failRead(std::uint64_t number, std::size_t needed) {
    if (!readError_.empty())
      fail("cannot read " + path() + ": " + readError_ + " (at frame " + std::to_string(number) +
           ")");
    else
      fail(path() + ": truncated record at frame " + std::to_string(number) +
           " (the file shrank while being read: record needs " + std::to_string(needed) +
           " bytes)");
    return false;
  }

  struct Large {
    std::uint64_t start = 0;
    std::vector<std::uint8_t> bytes;
  };

  int fd_;
  std::uint64_t size_;
  bool wraps_;
  std::size_t ringSize_;
  Memory memory_;
  bool swap_;
  bool nanos_;
  std::size_t pos_ = 0;  // next record in the ring
  std::size_t end_ = 0;  // end of the bytes read into the ring
  std::uint64_t fileOffset_ = 0;
  std::string readError_;
  std::deque<Large> large_;
};

}  // namespace

std::unique_ptr<CaptureReader> openPcapFile(const std::string& path, int fd, std::size_t size,
                                            std::string& error) {
  std::uint8_t header[kFileHeaderSize];
  if (size < kFileHeaderSize) {
    error = path + ": truncated pcap file header (" + std::to_string(size) + " of 24 bytes)";
    return nullptr;
  }
  errno = 0;
  if (::pread(fd, header, kFileHeaderSize, 0) != static_cast<ssize_t>(kFileHeaderSize)) {
    error = "cannot read " + path + ": " + (errno ? std::strerror(errno) : "short read");
    return nullptr;
  }
  const int own = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (own < 0) {
    error = "cannot read " + path + ": " + std::strerror(errno);
    return nullptr;
  }
  ::posix_fadvise(own, 0, 0, POSIX_FADV_SEQUENTIAL);
  std::uint32_t magic;
  std::memcpy(&magic, header, 4);
  const bool swap = magic != kPcapMagicUs && magic != kPcapMagicNs;
  const bool nanos = load32(header, swap) == kPcapMagicNs;
  const std::uint32_t link = load32(header + 20, swap) & 0xffff;  // upper bits: FCS length flags
  auto reader =
      std::make_unique<PcapFileReader>(path, linkTypeFromPcap(link), own, size, swap, nanos);
  if (!reader->allocated()) {
    error = "cannot read " + path + ": no memory for its read buffer";
    return nullptr;
  }
  return reader;
}

}  // namespace rdmascope::packets_io
