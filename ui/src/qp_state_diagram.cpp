#include "rdmascope/ui/qp_state_diagram.h"

#include <QPainter>
#include <QPainterPath>
#include <cmath>

#include "rdmascope/ui/scenario_player.h"

namespace rdmascope::ui {

namespace {

using S = sim::QpState;

struct Edge {
  S from, to;
};
// The transitions of IBTA Vol. 1 figure 124 that a verbs user drives or the HCA takes.
constexpr Edge kEdges[] = {
    {S::Reset, S::Init}, {S::Init, S::Init}, {S::Init, S::Rtr},  {S::Rtr, S::Rts},
    {S::Rts, S::Sqd},    {S::Sqd, S::Rts},   {S::Rts, S::Sqe},   {S::Sqe, S::Rts},
    {S::Rts, S::Err},    {S::Sqe, S::Err},   {S::Err, S::Reset},
};

QPointF centerOf(S s) {
  switch (s) {
    case S::Reset:
      return {0.09, 0.30};
    case S::Init:
      return {0.30, 0.30};
    case S::Rtr:
      return {0.51, 0.30};
    case S::Rts:
      return {0.72, 0.30};
    case S::Sqd:
      return {0.91, 0.12};
    case S::Sqe:
      return {0.91, 0.72};
    case S::Err:
      return {0.40, 0.78};
  }
  return {};
}

}  // namespace

QpStateDiagram::QpStateDiagram(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("qpStateDiagram"));
}

void QpStateDiagram::setState(sim::QpState current, sim::QpState from, bool lit) {
  has_ = true;
  current_ = current;
  from_ = from;
  lit_ = lit;
  update();
}

void QpStateDiagram::clearState() {
  has_ = false;
  lit_ = false;
  update();
}

QRectF QpStateDiagram::stateRect(sim::QpState s) const {
  const QPointF c = centerOf(s);
  const double w = std::min(70.0, width() * 0.17);
  const double h = std::min(30.0, height() * 0.24);
  return {c.x() * width() - w / 2, c.y() * height() - h / 2, w, h};
}

void QpStateDiagram::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  p.fillRect(rect(), palette().color(QPalette::Base));
  const QColor edgeColor(0x9a, 0xa5, 0xb1);
  const QColor litColor(0xe6, 0x7e, 0x22);

  auto arrow = [&p](const QPainterPath& path, const QColor& c, double width) {
    p.setPen(QPen(c, width));
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
    const QPointF tip = path.pointAtPercent(1.0);
    const double ang = path.angleAtPercent(0.98) * M_PI / 180.0;
    const QPointF d(std::cos(ang), -std::sin(ang));
    const QPointF n(-d.y(), d.x());
    const double hs = 5 + width;
    p.setPen(Qt::NoPen);
    p.setBrush(c);
    p.drawPolygon(QPolygonF{tip, tip - d * hs + n * hs * 0.5, tip - d * hs - n * hs * 0.5});
  };

  auto edgePath = [this](S from, S to) {
    const QRectF a = stateRect(from);
    const QRectF b = stateRect(to);
    QPainterPath path;
    if (from == to) {
      path.moveTo(a.left() + a.width() * 0.3, a.top());
      path.cubicTo(a.left() + a.width() * 0.2, a.top() - 22, a.right() - a.width() * 0.2,
                   a.top() - 22, a.right() - a.width() * 0.3, a.top());
      return path;
    }
    // Clip the straight line to the two boxes, offsetting paired edges so both show.
    QPointF pa = a.center(), pb = b.center();
    const QPointF dir = pb - pa;
    const double len = std::hypot(dir.x(), dir.y());
    const QPointF n(-dir.y() / len, dir.x() / len);
    const bool paired = (from == S::Rts && (to == S::Sqd || to == S::Sqe)) ||
                        (to == S::Rts && (from == S::Sqd || from == S::Sqe));
    if (paired) {
      pa += n * 4;
      pb += n * 4;
    }
    auto clip = [](const QRectF& r, QPointF inside, QPointF toward) {
      const QPointF d = toward - inside;
      double t = 1.0;
      if (d.x() != 0) t = std::min(t, std::abs((r.width() / 2 + 2) / d.x()));
      if (d.y() != 0) t = std::min(t, std::abs((r.height() / 2 + 2) / d.y()));
      return inside + d * t;
    };
    path.moveTo(clip(a, pa, pb));
    path.lineTo(clip(b, pb, pa));
    return path;
  };

  for (const Edge& e : kEdges) {
    const bool isLit = has_ && lit_ && e.from == from_ && e.to == current_;
    if (!isLit) arrow(edgePath(e.from, e.to), edgeColor, 1.2);
  }
  // "Any state -> ERR/RESET" as IBTA draws it, named once.
  QFont small = font();
  small.setPointSizeF(std::max(7.0, font().pointSizeF() * 0.85));
  p.setFont(small);
  p.setPen(palette().color(QPalette::PlaceholderText));
  p.drawText(QRectF(4, height() - 18, width() * 0.6, 16), Qt::AlignLeft | Qt::AlignVCenter,
             tr("any state \u2192 ERR or RESET by modify_qp"));
  if (has_ && lit_) {
    bool drawn = false;
    for (const Edge& e : kEdges)
      if (e.from == from_ && e.to == current_) {
        arrow(edgePath(e.from, e.to), litColor, 3.0);
        drawn = true;
      }
    if (!drawn && from_ != current_) arrow(edgePath(from_, current_), litColor, 3.0);
  }
  p.setFont(font());
  for (S s : {S::Reset, S::Init, S::Rtr, S::Rts, S::Sqd, S::Sqe, S::Err}) {
    const QRectF r = stateRect(s);
    const bool cur = has_ && s == current_;
    QColor fill = Qt::white;
    if (cur)
      fill = s == S::Err || s == S::Sqe ? QColor(0xff, 0x8a, 0x80)
             : s == S::Rts              ? QColor(0x8e, 0xd8, 0x7e)
                                        : QColor(0xff, 0xd9, 0x66);
    p.setBrush(fill);
    p.setPen(QPen(cur ? QColor(0x33, 0x33, 0x33) : edgeColor, cur ? 2.0 : 1.0));
    p.drawRoundedRect(r, 6, 6);
    QFont f = font();
    f.setBold(cur);
    p.setFont(f);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(r, Qt::AlignCenter, QString::fromUtf8(qpStateName(s).data()));
  }
}

}  // namespace rdmascope::ui
