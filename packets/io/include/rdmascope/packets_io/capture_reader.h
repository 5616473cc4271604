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
  Auto,     ///< classic pcap through a memory map; pcapng, standard input and FIFOs parsed
            ///< as a stream by the reader itself
  Libpcap,  ///< libpcap (pcap_next_ex) for regular files
};

/// Reads a pcap or pcapng capture frame by frame. Classic pcap files are memory-mapped and
/// walked without copying. pcapng files, standard input ("-") and FIFOs are read forward as a
/// stream and parsed here: pcapng sections may each have their own byte order and interfaces
/// (as tshark reads them; libpcap refuses a change of byte order), time stamps follow each
/// interface's if_tsresol and if_tsoffset. Every frame must have the first interface's link
/// type. Errors are one line naming the file ("standard input" for "-").
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
  /// True when the file is walked through a memory map (classic pcap, ReadMethod::Auto).
  virtual bool memoryMapped() const = 0;
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

 private:
  std::string path_;
  packets::LinkType linkType_;
  std::string error_;
};

}  // namespace rdmascope::packets_io
