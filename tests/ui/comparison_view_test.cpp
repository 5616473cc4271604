#include "rdmascope/ui/comparison_view.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QCoreApplication>
#include <QImage>
#include <QSignalSpy>
#include <QStringList>
#include <QTabWidget>
#include <set>

#include "rdmascope/ui/main_window.h"
#include "test_frames.h"

namespace rdmascope::ui {
namespace {

qulonglong counter(const ComparisonModel& m, ComparisonModel::Row row, int column) {
  return m.index(row, column).data(ComparisonModel::ValueRole).toULongLong();
}

double number(const ComparisonModel& m, ComparisonModel::Row row, int column) {
  return m.index(row, column).data(ComparisonModel::ValueRole).toDouble();
}

void expectMatchesTheCostModel(const ComparisonModel& m, std::uint64_t bytes) {
  const sim::HostCostSettings settings;
  for (int c = 0; c < 3; ++c) {
    const sim::TransferEstimate e =
        sim::estimateTransfer(kComparedTransports[static_cast<std::size_t>(c)], bytes, settings);
    SCOPED_TRACE(std::string(sim::toString(e.transport)) + " " + std::to_string(bytes));
    EXPECT_EQ(m.headerData(c, Qt::Horizontal).toString(),
              QStringList({"TCP", "RoCEv2", "iWARP"})[c]);
    EXPECT_DOUBLE_EQ(number(m, ComparisonModel::Latency, c), e.latencyNs);
    EXPECT_DOUBLE_EQ(number(m, ComparisonModel::Throughput, c), ComparisonModel::streamRate(e));
    EXPECT_DOUBLE_EQ(number(m, ComparisonModel::CpuTime, c),
                     ComparisonModel::cpuBusyNs(e, settings));
    EXPECT_EQ(counter(m, ComparisonModel::CpuBytesCopied, c), e.counters.cpuBytesCopied);
    EXPECT_EQ(counter(m, ComparisonModel::CopiesPerByte, c), e.counters.copiesPerByte);
    EXPECT_EQ(counter(m, ComparisonModel::CopyOperations, c), e.counters.copyOperations);
    EXPECT_EQ(counter(m, ComparisonModel::Syscalls, c), e.counters.syscalls);
    EXPECT_EQ(counter(m, ComparisonModel::ContextSwitches, c), e.counters.contextSwitches);
    EXPECT_EQ(counter(m, ComparisonModel::Interrupts, c), e.counters.interrupts);
    EXPECT_EQ(counter(m, ComparisonModel::Doorbells, c), e.counters.doorbells);
    EXPECT_EQ(counter(m, ComparisonModel::Frames, c), e.counters.frames);
    EXPECT_EQ(counter(m, ComparisonModel::AckFrames, c), e.counters.ackFrames);
    EXPECT_EQ(counter(m, ComparisonModel::WireBytes, c), e.counters.wireBytes);
    EXPECT_EQ(counter(m, ComparisonModel::MemoryBusBytes, c), e.counters.memoryBusBytes);
    EXPECT_EQ(m.index(ComparisonModel::Bottleneck, c).data().toString().toStdString(),
              e.bottleneck);
    // The displayed text of a counter is the same number, grouped by thousands.
    EXPECT_EQ(m.index(ComparisonModel::Syscalls, c).data().toString().remove(',').toULongLong(),
              e.counters.syscalls);
  }
}

TEST(ComparisonModel, PassesTheModelTesterAndMatchesTheCostModel) {
  ComparisonModel model;
  test::ModelTestWarnings warnings;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Warning);
  EXPECT_EQ(model.rowCount(), ComparisonModel::RowCount);
  EXPECT_EQ(model.columnCount(), 3);
  EXPECT_EQ(model.transferSize(), 64u * 1024);
  expectMatchesTheCostModel(model, 64 * 1024);
  model.setTransferSize(1 << 20);
  expectMatchesTheCostModel(model, 1 << 20);
  EXPECT_TRUE(test::ModelTestWarnings::messages().empty());
}

TEST(ComparisonModel, TcpCopiesEveryByteTwiceAndRdmaNone) {
  ComparisonModel model;
  for (std::uint64_t bytes : {4ull << 10, 64ull << 10, 16ull << 20, 1ull << 30}) {
    model.setTransferSize(bytes);
    EXPECT_EQ(counter(model, ComparisonModel::CpuBytesCopied, 0), 2 * bytes);
    EXPECT_EQ(counter(model, ComparisonModel::CopiesPerByte, 0), 2u);
    for (int c : {1, 2}) {
      EXPECT_EQ(counter(model, ComparisonModel::CpuBytesCopied, c), 0u);
      EXPECT_EQ(counter(model, ComparisonModel::CopiesPerByte, c), 0u);
      // Without copies the CPU does less work than the socket path.
      EXPECT_LT(number(model, ComparisonModel::CpuTime, c),
                number(model, ComparisonModel::CpuTime, 0));
    }
  }
}

TEST(ComparisonView, TheSizeSelectorDrivesTheTableAndTheCharts) {
  ComparisonView view;
  ComparisonModel* model = view.model();
  EXPECT_EQ(view.sizeBox()->count(), 10);  // 4 KiB to 1 GiB by factors of 4
  EXPECT_EQ(view.sizeBox()->itemText(0), "4 KiB");
  EXPECT_EQ(view.sizeBox()->itemText(9), "1 GiB");
  EXPECT_EQ(view.sizeBox()->currentText(), "64 KiB");
  const qulonglong before = counter(*model, ComparisonModel::Frames, 1);
  QSignalSpy changed(model, &QAbstractItemModel::dataChanged);
  view.sizeBox()->setCurrentIndex(view.sizeBox()->findText("16 MiB"));
  EXPECT_EQ(changed.count(), 1);
  EXPECT_EQ(view.transferSize(), 16u << 20);
  EXPECT_GT(counter(*model, ComparisonModel::Frames, 1), before);
  expectMatchesTheCostModel(*model, 16 << 20);
  // A size outside the list is added in order and selected.
  view.setTransferSize(100000);
  EXPECT_EQ(view.sizeBox()->currentText(), "100000 B");
  EXPECT_EQ(view.sizeBox()->currentIndex(), 3);
  expectMatchesTheCostModel(*model, 100000);

  ASSERT_EQ(view.charts().size(), 3u);
  EXPECT_EQ(view.charts()[0]->row(), ComparisonModel::Latency);
  EXPECT_EQ(view.charts()[1]->row(), ComparisonModel::CpuTime);
  EXPECT_EQ(view.charts()[2]->row(), ComparisonModel::CpuBytesCopied);
  // The bytes-copied chart draws a bar for TCP only: more pixels of TCP's colour than none.
  view.resize(900, 600);
  view.show();
  QCoreApplication::processEvents();
  const QImage img = view.charts()[2]->grab().toImage().convertToFormat(QImage::Format_RGB32);
  int tcp = 0, roce = 0;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x) {
      const QRgb px = img.pixel(x, y);
      if (px == qRgb(0xd0, 0x70, 0x20)) ++tcp;
      if (px == qRgb(0x2a, 0x6f, 0xb8)) ++roce;
    }
  EXPECT_GT(tcp, 100);
  EXPECT_EQ(roce, 0);
}

