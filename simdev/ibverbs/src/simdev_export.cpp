// The one non-verbs symbol of the drop-in libibverbs.so.1: the process's NIC for the drop-in
// librdmacm.so.1, which needs the same simulated host (its GSI, QP 1) as the QPs it connects.
// Each library links the simulator, so each would otherwise attach a NIC of its own.
#include "context.h"

extern "C" __attribute__((visibility("default"))) rdmascope::simdev::Nic* rdmascope_simdev_nic(
    std::string* error) {
  rdmascope::simdev::Nic* n = rdmascope::ibverbs::nic();
  if (n == nullptr && error != nullptr) *error = "the simulated NIC did not attach (see above)";
  return n;
}
