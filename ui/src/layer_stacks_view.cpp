#include "rdmascope/ui/layer_stacks_view.h"

#include <QCoreApplication>
#include <QEvent>
#include <QHelpEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QVariantAnimation>

namespace rdmascope::ui {

namespace {

constexpr int kZoneRows[] = {2, 4, 6};  // user, kernel, NIC (iWARP has 6 NIC layers)
constexpr const char* kZoneNames[] = {QT_TRANSLATE_NOOP("LayerStacks", "User"),
                                      QT_TRANSLATE_NOOP("LayerStacks", "Kernel"),
                                      QT_TRANSLATE_NOOP("LayerStacks", "NIC")};
const QColor kZoneColors[] = {QColor(0xea, 0xf2, 0xff), QColor(0xff, 0xef, 0xe0),
                              QColor(0xe8, 0xf8, 0xe4)};

QColor kindColor(PathKind k) {
  switch (k) {
    case PathKind::Syscall:
      return {0xc0, 0x39, 0x2b};
    case PathKind::CpuCopy:
      return {0xe6, 0x7e, 0x22};
    case PathKind::Processing:
      return {0x7f, 0x8c, 0x8d};
    case PathKind::Doorbell:
      return {0x8e, 0x44, 0xad};
    case PathKind::Dma:
      return {0x1f, 0x6f, 0xb5};
    case PathKind::Wire:
      return {0x22, 0x22, 0x22};
    case PathKind::Completion:
      return {0x1e, 0x84, 0x49};
  }
  return Qt::black;
}

QString layerText(std::string_view text) {
  return QCoreApplication::translate("LayerStacks", std::string(text).c_str());
}

QString kindName(PathKind k) {
  switch (k) {
    case PathKind::Syscall:
      return QCoreApplication::translate("LayerStacks", "syscall");
    case PathKind::CpuCopy:
      return QCoreApplication::translate("LayerStacks", "CPU copy");
    case PathKind::Processing:
      return QCoreApplication::translate("LayerStacks", "headers");
    case PathKind::Doorbell:
      return QCoreApplication::translate("LayerStacks", "doorbell");
    case PathKind::Dma:
      return QCoreApplication::translate("LayerStacks", "DMA");
    case PathKind::Wire:
      return QCoreApplication::translate("LayerStacks", "wire");
    case PathKind::Completion:
      return QCoreApplication::translate("LayerStacks", "CQE");
  }
  return {};
}

int indexInZone(const StackDef& def, std::size_t layer) {
  int n = 0;
  for (std::size_t i = 0; i < layer; ++i)
    if (def.layers[i].zone == def.layers[layer].zone) ++n;
  return n;
}

QString headerShortName(std::string_view key) {
  if (key == "eth") return QStringLiteral("Eth");
  if (key == "vlan") return QStringLiteral("VLAN");
  if (key == "ip") return QStringLiteral("IPv4");
  if (key == "ipv6") return QStringLiteral("IPv6");
  const auto dot = key.rfind('.');
  std::string_view last = dot == std::string_view::npos ? key : key.substr(dot + 1);
  if (last.starts_with("iwarp_")) last.remove_prefix(6);
  QString s = QString::fromUtf8(last.data(), static_cast<qsizetype>(last.size())).toUpper();
  if (s == QLatin1String("IMMDT")) return QStringLiteral("ImmDt");
  if (s == QLatin1String("RDMA")) return QStringLiteral("RDMAP");
  return s;
}

}  // namespace

LayerStacksView::LayerStacksView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("layerStacks"));
  anim_ = new QVariantAnimation(this);
  anim_->setStartValue(0.0);
  anim_->setEndValue(1.0);
  anim_->setDuration(650);
  anim_->setEasingCurve(QEasingCurve::InOutQuad);
  connect(anim_, &QVariantAnimation::valueChanged, this, [this](const QVariant& v) {
    progress_ = v.toDouble();
    update();
  });
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

