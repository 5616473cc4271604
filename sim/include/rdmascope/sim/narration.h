#pragma once
/// @file narration.h
/// The one place where trace events become sentences. Protocol code (the QP engines, hosts,
/// links, the TCP model) fills typed fields only; describe() turns an event's narrative,
/// reasons and arguments into the text the CLI prints and the GUI shows. Each sentence is one
/// whole format string, so a translation can replace it (word order included) later.

#include <string>

#include "rdmascope/sim/trace.h"

namespace rdmascope::sim {

/// The sentence that explains `event` (English).
std::string describe(const TraceEvent& event);

/// The phrase for a reason, with the arguments of `event` (empty for Reason::None).
std::string describeReason(Reason reason, const TraceEvent& event);

}  // namespace rdmascope::sim
