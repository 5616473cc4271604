// Built only when packets_io (libpcap) is absent from this build.
#include "rdmascope/ui/capture_loader.h"

namespace rdmascope::ui {

LoadOutcome loadCaptureFile(const std::string& path, FrameStore& store, const std::atomic<bool>*,
                            const LoadProgress&) {
  store.clear(packets::LinkType::Ethernet);
  LoadOutcome out;
  out.error = "cannot open " + path + ": this build has no capture file support (packets_io)";
  return out;
}

}  // namespace rdmascope::ui
