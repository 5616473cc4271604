#pragma once
/// @file trace_json.h
/// Trace events as JSON (nlohmann): every field, the typed arguments an event carries (under
/// "args", snake_case, enumerations by name), and the narration's sentence ("explanation").

#include <nlohmann/json.hpp>

#include "rdmascope/sim/trace.h"

namespace rdmascope::sim {

/// One event as a JSON object; frame bytes as lowercase hex.
nlohmann::json toJson(const TraceEvent& event);

}  // namespace rdmascope::sim
