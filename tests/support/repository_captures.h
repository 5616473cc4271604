#pragma once
// Every capture file (.pcap, .pcapng, .erf) under tests/ of the source tree, sorted: the inputs
// the fast paths are checked on against the full dissection.

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace rdmascope::test {

inline std::vector<std::string> repositoryCaptures() {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  for (const auto& e :
       fs::recursive_directory_iterator(std::string(RDMASCOPE_SOURCE_DIR) + "/tests"))
    if (e.is_regular_file() &&
        (e.path().extension() == ".pcap" || e.path().extension() == ".pcapng" ||
         e.path().extension() == ".erf"))
      out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace rdmascope::test
