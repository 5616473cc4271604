// The flow analysis in the GUI: the Conversations table, the anomaly list, the flow graph and
// the plot show what the analyzer reports for a scenario with injected faults (a lost frame and
// an RNR NAK) and for a real lossy capture, and each links to the packet list.
#include <gtest/gtest.h>
#include <unistd.h>

#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "../support/large_capture.h"
#include "rdmascope/packets/display_filter.h"
#include "rdmascope/ui/analysis_controller.h"
#include "rdmascope/ui/analysis_models.h"
#include "rdmascope/ui/analysis_plot.h"
#include "rdmascope/ui/filter_bar.h"
#include "rdmascope/ui/flow_graph_view.h"
#include "rdmascope/ui/hex_view.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/packet_pane.h"
#include "rdmascope/ui/scenario_controller.h"
#include "rdmascope/ui/scenario_player.h"
#include "rdmascope/verbs_backend/scenario.h"
#include "test_frames.h"

namespace rdmascope::ui {
namespace {

using analysis::AnomalyKind;
using test::filterMatches;

const char* kLossyCapture = RDMASCOPE_SOURCE_DIR "/tests/analysis/data/rxe_rc_verbs_ops_loss.pcap";

std::string buildPath(const std::string& name) {
  return std::string(RDMASCOPE_BINARY_DIR) + "/tests/ui/" + std::to_string(::getpid()) + "_" + name;
}

// rnr-retry (a SEND before the peer posted its receive: RNR NAK, wait, resend) preceded by a
// 4 KiB RDMA WRITE whose second packet is lost on the link (NAK sequence error, go-back-N).
std::string faultyScenarioFile() {
  nlohmann::json j = verbs_backend::builtinScenarioJson("rnr-retry");
  auto& steps = j["steps"];
  std::size_t at = 0;
  while (at < steps.size() && !steps[at].contains("post_send"))
    ++at;
  const nlohmann::json write = {
      {"host", 0},
      {"post_send",
       {{"qp", "qp"},
        {"wr_id", 7},
        {"opcode", "RDMA_WRITE"},
        {"sge", nlohmann::json::array({{{"mr", "buf"}, {"offset", 0}, {"length", 4096}}})},
        {"remote_offset", 0}}}};
  const nlohmann::json poll = {
      {"host", 0},
      {"poll_cq",
       {{"cq", "cq"},
        {"count", 1},
        {"timeout_ms", 1000},
        {"expect", nlohmann::json::array({{{"wr_id", 7}, {"status", "SUCCESS"}}})}}}};
  steps.insert(steps.begin() + static_cast<std::ptrdiff_t>(at), poll);
  steps.insert(steps.begin() + static_cast<std::ptrdiff_t>(at), write);
  j["faults"] = {{"drop_frames", nlohmann::json::array({2})}};
  const std::string path = buildPath("faulty_scenario.json");
  std::ofstream(path) << j.dump(2);
  return path;
}

// The analysis of a store as rdmascope-cli analyze runs it (FlowAnalyzer::addFrame), apart
// from the GUI's path.
analysis::AnalysisReport cliAnalysis(const FrameStore& store) {
  analysis::FlowAnalyzer a;
  for (std::size_t i = 0; i < store.size(); ++i)
    a.addFrame(store.bytes(i), store.linkType(), i + 1, store.timeRelative(i));
  a.finish();
  return a.report();
}

std::size_t count(const analysis::AnalysisReport& r, AnomalyKind kind) {
  std::size_t n = 0;
  for (const auto& a : r.anomalies)
    n += a.kind == kind;
  return n;
}

QString cell(const QAbstractItemModel& m, int row, int column) {
  return m.data(m.index(row, column)).toString();
}

void clickRow(QTableView* view, const QModelIndex& idx) {
  view->scrollTo(idx);
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(idx).center());
  QCoreApplication::processEvents();
}

TEST(AnalysisModels, PassTheModelTesterThroughResets) {
  FrameStore store;
  auto loaded = [&] {
    ScenarioRecording rec;
    std::string error;
    EXPECT_TRUE(
        recordScenarioFile(faultyScenarioFile(), sim::WireFormat::RoceV2Ipv4, rec, store, error))
        << error;
    return std::make_shared<CaptureAnalysis>(analyzeFrameStore(store).analysis);
  }();
  ASSERT_FALSE(loaded->report.anomalies.empty());
  test::ModelTestWarnings warnings;
  ConversationModel conversations;
  AnomalyModel anomalies;
  QSortFilterProxyModel proxy;
  proxy.setSourceModel(&conversations);
  proxy.setSortRole(kSortRole);
  QAbstractItemModelTester t1(&conversations,
                              QAbstractItemModelTester::FailureReportingMode::Warning);
  QAbstractItemModelTester t2(&anomalies, QAbstractItemModelTester::FailureReportingMode::Warning);
  QAbstractItemModelTester t3(&proxy, QAbstractItemModelTester::FailureReportingMode::Warning);
  conversations.setAnalysis(loaded);
  anomalies.setAnalysis(loaded);
  for (int c = 0; c < ConversationModel::ColumnCount; ++c)
    proxy.sort(c, c % 2 ? Qt::DescendingOrder : Qt::AscendingOrder);
  EXPECT_EQ(conversations.rowCount(), 1);
  EXPECT_EQ(anomalies.rowCount(), static_cast<int>(loaded->report.anomalies.size()));
  conversations.setAnalysis(nullptr);
  anomalies.setAnalysis(nullptr);
  EXPECT_EQ(conversations.rowCount(), 0);
  EXPECT_EQ(anomalies.rowCount(), 0);
  conversations.setAnalysis(loaded);
  EXPECT_TRUE(test::ModelTestWarnings::messages().empty())
      << test::ModelTestWarnings::messages().front();
}

TEST(AnalysisViews, ScenarioWithALostFrameAndAnRnrNak) {
  MainWindow w(nullptr, QString());
  w.resize(1600, 1000);
  w.show();
  ASSERT_TRUE(w.openScenarioFile(QString::fromStdString(faultyScenarioFile())))
      << w.lastError().toStdString();
  AnalysisController* an = w.analysis();
  ASSERT_TRUE(an->waitForIdle());
  ASSERT_TRUE(an->analysis());
  const analysis::AnalysisReport expected = cliAnalysis(w.frameStore());
  // The injected faults and their consequences are there.
  ASSERT_EQ(expected.connections.size(), 1u);
  EXPECT_EQ(expected.summary.rnrNaks, 1u);
  EXPECT_EQ(count(expected, AnomalyKind::RnrNak), 1u);
  EXPECT_GE(count(expected, AnomalyKind::Nak), 1u);
  EXPECT_GE(expected.summary.naks, 1u);
  EXPECT_GE(expected.summary.resentFrames, 3u);  // the lost packet, the next, the RNR'd SEND

  // Conversations: one row with the analyzer's counts.
  const auto& c = expected.connections[0];
  const ConversationModel& m = *an->conversationModel();
  ASSERT_EQ(m.rowCount(), 1);
  EXPECT_EQ(cell(m, 0, ConversationModel::Transport), "RC");
  EXPECT_EQ(cell(m, 0, ConversationModel::Frames).toULongLong(), c.frames);
  EXPECT_EQ(cell(m, 0, ConversationModel::Naks).toULongLong(), expected.summary.naks);
  EXPECT_EQ(cell(m, 0, ConversationModel::RnrNaks).toULongLong(), 1u);
  EXPECT_EQ(cell(m, 0, ConversationModel::Resends).toULongLong(), expected.summary.resentFrames);
  EXPECT_EQ(cell(m, 0, ConversationModel::Messages).toULongLong(), expected.summary.messages);
  EXPECT_EQ(cell(m, 0, ConversationModel::Incomplete).toULongLong(), 0u);
  EXPECT_TRUE(cell(m, 0, ConversationModel::EndpointA)
                  .contains(QStringLiteral("QP 0x%1").arg(*c.a.qp, 6, 16, QLatin1Char('0'))));

  // Anomalies: exactly the analyzer's, in frame order.
  const AnomalyModel& am = *an->anomalyModel();
  ASSERT_EQ(am.rowCount(), static_cast<int>(expected.anomalies.size()));
  for (int r = 0; r < am.rowCount(); ++r) {
    const auto& e = expected.anomalies[static_cast<std::size_t>(r)];
    EXPECT_EQ(cell(am, r, AnomalyModel::Kind), anomalyKindName(e.kind));
    EXPECT_EQ(cell(am, r, AnomalyModel::Frame).toULongLong(), e.frame);
  }
  // The tab counts the anomalies of the frames on the wire so far: all of them at the end.
  const QTabWidget* tabs = w.lowerTabs();
  w.scenario()->goTo(w.scenario()->eventCount() - 1);
  EXPECT_EQ(tabs->tabText(tabs->indexOf(an->anomaliesPage())),
            QStringLiteral("Anomalies (%1)").arg(expected.anomalies.size()));

  // Activating the RNR NAK's row shows its frame in the packet list (the scenario moves there).
  int rnrRow = -1;
  for (int r = 0; r < am.rowCount(); ++r)
    if (am.anomalyAt(r)->kind == AnomalyKind::RnrNak) rnrRow = r;
  ASSERT_GE(rnrRow, 0);
  const auto rnrFrame = static_cast<qint64>(am.anomalyAt(rnrRow)->frame - 1);
  w.lowerTabs()->setCurrentWidget(an->anomaliesPage());
  clickRow(an->anomaliesView(), am.index(rnrRow, AnomalyModel::Detail));
  EXPECT_EQ(w.packetPane()->currentFrame(), rnrFrame);
  EXPECT_EQ(w.scenario()->currentFrame(), rnrFrame);
  EXPECT_EQ(an->flowGraph()->currentFrame(), rnrFrame);

  // The flow graph: every frame of the connection, the RNR NAK and the resends marked.
  FlowGraphView* g = an->flowGraph();
  ASSERT_EQ(g->connection(), c.id);
  EXPECT_EQ(static_cast<std::uint64_t>(g->rowCount()), c.frames);
  EXPECT_TRUE(g->detailAt(g->rowOfFrame(rnrFrame)).startsWith(QStringLiteral("RNR NAK: ")))
      << g->detailAt(g->rowOfFrame(rnrFrame)).toStdString();
  const auto marks = g->marksAt(g->rowOfFrame(rnrFrame));
  EXPECT_NE(std::find(marks.begin(), marks.end(), AnomalyKind::RnrNak), marks.end());
  std::set<std::uint64_t> anomalyFrames;
  for (const auto& a : expected.anomalies)
    anomalyFrames.insert(a.frame);
  EXPECT_EQ(static_cast<std::size_t>(g->markedRowCount()), anomalyFrames.size());
  int resendRows = 0;
  for (int r = 0; r < g->rowCount(); ++r) {
    const auto k = g->marksAt(r);
    resendRows += std::count(k.begin(), k.end(), AnomalyKind::Retransmission) > 0;
  }
  EXPECT_EQ(static_cast<std::uint64_t>(resendRows), expected.summary.resentFrames);
  EXPECT_TRUE(g->labelAt(0).startsWith(QStringLiteral("RDMA WRITE First  PSN ")))
      << g->labelAt(0).toStdString();
  w.scenario()->goTo(w.scenario()->eventCount() - 1);
  EXPECT_EQ(w.statusBar()->findChild<QLabel*>(QStringLiteral("statusAnalysis"))->text(),
            QStringLiteral("Connections: 1  Anomalies: %1").arg(expected.anomalies.size()));
}

TEST(AnalysisViews, StatisticsMenuShowsEachViewWithItsShortcut) {
  MainWindow w(nullptr, QString());
  AnalysisController* an = w.analysis();
  QMenu* stats = nullptr;
  for (QAction* a : w.menuBar()->actions())
    if (a->text() == QStringLiteral("&Statistics")) stats = a->menu();
  ASSERT_TRUE(stats);
  const std::pair<Qt::Key, QWidget*> expected[] = {{Qt::Key_C, an->conversationsPage()},
                                                   {Qt::Key_A, an->anomaliesPage()},
                                                   {Qt::Key_G, an->flowGraphPage()},
                                                   {Qt::Key_P, an->plotPage()}};
  for (const auto& [key, page] : expected) {
    QAction* action = nullptr;
    for (QAction* a : stats->actions())
      if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::SHIFT | key)) action = a;
    ASSERT_TRUE(action) << QKeySequence(key).toString().toStdString();
    action->trigger();
    EXPECT_EQ(w.lowerTabs()->currentWidget(), page);
  }
}

