// `decode -T json` against tshark's own `-T json`: the keys whose values are byte strings
// (tshark's FT_BYTES) are exactly tshark's, and they are written as tshark writes them, with a
// ':' between bytes (`-T fields` prints the same bytes without separators, as tshark does), on
// every capture of the repository.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../support/repository_captures.h"
#include "rdmascope/packets/field_registry.h"
#include "tshark_runner.h"

namespace rdmascope::testing {
namespace {

// tshark's type of every field it knows (`tshark -G fields`: "F<TAB>name<TAB>key<TAB>type...").
std::map<std::string, std::string> tsharkFieldTypes() {
  std::map<std::string, std::string> types;
  std::istringstream lines(runCommandStatus(oracleCommand(Oracle::Tshark) + " -G fields").out);
  for (std::string line; std::getline(lines, line);) {
    const auto cells = splitTabs(line);
    if (cells.size() > 3 && cells[0] == "F") types[cells[2]] = cells[3];
  }
  return types;
}

TEST(JsonTshark, ByteStringKeysAreTsharksByteFields) {
  RDMASCOPE_NEED_ORACLES(Tshark);
  const auto types = tsharkFieldTypes();
  ASSERT_GT(types.size(), 10000u);
  std::size_t compared = 0, bytes = 0;
  for (const std::string_view key : packets::knownFieldKeys()) {
    const auto it = types.find(std::string(key));
    if (it == types.end()) continue;  // rdmascope's own keys (infiniband.icrc.status, ...)
    ++compared;
    const bool tsharkBytes = it->second == "FT_BYTES";
    bytes += tsharkBytes;
    EXPECT_EQ(packets::isByteStringKey(key), tsharkBytes) << key << " is " << it->second;
  }
  EXPECT_GT(compared, 300u);
  EXPECT_GT(bytes, 30u);
}

using Json = nlohmann::json;

// Every value of a record's layers by key, in document order (KEY_tree objects flattened).
void collect(const Json& j, const std::string& key,
             std::map<std::string, std::vector<std::string>>& out) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items())
      collect(v, k, out);
  } else if (j.is_array()) {
    for (const auto& v : j)
      collect(v, key, out);
  } else if (j.is_string()) {
    out[key].push_back(j.get<std::string>());
  }
}

TEST(JsonTshark, ByteStringsAreWrittenAsTsharkWritesThem) {
  RDMASCOPE_NEED_ORACLES(Tshark, Cli);
  std::size_t cells = 0;
  std::set<std::string> keys;
  for (const auto& capture : ::rdmascope::test::repositoryCaptures()) {
    if (capture.ends_with(".erf")) continue;  // tshark names ERF's InfiniBand otherwise
    const auto ours = runCommandStatus(cliCommand() + " decode -T json '" + capture + "'");
    const auto theirs = runCommandStatus(tsharkCommand() + " -T json -r '" + capture + "'");
    ASSERT_EQ(theirs.exitCode, 0) << capture;
    const Json a = Json::parse(ours.out, nullptr, false),
               b = Json::parse(theirs.out, nullptr, false);
    ASSERT_TRUE(a.is_array()) << capture;
    ASSERT_TRUE(b.is_array()) << capture;
    ASSERT_EQ(a.size(), b.size()) << capture;
    for (std::size_t i = 0; i < a.size(); ++i) {
      std::map<std::string, std::vector<std::string>> x, y;
      collect(a[i]["_source"]["layers"], "", x);
      collect(b[i]["_source"]["layers"], "", y);
      for (const auto& [key, values] : x) {
        if (!packets::isByteStringKey(key) || !y.count(key)) continue;
        const auto& t = y.at(key);
        // Known difference: tshark's data.data of an InfiniBand payload takes in its pad
        // bytes (roce_tshark_test), and its CM REQ reads a path's fields a byte off
        // (cm_tshark_test): the byte strings are compared where both hold as many.
        if (t.size() != values.size()) continue;
        // A key repeated in a record (infiniband.reserved of a CM message) may come in another
        // order: compared as sets of values.
        auto mine = values;
        auto tsharks = t;
        if (mine.size() > 1) {
          std::sort(mine.begin(), mine.end());
          std::sort(tsharks.begin(), tsharks.end());
        }
        for (std::size_t v = 0; v < mine.size(); ++v) {
          ++cells;
          keys.insert(key);
          if (key == "data.data" && tsharks[v].size() > mine[v].size() &&
              tsharks[v].starts_with(mine[v] + ":") && tsharks[v].size() - mine[v].size() <= 9)
            continue;  // the pad (up to three bytes)
          EXPECT_EQ(mine[v], tsharks[v]) << capture << " frame " << i + 1 << " " << key;
        }
      }
    }
  }
  for (const char* k : {"infiniband.bth", "infiniband.reth", "infiniband.aeth", "infiniband.deth",
                        "infiniband.mad", "data.data"})
    EXPECT_TRUE(keys.count(k)) << k << " was never compared";
  EXPECT_GT(cells, 5000u);
}

}  // namespace
}  // namespace rdmascope::testing
