// Memory registration and keys made visible (the out-of-band exchange as ladder rows, the MRs
// with their keys and access flags, the remote address and rkey of WRITE/READ named and linked
// to their MR) and the ladder's labels, PSN base and dropped frames, on real scenarios.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QFontMetricsF>
#include <QTableView>
#include <QTest>
#include <QTextBrowser>
#include <QTreeView>

#include "rdmascope/ui/detail_tree_model.h"
#include "rdmascope/ui/event_explanation.h"
#include "rdmascope/ui/host_pane.h"
#include "rdmascope/ui/host_state_models.h"
#include "rdmascope/ui/ladder_view.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/packet_pane.h"
#include "rdmascope/ui/psn_base.h"
#include "rdmascope/ui/scenario_controller.h"
#include "scenario_support.h"

namespace rdmascope::ui {
namespace {

QString hexOf(std::uint64_t v) {
  return QStringLiteral("0x%1").arg(v, 0, 16);
}

struct Recorded {
  ScenarioRecording rec;
  FrameStore frames;
};

Recorded record(const std::string& id) {
  Recorded r;
  std::string error;
  EXPECT_TRUE(recordScenario(id, sim::WireFormat::RoceV2Ipv4, r.rec, r.frames, error)) << error;
  return r;
}

// The events carrying an exchange message, in order.
std::vector<const ScenarioEvent*> oobEvents(const ScenarioRecording& rec) {
  std::vector<const ScenarioEvent*> out;
  for (const auto& e : rec.events)
    if (e.oob) out.push_back(&e);
  return out;
}

TEST(KeysRecording, EveryExchangeIsATypedMessageWithTheValuesTheQpsUse) {
  for (const std::string id :
       {"tour", "rc-write", "rc-read", "remote-access-error", "uc-write", "lossy-go-back-n"}) {
    const Recorded r = record(id);
    const auto oob = oobEvents(r.rec);
    ASSERT_EQ(oob.size(), 2u) << id;
    const Snapshot& last = r.rec.snapshots.back();
    for (int k = 0; k < 2; ++k) {
      const OobMessage& m = *oob[static_cast<std::size_t>(k)]->oob;
      EXPECT_EQ(m.from, k) << id;
      EXPECT_EQ(oob[static_cast<std::size_t>(k)]->host, k) << id;
      const HostSnapshot& me = last.hosts[static_cast<std::size_t>(k)];
      const HostSnapshot& peer = last.hosts[static_cast<std::size_t>(1 - k)];
      ASSERT_FALSE(me.qps.empty()) << id;
      ASSERT_FALSE(me.mrs.empty()) << id;
      EXPECT_EQ(m.qpn, me.qps.front().qpn) << id;
      // The peer's QP expects the published PSN (its RQ PSN started there).
      EXPECT_EQ(m.mr, "buf") << id;
      EXPECT_EQ(m.addr, me.mrs.front().addr) << id;
      EXPECT_EQ(m.rkey, me.mrs.front().rkey) << id;
      EXPECT_EQ(m.length, me.mrs.front().length) << id;
      EXPECT_EQ(peer.qps.front().destQpn, m.qpn) << id;
    }
    if (id == "tour" || id == "rc-write") {  // the built-ins' default PSNs
      EXPECT_EQ(oob[0]->oob->psn, 0x1a2b3cu) << id;
      EXPECT_EQ(oob[1]->oob->psn, 0x4d5e6fu) << id;
    }
    // The exchange comes before the first RDMA frame.
    const int firstFrame = test::findEvent(r.rec, sim::TraceKind::FrameSent, -1);
    EXPECT_LT(oob[1] - r.rec.events.data(), firstFrame) << id;
  }
}

TEST(KeysRecording, MrsCarryTheirKeysAndAccessFlags) {
  const Recorded r = record("remote-access-error");
  const HostSnapshot& b = r.rec.snapshots.back().hosts[1];
  ASSERT_EQ(b.mrs.size(), 1u);
  EXPECT_EQ(b.mrs[0].name, "buf");
  EXPECT_NE(b.mrs[0].lkey, 0u);
  EXPECT_EQ(b.mrs[0].access & sim::access::kRemoteWrite, 0u);  // what the scenario is about
  const HostSnapshot& a = r.rec.snapshots.back().hosts[0];
  EXPECT_NE(a.mrs[0].access & sim::access::kRemoteWrite, 0u);
  // Before ibv_reg_mr nothing is registered.
  EXPECT_TRUE(r.rec.snapshots.front().hosts[0].mrs.empty());
}

TEST(KeysRecording, OneSidedPostsAndRethFramesNameTheRemoteMr) {
  for (const std::string id : {"rc-write", "rc-read", "tour"}) {
    const Recorded r = record(id);
    const HostSnapshot& b = r.rec.snapshots.back().hosts[1];
    int posts = 0, frames = 0;
    for (const auto& e : r.rec.events) {
      if (!e.remote) continue;
      (e.trace.kind == sim::TraceKind::FrameSent ? frames : posts)++;
      EXPECT_EQ(e.remote->host, 1) << id;
      EXPECT_EQ(e.remote->mr, 0) << id;
      EXPECT_EQ(e.remote->rkey, b.mrs[0].rkey) << id;
      EXPECT_GE(e.remote->addr, b.mrs[0].addr) << id;
      EXPECT_LT(e.remote->addr, b.mrs[0].addr + b.mrs[0].length) << id;
    }
    EXPECT_GE(posts, 1) << id;
    EXPECT_GE(frames, 1) << id;
  }
}

TEST(KeysExplanation, WriteAndReadNameTheirRemoteAddressRkeyAndMr) {
  for (const std::string id : {"rc-write", "rc-read"}) {
    const Recorded r = record(id);
    const MrSnapshot& mr = r.rec.snapshots.back().hosts[1].mrs[0];
    bool post = false, frame = false;
    for (std::size_t i = 0; i < r.rec.events.size(); ++i) {
      const ScenarioEvent& e = r.rec.events[i];
      if (!e.remote) continue;
      const EventExplanation x = EventExplainer::explain(r.rec, i);
      EXPECT_TRUE(x.body.contains(QStringLiteral("rkey %1").arg(hexOf(mr.rkey)))) << id;
      EXPECT_TRUE(x.body.contains(hexOf(e.remote->addr))) << id;
      EXPECT_TRUE(x.body.contains(QStringLiteral("MR #1 buf"))) << x.body.toStdString();
      EXPECT_TRUE(x.terms.contains(QStringLiteral("rkey")));
      if (e.trace.kind == sim::TraceKind::FrameSent) {
        frame = true;
        EXPECT_TRUE(x.body.contains(QStringLiteral("RETH"))) << id;
      } else {
        post = true;
        EXPECT_TRUE(x.body.contains(QStringLiteral("out-of-band exchange"))) << id;
      }
    }
    EXPECT_TRUE(post) << id;
    EXPECT_TRUE(frame) << id;
  }
  // A WRITE to an MR without remote access (the simulated NIC gives it rkey 0, as rxe does)
  // says why it will fail.
  const Recorded r = record("remote-access-error");
  bool said = false;
  for (std::size_t i = 0; i < r.rec.events.size(); ++i)
    if (r.rec.events[i].remote && EventExplainer::explain(r.rec, i).body.contains(QStringLiteral(
                                      "will refuse the request (remote access error)")))
      said = true;
  EXPECT_TRUE(said);
}

class KeysWindow : public ::testing::Test {
 protected:
  void open(const QString& id, QSize size = {1600, 1000}) {
    w = std::make_unique<MainWindow>(nullptr, id);
    w->resize(size);
    w->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(w.get()));
    ASSERT_TRUE(w->scenario()->loaded());
    rec = w->scenario()->recording();
  }
  void TearDown() override { PsnBase::instance().setDecimal(false); }
  std::unique_ptr<MainWindow> w;
  const ScenarioRecording* rec = nullptr;
};

TEST_F(KeysWindow, TheExchangeIsTwoSideChannelRowsBeforeTheFirstFrame) {
  open(QStringLiteral("tour"));
  LadderView* ladder = w->ladder();
  const auto& rows = ladder->frames();
  ASSERT_GE(rows.size(), 3u);
  ASSERT_EQ(w->scenario()->ladderRowOfFrame(0), 2);
  const auto oob = oobEvents(*rec);
  for (int k = 0; k < 2; ++k) {
    const auto& row = rows[static_cast<std::size_t>(k)];
    const OobMessage& m = *oob[static_cast<std::size_t>(k)]->oob;
    EXPECT_TRUE(row.sideChannel);
    EXPECT_EQ(row.fromHost, k);
    const QString text = ladder->labelText(k);
    EXPECT_TRUE(text.startsWith(QStringLiteral("TCP"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("QPN %1").arg(hexOf(m.qpn)))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("PSN %1").arg(hexOf(m.psn)))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("rkey %1").arg(hexOf(m.rkey)))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("addr %1").arg(hexOf(m.addr)))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("GID ::ffff:"))) << text.toStdString();
    EXPECT_TRUE(row.detail.contains(QStringLiteral("not an RDMA frame")));
  }
  for (std::size_t i = 2; i < rows.size(); ++i)
    EXPECT_FALSE(rows[i].sideChannel);
  // Stepping to the first message shows one row, current; clicking the second goes to it.
  const int first = static_cast<int>(oob[0] - rec->events.data());
  w->scenario()->goTo(first);
  EXPECT_EQ(ladder->visibleCount(), 1);
  EXPECT_EQ(ladder->currentFrame(), 0);
  EXPECT_EQ(w->packetPane()->packetModel()->rowCount(), 0);
  EXPECT_TRUE(w->scenario()->title().contains(QStringLiteral("out-of-band exchange")));
  w->scenario()->goTo(w->scenario()->eventCount() - 1);
  ladder->setCurrentFrame(1);  // scrolls it into view
  QTest::mouseClick(ladder, Qt::LeftButton, {}, ladder->pointOfFrame(1));
  EXPECT_EQ(w->scenario()->current(), static_cast<int>(oob[1] - rec->events.data()));
  EXPECT_EQ(ladder->currentFrame(), 1);
}

