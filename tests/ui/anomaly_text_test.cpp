// The anomaly details in the GUI (anomaly_text.h): in English exactly the analyzer's detail, in
// Chinese a translation of every phrase, for every anomaly of every repository capture and of
// the captures made for the phrases the repository lacks (tests/support/anomaly_cases.h).
#include "rdmascope/ui/anomaly_text.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QRegularExpression>
#include <set>

#include "../support/anomaly_cases.h"
#include "rdmascope/packets/mad_headers.h"
#include "rdmascope/ui/language.h"

namespace rdmascope::ui {
namespace {

// An English word left in a translated detail (a phrase untranslated inside it), once the names
// it quotes (addresses, tshark's Terminate reason, CM reject reasons) and go-back-N are removed.
QString englishWordIn(QString zh, const analysis::Anomaly& a) {
  for (const auto& name : a.detailNames)
    zh.remove(QString::fromStdString(name));
  if (a.what.phrase == analysis::DetailPhrase::CmReject)
    zh.remove(QString::fromUtf8(
        packets::cmRejectReasonName(static_cast<std::uint16_t>(a.what.number)).data()));
  zh.remove(QStringLiteral("go-back-N"));
  static const QRegularExpression word(QStringLiteral("\\b[a-z]{3,}\\b"));
  return word.match(zh).captured();
}

bool hasCjk(const QString& s) {
  return std::any_of(s.begin(), s.end(),
                     [](QChar c) { return c.unicode() >= 0x4e00 && c.unicode() <= 0x9fff; });
}

class AnomalyText : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    cases_ = new std::vector<::rdmascope::test::AnomalyCase>(::rdmascope::test::anomalyCases());
  }
  static void TearDownTestSuite() {
    delete cases_;
    cases_ = nullptr;
  }
  void SetUp() override {
    qputenv("XDG_CONFIG_HOME", QDir::tempPath().toUtf8() + "/rdmascope-language-test");
  }
  void TearDown() override { installLanguage(QStringLiteral("en")); }
  static std::vector<::rdmascope::test::AnomalyCase>* cases_;
};
std::vector<::rdmascope::test::AnomalyCase>* AnomalyText::cases_ = nullptr;

TEST_F(AnomalyText, InEnglishEveryDetailReadsAsTheAnalyzersDetail) {
  ASSERT_TRUE(installLanguage(QStringLiteral("en")));
  std::set<analysis::DetailPhrase> phrases;
  for (const auto& c : *cases_) {
    SCOPED_TRACE(c.name);
    for (const auto& a : c.anomalies) {
      EXPECT_EQ(anomalyDetail(a), QString::fromStdString(a.detail))
          << analysis::toString(a.what.phrase);
      phrases.insert(a.what.phrase);
    }
  }
  for (int p = 1; p < analysis::kDetailPhraseCount; ++p)
    EXPECT_TRUE(phrases.count(static_cast<analysis::DetailPhrase>(p)))
        << analysis::toString(static_cast<analysis::DetailPhrase>(p)) << " is never shown";
}

TEST_F(AnomalyText, InChineseEveryDetailIsTranslated) {
  ASSERT_TRUE(installLanguage(QStringLiteral("zh_CN")));
  std::size_t n = 0;
  for (const auto& c : *cases_) {
    SCOPED_TRACE(c.name);
    for (const auto& a : c.anomalies) {
      const QString zh = anomalyDetail(a);
      const QString en = QString::fromStdString(a.detail);
      EXPECT_NE(zh, en) << analysis::toString(a.what.phrase) << ": " << a.detail;
      EXPECT_TRUE(hasCjk(zh)) << analysis::toString(a.what.phrase) << ": " << zh.toStdString();
      EXPECT_EQ(englishWordIn(zh, a), QString())
          << analysis::toString(a.what.phrase) << ": " << zh.toStdString();
      ++n;
    }
  }
  EXPECT_GT(n, 1000u);
  // The example of the translation guide, and the numbers as the English writes them.
  analysis::Anomaly a;
  a.kind = analysis::AnomalyKind::Retransmission;
  a.psn = 5070456;
  a.relatedFrame = 18;
  a.what.phrase = analysis::DetailPhrase::ResentAfterNak;
  EXPECT_EQ(anomalyDetail(a), QStringLiteral("PSN 5070456 在帧 18 的 NAK 之后重传"));
  installLanguage(QStringLiteral("en"));
  EXPECT_EQ(anomalyDetail(a), QStringLiteral("PSN 5070456 resent after the NAK in frame 18"));
}

}  // namespace
}  // namespace rdmascope::ui
