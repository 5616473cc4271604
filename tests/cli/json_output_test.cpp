// `decode -T json` writes its text without building a JSON tree per packet: the text must be
// byte for byte what nlohmann::ordered_json's dump(2) wrote of the tree the printer built
// before (repeated keys gathered into arrays, a node with a value and children as KEY and
// KEY_tree, diagnostics under _diagnostics), built here from the same dissections, on every
// capture of the repository.
#include <gtest/gtest.h>

#include "../support/json_record_reference.h"
#include "../support/repository_captures.h"
#include "cli_runner.h"
#include "rdmascope/packets/stream_decoder.h"
#include "rdmascope/packets_io/capture_reader.h"

namespace rdmascope::cli::test {
namespace {

using ::rdmascope::test::jsonRecordReference;
using ::rdmascope::test::repositoryCaptures;

std::string expectedJson(const std::string& capture) {
  std::string error;
  auto reader = packets_io::CaptureReader::open(capture, error);
  EXPECT_TRUE(reader) << error;
  if (!reader) return {};
  packets::CaptureDecoder decoder;
  std::string out = "[\n";
  std::int64_t first = 0, previous = 0;
  std::uint64_t printed = 0;
  packets_io::FrameView v;
  while (reader->next(v)) {
    if (reader->framesRead() == 1) first = previous = v.timestampNs;
    packets::FrameInfo info;
    info.number = reader->framesRead();
    info.timeRelative = static_cast<double>(v.timestampNs - first) / 1e9;
    info.epochNs = v.timestampNs;
    info.originalLength = v.originalLength;
    info.deltaNs = v.timestampNs - previous;
    previous = v.timestampNs;
    const auto d = decoder.decode(v.data, reader->linkType(), info);
    if (printed++) out += ",\n";
    out += jsonRecordReference(d, v.timestampNs);
  }
  out += printed ? "\n]\n" : "]\n";
  return out;
}

TEST(JsonOutput, EveryRepositoryCaptureIsWhatNlohmannWritesOfTheTree) {
  const auto captures = repositoryCaptures();
  ASSERT_GE(captures.size(), 30u);
  for (const auto& c : captures) {
    const RunResult r = runCli({"decode", c, "-T", "json"});
    const std::string expected = expectedJson(c);
    ASSERT_FALSE(expected.empty()) << c;
    EXPECT_TRUE(r.out == expected) << c << ": -T json differs from nlohmann's text";
  }
}

}  // namespace
}  // namespace rdmascope::cli::test
