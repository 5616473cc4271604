#pragma once
// The files rdmascope-cli writes (sim --pcap, capture -w, lab run --out): checked before the
// work starts, never one of the inputs, and replaced only by a complete file.

#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "rdmascope/packets_io/capture_writer.h"
#include "rdmascope/packets_io/output_file.h"

namespace rdmascope::cli {

/// Creates the file that `option` names before any work is done: refuses a path that is one of
/// `inputs` (the same file under any name, through symbolic or hard links) and fails at once
/// where no file can be created. On failure writes one line to `err` and returns null.
std::unique_ptr<packets_io::OutputFile> createOutput(std::string_view option,
                                                     const std::string& path,
                                                     const std::vector<std::string>& inputs,
                                                     std::ostream& err);

/// Starts a capture of link type `link` in a file from createOutput(): pcapng (with `itf`'s
/// name, description and comment) when the path ends in .pcapng, pcap otherwise; null with one
/// line on `err` on failure.
std::unique_ptr<packets_io::CaptureWriter> startCapture(
    std::unique_ptr<packets_io::OutputFile> file, packets::LinkType link, std::ostream& err,
    const packets_io::CaptureInterface& itf = {});

/// Writes `text` to `path` whole (see OutputFile); false with one line on `err` on failure.
bool writeTextFile(const std::string& path, const std::string& text, std::ostream& err);

/// Makes sure `dir` is a folder files can be created in, creating it (and its parents) when
/// missing; false with one line on `err` otherwise.
bool prepareOutputFolder(std::string_view option, const std::string& dir, std::ostream& err);

}  // namespace rdmascope::cli
