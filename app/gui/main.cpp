// rdmascope: the Qt GUI. Opens on the built-in tour scenario, or on the capture given, or runs
// a scenario on a real device with a peer machine (--device); ui/command_line.h has the options.
#include <QApplication>

#include "rdmascope/ui/command_line.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName(QStringLiteral("rdmascope"));
  QApplication::setApplicationVersion(QStringLiteral("0.1.0"));
  return rdmascope::ui::runGuiCommandLine(app);
}
