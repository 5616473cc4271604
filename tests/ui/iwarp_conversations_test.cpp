// iWARP connections in the analysis views behave as RoCE ones do: a Conversations row filters
// the packet list to exactly that TCP connection's frames, and the flow graph lists those
// frames with the MPA/DDP/RDMAP messages named and the anomalies marked.
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <set>

#include "rdmascope/packets/display_filter.h"
#include "rdmascope/ui/analysis_controller.h"
#include "rdmascope/ui/analysis_models.h"
#include "rdmascope/ui/capture_loader.h"
#include "rdmascope/ui/filter_bar.h"
#include "rdmascope/ui/flow_graph_view.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/packet_pane.h"
#include "test_frames.h"

namespace rdmascope::ui {
namespace {

using analysis::AnomalyKind;
using analysis::Carrier;

using test::filterMatches;
using test::iwarpCapture;

TEST(IwarpConversations, FramesAndFilterAreThoseOfTheTcpConnection) {
  std::size_t marked = 0;
  for (const char* scenario : {"iwarp-write", "iwarp-read", "iwarp-send-recv"}) {
    for (const double loss : {0.0, 0.1}) {
      SCOPED_TRACE(std::string(scenario) + " loss " + std::to_string(loss));
      const std::string path = iwarpCapture(scenario, loss, 2);
      FrameStore store;
      ASSERT_TRUE(loadCaptureFile(path, store).error.empty());
      std::remove(path.c_str());
      const CaptureAnalysis a = analyzeFrameStore(store).analysis;
      ASSERT_EQ(a.report.connections.size(), 1u);
      const auto& c = a.report.connections[0];
      ASSERT_EQ(c.carrier, Carrier::Iwarp);
      std::vector<std::size_t> frames;
      std::set<int> sides;
      for (const auto& f : a.frames[0]) {
        frames.push_back(f.frame);
        sides.insert(f.fromB);
      }
      // Every frame of the capture is a segment of the one TCP connection.
      EXPECT_EQ(frames.size(), c.frames);
      EXPECT_EQ(frames.size(), store.size());
      EXPECT_EQ(sides.size(), 2u);
      EXPECT_EQ(frames.front() + 1, c.firstFrame);
      EXPECT_EQ(frames.back() + 1, c.lastFrame);
      EXPECT_EQ(endpointText(c.b), QStringLiteral("10.9.0.2:%1").arg(*c.b.port));
      const std::string filter = connectionFilter(c);
      ASSERT_FALSE(filter.empty());
      EXPECT_EQ(filterMatches(store, filter), frames) << filter;

      // The flow graph: one row per frame, each anomaly of the connection on its frame's row,
      // the RDMAP messages named.
      FlowGraphView g;
      g.resize(700, 500);
      g.setAnalysis(std::make_shared<CaptureAnalysis>(a), &store);
      g.setConnection(c.id);
      ASSERT_EQ(static_cast<std::size_t>(g.rowCount()), frames.size());
      for (std::size_t i : a.anomaliesOf(c.id)) {
        const auto& an = a.report.anomalies[i];
        if (an.kind == AnomalyKind::IncompleteMessage) continue;
        const int row = g.rowOfFrame(static_cast<qint64>(an.frame) - 1);
        ASSERT_GE(row, 0) << an.detail;
        const auto k = g.marksAt(row);
        EXPECT_NE(std::find(k.begin(), k.end(), an.kind), k.end()) << an.detail;
        // Drawn with a badge and a legend entry of its own.
        EXPECT_TRUE(anomalyKindApplies(an.kind, Carrier::Iwarp)) << an.detail;
        EXPECT_NE(anomalyStyle(an.kind).name, QStringLiteral("Other")) << an.detail;
        ++marked;
      }
      int named = 0;
      for (int r = 0; r < g.rowCount(); ++r) {
        EXPECT_FALSE(g.labelAt(r).contains(QStringLiteral("not InfiniBand")));
        if (g.labelAt(r).contains(QStringLiteral("RDMA")) ||
            g.labelAt(r).contains(QStringLiteral("MPA")) ||
            g.labelAt(r).contains(QStringLiteral("Send")))
          ++named;
      }
      EXPECT_GT(named, 0);
    }
  }
  EXPECT_GT(marked, 0u);  // the lossy runs had anomalies to mark
}

TEST(IwarpConversations, ARowFiltersThePacketListToItsConnection) {
  const std::string path = iwarpCapture("iwarp-write", 0.1, 3);
  MainWindow w(nullptr, QString());
  w.resize(1600, 1000);
  w.show();
  ASSERT_TRUE(w.openCapture(QString::fromStdString(path))) << w.lastError().toStdString();
  std::remove(path.c_str());
  AnalysisController* an = w.analysis();
  ASSERT_TRUE(an->waitForIdle());
  ASSERT_TRUE(an->analysis());
  ASSERT_EQ(an->conversationModel()->rowCount(), 1);
  // The header line counts what iWARP can have, not PSN gaps or NAKs.
  const auto* header = an->conversationsPage()->findChild<QLabel*>();
  ASSERT_TRUE(header);
  EXPECT_TRUE(header->text().contains(QStringLiteral("TCP segment gaps")))
      << header->text().toStdString();
  EXPECT_TRUE(header->text().contains(QStringLiteral("timeouts")));
  EXPECT_FALSE(header->text().contains(QStringLiteral("PSN gaps")));
  const auto& c = an->analysis()->report.connections[0];
  w.lowerTabs()->setCurrentWidget(an->conversationsPage());
  QTableView* view = an->conversationsView();
  const QModelIndex idx = an->conversationProxy()->index(0, ConversationModel::EndpointB);
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(idx).center());
  QCoreApplication::processEvents();
  EXPECT_EQ(w.packetPane()->filterBar()->text().toStdString(), connectionFilter(c));
  PacketListModel* packets = w.packetPane()->packetModel();
  ASSERT_TRUE(packets->filtered());
  EXPECT_EQ(static_cast<std::uint64_t>(packets->rowCount()), c.frames);
  EXPECT_EQ(an->flowGraph()->connection(), c.id);
  EXPECT_EQ(static_cast<std::uint64_t>(an->flowGraph()->rowCount()), c.frames);
}

}  // namespace
}  // namespace rdmascope::ui
