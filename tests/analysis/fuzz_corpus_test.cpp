// Replays the analysis fuzzer's seed corpus and saved crash inputs
// (tests/fuzz/corpus/fuzz_analyze/) through the fuzz harness in every build.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#define RDMASCOPE_FUZZ_NO_ENTRY
#include "../fuzz/fuzz_analyze.cpp"

namespace {

TEST(AnalyzeFuzzCorpus, EveryInputIsAnalysedWithoutCrashing) {
  const std::filesystem::path dir =
      std::filesystem::path(RDMASCOPE_SOURCE_DIR) / "tests/fuzz/corpus/fuzz_analyze";
  std::size_t n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream f(entry.path(), std::ios::binary);
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(f)), {});
    EXPECT_EQ(rdmascope::fuzz::analyze(bytes.data(), bytes.size()), 0) << entry.path();
    ++n;
  }
  EXPECT_GE(n, 4u);
}

}  // namespace
