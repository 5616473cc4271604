#include "rdmascope/ui/capture_saver.h"

#include <cstdio>
#include <filesystem>
#include <system_error>

#include "rdmascope/packets_io/capture_writer.h"

namespace rdmascope::ui {

bool saveCaptureFile(const FrameStore& store, const std::string& path, std::string& error) {
  if (store.empty()) {
    error = "nothing to save to " + path + ": there are no frames";
    return false;
  }
  const bool pcapng = path.size() >= 7 && path.compare(path.size() - 7, 7, ".pcapng") == 0;
  const std::string partial = path + ".partial";
  auto writer = packets_io::CaptureWriter::open(
      partial, store.linkType(), error,
      pcapng ? packets_io::CaptureFormat::Pcapng : packets_io::CaptureFormat::Pcap);
  if (!writer) {
    error = "cannot save " + path + ": " + error;
    return false;
  }
  bool ok = true;
  for (std::size_t i = 0; i < store.size() && ok; ++i) {
    const FrameRecord& r = store.record(i);
    ok = writer->write(store.bytes(i), r.timestampNs, r.originalLength);
  }
  ok = writer->close() && ok;
  std::error_code ec;
  if (!ok) {
    error = "cannot save " + path + ": " + writer->error();
    std::filesystem::remove(partial, ec);
    return false;
  }
  std::filesystem::rename(partial, path, ec);
  if (ec) {
    error = "cannot save " + path + ": " + ec.message();
    std::filesystem::remove(partial, ec);
    return false;
  }
  return true;
}

}  // namespace rdmascope::ui
