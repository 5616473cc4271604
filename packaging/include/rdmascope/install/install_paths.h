#pragma once
/// @file install_paths.h
/// Where an installed (or built) rdmascope finds its files: relative to the running program,
/// never through a path of the build tree. Installed, the programs are in <prefix>/bin and their
/// data in <prefix>/share/rdmascope; in a build tree the programs are two folders below the build
/// folder (app/cli, app/gui, tests/ui) and the build mirrors the data in <build>/share/rdmascope.
/// No Qt, no other part of the project: the CLI and the GUI both use it.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace rdmascope::install {

/// The folder of the running program (/proc/self/exe's), empty when it cannot be read.
std::filesystem::path programDir();

/// The first existing `<data folder>/relative` for a program in `programDir`: the installed
/// data folder (<bindir>/../share/rdmascope), then the build tree's (<build>/share/rdmascope).
std::optional<std::filesystem::path> findDataFile(const std::filesystem::path& relative,
                                                  const std::filesystem::path& programDir);

/// The folder holding the simulated device's drop-in libibverbs.so.1 and librdmacm.so.1 for a
/// program in `programDir`: installed <libdir>/rdmascope/simdev, or the build tree's simdev/lib.
std::optional<std::filesystem::path> findSimdevLibDir(const std::filesystem::path& programDir);

/// The data folders searched by findDataFile, in order (for messages naming where it looked).
std::vector<std::filesystem::path> dataDirCandidates(const std::filesystem::path& programDir);

/// One example capture bundled with rdmascope (examples/index.tsv in the data folder).
struct ExampleCapture {
  std::filesystem::path path;  ///< absolute path of the capture
  std::string description;     ///< one line saying what it shows
};

/// The bundled example captures, in the index's order; empty when none are found. A line of
/// the index is `FILE<TAB>DESCRIPTION`; lines starting with '#' are comments.
std::vector<ExampleCapture> exampleCaptures(const std::filesystem::path& programDir);

/// The version of the project (CMake's project version), e.g. "0.1.0".
const char* version();

/// The commit the build was configured from (`git rev-parse --short=12 HEAD`), or "unknown"
/// outside a git checkout.
const char* commit();

/// The line `--version` prints: "PROGRAM VERSION (commit COMMIT)".
std::string versionLine(const std::string& program);

}  // namespace rdmascope::install
