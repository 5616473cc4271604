#pragma once
/// @file capture_writer.h
/// Writing capture files (pcap with nanosecond timestamps, or pcapng) that Wireshark opens.

#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <string>

#include "rdmascope/packets/decode.h"

namespace rdmascope::packets_io {

/// The file format a writer produces.
enum class CaptureFormat : std::uint8_t {
  Pcap,    ///< classic pcap, nanosecond magic 0xa1b23c4d
  Pcapng,  ///< one section, one interface, enhanced packet blocks (if_tsresol 9)
};

/// Writes frames of one link type to a capture file.
class CaptureWriter {
 public:
  /// Creates (truncates) the file. On failure returns null and sets a one-line `error`, e.g.
  /// "cannot create /x/y.pcap: No such file or directory".
  static std::unique_ptr<CaptureWriter> open(const std::string& path, packets::LinkType link,
                                             std::string& error,
                                             CaptureFormat format = CaptureFormat::Pcap,
                                             std::uint32_t snapLength = 262144);
  ~CaptureWriter();
  CaptureWriter(const CaptureWriter&) = delete;
  CaptureWriter& operator=(const CaptureWriter&) = delete;

  /// Appends a frame; bytes beyond the snap length are cut (originalLength keeps the wire
  /// length; 0 means the captured length). False on a write error (see error()).
  bool write(std::span<const std::uint8_t> bytes, std::int64_t timestampNs,
             std::uint32_t originalLength = 0);
  /// Flushes buffered frames to the file.
  bool flush();
  /// Flushes and closes; false when a write failed. Called by the destructor.
  bool close();

  const std::string& error() const { return error_; }
  std::uint64_t framesWritten() const { return frames_; }

 private:
  CaptureWriter(std::string path, std::FILE* file, CaptureFormat format, std::uint32_t snap)
      : path_(std::move(path)), file_(file), format_(format), snap_(snap) {}
  bool put(const void* data, std::size_t size);

  std::string path_;
  std::FILE* file_;
  CaptureFormat format_;
  std::uint32_t snap_;
  std::uint64_t frames_ = 0;
  std::string error_;
};

}  // namespace rdmascope::packets_io
