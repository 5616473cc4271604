// The files rdmascope-cli writes (sim --pcap, capture -w, lab run --out): never one of the
// inputs, checked before the work starts, and an existing file replaced only whole.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "../support/scratch_folder.h"
#include "cli_runner.h"
#include "rdmascope/packets_io/capture_reader.h"
#include "rdmascope/verbs_backend/scenario.h"

namespace rdmascope::cli::test {
namespace {

namespace fs = std::filesystem;

struct Folder : rdmascope::testing::ScratchFolder {
  Folder() : ScratchFolder("rdmascope_cli_out") {}
};

// A scenario file: the built-in rc-write as JSON.
std::string writeScenario(const Folder& d, const std::string& name) {
  const std::string p = d / name;
  std::ofstream(p) << verbs_backend::builtinScenarioJson("rc-write").dump(2);
  return p;
}

std::size_t framesIn(const std::string& pcap) {
  std::string error;
  auto r = packets_io::CaptureReader::open(pcap, error);
  if (!r) return 0;
  packets_io::CapturedFrame f;
  std::size_t n = 0;
  while (r->next(f))
    ++n;
  return n;
}

TEST(OutputFiles, SimRefusesToWriteItsScenarioFile) {
  Folder d;
  const std::string scenario = writeScenario(d, "run.json");
  const std::string original = readFile(scenario);
  fs::create_symlink(scenario, d / "link.pcap");
  fs::create_hard_link(scenario, d / "hard.pcap");
  const std::string respelled = (d.path / "." / ".." / d.path.filename() / "run.json").string();
  for (const std::string& out : {scenario, d / "link.pcap", d / "hard.pcap", respelled}) {
    const auto r = runCli({"sim", scenario, "--pcap", out});
    EXPECT_EQ(r.exitCode, 2) << out;
    EXPECT_EQ(r.out, "") << out;  // refused before the run
    EXPECT_EQ(r.err, "rdmascope-cli: refusing to write --pcap " + out + ": it is the input " +
                         scenario + (out == scenario ? "" : " (the same file)") + "\n");
    EXPECT_EQ(readFile(scenario), original);
  }
  EXPECT_EQ(d.names(), (std::vector<std::string>{"hard.pcap", "link.pcap", "run.json"}));
  // The same scenario file with another output runs.
  const auto r = runCli({"sim", scenario, "--trace", "none", "--pcap", d / "out.pcap"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_GT(framesIn(d / "out.pcap"), 0u);
}

TEST(OutputFiles, AnUnwritablePcapFailsBeforeTheRun) {
  Folder d;
  fs::create_directories(d / "folder.pcap");
  std::ofstream(d / "file") << "x";
  for (const std::string scenario : {"tour", "tcp-stream"}) {
    for (const std::string& out : {std::string("/nonexistent-dir/x.pcap"), d / "folder.pcap",
                                   d / "file/x.pcap", std::string("/proc/rdmascope-x.pcap")}) {
      const auto r = runCli({"sim", scenario, "--pcap", out});
      EXPECT_EQ(r.exitCode, 2) << scenario << " " << out;
      EXPECT_EQ(r.out, "") << "the run went ahead: " << scenario << " " << out;
      EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
      EXPECT_EQ(r.err.rfind("rdmascope-cli: --pcap: cannot create " + out + ": ", 0), 0u) << r.err;
    }
  }
  EXPECT_EQ(d.names(), (std::vector<std::string>{"file", "folder.pcap"}));
}

TEST(OutputFiles, AnExistingPcapIsReplacedWhole) {
  Folder d;
  const std::string out = d / "run.pcap";
  std::ofstream(out) << "an older file";
  ::chmod(out.c_str(), 0640);
  auto r = runCli({"sim", "rc-write", "--trace", "none", "--pcap", out});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::size_t frames = framesIn(out);
  EXPECT_GT(frames, 0u);
  struct stat st {};
  ASSERT_EQ(::stat(out.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  // Through a symbolic link the target is replaced and the link stays.
  fs::create_symlink(out, d / "link.pcap");
  r = runCli({"sim", "tcp-stream", "--pcap", d / "link.pcap"});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(d / "link.pcap"));
  EXPECT_NE(framesIn(out), frames);
  EXPECT_EQ(d.names(), (std::vector<std::string>{"link.pcap", "run.pcap"}));  // no leftovers
  // A special file is written in place.
  r = runCli({"sim", "rc-write", "--trace", "none", "--pcap", "/dev/null"});
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

TEST(OutputFiles, CaptureChecksItsFileBeforeCapturing) {
  Folder d;
  fs::create_directories(d / "folder.pcap");
  for (const std::string& out : {std::string("/nonexistent-dir/x.pcap"), d / "folder.pcap"}) {
    const auto r = runCli({"capture", "-i", "lo", "-c", "1", "-a", "1", "-w", out});
    EXPECT_EQ(r.exitCode, 2) << out;
    EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
    EXPECT_EQ(r.err.rfind("rdmascope-cli: -w: cannot create " + out + ": ", 0), 0u) << r.err;
  }
  EXPECT_EQ(d.names(), (std::vector<std::string>{"folder.pcap"}));
}

TEST(OutputFiles, LabRunChecksItsFolderBeforeBooting) {
  Folder d;
  std::ofstream(d / "file") << "x";
  auto r = runCli({"lab", "run", "rc-write", "--out", d / "file"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err, "rdmascope-cli: --out " + (d / "file") + ": not a folder\n");
  EXPECT_EQ(readFile(d / "file"), "x");
  r = runCli({"lab", "run", "rc-write", "--out", "/proc/rdmascope-lab"});
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("rdmascope-cli: --out: cannot ", 0), 0u) << r.err;
  EXPECT_EQ(r.out, "");
}

}  // namespace
}  // namespace rdmascope::cli::test
