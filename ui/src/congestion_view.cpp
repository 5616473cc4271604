#include "rdmascope/ui/congestion_view.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "rdmascope/ui/analysis_models.h"

namespace rdmascope::ui {
namespace {

QString priorityText(int priority) {
  return priority < 0 ? QObject::tr("all (PAUSE)") : QString::number(priority);
}

QTableView* makeTable(QWidget* parent, const QString& name, QAbstractItemModel* model) {
  auto* v = new QTableView(parent);
  v->setObjectName(name);
  v->setModel(model);
  v->verticalHeader()->hide();
  v->verticalHeader()->setDefaultSectionSize(v->fontMetrics().height() + 4);
  v->horizontalHeader()->setStretchLastSection(true);
  v->setSelectionBehavior(QAbstractItemView::SelectRows);
  v->setSelectionMode(QAbstractItemView::SingleSelection);
  v->setShowGrid(false);
  v->setAlternatingRowColors(true);
  return v;
}

// Priority colours as switch vendors draw traffic classes: one hue per priority.
QColor priorityColour(int priority) {
  static const QColor kColours[] = {QColor(0x78, 0x90, 0x9c), QColor(0x1e, 0x88, 0xe5),
                                    QColor(0x43, 0xa0, 0x47), QColor(0xe5, 0x39, 0x35),
                                    QColor(0x8e, 0x24, 0xaa), QColor(0xfb, 0x8c, 0x00),
                                    QColor(0x00, 0x89, 0x7b), QColor(0x6d, 0x4c, 0x41)};
  return priority < 0 ? QColor(0x42, 0x42, 0x42) : kColours[priority & 7];
}

}  // namespace

// ---- PauseStatsModel ------------------------------------------------------------------------

PauseStatsModel::PauseStatsModel(QObject* parent) : QAbstractTableModel(parent) {}

void PauseStatsModel::setAnalysis(std::shared_ptr<const CaptureAnalysis> analysis) {
  beginResetModel();
  analysis_ = std::move(analysis);
  endResetModel();
}

int PauseStatsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !analysis_ ? 0 : static_cast<int>(analysis_->report.pauses.size());
}
int PauseStatsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant PauseStatsModel::data(const QModelIndex& index, int role) const {
  if (!analysis_ || !index.isValid() || index.row() >= rowCount()) return {};
  const auto& p = analysis_->report.pauses[static_cast<std::size_t>(index.row())];
  if (role == Qt::DecorationRole && index.column() == Priority) return priorityColour(p.priority);
  if (role == Qt::TextAlignmentRole && index.column() >= Priority)
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ToolTipRole && index.column() == Paused)
    return tr(
        "Time this priority was held paused: from each XOFF to its XON, or until its "
        "pause time (quanta of 512 bit times) ran out");
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case Port:
      return QString::fromStdString(p.port);
    case Priority:
      return priorityText(p.priority);
    case Frames:
      return QVariant::fromValue<qulonglong>(p.frames);
    case Xoff:
      return QVariant::fromValue<qulonglong>(p.xoff);
    case Xon:
      return QVariant::fromValue<qulonglong>(p.xon);
    case Paused:
      return durationText(p.pausedSeconds);
    case Longest:
      return durationText(p.longestPause);
    case Storms:
      return p.storms;
    default:
      return {};
  }
}

QVariant PauseStatsModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Port:
      return tr("Port (pausing)");
    case Priority:
      return tr("Priority");
    case Frames:
      return tr("Frames");
    case Xoff:
      return tr("XOFF");
    case Xon:
      return tr("XON");
    case Paused:
      return tr("Paused");
    case Longest:
      return tr("Longest");
    case Storms:
      return tr("Storms");
    default:
      return {};
  }
}

qint64 PauseStatsModel::frameAt(int row) const {
  if (!analysis_ || row < 0 || row >= rowCount()) return -1;
  return static_cast<qint64>(analysis_->report.pauses[static_cast<std::size_t>(row)].firstFrame);
}

// ---- CnpMatchModel --------------------------------------------------------------------------

CnpMatchModel::CnpMatchModel(QObject* parent) : QAbstractTableModel(parent) {}

