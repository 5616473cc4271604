// The built-in scenarios' narration reaches the GUI's language: every title, description and
// explanation verbs_backend writes for a built-in is in the GUI's catalog (so lupdate offers it
// for translation), and in Chinese every phase title is translated except the verbs call a
// step makes.
#include "rdmascope/ui/scenario_narration.h"

#include <gtest/gtest.h>

#include <QRegularExpression>
#include <algorithm>
#include <set>

#include "rdmascope/ui/language.h"
#include "rdmascope/ui/scenario_player.h"
#include "rdmascope/verbs_backend/scenario.h"

namespace rdmascope::ui {
namespace {

std::set<std::string> catalog() {
  std::set<std::string> c;
  for (const char* s : builtInNarrationCatalog())
    c.insert(s);
  return c;
}

TEST(ScenarioNarration, EveryBuiltInsNarrationIsInTheCatalog) {
  const auto known = catalog();
  std::size_t checked = 0;
  for (const auto& name : verbs_backend::builtinScenarioNames()) {
    const auto sc = verbs_backend::builtinScenario(name);
    std::vector<std::string> texts = {sc.description, sc.explanation};
    if (sc.title != name) texts.push_back(sc.title);
    for (const auto& step : sc.steps) {
      texts.push_back(step.title);
      texts.push_back(step.explanation);
    }
    for (const auto& t : texts) {
      if (t.empty()) continue;
      EXPECT_TRUE(known.contains(t)) << name << ": not in the catalog: " << t;
      ++checked;
    }
  }
  EXPECT_GT(checked, 20u);
  // The first phase planPhases() gives every scenario.
  ScenarioRecording rec;
  FrameStore frames;
  std::string error;
  ASSERT_TRUE(recordScenario("rc-write", sim::WireFormat::RoceV2Ipv4, rec, frames, error)) << error;
  EXPECT_TRUE(known.contains(rec.phases.front().title)) << rec.phases.front().title;
}

TEST(ScenarioNarration, InEnglishTheTextStaysAsWritten) {
  installLanguage(QStringLiteral("en"));
  ScenarioRecording rec;
  FrameStore frames;
  std::string error;
  ASSERT_TRUE(recordScenario("tour", sim::WireFormat::RoceV2Ipv4, rec, frames, error)) << error;
  for (const auto& phase : rec.phases) {
    EXPECT_EQ(narration(phase.title), QString::fromStdString(phase.title));
    EXPECT_EQ(narration(phase.text), QString::fromStdString(phase.text));
  }
  EXPECT_TRUE(narration("").isEmpty());
}

TEST(ScenarioNarration, InChineseEveryPhaseIsTranslatedButTheVerbsCall) {
  ASSERT_TRUE(installLanguage(QStringLiteral("zh_CN")));
  const QRegularExpression cjk(QStringLiteral("[\\x{4e00}-\\x{9fff}]"));
  const QRegularExpression verbsCall(
      QStringLiteral("^[\\w-]+: ibv_(modify_qp|post_send|post_recv)\\("));
  std::size_t phases = 0;
  for (const auto& info : builtInScenarios()) {
    ScenarioRecording rec;
    FrameStore frames;
    std::string error;
    if (!recordScenario(info.id, sim::WireFormat::RoceV2Ipv4, rec, frames, error)) continue;
    EXPECT_TRUE(narration(rec.title).contains(cjk) || rec.title == info.id) << rec.title;
    EXPECT_TRUE(narration(rec.summary).contains(cjk)) << rec.summary;
    for (const auto& phase : rec.phases) {
      const QString t = narration(phase.title);
      EXPECT_TRUE(t.contains(cjk) || t.contains(verbsCall)) << info.id << ": " << t.toStdString();
      if (!phase.text.empty()) {
        EXPECT_TRUE(narration(phase.text).contains(cjk)) << phase.text;
      }
      ++phases;
    }
  }
  EXPECT_GT(phases, 50u);
  installLanguage(QStringLiteral("en"));
}

}  // namespace
}  // namespace rdmascope::ui
