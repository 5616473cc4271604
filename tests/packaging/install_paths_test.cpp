// Where the programs find their files: an installed prefix (bin/, share/rdmascope,
// lib/rdmascope/simdev) and a build tree (app/cli two below the build folder), laid out in a
// scratch folder; the examples' index; the --version line.
#include "rdmascope/install/install_paths.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "../support/scratch_folder.h"

namespace rdmascope::install {
namespace {

namespace fs = std::filesystem;

void touch(const fs::path& p, const std::string& text = {}) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

TEST(InstallPaths, AnInstalledPrefixIsFoundFromItsBinFolder) {
  testing::ScratchFolder tmp("install_paths");
  const fs::path prefix = tmp.path / "opt";
  touch(prefix / "bin" / "rdmascope-cli");
  touch(prefix / "share/rdmascope/lab/run-pair.sh");
  touch(prefix / "lib/rdmascope/simdev/libibverbs.so.1");
  EXPECT_EQ(findDataFile("lab/run-pair.sh", prefix / "bin"),
            fs::canonical(prefix / "share/rdmascope/lab/run-pair.sh"));
  EXPECT_EQ(findSimdevLibDir(prefix / "bin"), fs::canonical(prefix / "lib/rdmascope/simdev"));
  EXPECT_EQ(findDataFile("examples/index.tsv", prefix / "bin"), std::nullopt);
  EXPECT_EQ(findSimdevLibDir(tmp.path / "elsewhere/bin"), std::nullopt);
}

TEST(InstallPaths, ABuildTreeIsFoundFromAProgramTwoFoldersDown) {
  testing::ScratchFolder tmp("install_paths");
  const fs::path build = tmp.path / "build";
  touch(build / "share/rdmascope/lab/run-pair.sh");
  touch(build / "simdev/lib/libibverbs.so.1");
  for (const char* program : {"app/cli", "app/gui", "tests/ui"}) {
    fs::create_directories(build / program);
    EXPECT_EQ(findDataFile("lab/run-pair.sh", build / program),
              fs::canonical(build / "share/rdmascope/lab/run-pair.sh"))
        << program;
    EXPECT_EQ(findSimdevLibDir(build / program), fs::canonical(build / "simdev/lib")) << program;
  }
  // The installed layout comes first: a prefix inside a build folder finds its own files.
  touch(build / "app/share/rdmascope/lab/run-pair.sh");
  EXPECT_EQ(findDataFile("lab/run-pair.sh", build / "app/cli"),
            fs::canonical(build / "app/share/rdmascope/lab/run-pair.sh"));
  const auto candidates = dataDirCandidates(build / "app/cli");
  ASSERT_EQ(candidates.size(), 2u);
  EXPECT_EQ(candidates[0].lexically_normal(), (build / "app/share/rdmascope").lexically_normal());
  EXPECT_EQ(candidates[1].lexically_normal(), (build / "share/rdmascope").lexically_normal());
}

TEST(InstallPaths, TheExampleIndexListsTheCapturesThatExistInItsOrder) {
  testing::ScratchFolder tmp("install_paths");
  const fs::path examples = tmp.path / "share/rdmascope/examples";
  touch(examples / "b.pcap");
  touch(examples / "a.pcap");
  touch(examples / "index.tsv",
        "# FILE<TAB>TEXT\n"
        "b.pcap\tB: the second\n"
        "missing.pcap\tnot installed\n"
        "no tab here\n"
        "\n"
        "a.pcap\tA: with\ttabs\n");
  fs::create_directories(tmp.path / "bin");
  const auto list = exampleCaptures(tmp.path / "bin");
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].path.filename(), "b.pcap");
  EXPECT_EQ(list[0].description, "B: the second");
  EXPECT_EQ(list[1].path, fs::canonical(examples) / "a.pcap");
  EXPECT_EQ(list[1].description, "A: with\ttabs");
  EXPECT_TRUE(exampleCaptures(tmp.path / "nowhere/bin").empty());
}

TEST(InstallPaths, TheVersionLineNamesTheVersionAndTheCommit) {
  EXPECT_TRUE(std::regex_match(version(), std::regex(R"(\d+\.\d+\.\d+)"))) << version();
  EXPECT_TRUE(std::regex_match(commit(), std::regex(R"([0-9a-f]{12}|unknown)"))) << commit();
  EXPECT_EQ(versionLine("rdmascope-cli"),
            std::string("rdmascope-cli ") + version() + " (commit " + commit() + ")");
  EXPECT_FALSE(programDir().empty());
}

}  // namespace
}  // namespace rdmascope::install