TEST(AnalysisViews, LossyCaptureFiltersFlowGraphAndPlotLinkToThePacketList) {
  MainWindow w(nullptr, QString());
  w.resize(1600, 1000);
  w.show();
  ASSERT_TRUE(w.openCapture(QString::fromLatin1(kLossyCapture))) << w.lastError().toStdString();
  AnalysisController* an = w.analysis();
  ASSERT_TRUE(an->waitForIdle());
  ASSERT_TRUE(an->analysis());
  const FrameStore& store = w.frameStore();
  const analysis::AnalysisReport expected = cliAnalysis(store);
  ASSERT_GE(expected.connections.size(), 2u);
  const auto& shown = *an->analysis();
  ASSERT_EQ(shown.report.connections.size(), expected.connections.size());
  ASSERT_EQ(an->conversationModel()->rowCount(), static_cast<int>(expected.connections.size()));
  EXPECT_EQ(shown.report.anomalies.size(), expected.anomalies.size());

  // Selecting a conversation filters the packet list to exactly that connection's frames.
  w.lowerTabs()->setCurrentWidget(an->conversationsPage());
  QSortFilterProxyModel* proxy = an->conversationProxy();
  PacketListModel* packets = w.packetPane()->packetModel();
  for (int r = 0; r < proxy->rowCount(); ++r) {
    clickRow(an->conversationsView(), proxy->index(r, ConversationModel::EndpointB));
    const int id = an->selectedConnection();
    const auto& c = expected.connections[static_cast<std::size_t>(id)];
    SCOPED_TRACE("connection " + std::to_string(id));
    const std::string filter = w.packetPane()->filterBar()->text().toStdString();
    EXPECT_EQ(filter, connectionFilter(shown.report.connections[static_cast<std::size_t>(id)]));
    ASSERT_TRUE(packets->filtered());
    ASSERT_EQ(static_cast<std::uint64_t>(packets->rowCount()), c.frames);
    std::vector<std::size_t> listed;
    for (int row = 0; row < packets->rowCount(); ++row)
      listed.push_back(packets->frameAt(row));
    std::vector<std::size_t> mine;
    for (const auto& f : shown.frames[static_cast<std::size_t>(id)])
      mine.push_back(f.frame);
    EXPECT_EQ(listed, mine);
    EXPECT_EQ(listed.front() + 1, c.firstFrame);
    EXPECT_EQ(listed.back() + 1, c.lastFrame);
    EXPECT_EQ(filterMatches(store, filter), listed);
    EXPECT_EQ(an->flowGraph()->connection(), id);
    EXPECT_EQ(an->plot()->connection(), id);
  }

  // Activating an anomaly (Enter on its row) selects its frame: list, detail tree, hex view.
  {
    const AnomalyModel& am = *an->anomalyModel();
    int nak = -1;
    for (int r = 0; r < am.rowCount() && nak < 0; ++r)
      if (am.anomalyAt(r)->kind == AnomalyKind::Nak) nak = r;
    ASSERT_GE(nak, 0);
    w.lowerTabs()->setCurrentWidget(an->anomaliesPage());
    QTableView* view = an->anomaliesView();
    view->setFocus();
    view->setCurrentIndex(am.index(nak, 0));
    QTest::keyClick(view, Qt::Key_Return);
    const qint64 frame = am.frameAt(nak);
    EXPECT_EQ(w.packetPane()->currentFrame(), frame);
    ASSERT_TRUE(w.packetPane()->detailModel()->dissection());
    std::string number;
    for (const auto& node : w.packetPane()->detailModel()->dissection()->nodes)
      if (node.key == "frame.number") number = node.value;
    EXPECT_EQ(number, std::to_string(frame + 1));
    EXPECT_EQ(static_cast<std::size_t>(w.packetPane()->hexView()->bytes().size()),
              store.bytes(static_cast<std::size_t>(frame)).size());
    EXPECT_FALSE(packets->filtered());  // the connection filter hid it: cleared
  }

  // The flow graph of the second connection: its frames, its marks, clicks both ways.
  const int id = expected.connections[1].id;
  an->selectConnection(id);
  FlowGraphView* g = an->flowGraph();
  w.lowerTabs()->setCurrentWidget(an->flowGraphPage());
  QCoreApplication::processEvents();
  EXPECT_EQ(static_cast<std::uint64_t>(g->rowCount()), expected.connections[1].frames);
  int nakRow = -1;
  for (int r = 0; r < g->rowCount() && nakRow < 0; ++r) {
    const auto k = g->marksAt(r);
    if (std::find(k.begin(), k.end(), AnomalyKind::Nak) != k.end()) nakRow = r;
  }
  ASSERT_GE(nakRow, 0);
  QTest::mouseClick(g->viewport(), Qt::LeftButton, {}, g->pointOfRow(nakRow));
  EXPECT_EQ(w.packetPane()->currentFrame(), g->frameAtRow(nakRow));
  EXPECT_LT(g->lastPaintedRows(), g->rowCount());  // long: only the visible rows are drawn
  const qint64 last = g->frameAtRow(g->rowCount() - 1);
  w.packetPane()->selectFrame(static_cast<std::size_t>(last));
  EXPECT_EQ(g->currentFrame(), last);

  // The plot: a marker per anomaly of the connection; clicking one selects its frame.
  AnalysisPlot* plot = an->plot();
  w.lowerTabs()->setCurrentWidget(an->plotPage());
  QCoreApplication::processEvents();
  ASSERT_EQ(static_cast<std::size_t>(plot->markerCount()), shown.anomaliesOf(id).size());
  EXPECT_GT(plot->latencyPointCount(), 0);
  const int marker = plot->markerCount() - 1;
  QTest::mouseClick(plot, Qt::LeftButton, {}, plot->markerPoint(marker));
  EXPECT_EQ(w.packetPane()->currentFrame(),
            plot->markerFrame(plot->markerAt(plot->markerPoint(marker))));
}