// With the rdma_cm nothing travels over TCP: no side-channel rows; the CM REQ and REP rows say
// which region their private data publishes, and a WRITE's explanation says where its rkey came
// from.
TEST_F(KeysWindow, WithTheCmTheExchangeRidesInTheReqAndRepNotOverTcp) {
  open(QStringLiteral("rc-write"));
  w->cmAction()->trigger();
  ASSERT_TRUE(w->scenario()->connectWithCm());
  rec = w->scenario()->recording();
  ASSERT_TRUE(rec->cm);
  w->scenario()->goTo(w->scenario()->eventCount() - 1);
  const auto& rows = w->ladder()->frames();
  int privateData = 0;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    EXPECT_FALSE(rows[k].sideChannel) << k;
    const QString label = w->ladder()->labelText(static_cast<int>(k));
    if (label.startsWith(QStringLiteral("CM REQ")) || label.startsWith(QStringLiteral("CM REP"))) {
      EXPECT_TRUE(rows[k].secondLine.contains(QStringLiteral("rkey 0x"))) << label.toStdString();
      ++privateData;
    }
  }
  EXPECT_EQ(privateData, 2);
  bool explained = false;
  for (std::size_t i = 0; i < rec->events.size(); ++i)
    if (rec->events[i].remote && rec->events[i].trace.kind == sim::TraceKind::Note) {
      const auto x = EventExplainer::explain(*rec, i);
      EXPECT_TRUE(x.body.contains(QStringLiteral("private data of its CM message")))
          << x.body.toStdString();
      EXPECT_FALSE(x.body.contains(QStringLiteral("out-of-band"))) << x.body.toStdString();
      explained = true;
    }
  EXPECT_TRUE(explained);
}

