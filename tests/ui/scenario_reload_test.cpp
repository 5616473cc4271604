// A user's own scenario in the GUI: File > Save Scenario As writes the scenario shown as the
// JSON that runs it; the window watches the scenario file and offers to reload it when it
// changes on disk, keeping the current event; a step's narration shows in the explanation.
#include <gtest/gtest.h>

#include <QMessageBox>
#include <QPushButton>
#include <QTest>
#include <QTextBrowser>
#include <fstream>

#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/scenario_controller.h"
#include "rdmascope/ui/scenario_reload_bar.h"
#include "rdmascope/verbs_backend/scenario.h"

namespace rdmascope::ui {
namespace {

using nlohmann::json;

std::string scratch(const std::string& name) {
  return std::string(RDMASCOPE_BINARY_DIR) + "/tests/ui/reload-" + name;
}

std::string readAll(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void closeBoxes(MainWindow& w) {
  for (auto* box : w.findChildren<QMessageBox*>())
    box->close();
}

TEST(ScenarioReload, SaveScenarioAsWritesTheBuiltinAsAFileThatRunsTheSame) {
  MainWindow w(nullptr, {});
  w.show();
  ASSERT_TRUE(w.openScenario("rc-write")) << w.lastError().toStdString();
  const auto builtin = *w.scenario()->recording();
  const std::string path = scratch("saved.json");
  ASSERT_TRUE(w.saveScenarioAs(QString::fromStdString(path)));
  EXPECT_EQ(readAll(path),
            verbs_backend::scenarioJsonText(verbs_backend::builtinScenarioJson("rc-write")));
  EXPECT_EQ(w.reloadBar()->path().toStdString(), path);  // saved to be edited: watched
  ASSERT_TRUE(w.openScenarioFile(QString::fromStdString(path))) << w.lastError().toStdString();
  EXPECT_EQ(w.scenario()->recording()->completions, builtin.completions);
  EXPECT_EQ(w.scenario()->eventCount(), static_cast<int>(builtin.events.size()));
  // A file that cannot be written is a one-line error.
  EXPECT_FALSE(w.saveScenarioAs(QStringLiteral("/nonexistent-dir/x.json")));
  EXPECT_TRUE(
      w.lastError().startsWith(QStringLiteral("/nonexistent-dir/x.json: cannot be written")))
      << w.lastError().toStdString();
  closeBoxes(w);
}

TEST(ScenarioReload, AnEditedFileIsOfferedForReloadKeepingTheCurrentEvent) {
  const std::string path = scratch("edited.json");
  json j = verbs_backend::builtinScenarioJson("rc-send-recv");
  std::ofstream(path) << j.dump(2);
  MainWindow w(nullptr, {});
  w.show();
  ASSERT_TRUE(w.openScenarioFile(QString::fromStdString(path))) << w.lastError().toStdString();
  ScenarioReloadBar* bar = w.reloadBar();
  EXPECT_FALSE(bar->offering());
  const int events = w.scenario()->eventCount();
  ASSERT_GT(events, 30);
  w.scenario()->goTo(25);

  // Narrated in the editor: the step's title and explanation reach the explanation pane.
  j["steps"][8]["title"] = "Host B posts its receive";
  j["steps"][8]["explanation"] = "Before any SEND can land, B gives its NIC a buffer.";
  std::ofstream(path) << j.dump(2);
  ASSERT_TRUE(QTest::qWaitFor([&] { return bar->offering(); }, 5000));
  EXPECT_FALSE(bar->isHidden());
  bar->findChild<QPushButton*>(QStringLiteral("reloadButton"))->click();
  EXPECT_FALSE(bar->offering());
  EXPECT_EQ(w.scenario()->current(), 25);
  EXPECT_EQ(w.scenario()->eventCount(), events);
  int narrated = -1;
  for (int e = 0; e < events && narrated < 0; ++e) {
    w.scenario()->goTo(e);
    if (w.scenario()->explanation().contains(
            QStringLiteral("\u201cHost B posts its receive\u201d")))
      narrated = e;
  }
  ASSERT_GE(narrated, 0);
  EXPECT_TRUE(w.explanation()->toPlainText().contains(
      QStringLiteral("Before any SEND can land, B gives its NIC a buffer.")))
      << w.explanation()->toPlainText().toStdString();

  // A shorter scenario: the current event becomes its last.
  w.scenario()->goTo(events - 1);
  j["steps"].erase(j["steps"].size() - 1);  // the memory comparison
  j["steps"].erase(j["steps"].size() - 1);  // host B's poll
  std::ofstream(path) << j.dump(2);
  ASSERT_TRUE(QTest::qWaitFor([&] { return bar->offering(); }, 5000));
  ASSERT_TRUE(w.reloadScenarioFile()) << w.lastError().toStdString();
  EXPECT_LT(w.scenario()->eventCount(), events);
  EXPECT_EQ(w.scenario()->current(), w.scenario()->eventCount() - 1);

  // A mistake: the error names the line and column, the scenario shown stays, and the fix is
  // offered again.
  const int kept = w.scenario()->eventCount();
  std::ofstream(path) << "{\n  \"name\": \"x\",\n  \"hosts\": 3\n}\n";
  ASSERT_TRUE(QTest::qWaitFor([&] { return bar->offering(); }, 5000));
  bar->reload();
  EXPECT_EQ(w.lastError().toStdString(), path + ":3:12: /hosts: expected an array, got 3");
  closeBoxes(w);
  EXPECT_EQ(w.scenario()->eventCount(), kept);
  std::ofstream(path) << j.dump(2);
  ASSERT_TRUE(QTest::qWaitFor([&] { return bar->offering(); }, 5000));
  EXPECT_TRUE(w.reloadScenarioFile()) << w.lastError().toStdString();
}

TEST(ScenarioReload, ABuiltinIsNotWatchedAndIgnoreHidesTheOffer) {
  const std::string path = scratch("ignored.json");
  const json j = verbs_backend::builtinScenarioJson("rc-write");
  std::ofstream(path) << j.dump(2);
  MainWindow w(nullptr, {});
  w.show();
  ASSERT_TRUE(w.openScenarioFile(QString::fromStdString(path))) << w.lastError().toStdString();
  std::ofstream(path) << j.dump(1);
  ASSERT_TRUE(QTest::qWaitFor([&] { return w.reloadBar()->offering(); }, 5000));
  w.reloadBar()->findChild<QPushButton*>(QStringLiteral("ignoreButton"))->click();
  EXPECT_FALSE(w.reloadBar()->offering());
  EXPECT_TRUE(w.reloadBar()->isHidden());

  ASSERT_TRUE(w.openScenario("tour"));
  EXPECT_TRUE(w.reloadBar()->path().isEmpty());
  std::ofstream(path) << j.dump(3);
  QTest::qWait(400);
  EXPECT_FALSE(w.reloadBar()->offering());
}

}  // namespace
}  // namespace rdmascope::ui