// The connection filter and the frame lists agree with the analyzer for every carrier.
TEST(CaptureAnalysis, ConnectionFiltersMatchTheAnalyzersFramesOnEveryWire) {
  for (auto wire : {sim::WireFormat::RoceV2Ipv4, sim::WireFormat::RoceV2Ipv6,
                    sim::WireFormat::RoceV1, sim::WireFormat::InfiniBand}) {
    SCOPED_TRACE(std::string(sim::toString(wire)));
    FrameStore store;
    ScenarioRecording rec;
    std::string error;
    ASSERT_TRUE(recordScenario("tour", wire, rec, store, error)) << error;
    const CaptureAnalysis a = analyzeFrameStore(store).analysis;
    ASSERT_FALSE(a.report.connections.empty());
    std::size_t total = 0;
    for (std::size_t i = 0; i < a.report.connections.size(); ++i) {
      const auto& c = a.report.connections[i];
      std::vector<std::size_t> frames;
      for (const auto& f : a.frames[i])
        frames.push_back(f.frame);
      EXPECT_EQ(frames.size(), c.frames);
      EXPECT_EQ(filterMatches(store, connectionFilter(c)), frames) << connectionFilter(c);
      total += frames.size();
    }
    EXPECT_EQ(total, a.report.summary.rdmaFrames);
  }
}