// Whether a segment passes through a rectangle (sampled finely: labels are tens of pixels).
bool crosses(const QLineF& line, const QRectF& rect) {
  for (int k = 0; k <= 400; ++k)
    if (rect.contains(line.pointAt(k / 400.0))) return true;
  return false;
}

TEST_F(KeysWindow, LadderLabelsNeverSitOnArrows) {
  for (const QString& id : {QStringLiteral("rc-write"), QStringLiteral("tour"),
                            QStringLiteral("lossy-go-back-n"), QStringLiteral("ud-send")}) {
    for (const QSize size : {QSize(1600, 1000), QSize(1280, 720)}) {
      open(id, size);
      LadderView* ladder = w->ladder();
      w->scenario()->goTo(w->scenario()->eventCount() - 1);
      const int n = ladder->visibleCount();
      ASSERT_GE(n, 3);  // ud-send: the two exchange rows and one SEND
      int checked = 0;
      for (int i = 0; i < n; ++i) {
        const QRectF label = ladder->labelRect(i);
        if (label.bottom() < 0 || label.top() > ladder->height()) continue;
        ++checked;
        EXPECT_GT(label.width(), 10.0);
        for (int j = std::max(0, i - 2); j < std::min(n, i + 3); ++j) {
          EXPECT_FALSE(crosses(ladder->arrowLine(j), label))
              << id.toStdString() << " " << size.width() << ": label " << i << " ("
              << ladder->labelText(i).toStdString() << ") on arrow " << j;
          if (j != i) {
            EXPECT_FALSE(label.intersects(ladder->labelRect(j))) << i << " " << j;
          }
        }
        // Every line as drawn fits its box, also in the current row's bold: long lines end in
        // "…", none is cut at both ends.
        const int current = ladder->currentFrame();
        ladder->setCurrentFrame(i);
        const QFontMetricsF fm(ladder->labelFontOf(i));
        for (const QString& line : ladder->shownLabelText(i).split(QLatin1Char('\n')))
          EXPECT_LE(fm.horizontalAdvance(line), ladder->labelRect(i).width() + 0.5)
              << id.toStdString() << " " << size.width() << ": " << line.toStdString();
        ladder->setCurrentFrame(current);
        // The label lies between the two lifelines it joins.
        const QLineF a = ladder->arrowLine(i);
        EXPECT_GE(label.left(), std::min(a.x1(), a.x2()) - 1) << i;
      }
      EXPECT_GE(checked, 3);
    }
  }
}

