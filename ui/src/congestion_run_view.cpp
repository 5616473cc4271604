#include "rdmascope/ui/congestion_run_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QSplitter>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <map>

#include "rdmascope/ui/congestion_plots.h"
#include "rdmascope/ui/fabric_topology_model.h"
#include "rdmascope/ui/fabric_topology_view.h"

namespace rdmascope::ui {

namespace {

const QColor kPalette[] = {QColor(0x1e, 0x88, 0xe5), QColor(0x43, 0xa0, 0x47),
                           QColor(0x8e, 0x24, 0xaa), QColor(0xfb, 0x8c, 0x00),
                           QColor(0x00, 0x89, 0x7b), QColor(0x6d, 0x4c, 0x41),
                           QColor(0xd8, 0x1b, 0x60), QColor(0x3f, 0x51, 0xb5),
                           QColor(0x7c, 0xb3, 0x42), QColor(0x78, 0x90, 0x9c)};

QColor colourOf(std::size_t i) {
  return kPalette[i % std::size(kPalette)];
}

constexpr std::size_t kQueuesShown = 5;

}  // namespace

CongestionRunView::CongestionRunView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("congestionRunView"));
  run_ = new CongestionRun(this);
  topology_ = new FabricTopologyModel(run_, this);
  fabricView_ = new FabricTopologyView(topology_, this);
  queues_ = new TimeSeriesPlot(tr("Egress queue depth"), tr("KB"), this);
  queues_->setObjectName(QStringLiteral("queuePlot"));
  rates_ = new TimeSeriesPlot(tr("Sending rate per flow"), tr("Gb/s"), this);
  rates_->setObjectName(QStringLiteral("ratePlot"));
  pauses_ = new PauseRowsPlot(this);
  pauses_->setObjectName(QStringLiteral("pausePlot"));

  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(4, 2, 4, 2);
  bar->setSpacing(4);
  auto button = [this, bar](QStyle::StandardPixmap icon, const QString& tip, auto fn) {
    auto* b = new QToolButton(this);
    b->setIcon(style()->standardIcon(icon));
    b->setToolTip(tip);
    b->setAutoRaise(true);
    connect(b, &QToolButton::clicked, this, fn);
    bar->addWidget(b);
    return b;
  };
  button(QStyle::SP_MediaSkipBackward, tr("Back to time 0"), [this] { run_->setTime({}); });
  button(QStyle::SP_MediaSeekBackward, tr("Previous event of the chosen kind"),
         [this] { previousEvent(); });
  button(QStyle::SP_ArrowLeft, tr("Back one slice of simulated time"), [this] { stepBack(); });
  button(QStyle::SP_ArrowRight, tr("Forward one slice of simulated time"),
         [this] { stepForward(); });
  button(QStyle::SP_MediaSeekForward, tr("Next event of the chosen kind"), [this] { nextEvent(); });
  targetBox_ = new QComboBox(this);
  targetBox_->setObjectName(QStringLiteral("congestionTarget"));
  targetBox_->addItem(tr("Any notable event"), static_cast<int>(CongestionStepTarget::Notable));
  targetBox_->addItem(tr("XOFF"), static_cast<int>(CongestionStepTarget::Xoff));
  targetBox_->addItem(tr("ECN mark"), static_cast<int>(CongestionStepTarget::EcnMark));
  targetBox_->addItem(tr("CNP"), static_cast<int>(CongestionStepTarget::Cnp));
  targetBox_->addItem(tr("Rate cut"), static_cast<int>(CongestionStepTarget::RateCut));
  targetBox_->addItem(tr("XON"), static_cast<int>(CongestionStepTarget::Xon));
  targetBox_->addItem(tr("Drop"), static_cast<int>(CongestionStepTarget::Drop));
  targetBox_->setToolTip(tr("What the next and previous event buttons look for"));
  bar->addWidget(targetBox_);
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setObjectName(QStringLiteral("congestionTime"));
  slider_->setToolTip(tr("Simulated time, one step per slice"));
  bar->addWidget(slider_, 1);
  timeLabel_ = new QLabel(this);
  timeLabel_->setMinimumWidth(
      timeLabel_->fontMetrics().horizontalAdvance(QStringLiteral("t = 00000.000 us of 00000 us")) +
      4);
  bar->addWidget(timeLabel_);
  connect(slider_, &QSlider::valueChanged, this, [this](int v) {
    if (v != run_->sliceIndex() || run_->currentEvent() >= 0) run_->goToSlice(v);
  });

  auto* plots = new QSplitter(Qt::Vertical, this);
  plots->addWidget(queues_);
  plots->addWidget(rates_);
  plots->addWidget(pauses_);
  plots->setChildrenCollapsible(false);
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(fabricView_);
  split->addWidget(plots);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 1);
  split->setChildrenCollapsible(false);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addLayout(bar);
  layout->addWidget(split, 1);

  connect(run_, &CongestionRun::timeChanged, this, &CongestionRunView::follow);
}

CongestionStepTarget CongestionRunView::target() const {
  return static_cast<CongestionStepTarget>(targetBox_->currentData().toInt());
}

void CongestionRunView::setTarget(CongestionStepTarget target) {
  targetBox_->setCurrentIndex(targetBox_->findData(static_cast<int>(target)));
}

bool CongestionRunView::open(const QString& path, QString& error) {
  // the run emits timeChanged as it loads: the plots must be rebuilt first
  const QSignalBlocker block(run_);
  if (!run_->load(path, error)) return false;
  topology_->reset();
  rebuildPlots();
  {
    const QSignalBlocker blockSlider(slider_);
    slider_->setRange(0, run_->sliceCount());
    slider_->setValue(0);
  }
  follow();
  return true;
}

