#pragma once
/// @file congestion_step_text.h
/// The sentences of a congestion run's steps (congestion_run.h), made from the typed fabric
/// events (sim/fabric_events.h) and translatable: what happened, where, and why.

#include <QCoreApplication>
#include <QString>

#include "rdmascope/sim/fabric_events.h"
#include "rdmascope/sim/sim_time.h"

namespace rdmascope::ui {

class CongestionRun;

/// The translated name of an event kind ("XOFF", "ECN mark", "CNP", "rate cut", ...).
QString fabricEventKindName(sim::FabricEvent::Kind kind);
/// One line: the event's time, kind, place, and the numbers that made it happen.
QString describeFabricEvent(const sim::FabricEvent& event, const CongestionRun& run);
/// One line about the slice (from, to]: what happened in it and the deepest queue at its end.
QString describeSlice(const CongestionRun& run, sim::SimTime from, sim::SimTime to);
/// The title of the cursor's step: its time and, on an event, the event's kind and place.
QString congestionStepTitle(const CongestionRun& run);

}  // namespace rdmascope::ui