TEST(CaptureAnalysis, CancelStopsEarly) {
  FrameStore store;
  const auto frame = test::roceFrame(1);
  for (int i = 0; i < 20000; ++i)
    store.append(frame, i * 1000);
  std::atomic<bool> cancel{true};
  const AnalysisOutcome out = analyzeFrameStore(store, &cancel);
  EXPECT_TRUE(out.cancelled);
  EXPECT_TRUE(out.analysis.report.connections.empty());
  const AnalysisOutcome full = analyzeFrameStore(store);
  EXPECT_FALSE(full.cancelled);
  EXPECT_EQ(full.analysis.framesAnalysed, 20000u);
}

// The facts read ahead on a helper thread, in blocks, give the analysis of the frames added one
// by one: the same report (every connection, message, anomaly and figure, as JSON) and the same
// frames listed per connection, on the repository's frames (RoCE of every kind, iWARP over
// TCP, CM, PFC) repeated over many blocks and a part of one.
TEST(CaptureAnalysis, FactsReadAheadAnalyseAsFrameByFrame) {
  const auto frames = ::rdmascope::test::repositoryEthernetFrames();
  ASSERT_GT(frames.size(), 1000u);
  FrameStore store;
  for (std::size_t i = 0; store.size() < 9 * 1024 + 517; ++i)
    store.append(frames[i % frames.size()], static_cast<std::int64_t>(i) * 1500);
  const CaptureAnalysis ahead = analyzeFrameStore(store).analysis;
  CaptureAnalysisBuilder one;
  for (std::size_t i = 0; i < store.size(); ++i)
    one.add(store, i);
  const CaptureAnalysis byFrame = one.snapshot(true);
  EXPECT_EQ(ahead.framesAnalysed, store.size());
  EXPECT_GT(byFrame.report.connections.size(), 3u);
  EXPECT_GT(byFrame.report.anomalies.size(), 0u);
  EXPECT_TRUE(analysis::toJson(ahead.report) == analysis::toJson(byFrame.report));
  ASSERT_EQ(ahead.frames.size(), byFrame.frames.size());
  for (std::size_t c = 0; c < ahead.frames.size(); ++c) {
    ASSERT_EQ(ahead.frames[c].size(), byFrame.frames[c].size()) << "connection " << c;
    for (std::size_t i = 0; i < ahead.frames[c].size(); ++i) {
      const auto& a = ahead.frames[c][i];
      const auto& b = byFrame.frames[c][i];
      ASSERT_TRUE(a.frame == b.frame && a.fromB == b.fromB && a.time == b.time &&
                  a.payload == b.payload && a.mpa == b.mpa && a.rdmapOpcode == b.rdmapOpcode &&
                  a.last == b.last)
          << "connection " << c << " frame " << i;
    }
  }
}

