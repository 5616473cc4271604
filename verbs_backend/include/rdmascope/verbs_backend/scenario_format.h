#pragma once
/// @file scenario_format.h
/// The scenario file format described as data: every JSON object the reader accepts, every key
/// of each with its type, its range or values, its default and what it maps to in verbs. The
/// reader (scenario_file.h) refuses a key this table does not list; docs/scenario-format.md
/// documents the same table and docs/scenario.schema.json validates the same keys, and tests
/// compare both with it, so the three cannot drift.

#include <string_view>
#include <vector>

namespace rdmascope::verbs_backend {

/// One key of an object of the scenario format.
struct FormatField {
  std::string_view key;
  std::string_view type;          ///< "integer", "number", "string", "boolean", "object", ...
  std::string_view values;        ///< its range or its allowed values
  std::string_view defaultValue;  ///< "required" when the key must be given
  std::string_view verbs;         ///< what it becomes in verbs ("" when nothing)
};

/// One kind of JSON object in a scenario file.
struct FormatObject {
  std::string_view name;   ///< "scenario", "link", "step", "modify_qp", "sge", ...
  std::string_view where;  ///< where it appears, as a JSON path pattern ("/hosts/N/qps/N")
  std::vector<FormatField> fields;
};

/// Every object of the format, the scenario (the file's top level) first.
const std::vector<FormatObject>& scenarioFormat();

/// The object named `name` in scenarioFormat(), or nullptr.
const FormatObject* formatObject(std::string_view name);

/// The keys of a step that say what it does (modify_qp, post_send, ..., compare_memory): a step
/// has exactly one of them.
const std::vector<std::string_view>& stepKinds();

}  // namespace rdmascope::verbs_backend
