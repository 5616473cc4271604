#include "rdmascope/ui/ladder_view.h"

#include <QFontMetricsF>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <cmath>

#include "rdmascope/ui/layer_stacks_view.h"
#include "rdmascope/ui/psn_base.h"

namespace rdmascope::ui {

namespace {
constexpr double kHeader = 34.0;
}

LadderView::LadderView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("ladder"));
  setMouseTracking(true);
  connect(&PsnBase::instance(), &PsnBase::changed, this, qOverload<>(&QWidget::update));
}

QSize LadderView::sizeHint() const {
  return {380, 420};
}

void LadderView::setHostNames(const QString& a, const QString& b) {
  setHostNames(QStringList{a, b});
}

void LadderView::setHostNames(const QStringList& names) {
  names_ = names;
  while (names_.size() < 2)
    names_ << QString();
  update();
}

double LadderView::laneX(int lane) const {
  const int n = static_cast<int>(names_.size());
  lane = std::clamp(lane, 0, n - 1);
  return width() * (0.14 + 0.72 * lane / (n - 1));
}

void LadderView::setFrames(std::vector<LadderFrame> frames) {
  frames_ = std::move(frames);
  layoutRows();
  visible_ = std::min<int>(visible_, static_cast<int>(frames_.size()));
  current_ = -1;
  scroll_ = 0;
  update();
}

void LadderView::appendFrames(const std::vector<LadderFrame>& frames) {
  const bool all = visible_ == static_cast<int>(frames_.size());
  frames_.insert(frames_.end(), frames.begin(), frames.end());
  layoutRows();
  if (all) setVisibleCount(static_cast<int>(frames_.size()));
}

void LadderView::setVisibleCount(int visible) {
  visible_ = std::clamp(visible, 0, static_cast<int>(frames_.size()));
  // Follow the newest frame, as a terminal follows output.
  const double bottom = rowTop(visible_);
  if (bottom - scroll_ > height()) scroll_ = bottom - height();
  clampScroll();
  update();
}

void LadderView::setCurrentFrame(int frame) {
  current_ = frame;
  if (frame >= 0 && frame < static_cast<int>(frames_.size())) {
    const double top = rowTop(frame), bottom = rowTop(frame + 1);
    if (top - scroll_ < kHeader + rowHeight() * 0.5) scroll_ = top - kHeader - rowHeight() * 0.5;
    if (bottom - scroll_ > height() - rowHeight() * 0.5)
      scroll_ = bottom - height() + rowHeight() * 0.5;
    clampScroll();
  }
  update();
}

double LadderView::rowHeight() const {
  return fontMetrics().height() * 2.2;
}

void LadderView::layoutRows() {
  const double fh = fontMetrics().height();
  tops_.assign(frames_.size() + 1, kHeader + fh * 0.3);
  for (std::size_t i = 0; i < frames_.size(); ++i)
    tops_[i + 1] = tops_[i] + (frames_[i].secondLine.isEmpty() ? 2.2 : 3.3) * fh;
}

double LadderView::rowTop(int frame) const {
  if (tops_.size() != frames_.size() + 1) const_cast<LadderView*>(this)->layoutRows();
  if (frame < 0) return tops_.front();
  if (frame >= static_cast<int>(frames_.size())) return tops_.back();
  return tops_[static_cast<std::size_t>(frame)];
}

double LadderView::rowSpan(int frame) const {
  return rowTop(frame + 1) - rowTop(frame);
}

double LadderView::yOf(int frame) const {
  return rowTop(frame) + rowSpan(frame) / 2;
}

void LadderView::clampScroll() {
  const double content = rowTop(visible_) + rowHeight() * 0.5;
  scroll_ = std::clamp(scroll_, 0.0, std::max(0.0, content - height()));
}

int LadderView::frameAt(const QPoint& pos) const {
  if (pos.y() <= kHeader) return -1;
  for (int i = 0; i < visible_; ++i) {
    const double top = rowTop(i) - scroll_;
    if (pos.y() >= top && pos.y() < top + rowSpan(i)) return i;
  }
  return -1;
}

QPoint LadderView::pointOfFrame(int frame) const {
  const QLineF a = arrowLine(frame);
  return a.pointAt(0.5).toPoint();
}

QString LadderView::labelText(int frame) const {
  if (frame < 0 || frame >= static_cast<int>(frames_.size())) return {};
  const LadderFrame& fr = frames_[static_cast<std::size_t>(frame)];
  QString text = fr.label;
  if (fr.psn >= 0)
    text += QStringLiteral("  PSN %1").arg(PsnBase::format(static_cast<std::uint32_t>(fr.psn)));
  text += fr.note;
  if (!fr.secondLine.isEmpty()) text += QLatin1Char('\n') + fr.secondLine;
  return text;
}

