#pragma once
/// @file command_line.h
/// The `rdmascope` GUI's command line: opens the tour scenario, a capture or a built-in scenario,
/// steps to an event, selects a frame or a lower tab, sizes the window, takes a screenshot and
/// quits, runs a scenario on a real device with a peer machine (--device), or attaches to a
/// running fabric (--fabric [SOCKET]), or runs a congestion scenario (--congestion FILE,
/// --at-us T). app/gui/main.cpp
/// only creates the application and calls this.

class QApplication;

namespace rdmascope::ui {

/// Parses the application's arguments, sets the window up and runs the event loop. Returns the
/// process exit code: 0, 1 when a screenshot or device run failed, 2 for a bad argument (with a
/// one-line error on stderr).
int runGuiCommandLine(QApplication& app);

}  // namespace rdmascope::ui

namespace rdmascope::ui {

/// Before the QApplication exists: without a display (DISPLAY and WAYLAND_DISPLAY unset, no
/// QT_QPA_PLATFORM chosen) `--help`, `--version` and `--screenshot` run on Qt's offscreen
/// platform; anything else returns false after a one-line error on stderr (Qt itself would
/// abort).
bool chooseGuiPlatform(int argc, char** argv);

}  // namespace rdmascope::ui
