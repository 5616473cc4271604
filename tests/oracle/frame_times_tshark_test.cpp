// frame.time (the arrival time in the local time zone), frame.time_delta and frame.protocols
// against tshark on every capture of the repository, in time zones east and west of UTC: both
// read the same TZ, so the dates, the zone names and the chains of protocols must agree.
// (roce_tshark_test compares them on every carrier of generated frames in the test's own zone.)

#include <gtest/gtest.h>

#include <string>

#include "../support/repository_captures.h"
#include "tshark_runner.h"

namespace rdmascope::testing {
namespace {

// tshark reads TCP payloads and UDP ports rdmascope does not decode (DNS, TLS, Echo, ARP in
// the mixed network capture): its chains of protocols name them, rdmascope's end in data.
bool decodesEveryLayerTsharkDoes(const std::string& capture) {
  return !capture.ends_with("net-mixed.pcap") && !capture.ends_with(".erf");
}

TEST(FrameTimesTshark, ArrivalTimeDeltaAndProtocolsAgreeInEveryTimeZone) {
  RDMASCOPE_NEED_ORACLES(Tshark, Cli);
  std::size_t captures = 0;
  for (const char* zone : {"UTC", "Asia/Shanghai", "America/New_York"}) {
    std::size_t inZone = 0;
    for (const auto& capture : ::rdmascope::test::repositoryCaptures()) {
      if (!decodesEveryLayerTsharkDoes(capture)) continue;
      // Every capture in UTC; in the other zones the first few (tshark starts slowly).
      if (std::string(zone) != "UTC" && ++inZone > 4) break;
      const std::string fields =
          " -T fields -e frame.number -e frame.time -e frame.time_delta -e frame.protocols";
      const std::string env = std::string("TZ=") + zone + " ";
      const auto ours = runCommandStatus(env + cliCommand() + " decode '" + capture + "'" + fields);
      const auto theirs =
          runCommandStatus(env + tsharkCommand() + " -r '" + capture + "'" + fields);
      ASSERT_EQ(theirs.exitCode, 0) << capture;
      ASSERT_EQ(ours.exitCode, 0) << capture;
      ASSERT_FALSE(ours.out.empty()) << capture;
      EXPECT_EQ(ours.out, theirs.out) << capture << " in " << zone;
      ++captures;
    }
  }
  EXPECT_GE(captures, 38u);
}

}  // namespace
}  // namespace rdmascope::testing
