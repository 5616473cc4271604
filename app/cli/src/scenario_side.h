#pragma once
// One host's half of a scenario on a real device: the steps of that host run on its Backend,
// the out-of-band exchange travels over TCP as in rc_pingpong (or, with a CmLink, in the
// rdma_cm's REQ/REP), and a barrier over the TCP connection at every change of acting host keeps
// the two processes in the scenario's order.

#include <functional>
#include <string>

#include "rdmascope/verbs_backend/backend.h"
#include "rdmascope/verbs_backend/ibv_cm_connection.h"
#include "rdmascope/verbs_backend/oob_exchange.h"
#include "rdmascope/verbs_backend/scenario.h"

namespace rdmascope::cli {

struct SideRunResult {
  bool ok = true;
  std::string error;  ///< the first failing step
};

/// The rdma_cm in place of the exchange (verbs --cm). Host 1 is the active side: right after
/// setup it sends the REQ, carrying what host 1 publishes; host 0 received that REQ before its
/// setup (the REQ picks its device), and answers with the REP at its QP's RTR step, carrying
/// what host 0 publishes; host 1 sends the RTU at its QP's RTR->RTS step. Every INIT/RTR/RTS
/// step of the connected QP takes the attributes of rdma_init_qp_attr, with the scenario's own
/// values where it gives them (the peer's QPN, PSN and address always come from the CM).
/// The CM connects one RC QP per host (RDMA_PS_TCP).
struct CmLink {
  verbs_backend::CmConnection& cm;
  std::vector<std::uint8_t> requestPrivateData;  ///< host 0: the REQ's
};

/// Runs host `side` (0 or 1) of `scenario` on `backend`, talking to the peer over `oob`
/// (and the rdma_cm when `cm` is given). `completion` receives each completion line
/// (formatCompletion), `note` each step's text.
SideRunResult runScenarioSide(const verbs_backend::Scenario& scenario, int side,
                              verbs_backend::Backend& backend, verbs_backend::OobConnection& oob,
                              const std::function<void(const std::string&)>& completion,
                              const std::function<void(const std::string&)>& note,
                              CmLink* cm = nullptr);

}  // namespace rdmascope::cli
