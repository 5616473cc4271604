#pragma once
// Frames and captures built byte by byte for the UI tests.

#include <QObject>
#include <cstdint>
#include <string>
#include <vector>

namespace rdmascope::ui {
class FrameStore;
}

namespace rdmascope::ui::test {

using Bytes = std::vector<std::uint8_t>;

/// Ethernet + IPv4 + UDP to port 4791 + BTH (RC SEND ONLY) + payload + ICRC (correct unless
/// `badIcrc`).
Bytes roceFrame(std::uint32_t psn, std::size_t payload = 16, std::uint8_t opcode = 0x04,
                bool badIcrc = false);
/// Ethernet + IPv4 + TCP with a payload.
Bytes tcpFrame(std::uint16_t sport, std::uint16_t dport, std::size_t payload = 8);
/// A classic pcap file (microsecond timestamps, Ethernet) holding the frames.
Bytes pcapFile(const std::vector<Bytes>& frames);
/// Writes bytes to a file in the build folder; returns its path.
std::string writeFile(const std::string& name, const Bytes& bytes);

/// A simulated iWARP transfer of 100000 bytes (sim::runTransportScenario: TCP handshake, MPA
/// exchange, the operation, FIN) with a chance `loss` of losing each frame, written as a pcap in
/// the build folder (name unique per process); returns its path.
std::string iwarpCapture(const char* scenario, double loss, std::uint64_t seed);

/// The frames of `store` (0-based) the display filter `text` matches; a filter that does not
/// compile fails the test.
std::vector<std::size_t> filterMatches(const FrameStore& store, const std::string& text);

/// Collects warnings of QAbstractItemModelTester (category qt.modeltest) while alive.
class ModelTestWarnings {
 public:
  ModelTestWarnings();
  ~ModelTestWarnings();
  static std::vector<std::string>& messages();
};

}  // namespace rdmascope::ui::test