namespace {

// The receiver's lifeline of a row among `lanes`.
int receiverOf(const LadderFrame& fr) {
  return fr.toHost >= 0 ? fr.toHost : (fr.fromHost == 0 ? 1 : 0);
}

}  // namespace

QFont LadderView::labelFontOf(int frame) const {
  QFont f = font();
  if (frame == current_) f.setBold(true);
  const LadderFrame& fr = frames_[static_cast<std::size_t>(frame)];
  const double room = std::abs(laneX(receiverOf(fr)) - laneX(fr.fromHost)) - 16;
  // A narrow ladder (a laptop screen) draws long labels smaller instead of cutting them.
  QFont out = f;
  for (const QString& line : labelText(frame).split(QLatin1Char('\n'))) {
    const QFont g = LayerStacksView::labelFont(f, line, room);
    if (g.pointSizeF() < out.pointSizeF()) out = g;
  }
  return out;
}

QString LadderView::shownLabelText(int frame) const {
  // Below the smallest font a line still too long ends in "…" rather than being cut at both
  // ends; the tooltip has the whole frame.
  const QFontMetricsF fm(labelFontOf(frame));
  const double room = labelRect(frame).width();
  QStringList lines = labelText(frame).split(QLatin1Char('\n'));
  for (QString& l : lines)
    if (fm.horizontalAdvance(l) > room) l = fm.elidedText(l, Qt::ElideRight, room);
  return lines.join(QLatin1Char('\n'));
}

QRectF LadderView::labelRect(int frame) const {
  if (frame < 0 || frame >= static_cast<int>(frames_.size())) return {};
  const LadderFrame& fr = frames_[static_cast<std::size_t>(frame)];
  const QFontMetricsF fm(labelFontOf(frame));
  const QStringList lines = labelText(frame).split(QLatin1Char('\n'));
  double w = 0;
  for (const QString& l : lines)
    w = std::max(w, fm.horizontalAdvance(l));
  const double x0 = laneX(fr.fromHost), x1 = laneX(receiverOf(fr));
  const double left = std::min(x0, x1) + 8, right = std::max(x0, x1) - 8;
  w = std::min(w, right - left);
  const double fh = fontMetrics().height();
  const double top = rowTop(frame) - scroll_ + fh * 0.15;
  return {(left + right - w) / 2, top, w, fm.height() * static_cast<double>(lines.size())};
}

QLineF LadderView::arrowLine(int frame) const {
  if (frame < 0 || frame >= static_cast<int>(frames_.size())) return {};
  const LadderFrame& fr = frames_[static_cast<std::size_t>(frame)];
  const double fh = fontMetrics().height();
  const double lines = fr.secondLine.isEmpty() ? 1.0 : 2.0;
  // Below the label's band (at the normal font's line height, which the label never exceeds).
  const double y0 = rowTop(frame) - scroll_ + fh * (0.15 + 1.05 * lines + 0.2);
  double y1 = y0 + fh * 0.6;
  const double x0 = laneX(fr.fromHost);
  double x1 = laneX(receiverOf(fr));
  if (fr.dropped || fr.held) {
    x1 = (x0 + x1) / 2;
    y1 = (y0 + y1) / 2;
  }
  return {x0, y0, x1, y1};
}

void LadderView::mousePressEvent(QMouseEvent* event) {
  const int f = frameAt(event->position().toPoint());
  if (f >= 0) {
    setCurrentFrame(f);
    Q_EMIT frameClicked(f);
  }
}

void LadderView::wheelEvent(QWheelEvent* event) {
  scroll_ -= event->angleDelta().y() / 120.0 * rowHeight() * 3;
  clampScroll();
  update();
}

bool LadderView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* he = static_cast<QHelpEvent*>(e);
    const int f = frameAt(he->pos());
    if (f >= 0)
      QToolTip::showText(he->globalPos(), frames_[static_cast<std::size_t>(f)].detail, this);
    else
      QToolTip::hideText();
    return true;
  }
  if (e->type() == QEvent::FontChange || e->type() == QEvent::Polish) layoutRows();
  return QWidget::event(e);
}

