#pragma once
// The -T json record of one dissection as nlohmann::ordered_json's dump(2) writes the tree the
// printer built before its text writer: repeated keys gathered into arrays, a node with a value
// and children as KEY and KEY_tree, diagnostics under _diagnostics, byte strings with a ':'
// between bytes (as tshark's JSON). The reference the tests of `decode -T json` compare the
// printed text with.

#include <cstdint>
#include <ctime>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rdmascope/packets/dissection.h"
#include "rdmascope/packets/field_registry.h"

namespace rdmascope::test {

namespace json_reference_detail {

using Json = nlohmann::ordered_json;

inline void addMember(Json& object, const std::string& key, Json value) {
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

// A byte string's value as tshark's JSON writes it: a ':' between its bytes.
inline std::string jsonValue(const packets::Node& n) {
  if (!packets::isByteStringKey(n.key) || n.value.empty() || n.value.size() % 2) return n.value;
  std::string out;
  for (std::size_t i = 0; i < n.value.size(); i += 2) {
    if (i) out += ':';
    out.append(n.value, i, 2);
  }
  return out;
}

inline Json subtree(const packets::Dissection& d,
                    const std::vector<std::vector<std::int32_t>>& kids, std::int32_t index) {
  Json object = Json::object();
  for (const std::int32_t c : kids[static_cast<std::size_t>(index)]) {
    const auto& n = d.nodes[static_cast<std::size_t>(c)];
    const std::string key(n.key);
    if (kids[static_cast<std::size_t>(c)].empty()) {
      addMember(object, key, jsonValue(n));
    } else if (n.value.empty()) {
      addMember(object, key, subtree(d, kids, c));
    } else {
      addMember(object, key, jsonValue(n));
      addMember(object, key + "_tree", subtree(d, kids, c));
    }
  }
  return object;
}

}  // namespace json_reference_detail

/// The record of `d` captured at `timestampNs`, indented as an element of the top-level array
/// (no separator before it).
inline std::string jsonRecordReference(const packets::Dissection& d, std::int64_t timestampNs) {
  using json_reference_detail::Json;
  std::vector<std::vector<std::int32_t>> kids(d.nodes.size() + 1);
  for (std::size_t i = 0; i < d.nodes.size(); ++i) {
    const std::int32_t p = d.nodes[i].parent;
    kids[p < 0 ? d.nodes.size() : static_cast<std::size_t>(p)].push_back(
        static_cast<std::int32_t>(i));
  }
  Json layers = json_reference_detail::subtree(d, kids, static_cast<std::int32_t>(d.nodes.size()));
  if (!d.diagnostics.empty()) {
    Json diags = Json::array();
    for (const auto& diag : d.diagnostics)
      diags.push_back(
          {{"severity", packets::severityName(diag.severity)}, {"message", diag.message}});
    layers["_diagnostics"] = std::move(diags);
  }
  const std::time_t sec = static_cast<std::time_t>(timestampNs / 1'000'000'000);
  std::tm tm{};
  gmtime_r(&sec, &tm);
  char index[32];
  std::strftime(index, sizeof index, "packets-%Y-%m-%d", &tm);
  Json packet;
  packet["_index"] = index;
  packet["_type"] = "doc";
  packet["_score"] = nullptr;
  packet["_source"] = {{"layers", std::move(layers)}};
  std::string out = "  ";
  for (const char c : packet.dump(2, ' ', false, Json::error_handler_t::replace)) {
    out += c;
    if (c == '\n') out += "  ";
  }
  return out;
}

}  // namespace rdmascope::test