void CongestionRunView::rebuildPlots() {
  const auto& series = run_->series();
  const auto& spec = run_->spec();
  std::vector<double> times;
  for (auto t : series.times)
    times.push_back(t.micros());
  const double duration = spec.duration.micros();

  // the deepest queues, deepest first
  std::vector<std::size_t> order(series.queues.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  auto peak = [&](std::size_t q) {
    const auto& b = series.queues[q].bytes;
    return b.empty() ? 0 : *std::max_element(b.begin(), b.end());
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return peak(a) > peak(b); });
  if (order.size() > kQueuesShown) order.resize(kQueuesShown);
  std::vector<TimeSeriesPlot::Line> lines;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const auto& q = series.queues[order[k]];
    TimeSeriesPlot::Line l;
    l.name = QStringLiteral("%1 P%2").arg(QString::fromStdString(q.port)).arg(q.priority);
    l.colour = colourOf(k);
    for (auto b : q.bytes)
      l.values.push_back(static_cast<double>(b) / 1024.0);
    lines.push_back(std::move(l));
  }
  std::vector<TimeSeriesPlot::Threshold> thresholds;
  if (spec.switches.pfc && !order.empty()) {
    // the thresholds of the switch holding the deepest queue (dynamic ones move with its
    // free buffer); they apply to its ingress, which feeds that queue
    const QString port = QString::fromStdString(series.queues[order[0]].port);
    const std::string sw = port.section(QLatin1Char(':'), 0, 0).toStdString();
    const auto it = series.xoffBytes.find(sw);
    if (it != series.xoffBytes.end()) {
      TimeSeriesPlot::Line xoff{
          tr("XOFF (%1)").arg(QString::fromStdString(sw)), QColor(0xc6, 0x28, 0x28), {}, true};
      TimeSeriesPlot::Line xon{
          tr("XON (%1)").arg(QString::fromStdString(sw)), QColor(0x2e, 0x7d, 0x32), {}, true};
      const auto off = spec.switches.buffer.pfc.xonOffset;
      for (auto b : it->second) {
        xoff.values.push_back(static_cast<double>(b) / 1024.0);
        xon.values.push_back(static_cast<double>(b > off ? b - off : 0) / 1024.0);
      }
      lines.push_back(std::move(xoff));
      lines.push_back(std::move(xon));
    }
  }
  if (spec.switches.ecn) {
    thresholds.push_back({tr("Kmin"), QColor(0xef, 0x6c, 0x00),
                          static_cast<double>(spec.switches.marking.kmin) / 1024.0});
    thresholds.push_back({tr("Kmax"), QColor(0xad, 0x14, 0x57),
                          static_cast<double>(spec.switches.marking.kmax) / 1024.0});
  }
  // With ECN the story is the queue near Kmin once DCQCN has acted: the first incast's spike
  // would flatten it, so the axis stops at twice Kmax (the title says when a line goes above).
  double ceiling = 0;
  if (spec.switches.ecn && spec.nics.dcqcn) {
    ceiling = 2.0 * static_cast<double>(spec.switches.marking.kmax) / 1024.0;
    bool above = false;
    for (const auto& l : lines)
      for (double v : l.values)
        above |= v > ceiling;
    queues_->setTitle(above ? tr("Egress queue depth (axis cut at 2 x Kmax)")
                            : tr("Egress queue depth"));
    if (!above) ceiling = 0;
  } else {
    queues_->setTitle(tr("Egress queue depth"));
  }
  queues_->setCeiling(ceiling);
  queues_->setData(times, std::move(lines), std::move(thresholds), duration);

  std::vector<TimeSeriesPlot::Line> rates;
  for (std::size_t i = 0; i < series.flows.size(); ++i) {
    const auto& f = series.flows[i];
    rates.push_back({QString::fromStdString(f.name), colourOf(i),
                     spec.nics.dcqcn ? f.dcqcnRateGbps : f.deliveredGbps, false});
  }
  rates_->setTitle(spec.nics.dcqcn ? tr("DCQCN sending rate per flow (RC)")
                                   : tr("Delivered rate per flow (no DCQCN)"));
  rates_->setData(times, std::move(rates), {}, duration);

  std::vector<PauseRowsPlot::Row> rows;
  std::map<std::pair<std::string, int>, std::size_t> rowOf;
  for (const auto& p : run_->pauses()) {
    auto [it, added] = rowOf.try_emplace({p.port, p.priority}, rows.size());
    if (added)
      rows.push_back(
          {QStringLiteral("%1 P%2").arg(QString::fromStdString(p.port)).arg(p.priority), {}});
    rows[it->second].bars.emplace_back(p.start.micros(), p.end.micros());
  }
  pauses_->setRows(std::move(rows), duration);
}

void CongestionRunView::follow() {
  const double now = run_->time().micros();
  topology_->refresh();
  fabricView_->setTimeText(
      tr("%1  t = %2 us").arg(QString::fromStdString(run_->spec().name)).arg(now, 0, 'f', 3));
  queues_->setCursor(now);
  rates_->setCursor(now);
  pauses_->setCursor(now);
  {
    const QSignalBlocker block(slider_);
    slider_->setValue(run_->sliceIndex());
  }
  timeLabel_->setText(
      tr("t = %1 us of %2 us").arg(now, 0, 'f', 3).arg(run_->duration().micros(), 0, 'f', 0));
  Q_EMIT stepped();
}

}  // namespace rdmascope::ui
