#include "stream_capture_reader.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <optional>
#include <vector>

#include "link_type_map.h"
#include "pcap_format.h"

namespace rdmascope::packets_io {
namespace {

constexpr std::uint32_t kShbType = kPcapngMagic;
constexpr std::uint32_t kByteOrderMagic = 0x1a2b3c4d;
constexpr std::uint32_t kIdbType = 1;
constexpr std::uint32_t kOpbType = 2;  // obsolete Packet Block, still written by old tools
constexpr std::uint32_t kSpbType = 3;
constexpr std::uint32_t kEpbType = 6;
constexpr std::uint32_t kIsbType = 5;
constexpr std::uint32_t kMaxBlock = kMaxRecord + (1u << 20);  // a record and its options
constexpr std::int64_t kMaxNs = INT64_MAX;

std::uint16_t load16(const std::uint8_t* p, bool swap) {
  std::uint16_t v;
  std::memcpy(&v, p, 2);
  return swap ? __builtin_bswap16(v) : v;
}
std::uint64_t load64(const std::uint8_t* p, bool swap) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return swap ? __builtin_bswap64(v) : v;
}
std::size_t pad4(std::size_t n) {
  return (n + 3) & ~std::size_t{3};
}

// Forward-only buffered input. Bytes handed out stay valid until the next need().
class Input {
 public:
  explicit Input(int fd) : fd_(fd) {}
  ~Input() { ::close(fd_); }
  Input(const Input&) = delete;
  Input& operator=(const Input&) = delete;

  /// Makes `n` bytes available at the cursor; false when the stream ends (or fails) first.
  bool need(std::size_t n) {
    if (end_ - pos_ >= n) return true;
    if (pos_ > 0) {
      std::memmove(buf_.data(), buf_.data() + pos_, end_ - pos_);
      end_ -= pos_;
      pos_ = 0;
    }
    if (buf_.size() < n) buf_.resize(std::max({n, buf_.size() * 2, std::size_t{1} << 16}));
    while (end_ < n && !eof_) {
      const ssize_t got = ::read(fd_, buf_.data() + end_, buf_.size() - end_);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) readError_ = std::strerror(errno);
      if (got <= 0) {
        eof_ = true;
        break;
      }
      end_ += static_cast<std::size_t>(got);
    }
    return end_ - pos_ >= n;
  }
  const std::uint8_t* data() const { return buf_.data() + pos_; }
  std::size_t available() const { return end_ - pos_; }
  void skip(std::size_t n) { pos_ += n; }
  const std::string& readError() const { return readError_; }

 private:
  int fd_;
  std::vector<std::uint8_t> buf_;
  std::size_t pos_ = 0;
  std::size_t end_ = 0;
  bool eof_ = false;
  std::string readError_;
};

// How one pcapng interface stamps its packets.
struct Interface {
  std::uint16_t linkType = 0;
  std::uint32_t snapLength = 0;
  bool binaryResolution = false;  // if_tsresol: 2^-exponent seconds (else 10^-exponent)
  std::uint8_t exponent = 6;
  std::int64_t offsetSeconds = 0;  // if_tsoffset
};

// 128 bits hold a 64-bit count of time units scaled to nanoseconds without overflow.
__extension__ typedef __int128 I128;
__extension__ typedef unsigned __int128 U128;

std::int64_t clampNs(I128 ns) {
  return ns > kMaxNs ? kMaxNs : ns < -kMaxNs ? -kMaxNs : static_cast<std::int64_t>(ns);
}

