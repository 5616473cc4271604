#include "rdmascope/ui/language.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QMenu>
#include <QMenuBar>
#include <QTabWidget>

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