void LadderView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  p.fillRect(rect(), palette().color(QPalette::Base));

  p.save();
  p.setClipRect(QRectF(0, kHeader, width(), height() - kHeader));
  // Lifelines.
  p.setPen(QPen(QColor(0x60, 0x60, 0x60), 2));
  for (int lane = 0; lane < names_.size(); ++lane)
    p.drawLine(QPointF(laneX(lane), kHeader), QPointF(laneX(lane), height()));

  QFont small = font();
  small.setPointSizeF(std::max(7.0, font().pointSizeF() * 0.85));
  for (int i = 0; i < visible_; ++i) {
    const LadderFrame& fr = frames_[static_cast<std::size_t>(i)];
    const double top = rowTop(i) - scroll_, span = rowSpan(i);
    if (top + span < kHeader || top > height()) continue;
    const bool cur = i == current_;
    const QLineF arrow = arrowLine(i);
    const double x0 = arrow.x1(), y0 = arrow.y1(), x1 = arrow.x2(), yEnd = arrow.y2();
    QColor c = fr.nak ? QColor(0xd3, 0x54, 0x00) : QColor(0x1f, 0x4e, 0x9a);
    if (fr.sideChannel) c = QColor(0x2e, 0x7d, 0x32);
    if (fr.dropped || fr.droppedAtReceiver) c = QColor(0xc0, 0x39, 0x2b);
    if (fr.held) c = QColor(0xb9, 0x77, 0x0e);
    if (cur) p.fillRect(QRectF(0, top, width(), span), QColor(0xff, 0xe8, 0xa0));
    QPen pen(c, cur ? 3.0 : 1.6);
    if (fr.sideChannel) pen.setStyle(Qt::DashLine);
    p.setPen(pen);
    const double ang = std::atan2(yEnd - y0, x1 - x0);
    const QPointF d(std::cos(ang), std::sin(ang));
    const QPointF n(-d.y(), d.x());
    const QPointF tip(x1, yEnd);
    if (fr.droppedAtReceiver) {
      // It reached the receiver, which discarded it: a cross just before its lifeline.
      const QPointF x = tip - d * 8;
      p.drawLine(QPointF(x0, y0), x);
      p.setPen(QPen(c, 2.2));
      p.drawLine(x + QPointF(-5, -5), x + QPointF(5, 5));
      p.drawLine(x + QPointF(-5, 5), x + QPointF(5, -5));
    } else {
      p.drawLine(QPointF(x0, y0), QPointF(x1, yEnd));
    }
    if (fr.held) {
      // Two bars, as on a pause button: the frame waits at the switch.
      p.setPen(QPen(c, 3.0));
      for (double dx : {-3.0, 3.0})
        p.drawLine(QPointF(x1 + dx, yEnd - 6), QPointF(x1 + dx, yEnd + 6));
    } else if (fr.dropped) {
      p.setPen(QPen(c, 2.2));
      p.drawLine(QPointF(x1 - 5, yEnd - 5), QPointF(x1 + 5, yEnd + 5));
      p.drawLine(QPointF(x1 - 5, yEnd + 5), QPointF(x1 + 5, yEnd - 5));
    } else if (!fr.droppedAtReceiver) {
      p.setPen(Qt::NoPen);
      p.setBrush(fr.sideChannel ? QBrush(palette().color(QPalette::Base)) : QBrush(c));
      if (fr.sideChannel) p.setPen(QPen(c, 1.4));
      p.drawPolygon(QPolygonF{tip, tip - d * 9 + n * 4.5, tip - d * 9 - n * 4.5});
      p.setBrush(Qt::NoBrush);
    }
    // The label above the arrow, never on it; the row number at the sender's side.
    p.setPen(c.darker(115));
    p.setFont(labelFontOf(i));
    p.drawText(labelRect(i), Qt::AlignCenter, shownLabelText(i));
    p.setFont(small);
    p.setPen(palette().color(QPalette::PlaceholderText));
    const QString no = QString::number(i + 1);
    const double ny = y0 - rowHeight() * 0.3;
    if (x0 < x1)
      p.drawText(QRectF(0, ny, x0 - 6, rowHeight() * 0.6), Qt::AlignRight | Qt::AlignVCenter, no);
    else
      p.drawText(QRectF(x0 + 6, ny, width() - x0 - 6, rowHeight() * 0.6),
                 Qt::AlignLeft | Qt::AlignVCenter, no);
  }
  p.restore();

  // Header with host names (drawn last, over scrolled content).
  QFont bold = font();
  bold.setBold(true);
  const double rh = rowHeight();
  p.fillRect(QRectF(0, 0, width(), kHeader), palette().color(QPalette::Window));
  p.setFont(bold);
  p.setPen(palette().color(QPalette::Text));
  for (int lane = 0; lane < names_.size(); ++lane)
    p.drawText(QRectF(laneX(lane) - 80, 4, 160, kHeader - 8), Qt::AlignCenter, names_[lane]);
  p.setPen(QPen(palette().color(QPalette::Mid), 1));
  p.drawLine(QPointF(0, kHeader), QPointF(width(), kHeader));
  if (visible_ == 0) {
    p.setFont(font());
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(QRectF(0, kHeader, width(), rh * 2), Qt::AlignCenter, tr("No frames yet"));
  }
}

}  // namespace rdmascope::ui
