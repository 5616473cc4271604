#include "rdmascope/ui/analysis_plot.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "rdmascope/ui/analysis_models.h"

namespace rdmascope::ui {

namespace {

const QColor kDirColor[2] = {QColor(0x1f, 0x4e, 0x9a), QColor(0x2e, 0x8b, 0x57)};
const QColor kLatency(0xe0, 0x6c, 0x00);
constexpr double kMarkerStrip = 22.0;

// 1, 2 or 5 times a power of ten, at least `raw`.
double niceStep(double raw) {
  if (raw <= 0) return 1;
  const double e = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * e >= raw) return m * e;
  return 10 * e;
}

}  // namespace

ThroughputSeries throughputSeries(const CaptureAnalysis& analysis, std::size_t row) {
  ThroughputSeries out;
  const auto& c = analysis.report.connections[row];
  out.start = c.firstTime;
  if (c.carrier == analysis::Carrier::Iwarp || row >= analysis.frames.size()) {
    for (int d = 0; d < 2; ++d) {
      const auto& dir = c.dir[d];
      if (dir.seriesWidth > 0) out.binWidth = dir.seriesWidth;
      for (const auto& b : dir.series) {
        const auto bin = static_cast<std::size_t>(
            std::max(0.0, (b.start - out.start)) / std::max(dir.seriesWidth, 1e-12) + 0.5);
        auto& v = out.bytes[static_cast<std::size_t>(d)];
        if (v.size() <= bin) v.resize(bin + 1);
        v[bin] += b.bytes;
      }
    }
    const std::size_t n = std::max(out.bytes[0].size(), out.bytes[1].size());
    out.bytes[0].resize(n);
    out.bytes[1].resize(n);
    return out;
  }
  const auto& frames = analysis.frames[row];
  std::size_t data = 0;
  for (const ConnectionFrame& f : frames)
    data += f.payload > 0;
  const double span = std::max(c.lastTime - c.firstTime, 1e-9);
  const double bins = std::clamp(std::round(std::sqrt(static_cast<double>(data))), 1.0, 200.0);
  out.binWidth = niceStep(span / bins);
  const auto n = static_cast<std::size_t>(std::ceil(span / out.binWidth * (1 - 1e-9)));
  out.bytes[0].assign(std::max<std::size_t>(n, 1), 0);
  out.bytes[1].assign(std::max<std::size_t>(n, 1), 0);
  for (const ConnectionFrame& f : frames) {
    if (!f.payload) continue;
    const double t = std::max(0.0, static_cast<double>(f.time) - out.start);
    const auto bin = std::min(static_cast<std::size_t>(t / out.binWidth), out.bytes[0].size() - 1);
    out.bytes[f.fromB ? 1 : 0][bin] += f.payload;
  }
  return out;
}

AnalysisPlot::AnalysisPlot(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("analysisPlot"));
  setMouseTracking(true);
}

void AnalysisPlot::setAnalysis(std::shared_ptr<const CaptureAnalysis> analysis) {
  analysis_ = std::move(analysis);
  const int keep = connection_;
  connection_ = -2;
  setConnection(analysis_ && analysis_->rowOfConnection(keep) >= 0 ? keep : -1);
}

void AnalysisPlot::setConnection(int id) {
  if (id == connection_) return;
  connection_ = id;
  row_ = analysis_ ? analysis_->rowOfConnection(id) : -1;
  markers_.clear();
  latencies_.clear();
  throughput_ = {};
  if (row_ >= 0) {
    const auto& c = analysis_->report.connections[static_cast<std::size_t>(row_)];
    t0_ = c.firstTime;
    t1_ = std::max(c.lastTime, c.firstTime + 1e-9);
    markers_ = analysis_->anomaliesOf(id);
    throughput_ = throughputSeries(*analysis_, static_cast<std::size_t>(row_));
    t1_ = std::max(t1_,
                   t0_ + throughput_.binWidth * static_cast<double>(throughput_.bytes[0].size()));
    for (const auto& m : analysis_->report.messages)
      if (m.connection == id && m.outcome != analysis::Outcome::Incomplete && m.end >= m.start)
        latencies_.emplace_back(m.end, m.latency());
  }
  update();
}

