// The glossary (Help > Glossary): the primer's words and the headers' fields, searchable, and
// reachable from the explanation pane's links and the detail tree's field tooltips.
#include "rdmascope/ui/glossary.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QTextBrowser>
#include <QUrl>
#include <functional>

#include "rdmascope/ui/detail_tree_model.h"
#include "rdmascope/ui/frame_store.h"
#include "rdmascope/ui/glossary_dialog.h"
#include "rdmascope/ui/main_window.h"
#include "test_frames.h"

namespace rdmascope::ui {
namespace {

TEST(Glossary, HoldsThePrimersWordsAndTheHeaders) {
  for (const char* key :
       {"zero-copy", "kernel bypass", "CPU offload", "two-sided", "one-sided", "AETH",
        "MSN",       "PSN",           "RNR",         "go-back-N", "Q_Key",     "P_Key",
        "ICRC",      "BTH",           "GRH",         "RETH",      "DETH",      "IETH",
        "ImmDt",     "AtomicETH",     "CNP",         "MPA",       "DDP",       "RDMAP",
        "lkey",      "rkey",          "QPN",         "GID"}) {
    const GlossaryEntry e = Glossary::find(QString::fromLatin1(key));
    EXPECT_EQ(e.key, QString::fromLatin1(key));
    EXPECT_GT(e.definition.size(), 40) << key;
  }
  EXPECT_TRUE(Glossary::find(QStringLiteral("rnr")).key == QStringLiteral("RNR"));
  EXPECT_TRUE(Glossary::find(QStringLiteral("no such thing")).key.isEmpty());
  EXPECT_TRUE(Glossary::tooltip(QStringLiteral("RNR")).startsWith("RNR (Receiver Not Ready): "));
  const auto all = Glossary::entries();
  for (std::size_t i = 1; i < all.size(); ++i)
    EXPECT_LT(all[i - 1].key.compare(all[i].key, Qt::CaseInsensitive), 0);
}

TEST(Glossary, FieldsOfTheDetailTreeLeadToTheirEntry) {
  EXPECT_EQ(Glossary::keyForField(QStringLiteral("infiniband.bth.psn")), "PSN");
  EXPECT_EQ(Glossary::keyForField(QStringLiteral("infiniband.aeth.msn")), "MSN");
  EXPECT_EQ(Glossary::keyForField(QStringLiteral("infiniband.aeth.syndrome")), "AETH");
  EXPECT_EQ(Glossary::keyForField(QStringLiteral("infiniband.reth.r_key")), "rkey");
  EXPECT_EQ(Glossary::keyForField(QStringLiteral("infiniband.bth.destqp")), "QPN");
  EXPECT_EQ(Glossary::keyForField(QStringLiteral("infiniband.deth")), "DETH");
  EXPECT_TRUE(Glossary::keyForField(QStringLiteral("eth.src")).isEmpty());

  // A decoded RoCE frame: the PSN row's tooltip carries the PSN entry.
  DetailTreeModel model;
  FrameStore store;
  store.append(test::roceFrame(7), 0);
  model.setDissection(std::make_shared<const packets::Dissection>(store.decode(0)));
  bool found = false;
  std::function<void(const QModelIndex&)> walk = [&](const QModelIndex& parent) {
    for (int r = 0; r < model.rowCount(parent); ++r) {
      const QModelIndex i = model.index(r, 0, parent);
      if (model.data(i, DetailTreeModel::KeyRole).toString() == "infiniband.bth.psn") {
        EXPECT_TRUE(model.data(i, Qt::ToolTipRole)
                        .toString()
                        .contains(Glossary::tooltip(QStringLiteral("PSN"))));
        found = true;
      }
      walk(i);
    }
  };
  walk({});
  EXPECT_TRUE(found);
}

TEST(Glossary, AnomalyBadgesLeadToTheirEntry) {
  using A = analysis::AnomalyKind;
  EXPECT_EQ(Glossary::keyForAnomaly(A::RnrNak), "RNR");
  EXPECT_EQ(Glossary::keyForAnomaly(A::Nak), "NAK");
  EXPECT_EQ(Glossary::keyForAnomaly(A::PsnGap), "PSN");
  EXPECT_EQ(Glossary::keyForAnomaly(A::IcrcFailure), "ICRC");
  EXPECT_EQ(Glossary::keyForAnomaly(A::Retransmission), "go-back-N");
  for (const auto kind : {A::RnrNak, A::Nak, A::PsnGap, A::Cnp, A::CrcFailure, A::Terminate})
    EXPECT_FALSE(Glossary::find(Glossary::keyForAnomaly(kind)).key.isEmpty());
}

TEST(Glossary, TheDialogSearchesAndOpensFromTheExplanationsLinks) {
  MainWindow w(nullptr, QString());
  auto* dialog = w.findChild<GlossaryDialog*>();
  ASSERT_TRUE(dialog);
  auto* action = w.findChild<QAction*>(QStringLiteral("glossaryAction"));
  ASSERT_TRUE(action);
  action->trigger();
  EXPECT_TRUE(dialog->isVisible());
  dialog->setSearch(QStringLiteral("receiver not ready"));
  EXPECT_TRUE(dialog->visibleKeys().contains("RNR"));
  EXPECT_FALSE(dialog->visibleKeys().contains("ICRC"));
  dialog->setSearch(QStringLiteral("zzzz-nothing"));
  EXPECT_TRUE(dialog->visibleKeys().isEmpty());
  EXPECT_TRUE(dialog->definitionView()->toPlainText().contains("zzzz-nothing"));
  dialog->hide();

  // A link in the explanation pane opens the entry.
  const QString html = explanationHtml(QStringLiteral("t"), QStringLiteral("a go-back-N resend"),
                                       {QStringLiteral("go-back-N")});
  EXPECT_TRUE(html.contains("<a href=\"glossary:go-back-N\">go-back-N</a>")) << html.toStdString();
  Q_EMIT w.explanation()->anchorClicked(QUrl(QStringLiteral("glossary:ICRC")));
  EXPECT_TRUE(dialog->isVisible());
  EXPECT_TRUE(dialog->definitionView()->toPlainText().contains("Invariant CRC"));
  EXPECT_FALSE(dialog->showTerm(QStringLiteral("no such thing")));
}

}  // namespace
}  // namespace rdmascope::ui
