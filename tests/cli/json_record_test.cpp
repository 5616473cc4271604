// The -T json record writer (app/cli/src/packet_json.cpp) keeps, per thread, the text of each
// shape of dissection it met (keys, parents and which nodes have no value) with holes for the
// values, and fills the holes of later frames of that shape. Every record must still be what
// nlohmann writes of the frame's own tree: frames of one shape whose values need escaping or
// are not UTF-8, shapes that differ only in a parent or in a value left empty, more shapes than
// the writer keeps, and capture times on other days (the "_index" it reuses) or before 1970.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "../support/json_record_reference.h"
#include "packet_json.h"

namespace rdmascope::cli::test {
namespace {

using ::rdmascope::test::jsonRecordReference;

packets::Node node(std::string_view key, std::int32_t parent, std::string value) {
  packets::Node n;
  n.key = key;
  n.parent = parent;
  n.value = std::move(value);
  return n;
}

// eth { src dst } ip { ip.flags = value { df mf } } udp data data (two "data": an array)
packets::Dissection frame(const std::vector<std::string>& values) {
  packets::Dissection d;
  d.nodes = {node("eth", -1, ""),
             node("eth.src", 0, values.at(0)),
             node("eth.dst", 0, values.at(1)),
             node("ip", -1, ""),
             node("ip.flags", 3, values.at(2)),
             node("ip.flags.df", 4, values.at(3)),
             node("ip.flags.mf", 4, values.at(4)),
             node("data", -1, values.at(5)),
             node("data", -1, values.at(6))};
  return d;
}

std::string written(const packets::Dissection& d, std::int64_t timestampNs) {
  std::string out;
  appendJsonRecord(d, timestampNs, out);
  EXPECT_EQ(out.substr(0, 2), ",\n");
  return out.substr(std::min<std::size_t>(2, out.size()));
}

TEST(JsonRecord, FramesOfOneShapeWithValuesThatNeedEscapingOrAreNotUtf8) {
  const std::vector<std::vector<std::string>> frames = {
      {"aa:bb", "cc:dd", "0x2", "1", "0", "00ff", "ab"},
      {"a\"b", "back\\slash", "tab\there", "new\nline", "\x01", "\xff\xfe", "caf\xc3\xa9"},
      {"", "x", "0x0", "0", "1", "0123456789abcdef0123", "\x7f"},
      // one value to escape, or one not ASCII, among plain ones
      {"aa:bb", "cc:dd", "0x2", "1", "0", "00ff", "say \"hi\""},
      {"aa:bb", "cc:dd", "0x2", "1", "0", "0123456789\\abcdef", "ab"},
      {"\xe4\xb8\xad", "cc:dd", "0x2", "1", "0", "00ff", "ab"},
      {"aa:bb", "cc:dd", "0x2", "1", "0", "0123456789abcdef\x80", "ab"},
      {"aa:bb", "cc:dd", "0x2", "1", "0", "00ff", "ab"},
  };
  for (int round = 0; round < 2; ++round)
    for (const auto& values : frames) {
      const auto d = frame(values);
      EXPECT_EQ(written(d, 1'700'000'000'000'000'000),
                jsonRecordReference(d, 1'700'000'000'000'000'000))
          << values[1];
    }
}

TEST(JsonRecord, ShapesThatDifferInAParentOrAnEmptyValueOrADiagnostic) {
  const std::vector<std::string> values = {"1", "2", "3", "4", "5", "6", "7"};
  auto d = frame(values);
  EXPECT_EQ(written(d, 0), jsonRecordReference(d, 0));
  d.nodes[6].parent = 3;  // ip.flags.mf under ip, beside ip.flags
  EXPECT_EQ(written(d, 0), jsonRecordReference(d, 0));
  d.nodes[4].value.clear();  // ip.flags without a value: its children are ip.flags, not _tree
  EXPECT_EQ(written(d, 0), jsonRecordReference(d, 0));
  d.nodes[4].value = "0x3";
  d.diagnostics.push_back({packets::Severity::Error, "truncated \"ip\": needs 20", 3});
  EXPECT_EQ(written(d, 0), jsonRecordReference(d, 0));
  d.diagnostics.clear();
  d.nodes[7].key = "data.data";  // one "data" and one "data.data": no array
  EXPECT_EQ(written(d, 0), jsonRecordReference(d, 0));
  packets::Dissection empty;
  EXPECT_EQ(written(empty, 0), jsonRecordReference(empty, 0));
}

TEST(JsonRecord, MoreShapesThanTheWriterKeepsTwice) {
  // Shapes of 1 to 200 top-level nodes, in two passes: every one is made again once the
  // writer has let it go.
  static const std::string keys[] = {"a", "b", "c"};
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t count = 1; count <= 200; ++count) {
      packets::Dissection d;
      for (std::size_t i = 0; i < count; ++i)
        d.nodes.push_back(node(keys[i % 3], -1, std::to_string(count * 1000 + i + pass)));
      ASSERT_EQ(written(d, 5), jsonRecordReference(d, 5)) << count;
    }
}

TEST(JsonRecord, TheIndexFollowsTheCaptureDayEveryFrame) {
  const auto d = frame({"1", "2", "3", "4", "5", "6", "7"});
  constexpr std::int64_t day = 86'400'000'000'000;
  const std::vector<std::int64_t> times = {0,
                                           day - 1,
                                           day,
                                           day + 1,
                                           2 * day,
                                           -1,
                                           -day + 1,
                                           -day,
                                           -day - 1,
                                           -500'000'000,
                                           1'000,
                                           day * 20'000,
                                           std::numeric_limits<std::int64_t>::max(),
                                           std::numeric_limits<std::int64_t>::min()};
  for (const std::int64_t t : times)
    EXPECT_EQ(written(d, t), jsonRecordReference(d, t)) << t;
}

}  // namespace
}  // namespace rdmascope::cli::test
