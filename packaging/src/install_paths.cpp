#include "rdmascope/install/install_paths.h"

#include <fstream>

#include "install_layout.h"

namespace rdmascope::install {

namespace fs = std::filesystem;

fs::path programDir() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : self.parent_path();
}

std::vector<fs::path> dataDirCandidates(const fs::path& programDir) {
  return {programDir / kDataDirFromBinDir, programDir / kBuildTreeDataDirFromProgramDir};
}

std::optional<fs::path> findDataFile(const fs::path& relative, const fs::path& programDir) {
  std::error_code ec;
  for (const fs::path& dir : dataDirCandidates(programDir)) {
    const fs::path p = dir / relative;
    if (fs::exists(p, ec)) return fs::weakly_canonical(p, ec);
  }
  return std::nullopt;
}

std::optional<fs::path> findSimdevLibDir(const fs::path& programDir) {
  std::error_code ec;
  for (const fs::path& dir :
       {programDir / kSimdevLibDirFromBinDir, programDir / kBuildTreeSimdevLibDirFromProgramDir}) {
    if (fs::exists(dir / "libibverbs.so.1", ec)) return fs::weakly_canonical(dir, ec);
  }
  return std::nullopt;
}

std::vector<ExampleCapture> exampleCaptures(const fs::path& programDir) {
  std::vector<ExampleCapture> examples;
  const auto index = findDataFile(fs::path("examples") / "index.tsv", programDir);
  if (!index) return examples;
  std::ifstream in(*index);
  std::error_code ec;
  for (std::string line; std::getline(in, line);) {
    const auto tab = line.find('\t');
    if (line.empty() || line.front() == '#' || tab == std::string::npos) continue;
    const fs::path file = index->parent_path() / line.substr(0, tab);
    if (fs::exists(file, ec)) examples.push_back({file, line.substr(tab + 1)});
  }
  return examples;
}

std::string versionLine(const std::string& program) {
  return program + " " + version() + " (commit " + commit() + ")";
}

}  // namespace rdmascope::install
