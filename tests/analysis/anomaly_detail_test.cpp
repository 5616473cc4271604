// The typed anomaly details (anomaly_detail.h): every anomaly of every repository capture, and
// of captures made for the phrases the repository lacks, has a phrase whose English rendering is
// its detail, and every phrase occurs in them (so the GUI's tests see every phrase too).
#include "rdmascope/analysis/anomaly_detail.h"

#include <gtest/gtest.h>

#include <set>

#include "../support/anomaly_cases.h"

namespace rdmascope::analysis {
namespace {

TEST(AnomalyDetail, EveryAnomalyHasAPhraseWhoseEnglishIsItsDetail) {
  std::set<DetailPhrase> seen;
  std::size_t n = 0;
  for (const auto& c : ::rdmascope::test::anomalyCases()) {
    SCOPED_TRACE(c.name);
    for (const Anomaly& a : c.anomalies) {
      ++n;
      EXPECT_NE(a.what.phrase, DetailPhrase::None) << a.detail;
      EXPECT_FALSE(a.detail.empty());
      EXPECT_EQ(anomalyDetailText(a), a.detail) << toString(a.what.phrase);
      seen.insert(a.what.phrase);
    }
  }
  EXPECT_GT(n, 1000u);
  for (int p = 1; p < kDetailPhraseCount; ++p)
    EXPECT_TRUE(seen.count(static_cast<DetailPhrase>(p)))
        << toString(static_cast<DetailPhrase>(p)) << " occurs in no test input";
}

// The detail is made from the typed form alone: an anomaly copied with another detail renders
// as the original, and changing an argument changes the text.
TEST(AnomalyDetail, TheTextComesFromTheTypedFormAlone) {
  Anomaly a;
  a.kind = AnomalyKind::Retransmission;
  a.psn = 5070456;
  a.relatedFrame = 18;
  a.what.phrase = DetailPhrase::ResentAfterNak;
  EXPECT_EQ(anomalyDetailText(a), "PSN 5070456 resent after the NAK in frame 18");
  a.what.unseen = UnseenPsns::Range;
  a.what.from = 5070453;
  a.what.to = 5070455;
  EXPECT_EQ(anomalyDetailText(a),
            "PSN 5070456 resent after the NAK in frame 18 (its PSNs 5070453..5070455 not seen)");
  a.kind = AnomalyKind::PsnGap;
  a.what = {};
  a.what.phrase = DetailPhrase::PsnGap;
  a.what.from = 5070449;
  a.psn = 5070452;
  a.count = 3;
  EXPECT_EQ(anomalyDetailText(a), "expected PSN 5070449, got 5070452: 3 PSNs missing");
  a.what.phrase = DetailPhrase::None;
  EXPECT_EQ(anomalyDetailText(a), "");
  EXPECT_EQ(toString(DetailPhrase::TcpNeverFullySent), "TcpNeverFullySent");
}

}  // namespace
}  // namespace rdmascope::analysis
