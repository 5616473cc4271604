#pragma once
/// @file capture_writer.h
/// Writing capture files (pcap with nanosecond timestamps, or pcapng) that Wireshark opens.

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
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

/// What a pcapng file says about the interface it captured on (pcap files have no place for
/// it): if_name, if_description and a comment (e.g. where the timestamps come from).
struct CaptureInterface {
  std::string name;
  std::string description;
  std::string comment;
};

/// The end-of-capture counters a pcapng file records in an interface statistics block.
struct CaptureStatistics {
  std::int64_t endNs = 0;                ///< when the capture ended (Unix ns)
  std::uint64_t received = 0;            ///< isb_ifrecv: frames the capture received
  std::optional<std::uint64_t> dropped;  ///< isb_ifdrop: frames lost to the capture, if known
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
                                             std::uint32_t snapLength = 262144,
                                             const CaptureInterface& itf = {});
  /// Starts the capture in a file already created, e.g. before the link type was known (an
  /// output checked before the work that produces its frames). Null with `error` on failure.
  static std::unique_ptr<CaptureWriter> open(std::unique_ptr<OutputFile> file,
                                             packets::LinkType link, std::string& error,
                                             CaptureFormat format = CaptureFormat::Pcap,
                                             std::uint32_t snapLength = 262144,
                                             const CaptureInterface& itf = {});
  ~CaptureWriter();
  CaptureWriter(const CaptureWriter&) = delete;
  CaptureWriter& operator=(const CaptureWriter&) = delete;

  /// Appends a frame; bytes beyond the snap length are cut (originalLength keeps the wire
  /// length; 0 means the captured length). False on a write error (see error()).
  bool write(std::span<const std::uint8_t> bytes, std::int64_t timestampNs,
             std::uint32_t originalLength = 0);
  /// pcapng: appends an interface statistics block (isb_ifrecv, isb_ifdrop when known, the
  /// end time). pcap: nothing (true). False on a write error.
  bool writeStatistics(const CaptureStatistics& stats);
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
