#include "rdmascope/sim/sim_time.h"

#include <fmt/format.h>

namespace rdmascope::sim {

std::string SimTime::toString() const {
  return fmt::format("{:.6f} us", static_cast<double>(ps_) / 1e6);
}

}  // namespace rdmascope::sim