std::int64_t pcapngTimeNs(const Interface& i, std::uint64_t units) {
  U128 ns = 0;
  if (i.binaryResolution) {
    ns = i.exponent >= 100 ? 0 : (static_cast<U128>(units) * 1'000'000'000u) >> i.exponent;
  } else if (i.exponent <= 9) {
    ns = units;
    for (int k = i.exponent; k < 9; ++k)
      ns *= 10;
  } else {
    U128 divisor = 1;
    for (int k = 9; k < i.exponent && divisor <= units; ++k)
      divisor *= 10;
    ns = units / divisor;
  }
  return clampNs(static_cast<I128>(ns) + static_cast<I128>(i.offsetSeconds) * 1'000'000'000);
}

class Parser {
 public:
  Parser(std::string name, int fd) : name_(std::move(name)), in_(fd) {}

  // Reads the file header (pcap) or everything up to the first interface (pcapng).
  bool start(std::uint16_t& linkType, std::string& error) {
    if (!in_.need(4)) {
      error = in_.readError().empty() ? name_ + " is not a pcap or pcapng capture"
                                      : "cannot read " + name_ + ": " + in_.readError();
      return false;
    }
    std::uint32_t magic;
    std::memcpy(&magic, in_.data(), 4);
    if (magic == kShbType) {
      pcapng_ = true;
      FrameView none;
      // Blocks before the first interface: sections, statistics, name resolution.
      while (interfaces_.empty()) {
        if (!block(none, error)) {
          if (!error.empty()) return false;
          break;  // no interface at all: a capture without packets
        }
      }
      linkType = interfaces_.empty() ? 1 : interfaces_.front().linkType;
      firstLinkType_ = linkType;
      return true;
    }
    const bool pcap = magic == kPcapMagicUs || magic == kPcapMagicNs ||
                      magic == __builtin_bswap32(kPcapMagicUs) ||
                      magic == __builtin_bswap32(kPcapMagicNs);
    if (!pcap) {
      error = name_ + " is not a pcap or pcapng capture";
      return false;
    }
    if (!in_.need(24)) {
      error = name_ + ": truncated pcap file header (" + std::to_string(in_.available()) +
              " of 24 bytes)";
      return false;
    }
    swap_ = magic != kPcapMagicUs && magic != kPcapMagicNs;
    nanos_ = load32(in_.data(), swap_) == kPcapMagicNs;
    linkType = static_cast<std::uint16_t>(load32(in_.data() + 20, swap_) & 0xffff);
    in_.skip(24);
    return true;
  }

  // One frame; false at the end (error empty) or on an error.
  bool next(FrameView& frame, std::uint64_t number, std::string& error) {
    number_ = number;
    if (!pcapng_) return record(frame, error);
    while (true) {
      if (block(frame, error)) {
        if (gotFrame_) return true;
        continue;
      }
      return false;
    }
  }

 private:
  std::string at() const { return " at frame " + std::to_string(number_); }

  bool truncated(std::string& error, const std::string& what, std::size_t need) {
    if (!in_.readError().empty()) {
      error = "cannot read " + name_ + ": " + in_.readError();
      return false;
    }
    error = name_ + ": truncated record" + at() + " (" + what + " needs " + std::to_string(need) +
            " bytes, file has " + std::to_string(in_.available()) + ")";
    return false;
  }
  bool corrupt(std::string& error, const std::string& why) {
    error = name_ + ": corrupt record" + at() + " (" + why + ")";
    return false;
  }

  bool record(FrameView& frame, std::string& error) {
    if (!in_.need(16)) {
      if (in_.available() == 0 && in_.readError().empty()) return false;
      return truncated(error, "record header", 16);
    }
    const std::uint8_t* h = in_.data();
    const std::uint32_t sec = load32(h, swap_), frac = load32(h + 4, swap_);
    const std::uint32_t incl = load32(h + 8, swap_), orig = load32(h + 12, swap_);
    if (incl > kMaxRecord)
      return corrupt(error, "captured length " + std::to_string(incl) + " is implausible");
    if (!in_.need(16 + std::size_t{incl})) {
      in_.skip(16);
      const bool r = truncated(error, "frame", incl);
      return r;
    }
    frame.data = {in_.data() + 16, incl};
    frame.originalLength = orig;
    frame.timestampNs = std::int64_t{sec} * 1'000'000'000 +
                        (nanos_ ? std::int64_t{frac} : std::int64_t{frac} * 1000);
    in_.skip(16 + std::size_t{incl});
    return true;
  }

  // Reads one pcapng block. True when it was read (gotFrame_ tells whether `frame` is set);
  // false at the end of the stream (error empty) or on an error.
  bool block(FrameView& frame, std::string& error) {
    gotFrame_ = false;
    if (!in_.need(12)) {
      if (in_.available() == 0 && in_.readError().empty()) return false;
      return truncated(error, "block header", 12);
    }
    const std::uint8_t* b = in_.data();
    std::uint32_t type = load32(b, swap_);
    if (load32(b, false) == kShbType) {
      // A new section: its own byte order, its own interfaces.
      const std::uint32_t order = load32(b + 8, false);
      if (order != kByteOrderMagic && order != __builtin_bswap32(kByteOrderMagic))
        return corrupt(error, "section header with an invalid byte-order magic");
      swap_ = order != kByteOrderMagic;
      type = kShbType;
      interfaces_.clear();
      ++sections_;
    }
    const std::uint32_t len = load32(b + 4, swap_);
    if (len < 12 || len % 4 != 0 || len > kMaxBlock)
      return corrupt(error, "block length " + std::to_string(len) + " is invalid");
    if (!in_.need(len)) return truncated(error, "block", len);
    b = in_.data();
    if (load32(b + len - 4, swap_) != len)
      return corrupt(
          error, "block length " + std::to_string(len) + " does not match the length at its end");
    switch (type) {
      case kShbType:
        if (len < 28)
          return corrupt(error, "section header block of " + std::to_string(len) + " bytes");
        break;
      case kIdbType:
        if (len < 20) return corrupt(error, "interface block of " + std::to_string(len) + " bytes");
        interfaces_.push_back(interface(b, len));
        break;
      case kEpbType:
      case kOpbType: {
        if (len < 32) return corrupt(error, "packet block of " + std::to_string(len) + " bytes");
        const std::uint32_t id = type == kEpbType ? load32(b + 8, swap_) : load16(b + 8, swap_);
        const std::uint64_t units =
            (std::uint64_t{load32(b + 12, swap_)} << 32) | load32(b + 16, swap_);
        const std::uint32_t caplen = load32(b + 20, swap_);
        if (28 + pad4(caplen) + 4 > len)
          return corrupt(error, "captured length " + std::to_string(caplen) +
                                    " exceeds its block of " + std::to_string(len) + " bytes");
        const Interface* i = packetInterface(id, error);
        if (!i) return false;
        frame.data = {b + 28, caplen};
        frame.originalLength = load32(b + 24, swap_);
        frame.timestampNs = pcapngTimeNs(*i, units);
        gotFrame_ = true;
        break;
      }
      case kSpbType: {
        if (len < 16)
          return corrupt(error, "simple packet block of " + std::to_string(len) + " bytes");
        const Interface* i = packetInterface(0, error);
        if (!i) return false;
        const std::uint32_t orig = load32(b + 8, swap_);
        std::uint32_t caplen = std::min<std::uint32_t>(orig, len - 16);
        if (i->snapLength) caplen = std::min(caplen, i->snapLength);
        frame.data = {b + 12, caplen};
        frame.originalLength = orig;
        frame.timestampNs = 0;  // simple packet blocks carry no time stamp
        gotFrame_ = true;
        break;
      }
      case kIsbType:
        if (len >= 24) statistics(b, len);
        break;
      default:
        break;  // name resolution, custom blocks: nothing a frame needs
    }
    in_.skip(len);
    return true;
  }

  Interface interface(const std::uint8_t* b, std::uint32_t len) const {
    Interface i;
    i.linkType = load16(b + 8, swap_);
    i.snapLength = load32(b + 12, swap_);
    const std::uint8_t* p = b + 16;
    const std::uint8_t* end = b + len - 4;
    while (end - p >= 4) {
      const std::uint16_t code = load16(p, swap_), olen = load16(p + 2, swap_);
      if (code == 0 || static_cast<std::size_t>(end - p) < 4 + std::size_t{olen}) break;
      if (code == 9 && olen >= 1) {  // if_tsresol
        i.binaryResolution = (p[4] & 0x80) != 0;
        i.exponent = p[4] & 0x7f;
      } else if (code == 14 && olen >= 8) {  // if_tsoffset
        i.offsetSeconds = static_cast<std::int64_t>(load64(p + 4, swap_));
      }
      p += 4 + pad4(olen);
    }
    return i;
  }

  // An interface statistics block: its isb_ifdrop (the frames the capture lost, as the
  // capturing side counted them) replaces that interface's earlier count.
  void statistics(const std::uint8_t* b, std::uint32_t len) {
    const std::uint32_t id = load32(b + 8, swap_);
    const std::uint8_t* p = b + 20;
    const std::uint8_t* end = b + len - 4;
    while (end - p >= 4) {
      const std::uint16_t code = load16(p, swap_), olen = load16(p + 2, swap_);
      if (code == 0 || static_cast<std::size_t>(end - p) < 4 + std::size_t{olen}) break;
      if (code == 5 && olen == 8) drops_[{sections_, id}] = load64(p + 4, swap_);
      p += 4 + pad4(olen);
    }
  }

 public:
  /// The sum of the latest isb_ifdrop of each interface seen so far; nullopt when none.
  std::optional<std::uint64_t> dropsReported() const {
    if (drops_.empty()) return std::nullopt;
    std::uint64_t sum = 0;
    for (const auto& [key, n] : drops_)
      sum += n;
    return sum;
  }

 private:
  const Interface* packetInterface(std::uint32_t id, std::string& error) {
    if (id >= interfaces_.size()) {
      corrupt(error, "packet of interface " + std::to_string(id) + ", which section " +
                         std::to_string(sections_) + " does not define");
      return nullptr;
    }
    const Interface& i = interfaces_[id];
    if (i.linkType != firstLinkType_) {
      error = name_ + ": frame " + std::to_string(number_) + " has link type " +
              std::to_string(i.linkType) + " but the capture's first interface has " +
              std::to_string(firstLinkType_) + " (captures mixing link types are not supported)";
      return nullptr;
    }
    return &i;
  }

  std::string name_;
  Input in_;
  bool pcapng_ = false;
  bool swap_ = false;
  bool nanos_ = false;
  bool gotFrame_ = false;
  std::vector<Interface> interfaces_;
  std::uint16_t firstLinkType_ = 0;
  std::uint64_t sections_ = 0;
  std::uint64_t number_ = 1;
  std::map<std::pair<std::uint64_t, std::uint32_t>, std::uint64_t> drops_;
};

class StreamCaptureReader final : public CaptureReader {
 public:
  StreamCaptureReader(std::string path, packets::LinkType link, std::unique_ptr<Parser> parser)
      : CaptureReader(std::move(path), link), parser_(std::move(parser)) {}

  std::optional<std::uint64_t> dropsReported() const override { return parser_->dropsReported(); }

  bool next(FrameView& frame) override {
    if (done_ || !error().empty()) return false;
    std::string e;
    if (parser_->next(frame, framesRead_ + 1, e)) {
      ++framesRead_;
      return true;
    }
    done_ = true;
    if (!e.empty()) fail(std::move(e));
    return false;
  }

 private:
  std::unique_ptr<Parser> parser_;
  bool done_ = false;
};

}  // namespace

std::unique_ptr<CaptureReader> openStreamReader(const std::string& path, int fd,
                                                std::string& error) {
  auto parser = std::make_unique<Parser>(path == "-" ? std::string("standard input") : path, fd);
  std::uint16_t link = 0;
  if (!parser->start(link, error)) return nullptr;
  return std::make_unique<StreamCaptureReader>(path, linkTypeFromPcap(link), std::move(parser));
}

}  // namespace rdmascope::packets_io
