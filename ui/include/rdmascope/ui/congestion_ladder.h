#pragma once
/// @file congestion_ladder.h
/// The frames of a congestion run's captured ports (congestion_run.h) as ladder rows
/// (ladder_view.h): a lifeline per node at either end of a captured link, an arrow per frame
/// from its sender's node to the other end, labelled so that what congestion control adds
/// stands out: "PFC PAUSE P3 quanta 65535", "PFC XON P3", "CNP", and "CE" before a RoCE
/// packet whose IP header carries Congestion Experienced.

#include <QStringList>
#include <vector>

#include "rdmascope/ui/ladder_view.h"

namespace rdmascope::ui {

class CongestionRun;

/// The lifelines (`lanes`, left to right) and one row per frame of `run.frames()`.
std::vector<LadderFrame> congestionLadder(const CongestionRun& run, QStringList& lanes);

}  // namespace rdmascope::ui