TEST_F(KeysWindow, PsnsAreHexInTheLadderAndTablesAndFollowTheDecimalSwitch) {
  open(QStringLiteral("rc-write"));
  w->scenario()->goTo(w->scenario()->eventCount() - 1);
  LadderView* ladder = w->ladder();
  const int row = w->scenario()->ladderRowOfFrame(0);
  HostTableModel* qp = w->hostPane(0)->qpModel();
  const std::uint32_t sqPsn = rec->snapshots.back().hosts[0].qps.front().sqPsn;
  EXPECT_TRUE(ladder->labelText(row).contains(QStringLiteral("PSN 0x1a2b3c")))
      << ladder->labelText(row).toStdString();
  EXPECT_EQ(qp->index(0, 3).data().toString(), hexOf(sqPsn));
  auto* action = w->findChild<QAction*>(QStringLiteral("psnDecimal"));
  ASSERT_NE(action, nullptr);
  EXPECT_FALSE(action->isChecked());
  action->trigger();
  EXPECT_TRUE(PsnBase::instance().decimal());
  EXPECT_TRUE(ladder->labelText(row).contains(QStringLiteral("PSN %1").arg(0x1a2b3c)));
  EXPECT_TRUE(ladder->labelText(0).contains(QStringLiteral("PSN %1").arg(0x1a2b3c)));
  EXPECT_EQ(qp->index(0, 3).data().toString(), QString::number(sqPsn));
  const QString psns = w->hostPane(0)->sendQueueModel()->index(0, 4).data().toString();
  EXPECT_FALSE(psns.contains(QStringLiteral("0x"))) << psns.toStdString();
  action->trigger();
  EXPECT_FALSE(PsnBase::instance().decimal());
  EXPECT_EQ(qp->index(0, 3).data().toString(), hexOf(sqPsn));
}

