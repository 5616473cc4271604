#pragma once
/// @file capture_writer.h
/// Writing capture files (pcap with nanosecond timestamps, or pcapng) that Wireshark opens.

#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <string>

#include "rdmascope/packets/decode.h"
#include "rdmascope/packets_io/output_file.h"

namespace rdmascope::packets_io {

/// The file format a writer produces.
enum class CaptureFormat : std::uint8_t {
  Pcap,    ///< classic pcap, nanosecond magic 0xa1b23c4d
  Pcapng,  ///< one section, one interface, enhanced packet blocks (if_tsresol 9)
};

/// Writes frames of one link type to a capture file, through an OutputFile: an existing file
/// at the path is replaced only by a complete capture, when close() succeeds.
class CaptureWriter {
 public:
  /// Starts the file (in a temporary file beside it; see OutputFile). On failure returns null
  /// and sets a one-line `error`, e.g. "cannot create /x/y.pcap: No such file or directory".
  static std::unique_ptr<CaptureWriter> open(const std::string& path, packets::LinkType link,
                                             std::string& error,
                                             CaptureFormat format = CaptureFormat::Pcap,
                                             std::uint32_t snapLength = 262144);
  /// Starts the capture in a file already created, e.g. before the link type was known (an
  /// output checked before the work that produces its frames). Null with `error` on failure.
  static std::unique_ptr<CaptureWriter> open(std::unique_ptr<OutputFile> file,
                                             packets::LinkType link, std::string& error,
                                             CaptureFormat format = CaptureFormat::Pcap,
                                             std::uint32_t snapLength = 262144);
  ~CaptureWriter();
  CaptureWriter(const CaptureWriter&) = delete;
  CaptureWriter& operator=(const CaptureWriter&) = delete;

  /// Appends a frame; bytes beyond the snap length are cut (originalLength keeps the wire
  /// length; 0 means the captured length). False on a write error (see error()).
  bool write(std::span<const std::uint8_t> bytes, std::int64_t timestampNs,
             std::uint32_t originalLength = 0);
  /// Flushes buffered frames to the (temporary) file.
  bool flush();
  /// Completes the file and puts it in place; false when a write failed, and then the
  /// destination is left as it was. Called by the destructor.
  bool close();
  /// Abandons the file: nothing is written to the destination, which stays as it was.
  void discard();

  const std::string& error() const { return error_; }
  std::uint64_t framesWritten() const { return frames_; }

 private:
  CaptureWriter(std::unique_ptr<OutputFile> file, CaptureFormat format, std::uint32_t snap)
      : file_(std::move(file)), format_(format), snap_(snap) {}
  bool put(const void* data, std::size_t size);

  std::unique_ptr<OutputFile> file_;  ///< null once closed
  CaptureFormat format_;
  std::uint32_t snap_;
  std::uint64_t frames_ = 0;
  std::string error_;
};

}  // namespace rdmascope::packets_io
