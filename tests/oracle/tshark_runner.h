#pragma once
// Running tshark (and other commands) from the oracle tests.

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <span>
#include <string>

#include "rdmascope/packets_io/capture_writer.h"

namespace rdmascope::testing {

/// True when tshark is installed (tests skip with that reason otherwise).
inline bool haveTshark() {
  return std::system("tshark -v > /dev/null 2>&1") == 0;
}

/// Runs a shell command and returns its standard output.
inline std::string runCommand(const std::string& cmd) {
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0)
      out.append(buf, n);
    pclose(p);
  }
  return out;
}

/// A capture path in the temporary directory; the process id keeps concurrent runs (ctest -j,
/// several build trees) apart.
inline std::string tempCapturePath(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("rdmascope_" + name + "_" + std::to_string(::getpid()) + ".pcap"))
      .string();
}

/// Writes Ethernet frames to a nanosecond pcap for tshark. `timeNs(frame, index)` gives each
/// frame's time stamp. False (with a test failure message from the caller) when writing fails.
template <typename Frames, typename Bytes, typename TimeNs>
bool writeEthernetPcap(const std::string& path, const Frames& frames, Bytes bytes, TimeNs timeNs,
                       std::string& error) {
  auto w = packets_io::CaptureWriter::open(path, packets::LinkType::Ethernet, error);
  if (!w) return false;
  std::int64_t index = 0;
  for (const auto& f : frames) {
    const std::span<const std::uint8_t> b = bytes(f);
    if (!w->write(b, timeNs(f, index++))) break;
  }
  if (!w->close()) {
    error = w->error();
    return false;
  }
  return true;
}

}  // namespace rdmascope::testing