TEST_F(KeysWindow, FramesLostOnTheLinkAndDroppedByTheResponderAreMarked) {
  open(QStringLiteral("uc-write"));
  const auto& rows = w->ladder()->frames();
  int lost = 0, dropped = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const QString text = w->ladder()->labelText(static_cast<int>(i));
    if (rows[i].dropped) {
      ++lost;
      EXPECT_TRUE(text.contains(QStringLiteral("lost on the link"))) << text.toStdString();
      EXPECT_TRUE(text.contains(QStringLiteral("PSN 0x1a2b3d"))) << text.toStdString();
    }
    if (rows[i].droppedAtReceiver) {
      ++dropped;
      EXPECT_TRUE(text.contains(QStringLiteral("dropped by host-b"))) << text.toStdString();
      EXPECT_TRUE(text.contains(QStringLiteral("PSN 0x1a2b3e"))) << text.toStdString();
    }
  }
  EXPECT_EQ(lost, 1);
  EXPECT_EQ(dropped, 1);
  // The arrow of a responder's drop reaches the responder; a lost frame's stops half-way.
  w->scenario()->goTo(w->scenario()->eventCount() - 1);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const QLineF a = w->ladder()->arrowLine(static_cast<int>(i));
    const QLineF full = w->ladder()->arrowLine(2);
    if (rows[i].dropped) {
      EXPECT_LT(std::abs(a.dx()), std::abs(full.dx()) * 0.6);
    }
    if (rows[i].droppedAtReceiver) {
      EXPECT_DOUBLE_EQ(std::abs(a.dx()), std::abs(full.dx()));
    }
  }

  open(QStringLiteral("lossy-go-back-n"));
  int responderDrops = 0;
  for (const auto& e : rec->events)
    if (e.trace.kind == sim::TraceKind::FrameDropped && e.trace.what != sim::Narrative::FrameLost)
      ++responderDrops;
  ASSERT_GT(responderDrops, 3);
  int marked = 0, lostRows = 0;
  for (const auto& r : w->ladder()->frames()) {
    marked += r.droppedAtReceiver ? 1 : 0;
    lostRows += r.dropped ? 1 : 0;
  }
  EXPECT_EQ(marked, responderDrops);
  EXPECT_EQ(lostRows, 1);
}

TEST_F(KeysWindow, HostPanesListEveryMrWithKeysAndAccessFlags) {
  open(QStringLiteral("remote-access-error"));
  w->scenario()->goTo(w->scenario()->eventCount() - 1);
  for (int h = 0; h < 2; ++h) {
    HostTableModel* m = w->hostPane(h)->mrModel();
    const MrSnapshot& mr = rec->snapshots.back().hosts[static_cast<std::size_t>(h)].mrs[0];
    ASSERT_EQ(m->rowCount(), 1);
    EXPECT_EQ(m->headerData(3, Qt::Horizontal).toString(), QStringLiteral("lkey"));
    EXPECT_EQ(m->headerData(4, Qt::Horizontal).toString(), QStringLiteral("rkey"));
    EXPECT_EQ(m->index(0, 0).data().toString(), QStringLiteral("#1 buf"));
    EXPECT_EQ(m->index(0, 1).data().toString(), hexOf(mr.addr));
    EXPECT_EQ(m->index(0, 3).data().toString(), hexOf(mr.lkey));
    EXPECT_EQ(m->index(0, 4).data().toString(), hexOf(mr.rkey));
    const QString access = m->index(0, 5).data().toString();
    const QString tip = m->index(0, 5).data(Qt::ToolTipRole).toString();
    EXPECT_TRUE(access.contains(QStringLiteral("LOCAL_WRITE")));
    EXPECT_EQ(access.contains(QStringLiteral("REMOTE_WRITE")), h == 0) << access.toStdString();
    EXPECT_EQ(tip.contains(QStringLiteral("IBV_ACCESS_REMOTE_WRITE")), h == 0);
    EXPECT_TRUE(tip.contains(QStringLiteral("IBV_ACCESS_LOCAL_WRITE")));
    EXPECT_TRUE(w->hostPane(h)->mrTable()->isVisibleTo(w.get()));
  }
  // Before registration the table is empty.
  w->scenario()->goTo(0);
  EXPECT_EQ(w->hostPane(0)->mrModel()->rowCount(), 0);
}

