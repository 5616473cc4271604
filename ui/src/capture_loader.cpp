#include "rdmascope/ui/capture_loader.h"

#include <filesystem>
#include <system_error>

#include "rdmascope/packets_io/capture_reader.h"

namespace rdmascope::ui {

LoadOutcome loadCaptureFile(const std::string& path, FrameStore& store,
                            const std::atomic<bool>* cancel, const LoadProgress& progress) {
  LoadOutcome out;
  std::string error;
  auto reader = packets_io::CaptureReader::open(path, error);
  if (!reader) {
    out.error = error;
    store.clear(packets::LinkType::Ethernet);
    return out;
  }
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  const std::uint64_t total = ec ? 0 : static_cast<std::uint64_t>(size);
  store.clear(reader->linkType());
  if (total) store.reserve(static_cast<std::size_t>(total / 128), static_cast<std::size_t>(total));
  packets_io::FrameView view;
  std::uint64_t done = 24;
  while (reader->next(view)) {
    store.append(view.data, view.timestampNs, view.originalLength);
    done += view.data.size() + 16;  // record header of classic pcap; near enough for pcapng
    if ((store.size() & 4095) == 0) {
      if (progress) progress(std::min(done, total), total);
      if (cancel && cancel->load(std::memory_order_relaxed)) {
        out.cancelled = true;
        break;
      }
    }
  }
  out.frames = store.size();
  if (!out.cancelled) out.error = reader->error();
  if (progress) progress(total, total);
  return out;
}

}  // namespace rdmascope::ui
