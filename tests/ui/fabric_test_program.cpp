// A program for fabric_session_test: attaches to the fabric named by RDMASCOPE_FABRIC as host
// RDMASCOPE_HOST with the simulated NIC (each step a named verbs call, as the drop-in
// libibverbs makes them) and plays one side of a 16 KiB RDMA WRITE. Spawned, not forked, so
// that it starts clean of the test's threads.
//
//   fabric_test_program target TO_WRITER_FD QUIT_FD   host 1: the buffer written into
//   fabric_test_program writer FROM_TARGET_FD GO_FD    host 2: the writer
// Exit status 0 when its side worked.
#include <chrono>
#include <cstdlib>
#include <string>

#include "../support/fabric_write_sides.h"

int main(int argc, char** argv) {
  if (argc != 4) return 2;
  const std::string role = argv[1];
  const int a = std::atoi(argv[2]);
  const int b = std::atoi(argv[3]);
  rdmascope::testing::WriteSideOptions options;
  options.bytes = 16384;  // 16 WRITE packets of 1024 bytes
  options.namedCalls = true;
  options.wait = std::chrono::seconds(60);
  if (role == "target") return rdmascope::testing::writeTarget(options, a, b);
  if (role == "writer") return rdmascope::testing::writeWriter(options, a, b);
  return 2;
}
