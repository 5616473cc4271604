#pragma once
// A capture reader that parses classic pcap and pcapng itself from a byte stream, reading
// forward only: standard input, FIFOs, and pcapng files (whose sections may differ in byte
// order, which libpcap refuses).

#include <memory>
#include <string>

#include "rdmascope/packets_io/capture_reader.h"

namespace rdmascope::packets_io {

/// Reads a capture from `fd` (which the reader takes over and closes). `path` is the name the
/// user gave ("-" for standard input); errors name it. On failure returns null and sets
/// `error` to one line.
std::unique_ptr<CaptureReader> openStreamReader(const std::string& path, int fd,
                                                std::string& error);

}  // namespace rdmascope::packets_io
