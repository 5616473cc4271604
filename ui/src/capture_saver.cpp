#include "rdmascope/ui/capture_saver.h"

#include "rdmascope/packets_io/capture_writer.h"

namespace rdmascope::ui {

bool saveCaptureFile(const FrameStore& store, const std::string& path, std::string& error) {
  if (store.empty()) {
    error = "nothing to save to " + path + ": there are no frames";
    return false;
  }
  const bool pcapng = path.size() >= 7 && path.compare(path.size() - 7, 7, ".pcapng") == 0;
  // The writer replaces an existing file only with a complete capture (packets_io::OutputFile).
  auto writer = packets_io::CaptureWriter::open(
      path, store.linkType(), error,
      pcapng ? packets_io::CaptureFormat::Pcapng : packets_io::CaptureFormat::Pcap);
  if (!writer) {
    error = "cannot save " + path + ": " + error;
    return false;
  }
  for (std::size_t i = 0; i < store.size(); ++i) {
    const FrameRecord& r = store.record(i);
    if (!writer->write(store.bytes(i), r.timestampNs, r.originalLength)) break;
  }
  if (!writer->close()) {
    error = "cannot save " + path + ": " + writer->error();
    return false;
  }
  return true;
}

}  // namespace rdmascope::ui
