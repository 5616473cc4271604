// Numbers that are right (issue 15): the Plot's throughput follows the capture's timescale and
// the direction the data travels; the Comparison's CPU time counts a polling CPU as busy, its
// throughput is that of a stream, and every figure is defined on screen.
#include <gtest/gtest.h>

#include <QLabel>
#include <QLocale>
#include <numeric>

#include "rdmascope/ui/analysis_plot.h"
#include "rdmascope/ui/capture_analysis.h"
#include "rdmascope/ui/comparison_view.h"
#include "rdmascope/ui/scenario_player.h"
#include "rdmascope/ui/transfer_follower.h"

namespace rdmascope::ui {
namespace {

CaptureAnalysis analysed(const std::string& scenario, FrameStore& store) {
  ScenarioRecording rec;
  std::string error;
  EXPECT_TRUE(recordScenario(scenario, sim::WireFormat::RoceV2Ipv4, rec, store, error)) << error;
  return analyzeFrameStore(store).analysis;
}

QString grouped(std::uint64_t n) {
  return QLocale(QLocale::English).toString(static_cast<qulonglong>(n));
}

std::uint64_t total(const std::vector<std::uint64_t>& v) {
  return std::accumulate(v.begin(), v.end(), std::uint64_t{0});
}

TEST(PlotThroughput, AReadsDataIsSentByTheResponderAtTheReadsOwnTimescale) {
  FrameStore store;
  const CaptureAnalysis a = analysed("rc-read", store);
  ASSERT_EQ(a.report.connections.size(), 1u);
  const auto& c = a.report.connections[0];
  const ThroughputSeries s = throughputSeries(a, 0);
  // Endpoint a asked (its first frame is the READ request); b sends the 2000 bytes.
  ASSERT_FALSE(a.frames[0].empty());
  EXPECT_EQ(a.frames[0].front().fromB, 0);
  EXPECT_EQ(total(s.bytes[0]), 0u);
  EXPECT_EQ(total(s.bytes[1]), 2000u);
  // Bins of the transfer's microseconds, not of a millisecond.
  const double span = c.lastTime - c.firstTime;
  ASSERT_GT(span, 0);
  EXPECT_LT(span, 10e-6);
  EXPECT_LE(s.binWidth, 2 * span);
  double peak = 0;
  for (std::size_t b = 0; b < s.bytes[1].size(); ++b)
    peak = std::max(peak, s.rate(1, b));
  EXPECT_GT(peak, 2000 / span * 0.5);  // about the size over the transfer's duration
  EXPECT_GT(peak, 100e6);              // not the 2 MB/s of a 1 ms bin
}

TEST(PlotThroughput, TheToursRateAveragesToWhatItsConversationCarried) {
  FrameStore store;
  const CaptureAnalysis a = analysed("tour", store);
  ASSERT_EQ(a.report.connections.size(), 1u);
  const auto& c = a.report.connections[0];
  const ThroughputSeries s = throughputSeries(a, 0);
  std::uint64_t payload[2] = {0, 0};
  for (const ConnectionFrame& f : a.frames[0])
    payload[f.fromB] += f.payload;
  EXPECT_EQ(total(s.bytes[0]), payload[0]);
  EXPECT_EQ(total(s.bytes[1]), payload[1]);
  EXPECT_GT(payload[1], 0u);  // the READ's response data
  // The bins cover the connection once, with a handful of bins, and their mean rate is the
  // connection's bytes over its duration.
  const double span = c.lastTime - c.firstTime;
  const std::size_t n = s.bytes[0].size();
  EXPECT_GE(n, 2u);
  EXPECT_LE(n, 20u);
  EXPECT_GE(s.binWidth * static_cast<double>(n), span);
  EXPECT_LT(s.binWidth * static_cast<double>(n - 1), span);
  double mean = 0;
  for (std::size_t b = 0; b < n; ++b)
    mean += s.rate(0, b) / static_cast<double>(n);
  EXPECT_NEAR(mean, static_cast<double>(payload[0]) / (s.binWidth * static_cast<double>(n)), 1.0);
  EXPECT_GT(mean, 20e6);  // tens of MB/s, not the 6.7 MB/s of 1 ms bins

  AnalysisPlot plot;
  plot.setAnalysis(std::make_shared<const CaptureAnalysis>(a));
  plot.setConnection(c.id);
  EXPECT_EQ(plot.throughput().binWidth, s.binWidth);
}

TEST(ComparisonFigures, APollingCpuIsBusyForTheWholeTransfer) {
  sim::HostCostSettings poll;
  poll.completion = sim::CompletionMode::Poll;
  for (std::uint64_t bytes : {200ull, 64ull << 10, 1ull << 20}) {
    for (sim::RdmaOp op : {sim::RdmaOp::Send, sim::RdmaOp::Write, sim::RdmaOp::Read}) {
      sim::TransferOptions o;
      o.op = op;
      const auto e = sim::estimateTransfer(sim::Transport::RoceV2, bytes, poll, o);
      const double cpu = ComparisonModel::cpuBusyNs(e, poll);
      const double waiting = op == sim::RdmaOp::Send ? 2 : 1;
      EXPECT_GE(cpu, waiting * e.latencyNs) << bytes;
      EXPECT_GT(cpu, e.counters.cpuNs()) << bytes;
    }
  }
  sim::HostCostSettings events = poll;
  events.completion = sim::CompletionMode::Event;
  const auto e = sim::estimateTransfer(sim::Transport::RoceV2, 1 << 20, events);
  EXPECT_DOUBLE_EQ(ComparisonModel::cpuBusyNs(e, events), e.counters.cpuNs());
  const auto t = sim::estimateTransfer(sim::Transport::Tcp, 1 << 20, poll);
  EXPECT_DOUBLE_EQ(ComparisonModel::cpuBusyNs(t, poll), t.counters.cpuNs());
}

TEST(ComparisonFigures, ThroughputIsThatOfAStreamAndEveryRowIsDefined) {
  const sim::HostCostSettings s;
  const auto small = sim::estimateTransfer(sim::Transport::RoceV2, 200, s);
  const double oneMessage = 200 * 1e9 / small.latencyNs;
  EXPECT_GT(ComparisonModel::streamRate(small), 2 * oneMessage);
  const auto big = sim::estimateTransfer(sim::Transport::RoceV2, 1 << 20, s);
  EXPECT_GE(ComparisonModel::streamRate(big), big.throughputBytesPerSec * 0.99);

  ComparisonModel model;
  for (int r = 0; r < ComparisonModel::RowCount; ++r) {
    EXPECT_GT(ComparisonModel::rowDefinition(r).size(), 20) << r;
    EXPECT_EQ(model.headerData(r, Qt::Vertical, Qt::ToolTipRole).toString(),
              ComparisonModel::rowDefinition(r));
  }
}

TEST(ComparisonFigures, TheNoteSaysWhyRoceAndIwarpDiffer) {
  ComparisonView view;
  for (std::uint64_t bytes : {4ull << 10, 1ull << 20}) {
    view.setTransferSize(bytes);
    const QString note = view.note()->text();
    const auto& roce = view.model()->estimate(1);
    const auto& iwarp = view.model()->estimate(2);
    EXPECT_TRUE(
        note.contains(QStringLiteral("RoCEv2: %1 frame").arg(grouped(roce.counters.frames))))
        << note.toStdString();
    EXPECT_TRUE(
        note.contains(QStringLiteral("iWARP: %1 frame").arg(grouped(iwarp.counters.frames))))
        << note.toStdString();
    if (bytes == 1u << 20) {
      ASSERT_LT(iwarp.counters.frames, roce.counters.frames);  // larger frames
      EXPECT_TRUE(note.contains(iwarp.latencyNs < roce.latencyNs ? "iWARP is" : "RoCEv2 is"));
    }
  }
}

}  // namespace
}  // namespace rdmascope::ui

