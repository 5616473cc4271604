// File > Open Example: the captures of the data folder's examples/index.tsv (the build tree's
// mirror here, share/rdmascope of the package when installed) and the built-in scenarios.
#include "rdmascope/ui/example_menu.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QCoreApplication>
#include <QFile>
#include <QMenu>

#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/scenario_controller.h"
#include "rdmascope/ui/scenario_player.h"

namespace rdmascope::ui {
namespace {

QList<QAction*> entries(QMenu& menu) {
  QList<QAction*> out;
  for (QAction* a : menu.actions())
    if (!a->isSeparator() && a->data().isValid()) out << a;
  return out;
}

TEST(ExampleMenu, ListsTheBundledCapturesAndOpensOne) {
  MainWindow w;
  auto* menu = w.findChild<QMenu*>(QStringLiteral("openExampleMenu"));
  ASSERT_NE(menu, nullptr);
  const auto actions = entries(*menu);
  QStringList captures;
  for (QAction* a : actions)
    if (a->data().toString().endsWith(QStringLiteral(".pcap"))) captures << a->text();
  // The nine of packaging/examples.tsv, in its order, each with its line.
  ASSERT_EQ(captures.size(), 9) << captures.join(' ').toStdString();
  EXPECT_EQ(captures.front(), QStringLiteral("rc-pingpong"));
  EXPECT_TRUE(captures.contains(QStringLiteral("rc-lossy-stream")));
  QAction* first = actions.front();
  EXPECT_TRUE(first->toolTip().startsWith(QStringLiteral("ibv_rc_pingpong:")))
      << first->toolTip().toStdString();
  EXPECT_TRUE(QFile::exists(first->data().toString()));
  first->trigger();
  EXPECT_TRUE(w.lastError().isEmpty()) << w.lastError().toStdString();
  EXPECT_EQ(w.frameStore().size(), 50u);  // lab_rc_pingpong.pcap: 50 frames
}

TEST(ExampleMenu, ListsTheBuiltInScenariosAndOpensOne) {
  MainWindow w(nullptr, QString());
  auto* menu = w.findChild<QMenu*>(QStringLiteral("openExampleMenu"));
  ASSERT_NE(menu, nullptr);
  QAction* read = nullptr;
  int scenarios = 0;
  for (QAction* a : entries(*menu)) {
    if (a->data().toString().endsWith(QStringLiteral(".pcap")) ||
        a->data().toString().endsWith(QStringLiteral(".json")))
      continue;
    ++scenarios;
    if (a->data().toString() == QStringLiteral("rc-read")) read = a;
  }
  EXPECT_EQ(scenarios, static_cast<int>(builtInScenarios().size()));
  ASSERT_NE(read, nullptr);
  EXPECT_FALSE(read->toolTip().isEmpty());
  read->trigger();
  EXPECT_TRUE(w.lastError().isEmpty()) << w.lastError().toStdString();
  ASSERT_NE(w.scenario()->recording(), nullptr);
  EXPECT_GT(w.scenario()->eventCount(), 0);
}

TEST(ExampleMenu, SaysSoWhenNoCapturesAreInstalled) {
  MainWindow w(nullptr, QString());
  QMenu menu;
  EXPECT_EQ(fillExampleMenu(menu, w, QStringLiteral("/nonexistent/bin")), 0);
  bool saysNone = false;
  for (QAction* a : menu.actions())
    if (a->text().contains(QStringLiteral("no example captures")) && !a->isEnabled())
      saysNone = true;
  EXPECT_TRUE(saysNone);
  EXPECT_EQ(entries(menu).size(), static_cast<qsizetype>(builtInScenarios().size()));
}

}  // namespace
}  // namespace rdmascope::ui