QSize LayerStacksView::sizeHint() const {
  return {900, 520};
}
QSize LayerStacksView::minimumSizeHint() const {
  return {560, 360};
}

QFont LayerStacksView::labelFont(QFont font, const QString& text, double width) {
  // A narrow box gets a smaller font before the label is cut (with a little slack: the integer
  // metrics of the eliding round up).
  const double need = QFontMetricsF(font).horizontalAdvance(text);
  if (need > width && font.pointSizeF() > 0)
    font.setPointSizeF(std::max(6.0, font.pointSizeF() * width / need * 0.94));
  return font;
}

void LayerStacksView::setFrame(const packets::Dissection* d) {
  frameStack_ = d ? stackOfFrame(*d) : -1;
  frameLayers_ = 0;
  frameHeaders_.clear();
  if (frameStack_ >= 0) {
    const StackDef& def = stackDefs()[static_cast<std::size_t>(frameStack_)];
    frameLayers_ = layersOfFrame(def, *d);
    QStringList names;
    for (const auto& n : d->nodes) {
      if (n.depth != 0 || n.key == "frame" || n.key == "data" || n.key == "infiniband") continue;
      names << headerShortName(n.key);
    }
    // Header rows of the IB transport sit under a protocol node; list them too.
    for (const auto& n : d->nodes)
      if (n.depth == 1 && n.key.starts_with("infiniband.") && n.key != "infiniband.invariant.crc")
        names << headerShortName(n.key);
    names.removeDuplicates();
    frameHeaders_ = names.join(QStringLiteral(" / "));
  }
  update();
}

void LayerStacksView::setPathStep(Stack stack, int step, bool announce) {
  auto& cur = steps_[static_cast<std::size_t>(stack)];
  const int last = pathLength(stack) - 1;
  step = std::clamp(step, -1, last);
  if (!announce) {
    cur = step;
    update();
    return;
  }
  const bool forward = step > cur || active_ != stack;
  cur = step;
  active_ = stack;
  anim_->stop();
  progress_ = 1.0;
  if (forward && step >= 0) anim_->start();
  update();
  Q_EMIT explanationChanged(currentExplanation());
}

std::span<const PathStep> LayerStacksView::pathOf(Stack stack) const {
  if (stack == Stack::TcpIp && !tcpSteps_.empty()) return tcpSteps_;
  return stackDef(stack).path;
}

void LayerStacksView::setTcpPath(const TcpDataPath& path) {
  tcpTexts_.clear();
  tcpSteps_.clear();
  tcpBytes_ = 0;
  tcpCounts_ = {};
  if (!path.steps.empty()) {
    tcpTexts_.reserve(path.steps.size());
    for (const auto& s : path.steps)
      tcpTexts_.push_back(s.text);
    for (std::size_t i = 0; i < path.steps.size(); ++i) {
      const auto& s = path.steps[i];
      tcpSteps_.push_back({s.kind, s.fromHostB, s.from, s.toHostB, s.to, tcpTexts_[i]});
    }
    tcpBytes_ = path.bytes;
    tcpCounts_ = path.counts;
  }
  auto& cur = steps_[static_cast<std::size_t>(Stack::TcpIp)];
  cur = std::min(cur, pathLength(Stack::TcpIp) - 1);
  update();
}

void LayerStacksView::clearPaths() {
  steps_.fill(-1);
  anim_->stop();
  progress_ = 1.0;
  update();
}

QString LayerStacksView::currentExplanation() const {
  const StackDef& def = stackDef(active_);
  const int s = steps_[static_cast<std::size_t>(active_)];
  if (s < 0) return {};
  const auto path = pathOf(active_);
  const PathStep& step = path[static_cast<std::size_t>(s)];
  return QStringLiteral("%1, step %2 of %3 (%4): %5")
      .arg(layerText(def.name))
      .arg(s + 1)
      .arg(path.size())
      .arg(kindName(step.kind))
      .arg(layerText(step.text));
}