void CnpMatchModel::setAnalysis(std::shared_ptr<const CaptureAnalysis> analysis) {
  beginResetModel();
  analysis_ = std::move(analysis);
  endResetModel();
}

int CnpMatchModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !analysis_ ? 0 : static_cast<int>(analysis_->report.cnps.size());
}
int CnpMatchModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant CnpMatchModel::data(const QModelIndex& index, int role) const {
  if (!analysis_ || !index.isValid() || index.row() >= rowCount()) return {};
  const auto& m = analysis_->report.cnps[static_cast<std::size_t>(index.row())];
  if (role == Qt::ForegroundRole && m.marked == 0) return QColor(0xc6, 0x28, 0x28);
  if (role == Qt::ToolTipRole && m.marked == 0)
    return tr(
        "No CE-marked packet of this flow precedes this CNP in the capture: the mark "
        "happened after the capture point, or the capture missed it");
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case Frame:
      return QVariant::fromValue<qulonglong>(m.frame);
    case Time:
      return QString::number(m.time, 'f', 6);
    case Connection: {
      const int row = analysis_->rowOfConnection(m.connection);
      if (row < 0) return m.connection;
      const auto& c = analysis_->report.connections[static_cast<std::size_t>(row)];
      const auto& from = m.direction == 1 ? c.b : c.a;
      const auto& to = m.direction == 1 ? c.a : c.b;
      return QStringLiteral("%1: %2 \u2192 %3")
          .arg(m.connection)
          .arg(QString::fromStdString(from.address), QString::fromStdString(to.address));
    }
    case DestQp:
      return QStringLiteral("0x%1").arg(m.destQp, 6, 16, QLatin1Char('0'));
    case Marked:
      return QVariant::fromValue<qulonglong>(m.marked);
    case MarkedFrames:
      if (m.marked == 0) return tr("none seen");
      if (m.firstMarkedFrame == m.lastMarkedFrame) return QString::number(m.firstMarkedFrame);
      return QStringLiteral("%1\u2013%2").arg(m.firstMarkedFrame).arg(m.lastMarkedFrame);
    case Reaction:
      return m.marked ? durationText(m.reaction) : QString();
    default:
      return {};
  }
}

QVariant CnpMatchModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Frame:
      return tr("CNP frame");
    case Time:
      return tr("Time");
    case Connection:
      return tr("Flow (data direction)");
    case DestQp:
      return tr("To QP");
    case Marked:
      return tr("CE marks");
    case MarkedFrames:
      return tr("Marked frames");
    case Reaction:
      return tr("Mark to CNP");
    default:
      return {};
  }
}

qint64 CnpMatchModel::frameAt(int row) const {
  if (!analysis_ || row < 0 || row >= rowCount()) return -1;
  return static_cast<qint64>(analysis_->report.cnps[static_cast<std::size_t>(row)].frame);
}

// ---- PauseTimeline --------------------------------------------------------------------------

PauseTimeline::PauseTimeline(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("pauseTimeline"));
  setMinimumHeight(fontMetrics().height() * 4);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void PauseTimeline::setAnalysis(std::shared_ptr<const CaptureAnalysis> analysis) {
  analysis_ = std::move(analysis);
  updateGeometry();
  update();
}

QSize PauseTimeline::sizeHint() const {
  const int rows = analysis_ ? static_cast<int>(analysis_->report.pauses.size()) : 0;
  return {400, fontMetrics().height() * (std::clamp(rows, 1, 8) + 3)};
}

int PauseTimeline::rowOf(const std::string& port, int priority) const {
  const auto& ps = analysis_->report.pauses;
  for (std::size_t i = 0; i < ps.size(); ++i)
    if (ps[i].port == port && ps[i].priority == priority) return static_cast<int>(i);
  return -1;
}