QImage shoot(QWidget* page, const std::string& name) {
  QCoreApplication::processEvents();
  const QImage img = page->grab().toImage().convertToFormat(QImage::Format_RGB32);
  const std::string path = buildPath(name);
  EXPECT_TRUE(img.save(QString::fromStdString(path))) << path;
  return img;
}

std::size_t distinctColours(const QImage& img) {
  std::set<QRgb> colours;
  for (int y = 0; y < img.height(); y += 2)
    for (int x = 0; x < img.width(); x += 2)
      colours.insert(img.pixel(x, y));
  return colours.size();
}

TEST(AnalysisScreenshots, ConversationsFlowGraphAndPlotAreDrawn) {
  MainWindow w(nullptr, QString());
  w.resize(1600, 1000);
  w.show();
  ASSERT_TRUE(w.openCapture(QString::fromLatin1(kLossyCapture)));
  AnalysisController* an = w.analysis();
  ASSERT_TRUE(an->waitForIdle());
  an->selectConnection(an->analysis()->report.connections.back().id);
  std::vector<QImage> shots;
  for (QWidget* page : {an->conversationsPage(), an->flowGraphPage(), an->plotPage()}) {
    w.lowerTabs()->setCurrentWidget(page);
    shots.push_back(shoot(page, "analysis_" + page->objectName().toStdString() + ".png"));
  }
  for (std::size_t i = 0; i < shots.size(); ++i) {
    EXPECT_GT(distinctColours(shots[i]), 12u) << "shot " << i << " looks blank";
    for (std::size_t j = 0; j < i; ++j)
      EXPECT_NE(shots[i], shots[j]) << i << " and " << j;
  }
}

}  // namespace
}  // namespace rdmascope::ui

