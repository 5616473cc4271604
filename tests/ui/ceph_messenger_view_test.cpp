// The Ceph messenger window: its models hold the two stacks' figures and steps as the simulator
// reports them, its packet list the chosen stack's frames; `--scenario ceph-messenger` and the
// menu open it; at 1280x720 and 1600x1000 its tables and packet list stay whole.
#include "rdmascope/ui/ceph_messenger_view.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QAction>
#include <QCoreApplication>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QTableView>
#include <QTreeView>
#include <set>

#include "rdmascope/ui/ceph_messenger_models.h"
#include "rdmascope/ui/frame_store.h"
#include "rdmascope/ui/hex_view.h"
#include "rdmascope/ui/main_window.h"
#include "rdmascope/ui/packet_list_model.h"
#include "rdmascope/ui/packet_pane.h"
#include "rdmascope/ui/scenario_controller.h"

namespace rdmascope::ui {
namespace {

sim::CephStackReport runStack(sim::CephStack stack, const sim::CephMessengerOptions& o) {
  std::string error;
  auto r = sim::runCephMessenger(stack, o, error);
  EXPECT_TRUE(r) << error;
  return r ? *r : sim::CephStackReport{};
}

double valueAt(const CephComparisonModel& m, const QString& row, int column) {
  const int r = m.rowNamed(row);
  EXPECT_GE(r, 0) << row.toStdString();
  return m.data(m.index(r, column), CephComparisonModel::ValueRole).toDouble();
}

TEST(CephMessengerModels, ComparisonHoldsBothStacksFigures) {
  sim::CephMessengerOptions o;
  o.messages = 1;
  const auto rdma = runStack(sim::CephStack::Rdma, o);
  const auto tcp = runStack(sim::CephStack::Posix, o);
  CephComparisonModel m;
  QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
  m.setReports(rdma, tcp);
  using C = CephComparisonModel;
  // 300 KiB: three chunks copied in at the client and out at the OSD.
  EXPECT_EQ(valueAt(m, QStringLiteral("CPU copies (client / OSD)"), C::Rdma), 6);
  EXPECT_EQ(valueAt(m, QStringLiteral("Bytes copied by the CPU (client / OSD)"), C::Rdma),
            2 * 300 * 1024);
  EXPECT_EQ(valueAt(m, QStringLiteral("Bytes copied by the CPU (client / OSD)"), C::Posix),
            2 * 300 * 1024);
  EXPECT_EQ(valueAt(m, QStringLiteral("SEND work requests"), C::Rdma), 4);
  EXPECT_EQ(valueAt(m, QStringLiteral("Frames on the wire"), C::Rdma),
            static_cast<double>(rdma.frames.size()));
  EXPECT_EQ(valueAt(m, QStringLiteral("Data"), C::Rdma), 1);
  EXPECT_EQ(valueAt(m, QStringLiteral("Data"), C::Posix), 1);
  EXPECT_DOUBLE_EQ(valueAt(m, QStringLiteral("Latency of message 1, us"), C::Posix),
                   tcp.latencyUs[0]);
  const int close = m.rowNamed(QStringLiteral("Close"));
  EXPECT_EQ(m.data(m.index(close, C::Rdma)).toString(), QStringLiteral("zero-length SEND"));
  EXPECT_LT(valueAt(m, QStringLiteral("CPU time, us (client / OSD)"), C::Rdma),
            valueAt(m, QStringLiteral("CPU time, us (client / OSD)"), C::Posix));
}

TEST(CephMessengerModels, StepsReadAsSentences) {
  const auto rdma = runStack(sim::CephStack::Rdma, {});
  CephStepsModel m;
  QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
  m.setSteps(rdma.steps);
  ASSERT_EQ(m.rowCount(), static_cast<int>(rdma.steps.size()));
  int fins = 0, infos = 0;
  for (int r = 0; r < m.rowCount(); ++r) {
    const QString step = m.data(m.index(r, CephStepsModel::Step)).toString();
    const QString text = m.data(m.index(r, CephStepsModel::Text)).toString();
    EXPECT_FALSE(text.isEmpty()) << step.toStdString();
    if (step == QStringLiteral("fin-sent")) {
      ++fins;
      EXPECT_TRUE(text.contains(QStringLiteral("zero-length"))) << text.toStdString();
    }
    if (step == QStringLiteral("qp-info-sent")) {
      ++infos;
      EXPECT_TRUE(text.contains(QString::fromStdString(rdma.qpInfo[infos - 1])))
          << text.toStdString();
    }
  }
  EXPECT_EQ(fins, 1);
  EXPECT_EQ(infos, 3);
}

TEST(CephMessengerView, RunsBothStacksAndShowsTheChosenFrames) {
  CephMessengerView v;
  ASSERT_TRUE(v.runFromControls());
  ASSERT_TRUE(v.rdma() && v.posix());
  EXPECT_EQ(v.rdmaSteps()->rowCount(), static_cast<int>(v.rdma()->steps.size()));
  EXPECT_EQ(v.posixSteps()->rowCount(), static_cast<int>(v.posix()->steps.size()));
  EXPECT_EQ(v.packets()->store().size(), v.rdma()->frames.size());
  EXPECT_EQ(v.packets()->packetModel()->rowCount(), static_cast<int>(v.rdma()->frames.size()));
  v.showFramesOf(sim::CephStack::Posix);
  EXPECT_EQ(v.packets()->store().size(), v.posix()->frames.size());
  sim::CephMessengerOptions bad;
  bad.messages = 0;
  EXPECT_FALSE(v.run(bad));
  EXPECT_TRUE(v.errorText().contains(QStringLiteral("message count")));
}

// The scenario names step the messenger in the main window; the menu still opens the
// side-by-side comparison window (once).
TEST(CephMessengerView, ScenarioNamesStepInTheMainWindowTheMenuOpensTheComparison) {
  MainWindow w;
  ASSERT_TRUE(w.openScenario(QStringLiteral("ceph-messenger-tcp")));
  ASSERT_NE(w.scenario()->recording(), nullptr);
  EXPECT_EQ(w.scenario()->recording()->transport, RecordingTransport::CephPosix);
  EXPECT_EQ(w.findChild<CephMessengerView*>(), nullptr);
  auto* action = w.findChild<QAction*>(QStringLiteral("cephMessengerAction"));
  ASSERT_NE(action, nullptr);
  action->trigger();
  auto* v = w.findChild<CephMessengerView*>();
  ASSERT_NE(v, nullptr);
  ASSERT_TRUE(v->posix());
  action->trigger();
  EXPECT_EQ(w.findChildren<CephMessengerView*>().size(), 1);
  EXPECT_TRUE(v->isVisible());
}

TEST(CephMessengerView, NothingCutAtLaptopAndDesktopSizes) {
  for (const QSize size : {QSize(1280, 720), QSize(1600, 1000)}) {
    CephMessengerView v;
    v.resize(size);
    v.show();
    ASSERT_TRUE(v.runFromControls());
    QCoreApplication::processEvents();
    // The comparison table shows its three columns whole.
    QTableView* t = v.comparisonTable();
    int columns = 0;
    for (int c = 0; c < t->model()->columnCount(); ++c)
      columns += t->columnWidth(c);
    EXPECT_LE(columns, t->viewport()->width() + 1) << size.width();
    // Every figure's name whole (the name column as wide as its longest name).
    int longest = 0;
    for (int r = 0; r < t->model()->rowCount(); ++r)
      longest =
          std::max(longest, t->fontMetrics().horizontalAdvance(
                                t->model()->index(r, CephComparisonModel::Name).data().toString()));
    EXPECT_GE(t->columnWidth(CephComparisonModel::Name), longest + 6) << size.width();
    EXPECT_GE(t->viewport()->height(), 4 * t->verticalHeader()->defaultSectionSize());
    EXPECT_GE(v.packets()->packetList()->viewport()->height(), 60);
    // A step's sentence has room in its column, and the selected one shows whole below.
    QTableView* steps = v.rdmaStepsTable();
    const int cw = steps->fontMetrics().horizontalAdvance(QLatin1Char('x'));
    EXPECT_GE(steps->columnWidth(CephStepsModel::Text), cw * 40) << size.width();
    QLabel* sentence = v.stepTextLabel();
    EXPECT_TRUE(sentence->isVisible());
    const QString first = v.rdmaSteps()->index(0, CephStepsModel::Text).data().toString();
    EXPECT_TRUE(v.stepSentence().contains(first)) << v.stepSentence().toStdString();
    EXPECT_GE(sentence->height(), sentence->heightForWidth(sentence->width())) << "sentence cut";
    const QRect r(sentence->mapTo(&v, QPoint(0, 0)), sentence->size());
    EXPECT_TRUE(v.rect().contains(r));
    steps->setCurrentIndex(v.rdmaSteps()->index(5, CephStepsModel::Time));
    EXPECT_TRUE(
        v.stepSentence().contains(v.rdmaSteps()->index(5, CephStepsModel::Text).data().toString()));
    // The detail tree and the bytes show the selected frame (the first) from the start.
    EXPECT_GT(v.packets()->detailTree()->model()->rowCount(), 2);
    EXPECT_EQ(v.packets()->hexView()->bytes().size(),
              static_cast<qsizetype>(v.rdma()->frames.front().bytes.size()));
    const QImage img = v.grab().toImage();
    const QString path = QStringLiteral(RDMASCOPE_BINARY_DIR "/tests/ui/shot_ceph_%1x%2.png")
                             .arg(size.width())
                             .arg(size.height());
    EXPECT_TRUE(img.save(path)) << path.toStdString();
    std::set<QRgb> colours;
    for (int y = 0; y < img.height(); y += 5)
      for (int x = 0; x < img.width(); x += 5)
        colours.insert(img.pixel(x, y));
    EXPECT_GT(colours.size(), 20u);
  }
}

}  // namespace
}  // namespace rdmascope::ui
