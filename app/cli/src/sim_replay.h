#pragma once
// A lossy capture against the simulator under the same loss pattern: the request
// transmissions the capture lost are inferred (analysis/loss_pattern.h), the scenario is
// replayed in the simulator with exactly those transmissions dropped (by sending host,
// relative PSN and occurrence), and the NAKs and resend runs of both are compared.

#include <ostream>
#include <string>

#include "rdmascope/verbs_backend/scenario.h"

namespace rdmascope::cli {

/// Prints both sides' figures and sequences side by side to `out`. Returns kExitOk when the
/// NAKs (relative PSN and syndrome) and the resend runs are the same, every inferred drop
/// happened in the simulator and the simulated scenario passed its own checks (completion
/// statuses and the data compared); kExitFailure otherwise, kExitUsage for bad input.
int compareCaptureWithSim(const std::string& capturePath, const verbs_backend::Scenario& scenario,
                          std::ostream& out, std::ostream& err);

}  // namespace rdmascope::cli
