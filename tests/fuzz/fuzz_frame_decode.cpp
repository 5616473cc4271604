// libFuzzer: arbitrary bytes through decodeFrame for every link type, the RoCE CRC fast
// check, and the display filter compiler (whose filters are then run on the dissections).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/display_filter.h"
#include "rdmascope/packets/frame_crc_check.h"

using namespace rdmascope::packets;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  std::string error;
  const auto filter =
      DisplayFilter::compile(std::string_view(reinterpret_cast<const char*>(data), size), error);
  if (!filter && error.empty()) __builtin_trap();  // a refused filter always says why
  static constexpr LinkType kLinks[] = {LinkType::Ethernet, LinkType::Erf,  LinkType::Raw,
                                        LinkType::Ipv4,     LinkType::Ipv6, LinkType::InfiniBand};
  for (const LinkType link : kLinks) {
    const Dissection d = decodeFrame(bytes, link, FrameInfo{1, 0.0, 0.0, 0});
    // Every node's byte range lies inside the frame (the hex view highlights it).
    for (const Node& n : d.nodes)
      if (n.length != 0 && std::size_t{n.offset} + n.length > size) __builtin_trap();
    (void)checkFrameCrcFast(bytes, link);
    if (filter) (void)filter->matches(d);
  }
  return 0;
}
