#include "rdmascope/ui/ladder_view.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <cmath>

#include "rdmascope/ui/layer_stacks_view.h"

namespace rdmascope::ui {

namespace {
constexpr double kHeader = 34.0;
}

LadderView::LadderView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("ladder"));
  setMouseTracking(true);
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
  visible_ = std::min<int>(visible_, static_cast<int>(frames_.size()));
  current_ = -1;
  scroll_ = 0;
  update();
}

void LadderView::appendFrames(const std::vector<LadderFrame>& frames) {
  const bool all = visible_ == static_cast<int>(frames_.size());
  frames_.insert(frames_.end(), frames.begin(), frames.end());
  if (all) setVisibleCount(static_cast<int>(frames_.size()));
}

void LadderView::setVisibleCount(int visible) {
  visible_ = std::clamp(visible, 0, static_cast<int>(frames_.size()));
  // Follow the newest frame, as a terminal follows output.
  const double bottom = yOf(visible_ - 1) + rowHeight() * 1.5;
  if (bottom - scroll_ > height()) scroll_ = bottom - height();
  clampScroll();
  update();
}

void LadderView::setCurrentFrame(int frame) {
  current_ = frame;
  if (frame >= 0) {
    const double y = yOf(frame);
    if (y - scroll_ < kHeader + rowHeight()) scroll_ = y - kHeader - rowHeight();
    if (y - scroll_ > height() - rowHeight() * 1.5) scroll_ = y - height() + rowHeight() * 1.5;
    clampScroll();
  }
  update();
}

double LadderView::rowHeight() const {
  return fontMetrics().height() * 1.9;
}

double LadderView::yOf(int frame) const {
  return kHeader + rowHeight() * (frame + 0.7);
}

void LadderView::clampScroll() {
  const double content = yOf(visible_ - 1) + rowHeight() * 1.5;
  scroll_ = std::clamp(scroll_, 0.0, std::max(0.0, content - height()));
}

int LadderView::frameAt(const QPoint& pos) const {
  for (int i = 0; i < visible_; ++i) {
    const double y = yOf(i) - scroll_;
    if (pos.y() >= y - rowHeight() * 0.55 && pos.y() < y + rowHeight() * 0.45 && pos.y() > kHeader)
      return i;
  }
  return -1;
}

QPoint LadderView::pointOfFrame(int frame) const {
  return {width() / 2, static_cast<int>(yOf(frame) - scroll_)};
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
  return QWidget::event(e);
}

void LadderView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  p.fillRect(rect(), palette().color(QPalette::Base));
  const double rh = rowHeight();

  p.save();
  p.setClipRect(QRectF(0, kHeader, width(), height() - kHeader));
  // Lifelines.
  p.setPen(QPen(QColor(0x60, 0x60, 0x60), 2));
  for (int lane = 0; lane < names_.size(); ++lane)
    p.drawLine(QPointF(laneX(lane), kHeader), QPointF(laneX(lane), height()));

  QFont f = font();
  QFont bold = font();
  bold.setBold(true);
  QFont small = font();
  small.setPointSizeF(std::max(7.0, font().pointSizeF() * 0.85));
  for (int i = 0; i < visible_; ++i) {
    const LadderFrame& fr = frames_[static_cast<std::size_t>(i)];
    const double y0 = yOf(i) - scroll_ - rh * 0.35;
    const double y1 = y0 + rh * 0.7;
    if (y1 < kHeader - rh || y0 > height() + rh) continue;
    const bool cur = i == current_;
    const int to = fr.toHost >= 0 ? fr.toHost : (fr.fromHost == 0 ? 1 : 0);
    const double x0 = laneX(fr.fromHost);
    double x1 = laneX(to);
    QColor c = fr.nak ? QColor(0xd3, 0x54, 0x00) : QColor(0x1f, 0x4e, 0x9a);
    if (fr.dropped) c = QColor(0xc0, 0x39, 0x2b);
    if (fr.held) c = QColor(0xb9, 0x77, 0x0e);
    if (cur) {
      p.fillRect(QRectF(0, y0 - rh * 0.25, width(), rh * 1.05), QColor(0xff, 0xe8, 0xa0));
    }
    double yEnd = y1;
    if (fr.dropped || fr.held) {
      x1 = (x0 + x1) / 2;
      yEnd = (y0 + y1) / 2;
    }
    p.setPen(QPen(c, cur ? 3.0 : 1.6));
    p.drawLine(QPointF(x0, y0), QPointF(x1, yEnd));
    if (fr.held) {
      // Two bars, as on a pause button: the frame waits at the switch.
      p.setPen(QPen(c, 3.0));
      for (double dx : {-3.0, 3.0})
        p.drawLine(QPointF(x1 + dx, yEnd - 6), QPointF(x1 + dx, yEnd + 6));
    } else if (fr.dropped) {
      p.drawLine(QPointF(x1 - 6, yEnd - 6), QPointF(x1 + 6, yEnd + 6));
      p.drawLine(QPointF(x1 - 6, yEnd + 6), QPointF(x1 + 6, yEnd - 6));
    } else {
      const double ang = std::atan2(yEnd - y0, x1 - x0);
      const QPointF d(std::cos(ang), std::sin(ang));
      const QPointF n(-d.y(), d.x());
      const QPointF tip(x1, yEnd);
      p.setPen(Qt::NoPen);
      p.setBrush(c);
      p.drawPolygon(QPolygonF{tip, tip - d * 9 + n * 4.5, tip - d * 9 - n * 4.5});
    }
    // Label above the middle of the arrow; frame number and time at the sender's side.
    p.setPen(c.darker(115));
    const double left = std::min(x0, laneX(to)), right = std::max(x0, laneX(to));
    const QRectF label(left + 8, (y0 + y1) / 2 - rh * 0.62, right - left - 16, rh * 0.5);
    // A narrow ladder (a laptop screen) draws long labels smaller instead of cutting them.
    p.setFont(LayerStacksView::labelFont(cur ? bold : f, fr.label, label.width()));
    p.drawText(label, Qt::AlignCenter, fr.label);
    p.setFont(small);
    p.setPen(palette().color(QPalette::PlaceholderText));
    const QString no = QString::number(i + 1);
    if (x0 < x1)
      p.drawText(QRectF(0, y0 - rh * 0.4, x0 - 6, rh * 0.8), Qt::AlignRight | Qt::AlignVCenter, no);
    else
      p.drawText(QRectF(x0 + 6, y0 - rh * 0.4, width() - x0 - 6, rh * 0.8),
                 Qt::AlignLeft | Qt::AlignVCenter, no);
  }
  p.restore();

  // Header with host names (drawn last, over scrolled content).
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
