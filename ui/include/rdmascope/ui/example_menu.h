#pragma once
/// @file example_menu.h
/// File > Open Example: the example captures installed with rdmascope (real Soft-RoCE traffic
/// from the lab, listed by share/rdmascope/examples/index.tsv), the built-in scenarios and the
/// congestion scenarios (share/rdmascope/congestion/*.json), each
/// with the line saying what it shows as its tool tip and status tip.

#include <QString>

class QMenu;

namespace rdmascope::ui {

class MainWindow;

/// Fills `menu` with the example captures found relative to `programDir` (the folder of the
/// running program: installed, or in the build tree), the built-in scenarios and the congestion
/// scenarios; choosing one
/// opens it in `window`. Returns the number of captures listed.
int fillExampleMenu(QMenu& menu, MainWindow& window, const QString& programDir);

}  // namespace rdmascope::ui
