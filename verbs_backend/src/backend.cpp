#include "rdmascope/verbs_backend/backend.h"

#include <cerrno>
#include <thread>

namespace rdmascope::verbs_backend {

Status Backend::letTimePass(std::chrono::microseconds duration, const std::atomic<bool>* stop) {
  using Clock = std::chrono::steady_clock;
  const auto end = Clock::now() + duration;
  for (auto now = Clock::now(); now < end; now = Clock::now()) {
    if (stop != nullptr && stop->load())
      return Status::error(ECANCELED, "cancelled while letting time pass");
    std::this_thread::sleep_for(
        std::min<Clock::duration>(end - now, std::chrono::milliseconds(100)));
  }
  return {};
}

}  // namespace rdmascope::verbs_backend
