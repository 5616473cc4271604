#pragma once
// `sim ceph-messenger` and `sim ceph-messenger-tcp`: Ceph's async messenger carrying messages
// from a client to an OSD over its RDMA and its POSIX (TCP) network stacks
// (sim/ceph_messenger.h), printed side by side; --pcap and --trace take the named stack's
// frames and steps.

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

namespace rdmascope::cli {

struct CephRunArgs {
  std::string scenario;  ///< "ceph-messenger" (the RDMA stack) or "ceph-messenger-tcp"
  std::string pcap;
  std::string trace = "text";
  bool traceGiven = false;
  std::optional<std::uint64_t> seed;
  std::string messageSize;  ///< --message-size (empty: the model's default)
  std::optional<std::uint32_t> messages;
  bool registered = false;
  bool analyze = false;
  bool json = false;
};

/// True for the names the Ceph messenger runs under.
bool isCephScenario(const std::string& name);
/// The --list lines of the Ceph messenger scenarios.
void listCephScenarios(std::ostream& out);
/// Runs both stacks and prints them; exit status as `sim`'s.
int runCephScenario(const CephRunArgs& args, std::ostream& out, std::ostream& err);

}  // namespace rdmascope::cli
