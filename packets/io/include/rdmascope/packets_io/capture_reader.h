#pragma once
/// @file capture_reader.h
/// Reading pcap and pcapng capture files with nanosecond timestamps.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "rdmascope/packets/decode.h"

namespace rdmascope::packets_io {

/// One frame read from a capture, owning its bytes.
struct CapturedFrame {
  std::vector<std::uint8_t> data;    ///< the captured bytes (possibly cut at the snap length)
  std::uint32_t originalLength = 0;  ///< length on the wire
  std::int64_t timestampNs = 0;      ///< nanoseconds since 1970
};

/// One frame read without copying: `data` stays valid until the next call on the reader.
struct FrameView {
  std::span<const std::uint8_t> data;
  std::uint32_t originalLength = 0;
  std::int64_t timestampNs = 0;
};

/// How a reader walks the file.
enum class ReadMethod : std::uint8_t {
  Auto,     ///< classic pcap files read into a ring buffer; pcapng, standard input and FIFOs
            ///< parsed as a stream by the reader itself
  Libpcap,  ///< libpcap (pcap_next_ex) for regular files
};

/// Reads a pcap or pcapng capture frame by frame. Classic pcap files are read into a ring
/// buffer whose frames stay in place for the next 2 MiB read (see mayReadKeeping()). pcapng files,
/// standard input ("-") and FIFOs are read forward as a stream and parsed here: pcapng sections may
/// each have their own byte order and interfaces (as tshark reads them; libpcap refuses a change of
/// byte order), time stamps follow each interface's if_tsresol and if_tsoffset. Every frame must
/// have the first interface's link type. Errors are one line naming the file ("standard input" for
/// "-").
class CaptureReader {
 public:
  /// Opens a capture; "-" is standard input. On failure returns null and sets `error`, e.g.
  /// "cannot open x.pcap: No such file or directory" or "x is not a pcap or pcapng capture".
  static std::unique_ptr<CaptureReader> open(const std::string& path, std::string& error,
                                             ReadMethod method = ReadMethod::Auto);
  virtual ~CaptureReader() = default;

  /// The link type of the frames (pcap LINKTYPE_* numbering).
  packets::LinkType linkType() const { return linkType_; }
  /// The file's path as given to open().
  const std::string& path() const { return path_; }
  /// True when views outlive the next call (classic pcap files, ReadMethod::Auto): a view
  /// stays valid while mayReadKeeping() allows reading on. Other readers' views last only
  /// until the next call.
  bool keepsViews() const { return keptBytes_ > 0; }
  /// Where the next frame starts in the file: the mark to pass to mayReadKeeping() for the
  /// views of the frames read from here on.
  std::uint64_t position() const { return position_; }
  /// True when next() may be called and the views of every frame read since `mark` (an
  /// earlier position()) stay valid: the frames read since then hold fewer than the bytes the
  /// reader keeps (2 MiB, or the whole file when it is smaller). False when views are not kept.
  bool mayReadKeeping(std::uint64_t mark) const { return position_ - mark < keptBytes_; }
  /// The frames the capturing side reported lost (pcapng interface statistics, isb_ifdrop,
  /// summed over interfaces) among the blocks read so far; nullopt when the file reports none
  /// (classic pcap never does). Complete once next() returned false.
  virtual std::optional<std::uint64_t> dropsReported() const { return std::nullopt; }

  /// Reads the next frame, copying its bytes. False at the end of the file or on an error;
  /// error() is then non-empty for an error ("x.pcap: truncated record at frame 7 (...)").
  bool next(CapturedFrame& frame);
  /// Reads the next frame without copying; the view is valid until the next call.
  virtual bool next(FrameView& frame) = 0;

  /// Empty, or the reason the last next() returned false before the end of the file.
  const std::string& error() const { return error_; }
  /// Number of frames returned so far.
  std::uint64_t framesRead() const { return framesRead_; }

 protected:
  CaptureReader(std::string path, packets::LinkType link)
      : path_(std::move(path)), linkType_(link) {}
  void fail(std::string message) { error_ = std::move(message); }
  std::uint64_t framesRead_ = 0;
  std::uint64_t position_ = 0;   ///< kept up to date by readers whose views outlive next()
  std::uint64_t keptBytes_ = 0;  ///< see mayReadKeeping(); 0 for readers that keep no view

 private:
  std::string path_;
  packets::LinkType linkType_;
  std::string error_;
};

}  // namespace rdmascope::packets_io
