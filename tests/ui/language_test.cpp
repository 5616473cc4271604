#include "rdmascope/ui/language.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QMenu>
#include <QMenuBar>
#include <QTabWidget>

#include "rdmascope/analysis/flow_analyzer.h"
#include "rdmascope/ui/analysis_models.h"
#include "rdmascope/ui/main_window.h"

namespace rdmascope::ui {
namespace {

QString firstMenuTitle(MainWindow& w) {
  return w.menuBar()->actions().front()->text();
}

class Language : public ::testing::Test {
 protected:
  void SetUp() override {
    // Keep the choice out of the user's settings.
    qputenv("XDG_CONFIG_HOME", QDir::tempPath().toUtf8() + "/rdmascope-language-test");
  }
  void TearDown() override { installLanguage(QStringLiteral("en")); }
};

TEST_F(Language, TheChineseTranslationLoadsAndTheMenusComeOutInChinese) {
  ASSERT_TRUE(installLanguage(QStringLiteral("zh_CN")));
  EXPECT_EQ(installedLanguage(), QStringLiteral("zh_CN"));
  MainWindow w(nullptr, QString());
  EXPECT_EQ(firstMenuTitle(w), QStringLiteral("文件(&F)"));
  EXPECT_EQ(w.lowerTabs()->tabText(0), QStringLiteral("协议栈分层"));
}

// The Anomalies table names every kind the analyzer finds in words, one name per kind, not by
// the CLI's identifier (psn_gap), and in Chinese by a Chinese name where the English one is
// more than an acronym.
TEST_F(Language, EveryAnomalyKindHasANameInEachLanguage) {
  using K = analysis::AnomalyKind;
  const auto last = static_cast<int>(K::CnpWithoutMark);
  const QStringList acronyms = {"NAK", "RNR NAK", "CNP"};
  QStringList english;
  for (int k = 0; k <= last; ++k) {
    const auto kind = static_cast<K>(k);
    const QString name = anomalyKindName(kind);
    EXPECT_FALSE(name.isEmpty());
    EXPECT_NE(name.toStdString(), std::string(analysis::toString(kind)));
    EXPECT_FALSE(english.contains(name)) << name.toStdString() << " names two kinds";
    english << name;
  }
  ASSERT_TRUE(installLanguage(QStringLiteral("zh_CN")));
  QStringList chinese;
  for (int k = 0; k <= last; ++k) {
    const QString name = anomalyKindName(static_cast<K>(k));
    EXPECT_FALSE(chinese.contains(name)) << name.toStdString() << " names two kinds";
    chinese << name;
    if (acronyms.contains(english[k]))
      EXPECT_EQ(name, english[k]);
    else
      EXPECT_NE(name, english[k]) << english[k].toStdString() << " is not translated";
  }
}

TEST_F(Language, ViewLanguageSwitchesTheOpenWindowBothWays) {
  MainWindow w(nullptr, QString());
  EXPECT_EQ(firstMenuTitle(w), QStringLiteral("&File"));
  auto* menu = w.findChild<QMenu*>(QStringLiteral("languageMenu"));
  ASSERT_NE(menu, nullptr);
  QAction* zh = nullptr;
  QAction* en = nullptr;
  for (QAction* a : menu->actions()) {
    if (a->objectName() == QLatin1String("language_zh_CN")) zh = a;
    if (a->objectName() == QLatin1String("language_en")) en = a;
  }
  ASSERT_TRUE(zh && en);
  zh->trigger();
  EXPECT_EQ(savedLanguageChoice(), QStringLiteral("zh_CN"));
  EXPECT_EQ(firstMenuTitle(w), QStringLiteral("文件(&F)"));
  EXPECT_EQ(w.lowerTabs()->tabText(1), QStringLiteral("事件"));
  EXPECT_EQ(menu->title(), QStringLiteral("语言(&L)"));
  en->trigger();
  EXPECT_EQ(savedLanguageChoice(), QStringLiteral("en"));
  EXPECT_EQ(firstMenuTitle(w), QStringLiteral("&File"));
  EXPECT_EQ(w.lowerTabs()->tabText(1), QStringLiteral("Events"));
}

TEST_F(Language, SystemFollowsTheLocale) {
  EXPECT_EQ(resolveLanguage(QStringLiteral("en")), QStringLiteral("en"));
  EXPECT_EQ(resolveLanguage(QStringLiteral("zh_CN")), QStringLiteral("zh_CN"));
  const bool chinese = QLocale::system().uiLanguages().join(' ').startsWith(QLatin1String("zh"));
  EXPECT_EQ(resolveLanguage(QStringLiteral("system")),
            chinese ? QStringLiteral("zh_CN") : QStringLiteral("en"));
  EXPECT_FALSE(installLanguage(QStringLiteral("xx")));
}

}  // namespace
}  // namespace rdmascope::ui
