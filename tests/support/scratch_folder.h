#pragma once
/// @file scratch_folder.h
/// A fresh folder under the system's temporary folder for one test (named after the process and
/// the running test), removed again at the end of the test.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace rdmascope::testing {

struct ScratchFolder {
  std::filesystem::path path;

  explicit ScratchFolder(std::string_view prefix)
      : path(std::filesystem::temp_directory_path() /
             (std::string(prefix) + "_" + std::to_string(::getpid()) + "_" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name())) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~ScratchFolder() { std::filesystem::remove_all(path); }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;

  /// The path of `name` inside the folder.
  std::string operator/(const std::string& name) const { return (path / name).string(); }
  /// The names of the folder's entries, sorted.
  std::vector<std::string> names() const {
    std::vector<std::string> n;
    for (const auto& e : std::filesystem::directory_iterator(path))
      n.push_back(e.path().filename().string());
    std::sort(n.begin(), n.end());
    return n;
  }
  /// How many entries the folder holds.
  std::size_t entries() const {
    return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(path),
                                                  std::filesystem::directory_iterator{}));
  }
};

}  // namespace rdmascope::testing