PauseTimeline::Layout PauseTimeline::layout() const {
  Layout l;
  const QFontMetrics fm = fontMetrics();
  const int label = fm.horizontalAdvance(QStringLiteral("00:00:00:00:00:00 P7 ")) + 8;
  l.plot = rect().adjusted(label, 4, -8, -fm.height() - 6);
  const int rows =
      analysis_ ? std::max<int>(1, static_cast<int>(analysis_->report.pauses.size())) : 1;
  // Rows of at most three text lines: a single paused priority is a band, not the whole pane.
  l.rowHeight = std::clamp(l.plot.height() / rows, 4, fm.height() * 3);
  l.plot.setHeight(l.rowHeight * rows);
  if (analysis_) {
    const auto& cs = analysis_->report.connections;
    bool any = false;
    auto widen = [&](double a, double b) {
      if (!any) {
        l.t0 = a;
        l.t1 = b;
        any = true;
      }
      l.t0 = std::min(l.t0, a);
      l.t1 = std::max(l.t1, b);
    };
    for (const auto& c : cs)
      widen(c.firstTime, c.lastTime);
    for (const auto& iv : analysis_->report.pauseIntervals)
      widen(iv.start, iv.end);
    if (l.t1 <= l.t0) l.t1 = l.t0 + 1e-6;
  }
  return l;
}

void PauseTimeline::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  const QFontMetrics fm = fontMetrics();
  if (!analysis_ || analysis_->report.pauses.empty()) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect(), Qt::AlignCenter,
               tr("No PFC or PAUSE frames in this capture: no priority was paused"));
    return;
  }
  const Layout l = layout();
  const auto& ps = analysis_->report.pauses;
  auto x = [&](double t) {
    return l.plot.left() + static_cast<int>((t - l.t0) / (l.t1 - l.t0) * l.plot.width());
  };
  for (std::size_t i = 0; i < ps.size(); ++i) {
    const int y = l.plot.top() + static_cast<int>(i) * l.rowHeight;
    if (i % 2)
      p.fillRect(QRect(l.plot.left(), y, l.plot.width(), l.rowHeight), palette().alternateBase());
    p.setPen(palette().color(QPalette::Text));
    const QString label = QStringLiteral("%1 P%2").arg(
        QString::fromStdString(ps[i].port),
        ps[i].priority < 0 ? QStringLiteral("*") : QString::number(ps[i].priority));
    p.drawText(QRect(2, y, l.plot.left() - 6, l.rowHeight), Qt::AlignRight | Qt::AlignVCenter,
               label);
  }
  for (const auto& iv : analysis_->report.pauseIntervals) {
    const int row = rowOf(iv.port, iv.priority);
    if (row < 0) continue;
    const int y = l.plot.top() + row * l.rowHeight + 2;
    const int x0 = x(iv.start);
    const int w = std::max(2, x(iv.end) - x0);
    p.fillRect(QRect(x0, y, w, std::max(2, l.rowHeight - 4)), priorityColour(iv.priority));
  }
  // The time axis, relative to the capture's first frame.
  p.setPen(palette().color(QPalette::Mid));
  p.drawLine(l.plot.left(), l.plot.bottom() + 1, l.plot.right(), l.plot.bottom() + 1);
  p.setPen(palette().color(QPalette::Text));
  for (int k = 0; k <= 4; ++k) {
    const double t = l.t0 + (l.t1 - l.t0) * k / 4;
    const int tx = x(t);
    p.drawLine(tx, l.plot.bottom() + 1, tx, l.plot.bottom() + 4);
    const QString text = durationText(t);
    const int tw = fm.horizontalAdvance(text);
    const int left = std::clamp(tx - tw / 2, 0, width() - tw);
    p.drawText(left, l.plot.bottom() + 4 + fm.ascent(), text);
  }
}

qint64 PauseTimeline::frameAt(QPoint pt) const {
  if (!analysis_) return -1;
  const Layout l = layout();
  if (!l.plot.contains(pt)) return -1;
  const int row = (pt.y() - l.plot.top()) / l.rowHeight;
  const double t = l.t0 + (pt.x() - l.plot.left()) * (l.t1 - l.t0) / l.plot.width();
  const double slack = 3 * (l.t1 - l.t0) / std::max(1, l.plot.width());
  const auto& ps = analysis_->report.pauses;
  if (row < 0 || row >= static_cast<int>(ps.size())) return -1;
  const auto& key = ps[static_cast<std::size_t>(row)];
  for (const auto& iv : analysis_->report.pauseIntervals)
    if (iv.port == key.port && iv.priority == key.priority && t >= iv.start - slack &&
        t <= iv.end + slack)
      return static_cast<qint64>(iv.startFrame);
  return -1;
}

