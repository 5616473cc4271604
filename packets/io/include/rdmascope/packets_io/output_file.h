#pragma once
/// @file output_file.h
/// Output files written in full or not at all, and the check that an output is not one of a
/// command's inputs.

#include <cstdio>
#include <memory>
#include <string>

namespace rdmascope::packets_io {

/// True when `a` and `b` both exist and are one file: the same device and inode, so symbolic
/// links, hard links and different spellings of one path compare equal.
bool isSameFile(const std::string& a, const std::string& b);

/// A file that replaces its destination only when complete. A new or regular destination is
/// written to a temporary file in its own directory and renamed over it by commit(): nobody
/// sees a half-written file, and a failed or abandoned write leaves an existing file as it was
/// (keeping its permissions when replaced). A symbolic link is followed: its target is
/// replaced and the link stays. A destination that exists and is not a regular file (a FIFO,
/// /dev/null, a terminal) is written in place.
class OutputFile {
 public:
  /// Creates the temporary file (or opens the special file) at once, so that an unwritable
  /// destination fails before any work is done. On failure returns null and sets a one-line
  /// `error`, e.g. "cannot create /x/y.pcap: No such file or directory".
  static std::unique_ptr<OutputFile> create(const std::string& path, std::string& error);
  /// A new file written in place as it goes, so that others can read it while it grows (a
  /// capture followed live). An existing path is refused ("... exists"), never overwritten;
  /// a FIFO or other special file is opened as create() opens it.
  static std::unique_ptr<OutputFile> createGrowing(const std::string& path, std::string& error);
  /// Discards the temporary file unless commit() succeeded.
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  /// The stream to write to (null after commit() or discard()).
  std::FILE* stream() const { return stream_; }
  /// Flushes the data to disk, closes the file and renames it over the destination. False, with
  /// error() set and the temporary file removed, when any of that failed.
  bool commit();
  /// Closes and removes the temporary file; the destination stays as it was.
  void discard();

  /// The destination as given to create().
  const std::string& path() const { return path_; }
  /// The first failure, as a one-line message naming path().
  const std::string& error() const { return error_; }

 private:
  OutputFile(std::string path, std::string target, std::string temp, std::FILE* stream)
      : path_(std::move(path)),
        target_(std::move(target)),
        temp_(std::move(temp)),
        stream_(stream) {}

  std::string path_;    ///< as given
  std::string target_;  ///< the file replaced: path_ with a symbolic link resolved
  std::string temp_;    ///< empty when writing in place
  std::FILE* stream_;
  std::string error_;
};

}  // namespace rdmascope::packets_io