TEST(ComparisonView, IsATabOfTheMainWindow) {
  MainWindow w(nullptr, QString());
  ASSERT_NE(w.comparisonView(), nullptr);
  const int tab = w.lowerTabs()->indexOf(w.comparisonView());
  ASSERT_GE(tab, 0);
  EXPECT_EQ(w.lowerTabs()->tabText(tab), "Comparison");
  // A screenshot of the window with the tab shown, for a look by eye; it must not be blank.
  w.show();
  w.lowerTabs()->setCurrentIndex(tab);
  w.comparisonView()->setTransferSize(1 << 20);
  QCoreApplication::processEvents();
  const QImage img = w.grab().toImage().convertToFormat(QImage::Format_RGB32);
  const QString path = QStringLiteral(RDMASCOPE_BINARY_DIR "/tests/ui/shot_comparison.png");
  EXPECT_TRUE(img.save(path)) << path.toStdString();
  const QImage chart = w.comparisonView()->charts()[0]->grab().toImage();
  std::set<QRgb> colours;
  for (int y = 0; y < chart.height(); y += 2)
    for (int x = 0; x < chart.width(); x += 2)
      colours.insert(chart.pixel(x, y));
  EXPECT_GT(colours.size(), 4u);
}

}  // namespace
}  // namespace rdmascope::ui