void PauseTimeline::mousePressEvent(QMouseEvent* e) {
  const qint64 frame = frameAt(e->position().toPoint());
  if (frame >= 0) Q_EMIT frameClicked(frame);
}

// ---- CongestionView -------------------------------------------------------------------------

CongestionView::CongestionView(QWidget* parent)
    : QWidget(parent),
      summary_(new QLabel(this)),
      timeline_(new PauseTimeline(this)),
      pauses_(new PauseStatsModel(this)),
      cnps_(new CnpMatchModel(this)) {
  setObjectName(QStringLiteral("congestionPage"));
  summary_->setObjectName(QStringLiteral("congestionSummary"));
  summary_->setWordWrap(true);
  summary_->setContentsMargins(6, 3, 6, 3);
  pauseView_ = makeTable(this, QStringLiteral("pauseStats"), pauses_);
  cnpView_ = makeTable(this, QStringLiteral("cnpMatches"), cnps_);
  const int cw = fontMetrics().horizontalAdvance(QLatin1Char('0'));
  const int pw[] = {19, 10, 8, 7, 7, 10, 10, 7};
  for (int c = 0; c < PauseStatsModel::ColumnCount; ++c)
    pauseView_->setColumnWidth(c, cw * pw[c]);
  const int mw[] = {9, 11, 26, 10, 8, 14, 10};
  for (int c = 0; c < CnpMatchModel::ColumnCount; ++c)
    cnpView_->setColumnWidth(c, cw * mw[c]);
  auto* tables = new QHBoxLayout;
  tables->setContentsMargins(0, 0, 0, 0);
  tables->addWidget(pauseView_, 1);
  tables->addWidget(cnpView_, 1);
  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(0, 0, 0, 0);
  l->setSpacing(2);
  l->addWidget(summary_);
  l->addWidget(timeline_, 0);
  l->addLayout(tables, 1);
  connect(timeline_, &PauseTimeline::frameClicked, this, &CongestionView::frameActivated);
  auto go = [this](auto* model) {
    return [this, model](const QModelIndex& idx) {
      const qint64 frame = model->frameAt(idx.row());
      if (frame >= 0) Q_EMIT frameActivated(frame);
    };
  };
  connect(pauseView_, &QTableView::activated, this, go(pauses_));
  connect(pauseView_, &QTableView::clicked, this, go(pauses_));
  connect(cnpView_, &QTableView::activated, this, go(cnps_));
  connect(cnpView_, &QTableView::clicked, this, go(cnps_));
  setAnalysis(nullptr);
}

QString CongestionView::summaryText() const {
  return summary_->text();
}

void CongestionView::setAnalysis(std::shared_ptr<const CaptureAnalysis> analysis) {
  timeline_->setAnalysis(analysis);
  pauses_->setAnalysis(analysis);
  cnps_->setAnalysis(analysis);
  if (!analysis) {
    summary_->setText(tr("Open a capture to see its PFC pauses, ECN marks and CNPs."));
    return;
  }
  const auto& s = analysis->report.summary;
  double paused = 0.0;
  for (const auto& p : analysis->report.pauses)
    paused += p.pausedSeconds;
  summary_->setText(
      tr("%1 pause frames from %2 port/priority pairs, %3 paused in total; %4 pause storms, "
         "%5 victim flows. %6 ECN marks, %7 CNPs (%8 with no marked packet before them); %9 "
         "marked packets no CNP followed.")
          .arg(s.pauseFrames)
          .arg(analysis->report.pauses.size())
          .arg(durationText(paused))
          .arg(s.pauseStorms)
          .arg(s.victimFlows)
          .arg(s.ecnMarks)
          .arg(s.cnps)
          .arg(s.cnpsWithoutMark)
          .arg(s.marksWithoutCnp));
}

}  // namespace rdmascope::ui
