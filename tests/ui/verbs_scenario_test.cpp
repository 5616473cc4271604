// The scenarios of verbs_backend (built-in and JSON files) drive the same views.
#include <gtest/gtest.h>

#include <QMessageBox>
#include <fstream>

#include "rdmascope/ui/host_pane.h"
#include "rdmascope/ui/host_state_models.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/packet_pane.h"
#include "rdmascope/ui/scenario_controller.h"
#include "rdmascope/verbs_backend/scenario.h"
#include "scenario_support.h"

namespace rdmascope::ui {
namespace {

TEST(VerbsScenarios, EveryBuiltInIsListedAndRecordsAtLeastOneFrame) {
  const auto& list = builtInScenarios();
  ASSERT_GT(list.size(), 5u);
  for (const auto& info : list) {
    ScenarioRecording rec;
    FrameStore frames;
    std::string error;
    ASSERT_TRUE(recordScenario(info.id, sim::WireFormat::RoceV2Ipv4, rec, frames, error))
        << info.id << ": " << error;
    EXPECT_FALSE(rec.events.empty()) << info.id;
    if (rec.transport == RecordingTransport::Verbs) {
      EXPECT_EQ(rec.snapshots.size(), rec.events.size()) << info.id;
    } else {
      EXPECT_EQ(rec.hostStates.size(), rec.events.size()) << info.id;
    }
    EXPECT_GT(frames.size(), 0u) << info.id;
  }
}

TEST(VerbsScenarios, RnrRetryShowsItsNakAndCompletions) {
  MainWindow w(nullptr, {});
  w.show();
  ASSERT_TRUE(w.openScenario("rnr-retry")) << w.lastError().toStdString();
  const auto* rec = w.scenario()->recording();
  const int rnr = test::findRnrNakEvent(*rec, w.frameStore());
  ASSERT_GE(rnr, 0);
  w.scenario()->goTo(w.scenario()->eventCount() - 1);
  EXPECT_GT(w.hostPane(0)->completionModel()->rowCount(), 0);
  EXPECT_EQ(w.hostPane(0)->completionModel()->index(0, 2).data().toString(), "success");
  EXPECT_EQ(w.packetPane()->packetModel()->rowCount(), static_cast<int>(w.frameStore().size()));
}

TEST(VerbsScenarios, OpensAScenarioFileAndReportsABadOne) {
  const std::string good = RDMASCOPE_BINARY_DIR "/tests/ui/rc-write.json";
  std::ofstream(good) << verbs_backend::builtinScenarioJson("rc-write").dump(2);
  MainWindow w(nullptr, {});
  w.show();
  ASSERT_TRUE(w.openScenarioFile(QString::fromStdString(good))) << w.lastError().toStdString();
  EXPECT_GT(w.scenario()->eventCount(), 10);
  w.scenario()->goTo(w.scenario()->eventCount() - 1);
  EXPECT_GT(w.hostPane(0)->completionModel()->rowCount(), 0);

  const std::string bad = RDMASCOPE_BINARY_DIR "/tests/ui/bad-scenario.json";
  std::ofstream(bad) << R"({"name": "x", "hosts": 3})";
  EXPECT_FALSE(w.openScenarioFile(QString::fromStdString(bad)));
  EXPECT_FALSE(w.lastError().isEmpty());
  EXPECT_FALSE(w.findChildren<QMessageBox*>().isEmpty());
  for (auto* box : w.findChildren<QMessageBox*>())
    box->close();
  // The previous scenario is still there.
  EXPECT_TRUE(w.scenario()->loaded());
  EXPECT_GT(w.scenario()->eventCount(), 10);
}

}  // namespace
}  // namespace rdmascope::ui
