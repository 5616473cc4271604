// rdmascope: the Qt GUI. Opens on the built-in tour scenario, or on the capture given, or runs
// a scenario on a real device with a peer machine (--device); ui/command_line.h has the options.
#include <QApplication>

#include "rdmascope/heap/huge_page_heap.h"
#include "rdmascope/install/install_paths.h"
#include "rdmascope/ui/command_line.h"

int main(int argc, char** argv) {
  // The capture's index and the analysis of it (on a worker thread) on huge pages.
  rdmascope::heap::reserveHugePageHeap(std::size_t{256} << 20);
  if (!rdmascope::ui::chooseGuiPlatform(argc, argv)) return 2;
  QApplication app(argc, argv);
  QApplication::setApplicationName(QStringLiteral("rdmascope"));
  QApplication::setApplicationVersion(QStringLiteral("%1 (commit %2)")
                                          .arg(QLatin1String(rdmascope::install::version()),
                                               QLatin1String(rdmascope::install::commit())));
  return rdmascope::ui::runGuiCommandLine(app);
}
