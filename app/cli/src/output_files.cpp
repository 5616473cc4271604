#include "output_files.h"

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "output_options.h"

namespace rdmascope::cli {

std::unique_ptr<packets_io::OutputFile> createOutput(std::string_view option,
                                                     const std::string& path,
                                                     const std::vector<std::string>& inputs,
                                                     std::ostream& err) {
  for (const auto& input : inputs) {
    if (packets_io::isSameFile(path, input)) {
      reportError(err, "refusing to write " + std::string(option) + " " + path +
                           ": it is the input " + input +
                           (path == input ? "" : " (the same file)"));
      return nullptr;
    }
  }
  std::string error;
  auto file = packets_io::OutputFile::create(path, error);
  if (!file) reportError(err, std::string(option) + ": " + error);
  return file;
}

std::unique_ptr<packets_io::CaptureWriter> startCapture(
    std::unique_ptr<packets_io::OutputFile> file, packets::LinkType link, std::ostream& err,
    const packets_io::CaptureInterface& itf) {
  std::string error;
  const std::string path = file ? file->path() : std::string();
  const bool ng = path.size() > 7 && path.compare(path.size() - 7, 7, ".pcapng") == 0;
  auto writer = packets_io::CaptureWriter::open(
      std::move(file), link, error,
      ng ? packets_io::CaptureFormat::Pcapng : packets_io::CaptureFormat::Pcap, 262144, itf);
  if (!writer) reportError(err, error);
  return writer;
}

bool writeTextFile(const std::string& path, const std::string& text, std::ostream& err) {
  std::string error;
  auto file = packets_io::OutputFile::create(path, error);
  if (!file) {
    reportError(err, error);
    return false;
  }
  if (std::fwrite(text.data(), 1, text.size(), file->stream()) != text.size()) {
    reportError(err, "cannot write " + path + ": " + std::strerror(errno));
    return false;
  }
  if (!file->commit()) {
    reportError(err, file->error());
    return false;
  }
  return true;
}

bool prepareOutputFolder(std::string_view option, const std::string& dir, std::ostream& err) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto status = fs::status(dir, ec);
  if (fs::exists(status) && !fs::is_directory(status)) {
    reportError(err, std::string(option) + " " + dir + ": not a folder");
    return false;
  }
  if (!fs::exists(status) && !fs::create_directories(dir, ec) && ec) {
    reportError(err, std::string(option) + ": cannot create " + dir + ": " + ec.message());
    return false;
  }
  // A file created and removed again: the one test that holds for root and read-only mounts.
  std::string error;
  if (!packets_io::OutputFile::create((fs::path(dir) / ".rdmascope-cli-write-test").string(),
                                      error)) {
    reportError(err, std::string(option) + ": cannot write in " + dir + ": " +
                         error.substr(error.rfind(": ") + 2));
    return false;
  }
  return true;
}

}  // namespace rdmascope::cli
