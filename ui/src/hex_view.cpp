#include "rdmascope/ui/hex_view.h"

#include <QFontDatabase>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>

namespace rdmascope::ui {

namespace {
constexpr int kPerLine = 16;
constexpr int kOffsetChars = 6;  // "0000" + two spaces; wider for larger bases
}  // namespace

HexView::HexView(QWidget* parent) : QAbstractScrollArea(parent) {
  QFont f = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  f.setStyleHint(QFont::Monospace);
  setFont(f);
  setFocusPolicy(Qt::StrongFocus);
  viewport()->setBackgroundRole(QPalette::Base);
  viewport()->setAutoFillBackground(true);
}

int HexView::lineHeight() const {
  return fontMetrics().height();
}
int HexView::charWidth() const {
  return fontMetrics().horizontalAdvance(QLatin1Char('0'));
}

static int offsetChars(std::uint64_t base, int size) {
  const std::uint64_t last = base + static_cast<std::uint64_t>(size);
  return last > 0xffff ? (last > 0xffffffffULL ? 18 : 10) : kOffsetChars;
}

int HexView::hexColumn(int i) const {
  return offsetChars(base_, static_cast<int>(bytes_.size())) + i * 3 + (i >= 8 ? 1 : 0);
}

int HexView::asciiColumn(int i) const {
  return hexColumn(kPerLine) + 1 + i;
}

QSize HexView::sizeHint() const {
  return {(asciiColumn(kPerLine) + 2) * charWidth() + verticalScrollBar()->sizeHint().width(),
          lineHeight() * 12};
}

void HexView::setBytes(const QByteArray& bytes, std::uint64_t baseAddress) {
  bytes_ = bytes;
  base_ = baseAddress;
  hiOffset_ = hiLength_ = secOffset_ = secLength_ = 0;
  updateScrollBar();
  verticalScrollBar()->setValue(0);
  viewport()->update();
}

void HexView::setHighlight(std::uint32_t offset, std::uint32_t length) {
  hiOffset_ = offset;
  hiLength_ = length;
  if (length) {
    const int line = static_cast<int>(offset / kPerLine);
    const int visible = std::max(1, viewport()->height() / lineHeight());
    QScrollBar* sb = verticalScrollBar();
    if (line < sb->value() || line >= sb->value() + visible) sb->setValue(line);
  }
  viewport()->update();
}

void HexView::setSecondaryHighlight(std::uint32_t offset, std::uint32_t length) {
  secOffset_ = offset;
  secLength_ = length;
  viewport()->update();
}

void HexView::updateScrollBar() {
  const int lines = static_cast<int>((bytes_.size() + kPerLine - 1) / kPerLine);
  const int visible = std::max(1, viewport()->height() / std::max(1, lineHeight()));
  verticalScrollBar()->setRange(0, std::max(0, lines - visible));
  verticalScrollBar()->setPageStep(visible);
}

void HexView::resizeEvent(QResizeEvent* event) {
  QAbstractScrollArea::resizeEvent(event);
  updateScrollBar();
}

qint64 HexView::byteAt(const QPoint& pos) const {
  const int cw = charWidth();
  const int line = verticalScrollBar()->value() + pos.y() / lineHeight();
  const int x = pos.x() + horizontalScrollBar()->value();
  int col = -1;
  for (int i = 0; i < kPerLine; ++i) {
    const int hx = hexColumn(i) * cw;
    const int ax = asciiColumn(i) * cw;
    if ((x >= hx && x < hx + 2 * cw) || (x >= ax && x < ax + cw)) {
      col = i;
      break;
    }
  }
  if (col < 0) return -1;
  const qint64 b = static_cast<qint64>(line) * kPerLine + col;
  return b < bytes_.size() ? b : -1;
}

QPoint HexView::pointOfByte(std::uint32_t offset) const {
  const int line = static_cast<int>(offset / kPerLine) - verticalScrollBar()->value();
  const int i = static_cast<int>(offset % kPerLine);
  return {hexColumn(i) * charWidth() + charWidth(), line * lineHeight() + lineHeight() / 2};
}

void HexView::mousePressEvent(QMouseEvent* event) {
  const qint64 b = byteAt(event->position().toPoint());
  if (b >= 0) Q_EMIT byteClicked(static_cast<std::uint32_t>(b));
  QAbstractScrollArea::mousePressEvent(event);
}

void HexView::paintEvent(QPaintEvent*) {
  QPainter p(viewport());
  const int cw = charWidth();
  const int lh = lineHeight();
  const int ascent = fontMetrics().ascent();
  const int first = verticalScrollBar()->value();
  const int lines = viewport()->height() / lh + 1;
  const QPalette& pal = palette();
  const QColor hiBg = pal.color(QPalette::Highlight);
  const QColor hiFg = pal.color(QPalette::HighlightedText);
  const QColor secBg(0xff, 0xd7, 0x5e);
  const QColor offsetFg = pal.color(QPalette::PlaceholderText);
  const int width = offsetChars(base_, static_cast<int>(bytes_.size())) - 2;

  for (int l = 0; l < lines; ++l) {
    const qint64 start = static_cast<qint64>(first + l) * kPerLine;
    if (start >= bytes_.size()) break;
    const int y = l * lh;
    p.setPen(offsetFg);
    p.drawText(0, y + ascent,
               QStringLiteral("%1").arg(base_ + static_cast<std::uint64_t>(start), width, 16,
                                        QLatin1Char('0')));
    for (int i = 0; i < kPerLine && start + i < bytes_.size(); ++i) {
      const auto off = static_cast<std::uint32_t>(start + i);
      const auto byte = static_cast<unsigned char>(bytes_[start + i]);
      const bool hi = hiLength_ && off >= hiOffset_ && off - hiOffset_ < hiLength_;
      const bool sec = !hi && secLength_ && off >= secOffset_ && off - secOffset_ < secLength_;
      const int hx = hexColumn(i) * cw;
      const int ax = asciiColumn(i) * cw;
      if (hi || sec) {
        const QColor bg = hi ? hiBg : secBg;
        const bool nextHi = i + 1 < kPerLine && (hi ? off + 1 - hiOffset_ < hiLength_
                                                    : off + 1 - secOffset_ < secLength_);
        p.fillRect(hx, y, nextHi ? 3 * cw + (i == 7 ? cw : 0) : 2 * cw, lh, bg);
        p.fillRect(ax, y, cw, lh, bg);
        p.setPen(hi ? hiFg : pal.color(QPalette::Text));
      } else {
        p.setPen(pal.color(QPalette::Text));
      }
      p.drawText(hx, y + ascent, QStringLiteral("%1").arg(byte, 2, 16, QLatin1Char('0')));
      p.drawText(ax, y + ascent,
                 QString(byte >= 0x20 && byte < 0x7f ? QChar(byte) : QLatin1Char('.')));
    }
  }
}

}  // namespace rdmascope::ui