double LayerStacksView::rowHeight() const {
  const double fh = fontMetrics().height();
  const double top = fh * 3.4;
  const double bottom = fh * 5.6;
  const int rows = kZoneRows[0] + kZoneRows[1] + kZoneRows[2] + 2;  // + wire row and gaps
  return std::max(fh * 1.15, (height() - top - bottom) / rows);
}

double LayerStacksView::zoneTop(int zone) const {
  const double fh = fontMetrics().height();
  double y = fh * 3.4;
  for (int z = 0; z < zone; ++z)
    y += kZoneRows[z] * rowHeight() + rowHeight() * 0.25;
  return y;
}

double LayerStacksView::rowTop(Zone zone, int i) const {
  return zoneTop(static_cast<int>(zone)) + i * rowHeight();
}

LayerStacksView::Geometry LayerStacksView::geometryOf(std::size_t stack) const {
  const double gutter = fontMetrics().height() * 1.6;
  const double w = (width() - gutter - 4) / static_cast<double>(kStackCount);
  Geometry g;
  g.panel = QRectF(gutter + w * static_cast<double>(stack), 0, w, height());
  const double gap = std::max(22.0, w * 0.12);
  g.colWidth = (w - gap - 8) / 2;
  g.colA = g.panel.left() + 4;
  g.colB = g.colA + g.colWidth + gap;
  return g;
}

QRectF LayerStacksView::layerRect(Stack stack, bool hostB, int layer) const {
  const auto si = static_cast<std::size_t>(stack);
  const StackDef& def = stackDefs()[si];
  const Geometry g = geometryOf(si);
  const auto li = static_cast<std::size_t>(layer);
  const double rh = rowHeight();
  return QRectF(hostB ? g.colB : g.colA, rowTop(def.layers[li].zone, indexInZone(def, li)) + 2,
                g.colWidth, rh - 4);
}

void LayerStacksView::drawStep(QPainter& p, std::size_t stack, const PathStep& s, double progress,
                               bool current) const {
  const auto st = static_cast<Stack>(stack);
  const QRectF a = layerRect(st, s.fromHostB, s.from);
  const QRectF b = layerRect(st, s.toHostB, s.to);
  QColor c = kindColor(s.kind);
  if (!current) c.setAlpha(110);
  QPen pen(c, current ? 3.2 : 2.0);
  if (s.kind == PathKind::Syscall || s.kind == PathKind::Doorbell) pen.setStyle(Qt::DashLine);
  if (s.kind == PathKind::Processing) pen.setWidthF(current ? 2.2 : 1.4);
  p.setPen(pen);
  p.setBrush(Qt::NoBrush);

  QPainterPath path;
  if (s.kind == PathKind::Wire) {
    const double y = a.bottom() + rowHeight() * 0.55;
    path.moveTo(a.center().x(), a.bottom());
    path.lineTo(a.center().x(), y);
    path.lineTo(b.center().x(), y);
    path.lineTo(b.center().x(), b.bottom());
  } else {
    // Same host: run along the inner edge of the column (towards the other host), bulging out
    // by kind, but never past the middle of the gap (host B's paths bulge from its side).
    const bool right = !s.fromHostB;
    const double x0 = right ? a.right() : a.left();
    const Geometry g = geometryOf(stack);
    const double gap = g.colB - (g.colA + g.colWidth);
    const double scale =
        std::min(1.0, gap * 0.45 / (1.2 * 32.0));  // 1.2 x bulge: the curve's reach
    const double bulge = (right ? 1 : -1) * (8.0 + 4.0 * static_cast<double>(s.kind)) * scale;
    const QPointF p0(x0, a.center().y());
    const QPointF p1(x0, b.center().y());
    path.moveTo(p0);
    path.cubicTo(p0 + QPointF(bulge * 1.6, 0), p1 + QPointF(bulge * 1.6, 0), p1);
  }
  const double t = std::clamp(progress, 0.0, 1.0);
  p.drawPath(path);
  // Arrow head at the end of the path.
  const QPointF tip = path.pointAtPercent(1.0);
  const double ang = path.angleAtPercent(0.97) * M_PI / 180.0;
  const QPointF d(std::cos(ang), -std::sin(ang));
  const QPointF n(-d.y(), d.x());
  const double hs = current ? 9 : 6;
  QPolygonF head{tip, tip - d * hs + n * hs * 0.5, tip - d * hs - n * hs * 0.5};
  p.setBrush(c);
  p.setPen(Qt::NoPen);
  p.drawPolygon(head);
  // The token travels while the step animates; at rest the arrow head shows where it went
  // (a resting token would cover the first letters of the box it points at).
  if (current && t < 1.0) {
    p.setBrush(c);
    p.setPen(QPen(Qt::white, 1.5));
    p.drawEllipse(path.pointAtPercent(t), 5, 5);
  }
}

