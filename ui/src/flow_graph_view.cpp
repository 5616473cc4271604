#include "rdmascope/ui/flow_graph_view.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "rdmascope/analysis/packet_facts.h"
#include "rdmascope/packets/ib_opcodes.h"
#include "rdmascope/packets/iwarp_headers.h"
#include "rdmascope/ui/analysis_models.h"
#include "rdmascope/ui/anomaly_text.h"
#include "rdmascope/ui/glossary.h"

namespace rdmascope::ui {

namespace {

// Which mark colours a row when it has several: the cause before its consequences.
int priority(analysis::AnomalyKind k) {
  using K = analysis::AnomalyKind;
  switch (k) {
    case K::IcrcFailure:
      return 0;
    case K::Nak:
      return 1;
    case K::RnrNak:
      return 2;
    case K::Timeout:
      return 3;
    case K::Retransmission:
      return 4;
    case K::PsnGap:
      return 5;
    case K::Duplicate:
      return 6;
    case K::Cnp:
      return 7;
    case K::CrcFailure:
    case K::Terminate:
    case K::MpaReject:
      return 0;
    case K::SegmentGap:
    case K::OutOfOrder:
      return 5;
    default:
      return 8;
  }
}

const QColor kPlain(0x1f, 0x4e, 0x9a);

}  // namespace

FlowGraphView::FlowGraphView(QWidget* parent) : QAbstractScrollArea(parent) {
  setObjectName(QStringLiteral("flowGraph"));
  setFocusPolicy(Qt::StrongFocus);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  connect(verticalScrollBar(), &QScrollBar::valueChanged, viewport(),
          [this] { viewport()->update(); });
}

void FlowGraphView::setAnalysis(std::shared_ptr<const CaptureAnalysis> analysis,
                                const FrameStore* store) {
  analysis_ = std::move(analysis);
  store_ = store;
  const int keep = connection_;
  connection_ = -2;
  setConnection(analysis_ && analysis_->rowOfConnection(keep) >= 0 ? keep : -1);
}

void FlowGraphView::setConnection(int id) {
  if (id == connection_) return;
  connection_ = id;
  row_ = analysis_ ? analysis_->rowOfConnection(id) : -1;
  marks_.clear();
  if (row_ >= 0) {
    for (std::size_t i : analysis_->anomaliesOf(id))
      marks_.emplace_back(analysis_->report.anomalies[i].frame, i);
    std::stable_sort(marks_.begin(), marks_.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
  }
  current_ = -1;
  updateScrollBar();
  verticalScrollBar()->setValue(0);
  viewport()->update();
  update();
}

const std::vector<ConnectionFrame>& FlowGraphView::frames() const {
  static const std::vector<ConnectionFrame> none;
  if (!analysis_ || row_ < 0) return none;
  return analysis_->frames[static_cast<std::size_t>(row_)];
}

qint64 FlowGraphView::frameAtRow(int row) const {
  if (row < 0 || row >= rowCount()) return -1;
  return frames()[static_cast<std::size_t>(row)].frame;
}

int FlowGraphView::rowOfFrame(qint64 frame) const {
  if (frame < 0) return -1;
  const auto& fs = frames();
  auto it = std::lower_bound(fs.begin(), fs.end(), frame, [](const ConnectionFrame& f, qint64 v) {
    return static_cast<qint64>(f.frame) < v;
  });
  if (it == fs.end() || static_cast<qint64>(it->frame) != frame) return -1;
  return static_cast<int>(it - fs.begin());
}

std::vector<analysis::AnomalyKind> FlowGraphView::marksAt(int row) const {
  std::vector<analysis::AnomalyKind> out;
  const qint64 frame = frameAtRow(row);
  if (frame < 0) return out;
  const auto number = static_cast<std::uint64_t>(frame) + 1;
  auto it = std::lower_bound(marks_.begin(), marks_.end(), number,
                             [](const auto& m, std::uint64_t v) { return m.first < v; });
  for (; it != marks_.end() && it->first == number; ++it)
    out.push_back(analysis_->report.anomalies[it->second].kind);
  std::stable_sort(out.begin(), out.end(),
                   [](auto x, auto y) { return priority(x) < priority(y); });
  return out;
}

QString FlowGraphView::detailAt(int row) const {
  const qint64 frame = frameAtRow(row);
  if (frame < 0) return {};
  const auto number = static_cast<std::uint64_t>(frame) + 1;
  QStringList lines;
  auto it = std::lower_bound(marks_.begin(), marks_.end(), number,
                             [](const auto& m, std::uint64_t v) { return m.first < v; });
  for (; it != marks_.end() && it->first == number; ++it) {
    const auto& a = analysis_->report.anomalies[it->second];
    lines << QStringLiteral("%1: %2").arg(anomalyStyle(a.kind).name, anomalyDetail(a));
  }
  return lines.join(QLatin1Char('\n'));
}

bool FlowGraphView::viewportEvent(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const int row = rowAt(help->pos());
    QString text =
        row >= 0 ? tr("Frame %1: %2").arg(frameAtRow(row) + 1).arg(labelAt(row)) : QString();
    const QString detail = detailAt(row);
    if (!detail.isEmpty()) text += QLatin1Char('\n') + detail;
    if (row >= 0) {
      QStringList seen;
      for (const auto kind : marksAt(row)) {
        const QString term = Glossary::keyForAnomaly(kind);
        if (term.isEmpty() || seen.contains(term)) continue;
        seen << term;
        text += QStringLiteral("\n\n") + Glossary::tooltip(term);
      }
    }
    if (text.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(help->globalPos(), text, viewport());
    return true;
  }
  return QAbstractScrollArea::viewportEvent(event);
}

int FlowGraphView::markedRowCount() const {
  int n = 0;
  std::uint64_t last = 0;
  for (const auto& m : marks_)
    if (m.first != last && rowOfFrame(static_cast<qint64>(m.first) - 1) >= 0) {
      ++n;
      last = m.first;
    }
  return n;
}

QString FlowGraphView::labelAt(int row) const {
  const qint64 frame = frameAtRow(row);
  if (frame < 0 || !store_ || static_cast<std::size_t>(frame) >= store_->size()) return {};
  const auto f = static_cast<std::size_t>(frame);
  const auto facts = analysis::readPacketFacts(store_->bytes(f), store_->linkType(), f + 1,
                                               store_->timeRelative(f));
  if (!facts) return tcpLabel(frames()[static_cast<std::size_t>(row)]);
  QString name;
  if (const auto* info = packets::ibOpcodeInfo(facts->opcode)) {
    std::string_view n = info->name;
    if (const auto space = n.find(' '); space != std::string_view::npos) n.remove_prefix(space + 1);
    name = QString::fromUtf8(n.data(), static_cast<qsizetype>(n.size()));
  } else {
    name = QStringLiteral("opcode 0x%1").arg(facts->opcode, 2, 16, QLatin1Char('0'));
  }
  name.replace(QStringLiteral(" with Immediate"), QStringLiteral(" w/ Imm"))
      .replace(QStringLiteral(" with Invalidate"), QStringLiteral(" w/ Inv"));
  return QStringLiteral("%1  PSN %2").arg(name).arg(facts->psn);
}

QString FlowGraphView::tcpLabel(const ConnectionFrame& fr) const {
  // The MPA units the analysis saw the segment complete, then its TCP flags and length (the
  // ports are those of the two lifelines).
  const packets::Dissection d = store_->decode(fr.frame);
  QString tcp = QString::fromStdString(d.summary.info);
  if (const auto at = tcp.indexOf(QLatin1Char('[')); at > 0) tcp = tcp.mid(at);
  QStringList units;
  if (fr.mpa & ConnectionFrame::kMpaRequest) units << tr("MPA Request");
  if (fr.mpa & ConnectionFrame::kMpaReply) units << tr("MPA Reply");
  const int fpdus = fr.mpa & ConnectionFrame::kFpduCount;
  if (fpdus > 0) {
    QString first = fr.rdmapOpcode == ConnectionFrame::kNoOpcode
                        ? tr("FPDU")
                        : (fr.rdmapOpcode <= 2 ? QStringLiteral("RDMA ") : QString()) +
                              QString::fromStdString(packets::rdmapOpcodeName(fr.rdmapOpcode));
    if (fr.last) first += tr(" (last)");
    units << (fpdus > 1 ? tr("%1 and %2 more FPDUs").arg(first).arg(fpdus - 1) : first);
  }
  const bool iwarp =
      row_ >= 0 && analysis_->report.connections[static_cast<std::size_t>(row_)].carrier ==
                       analysis::Carrier::Iwarp;
  if (units.isEmpty() && iwarp && !tcp.endsWith(QLatin1String("Len=0"))) units << tr("FPDU bytes");
  if (units.isEmpty())
    return d.summary.info.empty()
               ? tr("(not InfiniBand)")
               : QString::fromStdString(d.summary.protocol) + QStringLiteral("  ") + tcp;
  return units.join(QStringLiteral(", ")) + QStringLiteral("  ") + tcp;
}

int FlowGraphView::rowHeight() const {
  return static_cast<int>(fontMetrics().height() * 1.9);
}

int FlowGraphView::headerHeight() const {
  return fontMetrics().height() * 3 + 12;
}

void FlowGraphView::updateScrollBar() {
  const int rh = rowHeight();
  const int page = std::max(1, (viewport()->height() - headerHeight()) / rh);
  verticalScrollBar()->setRange(0, std::max(0, rowCount() - page + 1));
  verticalScrollBar()->setPageStep(page);
  verticalScrollBar()->setSingleStep(1);
}

void FlowGraphView::scrollToRow(int row) {
  const int page = std::max(1, (viewport()->height() - headerHeight()) / rowHeight());
  const int top = verticalScrollBar()->value();
  if (row < top)
    verticalScrollBar()->setValue(row);
  else if (row >= top + page - 1)
    verticalScrollBar()->setValue(row - page / 2);
}

void FlowGraphView::setCurrentFrame(qint64 frame) {
  const int row = rowOfFrame(frame);
  current_ = row >= 0 ? frame : -1;
  if (row >= 0) scrollToRow(row);
  viewport()->update();
}

int FlowGraphView::rowAt(const QPoint& pos) const {
  if (pos.y() < headerHeight()) return -1;
  const int row = verticalScrollBar()->value() + (pos.y() - headerHeight()) / rowHeight();
  return row < rowCount() ? row : -1;
}

QPoint FlowGraphView::pointOfRow(int row) {
  scrollToRow(row);
  const int rh = rowHeight();
  const int y = headerHeight() + (row - verticalScrollBar()->value()) * rh + rh * 3 / 4;
  return {viewport()->width() / 2, y};
}

void FlowGraphView::resizeEvent(QResizeEvent* event) {
  QAbstractScrollArea::resizeEvent(event);
  updateScrollBar();
}

void FlowGraphView::keyPressEvent(QKeyEvent* event) {
  const int row = rowOfFrame(current_);
  int next = row;
  if (event->key() == Qt::Key_Down)
    next = row + 1;
  else if (event->key() == Qt::Key_Up)
    next = std::max(0, row - 1);
  else if (event->key() == Qt::Key_PageDown)
    next = row + verticalScrollBar()->pageStep();
  else if (event->key() == Qt::Key_PageUp)
    next = std::max(0, row - verticalScrollBar()->pageStep());
  else
    return QAbstractScrollArea::keyPressEvent(event);
  next = std::min(next, rowCount() - 1);
  if (next >= 0 && next != row) {
    setCurrentFrame(frameAtRow(next));
    Q_EMIT frameClicked(frameAtRow(next));
  }
}

void FlowGraphView::mousePressEvent(QMouseEvent* event) {
  const int row = rowAt(event->position().toPoint());
  if (row < 0) return;
  setCurrentFrame(frameAtRow(row));
  Q_EMIT frameClicked(frameAtRow(row));
}

void FlowGraphView::paintEvent(QPaintEvent*) {
  QPainter p(viewport());
  paintRows(p);
  // The header (legend and endpoints) stays put over the scrolled rows.
  {
    QPainter& h = p;
    h.save();
    const int hh = headerHeight();
    const QRect header(0, 0, viewport()->width(), hh);
    h.fillRect(header, palette().color(QPalette::Window));
    h.setRenderHint(QPainter::Antialiasing);
    const int lh = fontMetrics().height();
    int x = header.left() + 6;
    const int yLegend = header.top() + 3;
    QFont small = font();
    small.setPointSizeF(std::max(7.0, font().pointSizeF() * 0.9));
    h.setFont(small);
    const QFontMetrics sfm(small);
    const auto* shown =
        row_ >= 0 ? &analysis_->report.connections[static_cast<std::size_t>(row_)] : nullptr;
    for (auto kind : legendKinds()) {
      if (shown && !anomalyKindApplies(kind, shown->carrier)) continue;
      const AnomalyStyle s = anomalyStyle(kind);
      const int w = sfm.horizontalAdvance(s.name) + lh + 14;
      if (x + w > header.right()) break;
      h.setPen(Qt::NoPen);
      h.setBrush(s.color);
      h.drawEllipse(QRectF(x, yLegend + 1, lh - 2, lh - 2));
      h.setPen(Qt::white);
      h.drawText(QRectF(x, yLegend + 1, lh - 2, lh - 2), Qt::AlignCenter, s.badge);
      h.setPen(s.color.darker(120));
      h.drawText(QRectF(x + lh + 2, yLegend, w, lh), Qt::AlignLeft | Qt::AlignVCenter, s.name);
      x += w;
    }
    const int w = viewport()->width();
    const double xa = w * 0.16, xb = w * 0.66;
    QFont bold = font();
    bold.setBold(true);
    h.setFont(bold);
    h.setPen(palette().color(QPalette::Text));
    const int yNames = header.top() + lh + 6;
    if (row_ >= 0) {
      const auto& c = analysis_->report.connections[static_cast<std::size_t>(row_)];
      const QString a = endpointText(c.a), b = endpointText(c.b);
      // Names on one line over the two lifelines, each centred on its own and kept apart.
      const QFontMetrics bfm(bold);
      const double half = (xb - xa) / 2 - 6;
      const double wa = std::min<double>(bfm.horizontalAdvance(a) + 8, 2 * std::min(xa, half));
      const double wb = std::min<double>(bfm.horizontalAdvance(b) + 8, 2 * std::min(w - xb, half));
      h.drawText(QRectF(xa - wa / 2, yNames, wa, lh), Qt::AlignCenter,
                 bfm.elidedText(a, Qt::ElideMiddle, static_cast<int>(wa)));
      h.drawText(QRectF(xb - wb / 2, yNames, wb, lh), Qt::AlignCenter,
                 bfm.elidedText(b, Qt::ElideMiddle, static_cast<int>(wb)));
      h.setFont(small);
      h.setPen(palette().color(QPalette::PlaceholderText));
      const double yCaptions = yNames + lh + 1;
      h.drawText(QRectF(4, yCaptions, xa - 10, lh), Qt::AlignRight | Qt::AlignVCenter,
                 tr("Time (s)"));
      h.drawText(QRectF(xb + 10, yCaptions, w - xb - 10, lh), Qt::AlignLeft | Qt::AlignVCenter,
                 tr("Frame      Anomaly"));
    }
    h.setPen(QPen(palette().color(QPalette::Mid), 1));
    h.drawLine(header.bottomLeft(), header.bottomRight());
    h.restore();
  }
}

void FlowGraphView::paintRows(QPainter& p) {
  p.setRenderHint(QPainter::Antialiasing);
  p.fillRect(viewport()->rect(), palette().color(QPalette::Base));
  lastPainted_ = 0;
  const int w = viewport()->width();
  const double xa = w * 0.16, xb = w * 0.66;
  if (row_ < 0) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(viewport()->rect().adjusted(0, headerHeight(), 0, 0), Qt::AlignCenter,
               analysis_ ? tr("Select a connection in Conversations to see its frames")
                         : tr("No analysis yet"));
    return;
  }
  p.setPen(QPen(QColor(0x60, 0x60, 0x60), 2));
  const int hh = headerHeight();
  p.drawLine(QPointF(xa, hh), QPointF(xa, viewport()->height()));
  p.drawLine(QPointF(xb, hh), QPointF(xb, viewport()->height()));

  const int rh = rowHeight();
  const int first = verticalScrollBar()->value();
  const int last = std::min(rowCount(), first + (viewport()->height() - hh) / rh + 2);
  QFont bold = font();
  bold.setBold(true);
  QFont small = font();
  small.setPointSizeF(std::max(7.0, font().pointSizeF() * 0.85));
  const int lh = fontMetrics().height();
  const auto& fs = frames();
  for (int row = first; row < last; ++row) {
    ++lastPainted_;
    const ConnectionFrame& fr = fs[static_cast<std::size_t>(row)];
    const int top = hh + (row - first) * rh;
    const double y = top + rh * 0.75;
    const bool cur = static_cast<qint64>(fr.frame) == current_;
    if (cur) p.fillRect(QRectF(0, top, w, rh), QColor(0xff, 0xe8, 0xa0));
    const auto marks = marksAt(row);
    using K = analysis::AnomalyKind;
    const bool has = !marks.empty();
    const QColor c = has ? anomalyStyle(marks.front()).color : kPlain;
    const double x0 = fr.fromB ? xb : xa;
    double x1 = fr.fromB ? xa : xb;
    const bool dropped = has && (marks.front() == K::IcrcFailure || marks.front() == K::CrcFailure);
    if (dropped) x1 = (x0 + x1) / 2;
    QPen pen(c, cur ? 3.0 : 1.6);
    if (std::find(marks.begin(), marks.end(), K::Retransmission) != marks.end() ||
        std::find(marks.begin(), marks.end(), K::Timeout) != marks.end())
      pen.setStyle(Qt::DashLine);
    if (has && marks.front() == K::Duplicate) pen.setStyle(Qt::DotLine);
    p.setPen(pen);
    p.drawLine(QPointF(x0, y), QPointF(x1, y));
    if (dropped) {
      p.setPen(QPen(c, 2.2));
      p.drawLine(QPointF(x1 - 6, y - 6), QPointF(x1 + 6, y + 6));
      p.drawLine(QPointF(x1 - 6, y + 6), QPointF(x1 + 6, y - 6));
    } else {
      const double dir = x1 > x0 ? 1.0 : -1.0;
      p.setPen(Qt::NoPen);
      p.setBrush(c);
      p.drawPolygon(QPolygonF{QPointF(x1, y), QPointF(x1 - dir * 9, y - 4.5),
                              QPointF(x1 - dir * 9, y + 4.5)});
    }
    p.setFont(cur ? bold : font());
    p.setPen(c.darker(115));
    const QRectF labelBox(xa + 12, top + 1, xb - xa - 24, y - top - 2);
    p.drawText(labelBox, Qt::AlignHCenter | Qt::AlignBottom,
               QFontMetrics(p.font()).elidedText(labelAt(row), Qt::ElideMiddle,
                                                 static_cast<int>(labelBox.width())));
    p.setFont(small);
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(
        QRectF(4, top, xa - 10, rh), Qt::AlignRight | Qt::AlignVCenter,
        QString::number(store_ && fr.frame < store_->size() ? store_->timeRelative(fr.frame) : 0.0,
                        'f', 6));
    // Frame number, then the badges and what the first mark says.
    double x = xb + 10;
    p.drawText(QRectF(x, top, 56, rh), Qt::AlignLeft | Qt::AlignVCenter,
               QString::number(fr.frame + 1));
    x += 56;
    for (auto k : marks) {
      const AnomalyStyle s = anomalyStyle(k);
      p.setPen(Qt::NoPen);
      p.setBrush(s.color);
      const QRectF badge(x, top + (rh - lh) / 2.0, lh, lh);
      p.drawEllipse(badge);
      p.setPen(Qt::white);
      p.drawText(badge, Qt::AlignCenter, s.badge);
      x += lh + 3;
    }
    if (has) {
      p.setPen(c.darker(120));
      // A kind drawn in the "Other" style is named by its own name (gap filled, reordered, ...).
      const AnomalyStyle s = anomalyStyle(marks.front());
      const bool other = s.name == anomalyStyle(analysis::AnomalyKind::GapFilled).name;
      p.drawText(QRectF(x + 3, top, w - x - 3, rh), Qt::AlignLeft | Qt::AlignVCenter,
                 other ? anomalyKindName(marks.front()) : s.name);
    }
  }
}

}  // namespace rdmascope::ui