namespace rdmascope::ui {
namespace {

// A SEND/ACK stream on one QP pair, `pairs` times.
void fillStore(FrameStore& store, std::size_t pairs) {
  const auto send = test::roceFrame(0, 16, 0x04);
  for (std::size_t i = 0; i < pairs; ++i)
    store.append(send, static_cast<std::int64_t>(i) * 1000);
}

TEST(AnalysisController, RunsOnAWorkerThreadAndCancels) {
  QWidget parent;
  AnalysisController an(&parent);
  FrameStore store;
  fillStore(store, 400000);
  an.start(&store);
  EXPECT_TRUE(an.busy());  // start() returned before the analysis ended
  an.cancel();
  EXPECT_FALSE(an.busy());
  EXPECT_FALSE(an.analysis());
  an.start(&store);
  ASSERT_TRUE(an.waitForIdle(60000));
  ASSERT_TRUE(an.analysis());
  EXPECT_EQ(an.analysis()->framesAnalysed, store.size());
  EXPECT_EQ(an.conversationModel()->rowCount(), 1);
  EXPECT_EQ(an.flowGraph()->rowCount(), 400000);
  an.clear();
  EXPECT_EQ(an.conversationModel()->rowCount(), 0);
}

TEST(AnalysisController, LiveFramesAreAnalysedAsTheyArrive) {
  QWidget parent;
  AnalysisController an(&parent);
  FrameStore store;
  an.beginLive(&store);
  fillStore(store, 10);
  an.liveAppended();
  an.waitForIdle();
  ASSERT_TRUE(an.analysis());
  EXPECT_EQ(an.analysis()->framesAnalysed, 10u);
  fillStore(store, 5);
  an.liveAppended();
  an.endLive();
  ASSERT_TRUE(an.analysis());
  EXPECT_EQ(an.analysis()->framesAnalysed, 15u);
  EXPECT_EQ(an.analysis()->report.summary.frames, 15u);
  EXPECT_EQ(an.flowGraph()->rowCount(), 15);
}

}  // namespace
}  // namespace rdmascope::ui