AnalysisPlot::Layout AnalysisPlot::layout() const {
  const double left = fontMetrics().horizontalAdvance(QStringLiteral("000.0 MB/s")) + 14;
  const double right = 16;
  const double top = fontMetrics().height() * 2.2;
  const double axis = fontMetrics().height() * 1.6;
  const double h = height() - top - axis - kMarkerStrip - fontMetrics().height() - 10;
  const double w = std::max(10.0, width() - left - right);
  const double gap = fontMetrics().height() * 1.4;
  const double each = std::max(20.0, (h - gap) / 2);
  Layout l;
  l.throughput = QRectF(left, top, w, each);
  l.latency = QRectF(left, top + each + gap, w, each);
  l.markers = QRectF(left, l.latency.bottom() + axis, w, kMarkerStrip);
  return l;
}

double AnalysisPlot::xOf(double time, const QRectF& area) const {
  return area.left() + (time - t0_) / (t1_ - t0_) * area.width();
}

QPoint AnalysisPlot::markerPoint(int marker) const {
  if (marker < 0 || marker >= markerCount()) return {};
  const Layout l = layout();
  const auto& a = analysis_->report.anomalies[markers_[static_cast<std::size_t>(marker)]];
  return QPointF(xOf(a.time, l.markers), l.markers.center().y()).toPoint();
}

int AnalysisPlot::markerAt(const QPoint& pos) const {
  int best = -1;
  double bestDist = 8.0;
  for (int i = 0; i < markerCount(); ++i) {
    const QPoint c = markerPoint(i);
    const double d = std::hypot(c.x() - pos.x(), c.y() - pos.y());
    if (d <= bestDist) {
      best = i;
      bestDist = d;
    }
  }
  return best;
}

qint64 AnalysisPlot::markerFrame(int marker) const {
  if (marker < 0 || marker >= markerCount()) return -1;
  const auto f = analysis_->report.anomalies[markers_[static_cast<std::size_t>(marker)]].frame;
  return f > 0 ? static_cast<qint64>(f - 1) : -1;
}

void AnalysisPlot::mousePressEvent(QMouseEvent* event) {
  const int m = markerAt(event->position().toPoint());
  if (m >= 0) Q_EMIT frameClicked(markerFrame(m));
}

