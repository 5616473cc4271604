// Every key a dissector puts in a tree is known to the display filter's registry, so any
// field a user sees can be filtered on.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "iwarp_conversation.h"
#include "rdmascope/packets/field_registry.h"
#include "rdmascope/packets/ib_builder.h"
#include "rdmascope/packets/iwarp_encoder.h"
#include "rdmascope/packets/net_builder.h"
#include "rdmascope/packets/stream_decoder.h"

namespace rdmascope::packets {
namespace {

std::set<std::string> unknownKeys(const Dissection& d) {
  std::set<std::string> out;
  for (const auto& n : d.nodes)
    if (!n.key.empty() && !isKnownFieldKey(n.key)) out.emplace(n.key);
  return out;
}

TEST(FieldRegistryCoverage, EveryInfiniBandKeyIsKnown) {
  std::set<std::string> unknown;
  for (const auto& s : sampleIbFrames()) {
    const auto u = unknownKeys(decodeFrame(s.bytes, s.link));
    unknown.insert(u.begin(), u.end());
  }
  EXPECT_TRUE(unknown.empty()) << [&] {
    std::string all;
    for (const auto& k : unknown)
      all += k + " ";
    return all;
  }();
}

TEST(FieldRegistryCoverage, EveryIwarpKeyIsKnown) {
  using namespace testing;
  std::set<std::string> unknown;
  for (bool markers : {false, true}) {
    ConversationSpec spec;
    spec.requestMarkers = spec.replyMarkers = markers;
    CaptureDecoder decoder;
    std::uint64_t n = 0;
    for (const auto& f : buildConversation(spec).frames) {
      FrameInfo info;
      info.number = ++n;
      const auto u = unknownKeys(decoder.decode(f, LinkType::Ethernet, info));
      unknown.insert(u.begin(), u.end());
    }
  }
  std::string all;
  for (const auto& k : unknown)
    all += k + " ";
  EXPECT_TRUE(unknown.empty()) << all;
}

// The listing (`rdmascope-cli fields`, the shell completion) is every key the filter accepts, in
// order, each once: the keys of real frames' trees, the aggregates, a runtime registration.
TEST(FieldRegistryCoverage, KnownFieldKeysListsWhatTheFilterAccepts) {
  const auto keys = knownFieldKeys();
  ASSERT_FALSE(keys.empty());
  EXPECT_TRUE(std::is_sorted(keys.begin(), keys.end()));
  EXPECT_EQ(std::adjacent_find(keys.begin(), keys.end()), keys.end());
  for (const auto& k : keys)
    EXPECT_TRUE(isKnownFieldKey(k)) << k;
  const std::set<std::string_view> listed(keys.begin(), keys.end());
  for (const auto& s : sampleIbFrames()) {
    for (const auto& n : decodeFrame(s.bytes, s.link).nodes) {
      if (!n.key.empty()) {
        EXPECT_TRUE(listed.contains(n.key)) << n.key;
      }
    }
  }
  for (std::string_view k : {"ip.addr", "udp.port", "infiniband.bth.psn", "frame.number"})
    EXPECT_TRUE(listed.contains(k)) << k;
  EXPECT_FALSE(listed.contains("infiniband.bth.no_such_field"));
  registerSyntheticKey("rdmascope.test.listed_key");
  const auto after = knownFieldKeys();
  EXPECT_TRUE(std::binary_search(after.begin(), after.end(), "rdmascope.test.listed_key"));
}

}  // namespace
}  // namespace rdmascope::packets