QString LayerStacksView::stepCaption(Stack stack) const {
  const int s = steps_[static_cast<std::size_t>(stack)];
  if (s < 0) return {};
  const auto path = pathOf(stack);
  return tr("step %1 of %2: %3")
      .arg(s + 1)
      .arg(path.size())
      .arg(kindName(path[static_cast<std::size_t>(s)].kind));
}

QRectF LayerStacksView::stepLabelRect(Stack stack) const {
  // Named under the wire, clear of every box and path (on the path it covered the layers).
  const QString text = stepCaption(stack);
  if (text.isEmpty()) return {};
  QFont f = font();
  f.setBold(true);
  const QFontMetricsF fm(f);
  const Geometry g = geometryOf(static_cast<std::size_t>(stack));
  const double w = std::min(fm.horizontalAdvance(text) + 10, g.panel.width() - 8);
  const double top = zoneTop(2) + kZoneRows[2] * rowHeight() + rowHeight() * 0.3;
  return QRectF(g.panel.center().x() - w / 2, top, w, fm.height() + 2);
}

void LayerStacksView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  p.fillRect(rect(), palette().color(QPalette::Base));
  const QFontMetricsF fm(font());
  const double fh = fm.height();
  const double rh = rowHeight();
  const double gutter = fh * 1.6;

  // Zone bands across every stack, named in the left gutter.
  for (int z = 0; z < 3; ++z) {
    const QRectF band(0, zoneTop(z) - 1, width(), kZoneRows[z] * rh + 2);
    p.fillRect(band, kZoneColors[z]);
    p.save();
    p.translate(fh * 0.3, band.bottom());
    p.rotate(-90);
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(QRectF(0, 0, band.height(), gutter - fh * 0.3), Qt::AlignCenter,
               QCoreApplication::translate("LayerStacks", kZoneNames[z]));
    p.restore();
  }
  const double wireY = zoneTop(2) + kZoneRows[2] * rh;

  QFont bold = font();
  bold.setBold(true);
  QFont small = font();
  small.setPointSizeF(std::max(7.0, font().pointSizeF() * 0.9));

  // Top line: what the selected frame carries.
  p.setPen(palette().color(QPalette::Text));
  const QString frameLine =
      frameStack_ >= 0
          ? tr("Selected frame: %1  \u2192  %2")
                .arg(frameHeaders_,
                     layerText(stackDefs()[static_cast<std::size_t>(frameStack_)].name))
          : tr("Select a frame to see which layers it has headers for.");
  p.drawText(QRectF(gutter, 0, width() - gutter, fh * 1.3), Qt::AlignLeft | Qt::AlignVCenter,
             frameLine);

  for (std::size_t si = 0; si < kStackCount; ++si) {
    const StackDef& def = stackDefs()[si];
    const Geometry g = geometryOf(si);
    const bool frameHere = frameStack_ == static_cast<int>(si);
    const bool activeHere = active_ == def.stack && steps_[si] >= 0;
    // Panel title and host labels.
    p.setFont(bold);
    p.setPen(frameHere || activeHere ? QColor(0x1f, 0x4e, 0x9a) : palette().color(QPalette::Text));
    p.drawText(QRectF(g.panel.left(), fh * 1.25, g.panel.width(), fh * 1.2), Qt::AlignCenter,
               layerText(def.name));
    p.setFont(small);
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(QRectF(g.colA, fh * 2.35, g.colWidth, fh), Qt::AlignCenter, tr("Host A"));
    p.drawText(QRectF(g.colB, fh * 2.35, g.colWidth, fh), Qt::AlignCenter, tr("Host B"));
    // Separator between panels.
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    if (si > 0) p.drawLine(QPointF(g.panel.left(), fh * 1.2), QPointF(g.panel.left(), height()));

    // The kernel is bypassed on the RDMA data path.
    const bool rdma = def.stack != Stack::TcpIp;
    if (rdma) {
      // One hatched box per host, so the data path runs between them, not over the words.
      p.setFont(small);
      const QFontMetricsF sfm(small);
      const QString words = tr("kernel\nbypassed");
      const double ww =
          std::max(sfm.horizontalAdvance(tr("kernel")), sfm.horizontalAdvance(tr("bypassed"))) + 8;
      for (const double x : {g.colA, g.colB}) {
        const QRectF k(x, zoneTop(1) + 3, g.colWidth, kZoneRows[1] * rh - 6);
        p.setBrush(QBrush(QColor(0xd0, 0xb8, 0xa0), Qt::BDiagPattern));
        p.setPen(QPen(QColor(0xb0, 0x90, 0x70), 1, Qt::DashLine));
        p.drawRoundedRect(k, 5, 5);
        QRectF label(0, 0, std::min(ww, k.width() - 4), std::min(sfm.height() * 2 + 4, k.height()));
        label.moveCenter(k.center());
        p.fillRect(label, QColor(255, 255, 255, 220));
        p.setPen(QColor(0x80, 0x60, 0x40));
        p.drawText(label, Qt::AlignCenter, words);
      }
    }

    // Layer boxes for both hosts.
    for (int side = 0; side < 2; ++side) {
      for (std::size_t li = 0; li < def.layers.size(); ++li) {
        const QRectF r = layerRect(def.stack, side == 1, static_cast<int>(li));
        const bool lit = frameHere && (frameLayers_ >> li & 1u);
        p.setBrush(lit ? QColor(0xff, 0xd9, 0x66) : QColor(Qt::white));
        p.setPen(QPen(lit ? QColor(0xb3, 0x80, 0x00) : QColor(0x9a, 0xa5, 0xb1), lit ? 2.0 : 1.0));
        p.drawRoundedRect(r, 4, 4);
        p.setPen(palette().color(QPalette::Text));
        const QString name = layerText(def.layers[li].name);
        const double room = r.width() - 4;
        const QFont f = labelFont(lit ? bold : font(), name, room);
        p.setFont(f);
        p.drawText(r.adjusted(2, 0, -2, 0), Qt::AlignCenter,
                   QFontMetrics(f).elidedText(name, Qt::ElideRight, static_cast<int>(room)));
      }
    }
    p.setFont(font());

    // The wire between the hosts' bottom layers.
    p.setPen(QPen(QColor(0x55, 0x55, 0x55), 1, Qt::DotLine));
    const QRectF lastA = layerRect(def.stack, false, static_cast<int>(def.layers.size()) - 1);
    const QRectF lastB = layerRect(def.stack, true, static_cast<int>(def.layers.size()) - 1);
    const double wy = lastA.bottom() + rh * 0.55;
    p.drawLine(QPointF(lastA.center().x(), wy), QPointF(lastB.center().x(), wy));

    // The data path so far: older steps faint, the current one bold and animated.
    const auto path = pathOf(def.stack);
    const int upto = steps_[si];
    for (int s = 0; s <= upto; ++s)
      drawStep(p, si, path[static_cast<std::size_t>(s)], s == upto ? progress_ : 1.0,
               s == upto && (active_ == def.stack || def.stack == Stack::TcpIp));

    // The current step named under the wire, then what one message costs on this path.
    if (const QRectF cap = stepLabelRect(def.stack); !cap.isEmpty()) {
      const PathStep& now = path[static_cast<std::size_t>(upto)];
      const bool lit = active_ == def.stack || def.stack == Stack::TcpIp;
      QColor c = kindColor(now.kind);
      if (!lit) c.setAlpha(140);
      p.setBrush(QColor(255, 255, 255, 235));
      p.setPen(QPen(c, lit ? 1.6 : 1.0));
      p.drawRoundedRect(cap, 4, 4);
      QFont f = font();
      f.setBold(lit);
      p.setFont(f);
      p.setPen(lit ? c.darker(120) : palette().color(QPalette::PlaceholderText));
      p.drawText(cap, Qt::AlignCenter,
                 QFontMetrics(f).elidedText(stepCaption(def.stack), Qt::ElideRight,
                                            static_cast<int>(cap.width()) - 4));
    }
    p.setFont(small);
    p.setPen(palette().color(QPalette::Text));
    const QRectF counts(g.panel.left() + 4, wireY + rh * 0.3 + fh * 1.45, g.panel.width() - 8,
                        fh * 2.4);
    if (def.stack == Stack::TcpIp && tcpBytes_ > 0) {
      // The TCP model's counts for the current transfer (both hosts).
      const auto& t = tcpCounts_;
      p.drawText(counts, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap,
                 tr("copies %1 (%2 B) \u00b7 syscalls %3\nsegments %4 \u00b7 interrupts %5")
                     .arg(t.copiesA + t.copiesB)
                     .arg(t.bytesCopiedA + t.bytesCopiedB)
                     .arg(t.sendCalls + t.recvCalls)
                     .arg(t.dataSegments)
                     .arg(t.interruptsA + t.interruptsB));
      continue;
    }
    const PathCounts c = countPath(def);
    p.drawText(counts, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap,
               tr("CPU copies %1 \u00b7 syscalls %2\nDMA %3 \u00b7 doorbells %4")
                   .arg(c.cpuCopies)
                   .arg(c.syscalls)
                   .arg(c.dmas)
                   .arg(c.doorbells));
  }

  // Legend.
  p.setFont(small);
  double x = gutter;
  const double ly = height() - fh * 1.2;
  for (PathKind k : {PathKind::CpuCopy, PathKind::Dma, PathKind::Syscall, PathKind::Doorbell,
                     PathKind::Processing, PathKind::Wire, PathKind::Completion}) {
    QPen pen(kindColor(k), 3);
    if (k == PathKind::Syscall || k == PathKind::Doorbell) pen.setStyle(Qt::DashLine);
    p.setPen(pen);
    p.drawLine(QPointF(x, ly + fh * 0.5), QPointF(x + 22, ly + fh * 0.5));
    p.setPen(palette().color(QPalette::Text));
    const QString name = kindName(k);
    p.drawText(QPointF(x + 26, ly + fh * 0.8), name);
    x += 26 + QFontMetricsF(small).horizontalAdvance(name) + 18;
  }
}

bool LayerStacksView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* he = static_cast<QHelpEvent*>(e);
    for (const StackDef& def : stackDefs())
      for (int side = 0; side < 2; ++side)
        for (std::size_t li = 0; li < def.layers.size(); ++li)
          if (layerRect(def.stack, side == 1, static_cast<int>(li)).contains(he->pos())) {
            const auto& l = def.layers[li];
            QToolTip::showText(
                he->globalPos(),
                QStringLiteral("<b>%1</b><br>%2").arg(layerText(l.name), layerText(l.detail)),
                this);
            return true;
          }
    QToolTip::hideText();
    e->ignore();
    return true;
  }
  return QWidget::event(e);
}

}  // namespace rdmascope::ui
