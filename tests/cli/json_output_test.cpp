// `decode -T json` writes its text without building a JSON tree per packet: the text must be
// byte for byte what nlohmann::ordered_json's dump(2) wrote of the tree the printer built
// before (repeated keys gathered into arrays, a node with a value and children as KEY and
// KEY_tree, diagnostics under _diagnostics), built here from the same dissections, on every
// capture of the repository.
#include <gtest/gtest.h>

#include <ctime>
#include <nlohmann/json.hpp>

#include "../support/repository_captures.h"
#include "cli_runner.h"
#include "rdmascope/packets/stream_decoder.h"
#include "rdmascope/packets_io/capture_reader.h"

namespace rdmascope::cli::test {
namespace {

using Json = nlohmann::ordered_json;
using ::rdmascope::test::repositoryCaptures;

void addMember(Json& object, const std::string& key, Json value) {
  auto it = object.find(key);
  if (it == object.end()) {
    object[key] = std::move(value);
  } else if (it->is_array()) {
    it->push_back(std::move(value));
  } else {
    Json array = Json::array({std::move(*it), std::move(value)});
    *it = std::move(array);
  }
}

Json subtree(const packets::Dissection& d, const std::vector<std::vector<std::int32_t>>& kids,
             std::int32_t index) {
  Json object = Json::object();
  for (const std::int32_t c : kids[static_cast<std::size_t>(index)]) {
    const auto& n = d.nodes[static_cast<std::size_t>(c)];
    const std::string key(n.key);
    if (kids[static_cast<std::size_t>(c)].empty()) {
      addMember(object, key, n.value);
    } else if (n.value.empty()) {
      addMember(object, key, subtree(d, kids, c));
    } else {
      addMember(object, key, n.value);
      addMember(object, key + "_tree", subtree(d, kids, c));
    }
  }
  return object;
}

std::string expectedJson(const std::string& capture) {
  std::string error;
  auto reader = packets_io::CaptureReader::open(capture, error);
  EXPECT_TRUE(reader) << error;
  if (!reader) return {};
  packets::CaptureDecoder decoder;
  std::string out = "[\n";
  std::int64_t first = 0;
  std::uint64_t printed = 0;
  packets_io::FrameView v;
  while (reader->next(v)) {
    if (reader->framesRead() == 1) first = v.timestampNs;
    packets::FrameInfo info;
    info.number = reader->framesRead();
    info.timeRelative = static_cast<double>(v.timestampNs - first) / 1e9;
    info.epochNs = v.timestampNs;
    info.originalLength = v.originalLength;
    const auto d = decoder.decode(v.data, reader->linkType(), info);
    std::vector<std::vector<std::int32_t>> kids(d.nodes.size() + 1);
    for (std::size_t i = 0; i < d.nodes.size(); ++i) {
      const std::int32_t p = d.nodes[i].parent;
      kids[p < 0 ? d.nodes.size() : static_cast<std::size_t>(p)].push_back(
          static_cast<std::int32_t>(i));
    }
    Json layers = subtree(d, kids, static_cast<std::int32_t>(d.nodes.size()));
    if (!d.diagnostics.empty()) {
      Json diags = Json::array();
      for (const auto& diag : d.diagnostics)
        diags.push_back(
            {{"severity", packets::severityName(diag.severity)}, {"message", diag.message}});
      layers["_diagnostics"] = std::move(diags);
    }
    const std::time_t sec = static_cast<std::time_t>(v.timestampNs / 1'000'000'000);
    std::tm tm{};
    gmtime_r(&sec, &tm);
    char index[32];
    std::strftime(index, sizeof index, "packets-%Y-%m-%d", &tm);
    Json packet;
    packet["_index"] = index;
    packet["_type"] = "doc";
    packet["_score"] = nullptr;
    packet["_source"] = {{"layers", std::move(layers)}};
    if (printed++) out += ",\n";
    out += "  ";
    for (const char c : packet.dump(2, ' ', false, Json::error_handler_t::replace)) {
      out += c;
      if (c == '\n') out += "  ";
    }
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