void AnalysisPlot::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  p.fillRect(rect(), palette().color(QPalette::Base));
  if (row_ < 0) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(
        rect(), Qt::AlignCenter,
        analysis_ ? tr("Select a connection in Conversations to plot it") : tr("No analysis yet"));
    return;
  }
  const auto& c = analysis_->report.connections[static_cast<std::size_t>(row_)];
  const Layout l = layout();
  const QColor text = palette().color(QPalette::Text);
  const QColor dim = palette().color(QPalette::PlaceholderText);
  QFont bold = font();
  bold.setBold(true);
  const int lh = fontMetrics().height();

  // Title with the legend of the lines.
  p.setFont(bold);
  p.setPen(text);
  p.drawText(
      QRectF(8, 2, width() - 16, lh), Qt::AlignLeft | Qt::AlignVCenter,
      tr("Connection #%1: %2 \u2194 %3").arg(c.id + 1).arg(endpointText(c.a), endpointText(c.b)));
  p.setFont(font());

  // Time axis ticks, shared by both panels.
  const double span = t1_ - t0_;
  const double step = niceStep(span / std::max(2.0, l.latency.width() / 90));
  auto grid = [&](const QRectF& area, bool labels) {
    p.setPen(QPen(palette().color(QPalette::Midlight), 1));
    for (double t = 0; t <= span * 1.0001; t += step) {
      const double x = xOf(t0_ + t, area);
      p.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
      if (labels) {
        p.setPen(dim);
        QRectF box(x - 50, area.bottom() + 2, 100, lh);
        if (box.right() > width() - 2) box.moveRight(width() - 2);
        p.drawText(box, Qt::AlignHCenter | Qt::AlignTop,
                   t == 0 ? QStringLiteral("0") : durationText(t));
        p.setPen(QPen(palette().color(QPalette::Midlight), 1));
      }
    }
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    p.setBrush(Qt::NoBrush);
    p.drawRect(area);
  };
  auto yLabels = [&](const QRectF& area, double max, auto format) {
    p.setPen(dim);
    for (int i = 0; i <= 4; ++i) {
      const double v = max * i / 4;
      const double y = area.bottom() - area.height() * i / 4;
      p.drawText(QRectF(0, y - lh / 2.0, area.left() - 6, lh), Qt::AlignRight | Qt::AlignVCenter,
                 format(v));
    }
  };

  // Throughput: payload bytes per second of each bin, per direction the data travels, as steps.
  double maxRate = 0;
  for (int d = 0; d < 2; ++d)
    for (std::size_t b = 0; b < throughput_.bytes[static_cast<std::size_t>(d)].size(); ++b)
      maxRate = std::max(maxRate, throughput_.rate(d, b));
  maxRate = maxRate > 0 ? niceStep(maxRate * 1.1 / 4) * 4 : 1;  // headroom over the peak
  grid(l.throughput, false);
  yLabels(l.throughput, maxRate, [](double v) { return byteRateText(v); });
  p.setPen(text);
  p.drawText(QRectF(l.throughput.left(), l.throughput.top() - lh - 2, l.throughput.width(), lh),
             Qt::AlignLeft | Qt::AlignBottom,
             tr("Throughput: payload bytes sent per %1").arg(durationText(throughput_.binWidth)));
  p.save();
  p.setClipRect(l.throughput.adjusted(0, -2, 0, 2));
  for (int d = 0; d < 2; ++d) {
    const auto& bins = throughput_.bytes[static_cast<std::size_t>(d)];
    if (std::all_of(bins.begin(), bins.end(), [](std::uint64_t b) { return b == 0; })) continue;
    QPainterPath path;
    bool started = false;
    for (std::size_t b = 0; b < bins.size(); ++b) {
      const double rate = throughput_.rate(d, b);
      const double y = l.throughput.bottom() - rate / maxRate * l.throughput.height();
      const double start = throughput_.start + throughput_.binWidth * static_cast<double>(b);
      const double xs = xOf(start, l.throughput),
                   xe = xOf(start + throughput_.binWidth, l.throughput);
      if (!started) {
        path.moveTo(xs, l.throughput.bottom());
        started = true;
      }
      path.lineTo(xs, y);
      path.lineTo(xe, y);
    }
    p.setPen(QPen(kDirColor[d], 1.8));
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
  }
  p.restore();
  // Legend of the directions, at the right of the panel title.
  {
    double x = l.throughput.right();
    for (int d = 1; d >= 0; --d) {
      const QString name = d == 0 ? tr("sent by A") : tr("sent by B");
      const double w = fontMetrics().horizontalAdvance(name) + 26;
      x -= w;
      p.setPen(QPen(kDirColor[d], 3));
      p.drawLine(QPointF(x, l.throughput.top() - lh / 2.0 - 2),
                 QPointF(x + 16, l.throughput.top() - lh / 2.0 - 2));
      p.setPen(text);
      p.drawText(QRectF(x + 20, l.throughput.top() - lh - 2, w, lh),
                 Qt::AlignLeft | Qt::AlignBottom, name);
    }
  }

  // Latency: one dot per message, the bucket means as a line.
  double maxLat = 0;
  for (const auto& [t, v] : latencies_)
    maxLat = std::max(maxLat, v);
  for (const auto& d : c.dir)
    for (const auto& b : d.series)
      maxLat = std::max(maxLat, b.latencyMax);
  maxLat = maxLat > 0 ? niceStep(maxLat * 1.1 / 4) * 4 : 1e-6;
  grid(l.latency, true);
  yLabels(l.latency, maxLat, [](double v) { return durationText(v); });
  p.setPen(text);
  p.drawText(QRectF(l.latency.left(), l.latency.top() - lh - 2, l.latency.width(), lh),
             Qt::AlignLeft | Qt::AlignBottom,
             analysis_->report.messagesDropped
                 ? tr("Latency: request to ACK/response (dots: the first %1 messages of the "
                      "capture, bars: mean per interval of all)")
                       .arg(analysis_->report.messages.size())
                 : tr("Latency: request to ACK/response (dots: messages when they completed, "
                      "bars: mean per interval)"));
  p.save();
  p.setClipRect(l.latency.adjusted(-4, -4, 4, 4));
  p.setPen(Qt::NoPen);
  p.setBrush(kLatency);
  for (const auto& [t, v] : latencies_)
    p.drawEllipse(QPointF(xOf(t, l.latency), l.latency.bottom() - v / maxLat * l.latency.height()),
                  2.6, 2.6);
  // The mean of each bucket as a bar across the bucket (no line across silent stretches).
  p.setPen(QPen(kLatency.darker(140), 2));
  for (const auto& dir : c.dir)
    for (const auto& b : dir.series)
      if (b.latencyCount) {
        const double y = l.latency.bottom() - b.latencySum / static_cast<double>(b.latencyCount) /
                                                  maxLat * l.latency.height();
        p.drawLine(QPointF(xOf(b.start, l.latency), y),
                   QPointF(std::max(xOf(b.start + dir.seriesWidth, l.latency),
                                    xOf(b.start, l.latency) + 3),
                           y));
      }
  p.restore();

  // Anomaly markers on the time axis: a triangle per anomaly in its kind's colour.
  p.setPen(dim);
  p.drawText(QRectF(0, l.markers.top(), l.markers.left() - 6, l.markers.height()),
             Qt::AlignRight | Qt::AlignVCenter, tr("Anomalies"));
  p.setPen(QPen(palette().color(QPalette::Mid), 1));
  p.drawLine(QPointF(l.markers.left(), l.markers.center().y()),
             QPointF(l.markers.right(), l.markers.center().y()));
  // A capture may hold tens of thousands: a marker is drawn once per kind and pixel column,
  // and the faint lines through the panels above only where markers are sparse (at most one
  // column in eight), where they still point at something.
  constexpr int kKinds = static_cast<int>(analysis::AnomalyKind::CnpWithoutMark) + 1;
  const int columns = std::max(1, static_cast<int>(std::ceil(l.markers.width())) + 1);
  std::vector<std::uint32_t> drawn(static_cast<std::size_t>(columns), 0);  // bit per kind
  std::vector<bool> guide(static_cast<std::size_t>(columns), false);
  std::vector<AnomalyStyle> styles;
  styles.reserve(kKinds);
  for (int k = 0; k < kKinds; ++k)
    styles.push_back(anomalyStyle(static_cast<analysis::AnomalyKind>(k)));
  std::uint32_t present = 0;
  std::size_t guides = 0;
  for (int i = 0; i < markerCount(); ++i) {
    const auto& a = analysis_->report.anomalies[markers_[static_cast<std::size_t>(i)]];
    const QPointF m = markerPoint(i);
    const auto kind = static_cast<int>(a.kind);
    present |= 1u << kind;
    const auto col = static_cast<std::size_t>(
        std::clamp(static_cast<int>(m.x() - l.markers.left()), 0, columns - 1));
    if (drawn[col] & (1u << kind)) continue;
    drawn[col] |= 1u << kind;
    const AnomalyStyle& s = styles[static_cast<std::size_t>(kind)];
    p.setPen(QPen(s.color.darker(130), 1));
    p.setBrush(s.color);
    p.drawPolygon(QPolygonF{m + QPointF(0, -7), m + QPointF(6, 5), m + QPointF(-6, 5)});
    if (!guide[col]) {
      guide[col] = true;
      ++guides;
    }
  }
  if (guides > 0 && guides * 8 <= static_cast<std::size_t>(columns)) {
    // The same moments in the panels above, faintly, inside the panels (not over their titles).
    for (int col = 0; col < columns; ++col) {
      if (!guide[static_cast<std::size_t>(col)]) continue;
      int kind = 0;
      while (!(drawn[static_cast<std::size_t>(col)] & (1u << kind)))
        ++kind;
      QColor faint = styles[static_cast<std::size_t>(kind)].color;
      faint.setAlpha(70);
      p.setPen(QPen(faint, 1, Qt::DashLine));
      const double x = l.markers.left() + col + 0.5;
      p.drawLine(QPointF(x, l.throughput.top()), QPointF(x, l.throughput.bottom()));
      p.drawLine(QPointF(x, l.latency.top()), QPointF(x, l.latency.bottom()));
    }
  }
  if (markers_.empty()) {
    p.setPen(dim);
    p.drawText(l.markers, Qt::AlignCenter, tr("none"));
  }
  // Legend of the marker kinds present.
  double x = l.markers.left();
  const double yl = l.markers.bottom() + 3;
  for (auto kind : legendKinds()) {
    // A legend entry stands for every kind drawn in its style (its name).
    const AnomalyStyle s = anomalyStyle(kind);
    bool shown = false;
    for (int k = 0; k < kKinds; ++k)
      shown =
          shown || ((present & (1u << k)) && styles[static_cast<std::size_t>(k)].name == s.name);
    if (!shown) continue;
    const QPointF m(x + 6, yl + lh / 2.0);
    p.setPen(QPen(s.color.darker(130), 1));
    p.setBrush(s.color);
    p.drawPolygon(QPolygonF{m + QPointF(0, -6), m + QPointF(5, 4), m + QPointF(-5, 4)});
    p.setPen(text);
    const double tw = fontMetrics().horizontalAdvance(s.name);
    p.drawText(QRectF(x + 14, yl, tw + 4, lh), Qt::AlignLeft | Qt::AlignVCenter, s.name);
    x += tw + 30;
  }
}

}  // namespace rdmascope::ui
