#pragma once
/// @file anomaly_text.h
/// An anomaly's one-line detail in the GUI's language, rendered from its typed form
/// (analysis::AnomalyDetail); in English it reads as analysis::Anomaly::detail does.

#include <QString>

#include "rdmascope/analysis/flow_analyzer.h"

namespace rdmascope::ui {

/// The anomaly's detail, translated (its English `detail` for an anomaly with no phrase).
QString anomalyDetail(const analysis::Anomaly& a);

}  // namespace rdmascope::ui
