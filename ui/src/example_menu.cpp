#include "rdmascope/ui/example_menu.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMenu>

#include "rdmascope/install/install_paths.h"
#include "rdmascope/sim/topology.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/scenario_narration.h"
#include "rdmascope/ui/scenario_player.h"

namespace rdmascope::ui {

int fillExampleMenu(QMenu& menu, MainWindow& window, const QString& programDir) {
  const auto captures = install::exampleCaptures(programDir.toStdString());
  menu.addSection(QObject::tr("Captures from the Soft-RoCE lab"));
  if (captures.empty()) {
    menu.addAction(QObject::tr("(no example captures installed)"))->setEnabled(false);
  }
  for (const auto& c : captures) {
    const QString path = QString::fromStdString(c.path.string());
    QAction* a = menu.addAction(QFileInfo(path).completeBaseName(), &window,
                                [&window, path] { window.openCapture(path); });
    a->setToolTip(QString::fromStdString(c.description));
    a->setStatusTip(a->toolTip());
    a->setData(path);
  }
  menu.addSection(QObject::tr("Simulated scenarios"));
  for (const auto& s : builtInScenarios()) {
    const QString id = QString::fromStdString(s.id);
    QAction* a =
        menu.addAction(narration(s.title), &window, [&window, id] { window.openScenario(id); });
    a->setToolTip(narration(s.description));
    a->setStatusTip(a->toolTip());
    a->setData(id);
  }
  menu.addSection(QObject::tr("Congestion scenarios (PFC, ECN, DCQCN)"));
  const auto dir = install::findDataFile("congestion", programDir.toStdString());
  QStringList files;
  if (dir)
    files = QDir(QString::fromStdString(dir->string()))
                .entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
  if (files.isEmpty())
    menu.addAction(QObject::tr("(no congestion scenarios installed)"))->setEnabled(false);
  for (const QString& name : files) {
    const QString path = QDir(QString::fromStdString(dir->string())).filePath(name);
    std::string error;
    const auto spec = sim::loadScenario(path.toStdString(), error);
    QAction* a = menu.addAction(QFileInfo(name).completeBaseName(), &window,
                                [&window, path] { window.openCongestionScenario(path); });
    a->setToolTip(spec ? QString::fromStdString(spec->description) : QString::fromStdString(error));
    a->setStatusTip(a->toolTip());
    a->setData(path);
  }
  menu.setToolTipsVisible(true);
  return static_cast<int>(captures.size());
}

}  // namespace rdmascope::ui
