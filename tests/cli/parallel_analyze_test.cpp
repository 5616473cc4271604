// `rdmascope-cli analyze` reads the capture and the facts of its RoCE and InfiniBand frames on
// a second thread ahead of the analysis (parallel_analyze.cpp); `--threads 1` reads and analyses
// in one. Both must print the same report, text and JSON, byte for byte: on every capture of
// the repository and on a capture of many batches that mixes RoCE traffic with losses, iWARP
// conversations (the stateful path), PFC and PAUSE frames and corrupted frames in every batch.
#include <gtest/gtest.h>

#include <cstdio>

#include "../support/corrupted_frames.h"
#include "../support/iwarp_frames.h"
#include "../support/large_capture.h"
#include "../support/repository_captures.h"
#include "cli_runner.h"
#include "rdmascope/packets/mac_control.h"
#include "rdmascope/packets_io/capture_reader.h"
#include "rdmascope/packets_io/capture_writer.h"

namespace rdmascope::cli::test {
namespace {

using Frames = std::vector<std::vector<std::uint8_t>>;

void expectSameReports(const std::string& capture) {
  for (const bool json : {false, true}) {
    std::vector<std::string> args = {"analyze", capture};
    if (json) args.push_back("--json");
    const RunResult parallel = runCli(args);
    args.insert(args.end(), {"--threads", "1"});
    const RunResult single = runCli(args);
    const std::string what = capture + (json ? " --json" : "");
    EXPECT_EQ(parallel.exitCode, single.exitCode) << what;
    EXPECT_EQ(parallel.err, single.err) << what;
    EXPECT_TRUE(parallel.out == single.out) << what << ": the threads report otherwise";
    EXPECT_FALSE(single.out.empty()) << what;
  }
}

TEST(ParallelAnalyze, EveryRepositoryCaptureReportsAsInOneThread) {
  const auto captures = ::rdmascope::test::repositoryCaptures();
  ASSERT_GE(captures.size(), 30u);
  for (const auto& c : captures)
    expectSameReports(c);
}

// About eight batches of the reading thread (2048 frames each): the Ethernet frames of the
// repository's captures (RoCE under loss, CM, ...) with iWARP conversations, corrupted frames,
// PFC, XON and PAUSE frames among them.
Frames mixedFrames() {
  const Frames roce = ::rdmascope::test::repositoryEthernetFrames();
  Frames iwarp;
  for (const char* scenario : {"iwarp-read", "iwarp-write"}) {
    const Frames frames = ::rdmascope::test::iwarpFrames(scenario, 30000, 0.05, 11);
    iwarp.insert(iwarp.end(), frames.begin(), frames.end());
  }
  EXPECT_FALSE(roce.empty());
  EXPECT_FALSE(iwarp.empty());
  if (roce.empty() || iwarp.empty()) return {};
  const Frames corrupted = ::rdmascope::test::corruptedFrames(
      Frames(roce.begin(), roce.begin() + std::min<std::ptrdiff_t>(40, std::ssize(roce))));
  packets::PfcPause pause;
  pause.enableVector = 0x08;
  pause.quanta[3] = 0xffff;
  const auto pfc = packets::buildPfcFrame({0x52, 0x54, 0, 0x12, 0x34, 0x56}, pause);
  const auto xon = packets::buildPfcFrame({0x52, 0x54, 0, 0x12, 0x34, 0x56}, {0x08, {}});
  const auto link = packets::buildPauseFrame({0x52, 0x54, 0, 0x12, 0x34, 0x57}, 100);

  Frames frames;
  for (std::size_t i = 0, j = 0, k = 0; frames.size() < 17000; ++i) {
    frames.push_back(roce[i % roce.size()]);
    if (i % 4 == 0) frames.push_back(iwarp[j++ % iwarp.size()]);
    if (i % 97 == 0) frames.push_back(corrupted[k++ % corrupted.size()]);
    if (i % 500 == 0) frames.push_back(pfc);
    if (i % 500 == 3) frames.push_back(xon);
    if (i % 1500 == 7) frames.push_back(link);
  }
  return frames;
}

TEST(ParallelAnalyze, ManyBatchesOfRoceIwarpPfcAndCorruptedFramesReportAsInOneThread) {
  const Frames frames = mixedFrames();
  ASSERT_FALSE(frames.empty());
  const std::string path = tempPath("parallel_analyze.pcap");
  {
    std::string error;
    auto w = packets_io::CaptureWriter::open(path, packets::LinkType::Ethernet, error);
    ASSERT_TRUE(w) << error;
    std::int64_t t = 1'700'000'000'000'000'000;
    for (const auto& f : frames)
      w->write(f, t += 2'345);
    w->close();
  }
  expectSameReports(path);
  // The report is not vacuous: it follows connections, finds anomalies and pauses.
  const RunResult r = runCli({"analyze", path});
  EXPECT_NE(r.out.find("PFC"), std::string::npos);
  EXPECT_NE(r.out.find("iWARP"), std::string::npos);
  std::remove(path.c_str());
}

// Larger than the reader's ring: the reading thread ends batches early and waits for the
// analysis to give them back, so that no frame it holds is overwritten.
TEST(ParallelAnalyze, ACaptureLargerThanTheReadersRingReportsAsInOneThread) {
  const std::string path = tempPath("parallel_analyze_large.pcap");
  ASSERT_EQ(::rdmascope::test::writeCaptureLargerThanTheRing(path, mixedFrames(), 40), "");
  expectSameReports(path);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace rdmascope::cli::test
