#pragma once
// One host's half of a scenario on a real device: the steps of that host run on its Backend,
// the out-of-band exchange travels over TCP as in rc_pingpong, and a barrier at every change of
// acting host keeps the two processes in the scenario's order.

#include <functional>
#include <string>

#include "rdmascope/verbs_backend/backend.h"
#include "rdmascope/verbs_backend/oob_exchange.h"
#include "rdmascope/verbs_backend/scenario.h"

namespace rdmascope::cli {

struct SideRunResult {
  bool ok = true;
  std::string error;  ///< the first failing step
};

/// Runs host `side` (0 or 1) of `scenario` on `backend`, talking to the peer over `oob`.
/// `completion` receives each completion line (formatCompletion), `note` each step's text.
SideRunResult runScenarioSide(const verbs_backend::Scenario& scenario, int side,
                              verbs_backend::Backend& backend, verbs_backend::OobConnection& oob,
                              const std::function<void(const std::string&)>& completion,
                              const std::function<void(const std::string&)>& note);

}  // namespace rdmascope::cli