namespace rdmascope::ui {
namespace {

TEST(ComparisonFigures, TheSimulatedRunStandsBesideTheModel) {
  ScenarioRecording rec;
  FrameStore store;
  std::string error;
  ASSERT_TRUE(recordScenario("rc-write", sim::WireFormat::RoceV2Ipv4, rec, store, error));
  int posted = -1;
  for (std::size_t i = 0; i < rec.events.size() && posted < 0; ++i)
    if (rec.events[i].trace.kind == sim::TraceKind::WqePosted && rec.events[i].host == 0)
      posted = static_cast<int>(i);
  ASSERT_GE(posted, 0);
  const auto t = currentTransfer(rec, posted);
  ASSERT_TRUE(t);
  const auto us = simulatedLatencyUs(rec, *t);
  ASSERT_TRUE(us);
  // The ladder's completion: the send CQE on host A.
  double cqe = -1;
  for (const auto& e : rec.events)
    if (e.host == 0 && e.trace.kind == sim::TraceKind::CqeProduced && e.trace.wrId == t->wrId)
      cqe = e.trace.time.micros();
  EXPECT_DOUBLE_EQ(*us, cqe - rec.events[static_cast<std::size_t>(posted)].trace.time.micros());
  EXPECT_GT(*us, 1.0);
  sim::TransferOptions o;
  o.op = sim::RdmaOp::Write;
  const auto model = sim::estimateTransfer(sim::Transport::RoceV2, t->bytes, {}, o);
  const QString text = simulatedVersusModel(*us, model);
  EXPECT_TRUE(text.contains(QString::number(*us, 'f', 3))) << text.toStdString();
  EXPECT_TRUE(text.contains(QString::number(model.latencyNs / 1e3, 'f', 2))) << text.toStdString();
  // The model's extra host time accounts for most of the difference.
  double host = 0;
  for (const auto& st : model.stages)
    if (st.worker == sim::Worker::Cpu || st.worker == sim::Worker::Dma) host += st.firstNs;
  EXPECT_TRUE(text.contains(QString::number(host / 1e3, 'f', 2)));
  EXPECT_LT(std::abs(model.latencyNs / 1e3 - *us - host / 1e3), host / 1e3);
}

}  // namespace
}  // namespace rdmascope::ui
