#include "rdmascope/packets_io/capture_writer.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "pcap_format.h"

namespace rdmascope::packets_io {
namespace {

struct PcapFileHeader {
  std::uint32_t magic;
  std::uint16_t major, minor;
  std::int32_t thiszone;
  std::uint32_t sigfigs, snaplen, linktype;
};
static_assert(sizeof(PcapFileHeader) == 24);

struct PcapRecordHeader {
  std::uint32_t sec, nsec, incl, orig;
};
static_assert(sizeof(PcapRecordHeader) == 16);

std::uint32_t pad4(std::size_t n) {
  return static_cast<std::uint32_t>((n + 3) & ~std::size_t{3});
}

/// Appends a pcapng option (code, length, value padded to 4 bytes).
void addOption(std::vector<std::uint8_t>& out, std::uint16_t code, const void* value,
               std::size_t length) {
  const auto len = static_cast<std::uint16_t>(std::min<std::size_t>(length, 0xfff0));
  const std::uint8_t head[4] = {
      static_cast<std::uint8_t>(code), static_cast<std::uint8_t>(code >> 8),
      static_cast<std::uint8_t>(len), static_cast<std::uint8_t>(len >> 8)};
  out.insert(out.end(), head, head + 4);
  const auto* bytes = static_cast<const std::uint8_t*>(value);
  out.insert(out.end(), bytes, bytes + len);
  out.resize(out.size() + (pad4(len) - len), 0);
}

void addWord(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i)
    out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

/// A whole block: type, total length, body, total length.
std::vector<std::uint8_t> block(std::uint32_t type, const std::vector<std::uint8_t>& body) {
  std::vector<std::uint8_t> out;
  const auto total = static_cast<std::uint32_t>(12 + body.size());
  addWord(out, type);
  addWord(out, total);
  out.insert(out.end(), body.begin(), body.end());
  addWord(out, total);
  return out;
}

}  // namespace

std::unique_ptr<CaptureWriter> CaptureWriter::open(const std::string& path, packets::LinkType link,
                                                   std::string& error, CaptureFormat format,
                                                   std::uint32_t snapLength,
                                                   const CaptureInterface& itf) {
  auto file = OutputFile::create(path, error);
  if (!file) return nullptr;
  return open(std::move(file), link, error, format, snapLength, itf);
}

std::unique_ptr<CaptureWriter> CaptureWriter::open(std::unique_ptr<OutputFile> file,
                                                   packets::LinkType link, std::string& error,
                                                   CaptureFormat format, std::uint32_t snapLength,
                                                   const CaptureInterface& itf) {
  error.clear();
  if (!file) {
    error = "no file to write the capture to";
    return nullptr;
  }
  std::unique_ptr<CaptureWriter> w(new CaptureWriter(std::move(file), format, snapLength));
  const auto linktype = static_cast<std::uint32_t>(link);
  bool ok;
  if (format == CaptureFormat::Pcap) {
    const PcapFileHeader h{kPcapMagicNs, 2, 4, 0, 0, snapLength, linktype};
    ok = w->put(&h, sizeof h);
  } else {
    // Section header block, then one interface description block with if_tsresol = 9
    // (nanoseconds).
    const std::uint32_t shb[7] = {0x0a0d0d0a, 28,         0x1a2b3c4d, 0x00000001,
                                  0xffffffff, 0xffffffff, 28};
    std::vector<std::uint8_t> body;
    addWord(body, linktype & 0xffff);  // link type, reserved
    addWord(body, snapLength);
    if (!itf.comment.empty()) addOption(body, 1, itf.comment.data(), itf.comment.size());
    if (!itf.name.empty()) addOption(body, 2, itf.name.data(), itf.name.size());
    if (!itf.description.empty()) {
      addOption(body, 3, itf.description.data(), itf.description.size());
    }
    const std::uint8_t tsresol = 9;  // nanoseconds
    addOption(body, 9, &tsresol, 1);
    addWord(body, 0);  // opt_endofopt
    const auto idb = block(1, body);
    ok = w->put(shb, sizeof shb) && w->put(idb.data(), idb.size());
  }
  if (!ok) {
    error = w->error();
    return nullptr;
  }
  return w;
}

CaptureWriter::~CaptureWriter() {
  close();
}

bool CaptureWriter::put(const void* data, std::size_t size) {
  if (!file_) return false;
  if (std::fwrite(data, 1, size, file_->stream()) != size) {
    if (error_.empty()) error_ = "cannot write " + file_->path() + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

bool CaptureWriter::write(std::span<const std::uint8_t> bytes, std::int64_t timestampNs,
                          std::uint32_t originalLength) {
  if (!file_ || !error_.empty()) return false;
  const auto incl = static_cast<std::uint32_t>(std::min<std::size_t>(bytes.size(), snap_));
  const std::uint32_t orig =
      originalLength ? originalLength : static_cast<std::uint32_t>(bytes.size());
  std::int64_t sec = timestampNs / 1'000'000'000;
  std::int64_t nsec = timestampNs % 1'000'000'000;
  if (nsec < 0) {
    nsec += 1'000'000'000;
    --sec;
  }
  bool ok;
  if (format_ == CaptureFormat::Pcap) {
    const PcapRecordHeader h{static_cast<std::uint32_t>(sec), static_cast<std::uint32_t>(nsec),
                             incl, orig};
    ok = put(&h, sizeof h) && put(bytes.data(), incl);
  } else {
    const std::uint32_t total = 32 + pad4(incl);  // 28 bytes of fields, data, trailing length
    const auto ts = static_cast<std::uint64_t>(timestampNs);
    const std::uint32_t epb[7] = {
        6,    total, 0, static_cast<std::uint32_t>(ts >> 32), static_cast<std::uint32_t>(ts),
        incl, orig};
    static constexpr std::uint8_t zeros[4] = {};
    ok = put(epb, sizeof epb) && put(bytes.data(), incl) && put(zeros, pad4(incl) - incl) &&
         put(&total, 4);
  }
  if (ok) ++frames_;
  return ok;
}

bool CaptureWriter::writeStatistics(const CaptureStatistics& stats) {
  if (format_ != CaptureFormat::Pcapng) return error_.empty();
  std::vector<std::uint8_t> body;
  const auto ts = static_cast<std::uint64_t>(stats.endNs);
  addWord(body, 0);  // interface 0
  addWord(body, static_cast<std::uint32_t>(ts >> 32));
  addWord(body, static_cast<std::uint32_t>(ts));
  std::uint8_t v[8];
  const auto le = [&v](std::uint64_t x) {
    for (int i = 0; i < 8; ++i)
      v[i] = static_cast<std::uint8_t>(x >> (8 * i));
    return v;
  };
  addOption(body, 4, le(stats.received), 8);                     // isb_ifrecv
  if (stats.dropped) addOption(body, 5, le(*stats.dropped), 8);  // isb_ifdrop
  addWord(body, 0);
  const auto isb = block(5, body);
  return put(isb.data(), isb.size());
}

bool CaptureWriter::flush() {
  if (!file_) return error_.empty();
  if (std::fflush(file_->stream()) != 0 && error_.empty())
    error_ = "cannot write " + file_->path() + ": " + std::strerror(errno);
  return error_.empty();
}

bool CaptureWriter::close() {
  if (!file_) return error_.empty();
  if (error_.empty() && !file_->commit()) error_ = file_->error();
  file_->discard();
  file_.reset();
  return error_.empty();
}

void CaptureWriter::discard() {
  if (!file_) return;
  file_->discard();
  file_.reset();
}

}  // namespace rdmascope::packets_io
