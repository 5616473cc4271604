#include "rdmascope/ui/congestion_plots.h"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

namespace rdmascope::ui {

namespace {

// A round axis maximum (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten) at or
// above `v`.
double niceCeil(double v) {
  if (v <= 0) return 1;
  const double e = std::pow(10.0, std::floor(std::log10(v)));
  for (double m : {1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0})
    if (m * e >= v * 0.999) return m * e;
  return 10 * e;
}

QString number(double v) {
  return QString::number(v, 'g', 4);
}

void drawTimeAxis(QPainter& p, const QRect& plot, double duration, const QFontMetrics& fm,
                  const QColor& text) {
  double step = niceCeil(duration / 6);
  const double e = std::pow(10.0, std::floor(std::log10(step)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * e >= step * 0.999) {
      step = m * e;
      break;
    }
  p.setPen(text);
  for (double t = 0; t <= duration + 1e-9; t += step) {
    const int x = plot.left() + static_cast<int>(t / duration * plot.width());
    p.drawLine(x, plot.bottom(), x, plot.bottom() + 3);
    const QString s = number(t);
    p.drawText(QPoint(x - fm.horizontalAdvance(s) / 2, plot.bottom() + 3 + fm.ascent()), s);
  }
}

void drawCursor(QPainter& p, const QRect& plot, double cursor, double duration) {
  const int x =
      plot.left() + static_cast<int>(std::clamp(cursor / duration, 0.0, 1.0) * plot.width());
  p.setPen(QPen(QColor(0x21, 0x21, 0x21), 1.5));
  p.drawLine(x, plot.top(), x, plot.bottom());
}

}  // namespace

TimeSeriesPlot::TimeSeriesPlot(const QString& title, const QString& unit, QWidget* parent)
    : QWidget(parent), title_(title), unit_(unit) {
  setAutoFillBackground(true);
  setBackgroundRole(QPalette::Base);
}

void TimeSeriesPlot::setData(std::vector<double> timesUs, std::vector<Line> lines,
                             std::vector<Threshold> thresholds, double durationUs) {
  times_ = std::move(timesUs);
  lines_ = std::move(lines);
  thresholds_ = std::move(thresholds);
  duration_ = durationUs > 0 ? durationUs : 1;
  update();
}

void TimeSeriesPlot::setCursor(double us) {
  cursor_ = us;
  update();
}

void TimeSeriesPlot::setCeiling(double top) {
  ceiling_ = top;
  update();
}

void TimeSeriesPlot::setTitle(const QString& title) {
  title_ = title;
  update();
}

void TimeSeriesPlot::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const QFontMetrics fm(font());
  const QColor text = palette().color(QPalette::Text);
  double top = 0;
  for (const auto& l : lines_)
    for (double v : l.values)
      top = std::max(top, v);
  for (const auto& t : thresholds_)
    top = std::max(top, t.value);
  top = ceiling_ > 0 ? niceCeil(ceiling_) : niceCeil(top * 1.05);
  const int left = fm.horizontalAdvance(QStringLiteral("00000")) + 8;
  // legend rows: as many as the names need at this width
  int legendRows = 1, x = left;
  for (const auto& l : lines_) {
    const int w = fm.horizontalAdvance(l.name) + 22;
    if (x + w > width() - 4) {
      ++legendRows;
      x = left;
    }
    x += w;
  }
  const int titleH = fm.height() + 2;
  const int right = fm.horizontalAdvance(QStringLiteral("00000")) / 2 + 4;
  const QRect plot(left, titleH + legendRows * fm.height() + 4, width() - left - right,
                   height() - titleH - legendRows * fm.height() - 4 - fm.height() - 6);
  p.setPen(text);
  QFont bold = font();
  bold.setBold(true);
  p.setFont(bold);
  p.drawText(QPoint(4, fm.ascent() + 1), title_);
  p.setFont(font());
  const QFontMetrics bfm(bold);
  if (bfm.horizontalAdvance(title_) + fm.horizontalAdvance(tr("time (us)")) + 16 < width())
    p.drawText(QPoint(width() - fm.horizontalAdvance(tr("time (us)")) - 6, fm.ascent() + 1),
               tr("time (us)"));
  x = left;
  int y = titleH;
  for (const auto& l : lines_) {
    const int w = fm.horizontalAdvance(l.name) + 22;
    if (x + w > width() - 4) {
      x = left;
      y += fm.height();
    }
    p.setPen(QPen(l.colour, 2, l.dashed ? Qt::DashLine : Qt::SolidLine));
    p.drawLine(x, y + fm.height() / 2, x + 14, y + fm.height() / 2);
    p.setPen(text);
    p.drawText(QPoint(x + 17, y + fm.ascent()), l.name);
    x += w;
  }
  if (plot.height() < 10 || plot.width() < 10) return;
  p.setPen(palette().color(QPalette::Mid));
  p.drawRect(plot);
  for (double v : {top / 2, top}) {
    const int yy = plot.bottom() - static_cast<int>(v / top * plot.height());
    p.setPen(text);
    const QString s = number(v);
    p.drawText(QPoint(left - fm.horizontalAdvance(s) - 4, yy + fm.ascent() / 2), s);
  }
  p.drawText(QPoint(left - fm.horizontalAdvance(unit_) - 4, plot.bottom()), unit_);
  drawTimeAxis(p, plot, duration_, fm, text);
  auto px = [&](double t) { return plot.left() + t / duration_ * plot.width(); };
  auto py = [&](double v) { return plot.bottom() - v / top * plot.height(); };
  p.save();
  p.setClipRect(plot.adjusted(0, -2, 0, 0));
  for (const auto& t : thresholds_) {
    p.setPen(QPen(t.colour, 1.2, Qt::DashDotLine));
    p.drawLine(QPointF(plot.left(), py(t.value)), QPointF(plot.right(), py(t.value)));
    p.drawText(QPointF(plot.right() - fm.horizontalAdvance(t.name) - 4, py(t.value) - 2), t.name);
  }
  for (const auto& l : lines_) {
    QPainterPath path;
    // each sample holds its period: a step from the previous sample time to this one
    double prev = 0;
    for (std::size_t i = 0; i < l.values.size() && i < times_.size(); ++i) {
      const double vy = py(l.values[i]);
      if (i == 0)
        path.moveTo(px(prev), vy);
      else
        path.lineTo(px(prev), vy);
      path.lineTo(px(times_[i]), vy);
      prev = times_[i];
    }
    p.setPen(QPen(l.colour, l.dashed ? 1.2 : 1.6, l.dashed ? Qt::DashLine : Qt::SolidLine));
    p.drawPath(path);
  }
  p.restore();
  drawCursor(p, plot, cursor_, duration_);
}

PauseRowsPlot::PauseRowsPlot(QWidget* parent) : QWidget(parent) {
  setAutoFillBackground(true);
  setBackgroundRole(QPalette::Base);
}

void PauseRowsPlot::setRows(std::vector<Row> rows, double durationUs) {
  rows_ = std::move(rows);
  duration_ = durationUs > 0 ? durationUs : 1;
  update();
}

void PauseRowsPlot::setCursor(double us) {
  cursor_ = us;
  update();
}

void PauseRowsPlot::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const QFontMetrics fm(font());
  const QColor text = palette().color(QPalette::Text);
  QFont bold = font();
  bold.setBold(true);
  p.setFont(bold);
  p.setPen(text);
  p.drawText(QPoint(4, fm.ascent() + 1), tr("PFC pauses (the paused sender, priority)"));
  p.setFont(font());
  int labelW = fm.horizontalAdvance(QStringLiteral("sp0:1 P3"));
  for (const auto& r : rows_)
    labelW = std::max(labelW, fm.horizontalAdvance(r.label));
  const QRect plot(labelW + 10, fm.height() + 4,
                   width() - labelW - 14 - fm.horizontalAdvance(QStringLiteral("00000")) / 2,
                   height() - 2 * fm.height() - 10);
  if (plot.height() < 4 || plot.width() < 10) return;
  if (rows_.empty()) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(plot, Qt::AlignCenter, tr("No port was paused."));
  }
  const double rowH =
      rows_.empty() ? 0
                    : std::min<double>(fm.height() + 2, static_cast<double>(plot.height()) /
                                                            static_cast<double>(rows_.size()));
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    const double y = plot.top() + static_cast<double>(i) * rowH;
    if (rowH >= fm.height() * 0.8 ||
        i % static_cast<std::size_t>(std::ceil(fm.height() / std::max(1.0, rowH))) == 0) {
      p.setPen(text);
      p.drawText(QRectF(2, y, labelW + 4, std::max(rowH, static_cast<double>(fm.height()))),
                 Qt::AlignLeft | Qt::AlignVCenter, rows_[i].label);
    }
    for (const auto& [a, b] : rows_[i].bars) {
      const double x0 = plot.left() + a / duration_ * plot.width();
      const double x1 = plot.left() + b / duration_ * plot.width();
      p.fillRect(QRectF(x0, y + 1, std::max(1.0, x1 - x0), std::max(1.0, rowH - 2)),
                 QColor(0xe5, 0x39, 0x35));
    }
  }
  p.setPen(palette().color(QPalette::Mid));
  p.drawRect(plot);
  drawTimeAxis(p, plot, duration_, fm, text);
  drawCursor(p, plot, cursor_, duration_);
}

}  // namespace rdmascope::ui
