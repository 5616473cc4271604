// libFuzzer: arbitrary text through the display-filter compiler. A refused filter says why in
// one short line; a compiled one is matched against RoCE, IPv6 and native IB dissections.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/display_filter.h"
#include "rdmascope/packets/ib_builder.h"

using namespace rdmascope::packets;

namespace {

const std::vector<Dissection>& dissections() {
  static const std::vector<Dissection> all = [] {
    std::vector<Dissection> out;
    const auto samples = sampleIbFrames();
    for (std::size_t i = 0; i < samples.size(); i += 7)
      out.push_back(decodeFrame(samples[i].bytes, samples[i].link, FrameInfo{i + 1, 0.5, 0, 0}));
    return out;
  }();
  return all;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string error;
  const auto filter = DisplayFilter::compile(text, error);
  if (!filter) {
    // Refused filters say why, on one line, quoting only the part at fault.
    if (error.empty() || error.size() > 400) __builtin_trap();
    if (error.find('\n') != std::string::npos && text.find('\n') == std::string_view::npos)
      __builtin_trap();
    return 0;
  }
  for (const auto& d : dissections())
    (void)filter->matches(d);
  return 0;
}