TEST_F(KeysWindow, RethRkeyInTheDetailTreeLinksToItsMr) {
  open(QStringLiteral("rc-write"));
  const int write = test::findFrameEvent(*rec, w->frameStore(), 0x06);  // WRITE FIRST
  ASSERT_GE(write, 0);
  w->scenario()->goTo(write);
  PacketPane* pane = w->packetPane();
  DetailTreeModel* model = pane->detailModel();
  ASSERT_TRUE(model->mrLink().has_value());
  const MrSnapshot& mr = rec->snapshots.back().hosts[1].mrs[0];
  EXPECT_EQ(model->mrLink()->host, 1);
  EXPECT_EQ(model->mrLink()->mr, 0);
  EXPECT_TRUE(model->mrLink()->text.contains(
      QStringLiteral("host-b MR #1 buf (rkey %1").arg(hexOf(mr.rkey))))
      << model->mrLink()->text.toStdString();
  EXPECT_TRUE(model->mrLink()->text.contains(QStringLiteral("REMOTE_WRITE")));
  ASSERT_TRUE(pane->selectField(QStringLiteral("infiniband.reth.r_key")));
  const QModelIndex rkey = pane->detailTree()->currentIndex();
  EXPECT_TRUE(rkey.data(DetailTreeModel::MrLinkRole).toBool());
  EXPECT_TRUE(rkey.data().toString().contains(QStringLiteral("host-b MR #1")));
  EXPECT_TRUE(rkey.data(Qt::ToolTipRole).toString().contains(QStringLiteral("host-b MR #1")));
  ASSERT_TRUE(pane->selectField(QStringLiteral("infiniband.reth.va")));
  EXPECT_TRUE(pane->detailTree()->currentIndex().data(DetailTreeModel::MrLinkRole).toBool());
  // The BTH's PSN is not linked.
  ASSERT_TRUE(pane->selectField(QStringLiteral("infiniband.bth.psn")));
  EXPECT_FALSE(pane->detailTree()->currentIndex().data(DetailTreeModel::MrLinkRole).toBool());
  // Double-clicking the rkey marks the MR in host B's pane.
  EXPECT_EQ(w->hostPane(1)->mrModel()->highlightedMr(), -1);
  QTreeView* tree = pane->detailTree();
  Q_EMIT tree->doubleClicked(rkey);
  EXPECT_EQ(w->hostPane(1)->mrModel()->highlightedMr(), 0);
  EXPECT_TRUE(
      w->hostPane(1)->mrModel()->index(0, 4).data(Qt::BackgroundRole).value<QBrush>().color() !=
      QColor());
  // A frame without a RETH (an ACK) has no link.
  const int ack = test::findFrameEvent(*rec, w->frameStore(), 0x11);
  ASSERT_GE(ack, 0);
  w->scenario()->goTo(ack);
  EXPECT_FALSE(model->mrLink().has_value());
}

TEST_F(KeysWindow, CaptureFramesHaveNoMrLinks) {
  // The same frames without a simulated run (a capture): no MR is known, nothing links.
  const Recorded r = record("rc-write");
  FrameStore store = r.frames;
  PacketPane pane(&store);
  pane.storeReset();
  pane.packetModel()->setFrameLimit(SIZE_MAX);
  const int write = test::findFrameEvent(r.rec, r.frames, 0x06);
  ASSERT_TRUE(pane.selectFrame(
      static_cast<std::size_t>(r.rec.events[static_cast<std::size_t>(write)].frame)));
  EXPECT_FALSE(pane.detailModel()->mrLink().has_value());
  ASSERT_TRUE(pane.selectField(QStringLiteral("infiniband.reth.r_key")));
  const QModelIndex rkey = pane.detailTree()->currentIndex();
  EXPECT_FALSE(rkey.data(DetailTreeModel::MrLinkRole).toBool());
  EXPECT_FALSE(rkey.data().toString().contains(QStringLiteral("\u2192")));
  int activated = 0;
  QObject::connect(&pane, &PacketPane::mrLinkActivated, [&activated](int, int) { ++activated; });
  pane.show();
  QTest::mouseDClick(pane.detailTree()->viewport(), Qt::LeftButton, {},
                     pane.detailTree()->visualRect(rkey).center());
  EXPECT_EQ(activated, 0);
}

}  // namespace
}  // namespace rdmascope::ui
