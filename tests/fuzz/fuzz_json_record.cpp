// libFuzzer target: the -T json record writer (app/cli/src/packet_json.cpp) against the
// reference the tests compare it with (tests/support/json_record_reference.h: the tree built
// and dumped by nlohmann). Arbitrary frames are dissected by one stateful CaptureDecoder (TCP
// reassembly and iWARP included) and every record must be byte for byte the reference's: the
// writer's per-thread templates (one per shape of dissection, kept across frames and inputs),
// its escaping of values (control bytes, quotes, bytes above ASCII), byte strings written with
// ':' between bytes, and the diagnostics of malformed frames.
//
// Input: byte 0 selects the link type (bits 0-2); then records until the input ends: a 2-byte
// big-endian length and that many bytes of one frame.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>

#include "../support/json_record_reference.h"
#include "packet_json.h"
#include "rdmascope/packets/stream_decoder.h"

namespace {

using namespace rdmascope::packets;

constexpr LinkType kLinks[] = {LinkType::Ethernet, LinkType::Erf, LinkType::Raw,
                               LinkType::InfiniBand};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const LinkType link = kLinks[(data[0] & 7u) % std::size(kLinks)];
  CaptureDecoder decoder;
  std::size_t at = 1;
  std::uint64_t number = 0;
  std::string out;
  while (at + 2 <= size) {
    const std::size_t len =
        std::min<std::size_t>((std::size_t{data[at]} << 8) | data[at + 1], size - at - 2);
    const std::span<const std::uint8_t> frame(data + at + 2, len);
    at += 2 + len;
    FrameInfo info;
    info.number = ++number;
    info.epochNs = 1'700'000'000'000'000'000 + static_cast<std::int64_t>(number) * 1000;
    const Dissection d = decoder.decode(frame, link, info);
    out.clear();
    rdmascope::cli::appendJsonRecord(d, info.epochNs, out);
    const std::string expected = ",\n" + rdmascope::test::jsonRecordReference(d, info.epochNs);
    if (out != expected) {
      std::fprintf(stderr, "frame %llu: the JSON record differs from the reference\n%s\n---\n%s\n",
                   static_cast<unsigned long long>(number), out.c_str(), expected.c_str());
      std::abort();
    }
  }
  return 0;
}
