#include "rdmascope/ui/fabric_topology_view.h"

#include <QLinearGradient>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>
#include <vector>

#include "rdmascope/ui/fabric_topology_model.h"

namespace rdmascope::ui {

namespace {

// Idle grey through green and amber to red at full load.
QColor loadColour(double load) {
  struct Stop {
    double at;
    QColor c;
  };
  static const Stop stops[] = {{0.0, QColor(0xb0, 0xb7, 0xbd)},
                               {0.05, QColor(0x66, 0xbb, 0x6a)},
                               {0.6, QColor(0xff, 0xb3, 0x00)},
                               {1.0, QColor(0xe5, 0x39, 0x35)}};
  for (std::size_t i = 1; i < std::size(stops); ++i) {
    if (load <= stops[i].at) {
      const double f = (load - stops[i - 1].at) / (stops[i].at - stops[i - 1].at);
      const QColor& a = stops[i - 1].c;
      const QColor& b = stops[i].c;
      return QColor::fromRgbF(static_cast<float>(a.redF() + f * (b.redF() - a.redF())),
                              static_cast<float>(a.greenF() + f * (b.greenF() - a.greenF())),
                              static_cast<float>(a.blueF() + f * (b.blueF() - a.blueF())));
    }
  }
  return stops[std::size(stops) - 1].c;
}

QString priorityList(unsigned bits) {
  QString s;
  for (int p = 0; p < 8; ++p)
    if (bits & (1u << p)) s += (s.isEmpty() ? QString() : QStringLiteral(",")) + QString::number(p);
  return s;
}

}  // namespace

FabricTopologyView::FabricTopologyView(const FabricTopologyModel* model, QWidget* parent)
    : QWidget(parent), model_(model) {
  setObjectName(QStringLiteral("fabricTopologyView"));
  setAutoFillBackground(true);
  setBackgroundRole(QPalette::Base);
  connect(model_, &QAbstractItemModel::modelReset, this, qOverload<>(&QWidget::update));
  connect(model_, &QAbstractItemModel::dataChanged, this, qOverload<>(&QWidget::update));
}

void FabricTopologyView::setTimeText(const QString& text) {
  time_ = text;
  update();
}

QPointF FabricTopologyView::nodeCentre(int node) const {
  const QFontMetrics fm(font());
  const double mx = fm.horizontalAdvance(QStringLiteral("spine0")) * 0.7 + 8;
  const double top = fm.height() * 2.0 + 16, bottom = fm.height() + 12;
  const QPointF w = model_->nodes()[static_cast<std::size_t>(node)].where;
  return {mx + w.x() * (width() - 2 * mx), top + w.y() * std::max(1.0, height() - top - bottom)};
}

void FabricTopologyView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const QFontMetrics fm(font());
  const auto& nodes = model_->nodes();
  if (nodes.empty()) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect(), Qt::AlignCenter, tr("Open a congestion scenario to see its fabric."));
    return;
  }
  // caption: the time, and the legend of the lanes' colours
  p.setPen(palette().color(QPalette::Text));
  p.drawText(QRect(8, 4, width() / 2, fm.height() + 4), Qt::AlignLeft | Qt::AlignVCenter, time_);
  const int lw = 90, lx = width() - lw - 8 - fm.horizontalAdvance(tr("idle")) -
                          fm.horizontalAdvance(tr("full")) - 12;
  QLinearGradient grad(lx, 0, lx + lw, 0);
  for (double f : {0.0, 0.05, 0.6, 1.0})
    grad.setColorAt(f, loadColour(f));
  p.drawText(QPoint(lx - fm.horizontalAdvance(tr("idle")) - 4, 4 + fm.ascent()), tr("idle"));
  p.fillRect(QRect(lx, 6, lw, fm.height() - 4), grad);
  p.drawText(QPoint(lx + lw + 4, 4 + fm.ascent()), tr("full"));
  p.setPen(QColor(0xc6, 0x28, 0x28));
  const QString legend = tr("|| Pn: priority n paused");
  p.drawText(QPoint(width() - fm.horizontalAdvance(legend) - 8, 4 + fm.height() + fm.ascent()),
             legend);

  // links: a lane per direction, offset to the right of its travel
  const double box = fm.height() * 1.6;
  // per row, the smallest distance between two of its nodes: what a pause mark beside a
  // sender of that row may be wide
  std::vector<double> gap;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const auto level = static_cast<std::size_t>(nodes[i].level);
    if (gap.size() <= level) gap.resize(level + 1, width());
    for (std::size_t j = i + 1; j < nodes.size(); ++j)
      if (nodes[i].level == nodes[j].level)
        gap[level] = std::min(gap[level], std::abs(nodeCentre(static_cast<int>(i)).x() -
                                                   nodeCentre(static_cast<int>(j)).x()));
  }
  for (const auto& l : model_->links()) {
    const QPointF a = nodeCentre(l.a), b = nodeCentre(l.b);
    const QPointF d = b - a;
    const double len = std::hypot(d.x(), d.y());
    if (len < 1) continue;
    const QPointF u = d / len, n(-u.y(), u.x());
    const bool sameRow = std::abs(a.y() - b.y()) < 1.0 && len > 0;
    for (int dir = 0; dir < 2; ++dir) {
      const int port = dir == 0 ? l.portA : l.portB;
      const QPointF from = dir == 0 ? a : b, to = dir == 0 ? b : a;
      const QPointF off = n * (dir == 0 ? 2.5 : -2.5);
      const double load = model_->load(port);
      QPen pen(loadColour(load), 1.5 + 4.0 * load);
      pen.setCapStyle(Qt::FlatCap);
      p.setPen(pen);
      p.setBrush(Qt::NoBrush);
      QPainterPath path(from + off);
      QPointF mark;
      if (sameRow) {
        // switches side by side (a ring): an arc above, so that it passes no node
        const QPointF ctrl = (from + to) / 2 + QPointF(0, -0.35 * len) + off;
        path.quadTo(ctrl, to + off);
        mark = path.pointAtPercent(0.22);
      } else {
        path.lineTo(to + off);
        mark = from + off + (to - from) * std::min(0.45, (box * 1.2) / len + 0.08);
      }
      p.drawPath(path);
      const unsigned paused = model_->pausedPriorities(port);
      if (paused) {
        // hosts side by side leave room for the bars only: the legend names the priority
        QString text = QStringLiteral("|| P%1").arg(priorityList(paused));
        const auto& sender = nodes[static_cast<std::size_t>(dir == 0 ? l.a : l.b)];
        if (fm.horizontalAdvance(text) + 8 > 0.75 * gap[static_cast<std::size_t>(sender.level)])
          text = QStringLiteral("||");
        const QRectF r(mark.x() - fm.horizontalAdvance(text) / 2.0 - 3,
                       mark.y() - fm.height() / 2.0, fm.horizontalAdvance(text) + 6, fm.height());
        p.setPen(QPen(QColor(0xc6, 0x28, 0x28), 1.2));
        p.setBrush(QColor(0xff, 0xeb, 0xee));
        p.drawRoundedRect(r, 3, 3);
        p.setPen(QColor(0xb7, 0x1c, 0x1c));
        p.drawText(r, Qt::AlignCenter, text);
      }
    }
  }
  // nodes on top
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const auto& nd = nodes[i];
    const QPointF c = nodeCentre(static_cast<int>(i));
    const double w = std::max(box * 1.4, fm.horizontalAdvance(nd.name) + 10.0);
    const QRectF r(c.x() - w / 2, c.y() - box / 2, w, box);
    p.setPen(QPen(nd.isSwitch ? QColor(0x15, 0x65, 0xc0) : QColor(0x54, 0x6e, 0x7a), 1.5));
    p.setBrush(nd.isSwitch ? QColor(0xe3, 0xf2, 0xfd) : QColor(0xf5, 0xf5, 0xf5));
    if (nd.isSwitch)
      p.drawRect(r);
    else
      p.drawRoundedRect(r, box / 2, box / 2);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(r, Qt::AlignCenter, nd.name);
  }
}

}  // namespace rdmascope::ui
