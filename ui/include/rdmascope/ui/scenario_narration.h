#pragma once
/// @file scenario_narration.h
/// A scenario's narration in the GUI's language. The built-in scenarios' titles, descriptions
/// and explanations are written in English by verbs_backend (Qt-free); their translations live
/// in the GUI's catalog under the context "ScenarioNarration". A scenario file's own text has no
/// translation and stays as written.

#include <QString>
#include <span>
#include <string>

namespace rdmascope::ui {

/// `english` in the GUI's language: a catalogued narration string, or a step's one-line
/// description (its prose translated, the verbs call as written), else `english` unchanged.
QString narration(const std::string& english);

/// A sentence of the simulated rdma_cm (verbs_backend's sim_cm.cpp: CM messages, their
/// arrival, the PSNs the CM sets, its timeouts) in the GUI's language; a null QString when
/// `english` is not one (cm_narration.cpp).
QString cmNarration(const QString& english);

/// Every narration string of the built-in scenarios, as lupdate sees them (for tests).
std::span<const char* const> builtInNarrationCatalog();

}  // namespace rdmascope::ui
