// `rdmascope-cli lab compare-sim` on lossy captures recorded in the Soft-RoCE lab (no qemu):
// the drops inferred from the capture, replayed in the simulator, give the same NAKs and
// resends; a capture of other traffic is told apart; bad input is a one-line error.
#include <gtest/gtest.h>

#include "cli_runner.h"

namespace rdmascope::cli {
namespace {

using test::runCli;

std::string capture(const std::string& name) {
  return std::string(RDMASCOPE_SOURCE_DIR) + "/tests/lab/captures/" + name;
}

TEST(LabCompareSim, StoredLossyRunHasTheSimulatorsNakAndResendPattern) {
  const auto r =
      runCli({"lab", "compare-sim", capture("rxe_rc_lossy_stream.pcap"), "rc-lossy-stream"});
  EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("same NAK and resend pattern"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("NAKs: lab | simulator (same)"), std::string::npos);
  EXPECT_NE(r.out.find("lost +20 (2nd transmission"), std::string::npos) << r.out;
}

TEST(LabCompareSim, TimerRaceIsCountedFromTheNakedPsn) {
  const auto r = runCli(
      {"lab", "compare-sim", capture("rxe_rc_lossy_stream_timer_race.pcap"), "rc-lossy-stream"});
  EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("began at +0, before the NAKed +1"), std::string::npos) << r.out;
}

TEST(LabCompareSim, TransmissionsANakMayHaveCutFromABurstAreFlagged) {
  // netem counted 9 drops in this run; the capture shows 11, two of which (+21, +22) were
  // never sent: the NAK for +19 reached the requester mid-burst.
  const auto r = runCli(
      {"lab", "compare-sim", capture("rxe_rc_lossy_stream_nak_cut.pcap"), "rc-lossy-stream"});
  EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("drops                                11          11  (2 may never have "
                       "been sent: a NAK reached the requester mid-burst)"),
            std::string::npos)
      << r.out;
}

TEST(LabCompareSim, AMessageLostWholeIsInferredAndFlagged) {
  // netem counted 31 drops: four are the WRITE +19..+22, whose first capture is the timer's
  // resend; the capture alone cannot rule out the application posting it that late.
  const auto r = runCli(
      {"lab", "compare-sim", capture("rxe_rc_lossy_stream_whole_message.pcap"), "rc-lossy-stream"});
  EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("drops                                31          31  (6 may never have "
                       "been sent: 2 a NAK reached the requester mid-burst, 4 the application "
                       "may have posted a message a timeout late)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("lost +19 (1st transmission, seen before frame 41): a whole message lost"),
            std::string::npos)
      << r.out;
}

TEST(LabCompareSim, OtherTrafficIsNotTheScenarios) {
  const auto r = runCli({"lab", "compare-sim", capture("rxe_atomic_lat.pcap"), "rc-lossy-stream"});
  EXPECT_EQ(r.exitCode, 1) << r.out;
  EXPECT_NE(r.out.find("are not the scenario's"), std::string::npos) << r.out;
}

TEST(LabCompareSim, BadInputIsAOneLineError) {
  auto r = runCli({"lab", "compare-sim", "/nonexistent.pcap", "rc-lossy-stream"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("/nonexistent.pcap"), std::string::npos) << r.err;
  r = runCli({"lab", "compare-sim", capture("rxe_rc_lossy_stream.pcap"), "no-such-scenario"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("no-such-scenario"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace rdmascope::cli
